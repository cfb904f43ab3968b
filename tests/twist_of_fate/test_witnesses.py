"""Every committed Twist of Fate witness replays from the start of a game.

The witnesses are read from the committed ``reports/twist-of-fate.md`` (which
tests/test_reports_current.py holds to what ``ruleslawyer report`` writes today). Each
record is replayed from the real set-up: every round start must be one of the model's
chance outcomes (the hands dealt named in the record) and every move a legal move, so
the witness position is reachable. Then each reading's recorded result is worked out
again here, from the model's ``play`` under that reading.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from ruleslawyer.checks.twist_of_fate.search import describe, describe_round
from ruleslawyer.models.twist_of_fate import points
from ruleslawyer.models.twist_of_fate.files import load_deck, state_document
from ruleslawyer.models.twist_of_fate.play import (
    MONKS,
    Move,
    Rules,
    State,
    apply_effects,
    chance_outcomes,
    legal_moves,
    play,
    score,
    start,
    start_two_player,
)

ROOT = Path(__file__).resolve().parents[2]
DECK = load_deck("twist-of-fate")
RULES = Rules()


@cache
def witnesses() -> dict[str, tuple[dict[str, Any], list[str], dict[str, Any]]]:
    text = (ROOT / "reports/twist-of-fate.md").read_text("utf-8")
    out = {}
    for section in text.split("\n## ")[1:]:
        point = section.split("\n", 1)[0].strip()
        block = re.search(r"```json\n(.*?)\n(.*?)\n```", section, re.DOTALL)
        if block is None:
            continue
        rows = re.findall(r"^\| `(.+?)` \| `(.*)` \|$", section, re.MULTILINE)
        results = {name: json.loads(value) for name, value in rows}
        out[point] = (json.loads(block.group(1)), json.loads(block.group(2)), results)
    return out


def names_of(position: dict[str, Any]) -> tuple[str, ...]:
    return tuple(p["name"] for p in position["player"])


def position_of(state: State, names: tuple[str, ...]) -> dict[str, Any]:
    return {"round": state.round, **state_document(state, names)}


def replay(position: dict[str, Any], record: list[str]) -> tuple[State, Move | None, list[State]]:
    """Replay ``record`` from the set-up: the state before the last line, the last move
    (None if the record ends with a round start), and every round's starting state."""
    names = names_of(position)
    if len(names) == 2:
        starts = [s for _, s in start_two_player(DECK)]
    else:
        starts = [start(len(names), DECK)]
    [state] = {s for s in starts if describe_round(s, names) == record[0]}
    rounds = [state]
    before, last = state, None
    for line in record[1:]:
        if line.startswith("round "):
            assert state.round_over and not state.over, line
            outcomes = {s for _, s in chance_outcomes(state, DECK, RULES)}
            matching = [s for s in outcomes if describe_round(s, names) == line]
            assert matching, f"no chance outcome gives: {line}"
            state = matching[0]
            rounds.append(state)
            before, last = state, None
            continue
        moves = [m for m in legal_moves(state, DECK, RULES) if describe(m, state, names) == line]
        assert len(moves) == 1, f"not one legal move: {line}"
        before, last = state, moves[0]
        state = play(state, last, DECK, RULES)
    return before, last, rounds


def seats(state: State, names: tuple[str, ...]) -> dict[str, Any]:
    """Each seat's Luck, Shilling and Sanctuary, and the winner (as the report writes it)."""
    who = names + ((MONKS,) if state.monks is not None else ())
    out: dict[str, Any] = {
        who[i]: {"luck": s.luck, "shilling": s.shilling, "sanctuary": s.sanctuary}
        for i, s in enumerate(state.seats)
    }
    if state.winner is not None:
        out["winner"] = who[state.winner]
    return out


def under(point: Any, reading: str) -> Rules:
    return replace(RULES, **{point.id.split("/", 1)[1].replace("-", "_"): reading})


SEAT_POINTS = (
    points.DOUBLE_THRESHOLD,
    points.SIMULTANEOUS_FINISH,
    points.MONKS_PENALTY_FLOOR,
    points.FINISH_BEFORE_PENALTY,
    points.MONKS_PENALTY_SIZE,
    points.TIE_REMAINING,
    points.GIVES_TAKES_ORDER,
    points.MONKS_FINISH_TIE,
    points.MONKS_PRONOUN,
)


def test_the_report_has_the_witnesses() -> None:
    found = set(witnesses())
    assert {p.id for p in SEAT_POINTS if p.id != points.GIVES_TAKES_ORDER.id} <= found
    assert {points.ENDLESS_GAME.id, points.PICKUP.id, points.CARRY_OVER.id} <= found
    assert points.LEFTOVER_CARDS.id in found


@pytest.mark.parametrize("point_id", sorted(witnesses()))
def test_witness_replays_from_the_start(point_id: str) -> None:
    position, record, _ = witnesses()[point_id]
    before, last, rounds = replay(position, record)
    names = names_of(position)
    if last is None:  # the endless game: the record ends at a round start seen before
        assert point_id == points.ENDLESS_GAME.id
        assert position_of(rounds[-1], names) == position
        return
    assert position_of(before, names) == position


@pytest.mark.parametrize("point", SEAT_POINTS, ids=lambda p: p.id)
def test_seat_results_under_each_reading(point: Any) -> None:
    if point.id not in witnesses():
        pytest.skip("no witness with this deck (info)")
    position, record, results = witnesses()[point.id]
    before, last, _ = replay(position, record)
    names = names_of(position)
    assert set(results) == set(point.reading_names)
    for reading in point.reading_names:
        assert seats(play(before, last, DECK, under(point, reading)), names) == results[reading]
    assert len({json.dumps(v, sort_keys=True) for v in results.values()}) > 1


def test_monks_finish_tie_is_a_real_tie() -> None:
    # The play brings the active player's token and the Monks' to the last card together
    # under the readings in force: no penalty knocks the player back.
    position, record, results = witnesses()[points.MONKS_FINISH_TIE.id]
    before, last, _ = replay(position, record)
    after = play(before, last, DECK, RULES)
    assert after.seats[before.active].sanctuary == 8 == after.seats[before.monks].sanctuary
    assert results["monks"]["winner"] == MONKS
    assert results["active-player"]["winner"] == names_of(position)[before.active]


def test_endless_game_cycle() -> None:
    position, record, results = witnesses()[points.ENDLESS_GAME.id]
    _, _, rounds = replay(position, record)
    first, again = map(int, re.findall(r"\d+", results["repeats"]))
    assert again + 1 == rounds[-1].round
    assert replace(rounds[first - 1], round=0) == replace(rounds[-1], round=0)
    sanctuary = {tuple(s.sanctuary for s in r.seats) for r in rounds[first - 1 :]}
    assert len(sanctuary) == 1  # nobody scored in the repeating rounds


def test_self_play_witnesses() -> None:
    position, record, results = witnesses()[points.SELF_PLAY_FACE_DOWN.id]
    before, last, _ = replay(position, record)
    me = names_of(position)[before.active]
    for reading in points.SELF_PLAY_FACE_DOWN.reading_names:
        rules = under(points.SELF_PLAY_FACE_DOWN, reading)
        outcomes = []
        for m in legal_moves(before, DECK, rules):
            if m.card == last.card:
                after = seats(play(before, m, DECK, rules), names_of(position))
                won = {"winner": after["winner"]} if "winner" in after else {}
                outcome = {**after[me], **won}
                if outcome not in outcomes:
                    outcomes.append(outcome)
        key = lambda o: json.dumps(o, sort_keys=False)  # noqa: E731
        assert sorted(outcomes, key=key) == sorted(results[reading], key=key)
        assert all("sanctuary" in o for o in results[reading])
    count = witnesses()[points.SELF_PLAY_COUNT.id]
    before, last, _ = replay(count[0], count[1])
    assert last.target == before.active  # forced in front of oneself


def test_face_down_at_zero_witness() -> None:
    position, record, results = witnesses()[points.FACE_DOWN_AT_ZERO.id]
    before, last, _ = replay(position, record)
    assert seats(play(before, last, DECK, RULES), names_of(position)) == results["clamp"]
    strict = under(points.FACE_DOWN_AT_ZERO, "must-decrease")
    assert last not in legal_moves(before, DECK, strict)


@pytest.mark.parametrize("point", [points.PICKUP, points.CARRY_OVER], ids=lambda p: p.id)
def test_next_round_witnesses(point: Any) -> None:
    position, record, results = witnesses()[point.id]
    before, last, _ = replay(position, record)
    after = play(before, last, DECK, RULES)
    assert after.round_over and not after.over
    names = names_of(position)
    for reading in point.reading_names:
        [(_, nxt)] = chance_outcomes(after, DECK, under(point, reading))
        if point is points.PICKUP:
            shown: dict[str, Any] = {names[p]: list(nxt.seats[p].hand) for p in range(3)}
        else:
            shown = {
                names[p]: {"luck": s.luck, "shilling": s.shilling} for p, s in enumerate(nxt.seats)
            }
        assert shown == results[reading]


def test_monks_pronoun_witness_scores_only_one_of_the_two() -> None:
    # The play on the Monks brings exactly one of the two to a score: the readings of "him"
    # part on it.
    position, record, _ = witnesses()[points.MONKS_PRONOUN.id]
    before, last, _ = replay(position, record)
    assert last.target == before.monks
    seats = apply_effects(before, last, DECK, RULES)
    _, player_points = score(seats[before.active], RULES)
    _, monks_points = score(seats[before.monks], RULES)
    assert (player_points > 0) != (monks_points > 0)


def test_leftover_cards_witness() -> None:
    # The last move ends round 2 of a 2-player game; round 3's hands are the same under both
    # readings (the same draw, the first chance outcome), the cards saved for the round after
    # are six (merged) or none (set-aside).
    position, record, results = witnesses()[points.LEFTOVER_CARDS.id]
    before, last, _ = replay(position, record)
    after = play(before, last, DECK, RULES)
    assert after.round == 2 and after.round_over and not after.over
    names = names_of(position)
    for reading in points.LEFTOVER_CARDS.reading_names:
        nxt = chance_outcomes(after, DECK, under(points.LEFTOVER_CARDS, reading))[0][1]
        hands = {names[p]: list(nxt.seats[p].hand) for p in range(2)}
        assert {"hands": hands, "unused": list(nxt.unused)} == results[reading]
    assert len(results["merged"]["unused"]) == 6 and results["set-aside"]["unused"] == []
    assert results["merged"]["hands"] == results["set-aside"]["hands"]
