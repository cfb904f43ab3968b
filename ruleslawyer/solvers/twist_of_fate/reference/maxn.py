"""The plain-Python reference for max^n in Twist of Fate: the model's own ``play``, memoised.

max^n: every seat picks the move best for itself. The game ends when a player
reaches the last Sanctuary card, and "that player wins" (Game End). So a
player's utility at the end of a line (the end of the round, or of the game if
it comes first) is outcome-ranked: its *outcome* (won: it reached the last
Sanctuary; open: the horizon came with no winner; lost: another seat won, the
Monks of the 2-player variant among them), then *tempo* (won: the fewer plies
to the win the better; lost: the more the better), then, only when open, its
Sanctuary, then Luck + Shilling. A utility is the tuple (outcome: 1 won, 0
open, -1 lost; tempo: minus the plies to the win, or plus the plies to the
loss, 0 when open; Sanctuary and Luck + Shilling when open, else 0), which
compares in that order as a tuple and averages component by component
(expected outcome, tempo, ...). Plies count from the state valued: each ply
up a line adds one (:func:`shift`); a root move's value counts it as ply 1.

Between moves of equal utility to the mover the tie is broken against the other
players ("spiteful"), by the value vectors and never by move order: the lowest
sum of their outcome ranks, then of their open Sanctuary, then of their open
Luck + Shilling; if still equal, the lexicographically smallest tuple of their
utilities in turn order after the mover. Moves with the same value vector are
the same to every player; the first in legal-move order stands for them.

The Monks (2-player variant) are not a player: they choose nothing and have no
utility; a Monks win is a loss for both players.
"""

from __future__ import annotations

from typing import Any

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.errors import BudgetExceeded
from ruleslawyer.models.twist_of_fate.play import Deck, Move, Rules, State, legal_moves, play
from ruleslawyer.solvers.twist_of_fate.reference.solve import state_key

Utility = tuple[Any, Any, Any, Any]  # outcome, tempo, open Sanctuary, open Luck + Shilling
Vector = tuple[Utility, ...]  # one per player, in seat order
WON, OPEN, LOST = 1, 0, -1

UTILITY = (
    "outcome-ranked: outcome (won: reached the last Sanctuary, the game is over > open: "
    "the horizon came with no winner > lost: another seat won), then tempo (won: fewer "
    "plies to the win is better; lost: more plies is better), then, only when open, "
    "Sanctuary, then Luck + Shilling"
)
TIE_BREAK = (
    "max^n: each player picks the move best for itself by its utility; ties between "
    "moves of equal utility to the mover are broken against the other players: lowest "
    "sum of their outcome ranks, then of their open Sanctuary, then of their open Luck + "
    "Shilling, then the lexicographically smallest tuple of their utilities in turn "
    "order after the mover; moves with equal value vectors are equal to everyone and "
    "the first in legal-move order is shown"
)


def horizon_vector(state: State) -> Vector:
    """Every player's utility in a state where the search stops (0 plies from it)."""
    out: list[Utility] = []
    for p, s in enumerate(state.seats[: state.players]):
        if state.winner is None:
            out.append((OPEN, 0, s.sanctuary, s.luck + s.shilling))
        else:
            out.append((WON if state.winner == p else LOST, 0, 0, 0))
    return tuple(out)


def shift(vector: Vector) -> Vector:
    """A child's vector seen one ply earlier: a win one ply further off (tempo down by
    one), a loss one ply further off (tempo up by one); also for expected vectors."""
    return tuple((o, t - o, z, ls) for o, t, z, ls in vector)


MODELS = ("maxn", "paranoid")


def preference(vector: Vector, mover: int, model: str = "maxn", root: int = 0) -> tuple[Any, ...]:
    """How much ``mover`` likes ``vector``: larger is better. max^n: the mover's utility,
    then the spiteful tie-break; paranoid: the root player's utility, which every other
    player minimises."""
    if model == "paranoid":
        mine = vector[root]
        return mine if mover == root else tuple(-x for x in mine)
    n = len(vector)
    others = [vector[(mover + k) % n] for k in range(1, n)]
    # outcome ranks (2, 1, 0) sum as the outcomes do, up to a constant
    sums = tuple(sum(u[i] for u in others) for i in (0, 2, 3))
    return (vector[mover], tuple(-x for x in sums), tuple(tuple(-x for x in u) for u in others))


def choose(vectors: list[Vector], mover: int, model: str = "maxn", root: int = 0) -> int:
    """The index of ``mover``'s choice among ``vectors`` (the first of equal ones)."""
    keys = [preference(v, mover, model, root) for v in vectors]
    return keys.index(max(keys))


class MaxnSearch:
    """Memoised max^n values of states under one deck and rules."""

    label = "twist-of-fate max^n reference: states"

    def __init__(
        self, deck: Deck, rules: Rules, model: str, root: int, budget: Budget | None = None
    ) -> None:
        self.deck, self.rules, self.model, self.root = deck, rules, model, root
        self.budget = budget or Budget()
        self.memo: dict[tuple[Any, ...], Any] = {}
        self.progress = Progress(self.label)

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
        return self.remember(key, result)

    def remember(self, key: tuple[Any, ...], result: Any) -> Any:
        """Store ``result``; every 1,024 states show progress and check the budget."""
        self.memo[key] = result
        if len(self.memo) % 1024 == 0:
            self.progress.update(len(self.memo))
            if self.budget.spent(len(self.memo)):
                raise BudgetExceeded(self.label)
        return result

    def choose(self, vectors: list[Vector], mover: int) -> int:
        return choose(vectors, mover, self.model, self.root)

    def close(self) -> None:
        self.progress.close()


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
