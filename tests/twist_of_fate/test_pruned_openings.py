"""The recorded answers of the opening rounds, re-checked in part (slow).

`tests/twist_of_fate/recorded/twist-of-fate-3p-18-start*-paranoid.json` hold the
pruned paranoid search's answers of `benchmarks/twist-of-fate-3p-18-start.toml`
(every seat's guarantee after each of the first player's openings), and
`twist-of-fate-2p-18-start*-paranoid.json` those of the 2-player opening, each
with the command, commit, date and machine that made it. These tests run a
cheaper part of each again and hold it to the record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.twist_of_fate.files import Position, load_position
from ruleslawyer.models.twist_of_fate.play import Rules, legal_moves, play
from ruleslawyer.solvers.twist_of_fate.common import move_json
from ruleslawyer.solvers.twist_of_fate.maxn import utility_json
from ruleslawyer.solvers.twist_of_fate.pruned import driver

ROOT = Path(__file__).resolve().parents[2]
OPENING = ROOT / "benchmarks" / "twist-of-fate-3p-18-start.toml"
RECORDED = Path(__file__).resolve().parent / "recorded"


def _record(seat: str = "") -> dict[str, Any]:
    name = f"twist-of-fate-3p-18-start{'-' + seat if seat else ''}-paranoid.json"
    return json.loads((RECORDED / name).read_text("utf-8"))


def _check_moves(answer: dict[str, Any], sign: int) -> None:
    """A record's own consistency: every opening scored, the value its best (the
    highest for the player to move, the lowest for another seat), the best move the
    first of that value in legal-move order."""
    me = answer["player"]
    ranked = [(_rank(m["value"][me]), m["move"]) for m in answer["moves"]]
    assert len(ranked) == 72  # 6 characters x 2 targets x 6 plays
    best = max(sign * r for r, _ in ranked)
    assert sign * _rank(answer["value"][me]) == best
    assert next(m for r, m in ranked if sign * r == best) == answer["best_move"]


def _rank(value: dict[str, Any]) -> int:
    """A utility as JSON ranked as the search ranks it (open: by Sanctuary, then Luck +
    Shilling; the openings of this round end neither won nor lost)."""
    assert value["outcome"] == "open"
    return value["sanctuary"] * 16 + value["luck_plus_shilling"]


@pytest.mark.slow
def test_the_first_players_opening_as_recorded() -> None:
    # the best move, value and guarantees again through the command line (about 9 M
    # nodes: seconds), without --every-move (the record scored all 72 openings)
    record = _record()["answer"]
    _check_moves(record, 1)
    result = CliRunner().invoke(
        cli, ["twist-of-fate", "solve", str(OPENING), "--model", "paranoid", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    for name in ("player", "best_move", "value", "guaranteed_sanctuary", "guaranteed_win"):
        assert found[name] == record[name], name


def _after(position: Position, rules: Rules, move: dict[str, Any]) -> Position:
    """The position after the first player's opening ``move`` (as the JSON names it)."""
    state = position.state
    names = position.names
    for m in legal_moves(state, position.deck, rules):
        if move_json(m, state.active, names, position.deck) == move:
            return Position(play(state, m, position.deck, rules), names, position.deck, {})
    raise AssertionError(f"no opening {move}")


@pytest.mark.slow
@pytest.mark.parametrize("seat", ["bob", "cat"])
def test_the_other_seats_guarantee_after_the_best_opening_as_recorded(seat: str) -> None:
    # one opening of the 72 (the first player's recorded best), its position solved
    # afresh with the seat's value asked (bob moves next: for bob his own best reply)
    record = _record(seat)["answer"]
    _check_moves(record, -1)
    position = load_position(str(OPENING))
    rules = Rules.from_rulings(dict(position.rulings))
    opening = _record()["answer"]["best_move"]
    after = _after(position, rules, opening)
    found = driver.solve(after, rules, seat=position.names.index(seat))
    assert found.finished and found.value is not None
    recorded = next(m for m in record["moves"] if m["move"] == opening)["value"][seat]
    assert utility_json(driver.utility_of(found.value)) == recorded


@pytest.mark.slow
def test_the_two_player_openings_guarantee_as_recorded() -> None:
    # the 2-player opening (one deal, with the Monks): the recorded guarantee of the
    # first player again by two null-window proofs (at least it, not one more),
    # cheaper than the search for the best move the record made
    record = json.loads((RECORDED / "twist-of-fate-2p-18-start-paranoid.json").read_text())
    answer = record["answer"]
    position = load_position(str(ROOT / "benchmarks" / "twist-of-fate-2p-18-start.toml"))
    rules = Rules.from_rulings(dict(position.rulings))
    k = answer["guaranteed_sanctuary"]
    assert answer["guaranteed_win"] is False and k is not None
    assert driver.prove_sanctuary(position, rules, k)[0] is True
    assert driver.prove_sanctuary(position, rules, k + 1)[0] is False
