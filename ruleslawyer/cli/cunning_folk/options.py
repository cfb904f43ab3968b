"""Option types the ``cunning-folk`` commands share."""

from __future__ import annotations

from ruleslawyer.cli.common import Number

SECONDS = Number("seconds", above=0, most=86400)
