"""Exact world counts for a Cunning Folk log.

A world is an initial deal (a distinct arrangement of the setup's cards)
together with a value for each hidden swap (swapped or not). Two methods give
the same counts:

- :func:`filter_worlds`, the fast one: forward filtering over the current
  arrangements with integer weights (numpy). A hidden swap doubles every
  arrangement's worlds into itself and its swapped twin, and twins that meet
  are merged, so the work stays at most the number of distinct arrangements
  per event, whatever the number of swaps.
- :func:`brute_force`, the plain reference: every deal times every swap
  outcome, replayed event by event.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

import numpy as np

from ruleslawyer.models.cunning_folk import CELLS, ROLES, arrangements
from ruleslawyer.models.cunning_folk_log import Exchange, FaceDown, FaceUp, Is, IsNot, Log

ROLE_CODE = {r: i for i, r in enumerate(ROLES)}
_PLACE = np.array([len(ROLES) ** k for k in range(len(CELLS))], dtype=np.int64)


@dataclass(frozen=True)
class Worlds:
    """The current arrangements with how many worlds lead to each, and the public face-up cells.

    ``impossible`` is the index of the first event no world survives, or None.
    """

    village: np.ndarray  # (n, 9) role codes
    weight: np.ndarray  # (n,) int64 world counts
    face_up: tuple[bool, ...]
    impossible: int | None

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


def initial_village(log: Log) -> np.ndarray:
    """Every distinct deal of every composition the setup allows, as role codes."""
    return np.concatenate([arrangement_array(cards) for cards in log.setup.compositions])


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


def filter_worlds(log: Log, village: np.ndarray | None = None) -> Worlds:
    """Forward filtering: exact world counts after every event of ``log``."""
    village = initial_village(log) if village is None else village
    weight = np.ones(len(village), dtype=np.int64)
    face_up = face_up_after(log)
    for event in log.events:
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
                    village, weight = _merge(
                        np.concatenate([village, twin]), np.concatenate([weight, weight])
                    )
        if not len(weight):
            return Worlds(village, weight, face_up, event.index)
    return Worlds(village, weight, face_up, None)


def _merge(village: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keys = village.astype(np.int64) @ _PLACE
    unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    merged = np.zeros(len(unique), dtype=np.int64)
    np.add.at(merged, inverse.ravel(), weight)
    return village[first], merged


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


def brute_force(log: Log) -> Counter[tuple[str, ...]]:
    """The reference: how many (deal, hidden-swap outcomes) worlds end in each village."""
    ends: Counter[tuple[str, ...]] = Counter()
    deals = [a for cards in log.setup.compositions for a in arrangements(cards)]
    for deal in deals:
        for outcomes in itertools.product((False, True), repeat=log.unknown_swaps):
            end = replay(log, deal, outcomes)
            if end is not None:
                ends[end] += 1
    return ends


def face_up_after(log: Log) -> tuple[bool, ...]:
    face_up = [False] * len(CELLS)
    for event in log.events:
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
