"""Elder runs planned over the runner's own worlds and played out in another's.

A runner chooses each pick from what they know (:mod:`.views`: their own worlds), for
their own stakes (:func:`.ends.run_stakes`: a win, a suspected card, stopping where
``may-stop`` lets them, declining where ``may-decline`` does). How the run then ends is
scored over the perspective's worlds: the same plan followed in each of the
perspective's villages (:meth:`.elder.Policy.play`). The plans are cached by the belief
they are made over, since many (knowledge, card) types look alike once the card is seen.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.models.cunning_folk.play import Rules
from ruleslawyer.models.cunning_folk.village import Setup
from ruleslawyer.solvers.cunning_folk.elder import Policy, Stakes, _project, policy
from ruleslawyer.solvers.cunning_folk.worlds import ROLE_CODE, Worlds


def where(worlds: Worlds, cell: int, role: str, *, face_up: bool = False) -> Worlds:
    """The worlds where ``cell`` holds ``role`` now (``face_up``: that card turned up)."""
    keep = worlds.village[:, cell] == ROLE_CODE[role]
    up = tuple(u or (face_up and c == cell) for c, u in enumerate(worlds.face_up))
    return Worlds(worlds.village[keep], worlds.weight[keep], up, None)


@dataclass
class Planner:
    """Runs planned under one setup and rules, cached by (elder, belief, stakes, picks)."""

    setup: Setup
    rules: Rules
    budget: Budget | None = None
    cache: dict[tuple, Policy] = field(default_factory=dict)
    ends: dict[int, Counter[str]] = field(default_factory=dict)

    def own_ends(self, plan: Policy, worlds: Worlds) -> Counter[str]:
        """How ``plan`` ends in the worlds it was planned over (its runner's own chances)."""
        found = self.ends.get(id(plan))
        if found is None:
            found = self.ends[id(plan)] = plan.play(worlds.village, worlds.weight)
        return found

    def plan(
        self, worlds: Worlds, elder: str, stakes: Stakes, picked: tuple[int, ...] = ()
    ) -> Policy:
        """The best run of ``elder`` over ``worlds`` for ``stakes``."""
        projected, merged = _project(worlds.village, worlds.weight, elder)
        common = math.gcd(*(int(w) for w in merged)) if len(merged) else 1
        key = (
            elder,
            stakes,
            worlds.face_up,
            picked,
            projected.tobytes(),
            tuple(int(w) // common for w in merged),
        )
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = policy(
                worlds.village,
                worlds.weight,
                worlds.face_up,
                elder,
                stakes=stakes,
                declares=self.setup.declares,
                declare_at_once=self.rules.declare_without_picks == "allowed",
                face_down_only=self.rules.elder_face_up_picks == "face-down-only",
                picked=picked,
                budget=self.budget,
            )
            found.value  # plan it now, so the budget is spent here  # noqa: B018
        return found


def play_out(
    plan: Policy, worlds: Worlds, rows: np.ndarray, swap: tuple[int, int] | None = None
) -> Counter[str]:
    """How ``plan`` ends in the perspective's worlds ``rows`` (a boolean mask): the summed
    weight of each end. ``swap``: the plan was made for a twin belief with these two cells
    exchanged (:func:`twins`), so the villages are exchanged the same way first."""
    village = worlds.village[rows]
    if swap is not None and swap[0] != swap[1]:
        village = village.copy()
        village[:, [swap[0], swap[1]]] = village[:, [swap[1], swap[0]]]
    return plan.play(village, worlds.weight[rows])


def twins(*beliefs: Worlds) -> list[int]:
    """For each cell, the first cell it may be exchanged with leaving every one of
    ``beliefs`` the same (face up or down alike, every village's weight kept): the same
    beliefs up to the names of the cells, so a plan made for one is the other's with the
    two exchanged."""
    out = list(range(len(beliefs[0].face_up)))
    canonical = [_canonical(w.village, w.weight) for w in beliefs]
    for c in range(len(out)):
        for r in range(c):
            if out[r] != r or any(w.face_up[r] != w.face_up[c] for w in beliefs):
                continue
            if all(_swapped(w, r, c, k) for w, k in zip(beliefs, canonical, strict=True)):
                out[c] = r
                break
    return out


def _swapped(worlds: Worlds, r: int, c: int, canonical: tuple[np.ndarray, np.ndarray]) -> bool:
    if not len(worlds.weight):
        return True
    swapped = worlds.village.copy()
    swapped[:, [r, c]] = swapped[:, [c, r]]
    return _same(canonical, _canonical(swapped, worlds.weight))


def _canonical(village: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.lexsort(village.T[::-1])
    return village[order], weight[order]


def _same(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> bool:
    return bool(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]))
