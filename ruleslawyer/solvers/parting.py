"""Breadth-first search for the shortest move sequence where readings of a rule part.

Generic over games: each reading is a pair of callables, ``legal(state)`` (moves
in a fixed order) and ``step(state, move)``; ``observe(state)`` is what the
players can see of a state. The search runs all readings in lockstep from the
same start and stops at the first move that is legal under one reading but not
another, or after which the readings' observations differ.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ruleslawyer.budget import Budget

Legal = Callable[[Any], Sequence[str]]
Step = Callable[[Any, str], Any]


@dataclass(frozen=True)
class Parting:
    """Where the readings part: the moves, each reading's state (None: last move illegal)."""

    moves: tuple[str, ...]
    states: Mapping[str, Any]


@dataclass(frozen=True)
class Search:
    found: Parting | None
    searched: int
    finished: bool  # True when the space (within max_depth) was exhausted


def shortest_parting(
    start: Hashable,
    readings: Mapping[str, tuple[Legal, Step]],
    observe: Callable[[Any], Hashable],
    budget: Budget,
    *,
    max_depth: int,
    allow: Callable[[Any, str], bool] | None = None,
) -> Search:
    """The shortest sequence (up to ``max_depth`` moves) after which the readings part."""
    names = list(readings)
    root = tuple(start for _ in names)
    seen = {root}
    queue: deque[tuple[tuple[Any, ...], tuple[str, ...]]] = deque([(root, ())])
    while queue:
        states, moves = queue.popleft()
        if len(moves) >= max_depth:
            continue
        if budget.spent(len(seen)):
            return Search(None, len(seen), False)
        legal = [readings[n][0](s) for n, s in zip(names, states, strict=True)]
        union = list(dict.fromkeys(m for ms in legal for m in ms))
        for move in union:
            if allow is not None and not allow(states[0], move):
                continue
            path = (*moves, move)
            if not all(move in ms for ms in legal):
                after = {
                    n: (readings[n][1](s, move) if move in ms else None)
                    for n, s, ms in zip(names, states, legal, strict=True)
                }
                return Search(Parting(path, after), len(seen), True)
            children = tuple(readings[n][1](s, move) for n, s in zip(names, states, strict=True))
            if len({observe(c) for c in children}) > 1:
                return Search(
                    Parting(path, dict(zip(names, children, strict=True))), len(seen), True
                )
            if children not in seen:
                seen.add(children)
                queue.append((children, path))
    return Search(None, len(seen), True)


def shortest_path(
    start: Hashable,
    legal: Legal,
    step: Step,
    goal: Callable[[Any], bool],
    budget: Budget,
    *,
    max_depth: int,
    allow: Callable[[Any, str], bool] | None = None,
) -> Search:
    """The shortest move sequence from ``start`` to a state where ``goal`` holds.

    ``found.states`` holds the reached state under ``"goal"``.
    """
    seen = {start}
    queue: deque[tuple[Any, tuple[str, ...]]] = deque([(start, ())])
    while queue:
        state, moves = queue.popleft()
        if len(moves) >= max_depth:
            continue
        if budget.spent(len(seen)):
            return Search(None, len(seen), False)
        for move in legal(state):
            if allow is not None and not allow(state, move):
                continue
            child = step(state, move)
            if goal(child):
                return Search(Parting((*moves, move), {"goal": child}), len(seen), True)
            if child not in seen:
                seen.add(child)
                queue.append((child, (*moves, move)))
    return Search(None, len(seen), True)


def shortest_cycle(
    start: Hashable,
    legal: Legal,
    step: Step,
    budget: Budget,
    *,
    max_depth: int,
    allow: Callable[[Any, str], bool] | None = None,
) -> Search:
    """The shortest move sequence that leads from ``start`` back to ``start``."""
    return shortest_path(
        start, legal, step, lambda s: s == start, budget, max_depth=max_depth, allow=allow
    )
