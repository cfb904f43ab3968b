"""The elder planner against a plain expectimax over the brute-force worlds."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from ruleslawyer.budget import Budget
from ruleslawyer.errors import BudgetExceeded
from ruleslawyer.models.cunning_folk.village import CELLS, ELDERS, opposes
from ruleslawyer.solvers.cunning_folk.elder import ROLE_CODE, plan
from ruleslawyer.solvers.cunning_folk.worlds import brute_force, face_up_after
from tests.cunning_folk.helpers import log_of, random_recording


def reference(ends: Counter, elder: str, face_up, face_down_only: bool) -> Fraction:
    """Best win chance by trying every pick order, conditioning on every card seen."""
    return reference_after(ends, elder, face_up, face_down_only, frozenset())


def reference_after(
    ends: Counter, elder: str, face_up, face_down_only: bool, picked: frozenset[int]
) -> Fraction:
    worlds = list(ends.items())

    def value(worlds, picked: frozenset[int]) -> Fraction:
        mass = sum(n for _, n in worlds)
        if all(all(c in picked for c, r in enumerate(v) if opposes(elder, r)) for v, _ in worlds):
            return Fraction(1)
        best = Fraction(0)
        for c in range(len(CELLS)):
            if c in picked or (face_down_only and face_up[c]):
                continue
            chance = Fraction(0)
            for role in {v[c] for v, _ in worlds if opposes(elder, v[c])}:
                sub = [(v, n) for v, n in worlds if v[c] == role]
                chance += Fraction(sum(n for _, n in sub), mass) * value(sub, picked | {c})
            best = max(best, chance)
        return best

    return value(worlds, picked)


def first_best(ends: Counter, elder: str, face_up, face_down_only: bool) -> str | None:
    """The first cell in A1..C3 order whose pick achieves the best chance (None if 0)."""
    best = reference(ends, elder, face_up, face_down_only)
    if best == 0:
        return None
    mass = sum(ends.values())
    for c in range(len(CELLS)):
        if face_down_only and face_up[c]:
            continue
        rest = Counter({v: n for v, n in ends.items() if opposes(elder, v[c])})
        chance = Fraction(0)
        for role in {v[c] for v in rest}:
            sub = Counter({v: n for v, n in rest.items() if v[c] == role})
            won = reference_after(sub, elder, face_up, face_down_only, frozenset({c}))
            chance += Fraction(sum(sub.values()), mass) * won
        if chance == best:
            return CELLS[c]
    raise AssertionError("no cell achieves the best chance")


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("face_down_only", [False, True])
def test_planner_matches_plain_expectimax(seed: int, face_down_only: bool) -> None:
    recording = random_recording(seed + 50, max_moves=40)
    log = log_of(recording.document)
    ends = brute_force(log)
    if len(ends) > 400:  # keep the plain expectimax small
        pytest.skip("too many villages for the plain expectimax")
    village = np.array([[ROLE_CODE[r] for r in v] for v in ends], dtype=np.int8)
    weight = np.array(list(ends.values()), dtype=np.int64)
    face_up = face_up_after(log)
    for elder in ELDERS:
        best = plan(village, weight, face_up, elder, face_down_only=face_down_only)
        assert best.win_probability == reference(ends, elder, face_up, face_down_only)
        assert best.first_pick == first_best(ends, elder, face_up, face_down_only)


class _LooksBudget(Budget):
    """A budget spent from its ``after``-th look on, counting the looks."""

    def __init__(self, after: int) -> None:
        super().__init__()
        self.after = after
        self.looks = 0

    def spent(self, states: int = 0) -> bool:
        self.looks += 1
        return self.looks >= self.after


def _fresh_deal() -> tuple[np.ndarray, np.ndarray, tuple[bool, ...]]:
    log = log_of(random_recording(3, max_moves=0).document)
    ends = brute_force(log)
    village = np.array([[ROLE_CODE[r] for r in v] for v in ends], dtype=np.int8)
    return village, np.array(list(ends.values()), dtype=np.int64), face_up_after(log)


def test_plan_stops_part_way_when_its_budget_ends() -> None:
    # A fresh deal: every village is possible, so a run plan values many beliefs. A budget
    # spent at its second look must stop the plan there (after CHECK_EVERY more beliefs),
    # not after the whole plan; a budget never spent gives the plan without a budget.
    village, weight, face_up = _fresh_deal()
    whole = plan(village, weight, face_up, "good-elder")
    budget = _LooksBudget(after=2)
    with pytest.raises(BudgetExceeded):
        plan(village, weight, face_up, "good-elder", budget=budget)
    assert budget.looks == 2
    roomy = _LooksBudget(after=10**9)
    assert plan(village, weight, face_up, "good-elder", budget=roomy) == whole
    assert roomy.looks > 2  # it looked more than once along the way


def test_a_face_up_opposing_card_does_not_stop_a_declaration() -> None:
    # Scoundrels, cunning-folk/elder-face-up-picks=face-down-only, an evil-elder run: A1 is
    # a face-up good witch (the run may not pick it). Two equally likely worlds: B1 a good
    # witch in both; the good elder in C1 (world 1) or C2 (world 2), the rest villagers.
    # Opponents "may reveal one face-down card", so A1 cannot beat the declaration: pick
    # B1 (opposes in both), then C1 (the good elder in world 1, a villager ends world 2),
    # then declare with nothing opposing left face down: 1/2. Counting A1 as left gave 0.
    from ruleslawyer.models.cunning_folk.play import ELDER, OVER, Rules, State, Table, step
    from ruleslawyer.models.cunning_folk.village import scoundrel_setup

    def world(**cards: str) -> tuple[str, ...]:
        return tuple(cards.get(c, "villager") for c in CELLS)

    worlds = [
        world(A1="good-witch", B1="good-witch", C1="good-elder"),
        world(A1="good-witch", B1="good-witch", C2="good-elder"),
    ]
    village = np.array([[ROLE_CODE[r] for r in w] for w in worlds], dtype=np.int8)
    face_up = (True,) + (False,) * 8
    got = plan(village, np.array([1, 1]), face_up, "evil-elder", declares=True, face_down_only=True)
    assert got.win_probability == Fraction(1, 2) and got.first_pick == "B1"
    # The state machine agrees in world 1: pick B1, pick C1, declare; nobody can reveal an
    # opposing card (A1 is face up), so the declaration stands.
    rules = Rules(elder_face_up_picks="face-down-only")
    table = Table(scoundrel_setup(3), 3, rules)
    state = State(
        village=worlds[0], face_up=face_up, marks=(0, 0, 0), phase=ELDER, claim="evil-elder"
    )
    for move in ("pick B1", "pick C1", "declare", "no-reveal", "no-reveal"):
        state = step(table, state, move)
    assert state.phase == OVER and state.winner == 0
