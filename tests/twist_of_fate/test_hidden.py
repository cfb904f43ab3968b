"""Hidden cards: determinized evaluation by hand, against the reference, and bad specs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.errors import InputError
from ruleslawyer.models.twist_of_fate.files import HiddenDoc, Position, dumps
from ruleslawyer.models.twist_of_fate.play import Rules, Seat, State, seat_names
from ruleslawyer.solvers.twist_of_fate.hidden import evaluate_hidden, worlds
from ruleslawyer.solvers.twist_of_fate.maxn import vector_json
from ruleslawyer.solvers.twist_of_fate.reference import hidden as reference
from tests.twist_of_fate.test_horizon import DECK, MUST
from tests.twist_of_fate.test_solve import positions

ROOT = Path(__file__).resolve().parents[2]


def _position() -> Position:
    # Ann (1/1, Sanctuary 0) plays her last card, a Dud (no Gives, no Takes); Cat is full,
    # so it goes on Bob (3 Luck, 0 Shilling, Sanctuary 7), who then plays his one card on
    # Ann. Ann does not know Bob's card: Mr. Brownlow or a Dud, one draw of two.
    dud = "Dud"
    seats = (Seat(1, 1, 0, hand=(dud,)), Seat(3, 0, 7), Seat(0, 0, 0, in_front=(dud,) * 6))
    state = State(seats, players=3, active=0, starter=0)
    hidden = (HiddenDoc(seat="bob", candidates=["Mr. Brownlow", dud]),)
    return Position(state, ("ann", "bob", "cat"), DECK, {}, hidden)


def test_hidden_card_evaluation_by_hand() -> None:
    # Under face-down-at-zero=must-decrease ("Both players must decrease (by one) either
    # their Luck or Shilling Card") a face-down play keeps Luck + Shilling from 1/1, 3/0,
    # 2/1, 0/2 or 2/0, and Ann cannot raise Bob's Luck (his Shilling is at 0). Ann's moves:
    # Utilities as (outcome: 1 won, 0 open, -1 lost; tempo: -plies to a win, +plies to a
    # loss; Sanctuary; Luck + Shilling, these two when open).
    # - Dud face up: Bob keeps 3/0. With Mr. Brownlow he plays it side 0 facing Ann: he
    #   takes +1/+1, 4/1, scores his 8th point and wins at ply 2: Ann lost at ply 2,
    #   (-1, 2, 0, 0). With a Dud nobody can score: Ann keeps 1/1, open: (0, 0, 0, 2).
    #   Average (-1/2, 1, 0, 1), worst: lost at ply 2.
    # - face down, Ann raises Shilling (0/2) and Bob's Shilling (2/1): with Mr. Brownlow
    #   nobody can win and Bob's best is side 0 facing Ann (he takes +1/+1, 3/2, the
    #   largest Luck + Shilling he can have); Ann takes +2 Shilling, 0/4, scores:
    #   (0, 0, 1, 0). With a Dud: (0, 0, 0, 2). Average (0, 0, 1/2, 1), worst (0, 0, 0, 2):
    #   the best average.
    # - face down, Ann raises Luck (2/0), Bob's Shilling: Mr. Brownlow side 0 facing Ann
    #   leaves her 0/2: (0, 0, 0, 2) in both worlds.
    position = _position()
    found = worlds(position, "test", MUST)
    assert [w for w, _ in found] == [1, 1]
    out = evaluate_hidden(position, found, MUST, "maxn", Budget(), rounds=0)
    assert out["finished"] is True and out["hidden"]["worlds"] == 2
    assert "determinized" in out["hidden"]["evaluation"]
    assert out["best_move"]["play"] == "face-down"
    assert out["best_move"]["player_raises"] == "shilling"
    expected = {"outcome": "expected", "expected_outcome": 0, "expected_tempo": 0}
    assert out["value"]["ann"] == {**expected, "sanctuary": "1/2", "luck_plus_shilling": 1}
    by_play = {(m["move"]["play"], m["move"].get("player_raises")): m for m in out["moves"]}
    up = by_play[("face-up", None)]
    assert up["average"]["ann"] == {
        **expected, "expected_outcome": "-1/2", "expected_tempo": 1, "sanctuary": 0,
        "luck_plus_shilling": 1,
    }  # fmt: skip
    assert up["average"]["bob"]["expected_outcome"] == "1/2"
    assert up["worst_case"]["ann"] == {"outcome": "lost", "ply": 2}
    assert all(
        m["worst_case"]["ann"] == {"outcome": "open", "sanctuary": 0, "luck_plus_shilling": 2}
        for m in out["moves"]
        if m["move"]["play"] == "face-down"
    )
    # The reference, draw by draw with the brute force, agrees on every move.
    names = position.names
    expected = [
        (vector_json(names, mean), vector_json(names, worst))
        for _, mean, worst in reference.evaluate(position, MUST, "maxn", 0)
    ]
    assert [(m["average"], m["worst_case"]) for m in out["moves"]] == expected


def _run(tmp_path: Path, doc: dict, *extra: str) -> tuple[int, str]:
    path = tmp_path / "p.toml"
    path.write_text(dumps(doc), "utf-8")
    result = CliRunner().invoke(cli, ["twist-of-fate", "solve", str(path), *extra])
    return result.exit_code, result.output


def _doc(**hidden: object) -> dict:
    return {
        "active": "eliza",
        "player": [
            {"name": "eliza", "luck": 3, "hand": ["Mr. Brownlow"]},
            {"name": "zach", "luck": 1, "in_front": ["Nancy"]},
            {"name": "ann"},
        ],
        "hidden": [{"seat": "zach", "candidates": ["Nancy", "Fagin"], **hidden}],
    }


def test_cli_hidden_json_and_text(tmp_path: Path) -> None:
    code, text = _run(tmp_path, _doc(), "--format", "json")
    assert code == 0, text
    out = json.loads(text)
    assert out["hidden"]["worlds"] == 2 and out["finished"] is True
    assert {"average", "worst_case", "move"} == set(out["moves"][0])
    code, text = _run(tmp_path, _doc())
    assert code == 0 and "hidden cards: determinized" in text and "worst for eliza" in text


def test_bad_hidden_specs_exit_2_with_one_line(tmp_path: Path) -> None:
    cases = [
        (_doc(seat="nobody"), "hidden[0].seat"),
        (_doc(seat="eliza"), "hidden[0].place"),
        (_doc(candidates=["Nobody"]), "hidden[0].candidates[0]"),
        (_doc(count=3), "hidden[0].count"),
    ]
    for doc, place in cases:
        code, text = _run(tmp_path, doc)
        assert code == 2, text
        assert len(text.strip().splitlines()) == 1 and place in text, text


def test_secret_saved_cards_of_the_two_player_variant(tmp_path: Path) -> None:
    # Two-Player Variant: each player "takes three random cards from their second set":
    # Ann knows her own saved card but not Bob's (Mr. Brownlow or a Dud). Crossing round
    # 1's end ("adds the three unused cards from the previous round to their hand") needs
    # both; each world is solved to the end of round 2.
    deck = str(ROOT / "examples/twist-of-fate/two-card-deck.toml")
    doc = {
        "deck": deck,
        "active": "ann",
        "player": [
            {"name": "ann", "luck": 3, "sanctuary": 7, "hand": ["Dud"], "saved": ["Dud"]},
            {"name": "bob", "luck": 1, "shilling": 1, "in_front": ["Dud"]},
        ],
        "monks": {"luck": 1, "shilling": 1},
        "rulings": {"twist-of-fate/face-down-at-zero": "must-decrease"},
        "hidden": [{"seat": "bob", "place": "saved", "candidates": ["Mr. Brownlow", "Dud"]}],
    }
    code, text = _run(tmp_path, doc, "--horizon", "game", "--format", "json")
    assert code == 0, text
    out = json.loads(text)
    assert out["finished"] and out["hidden"]["worlds"] == 2
    assert out["horizon"].startswith("the end of the game, or else the end of round 2")
    del doc["hidden"]
    code, text = _run(tmp_path, doc, "--horizon", "game")
    assert code == 2 and "player[1].saved" in text


@pytest.mark.slow
@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(positions(most=3), st.data())
def test_compiled_worlds_agree_with_the_reference(
    case: tuple[Position, Rules], data: st.DataObject
) -> None:
    position, rules = case
    state = position.state
    others = [p for p in range(state.players) if p != state.active]
    seat = data.draw(st.sampled_from(others))
    names = position.deck.names
    candidates = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=3))
    entry = HiddenDoc(seat=position.names[seat], candidates=candidates)
    hidden = Position(state, position.names, position.deck, {}, (entry,))
    try:
        found = worlds(hidden, "generated", rules)
    except InputError:
        assume(False)
    model = data.draw(st.sampled_from(("maxn", "paranoid")))
    out = evaluate_hidden(hidden, found, rules, model, Budget())
    assert out["finished"]
    seats = seat_names(state, position.names)[: state.players]
    expected = [
        (vector_json(seats, mean), vector_json(seats, worst))
        for _, mean, worst in reference.evaluate(hidden, rules, model, 0)
    ]
    assert [(m["average"], m["worst_case"]) for m in out["moves"]] == expected
