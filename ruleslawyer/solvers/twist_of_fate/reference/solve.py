"""The plain-Python reference solver for Twist of Fate: the model's own ``step``, memoised.

Slow and obviously right: it exists to check the Numba solver against. Two
positions are the same state when every seat's Luck, Shilling, Sanctuary, hand
(as a multiset) and count toward the six-card limit agree, with the same player
to move and the same winner; ``states`` counts those distinct states.
"""

from __future__ import annotations

import time
from typing import Any

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.errors import BudgetExceeded
from ruleslawyer.models.twist_of_fate.files import Position
from ruleslawyer.models.twist_of_fate.play import (
    Deck,
    Move,
    Rules,
    State,
    legal_moves,
    play,
    seat_names,
)
from ruleslawyer.solvers.twist_of_fate.common import (
    SolveResult,
    move_json,
    state_key,
    unfinished,
)

Key = tuple[Any, ...]
Value = tuple[
    int, int, bool, bool
]  # guaranteed sanctuary, reachable max, guaranteed win, possible win


def horizon_key(state: State) -> Key:
    return tuple((s.luck, s.shilling, s.sanctuary) for s in state.seats)


class _Search:
    def __init__(self, deck: Deck, rules: Rules, root: int, budget: Budget) -> None:
        self.deck, self.rules, self.root, self.budget = deck, rules, root, budget
        self.memo: dict[Key, Value] = {}
        self.ends: set[Key] = set()
        self.progress = Progress("twist-of-fate reference: states")

    def value(self, state: State) -> Value:
        key = state_key(state, self.rules)
        found = self.memo.get(key)
        if found is not None:
            return found
        moves = legal_moves(state, self.deck, self.rules)
        if not moves:
            self.ends.add(horizon_key(state))
            s = state.seats[self.root].sanctuary
            won = state.winner == self.root
            result: Value = (s, s, won, won)
        else:
            result = self.combine(
                state, [self.value(play(state, m, self.deck, self.rules)) for m in moves]
            )
        self.memo[key] = result
        if len(self.memo) % 1024 == 0:
            self.progress.update(len(self.memo))
            if self.budget.spent(len(self.memo)):
                raise BudgetExceeded("reference search")
        return result

    def combine(self, state: State, children: list[Value]) -> Value:
        best = max(c[1] for c in children)
        possible = any(c[3] for c in children)
        if state.active == self.root:
            return (max(c[0] for c in children), best, any(c[2] for c in children), possible)
        return (min(c[0] for c in children), best, all(c[2] for c in children), possible)


def best_move(children: list[tuple[Move, Value]]) -> Move:
    """The first move (in legal-move order) with the best guaranteed (win, sanctuary)."""
    top = max((v[2], v[0]) for _, v in children)
    return next(m for m, v in children if (v[2], v[0]) == top)


def solve(position: Position, rules: Rules, budget: Budget | None = None) -> SolveResult:
    """Search every line of play from ``position`` to the horizon."""
    budget = budget or Budget()
    began = time.perf_counter()
    state, deck = position.state, position.deck
    root = state.active
    search = _Search(deck, rules, root, budget)
    name = position.names[root]
    try:
        moves = legal_moves(state, deck, rules)
        children = [(m, search.value(play(state, m, deck, rules))) for m in moves]
        top = search.value(state)
    except BudgetExceeded:
        return unfinished(name, len(search.memo), time.perf_counter() - began)
    finally:
        search.progress.close()
    move = best_move(children) if children else None
    names = seat_names(state, position.names)
    return SolveResult(
        player=name,
        guaranteed_sanctuary=top[0],
        best_move=move_json(move, root, names, deck) if move else None,
        reachable_max_sanctuary=top[1],
        guaranteed_win=top[2],
        possible_win=top[3],
        end_states=len(search.ends),
        states=len(search.memo),
        seconds=time.perf_counter() - began,
        finished=True,
    )
