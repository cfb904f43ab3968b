"""Twist of Fate solved across round ends: ``solve --horizon game --rounds N``.

The search follows every line of play past the end of the current round, at most
``rounds`` round ends, to the horizon: the end of the game, or the end of the
last round it may reach, whichever comes first. Each crossed round end picks the
hands up as the model does with the readings in force (self-played-pickup,
carry-over, the 2-player variant's saved and unused cards, leftover-cards). In the 2-player
variant from round 2 on the new hands are random draws: those round ends are
chance nodes valued by the exact expectation (fractions) of the next round over
every equally likely draw. Players choose by
:func:`~ruleslawyer.solvers.twist_of_fate.common.choose` (max^n or
paranoid) on those expected values. Memoised, budgeted, with progress; the brute
force of :mod:`~ruleslawyer.solvers.twist_of_fate.reference.horizon` is its
reference.
"""

from __future__ import annotations

import time
from dataclasses import replace
from math import comb
from typing import Any

from ruleslawyer.budget import Budget, Memo
from ruleslawyer.errors import BudgetExceeded
from ruleslawyer.models.twist_of_fate.files import Position
from ruleslawyer.models.twist_of_fate.play import (
    Deck,
    Move,
    Rules,
    State,
    chance_outcomes,
    legal_moves,
    play,
    short_pile,
)
from ruleslawyer.solvers.twist_of_fate.common import (
    UTILITY,
    EVector,
    choose,
    expectation,
    horizon_vector,
    shift,
    state_key,
)
from ruleslawyer.solvers.twist_of_fate.maxn import Analysis

NO_CHANCE = (
    "none: no crossed round end had a random draw (3-4 players pick up the cards in front "
    "of them; the 2-player variant's first round end adds the saved cards)"
)


def horizon_text(state: State, rounds: int) -> str:
    """What the horizon is, and the utility there."""
    last = state.round + rounds
    return (
        f"the end of the game, or else the end of round {last} (at most {rounds} round "
        f"end{'s' if rounds != 1 else ''} crossed from round {state.round}), whichever comes "
        f"first; each player's utility is {UTILITY}"
    )


def chance_text(draws: set[int], rules: Rules) -> str:
    if not draws:
        return NO_CHANCE
    counts = " or ".join(str(n) for n in sorted(draws))
    aside = (
        "; under twist-of-fate/leftover-cards=set-aside the saved cards leave the game, so "
        "from the end of round 3 on only the other player draws"
        if rules.leftover_cards == "set-aside"
        else ""
    )
    return (
        f"exact expectation over {counts} equally likely draws at each 2-player round end from "
        "round 2 on (the new starting player draws 3 of the unused cards, the other player 3 "
        f"of the Monks' cards{aside})"
    )


def draw_count(state: State) -> int:
    """How many equally likely draws the round end of ``state`` has (1: no chance)."""
    if state.monks is None or state.round == 1:
        return 1
    monks = state.seats[state.monks]
    # three from each pile; none unused to draw from (leftover-cards=set-aside): one way
    unused = comb(len(state.unused), 3) if state.unused else 1
    return unused * comb(len(monks.in_front) + len(monks.self_played), 3)


def full_key(state: State, deck: Deck, rounds_left: int) -> tuple[Any, ...]:
    """Everything a state's future depends on when round ends are still to be crossed."""
    seats = tuple(
        (s.luck, s.shilling, s.sanctuary, s.hand, deck.sort(s.in_front), deck.sort(s.self_played))
        for s in state.seats
    )
    return (seats, state.active, state.starter, state.round, state.winner, state.saved,
            state.unused, rounds_left)  # fmt: skip


class HorizonSearch:
    """Memoised values of states with round ends still to cross, under one deck and
    rules, with chance nodes at the round ends; budgeted, with progress."""

    label = "twist-of-fate across rounds: states"

    def __init__(
        self, deck: Deck, rules: Rules, model: str, root: int, budget: Budget | None = None
    ) -> None:
        self.deck, self.rules, self.model, self.root = deck, rules, model, root
        self.memo = Memo(self.label, budget or Budget())
        self.draws: set[int] = set()

    def children(self, state: State) -> list[tuple[Move, State]]:
        return [
            (m, play(state, m, self.deck, self.rules))
            for m in legal_moves(state, self.deck, self.rules)
        ]

    def close(self) -> None:
        self.memo.close()

    def key(self, state: State, rounds_left: int) -> tuple[Any, ...]:
        # With no round end left to cross only what state_key holds matters (the cards
        # in front count only toward the six-card limit).
        if rounds_left == 0:
            return (state_key(state, self.rules), state.round)
        return full_key(state, self.deck, rounds_left)

    def outcomes(self, state: State, rounds_left: int) -> tuple[tuple[int, State], ...]:
        """The next round's starts if this round end is crossed, else nothing.

        :class:`ShortPile` when the round end would draw from a pile of fewer than three
        cards: the rules do not say what is drawn then, and the search never stops there
        as if the horizon had come.
        """
        if rounds_left == 0:
            return ()
        short = short_pile(state, self.rules)
        if short is not None:
            raise short
        return chance_outcomes(state, self.deck, self.rules)

    def value(self, state: State, rounds_left: int) -> EVector:
        key = self.key(state, rounds_left)
        found = self.memo.get(key)
        if found is not None:
            return found
        if state.over:
            result = horizon_vector(state)
        elif state.round_over:
            nexts = self.outcomes(state, rounds_left)
            if not nexts:
                result = horizon_vector(state)
            else:
                if len(nexts) > 1:
                    self.draws.add(draw_count(state))
                result = expectation([(w, self.value(s, rounds_left - 1)) for w, s in nexts])
        else:
            vectors = [self.value(s, rounds_left) for _, s in self.children(state)]
            pick = choose(vectors, state.active, self.model, self.root) if vectors else None
            result = horizon_vector(state) if pick is None else shift(vectors[pick])
        return self.memo.remember(key, result)

    def line(self, state: State, rounds: int) -> tuple[list[tuple[Move, State, State]], str | None]:
        """The principal variation (move, state before, state after) through the round ends
        that have one outcome; and where it stops at a chance node, if it does."""
        out: list[tuple[Move, State, State]] = []
        at, left = state, rounds
        while not at.over:
            if at.round_over:
                nexts = self.outcomes(at, left)
                if len(nexts) != 1:
                    if not nexts:
                        return out, None
                    return out, (
                        f"the end of round {at.round}: a chance node ({draw_count(at)} equally "
                        "likely draws); values past it are expectations over them"
                    )
                at, left = nexts[0][1], left - 1
                continue
            kids = self.children(at)
            if not kids:
                return out, None
            pick = choose([self.value(s, left) for _, s in kids], at.active, self.model, self.root)
            out.append((kids[pick][0], at, kids[pick][1]))
            at = kids[pick][1]
        return out, None


def analyse_rounds(
    position: Position,
    rules: Rules,
    model: str = "maxn",
    rounds: int = 1,
    budget: Budget | None = None,
) -> Analysis:
    """Every move of the player to move valued across at most ``rounds`` round ends."""
    began = time.perf_counter()
    state, deck = position.state, position.deck
    search = HorizonSearch(deck, rules, model, state.active, budget)
    base = Analysis(model, (), (), 0, 0.0, False, horizon=horizon_text(state, rounds))
    try:
        scored = tuple((m, shift(search.value(s, rounds))) for m, s in search.children(state))
        line, line_end = search.line(state, rounds)
    except BudgetExceeded:
        return replace(base, states=len(search.memo), seconds=time.perf_counter() - began)
    finally:
        search.close()
    return replace(
        base,
        scored=scored,
        line=tuple((m, after) for m, _, after in line),
        before=tuple(before for _, before, _ in line),
        states=len(search.memo),
        seconds=time.perf_counter() - began,
        finished=True,
        chance=chance_text(search.draws, rules),
        line_end=line_end,
    )
