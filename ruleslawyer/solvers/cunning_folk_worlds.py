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
    rows = [a for cards in log.setup.compositions for a in arrangements(cards)]
    return np.array([[ROLE_CODE[r] for r in row] for row in rows], dtype=np.int8)


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
