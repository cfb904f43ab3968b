"""Twist of Fate answers for ``ruleslawyer diff``: the benchmark positions, solved.

The positions ship in ``ruleslawyer/data/positions``. Each is solved with the
game file's deck (a position naming a card the deck lacks gives None) under
the rulings in force. Only the positions that solve in seconds are used:
the 2-player 10-card and the 3-player 12-card positions take minutes and are
left to the benchmark.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ruleslawyer.budget import Budget
from ruleslawyer.errors import InputError
from ruleslawyer.gamefiles.source import GameSource, builtin_path, read_toml

POSITIONS = ("twist-of-fate-3p-6", "twist-of-fate-3p-9")
SECONDS_EACH = 120.0


def position_with_deck(name: str, source: GameSource, rules: Any) -> Any | None:
    """A shipped position with ``source``'s deck; None if it names a card the deck lacks."""
    from ruleslawyer.models.twist_of_fate.files import GAME_ID, position_from_document

    display = f"ruleslawyer/data/positions/{name}.toml"
    _, doc = read_toml(builtin_path(f"positions/{name}.toml"), display=display)
    deck = GAME_ID if source.built_in else str(source.path.resolve())
    try:
        return position_from_document({**doc, "deck": deck}, display, rules=rules)
    except InputError:
        return None


def solve_with_deck(
    name: str, source: GameSource, rulings: Mapping[str, str], budget: Budget
) -> dict[str, Any] | None:
    """The solver's answer (every field but timing and state counts) on a shipped position."""
    from ruleslawyer.models.twist_of_fate.play import Rules
    from ruleslawyer.solvers.twist_of_fate.memory import solve

    rules = Rules.from_rulings(rulings)
    position = position_with_deck(name, source, rules)
    if position is None:
        return None
    answer = solve(position, rules, budget).answer()
    answer.pop("states", None)
    return answer


def analysis(source: GameSource, rulings: Mapping[str, str]) -> dict[str, Any]:
    return {
        name: solve_with_deck(name, source, rulings, Budget(max_seconds=SECONDS_EACH))
        for name in POSITIONS
    }
