"""Twisted Cryptids advice: the worlds the players cannot tell apart, as numpy axes.

A world, for the play within an advice's horizon, is the kind on top of each Stack whose
Hiding Spot stands on a Site and, in the last round, each player's Hidden Trait: one axis
each (:class:`Axis`). :class:`Worlds` holds each player's weights over them
(:mod:`ruleslawyer.models.twisted_cryptids.knowledge`: their own axes theirs to see, the
others' arranged by the reveals, the actor's by what the record says they know), as a
product of arrays over disjoint axes (:data:`Factors`, summed by :func:`contract`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ruleslawyer.models.twisted_cryptids.knowledge import (
    Hidden,
    kind_of,
    public_slots,
    top_counts,
    trait_candidates,
)
from ruleslawyer.models.twisted_cryptids.play import State, unrevealed
from ruleslawyer.solvers.twisted_cryptids.frame import Frame, leader_of


@dataclass(frozen=True)
class Axis:
    """One hidden fact the play within the horizon reads: the kind on top of ``owner``'s
    Stack ``stack``, or (``stack`` = -1) ``owner``'s Hidden Trait; ``values`` in name order."""

    owner: int
    stack: int
    values: tuple[Any, ...]


def _tops_axes(state: State) -> list[Axis]:
    """A top-kind axis for every Stack whose Hiding Spot stands on a Site."""
    out = []
    for q in range(state.n):
        kinds = tuple(sorted({kind_of(state, q, s) for s in unrevealed(state, q)}))
        for j, site in enumerate(state.spots[q]):
            if site >= 0 and state.stacks[q][j]:
                out.append(Axis(q, j, kinds))
    return out


class Worlds:
    """The axes of a :class:`Frame` and each player's weights over them (unnormalised)."""

    def __init__(
        self,
        frame: Frame,
        hidden: Sequence[Hidden],
        sampled: Sequence[tuple[tuple[tuple[int, ...], ...], ...]] | None = None,
    ):
        root, actor = frame.root, frame.actor
        self.frame, self.n = frame, root.n
        self.axes = _tops_axes(root)
        if frame.weighs_traits:
            every = trait_candidates(root)
            self.axes += [Axis(q, -1, every) for q in range(root.n)]
        self.dims = len(self.axes)
        self.index = {(a.owner, a.stack): i for i, a in enumerate(self.axes)}
        self.own = [
            tuple(i for i, a in enumerate(self.axes) if a.owner == p) for p in range(self.n)
        ]
        by_player = {h.player: h for h in hidden}
        public = [self._tops(root, q, public_slots(root, q)) for q in range(self.n)]
        actor_tops = np.ones((1,) * self.dims)
        if sampled is None:
            for q in range(self.n):
                if q != actor:
                    h = by_player.get(q)
                    tops = self._tops(root, q, h) if h else self._point(root, q)
                    actor_tops = actor_tops * tops
        else:
            actor_tops = actor_tops * self._histogram(root, actor, sampled)
        self.actor_tops = actor_tops  # the actor's weights over the other players' tops
        self.actor_point = self._point(root, actor)  # the actor's own tops
        # the actor's own axes and their values as the actor knows them: (axis, value index)
        self.actor_known = [
            (i, self.axes[i].values.index(kind_of(root, actor, root.stacks[actor][a.stack][0])))
            for i, a in enumerate(self.axes)
            if a.owner == actor and a.stack >= 0
        ]
        if frame.weighs_traits and frame.trait is not None:
            i = self.index[(actor, -1)]
            self.actor_known.append((i, self.axes[i].values.index(frame.trait)))
        self.public = public
        self.traits = self._traits()
        self.leaders = [leader_of(root, p) for p in range(self.n)]
        self._weights: dict[tuple[Any, ...], np.ndarray] = {}

    # --- priors ---------------------------------------------------------------------------

    def _shape(self, sizes: Mapping[int, int]) -> tuple[int, ...]:
        return tuple(sizes.get(i, 1) for i in range(self.dims))

    def _tops(self, state: State, q: int, h: Hidden) -> np.ndarray:
        """``q``'s tops weighted by arrangement counts of ``h`` (a viewer's knowledge)."""
        mine = [i for i in self.own[q] if self.axes[i].stack >= 0]
        out = np.zeros(self._shape({i: len(self.axes[i].values) for i in mine}))
        if not mine:
            return out + 1.0
        counts = top_counts(state, h, [self.axes[i].stack for i in mine])
        for kinds, count in counts.items():
            at = [0] * self.dims
            for i, k in zip(mine, kinds, strict=True):
                at[i] = self.axes[i].values.index(k)
            out[tuple(at)] = count
        return out

    def _point(self, state: State, q: int) -> np.ndarray:
        """``q``'s tops as they lie in ``state`` (known)."""
        mine = [i for i in self.own[q] if self.axes[i].stack >= 0]
        out = np.zeros(self._shape({i: len(self.axes[i].values) for i in mine}))
        at = [0] * self.dims
        for i in mine:
            a = self.axes[i]
            at[i] = a.values.index(kind_of(state, q, state.stacks[q][a.stack][0]))
        out[tuple(at)] = 1.0
        return out

    def _histogram(self, state: State, actor: int, worlds: Sequence[Any]) -> np.ndarray:
        """The other players' tops over sampled worlds: how many samples put each there."""
        mine = [i for i, a in enumerate(self.axes) if a.stack >= 0 and a.owner != actor]
        out = np.zeros(self._shape({i: len(self.axes[i].values) for i in mine}))
        for world in worlds:
            at = [0] * self.dims
            for i in mine:
                a = self.axes[i]
                at[i] = a.values.index(kind_of(state, a.owner, world[a.owner][a.stack][0]))
            out[tuple(at)] += 1.0
        return out

    def _traits(self) -> np.ndarray:
        """1 where no two players hold the same Hidden Trait (0 elsewhere)."""
        idx = [i for i, a in enumerate(self.axes) if a.stack < 0]
        if not idx:
            return np.ones((1,) * self.dims)
        size = len(self.axes[idx[0]].values)
        sub = np.ones((size,) * len(idx))
        for x, y in itertools.combinations(range(len(idx)), 2):
            sub = sub * (1 - _pair(size, len(idx), x, y))
        return sub.reshape(self._shape({i: size for i in idx}))

    def _trait_mask(self, q: int, allowed: Sequence[int]) -> np.ndarray:
        i = self.index[(q, -1)]
        values = self.axes[i].values
        flat = np.array([1.0 if v in allowed else 0.0 for v in values])
        return flat.reshape(self._shape({i: len(values)}))

    def weights(self, viewer: int, fixed: tuple[tuple[int, int], ...]) -> Factors:
        """``viewer``'s weights over the worlds, conditioned on the axes ``fixed`` (axis,
        value index) by reveals since the position; their own axes are theirs to see (not
        weighted)."""
        key = (viewer, fixed)
        hit = self._weights.get(key)
        if hit is not None:
            return hit
        f = self.frame
        if viewer == f.actor:
            traits = self.traits
            if self.frame.weighs_traits:
                allowed = [t for t in self.axes[-1].values if t not in f.excluded]
                for q in range(self.n):
                    if q != viewer:
                        traits = traits * self._trait_mask(q, allowed)
            factors = [self.actor_tops, traits]
        else:
            factors = [self.traits, *(self.public[q] for q in range(self.n) if q != viewer)]
        for axis, value in fixed:
            if self.axes[axis].owner != viewer:
                factors = [
                    np.take(x, [value], axis=axis) if x.shape[axis] > 1 else x for x in factors
                ]
        out = self._weights[key] = tuple(factors)
        return out

    def root_weights(self) -> Factors:
        """The actor's weights at the position: their own tops and Hidden Trait as they are
        (the trait any card they cannot rule out when the record does not name it)."""
        f = self.frame
        tops, traits = self.weights(f.actor, ())
        if f.weighs_traits:
            allowed = (
                [f.trait]
                if f.trait is not None
                else [t for t in self.axes[-1].values if t not in f.excluded]
            )
            traits = traits * self._trait_mask(f.actor, allowed)
        return (self.actor_point, tops, traits)


Factors = tuple[np.ndarray, ...]  # weights as a product of arrays over disjoint axes


def contract(
    factors: Factors, values: np.ndarray, summed: Sequence[int], lead: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """The weighted sum of ``values`` (``lead`` leading dimensions, then the axes) over the
    axes ``summed`` (kept as size 1), and the total weight: each factor summed on its own
    over the axes ``values`` does not vary along first."""
    shape = values.shape[lead:]
    varying = tuple(i for i in summed if shape[i] > 1)
    flat = tuple(i for i in summed if shape[i] == 1)
    weight: np.ndarray | None = None
    for x in factors:
        part = x.sum(axis=flat, keepdims=True) if flat else x
        weight = part if weight is None else weight * part
    assert weight is not None
    total = weight.sum(axis=varying, keepdims=True) if varying else weight
    num = values * weight
    if varying:
        num = num.sum(axis=tuple(lead + i for i in varying), keepdims=True)
    return num, total


def _pair(size: int, dims: int, x: int, y: int) -> np.ndarray:
    """1 where axes ``x`` and ``y`` of a ``dims``-axis array of side ``size`` are equal."""
    shape = [1] * dims
    shape[x] = shape[y] = size
    return np.eye(size).reshape(shape)
