"""Known answers for the Twist of Fate model, worked out by hand from the rulebook."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ruleslawyer.errors import IllegalMove
from ruleslawyer.models.twist_of_fate.files import load_deck
from ruleslawyer.models.twist_of_fate.play import (
    FACE_DOWN,
    FACE_UP,
    LUCK,
    RULE_POINTS,
    SHILLING,
    Move,
    Rules,
    Seat,
    State,
    chance_outcomes,
    legal_moves,
    open_targets,
    start,
    start_two_player,
    step,
)
from ruleslawyer.rulebook.books import find

DECK = load_deck("twist-of-fate")
RULES = Rules()
FULL = ("Nancy", "Fagin", "Bill Sikes", "Mr. Bumble", "The Artful Dodger")


def three(eliza: Seat, zach: Seat, third: Seat | None = None, active: int = 0) -> State:
    third = third or Seat(in_front=(*FULL, "Mr. Brownlow"))
    return State(seats=(eliza, zach, third), players=3, active=active, starter=active)


def test_rulebook_example_eliza_zach_brownlow() -> None:
    # Gameplay Example: Eliza (3 Luck, 0 Shillings) plays Mr. Brownlow in front of Zach
    # (1 Luck, 0 Shillings). Zach: +2 Shilling -2 Luck -> Luck 0 (cannot drop below),
    # Shillings 2. Eliza: +1/+1 -> 4 Luck, 1 Shilling; 4 Luck scores one Sanctuary Point and
    # resets her Luck to 0.
    state = three(Seat(luck=3, hand=("Mr. Brownlow",)), Seat(luck=1, in_front=FULL))
    after = step(state, Move("Mr. Brownlow", 1, FACE_UP, side=0), DECK, RULES)
    eliza, zach = after.seats[0], after.seats[1]
    assert (eliza.luck, eliza.shilling, eliza.sanctuary) == (0, 1, 1)
    assert (zach.luck, zach.shilling, zach.sanctuary) == (0, 2, 0)
    assert zach.in_front[-1] == "Mr. Brownlow" or "Mr. Brownlow" in zach.in_front


def test_face_down_player_chooses_both_adjustments() -> None:
    # Playing Face-down: both players -1 on one card, +1 on the other; the player chooses
    # for both. Eliza 2/2 raises Shilling -> 1/3; Zach 0/0 raises Luck -> 1/0 (Shilling
    # cannot drop below 0).
    state = three(Seat(luck=2, shilling=2, hand=("Nancy",)), Seat())
    move = Move("Nancy", 1, FACE_DOWN, player_raises=SHILLING, target_raises=LUCK)
    after = step(state, move, DECK, RULES)
    assert (after.seats[0].luck, after.seats[0].shilling) == (1, 3)
    assert (after.seats[1].luck, after.seats[1].shilling) == (1, 0)


@pytest.mark.parametrize(
    ("reading", "expected"),
    [
        ("two-points", (0, 0, 2)),
        ("one-point-reset-both", (0, 0, 1)),
        ("one-point-reset-one", (0, 4, 1)),
    ],
)
def test_double_threshold_readings(reading: str, expected: tuple[int, int, int]) -> None:
    # Mr. Brownlow's player side is +1/+1: from 3/3 the player reaches 4 Luck and 4 Shilling.
    state = three(Seat(luck=3, shilling=3, hand=("Mr. Brownlow",)), Seat())
    rules = replace(RULES, double_threshold=reading)
    after = step(state, Move("Mr. Brownlow", 1, FACE_UP, side=0), DECK, rules)
    me = after.seats[0]
    assert (me.luck, me.shilling, me.sanctuary) == expected


def test_simultaneous_finish_readings_name_different_winners() -> None:
    # Both on 7. Eliza 3/3 plays Mr. Brownlow side 1 (+1/+1) to Zach 3/0 and takes side 0
    # (-2 Luck, +2 Shilling): Eliza 1/4 scores -> 8 with 1 + 0 = 1 left; Zach 4/1 scores ->
    # 8 with 0 + 1 = 1 left. Tie rule: equal totals -> the active player (Eliza) wins.
    # Zach 3/2 instead: Zach keeps 0 + 3 = 3 > 1, so the tie rule gives Zach the game, while
    # "active player's token moves first" ends it with Eliza's.
    state = three(
        Seat(luck=3, shilling=3, sanctuary=7, hand=("Mr. Brownlow",)),
        Seat(luck=3, shilling=2, sanctuary=7),
    )
    move = Move("Mr. Brownlow", 1, FACE_UP, side=1)
    tie = step(state, move, DECK, RULES)
    first = step(state, move, DECK, replace(RULES, simultaneous_finish="active-first"))
    assert tie.winner == 1 and tie.seats[1].sanctuary == 8
    assert first.winner == 0 and first.seats[1].sanctuary == 7
    level = replace(
        state, seats=(state.seats[0], Seat(luck=3, shilling=0, sanctuary=7), state.seats[2])
    )
    assert step(level, move, DECK, RULES).winner == 0


def test_clamping_and_no_score_below_four() -> None:
    state = three(Seat(luck=0, shilling=4 - 1, hand=("Bill Sikes",)), Seat(luck=1, shilling=0))
    after = step(state, Move("Bill Sikes", 1, FACE_UP, side=0), DECK, RULES)
    # Bill Sikes (placeholder): target -2 Luck -1 Shilling -> 0/0; player 0 Luck +1 Shilling.
    assert (after.seats[1].luck, after.seats[1].shilling) == (0, 0)
    assert (after.seats[0].luck, after.seats[0].shilling, after.seats[0].sanctuary) == (0, 0, 1)


def test_six_card_limit_forces_self_play() -> None:
    # Card Limit: with both others full, the player must play in front of themselves.
    full = Seat(in_front=(*FULL, "Nancy"))
    state = three(Seat(hand=("Fagin",)), full, full)
    assert open_targets(state, RULES) == (0,)
    moves = legal_moves(state, DECK, RULES)
    assert {m.target for m in moves} == {0}
    assert {m.play for m in moves} == {FACE_UP, FACE_DOWN}
    face_up_only = legal_moves(state, DECK, replace(RULES, self_play_face_down="not-allowed"))
    assert {m.play for m in face_up_only} == {FACE_UP}
    # "the opposite side of the card has no effect": Fagin side 1 is +3 Shilling for the player.
    after = step(state, Move("Fagin", 0, FACE_UP, side=1), DECK, RULES)
    assert (after.seats[0].luck, after.seats[0].shilling) == (0, 3)
    assert after.seats[0].self_played == ("Fagin",)


def test_full_player_cannot_be_targeted() -> None:
    state = three(Seat(hand=("Fagin",)), Seat(in_front=(*FULL, "Nancy")), Seat())
    with pytest.raises(IllegalMove):
        step(state, Move("Fagin", 1, FACE_UP, side=0), DECK, RULES)


def test_round_end_hands_and_next_starter() -> None:
    # Round End: each player picks up what lies in front of them; the starter moves left.
    state = start(3, DECK)
    ended = replace(
        state,
        seats=tuple(replace(s, hand=(), in_front=DECK.names) for s in state.seats),
    )
    [(weight, nxt)] = chance_outcomes(ended, DECK, RULES)
    assert weight == 1 and nxt.starter == 1 and nxt.active == 1 and nxt.round == 2
    assert all(s.hand == DECK.sort(DECK.names) and not s.in_front for s in nxt.seats)


def test_monks_penalty_floor_readings() -> None:
    # Two-Player Variant: a card on the Monks that makes them score costs the active player
    # a Sanctuary Point. Monks 3 Luck; Nancy side 0 gives +2 Luck -> 4 -> the Monks score.
    monks = Seat(luck=3)
    state = State(seats=(Seat(hand=("Nancy",)), Seat(), monks), players=2, active=0, starter=0)
    move = Move("Nancy", 2, FACE_UP, side=0)
    assert step(state, move, DECK, RULES).seats[0].sanctuary == 0
    negative = step(state, move, DECK, replace(RULES, monks_penalty_floor="negative"))
    assert negative.seats[0].sanctuary == -1 and negative.seats[2].sanctuary == 1


def test_two_player_setup_and_cycling_weights() -> None:
    setups = start_two_player(DECK)
    # 2 starting players x C(6,3)^2 draws of three distinct cards each.
    assert sum(w for w, _ in setups) == 2 * 20 * 20
    assert all(len(s.seats[0].hand) == 9 and len(s.seats[1].hand) == 9 for _, s in setups)


def test_every_quote_is_in_the_rulebook() -> None:
    ids = [p.id for p in RULE_POINTS]
    assert len(ids) == len(set(ids))
    for point in RULE_POINTS:
        assert point.id.startswith("twist-of-fate/")
        for sentence in point.sentences:
            assert find(sentence) is not None, (point.id, sentence.text)


def test_issue_ids_and_readings() -> None:
    by_id = {p.id: p.reading_names for p in RULE_POINTS}
    assert by_id["twist-of-fate/double-threshold"] == (
        "two-points",
        "one-point-reset-both",
        "one-point-reset-one",
    )
    assert by_id["twist-of-fate/simultaneous-finish"] == ("tie-break", "active-first")
    assert by_id["twist-of-fate/self-play-count"] == ("counts-toward-six", "does-not-count")
    assert by_id["twist-of-fate/self-play-face-down"] == ("allowed", "not-allowed")
    assert by_id["twist-of-fate/monks-penalty-floor"] == ("floor-at-zero", "negative")
    assert by_id["twist-of-fate/monks-penalty-trigger"] == ("your-card", "any-monks-score")
    assert by_id["twist-of-fate/monks-finish-tie"] == ("tie-rule", "active-player", "monks")
    assert by_id["twist-of-fate/endless-game"] == ()
    assert by_id["twist-of-fate/finish-before-penalty"] == ("game-ends-first", "penalty-first")
    assert by_id["twist-of-fate/monks-penalty-size"] == ("one-point", "per-point")
    assert by_id["twist-of-fate/self-played-pickup"] == ("all-in-front", "opponents-only")
    assert by_id["twist-of-fate/face-down-at-zero"] == ("clamp", "must-decrease")
    assert by_id["twist-of-fate/carry-over"] == ("carry-over", "reset-each-round")
    assert by_id["twist-of-fate/tie-remaining"] == ("after-reset", "before-reset")
    assert by_id["twist-of-fate/gives-takes-order"] == ("net", "gives-first", "takes-first")
    assert by_id["twist-of-fate/monks-pronoun"] == ("the-monks", "the-player")
    assert by_id["twist-of-fate/leftover-cards"] == ("merged", "set-aside")
