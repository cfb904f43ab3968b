"""The files the per-game commands read (positions, logs, records), told apart from game files.

``ruleslawyer check FILE`` reads game files; given one of these instead (with a
``game = "<id>"`` key or without) it says which command reads it rather than
failing on a missing key. A file is taken for the kind whose top-level keys it
shares most (then: the kind with fewest keys it lacks); a tie is no kind.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any

from ruleslawyer.errors import InputError, Shown

# Keys every kind may have, which tell none apart.
COMMON = frozenset({"game", "rulings"})
_K_POSITION = frozenset(
    {
        "board", "nests", "supply", "explorers", "bloodsuckers", "traps", "removed_from_play",
        "trap_tokens", "turn", "nightmares",
    }
)  # fmt: skip
_TC_RECORD = frozenset(
    {"game_file", "perspective", "rounds_played", "excluded_traits", "player", "reveal", "known"}
)
# (what the file is, the command that reads it (None: a game file, which check reads),
# its top-level keys as its reader's model has them: tests/test_gamefiles.py)
KINDS: tuple[tuple[str, str | None, frozenset[str]], ...] = (
    (
        "a Kaelyfos board",
        None,
        frozenset(
            {
                "name", "provenance", "supply", "trap_tokens", "doppelganger_trap_tokens",
                "triggers", "node", "edge", "behavior",
            }
        ),
    ),
    ("a Kaelyfos position", "ruleslawyer kaelyfos step", _K_POSITION | {"actions", "card"}),
    ("a Kaelyfos advice file", "ruleslawyer kaelyfos advise", _K_POSITION | {"material", "spent"}),
    (
        "a Kaelyfos timeline",
        "ruleslawyer kaelyfos advance",
        frozenset({"board", "marker", "advance", "deck", "revealed"}),
    ),
    (
        "a Cunning Folk game file",
        None,
        frozenset({"provenance", "composition", "grid", "bonus", "scoundrels"}),
    ),
    (
        "a Cunning Folk log of play",
        "ruleslawyer cunning-folk deduce",
        frozenset(
            {"setup", "bonus", "players", "perspective", "kept", "discarded", "suspected", "event"}
        ),
    ),
    ("a Twist of Fate deck", None, frozenset({"name", "provenance", "character"})),
    (
        "a Twist of Fate position",
        "ruleslawyer twist-of-fate solve",
        frozenset(
            {"deck", "active", "player", "monks", "round", "starter", "unused", "hidden"}
        ),
    ),
    (
        "a Twisted Cryptids game file",
        None,
        frozenset(
            {
                "provenance", "rounds", "start_myth", "hand_size", "real_deal",
                "real_deal_bonus", "rest_area", "sighting", "site", "cryptid", "action", "event",
                "trait",
            }
        ),
    ),
    ("a Twisted Cryptids record of play", "ruleslawyer twisted-cryptids stacks", _TC_RECORD),
    (
        "a Twisted Cryptids record with a [position]",
        "ruleslawyer twisted-cryptids advise",
        _TC_RECORD | {"position"},
    ),
)  # fmt: skip


def file_kind(document: Mapping[str, Any]) -> tuple[str, str | None] | None:
    """(what the file is, the command that reads it, None for a game file) by its keys, or
    None when no kind fits better than every other."""
    keys = document.keys() - COMMON

    def fit(kind: tuple[str, str | None, frozenset[str]]) -> tuple[int, int]:
        return len(keys & kind[2]), -len(kind[2] - keys)

    ranked = sorted(KINDS, key=fit, reverse=True)
    best, second = ranked[0], ranked[1]
    if fit(best)[0] == 0 or fit(best) == fit(second):
        return None
    return best[0], best[1]


def input_file_kind(document: Mapping[str, Any]) -> tuple[str, str] | None:
    """(what the file is, the command that reads it) for a non-game input file, else None."""
    found = file_kind(document)
    if found is None or found[1] is None:
        return None
    return found[0], found[1]


def reject_input_file(document: Mapping[str, Any], source: str) -> None:
    """Raise a one-line error naming the right command when ``document`` is not a game file."""
    found = input_file_kind(document)
    if found is not None:
        what, command = found
        raise InputError(
            source,
            "",
            f"{what}, not a game file",
            f"a game file; read this one with `{command} {shlex.quote(source)}`",
        )


def require_kind(document: Mapping[str, Any], source: str, *accepted: str) -> None:
    """Raise a one-line error naming the command that reads ``document`` when its keys make it
    another kind of file than one of ``accepted`` (what :data:`KINDS` calls them); a file of
    no clear kind is left to its reader, whose errors name the key."""
    found = file_kind(document)
    if found is None or found[0] in accepted:
        return
    what, command = found
    reader = f"`{command or 'ruleslawyer check'} {shlex.quote(source)}`"
    expected = f"{' or '.join(accepted)}; read this one with {reader}"
    raise InputError(source, "", Shown(what), expected)
