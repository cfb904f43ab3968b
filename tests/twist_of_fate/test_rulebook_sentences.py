"""Known answers for rulebook sentences the coverage map traces here (data/coverage/).

Each test quotes its sentence and works the position out by hand on the shipped
(placeholder) deck: Mr. Brownlow, The Artful Dodger, Bill Sikes, Nancy, Fagin and
Mr. Bumble. Nancy's side 0 Gives +2 Luck (what the target gets when that side faces
them), her side 1 Gives +1 Luck and Takes 1 Shilling (what the player gets).
"""

from __future__ import annotations

from ruleslawyer.models.twist_of_fate.files import load_deck
from ruleslawyer.models.twist_of_fate.play import (
    FACE_UP,
    LAST,
    Move,
    Rules,
    Seat,
    State,
    chance_outcomes,
    open_targets,
    start,
    step,
)

DECK = load_deck("twist-of-fate")
RULES = Rules()
SIX = DECK.sort(DECK.names)


def test_set_up_for_three_and_four_players() -> None:
    # Set-Up: "Each player begins the game with a set of eight cards" (six characters, a
    # Luck and a Shilling card), "begin the game with the "0" amount of the card facing
    # the player", "The remaining six Character Cards remain in each player's hand",
    # Sanctuary Cards "from "0 to 8"", "all the player tokens on the 0 card". Gameplay:
    # the rounds begin with the first seat (the youngest; seats are listed clockwise).
    for players in (3, 4):
        state = start(players, DECK)
        assert state.players == players and len(state.seats) == players  # no Monks
        assert state.active == state.starter == 0 and state.round == 1
        for seat in state.seats:
            assert (seat.luck, seat.shilling, seat.sanctuary) == (0, 0, 0)
            assert seat.hand == SIX and not seat.in_front and not seat.self_played
    assert LAST == 8


def test_play_continues_clockwise() -> None:
    # Round End: "Once both players have adjusted their Luck and Shilling Cards and any
    # scoring is counted, play then continues to clockwise." Seat 0 plays Nancy on seat 2
    # (not the next seat): seat 1, to seat 0's left, plays next; then seat 2.
    state = start(3, DECK)
    after = step(state, Move("Nancy", 2, FACE_UP, side=0), DECK, RULES)
    assert after.active == 1
    assert step(after, Move("Nancy", 0, FACE_UP, side=0), DECK, RULES).active == 2


def test_two_player_first_round_end() -> None:
    # Two-Player Variant, End of Round: "Each player picks up the six cards in front of
    # them and adds the three unused cards from the previous round to their hand. The six
    # cards in front of "Monks" are set off to the side to be used in future rounds. The
    # starting player alternates between rounds." Ann started round 1 with Nancy x3 saved
    # out of it, Bob with Fagin x3; each holds the six in front of them, the Monks six
    # Mr. Bumbles. No chance: one outcome.
    fronts = (("Mr. Brownlow",) * 6, ("Bill Sikes",) * 6, ("Mr. Bumble",) * 6)
    state = State(
        seats=tuple(Seat(luck=1, in_front=f) for f in fronts),
        players=2,
        active=1,
        starter=0,
        saved=(("Nancy",) * 3, ("Fagin",) * 3),
    )
    [(weight, nxt)] = chance_outcomes(state, DECK, RULES)
    assert weight == 1 and nxt.round == 2
    assert nxt.starter == nxt.active == 1
    assert nxt.seats[0].hand == DECK.sort(("Mr. Brownlow",) * 6 + ("Nancy",) * 3)
    assert nxt.seats[1].hand == DECK.sort(("Bill Sikes",) * 6 + ("Fagin",) * 3)
    assert nxt.unused == ("Mr. Bumble",) * 6 and nxt.saved == ()
    assert not nxt.seats[2].in_front and not nxt.seats[2].hand
    assert all(s.luck == 1 for s in nxt.seats)  # carry-over (default): values stay


def test_no_seventh_card_in_front_of_the_monks() -> None:
    # "As in the 3-4 player game, no player, including "Monks", may be given more than six
    # cards." Six cards lie in front of the Monks: Ann may play only on Bob; with Bob full
    # too, only in front of herself.
    monks = Seat(in_front=("Mr. Bumble",) * 6)
    state = State(seats=(Seat(hand=("Nancy",)), Seat(), monks), players=2, active=0, starter=0)
    assert open_targets(state, RULES) == (1,)
    bob_full = State(
        seats=(Seat(hand=("Nancy",)), Seat(in_front=("Fagin",) * 6), monks),
        players=2,
        active=0,
        starter=0,
    )
    assert open_targets(bob_full, RULES) == (0,)


def test_the_monks_reaching_the_last_card_first_both_players_lose() -> None:
    # "If the token belonging to "Monks" reaches the final Sanctuary Card first, both
    # players lose the game." The Monks stand on 7 with 3 Luck; Ann plays Nancy side 0
    # facing them: +2 Luck, 4 (the most a card holds), one point: 8. Ann takes side 1
    # (+1 Luck -1 Shilling): 1/0, no score. The game ends with the Monks' seat as winner,
    # which the model reads as both players losing; the game ended before any penalty.
    monks = Seat(luck=3, sanctuary=7)
    state = State(seats=(Seat(hand=("Nancy",)), Seat(), monks), players=2, active=0, starter=0)
    after = step(state, Move("Nancy", 2, FACE_UP, side=0), DECK, RULES)
    assert after.over and after.winner == after.monks == 2
    assert after.seats[2].sanctuary == LAST and after.seats[0].sanctuary == 0
    assert (after.seats[0].luck, after.seats[0].shilling) == (1, 0)
