"""Issue 11 (rule fidelity, round 2): each defect and new rule point, worked out by hand."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.twist_of_fate.files import (
    deck_from_document,
    dumps,
    load_deck,
    position_from_document,
)
from ruleslawyer.models.twist_of_fate.play import (
    FACE_DOWN,
    FACE_UP,
    LUCK,
    SHILLING,
    Move,
    Rules,
    Seat,
    Side,
    State,
    adjust,
    chance_outcomes,
    legal_moves,
    step,
)
from ruleslawyer.solvers.twist_of_fate import memory
from ruleslawyer.solvers.twist_of_fate.reference import solve as reference

ROOT = Path(__file__).resolve().parents[2]
DECK = load_deck("twist-of-fate")
RULES = Rules()
FULL = ["Nancy", "Fagin", "Bill Sikes", "Mr. Bumble", "The Artful Dodger", "Mr. Brownlow"]

# Ann (Sanctuary 7, 3 Luck) holds Nancy, her last card; Bob is full, so the Monks (3 Luck,
# 3 Shilling) are the only seat with room. Every play that brings Ann's Luck to 4 also
# brings one of the Monks' cards to 4: Nancy side 0 facing the Monks (+2 Luck: 4/3; Ann
# takes +1 Luck -1 Shilling: 4/0), side 1 facing them (+1 Luck -1 Shilling: 4/2; Ann +2
# Luck: 4/0), face down raising Ann's Luck (the Monks 4/2 or 2/4 whatever they raise).
# "active player's token moves first" and "When a player reaches the last Sanctuary Card
# ... the game immediately ends and that player wins": Ann wins on the spot. Taking the
# point back with the Monks penalty (penalty-first) leaves her on 7 and play goes on.
MONKS_WIN_DOC = {
    "deck": "twist-of-fate",
    "active": "ann",
    "player": [
        {"name": "ann", "luck": 3, "sanctuary": 7, "hand": ["Nancy"], "in_front": FULL},
        {"name": "bob", "sanctuary": 2, "in_front": FULL},
    ],
    "monks": {"luck": 3, "shilling": 3, "in_front": FULL[:5]},
}


def _position(doc: dict, rules: Rules = RULES):  # type: ignore[no-untyped-def]
    return position_from_document(doc, "test", rules=rules)


def test_reaching_the_last_card_on_the_monks_wins_on_the_spot() -> None:
    position = _position(MONKS_WIN_DOC)
    move = Move("Nancy", 2, FACE_UP, side=0)
    won = step(position.state, move, DECK, RULES)
    assert won.winner == 0 and won.seats[0].sanctuary == 8
    # the game ended before the penalty: the Monks' token moved (tie-break reading: both
    # tokens move), Ann's was not taken back
    assert won.seats[2].sanctuary == 1
    taken_back = step(
        position.state, move, DECK, replace(RULES, finish_before_penalty="penalty-first")
    )
    assert taken_back.winner is None and taken_back.seats[0].sanctuary == 7


@pytest.mark.parametrize("solve", [reference.solve, memory.solve])
def test_solve_reports_the_win(solve) -> None:  # type: ignore[no-untyped-def]
    result = solve(_position(MONKS_WIN_DOC), RULES)
    assert result.finished and result.guaranteed_win is True
    assert result.guaranteed_sanctuary == 8
    back = solve(_position(MONKS_WIN_DOC), replace(RULES, finish_before_penalty="penalty-first"))
    assert back.guaranteed_win is False and back.reachable_max_sanctuary == 7


def test_cli_solve_reports_the_win(tmp_path: Path) -> None:
    path = tmp_path / "win.toml"
    path.write_text(dumps(MONKS_WIN_DOC), "utf-8")
    args = ["twist-of-fate", "solve", str(path), "--format", "json", "--model", "paranoid"]
    run = CliRunner().invoke(cli, args)
    assert run.exit_code == 0, run.output
    assert json.loads(run.output)["guaranteed_win"] is True


def test_active_first_names_what_happens_to_the_monks() -> None:
    # simultaneous-finish=active-first: Ann's token moves first and ends the game before the
    # Monks' token moves: their Luck card stays at 4, unscored, as the reading says.
    position = _position(MONKS_WIN_DOC)
    rules = replace(RULES, simultaneous_finish="active-first")
    after = step(position.state, Move("Nancy", 2, FACE_UP, side=0), DECK, rules)
    assert after.winner == 0 and after.seats[0].sanctuary == 8
    assert (after.seats[2].luck, after.seats[2].sanctuary) == (4, 0)
    from ruleslawyer.models.twist_of_fate.points import SIMULTANEOUS_FINISH

    text = {r.name: r.summary for r in SIMULTANEOUS_FINISH.readings}["active-first"]
    assert "Monks" in text and "neither scores nor resets" in text


# MONKS_WIN_DOC with the Monks on 7 too: Nancy side 0 facing the Monks brings Ann to 4/0
# (8, with 0 + 0 left) and the Monks to 4/3 (8, with 0 + 3 left). The tie rule with the
# Monks as a player: 3 > 0, the Monks win (both players lose); "active player's token
# moves first": Ann; "the Monks reached the final card": the Monks.
MONKS_TIE_DOC = {**MONKS_WIN_DOC, "monks": {**MONKS_WIN_DOC["monks"], "sanctuary": 7}}


@pytest.mark.parametrize(
    ("reading", "winner"), [("tie-rule", 2), ("active-player", 0), ("monks", 2)]
)
def test_monks_finish_tie_readings(reading: str, winner: int) -> None:
    state = _position(MONKS_TIE_DOC).state
    after = step(
        state, Move("Nancy", 2, FACE_UP, side=0), DECK, replace(RULES, monks_finish_tie=reading)
    )
    assert after.winner == winner
    assert after.seats[0].sanctuary == 8 == after.seats[2].sanctuary


def _monks_double(sanctuary: int) -> State:
    # Ann (Sanctuary 3) plays Mr. Bumble side 0 (+1 Luck +1 Shilling) facing the Monks (3/3):
    # they reach 4/4 and, under double-threshold=two-points, gain two Sanctuary Points. Ann
    # takes side 1 (-1 Luck): no score.
    return State(
        seats=(
            Seat(luck=1, sanctuary=sanctuary, hand=("Mr. Bumble",)),
            Seat(in_front=tuple(FULL)),
            Seat(luck=3, shilling=3),
        ),
        players=2,
        active=0,
        starter=0,
    )


def test_penalty_is_one_point_whatever_the_monks_gain() -> None:
    # "the active player also loses a Sanctuary Point": one point, 3 -> 2.
    move = Move("Mr. Bumble", 2, FACE_UP, side=0)
    after = step(_monks_double(3), move, DECK, RULES)
    assert after.seats[2].sanctuary == 2 and after.seats[0].sanctuary == 2
    per_point = step(_monks_double(3), move, DECK, replace(RULES, monks_penalty_size="per-point"))
    assert per_point.seats[0].sanctuary == 1


def _tie() -> State:
    # Ann (active, 6) 3/3 plays Mr. Brownlow side 0 facing Bob (7) 3/2. Ann takes side 1
    # (+1/+1): 4/4, two points -> 8, both cards reset: 0 left (8 before the reset). Bob
    # takes 2 Luck and gets 2 Shilling: 1/4 -> scores -> 8 with 1/0: 1 left (5 before).
    # after-reset: Bob 1 > Ann 0, Bob wins; before-reset: Ann 8 > Bob 5, Ann wins.
    return State(
        seats=(
            Seat(luck=3, shilling=3, sanctuary=6, hand=("Mr. Brownlow",)),
            Seat(luck=3, shilling=2, sanctuary=7),
            Seat(in_front=tuple(FULL)),
        ),
        players=3,
        active=0,
        starter=0,
    )


def test_tie_remaining_readings() -> None:
    move = Move("Mr. Brownlow", 1, FACE_UP, side=0)
    assert step(_tie(), move, DECK, RULES).winner == 1
    before = step(_tie(), move, DECK, replace(RULES, tie_remaining="before-reset"))
    assert before.winner == 0
    assert before.seats[0].sanctuary == 8 == before.seats[1].sanctuary


def test_face_down_at_zero() -> None:
    # Ann 0 Luck 3 Shilling plays face down on Bob (0/0). clamp: raising Shilling (Luck stays
    # at 0) gives 0/4 and scores. must-decrease: Ann must lower her Shilling (the only card
    # above 0), so she raises Luck; Bob has no card above 0, so either choice for him.
    state = State(
        seats=(Seat(shilling=3, hand=("Nancy",)), Seat(), Seat(in_front=tuple(FULL))),
        players=3,
        active=0,
        starter=0,
    )
    move = Move("Nancy", 1, FACE_DOWN, player_raises=SHILLING, target_raises=LUCK)
    assert step(state, move, DECK, RULES).seats[0].sanctuary == 1
    strict = replace(RULES, face_down_at_zero="must-decrease")
    downs = [m for m in legal_moves(state, DECK, strict) if m.play == FACE_DOWN]
    assert {(m.player_raises, m.target_raises) for m in downs} == {(LUCK, LUCK), (LUCK, SHILLING)}


@pytest.mark.parametrize(
    ("order", "from3", "from0"),
    # A side giving 2 Luck and taking 1 Luck. From 3: net +1 -> 4; gives first 3+2 -> 4
    # (the excess is not counted) then -1 -> 3; takes first 3-1 -> 2, +2 -> 4.
    # From 0: net 1; gives first 2-1 -> 1; takes first 0 (cannot drop) +2 -> 2.
    [("net", 4, 1), ("gives-first", 3, 1), ("takes-first", 4, 2)],
)
def test_gives_takes_order(order: str, from3: int, from0: int) -> None:
    assert adjust(3, 2, 1, order) == from3 and adjust(0, 2, 1, order) == from0


OVERLAP = {
    "name": "overlap",
    "character": [
        {
            "name": "A",
            "sides": [{"gives": {"luck": 2}, "takes": {"luck": 1}}, {"luck": 1, "shilling": -1}],
        },
        {"name": "B", "sides": [{"gives": {"shilling": 1}}, {"takes": {"shilling": 2, "luck": 1}}]},
    ],
}


def test_deck_states_gives_and_takes_separately() -> None:
    deck = deck_from_document(OVERLAP, "overlap.toml")
    assert deck.card("A").sides[0] == Side((2, 0), (1, 0)) and deck.card("A").sides[0].overlaps
    assert deck.card("A").sides[1] == Side.net(1, -1) == Side((1, 0), (0, 1))
    assert deck.card("B").sides[1] == Side((0, 0), (1, 2))
    # Mr. Brownlow is written as printed: "Zach gets +2 Shilling and -2 Luck"
    assert DECK.card("Mr. Brownlow").sides == (Side((0, 2), (2, 0)), Side((1, 1), (0, 0)))


@pytest.mark.parametrize(
    ("side", "place", "found"),
    [
        ({"luck": 1, "gives": {"luck": 1}}, "character[0].sides[0]", "both luck and gives"),
        ({"luck": 1}, "character[0].sides[0]", "only luck"),
        ({"gives": {"luck": -1}}, "character[0].sides[0].gives.luck", "-1"),
    ],
)
def test_bad_sides_exit_2_with_one_line(tmp_path: Path, side: dict, place: str, found: str) -> None:
    text = (ROOT / "ruleslawyer/data/twist-of-fate.toml").read_text("utf-8")
    first = "sides = [\n  { gives = { shilling = 2 }, takes = { luck = 2 } },"
    assert first in text
    inline = json.dumps(side).replace('": ', " = ").replace('"', "")
    path = tmp_path / "deck.toml"
    path.write_text(text.replace(first, f"sides = [\n  {inline},"), "utf-8")
    run = CliRunner().invoke(cli, ["check", str(path)])
    assert run.exit_code == 2, run.output
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and place in lines[0] and found in lines[0] and "expected" in lines[0]


def _round_end() -> State:
    # A 3-player round just ended; Cat had to play Fagin in front of herself.
    five = ("Nancy", "Fagin", "Bill Sikes", "Mr. Bumble", "The Artful Dodger")
    return State(
        seats=(
            Seat(luck=2, shilling=1, in_front=(*five, "Mr. Brownlow")),
            Seat(luck=0, shilling=3, in_front=(*five, "Nancy")),
            Seat(luck=1, in_front=(*five[1:], "Mr. Brownlow"), self_played=("Fagin",)),
        ),
        players=3,
        active=2,
        starter=0,
    )


def test_self_played_pickup_readings() -> None:
    # "picks up the six cards that were played in front of them by their opponents": Cat's
    # own Fagin is not among them under opponents-only; all-in-front picks up all six.
    [(_, every)] = chance_outcomes(_round_end(), DECK, RULES)
    [(_, only)] = chance_outcomes(
        _round_end(), DECK, replace(RULES, self_played_pickup="opponents-only")
    )
    assert len(every.seats[2].hand) == 6 and "Fagin" in every.seats[2].hand
    assert len(only.seats[2].hand) == 5
    assert only.seats[2].hand.count("Fagin") == every.seats[2].hand.count("Fagin") - 1


def test_carry_over_readings() -> None:
    [(_, carried)] = chance_outcomes(_round_end(), DECK, RULES)
    assert [(s.luck, s.shilling) for s in carried.seats] == [(2, 1), (0, 3), (1, 0)]
    [(_, reset)] = chance_outcomes(
        _round_end(), DECK, replace(RULES, carry_over="reset-each-round")
    )
    assert all((s.luck, s.shilling) == (0, 0) for s in reset.seats)


READINGS = {
    "finish_before_penalty": ("game-ends-first", "penalty-first"),
    "monks_penalty_size": ("one-point", "per-point"),
    "simultaneous_finish": ("tie-break", "active-first"),
    "tie_remaining": ("after-reset", "before-reset"),
    "face_down_at_zero": ("clamp", "must-decrease"),
    "monks_finish_tie": ("tie-rule", "active-player", "monks"),
}


@pytest.mark.parametrize("field", sorted(READINGS))
@pytest.mark.parametrize("which", ["monks-win", "monks-double", "tie", "monks-tie"])
def test_both_solvers_agree_on_the_hand_worked_positions(field: str, which: str) -> None:
    from ruleslawyer.models.twist_of_fate.files import Position

    if which == "monks-win":
        position = _position(MONKS_WIN_DOC)
    elif which == "monks-tie":
        position = _position(MONKS_TIE_DOC)
    else:
        state = _monks_double(3) if which == "monks-double" else _tie()
        position = Position(state, ("ann", "bob", "cat")[: state.players], DECK, {})
    for reading in READINGS[field]:
        rules = replace(RULES, **{field: reading})
        ref = reference.solve(position, rules)
        assert memory.solve(position, rules).answer() == ref.answer()


def test_best_move_shows_a_side_that_gives_and_takes_as_printed() -> None:
    from ruleslawyer.solvers.twist_of_fate.common import _show, move_json

    deck = deck_from_document(OVERLAP, "overlap.toml")
    out = move_json(Move("A", 1, FACE_UP, side=0), 0, ("ann", "bob", "cat"), deck)
    assert out["target_gets"] == {
        "gives": {"luck": 2, "shilling": 0},
        "takes": {"luck": 1, "shilling": 0},
    }
    assert _show(out["target_gets"]) == (
        "(gives (+2 Luck, +0 Shilling), takes (+1 Luck, +0 Shilling))"
    )


def test_every_reading_reaches_the_model() -> None:
    # a ruling on any point with readings sets the Rules switch the model reads
    from ruleslawyer.checks.twist_of_fate.search import field
    from ruleslawyer.models.twist_of_fate.play import RULE_POINTS

    for point in RULE_POINTS:
        for reading in point.reading_names:
            assert getattr(Rules.from_rulings({point.id: reading}), field(point)) == reading
        if point.readings:
            assert getattr(RULES, field(point)) == point.default
