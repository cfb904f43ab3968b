"""The plain-Python reference for max^n in Twist of Fate: the model's own ``play``, memoised.

max^n: every seat picks the move best for itself by the outcome-ranked utility,
ties broken against the others (:func:`~ruleslawyer.solvers.twist_of_fate.common.choose`;
the utility and its ordering are shared definitions of
:mod:`~ruleslawyer.solvers.twist_of_fate.common`, the search is this module's own).
The Monks (2-player variant) are not a player: they choose nothing and have no
utility; a Monks win is a loss for both players.
"""

from __future__ import annotations

from ruleslawyer.budget import Budget, Memo
from ruleslawyer.models.twist_of_fate.play import Deck, Move, Rules, State, legal_moves, play
from ruleslawyer.solvers.twist_of_fate.common import (
    Vector,
    choose,
    horizon_vector,
    shift,
    state_key,
)


class MaxnSearch:
    """Memoised max^n values of states under one deck and rules."""

    label = "twist-of-fate max^n reference: states"

    def __init__(
        self, deck: Deck, rules: Rules, model: str, root: int, budget: Budget | None = None
    ) -> None:
        self.deck, self.rules, self.model, self.root = deck, rules, model, root
        self.memo = Memo(self.label, budget or Budget())

    def children(self, state: State) -> list[tuple[Move, State]]:
        return [
            (m, play(state, m, self.deck, self.rules))
            for m in legal_moves(state, self.deck, self.rules)
        ]

    def value(self, state: State) -> Vector:
        key = state_key(state, self.rules)
        found = self.memo.get(key)
        if found is not None:
            return found
        kids = self.children(state)
        if not kids:
            result = horizon_vector(state)
        else:
            vectors = [self.value(s) for _, s in kids]
            result = shift(vectors[self.choose(vectors, state.active)])
        return self.memo.remember(key, result)

    def choose(self, vectors: list[Vector], mover: int) -> int:
        return choose(vectors, mover, self.model, self.root)

    def close(self) -> None:
        self.memo.close()


def solve_moves(
    state: State, deck: Deck, rules: Rules, model: str = "maxn", budget: Budget | None = None
) -> tuple[list[tuple[Move, Vector]], list[tuple[Move, State]], int]:
    """Every legal move with its value vector, the principal variation (move, state after)
    to the horizon, and the number of distinct states valued. A move's vector counts
    plies from ``state`` (the move is ply 1). Raises BudgetExceeded."""
    search = MaxnSearch(deck, rules, model, state.active, budget)
    try:
        scored = [(m, shift(search.value(s))) for m, s in search.children(state)]
        line: list[tuple[Move, State]] = []
        at = state
        while kids := search.children(at):
            pick = search.choose([search.value(s) for _, s in kids], at.active)
            line.append(kids[pick])
            at = kids[pick][1]
    finally:
        search.close()
    return scored, line, len(search.memo)
