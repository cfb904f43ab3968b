"""Twist of Fate checks for how a play is adjusted and scored.

finish-before-penalty, monks-penalty-size, monks-pronoun, tie-remaining,
gives-takes-order and face-down-at-zero: each searched from the real start of a game (see
:mod:`ruleslawyer.checks.twist_of_fate.search`), or settled by an argument on the deck
and the readings in force where the readings cannot part.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ruleslawyer.checks.twist_of_fate.search import (
    NAMES_2,
    NAMES_3,
    finding,
    paired,
    parted,
    primed,
    race,
    search,
    seat_json,
    seat_results,
    three_player,
    two_player,
)
from ruleslawyer.findings import Finding, point_finding
from ruleslawyer.models.twist_of_fate import points
from ruleslawyer.models.twist_of_fate.play import (
    FACE_DOWN,
    FACE_UP,
    LAST,
    TOP,
    Deck,
    Move,
    Rules,
    State,
    apply_effects,
    legal_moves,
    play,
)


def finish_before_penalty(
    deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float
) -> Finding:
    point = points.FINISH_BEFORE_PENALTY

    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        if move.target != state.monks or state.seats[state.active].sanctuary < LAST - 2:
            return None
        results = seat_results(point, state, move, deck, rules, NAMES_2)
        return results if parted(results) else None

    found = search(two_player(deck), goal, deck, rules, NAMES_2, seconds, steer=race)
    return finding(
        point,
        rulings,
        found,
        NAMES_2,
        hit_message="A play on the Monks brings the active player to the last Sanctuary Card "
        "and makes the Monks score: one reading ends the game with the player's win, the "
        "other takes the point back with the penalty and play goes on.",
        miss_message="No play on the Monks that both finishes the active player and makes "
        "the Monks score was found",
        description="the last move, on the Monks, brings the active player to the last card "
        "and makes the Monks score",
    )


def monks_penalty_size(
    deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float
) -> Finding:
    point = points.MONKS_PENALTY_SIZE
    if rules.double_threshold != "two-points":
        return point_finding(
            point,
            rulings=rulings,
            parted=False,
            message=f"The readings cannot part under double-threshold={rules.double_threshold}: "
            "a seat scores at most one Sanctuary Point in a play, so the Monks never gain two "
            "(shown by the model's scoring rule, not by search).",
        )

    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        # two points are taken only from a player who has two (floor-at-zero)
        if move.target != state.monks or state.seats[state.active].sanctuary < 2:
            return None
        # the seat whose gain brings the penalty (monks-pronoun): the Monks, or the player
        gainer = move.target if rules.monks_pronoun == "the-monks" else state.active
        monks = apply_effects(state, move, deck, rules)[gainer]
        if monks.luck < TOP or monks.shilling < TOP:
            return None
        results = seat_results(point, state, move, deck, rules, NAMES_2)
        return results if parted(results) else None

    found = search(two_player(deck), goal, deck, rules, NAMES_2, seconds, steer=primed)
    return finding(
        point,
        rulings,
        found,
        NAMES_2,
        hit_message="A play brings the Monks to 4 Luck and 4 Shilling at once: they gain two "
        "Sanctuary Points, and the readings take one or two from the active player.",
        miss_message="No play making the Monks gain two points was found",
        description="the last move, on the Monks, brings them to 4 Luck and 4 Shilling",
    )


def monks_pronoun(deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float) -> Finding:
    point = points.MONKS_PRONOUN

    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        if move.target != state.monks:
            return None
        results = seat_results(point, state, move, deck, rules, NAMES_2)
        return results if parted(results) else None

    found = search(two_player(deck), goal, deck, rules, NAMES_2, seconds)
    return finding(
        point,
        rulings,
        found,
        NAMES_2,
        hit_message='A play on the Monks makes one of the two score and not the other: "him" '
        "read as the Monks or as the player who played the card decides whether the active "
        "player loses a Sanctuary Point.",
        miss_message="No play on the Monks that scores for only one of the two was found",
        description="the last move, on the Monks, makes the active player or the Monks score "
        "(not both)",
    )


def tie_remaining(deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float) -> Finding:
    point = points.TIE_REMAINING

    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        if move.target in (state.active, state.monks):
            return None
        if min(state.seats[state.active].sanctuary, state.seats[move.target].sanctuary) < LAST - 2:
            return None
        after = play(state, move, deck, rules)
        if min(after.seats[state.active].sanctuary, after.seats[move.target].sanctuary) < LAST:
            return None
        results = seat_results(point, state, move, deck, rules, NAMES_3)
        return results if parted(results) else None

    found = search(three_player(deck), goal, deck, rules, NAMES_3, seconds, steer=paired)
    return finding(
        point,
        rulings,
        found,
        NAMES_3,
        hit_message="Two players reach the last Sanctuary Card together and the tie rule "
        'names a different winner depending on whether "remaining" is read before or after '
        "the scoring card resets.",
        miss_message="No simultaneous finish where the two readings name different winners "
        "was found",
        description="the last move brings two players to the last card together",
    )


def gives_takes_order(
    deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float
) -> Finding:
    point = points.GIVES_TAKES_ORDER
    both = [c.name for c in deck.characters if any(side.overlaps for side in c.sides)]
    if not both:
        return point_finding(
            point,
            rulings=rulings,
            parted=False,
            message="The readings cannot part with this deck: no side of any card both Gives "
            "and Takes the same value (every side checked), so each card's value moves one "
            "way and the order cannot matter. A deck with such a side is searched.",
        )

    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        if move.play != FACE_UP or move.card not in both:
            return None
        results = seat_results(point, state, move, deck, rules, NAMES_3)
        return results if parted(results) else None

    found = search(three_player(deck), goal, deck, rules, NAMES_3, seconds)
    return finding(
        point,
        rulings,
        found,
        NAMES_3,
        hit_message=f"A side of {', '.join(both)} Gives and Takes one value; against the 0..4 "
        "limits the order changes the result.",
        miss_message="No play where the order of Gives and Takes changes the result was found",
        description="the last move plays a side that Gives and Takes one value",
    )


def face_down_at_zero(
    deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float
) -> Finding:
    point = points.FACE_DOWN_AT_ZERO
    strict = replace(rules, face_down_at_zero="must-decrease")
    clamp = replace(rules, face_down_at_zero="clamp")

    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        if move.play != FACE_DOWN or move in legal_moves(state, deck, strict):
            return None
        return {
            "clamp": seat_json(play(state, move, deck, clamp), NAMES_3),
            "must-decrease": "not a legal move: a card at 0 is lowered while that player has "
            "a card above 0",
        }

    found = search(three_player(deck), goal, deck, rules, NAMES_3, seconds, probe=clamp)
    return finding(
        point,
        rulings,
        found,
        NAMES_3,
        hit_message="A face-down play lowers a card already at 0: allowed (the excess is not "
        'counted) or not ("must decrease").',
        miss_message="No face-down play lowering a card at 0 was found",
        description="the last move, face down, lowers a card that is at 0",
    )
