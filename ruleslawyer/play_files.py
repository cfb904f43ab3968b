"""The files the per-game commands read (positions, logs, records), told apart from game files.

``ruleslawyer check FILE`` reads game files; given one of these instead it says
which command reads it rather than failing on a missing key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ruleslawyer.errors import InputError

# (top-level keys that mark the file, what it is, the command that reads it)
INPUT_FILES = (
    (frozenset({"board", "card"}), "a Kaelyfos position", "ruleslawyer kaelyfos step"),
    (
        frozenset({"event", "perspective"}),
        "a Cunning Folk log of play",
        "ruleslawyer cunning-folk deduce",
    ),
    (
        frozenset({"active", "player"}),
        "a Twist of Fate position",
        "ruleslawyer twist-of-fate solve",
    ),
    (
        frozenset({"perspective", "rounds_played"}),
        "a Twisted Cryptids record of play",
        "ruleslawyer twisted-cryptids stacks",
    ),
)


def input_file_kind(document: Mapping[str, Any]) -> tuple[str, str] | None:
    """(what the file is, the command that reads it) for a non-game input file, else None."""
    for keys, what, command in INPUT_FILES:
        if keys <= document.keys():
            return what, command
    return None


def reject_input_file(document: Mapping[str, Any], source: str) -> None:
    """Raise a one-line error naming the right command when ``document`` is not a game file."""
    found = input_file_kind(document)
    if found is not None:
        what, command = found
        raise InputError(
            source,
            "",
            f"{what}, not a game file",
            f"a game file; read this one with `{command} {source}`",
        )
