"""Twist of Fate checks for what happens between rounds.

self-played-pickup and carry-over change only the next round's start, which the
solver's horizon (the end of the round) never reaches: they are searched from the real
start of a 3-player game to a round end where the readings part. leftover-cards, the
2-player variant's saved cards, is searched from the variant's random deal to the end of
its second round, where the first cards are saved.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from ruleslawyer.checks.twist_of_fate.search import (
    NAMES_2,
    NAMES_3,
    field,
    finding,
    parted,
    search,
    three_player,
    two_player,
)
from ruleslawyer.findings import Finding, RulePoint
from ruleslawyer.models.twist_of_fate import points
from ruleslawyer.models.twist_of_fate.play import (
    Deck,
    Move,
    Rules,
    State,
    chance_outcomes,
    play,
)

Show = Callable[[State], dict[str, Any]]


def next_round(point: RulePoint, after: State, deck: Deck, rules: Rules, show: Show) -> dict:
    """The next round's start under each reading of ``point``, as ``show`` shows it."""
    out = {}
    for r in point.readings:
        [(_, nxt)] = chance_outcomes(after, deck, replace(rules, **{field(point): r.name}))
        out[r.name] = show(nxt)
    return out


def _round_goal(point: RulePoint, show: Show) -> Any:
    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        after = play(state, move, deck, rules)
        if after.over or not after.round_over:
            return None
        results = next_round(point, after, deck, rules, show)
        return results if parted(results) else None

    return goal


def _hands(state: State) -> dict[str, Any]:
    return {NAMES_3[p]: list(state.seats[p].hand) for p in range(state.players)}


def _values(state: State) -> dict[str, Any]:
    return {NAMES_3[p]: {"luck": s.luck, "shilling": s.shilling} for p, s in enumerate(state.seats)}


def self_played_pickup(
    deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float
) -> Finding:
    point = points.PICKUP
    goal = _round_goal(point, _hands)
    found = search(three_player(deck), goal, deck, rules, NAMES_3, seconds)
    return finding(
        point,
        rulings,
        found,
        NAMES_3,
        hit_message="A round ends with a card a player had to play in front of themselves: "
        "the next round's hands depend on whether it is picked up (3-4 players; the "
        '2-player variant says "the six cards in front of them").',
        miss_message="No round end with a self-played card was found",
        description="the last move ends the round; the next round's hands under each reading",
    )


def carry_over(deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float) -> Finding:
    point = points.CARRY_OVER
    goal = _round_goal(point, _values)
    found = search(three_player(deck), goal, deck, rules, NAMES_3, seconds)
    return finding(
        point,
        rulings,
        found,
        NAMES_3,
        hit_message="A round ends with Luck or Shilling above 0: the rulebook puts the cards "
        'at "0" only at set-up and never says whether they reset for a new round.',
        miss_message="No round end with Luck or Shilling above 0 was found",
        description="the last move ends the round; every player's Luck and Shilling at the "
        "start of the next round under each reading",
    )


def _saved(state: State) -> dict[str, Any]:
    hands = {NAMES_2[p]: list(state.seats[p].hand) for p in range(state.players)}
    return {"hands": hands, "unused": list(state.unused)}


def leftover_cards(deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float) -> Finding:
    point = points.LEFTOVER_CARDS

    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        # the last card of round 2 (one card left in hand, the other hand empty)
        if state.round != 2 or sum(len(s.hand) for s in state.seats) != 1:
            return None
        after = play(state, move, deck, rules)
        if after.over:
            return None
        # the same draw under each reading: the first of the model's chance outcomes
        results = {
            r.name: _saved(
                chance_outcomes(after, deck, replace(rules, leftover_cards=r.name))[0][1]
            )
            for r in point.readings
        }
        return results if parted(results) else None

    found = search(two_player(deck), goal, deck, rules, NAMES_2, seconds)
    return finding(
        point,
        rulings,
        found,
        NAMES_2,
        hit_message="Round 2 ends: three unused cards and three of the Monks' cards are saved "
        '"for the following round", and the rulebook never says what becomes of them. Merged, '
        "they are the next round's six unused cards; set aside, the next starting player has "
        "no unused card to draw from and starts round 4 with six cards, not nine.",
        miss_message="No 2-player game reaching the end of round 2 was found",
        description="the last move ends round 2; round 3's hands and the cards saved for the "
        "round after under each reading (the same draw: the first of the model's equally "
        "likely draws)",
    )
