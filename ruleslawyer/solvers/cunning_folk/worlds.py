"""Exact world counts for a Cunning Folk log.

A world is an initial deal (a distinct arrangement of one of the setup's
compositions) together with a value for each hidden swap (swapped or not).
Worlds are weighted: a deal by the setup's prior (1 for standard and bonus;
the dealing process for scoundrels,
:data:`~ruleslawyer.models.cunning_folk.village.SCOUNDREL_PRIOR`),
a hidden swap by the odds ``swapped:kept`` (1:1 unless chosen otherwise).
Weights are exact: int64 while their total fits, Python integers (numpy
object arrays) once the hidden swaps make it larger, so they never overflow. Two methods give
the same counts:

- :func:`filter_worlds`, the fast one: forward filtering over the current
  arrangements with integer weights (numpy). A hidden swap splits every
  arrangement's weight between itself and its swapped twin, and twins that
  meet are merged, so the work stays at most the number of distinct
  arrangements per event, whatever the number of swaps.
- :func:`brute_force`, the plain reference: every deal times every swap
  outcome, replayed event by event.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from dataclasses import dataclass

import numpy as np

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.models.cunning_folk.log import Exchange, FaceDown, FaceUp, Is, IsNot, Log
from ruleslawyer.models.cunning_folk.ops import Event
from ruleslawyer.models.cunning_folk.village import CELLS, ROLES, Setup, arrangements

ROLE_CODE = {r: i for i, r in enumerate(ROLES)}
_PLACE = np.array([len(ROLES) ** k for k in range(len(CELLS))], dtype=np.int64)


@dataclass(frozen=True)
class Worlds:
    """The current arrangements with how many worlds lead to each, and the public face-up cells.

    ``impossible`` is the index of the first event no world survives, or None.
    """

    village: np.ndarray  # (n, 9) role codes
    weight: np.ndarray  # (n,) exact world weights: int64, or Python ints once they grow
    face_up: tuple[bool, ...]
    impossible: int | None
    finished: bool = True  # False: the budget ended the filtering before the last event

    @property
    def total(self) -> int:
        return int(self.weight.sum())

    def counts(self) -> dict[str, dict[str, int]]:
        """Per cell, the number of worlds with each role there now (roles with none left out)."""
        out: dict[str, dict[str, int]] = {}
        for c, cell in enumerate(CELLS):
            column = self.village[:, c]
            out[cell] = {
                role: n
                for code, role in enumerate(ROLES)
                if (n := int(self.weight[column == code].sum()))
            }
        return out


def initial_village(log: Log) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct deal of every composition the setup allows, as role codes, and its weight.

    Fresh copies of arrays kept per setup, so playing many decisions on one setup (the
    balance agents) builds the arrangements once.
    """
    village, weight = _initial_village(log.setup)
    return village.copy(), weight.copy()


@functools.lru_cache(maxsize=4)
def _initial_village(setup: Setup) -> tuple[np.ndarray, np.ndarray]:
    parts = [arrangement_array(cards) for cards in setup.compositions]
    weight = np.concatenate(
        [np.full(len(part), setup.weight(k), dtype=np.int64) for k, part in enumerate(parts)]
    )
    return np.concatenate(parts), weight


def arrangement_array(cards: tuple[str, ...]) -> np.ndarray:
    """The distinct arrangements of ``cards`` over the cells (vectorised; rows in no set order).

    Roles are placed one after another: each row's free cells are chosen from by every
    combination of the role's count, so the rows multiply by C(free, count) per role.
    """
    village = np.full((1, len(cards)), -1, dtype=np.int8)
    for role, count in Counter(cards).items():
        free = np.nonzero(village[0] == -1)[0].size
        combos = np.array(list(itertools.combinations(range(free), count)), dtype=np.int64)
        free_cells = np.argsort(village != -1, axis=1, kind="stable")[:, :free]  # (rows, free)
        village = np.repeat(village, len(combos), axis=0)
        chosen = np.take_along_axis(
            np.repeat(free_cells, len(combos), axis=0), np.tile(combos, (free_cells.shape[0], 1)), 1
        )
        np.put_along_axis(village, chosen, ROLE_CODE[role], axis=1)
    return village


Odds = tuple[int, int]  # (swapped, kept): the weight of each outcome of a hidden swap


def filter_worlds(
    log: Log,
    *,
    odds: Odds = (1, 1),
    budget: Budget | None = None,
    progress: Progress | None = None,
) -> Worlds:
    """Forward filtering: exact world weights after every event of ``log``."""
    village, weight = initial_village(log)
    face_up = face_up_after(log)
    for event in log.events:
        if budget is not None and budget.spent():
            return Worlds(village, weight, face_up, None, finished=False)
        if progress is not None:
            progress.update(event.index)
        for op in event.ops:
            if isinstance(op, Is | IsNot):
                keep = (village[:, op.cell] == ROLE_CODE[op.role]) == isinstance(op, Is)
                village, weight = village[keep], weight[keep]
            elif isinstance(op, Exchange):
                twin = village.copy()
                twin[:, [op.a, op.b]] = twin[:, [op.b, op.a]]
                if op.known:
                    village = twin
                else:
                    weight = _exact(weight, sum(odds))
                    village, weight = _merge(
                        np.concatenate([village, twin]),
                        np.concatenate([weight * odds[1], weight * odds[0]]),
                    )
        if not weight.any():
            return Worlds(village, weight, face_up, event.index)
    return Worlds(village, weight, face_up, None)


def _exact(weight: np.ndarray, factor: int) -> np.ndarray:
    """``weight`` as int64 while ``factor`` times its total fits, else as Python integers."""
    if weight.dtype == object or int(weight.sum()) * factor < 2**62 > factor:
        return weight
    return weight.astype(object)


def _merge(village: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keys = village.astype(np.int64) @ _PLACE
    unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    merged = np.zeros(len(unique), dtype=weight.dtype)
    np.add.at(merged, inverse.ravel(), weight)
    keep = merged != 0
    return village[first][keep], merged[keep]


def replay(log: Log, deal: tuple[str, ...], outcomes: tuple[bool, ...]) -> tuple[str, ...] | None:
    """The village after the log from ``deal`` and these hidden-swap outcomes, or None."""
    village = list(deal)
    hidden = iter(outcomes)
    for event in log.events:
        for op in event.ops:
            if isinstance(op, Is) and village[op.cell] != op.role:
                return None
            if isinstance(op, IsNot) and village[op.cell] == op.role:
                return None
            if isinstance(op, Exchange) and (op.known or next(hidden)):
                village[op.a], village[op.b] = village[op.b], village[op.a]
    return tuple(village)


def brute_force(log: Log, odds: Odds = (1, 1)) -> Counter[tuple[str, ...]]:
    """The reference: the weight of the (deal, hidden-swap outcomes) worlds ending in each end."""
    ends: Counter[tuple[str, ...]] = Counter()
    for k, cards in enumerate(log.setup.compositions):
        for deal in arrangements(cards):
            for outcomes in itertools.product((False, True), repeat=log.unknown_swaps):
                end = replay(log, deal, outcomes)
                if end is not None:
                    swapped = sum(outcomes)
                    weight = odds[0] ** swapped * odds[1] ** (len(outcomes) - swapped)
                    if weight:
                        ends[end] += log.setup.weight(k) * weight
    return ends


def face_up_after(log: Log, extra: tuple[Event, ...] = ()) -> tuple[bool, ...]:
    """Which cards are face up after the log (and ``extra`` events after it)."""
    face_up = [False] * len(CELLS)
    for event in (*log.events, *extra):
        for op in event.ops:
            if isinstance(op, FaceUp | FaceDown):
                face_up[op.cell] = isinstance(op, FaceUp)
    return tuple(face_up)


def counts_of(ends: Counter[tuple[str, ...]]) -> dict[str, dict[str, int]]:
    """Per-cell role counts of a brute-force result, in the shape of :meth:`Worlds.counts`."""
    out: dict[str, dict[str, int]] = {}
    for c, cell in enumerate(CELLS):
        tally: Counter[str] = Counter()
        for end, n in ends.items():
            tally[end[c]] += n
        out[cell] = {r: tally[r] for r in ROLES if tally[r]}
    return out
