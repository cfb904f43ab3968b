"""The solvers: known answers by hand; the Numba solver held to the reference on small positions."""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.models.twist_of_fate.files import (
    Position,
    dumps,
    load_deck,
    load_position,
    position_document,
    position_from_document,
)
from ruleslawyer.models.twist_of_fate.play import Rules, Seat, Side, State
from ruleslawyer.solvers.twist_of_fate import memory
from ruleslawyer.solvers.twist_of_fate.common import FIELDS
from ruleslawyer.solvers.twist_of_fate.reference import solve as reference

ROOT = Path(__file__).resolve().parents[2]
DECK = load_deck("twist-of-fate")
FULL = ["Nancy", "Fagin", "Bill Sikes", "Mr. Bumble", "The Artful Dodger"]
EXAMPLE = {
    "deck": "twist-of-fate",
    "active": "eliza",
    "player": [
        {"name": "eliza", "luck": 3, "hand": ["Mr. Brownlow"], "in_front": FULL},
        {"name": "zach", "luck": 1, "in_front": FULL},
        {"name": "ann", "in_front": [*FULL, "Mr. Brownlow"]},
    ],
}


def test_rulebook_example_solved_by_hand() -> None:
    # Eliza's last card of the round, Mr. Brownlow, can only go on Zach (Ann is full).
    # Six moves: face up side 0 (the rulebook's play: Eliza 4/1 scores -> Sanctuary 1),
    # face up side 1 (Eliza takes -2 Luck +2 Shilling: 1/2, no score), and four face-down
    # plays (Eliza raising Luck reaches 4/0 and scores; raising Shilling gives 2/1).
    # Every move ends the round; the six end states differ (Zach's values differ too), so
    # end_states = 6 and states = 6 + the root = 7. Best guaranteed: 1, first reached by
    # the rulebook's own play.
    position = position_from_document(EXAMPLE, "example")
    for solve in (reference.solve, memory.solve):
        result = solve(position, Rules())
        assert result.finished
        assert result.guaranteed_sanctuary == 1 == result.reachable_max_sanctuary
        assert result.best_move == {
            "card": "Mr. Brownlow",
            "target": "zach",
            "play": "face-up",
            "side": 0,
            "target_gets": {"luck": -2, "shilling": 2},
        }
        assert (result.end_states, result.states) == (6, 7)
        assert result.guaranteed_win is False and result.possible_win is False


def test_two_card_win_known_answer() -> None:
    # Ann on Sanctuary 7 with 3 Luck holds Nancy; Bob (7, 0/0) holds Fagin; Cat is full.
    # Ann plays first. Nancy's sides are +2 Luck and +1 Luck -1 Shilling: either side
    # left to Ann brings her Luck to 4 -> Sanctuary 8, so the game ends at once and Ann
    # wins (so does face down raising Luck). The win is guaranteed, the horizon comes
    # before Bob plays, and the best move is the first winning move in order: Nancy face
    # up, side 0 facing Bob (Ann keeps +1 Luck -1 Shilling). Six moves + the root: of the
    # six children, the face-down ones raising Shilling do not win (Ann 2/1).
    doc = {
        "active": "ann",
        "player": [
            {"name": "ann", "luck": 3, "sanctuary": 7, "hand": ["Nancy"], "in_front": FULL[1:]},
            {"name": "bob", "sanctuary": 7, "hand": ["Fagin"], "in_front": FULL[:4]},
            {"name": "cat", "in_front": [*FULL, "Mr. Brownlow"]},
        ],
    }
    position = position_from_document(doc, "two-card")
    ref = reference.solve(position, Rules())
    assert ref.guaranteed_win and ref.possible_win and ref.guaranteed_sanctuary == 8
    assert ref.best_move["card"] == "Nancy" and ref.best_move["side"] == 0
    assert ref.reachable_max_sanctuary == 8
    assert memory.solve(position, Rules()).answer() == ref.answer()


def test_unfinished_search_withholds_values() -> None:
    position = load_position(ROOT / "ruleslawyer/data/positions/twist-of-fate-3p-6.toml")
    for solve in (reference.solve, memory.solve):
        result = solve(position, Rules(), Budget(max_states=2000))
        assert not result.finished
        assert result.guaranteed_sanctuary is None and result.end_states is None
        assert result.best_move is None and result.states >= 2000


@pytest.mark.parametrize("threads", [2, 3, 4])
@pytest.mark.parametrize("first_capacity", [1 << 18, 1 << 10])
def test_threads_share_the_tables_without_changing_the_answer(
    threads: int, first_capacity: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Several searches over one set of tables: every count (states, end states) and
    # value must be what one search finds; a state inserted twice would show here.
    # Small first tables make them grow many times, copied by all the threads at once.
    position = load_position(ROOT / "ruleslawyer/data/positions/twist-of-fate-3p-6.toml")
    alone = memory.solve(position, Rules(), threads=1).answer()
    assert alone["states"] == 163_968 and alone["end_states"] == 42_147
    monkeypatch.setattr(memory, "FIRST_CAPACITY", first_capacity)
    for _ in range(3):
        assert memory.solve(position, Rules(), threads=threads).answer() == alone


def test_cli_memory_cap_stops_with_finished_false() -> None:
    # 20 MiB: the first tables take 10 MiB; the main table grows in place by 4 MiB,
    # then would by 8 MiB more, past 20.
    path = ROOT / "ruleslawyer/data/positions/twist-of-fate-3p-9.toml"
    args = ["twist-of-fate", "solve", str(path), "--format", "json", "--max-memory", "0.02"]
    args += ["--model", "paranoid", "--exhaustive"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 3, result.output  # 3: the search did not finish (README)
    out = json.loads(result.output)
    assert out["finished"] is False and out["end_states"] is None
    assert 0 < out["states"] < 14_539_897


# --- differential: small random positions -------------------------------------------

NAMES = DECK.names
# The built-in deck with three sides that give and take one value (gives-takes-order parts).
OVERLAP_DECK = replace(
    DECK,
    characters=(
        replace(DECK.characters[0], sides=(Side((0, 2), (2, 0)), Side((2, 1), (1, 0)))),
        replace(DECK.characters[1], sides=(Side((1, 3), (0, 2)), DECK.characters[1].sides[1])),
        *DECK.characters[2:4],
        replace(DECK.characters[4], sides=(DECK.characters[4].sides[0], Side((3, 1), (1, 2)))),
        DECK.characters[5],
    ),
)


@st.composite
def positions(draw: st.DrawFn, most: int = 6) -> tuple[Position, Rules]:
    """A position with at most ``most`` cards left in the round, and random readings."""
    players = draw(st.sampled_from((2, 3, 3, 4)))
    seats_n = players + (1 if players == 2 else 0)
    cards_left = draw(st.integers(1, most if players < 4 else min(most, 4)))
    counts = [draw(st.integers(0, 6)) for _ in range(seats_n)]
    while sum(6 - c for c in counts) < cards_left:
        counts[counts.index(max(counts))] -= 1
    holders = [draw(st.integers(0, players - 1)) for _ in range(cards_left)]
    seats = []
    for s in range(seats_n):
        hand = [draw(st.sampled_from(NAMES)) for h in holders if h == s] if s < players else []
        seats.append(
            Seat(
                luck=draw(st.integers(0, 4)),
                shilling=draw(st.integers(0, 4)),
                sanctuary=draw(st.integers(4, 8)),
                hand=DECK.sort(hand),
                in_front=DECK.sort([draw(st.sampled_from(NAMES)) for _ in range(counts[s])]),
            )
        )
    active = holders[0]
    deck = draw(st.sampled_from((DECK, OVERLAP_DECK)))
    rules = Rules(
        double_threshold=draw(
            st.sampled_from(("two-points", "one-point-reset-both", "one-point-reset-one"))
        ),
        simultaneous_finish=draw(st.sampled_from(("tie-break", "active-first"))),
        self_play_face_down=draw(st.sampled_from(("allowed", "not-allowed"))),
        monks_penalty_floor=draw(st.sampled_from(("floor-at-zero", "negative"))),
        finish_before_penalty=draw(st.sampled_from(("game-ends-first", "penalty-first"))),
        monks_penalty_size=draw(st.sampled_from(("one-point", "per-point"))),
        face_down_at_zero=draw(st.sampled_from(("clamp", "must-decrease"))),
        tie_remaining=draw(st.sampled_from(("after-reset", "before-reset"))),
        gives_takes_order=draw(st.sampled_from(("net", "gives-first", "takes-first"))),
        monks_finish_tie=draw(st.sampled_from(("tie-rule", "active-player", "monks"))),
        monks_pronoun=draw(st.sampled_from(("the-monks", "the-player"))),
    )
    state = State(seats=tuple(seats), players=players, active=active, starter=active)
    names = ("ann", "bob", "cat", "dan")[:players]
    return Position(state, names, deck, {}), rules


def _numba_agrees_with_reference(case: tuple[Position, Rules]) -> None:
    position, rules = case
    ref = reference.solve(position, rules)
    fast = memory.solve(position, rules)
    assert ref.finished and fast.finished
    assert fast.answer() == ref.answer()


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(positions(most=4))
def test_numba_agrees_with_reference(case: tuple[Position, Rules]) -> None:
    # up to four cards: the plain reference takes a second at most (six: minutes)
    _numba_agrees_with_reference(case)


@pytest.mark.slow
@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(positions())
def test_numba_agrees_with_reference_up_to_six_cards(case: tuple[Position, Rules]) -> None:
    _numba_agrees_with_reference(case)


@settings(max_examples=20, deadline=None)
@given(positions())
def test_position_file_round_trip(case: tuple[Position, Rules]) -> None:
    drawn, _ = case
    # a file holds only positions the rules can reach: no card resting at 4 (scored and
    # reset at once), and round 2, whose hands are cards others played (any mix)
    seats = tuple(
        replace(s, luck=min(s.luck, 3), shilling=min(s.shilling, 3)) for s in drawn.state.seats
    )
    state = replace(drawn.state, seats=seats, round=2)
    position = Position(state, drawn.names, drawn.deck, drawn.rulings)
    text = dumps(position_document(position))
    again = position_from_document(tomllib.loads(text), "round-trip")
    assert again.state == position.state
    assert again.names == position.names


# --- the command line ------------------------------------------------------------------


def test_cli_solve_json_has_exactly_the_issue_fields(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text(dumps(EXAMPLE), "utf-8")
    args = ["twist-of-fate", "solve", str(path), "--format", "json", "--model", "paranoid"]
    result = CliRunner().invoke(cli, [*args, "--exhaustive"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    extra = ("schema_version", "model", "utility", "tie_break", "horizon", "value", "moves", "line")
    assert sorted(out) == sorted((*FIELDS, *extra, "search", "nodes"))
    assert out["guaranteed_sanctuary"] == 1 and out["finished"] is True
    # the pruned search (the default): the same fields but the count of states, and the
    # player to move (`to_move`: --seat can ask about another seat than the one moving)
    pruned = json.loads(CliRunner().invoke(cli, args).output)
    assert sorted(pruned) == sorted([*(name for name in out if name != "states"), "to_move"])
    assert pruned["to_move"] == pruned["player"] == out["player"]
    assert pruned["guaranteed_sanctuary"] == 1 and pruned["best_move"] == out["best_move"]


def test_cli_ruling_changes_the_answer(tmp_path: Path) -> None:
    # Eliza 3/3 with Mr. Brownlow: side 0 towards Zach gives her 4/4. Two points under
    # the default reading, one under one-point-reset-both.
    doc = json.loads(json.dumps(EXAMPLE))
    doc["player"][0]["shilling"] = 3
    path = tmp_path / "p.toml"
    path.write_text(dumps(doc), "utf-8")
    args = ["twist-of-fate", "solve", str(path), "--format", "json", "--solver", "reference"]
    args += ["--model", "paranoid"]
    plain = json.loads(CliRunner().invoke(cli, args).output)
    ruled = CliRunner().invoke(
        cli, [*args, "--ruling", "twist-of-fate/double-threshold=one-point-reset-both"]
    )
    assert plain["guaranteed_sanctuary"] == 2
    assert json.loads(ruled.output)["guaranteed_sanctuary"] == 1


def _bad(tmp_path: Path, doc: dict) -> tuple[int, str]:
    path = tmp_path / "bad.toml"
    path.write_text(dumps(doc), "utf-8")
    result = CliRunner().invoke(cli, ["twist-of-fate", "solve", str(path)])
    return result.exit_code, result.stderr


def _with(player: int, **changes: object) -> dict:
    doc = json.loads(json.dumps(EXAMPLE))
    doc["player"][player].update(changes)
    return doc


def test_bad_input_exits_2_naming_file_place_and_value(tmp_path: Path) -> None:
    cases = [
        (_with(0, hand=["Mr. Brownlow", "Oliver"]), "player[0].hand[1]", "'Oliver'"),
        (_with(1, hand=["Nancy"] * 7), "player[1].hand", "7"),
        (_with(2, in_front=[*FULL, "Nancy", "Fagin"]), "player[2].in_front", "7"),
        (_with(0, luck=5), "player[0].luck", "5"),
        (_with(1, shilling=-1), "player[1].shilling", "-1"),
        (_with(2, sanctuary=9), "player[2].sanctuary", "9"),
        ({**EXAMPLE, "active": "oliver"}, "active", "'oliver'"),
    ]
    for doc, place, value in cases:
        code, err = _bad(tmp_path, doc)
        assert code == 2, (place, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert "bad.toml" in lines[0] and place in lines[0] and f"found {value}" in lines[0]
        assert "expected" in lines[0]


def test_unknown_key_is_an_input_error(tmp_path: Path) -> None:
    code, err = _bad(tmp_path, {**EXAMPLE, "players": []})
    assert code == 2 and "players" in err and "no such key" in err


def test_two_players_need_the_monks(tmp_path: Path) -> None:
    doc = json.loads(json.dumps(EXAMPLE))
    doc["player"] = doc["player"][:2]
    code, err = _bad(tmp_path, doc)
    assert code == 2 and "monks" in err


def test_committed_positions_load() -> None:
    for path in sorted((ROOT / "ruleslawyer/data/positions").glob("twist-of-fate-*.toml")):
        position = load_position(path)
        left = sum(len(s.hand) for s in position.state.seats)
        assert str(left) in path.stem.rsplit("-", 1)[-1]


def test_replace_keeps_state_frozen() -> None:
    state = position_from_document(EXAMPLE, "x").state
    assert replace(state, active=1) != state


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(most=5))
def test_numba_agrees_with_reference_exhaustively(case: tuple[Position, Rules]) -> None:
    position, rules = case
    ref = reference.solve(position, rules)
    assert memory.solve(position, rules).answer() == ref.answer()


def test_advise_is_an_alias_of_solve_shown_in_help(tmp_path: Path) -> None:
    runner = CliRunner()
    listed = runner.invoke(cli, ["twist-of-fate", "--help"])
    assert "advise   Alias of solve" in listed.output
    position = tmp_path / "example.toml"
    position.write_text(dumps(EXAMPLE), "utf-8")
    args = [str(position), "--format", "json", "--model", "paranoid"]
    solved = runner.invoke(cli, ["twist-of-fate", "solve", *args])
    advised = runner.invoke(cli, ["twist-of-fate", "advise", *args])
    assert solved.exit_code == advised.exit_code == 0, advised.output
    timed = json.loads(solved.output), json.loads(advised.output)
    for out in timed:
        out.pop("seconds")
    assert timed[0] == timed[1]
