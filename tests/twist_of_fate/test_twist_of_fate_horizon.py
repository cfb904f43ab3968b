"""Across round ends (``--horizon game``): expectimax by hand, the fast search against the
brute-force reference, and the command line."""

from __future__ import annotations

from ruleslawyer.models.twist_of_fate import Character, Deck, Rules, Seat, Side, State, play
from ruleslawyer.models.twist_of_fate_files import Position
from ruleslawyer.solvers import twist_of_fate_horizon_reference as reference
from ruleslawyer.solvers.twist_of_fate_horizon import analyse_rounds
from ruleslawyer.solvers.twist_of_fate_maxn import analysis_json

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
    # 4/1, scores his 8th point and wins at once (Game End), on the Monks (Ann keeps Luck +
    # Shilling 2; the spiteful rule prefers it to Ann, who would get 0/3). So after a face-up
    # Dud (Bob keeps 3/0), Bob's expected utility is: won 3/4, Sanctuary 3/4 * 8 + 1/4 * 7 =
    # 31/4, Luck + Shilling 3/4 * (0 + 1) + 1/4 * 3 = 3/2; Ann's (0, 0, 2) whatever happens.
    # No play can do better for Bob, and the first of the equal ones is the Dud face up on
    # Ann (seat order).
    position = _chance_position()
    out = analysis_json(position, analyse_rounds(position, MUST, "maxn", rounds=1))
    assert out["finished"] is True
    assert "equally likely draws" in out["chance"] and "16" in out["chance"]
    bob = {"won": "3/4", "sanctuary": "31/4", "luck_plus_shilling": "3/2"}
    ann = {"won": False, "sanctuary": 0, "luck_plus_shilling": 2}
    assert out["value"] == {"ann": ann, "bob": bob}
    face_up = [m for m in out["moves"] if m["move"]["play"] == "face-up"]
    assert len(face_up) == 4 and all(m["value"] == out["value"] for m in face_up)
    assert out["best_move"]["play"] == "face-up" and out["best_move"]["target"] == "ann"
    (ply,) = out["line"]
    assert ply["round"] == 2 and ply["player"] == "bob"
    assert "chance node (4 equally likely draws)" in out["line_end"]
    # The brute-force reference agrees on every move, and with no round end to cross Bob
    # stays on 7 with 3/0.
    analysis = analyse_rounds(position, MUST, "maxn", rounds=1)
    for move, vector in analysis.scored:
        after = play(position.state, move, DECK, MUST)
        assert reference.value(after, DECK, MUST, 1) == vector
    stay = analysis_json(position, analyse_rounds(position, MUST, "maxn", rounds=0))
    assert stay["value"]["bob"] == {"won": False, "sanctuary": 7, "luck_plus_shilling": 3}
    assert stay["chance"].startswith("none")
