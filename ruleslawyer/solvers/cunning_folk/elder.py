"""The best adaptive elder run over a belief, its value, and the run played out.

An elder run picks cards one at a time; each pick shows the card to all. An
opposing card lets the run go on; any other card ends it ("Otherwise your turn ends
immediately and you must take a suspected card"). The run wins once every opposing
card in the village has been picked. With the scoundrels rule the number of opposing
cards is not known, so the elder may instead declare: the declaration stands only if no
opposing card is left face down (opponents "may reveal one face-down card"; one who
finds an opposing card wins instead, counted as refuted). A face-up opposing card the
run may not pick (``face_down_only``) therefore does not stop a declaration. Under
``cunning-folk/elder-run-stop=may-stop`` the runner may stop after an opposing card;
when nothing is left to pick the run ends without a win ("exhausted").

:class:`Stakes` gives the runner's utility at each end (the win chance alone: 1 for a
win, 0 otherwise). The value of a belief (the villages still possible, with weights) is
the best of its options: a pick (the chance of each card times the value after seeing
it), a declaration, a stop. Exact: weights are integers, values Fractions.
:meth:`Policy.play` follows the best options in given true villages: how a run planned
over one player's worlds ends in another player's worlds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.errors import BudgetExceeded
from ruleslawyer.models.cunning_folk.village import CELLS, OPPOSITION, ROLES

ROLE_CODE = {r: i for i, r in enumerate(ROLES)}
CHECK_EVERY = 16  # beliefs valued between two looks at the budget

WON, FAILED, STOPPED, EXHAUSTED, REFUTED = "won", "failed", "stopped", "exhausted", "refuted"
ENDS = (WON, FAILED, STOPPED, EXHAUSTED, REFUTED)
DECLARE, STOP, END = -2, -3, -4  # the option chosen where it is not a pick


@dataclass(frozen=True)
class Stakes:
    """The runner's utility at each end of a run; ``stop`` None where stopping is not
    allowed (``elder-run-stop=must-continue``)."""

    win: Fraction = Fraction(1)
    fail: Fraction = Fraction(0)
    stop: Fraction | None = None
    exhausted: Fraction = Fraction(0)
    refuted: Fraction = Fraction(0)
    decline: Fraction | None = None  # may-decline: not running at all (before any pick)

    def of(self, end: str) -> Fraction:
        return {
            WON: self.win,
            FAILED: self.fail,
            STOPPED: self.stop if self.stop is not None else self.exhausted,
            EXHAUSTED: self.exhausted,
            REFUTED: self.refuted,
        }[end]

    @property
    def best(self) -> Fraction:
        extra = [v for v in (self.stop, self.decline) if v is not None]
        return max(self.win, self.fail, self.exhausted, self.refuted, *extra)


WIN_CHANCE = Stakes()


@dataclass(frozen=True)
class ElderPlan:
    win_probability: Fraction
    first_pick: str | None  # None when no pick can win

    @property
    def guaranteed(self) -> bool:
        return self.win_probability == 1


@dataclass
class Policy:
    """A planned run: its value over the belief, its first option, and the plan itself
    (each belief reached by a best option, keyed by the picks and what they showed)."""

    elder: str
    stakes: Stakes
    village: np.ndarray  # the belief's villages, non-opposing cards projected to -1
    weight: np.ndarray
    face_up: tuple[bool, ...]
    declares: bool
    declare_at_once: bool
    face_down_only: bool
    start: tuple[int, ...] = ()  # cells picked before the plan (a run in progress)
    budget: Budget | None = None
    memo: dict[frozenset[tuple[int, int]], tuple[Fraction, tuple[int, ...]]] = field(
        default_factory=dict
    )

    @property
    def value(self) -> Fraction:
        return self._root()[0]

    @property
    def first(self) -> int:
        """The first best option: a declaration, stop or end before a pick, then the pick
        in A1..C3 order (:data:`DECLARE`, :data:`STOP`, :data:`END` or a cell index)."""
        return self._root()[1][0]

    @property
    def first_pick(self) -> str | None:
        first = self.first
        return CELLS[first] if first >= 0 else None

    def _root(self) -> tuple[Fraction, tuple[int, ...]]:
        if not len(self.weight):
            return (Fraction(0), (END,))
        return self._value(np.arange(len(self.weight)), frozenset(self.start))

    def _key(self, rows: np.ndarray, picked: frozenset[int]) -> frozenset[tuple[int, int]]:
        return frozenset((c, int(self.village[rows[0], c])) for c in picked)

    def _ends(self, rows: np.ndarray, picked: frozenset[int]) -> list[tuple[Fraction, int]]:
        """The options that end the run here (a declaration, a stop, not running)."""
        s = self.stakes
        out: list[tuple[Fraction, int]] = []
        if self.declares and (picked or self.declare_at_once):
            w = self.weight[rows]
            hidden = ~np.array(self.face_up, dtype=bool)
            opposing = self.village[rows] >= 0
            unseen = (opposing & hidden).sum(axis=1) - sum(1 for c in picked if hidden[c])
            stands = Fraction(int(w[unseen == 0].sum()), int(w.sum()))
            out.append((stands * s.win + (1 - stands) * s.refuted, DECLARE))
        if s.stop is not None and picked:
            out.append((s.stop, STOP))
        if s.decline is not None and not picked:
            out.append((s.decline, END))
        return out

    def _pickable(self, picked: frozenset[int]) -> list[int]:
        return [
            c
            for c in range(len(CELLS))
            if c not in picked and not (self.face_down_only and self.face_up[c])
        ]

    def _pick(self, rows: np.ndarray, picked: frozenset[int], c: int) -> Fraction:
        """The value of picking ``c``: each opposing card seen, then the best after it."""
        w = self.weight[rows]
        mass = int(w.sum())
        column = self.village[rows, c]
        hit = column >= 0
        value = Fraction(int(w[~hit].sum()), mass) * self.stakes.fail
        for code in np.unique(column[hit]):
            sub = rows[column == code]
            value += Fraction(int(self.weight[sub].sum()), mass) * self._value(sub, picked | {c})[0]
        return value

    def _value(self, rows: np.ndarray, picked: frozenset[int]) -> tuple[Fraction, tuple[int, ...]]:
        key = self._key(rows, picked)
        if key in self.memo:
            return self.memo[key]
        budget = self.budget
        if budget is not None and len(self.memo) % CHECK_EVERY == 0 and budget.spent():
            raise BudgetExceeded(f"{self.elder} run plan")
        s = self.stakes
        w = self.weight[rows]
        mass = int(w.sum())
        left = (self.village[rows] >= 0).sum(axis=1) - len(picked)
        if not self.declares and int(w[left == 0].sum()) == mass:
            self.memo[key] = found = (s.win, (END,))
            return found
        options = self._ends(rows, picked)
        best = max((v for v, _ in options), default=None)
        # A pick is worth at most its chance of opposing times the best end, plus the rest
        # times a failure: try the likeliest first and skip any below the best found (a
        # tie is worked out: every best option is kept).
        bound = w @ (self.village[rows] >= 0)
        for c in sorted(self._pickable(picked), key=lambda c: (-bound[c], c)):
            hit = Fraction(int(bound[c]), mass)
            if best is not None and hit * s.best + (1 - hit) * s.fail < best:
                break
            value = self._pick(rows, picked, c)
            options.append((value, c))
            best = value if best is None else max(best, value)
        if best is None:  # nothing to pick, declare or stop: the run ends without a win
            options, best = [(s.exhausted, END)], s.exhausted
        ties = sorted((o for v, o in options if v == best), key=lambda o: (o >= 0, o))
        self.memo[key] = found = (best, tuple(ties))
        return found

    def options(self) -> list[tuple[int, Fraction]]:
        """Every option at the start of the plan with its value (each pick worked out in
        full): picks in cell order, then a declaration, a stop, not running."""
        if not len(self.weight):
            return []
        rows = np.arange(len(self.weight))
        picked = frozenset(self.start)
        picks = [(c, self._pick(rows, picked, c)) for c in self._pickable(picked)]
        return picks + [(o, v) for v, o in self._ends(rows, picked)]

    def play(self, villages: np.ndarray, weights: Sequence[int] | np.ndarray) -> Counter[str]:
        """How the planned run ends in each true village (role codes, not projected): the
        weight of each end (:data:`ENDS`). Where several options are best, each is taken
        with equal chance (the runner's choice among them is not known), so the weights
        are Fractions. Every true village must be one of the belief's.

        The true villages that reach a belief are those agreeing with its picks, whatever
        the way there, so each belief's ends are worked out once."""
        true, weights = _project(villages, np.asarray(weights), self.elder)
        if not len(true):
            return Counter()
        memo: dict[frozenset[tuple[int, int]], Counter[str]] = {}
        rows = np.arange(len(self.weight))
        return self._play(rows, frozenset(self.start), true, weights, memo)

    def _play(
        self,
        rows: np.ndarray,
        picked: frozenset[int],
        true: np.ndarray,
        weights: np.ndarray,
        memo: dict[frozenset[tuple[int, int]], Counter[str]],
    ) -> Counter[str]:
        """The ends, weighted, of the true villages ``true`` (those reaching the belief
        ``rows``) from there."""
        key = self._key(rows, picked)
        if key in memo:
            return memo[key]
        budget = self.budget
        if budget is not None and len(memo) % CHECK_EVERY == 0 and budget.spent():
            raise BudgetExceeded(f"{self.elder} run played out")
        _, ties = self._value(rows, picked)
        ends: Counter[str] = Counter()
        for option in ties:
            for end, w in self._follow(rows, picked, option, true, weights, memo).items():
                ends[end] += w / len(ties)
        memo[key] = ends
        return ends

    def _follow(
        self,
        rows: np.ndarray,
        picked: frozenset[int],
        option: int,
        true: np.ndarray,
        weights: np.ndarray,
        memo: dict[frozenset[tuple[int, int]], Counter[str]],
    ) -> Counter[str]:
        ends: Counter[str] = Counter()

        def add(end: str, mask: np.ndarray | None = None) -> None:
            total = int(weights.sum() if mask is None else weights[mask].sum())
            if total:
                ends[end] += Fraction(total)

        if option == END:
            done = ((true >= 0).sum(axis=1) == len(picked)) & (len(picked) > 0)
            if self.declares:
                done[:] = False
            add(WON, done)
            add(EXHAUSTED, ~done)
        elif option == STOP:
            add(STOPPED)
        elif option == DECLARE:
            hidden = ~np.array(self.face_up, dtype=bool)
            unseen = ((true >= 0) & hidden).sum(axis=1) - sum(1 for c in picked if hidden[c])
            add(WON, unseen == 0)
            add(REFUTED, unseen != 0)
        else:
            seen = true[:, option]
            add(FAILED, seen < 0)
            column = self.village[rows, option]
            after = picked | {option}
            for code in np.unique(seen[seen >= 0]):
                sub = rows[column == code]
                if not len(sub):
                    raise ValueError("a true village outside the belief the run was planned over")
                reach = seen == code
                if not self.declares and (true[reach] >= 0).sum(axis=1).max() == len(after):
                    add(WON, reach)  # the last opposing card: a win
                    continue
                ends.update(self._play(sub, after, true[reach], weights[reach], memo))
        return ends


def _codes(elder: str) -> list[int]:
    return [ROLE_CODE[r] for r in OPPOSITION[elder]]


def policy(
    village: np.ndarray,
    weight: np.ndarray,
    face_up: tuple[bool, ...],
    elder: str,
    *,
    stakes: Stakes = WIN_CHANCE,
    declares: bool = False,
    declare_at_once: bool = True,
    face_down_only: bool = False,
    picked: Sequence[int] = (),
    budget: Budget | None = None,
) -> Policy:
    """The best run of ``elder`` over these weighted villages (``picked``: cells already
    picked in a run in progress, each opposing, the villages agreeing on them).

    ``budget`` is looked at every :data:`CHECK_EVERY` beliefs valued: when it is spent
    the plan stops part-way and raises :class:`BudgetExceeded` (no partial figure)."""
    projected, merged = _project(village, weight, elder)
    return Policy(
        elder,
        stakes,
        projected,
        merged,
        face_up,
        declares,
        declare_at_once,
        face_down_only,
        tuple(picked),
        budget,
    )


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
    """Best first pick and win probability of ``elder``'s run over these weighted villages
    (the run's own chance of identifying every opposing card, whatever else follows)."""
    best = policy(
        village,
        weight,
        face_up,
        elder,
        declares=declares,
        declare_at_once=declare_at_once,
        face_down_only=face_down_only,
        budget=budget,
    )
    value, first = best.value, best.first
    return ElderPlan(value, CELLS[first] if first >= 0 and value > 0 else None)


def _project(village: np.ndarray, weight: np.ndarray, elder: str) -> tuple[np.ndarray, np.ndarray]:
    """Merge villages that differ only in which non-opposing card is where (code -1).

    Any non-opposing pick ends the run, so which one it is never matters; the
    opposing roles stay, since seeing one tells where the others can be.
    """
    opposing = np.isin(village, _codes(elder))
    projected = np.where(opposing, village, -1).astype(np.int8)
    if not len(projected):
        return projected, weight
    keys = (projected.astype(np.int64) + 1) @ (len(ROLES) + 1) ** np.arange(projected.shape[1])
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    merged = np.zeros(len(first), dtype=weight.dtype)
    np.add.at(merged, inverse.ravel(), weight)
    return projected[first], merged
