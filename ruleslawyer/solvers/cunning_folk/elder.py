"""The best adaptive picking policy for an elder run, and its exact win probability.

An elder run picks cards one at a time; each pick shows the card to all. An
opposing card lets the run go on; any other card ends it (a loss). The run
wins once every opposing card in the village has been picked. With the
scoundrels rule the number of opposing cards is not known, so the elder may
instead declare: the declaration wins only if no opposing card is left face down
(opponents "may reveal one face-down card"; one who finds an opposing card wins
instead, which we count as a loss). A face-up opposing card the run may not pick
(``face_down_only``) therefore does not stop a declaration.

The value of a belief (the worlds still possible, with their weights) is the
best, over the cells that may be picked, of the chance the pick opposes times
the value after seeing it. Exact: weights are integers, values Fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.errors import BudgetExceeded
from ruleslawyer.models.cunning_folk.village import CELLS, OPPOSITION, ROLES

ROLE_CODE = {r: i for i, r in enumerate(ROLES)}
CHECK_EVERY = 16  # beliefs valued between two looks at the budget


@dataclass(frozen=True)
class ElderPlan:
    win_probability: Fraction
    first_pick: str | None  # None when no pick can win

    @property
    def guaranteed(self) -> bool:
        return self.win_probability == 1


def plan(
    village: np.ndarray,
    weight: np.ndarray,
    face_up: tuple[bool, ...],
    elder: str,
    *,
    declares: bool = False,
    declare_at_once: bool = True,
    face_down_only: bool = False,
    budget: Budget | None = None,
) -> ElderPlan:
    """Best first pick and win probability of ``elder``'s run over these weighted villages.

    ``budget`` is looked at every :data:`CHECK_EVERY` beliefs valued: when it is spent the
    plan stops part-way and raises :class:`BudgetExceeded` (no partial figure is returned).
    """
    village, weight = _project(village, weight, elder)
    opposing = village >= 0
    total = int(weight.sum())
    if total == 0:
        return ElderPlan(Fraction(0), None)
    pickable = tuple(c for c in range(len(CELLS)) if not (face_down_only and face_up[c]))
    # A declaration is answered only with face-down cards: what is left to find there.
    hidden = ~np.array(face_up, dtype=bool)
    memo: dict[frozenset[tuple[int, int]], tuple[Fraction, int | None]] = {}

    def value(rows: np.ndarray, picked: frozenset[int]) -> tuple[Fraction, int | None]:
        # rows: the villages where every picked cell opposes and shows the role seen there.
        key = frozenset((c, int(village[rows[0], c])) for c in picked)
        if key in memo:
            return memo[key]
        if budget is not None and len(memo) % CHECK_EVERY == 0 and budget.spent():
            raise BudgetExceeded(f"{elder} run plan")
        w = weight[rows]
        mass = int(w.sum())
        left = opposing[rows].sum(axis=1) - len(picked)
        done = int(w[left == 0].sum())
        best: tuple[Fraction, int | None] = (Fraction(0), None)
        if done == mass and not declares:
            best = (Fraction(1), None)
        elif declares and (picked or declare_at_once):
            unseen = (opposing[rows] & hidden).sum(axis=1) - sum(1 for c in picked if hidden[c])
            best = (Fraction(int(w[unseen == 0].sum()), mass), None)
        # A pick wins at most with the chance that it opposes: try the likeliest first and
        # skip any cell whose bound is below the best found (ties go to the earlier cell).
        bound = w @ opposing[rows]
        order = sorted((c for c in pickable if c not in picked), key=lambda c: (-bound[c], c))
        for c in order:
            if best[0] == 1 or Fraction(int(bound[c]), mass) < best[0]:
                break
            chance = Fraction(0)
            column = village[rows, c]
            for code in np.unique(column[opposing[rows, c]]):
                sub = rows[column == code]
                sub_value, _ = value(sub, picked | {c})
                chance += Fraction(int(weight[sub].sum()), mass) * sub_value
            if chance > best[0] or (chance == best[0] and chance > 0 and c < (best[1] or 0)):
                best = (chance, c)
        memo[key] = best
        return best

    probability, first = value(np.arange(len(weight)), frozenset())
    return ElderPlan(probability, CELLS[first] if first is not None else None)


def _project(village: np.ndarray, weight: np.ndarray, elder: str) -> tuple[np.ndarray, np.ndarray]:
    """Merge villages that differ only in which non-opposing card is where (code -1).

    Any non-opposing pick ends the run, so which one it is never matters; the
    opposing roles stay, since seeing one tells where the others can be.
    """
    opposing = np.isin(village, [ROLE_CODE[r] for r in OPPOSITION[elder]])
    projected = np.where(opposing, village, -1).astype(np.int8)
    if not len(projected):
        return projected, weight
    keys = (projected.astype(np.int64) + 1) @ (len(ROLES) + 1) ** np.arange(projected.shape[1])
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    merged = np.zeros(len(first), dtype=weight.dtype)
    np.add.at(merged, inverse.ravel(), weight)
    return projected[first], merged
