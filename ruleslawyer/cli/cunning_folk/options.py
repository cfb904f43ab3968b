"""Option checks the ``cunning-folk`` commands share."""

from __future__ import annotations

import click


def check_seconds(ctx: click.Context, param: click.Parameter, value: float) -> float:
    if value != value:  # NaN passes every range check
        raise click.BadParameter("found nan, expected a number of seconds from 0 to 86400")
    return value
