"""The plain reference for Twist of Fate across round ends: brute force, no memo, no budget.

Every line of play is followed to the horizon (the end of the game, or the end of
the round reached after crossing ``rounds`` round ends). A round end that is
crossed is a chance node: its value is the exact expectation (fractions) of the
next round's values over the model's equally likely draws
(:func:`~ruleslawyer.models.twist_of_fate.play.chance_outcomes`); a player chooses by
:func:`~ruleslawyer.solvers.twist_of_fate.common.choose`. Memoised
only on the whole state (``functools.cache``); small and obviously right; the fast search of
:mod:`~ruleslawyer.solvers.twist_of_fate.horizon` is tested against it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ruleslawyer.models.twist_of_fate.play import (
    Deck,
    Rules,
    State,
    chance_outcomes,
    legal_moves,
    play,
    short_pile,
)
from ruleslawyer.solvers.twist_of_fate.common import (
    EVector,
    choose,
    expectation,
    horizon_vector,
)


def stop_vector(state: State) -> EVector:
    """Every player's utility where the search stops (whole numbers)."""
    return horizon_vector(state)


def crossable(state: State, deck: Deck, rules: Rules, rounds_left: int) -> bool:
    """Whether the search goes on past this round end (rounds are left); a draw from a pile
    of fewer than three cards is refused (:class:`ShortPile`), as the fast search does."""
    if rounds_left > 0 and (short := short_pile(state, rules)) is not None:
        raise short
    return rounds_left > 0 and bool(chance_outcomes(state, deck, rules))


def value(
    state: State, deck: Deck, rules: Rules, rounds_left: int, model: str = "maxn", root: int = 0
) -> EVector:
    """The value vector of ``state`` with at most ``rounds_left`` round ends still to cross."""

    @cache
    def of(state: State, rounds_left: int) -> EVector:
        return _value(state, deck, rules, rounds_left, model, root, of)

    return of(state, rounds_left)


def _value(
    state: State,
    deck: Deck,
    rules: Rules,
    rounds_left: int,
    model: str,
    root: int,
    of: Callable[[State, int], EVector],
) -> EVector:
    # The same function of the whole state, every value exact; ``of`` is its cached self.
    if state.over:
        return stop_vector(state)
    if state.round_over:
        if not crossable(state, deck, rules, rounds_left):
            return stop_vector(state)
        return expectation(
            [(w, of(nxt, rounds_left - 1)) for w, nxt in chance_outcomes(state, deck, rules)]
        )
    kids = [of(play(state, m, deck, rules), rounds_left) for m in legal_moves(state, deck, rules)]
    if not kids:  # no legal move (a gap the rule checks report): the search stops here
        return stop_vector(state)
    # the chosen child's utilities one ply earlier: each win or loss one ply further off
    return tuple((o, t - o, z, ls) for o, t, z, ls in kids[choose(kids, state.active, model, root)])
