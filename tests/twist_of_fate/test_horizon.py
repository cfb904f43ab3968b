"""Across round ends (``--horizon game``): expectimax by hand, the fast search against the
brute-force reference, and the command line."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.cli.common import EXIT_UNFINISHED
from ruleslawyer.cli.main import cli
from ruleslawyer.models.twist_of_fate.files import Position
from ruleslawyer.models.twist_of_fate.play import (
    Character,
    Deck,
    Rules,
    Seat,
    ShortPile,
    Side,
    State,
    legal_moves,
    play,
)
from ruleslawyer.solvers.twist_of_fate.common import choose
from ruleslawyer.solvers.twist_of_fate.horizon import analyse_rounds
from ruleslawyer.solvers.twist_of_fate.maxn import analysis_json, vector_json
from ruleslawyer.solvers.twist_of_fate.reference import horizon as reference

ROOT = Path(__file__).resolve().parents[2]
BROWNLOW = Character("Mr. Brownlow", (Side((0, 2), (2, 0)), Side((1, 1), (0, 0))), "printed")
DUD = Character("Dud", (Side(), Side()), "placeholder")
DECK = Deck("two cards", (BROWNLOW, DUD))
MUST = Rules(face_down_at_zero="must-decrease")


def _chance_position() -> Position:
    # 2-player variant, round 2 (Ann started it), Bob (3 Luck, 0 Shilling, Sanctuary 7)
    # plays the round's last card, a Dud (no Gives, no Takes); Ann has 1/1 and Sanctuary
    # 0, the Monks 1/1 and three Duds in front. Unused: Mr. Brownlow and three Duds.
    dud = "Dud"
    seats = (
        Seat(1, 1, 0),
        Seat(3, 0, 7, hand=(dud,)),
        Seat(1, 1, 0, in_front=(dud,) * 3),
    )
    unused = ("Mr. Brownlow", dud, dud, dud)
    state = State(seats, players=2, active=1, starter=0, round=2, unused=unused)
    return Position(state, ("ann", "bob"), DECK, {})


def test_expectimax_across_a_two_player_round_end_by_hand() -> None:
    # Two-Player Variant: "Once the second round is finished, each player picks up the six
    # cards in front of them and the new starting player takes three random cards from the
    # six unused cards ... The other player takes three random cards currently in front of
    # "Monks"". "The starting player alternates between rounds": round 3 starts with Bob,
    # who holds the cards in front of him (none) and 3 of the 4 unused cards: 4 equally
    # likely draws, 3 of them with Mr. Brownlow. If Bob's Dud lands on Ann, the Monks keep
    # three Duds and Ann takes all of them: 4 x 1 = 4 draws (on the Monks: 4 x 4 = 16).
    # Under face-down-at-zero=must-decrease a face-down play cannot lower a card at 0 while
    # the other is above 0, so from 3/0, 1/1 or 2/0 a face-down play keeps Luck + Shilling
    # and a Dud face up changes nothing: without Mr. Brownlow nobody ever reaches 4.
    # With it Bob plays it first, side 0 facing the target: he takes +1 Luck +1 Shilling,
    # 4/1, scores his 8th point and wins at once (Game End), at ply 2 (the Dud is ply 1).
    # Utilities (outcome: 1 won, 0 open, -1 lost; tempo: -plies to a win, +plies to a
    # loss; Sanctuary and Luck + Shilling when open, else 0), expected over the draws:
    # after a face-up Dud (Bob keeps 3/0) Bob's is (3/4, 3/4 * -2 = -3/2, 1/4 * 7 = 7/4,
    # 1/4 * 3 = 3/4) and Ann's (-3/4, 3/2, 0, 1/4 * 2 = 1/2). A face-down Dud leaves Bob
    # 2/1, and Mr. Brownlow's +1/+1 no longer wins at once: later wins, worse tempo. The
    # first of the equal best moves is the Dud face up on Ann (seat order).
    position = _chance_position()
    out = analysis_json(position, analyse_rounds(position, MUST, "maxn", rounds=1))
    assert out["finished"] is True
    assert "equally likely draws" in out["chance"] and "16" in out["chance"]
    e = "expected"
    bob = {"outcome": e, "expected_outcome": "3/4", "expected_tempo": "-3/2",
           "sanctuary": "7/4", "luck_plus_shilling": "3/4"}  # fmt: skip
    ann = {"outcome": e, "expected_outcome": "-3/4", "expected_tempo": "3/2",
           "sanctuary": 0, "luck_plus_shilling": "1/2"}  # fmt: skip
    assert out["value"] == {"ann": ann, "bob": bob}
    face_up = [m for m in out["moves"] if m["move"]["play"] == "face-up"]
    assert len(face_up) == 4 and all(m["value"] == out["value"] for m in face_up)
    assert out["best_move"]["play"] == "face-up" and out["best_move"]["target"] == "ann"
    (ply,) = out["line"]
    assert ply["round"] == 2 and ply["player"] == "bob"
    assert "chance node (4 equally likely draws)" in out["line_end"]
    # The brute-force reference agrees, and with no round end to cross Bob stays on 7 with
    # 3/0.
    assert reference.value(position.state, DECK, MUST, 1) == (
        (Fraction(-3, 4), Fraction(3, 2), 0, Fraction(1, 2)),
        (Fraction(3, 4), Fraction(-3, 2), Fraction(7, 4), Fraction(3, 4)),
    )
    stay = analysis_json(position, analyse_rounds(position, MUST, "maxn", rounds=0))
    assert stay["value"]["bob"] == {"outcome": "open", "sanctuary": 7, "luck_plus_shilling": 3}
    assert stay["chance"].startswith("none")


def test_three_players_cross_a_round_end_by_hand() -> None:
    # Round End: "Each player then picks up the six cards that were played in front of them
    # by their opponents ... the new starting player is the one to left of the previous
    # starting player." Ann (3/0, Sanctuary 7) plays the round's last card, a Dud, on Bob or
    # Cat; Bob has Mr. Brownlow in front of him, Ann and Cat nothing. Round 2 starts with
    # Bob (Ann started round 1), holding Mr. Brownlow, and whoever got the Dud holds it.
    # Under must-decrease Duds keep every Luck + Shilling (no seat is at 0/0), so only
    # Mr. Brownlow changes sums: the player who plays it takes +1/+1 (side 0 facing the
    # target) or -2 Luck +2 Shilling, the target the other side. Bob (0/1) cannot reach 4
    # with it; Ann can never score on her own, and Bob playing Mr. Brownlow on her with
    # side 1 facing her (+1/+1) would make her 4/1 and win: he never does. Nobody scores:
    # every Sanctuary stays, and the search must cross the round end and finish round 2.
    # With --rounds 0 the horizon is the end of round 1: Ann 3/0 on 7, open 7 / 3.
    dud = "Dud"
    seats = (
        Seat(3, 0, 7, hand=(dud,)),
        Seat(0, 1, 0, in_front=("Mr. Brownlow",)),
        Seat(1, 1, 0),
    )
    state = State(seats, players=3, active=0, starter=0)
    position = Position(state, ("ann", "bob", "cat"), DECK, {})
    once = analysis_json(position, analyse_rounds(position, MUST, "maxn", rounds=1))
    assert once["finished"] and once["chance"].startswith("none")
    assert once["value"]["ann"]["sanctuary"] == 7 and once["value"]["ann"]["outcome"] == "open"
    assert [p["round"] for p in once["line"]][:1] == [1] and once["line"][1]["round"] == 2
    assert once["line"][1]["player"] == "bob"
    assert once["value"] == _reference_json(position, MUST, 1)
    never = analysis_json(position, analyse_rounds(position, MUST, "maxn", rounds=0))
    assert never["value"]["ann"] == {"outcome": "open", "sanctuary": 7, "luck_plus_shilling": 3}
    assert len(never["line"]) == 1


def _reference_json(position: Position, rules: Rules, rounds: int) -> dict:
    vector = reference.value(position.state, position.deck, rules, rounds)
    return vector_json(position.names, vector)


ONE = Deck("one card", (BROWNLOW,))


@st.composite
def small_games(draw: st.DrawFn, chance: bool = True) -> tuple[Position, Rules, int]:
    """A position a few plies from a round end whose next rounds are a few plies long."""
    players = draw(st.sampled_from((2, 3)))
    deck = draw(st.sampled_from((ONE, DECK)))
    names = deck.names
    cards = st.lists(st.sampled_from(names), max_size=1).map(deck.sort)
    seats = [
        Seat(
            luck=draw(st.integers(0, 4)),
            shilling=draw(st.integers(0, 4)),
            sanctuary=draw(st.integers(5, 7)),
            hand=draw(cards) if s < players else (),
            in_front=draw(cards),
        )
        for s in range(players + (players == 2))
    ]
    holders = [s for s in range(players) if seats[s].hand]
    if not holders:
        seats[0] = replace(seats[0], hand=(names[0],))
        holders = [0]
    active = draw(st.sampled_from(holders))
    rnd, saved, unused, most = 1, (), (), 2
    if players == 2:
        rnd = draw(st.sampled_from((1, 2) if chance else (1,)))
        if rnd == 1:
            saved = (draw(cards), draw(cards))
        else:
            # A draw of 3 of 4 unused cards, and the Monks' 3 or 4 cards: the next round
            # has 6-8 cards, so at most one round end is crossed.
            # One kind of card (Mr. Brownlow), so the brute force's states stay few.
            deck, names = ONE, ONE.names
            unused = names * 4
            seats = [replace(s, in_front=(), hand=names * len(s.hand)) for s in seats]
            seats[2] = replace(seats[2], in_front=(names[0],) * 3)
            most = 1
    state = State(tuple(seats), players, active, draw(st.sampled_from(range(players))), rnd,
                  saved=saved, unused=unused)  # fmt: skip
    rules = Rules(
        carry_over=draw(st.sampled_from(("carry-over", "reset-each-round"))),
        self_played_pickup=draw(st.sampled_from(("all-in-front", "opponents-only"))),
        face_down_at_zero=draw(st.sampled_from(("clamp", "must-decrease"))),
    )
    return (
        Position(state, ("ann", "bob", "cat")[:players], deck, {}),
        rules,
        draw(st.integers(0, most)),
    )


@pytest.mark.slow
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(small_games(), st.sampled_from(("maxn", "paranoid")))
def test_fast_search_agrees_with_brute_force(case: tuple[Position, Rules, int], model: str) -> None:
    _agree(*case, model)


@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(small_games(chance=False), st.sampled_from(("maxn", "paranoid")))
def test_fast_search_agrees_with_brute_force_quick(
    case: tuple[Position, Rules, int], model: str
) -> None:
    _agree(*case, model)


def _agree(position: Position, rules: Rules, rounds: int, model: str) -> None:
    try:
        fast = analyse_rounds(position, rules, model, rounds)
    except ShortPile:
        # a round end within the horizon draws from a pile under three: both refuse it
        with pytest.raises(ShortPile):
            for move in legal_moves(position.state, position.deck, rules):
                after = play(position.state, move, position.deck, rules)
                reference.value(after, position.deck, rules, rounds, model, position.state.active)
        return
    assert fast.finished
    root = position.state.active
    laters = []
    for move, vector in fast.scored:
        after = play(position.state, move, position.deck, rules)
        later = reference.value(after, position.deck, rules, rounds, model, root)
        # the reference counts plies from ``after``; a root move is ply 1
        assert vector == tuple((o, t - o, z, ls) for o, t, z, ls in later)
        laters.append(later)
    if laters:  # the chosen move: the reference's choice among its own values
        pick = choose(laters, root, model, root)
        assert fast.line[0][0] == fast.scored[pick][0]


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["twist-of-fate", "solve", *args])
    return result.exit_code, result.output


def test_cli_horizon_game_on_the_shipped_example() -> None:
    path = str(ROOT / "examples/twist-of-fate/across-rounds.toml")
    code, text = _cli(path, "--horizon", "game", "--rounds", "1", "--format", "json")
    assert code == 0, text
    out = json.loads(text)
    assert out["value"]["bob"]["expected_outcome"] == "3/4"
    assert "equally likely draws" in out["chance"]
    assert out["horizon"].startswith("the end of the game, or else the end of round 3")


def test_cli_horizon_usage_and_input_errors(tmp_path: Path) -> None:
    brownlow = str(ROOT / "examples/twist-of-fate/brownlow.toml")
    code, text = _cli(brownlow, "--rounds", "2")
    assert code == 2 and "--rounds needs --horizon game" in text
    code, text = _cli(brownlow, "--horizon", "game", "--solver", "reference")
    assert code == 2 and "drop --solver reference" in text
    # The 2-player variant's first round end needs the saved cards.
    monks = str(ROOT / "examples/twist-of-fate/monks-win.toml")
    code, text = _cli(monks, "--horizon", "game")
    assert code == 2 and "player[0].saved" in text and len(text.strip().splitlines()) == 1
    code, text = _cli(monks, "--horizon", "game", "--rounds", "0")
    assert code == 0, text


def test_cli_horizon_budget_says_unfinished() -> None:
    path = str(ROOT / "examples/twist-of-fate/across-rounds.toml")
    code, text = _cli(path, "--horizon", "game", "--max-states", "2000", "--format", "json")
    assert code == EXIT_UNFINISHED, text
    out = json.loads(text)
    assert out["finished"] is False and out["moves"] is None


def test_round_fields_round_trip_and_bad_input(tmp_path: Path) -> None:
    import tomllib

    from ruleslawyer.models.twist_of_fate.files import (
        dumps,
        load_position,
        position_document,
        position_from_document,
    )

    position = load_position(ROOT / "examples/twist-of-fate/across-rounds.toml")
    state = position.state
    assert (state.round, state.starter, state.active) == (2, 0, 1)
    assert state.unused == ("Mr. Brownlow", "Dud", "Dud", "Dud")
    doc = position_document(position)
    doc["deck"] = str(ROOT / "examples/twist-of-fate/two-card-deck.toml")
    assert position_from_document(tomllib.loads(dumps(doc)), "again").state == state
    base = tomllib.loads((ROOT / "examples/twist-of-fate/brownlow.toml").read_text("utf-8"))
    cases = [
        ({"starter": "nobody"}, "starter"),
        ({"unused": ["Nancy"]}, "unused"),
        ({"round": 0}, "round"),
    ]
    for change, place in cases:
        path = tmp_path / "bad.toml"
        path.write_text(dumps({**base, **change}), "utf-8")
        code, text = _cli(str(path))
        assert code == 2 and place in text and len(text.strip().splitlines()) == 1, text
