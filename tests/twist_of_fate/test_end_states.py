"""The Numba solver's list of distinct end states equals the reference search's set."""

from __future__ import annotations

from pathlib import Path

from ruleslawyer.budget import Budget
from ruleslawyer.models.twist_of_fate.files import load_position
from ruleslawyer.models.twist_of_fate.play import Rules
from ruleslawyer.solvers.twist_of_fate.memory import end_states, solve
from ruleslawyer.solvers.twist_of_fate.reference import solve as reference

ROOT = Path(__file__).resolve().parents[2]


def test_end_states_match_the_reference_and_the_count() -> None:
    position = load_position(ROOT / "examples/twist-of-fate/brownlow.toml")
    rules = Rules()
    ends = end_states(position, rules)
    search = reference._Search(position.deck, rules, position.state.active, Budget())
    search.value(position.state)
    assert ends == sorted(search.ends)
    assert len(ends) == solve(position, rules).end_states
    assert all(0 <= luck <= 4 and 0 <= shilling <= 4 for end in ends for luck, shilling, _ in end)


def test_end_states_say_none_when_cut() -> None:
    position = load_position(ROOT / "ruleslawyer/data/positions/twist-of-fate-3p-9.toml")
    assert end_states(position, Rules(), Budget(max_states=1000)) is None
