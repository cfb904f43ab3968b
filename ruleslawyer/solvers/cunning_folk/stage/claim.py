"""A pending claim, answered: every branch with its exact chance and its value to each seat.

The advised player (the log's perspective) challenges or accepts; the other players
still in accept. The claim is true with the chance the perspective's worlds give it; a
caught bluff, a wrong challenge and the claimed action follow the rulebook
(:mod:`.ends`). An elder claim's run is the claimant's: planned over her own worlds
(what she has seen, the card she has just looked at, never what only the perspective
saw: :mod:`.views`) for her own stakes, and played out in each of the perspective's
worlds (:mod:`.runs`). A game that goes on is worth the continuation table's value
(:mod:`.goes_on.continuation`), not 0.

:func:`outcomes` lists both answers' branches; :func:`sensitivity` says, for each
continuation value the answer rests on, the range over which the better answer stays
the same (exact: the comparison is linear in each value).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.models.cunning_folk.village import ELDERS, GOOD_WITCH, VAGRANT, VILLAGER
from ruleslawyer.solvers.cunning_folk.elder import ENDS, EXHAUSTED, FAILED, STOPPED
from ruleslawyer.solvers.cunning_folk.goes_on.continuation import Table, state_text
from ruleslawyer.solvers.cunning_folk.stage.ends import (
    ACTIONS,
    END_TEXT,
    Position,
    Values,
    action_values,
    answered,
    end_values,
    outcome_text,
    over,
    penalise,
    run_stakes,
)
from ruleslawyer.solvers.cunning_folk.stage.runs import Planner, play_out, where
from ruleslawyer.solvers.cunning_folk.stage.views import Views
from ruleslawyer.solvers.cunning_folk.worlds import ROLE_CODE

WIN, LOSS, OPEN = "win", "loss", "open"


@dataclass(frozen=True)
class Claim:
    """A claim still open to challenge: ``player`` says ``cell`` holds ``role``."""

    player: str
    cell: int
    role: str
    event: int  # its index in the log


@dataclass(frozen=True)
class Branch:
    """One way an answer can go: its chance, what happens, each seat's value after it, and
    the continuation state it leaves (None: the game is over)."""

    probability: Fraction
    text: str
    values: Values
    state: tuple[tuple[int, ...], int] | None  # (table state, the advised seat's place in it)

    def outcome(self, me: int) -> str:
        if self.state is None:
            return WIN if self.values[me] == 1 else LOSS
        return OPEN


def position(log: Log, claimant: str, goes_on: Table) -> Position:
    return Position(
        log.players,
        log.marks_now(),
        log.players.index(claimant),
        log.rules,
        log.setup,
        goes_on,
    )


def _state(pos: Position, marks: Sequence[int], mover: int, me: int) -> tuple | None:
    state = pos.goes_on.state(marks, mover)
    if state is None or marks[me] >= 2:
        return None
    order = [s for k in range(len(marks)) if marks[s := (mover + k) % len(marks)] < 2]
    return (state, order.index(me))


def _action_branches(
    pos: Position,
    marks: tuple[int, ...],
    role: str,
    acts: bool,
    run: Counter[str] | None,
    head: str,
    mass: Fraction,
    me: int,
) -> list[Branch]:
    """The branches after the answers left ``marks``: the action, an elder run's ends."""
    claimant = pos.players[pos.claimant]
    if over(marks) or marks[me] >= 2:
        values = action_values(pos, marks, role, False, None)
        return [Branch(mass, head.removesuffix("; "), values, None)]
    if acts and role in ELDERS:
        assert run is not None
        total = sum(run.values())
        ends = end_values(pos, marks, pos.claimant)
        out = []
        after = pos.left(marks, pos.claimant)
        failed = penalise(marks, (pos.claimant,))
        for end in ENDS:
            if not run.get(end):
                continue
            state = None
            if end == FAILED:
                state = _state(pos, failed, pos.left(failed, pos.claimant), me)
            elif end in (STOPPED, EXHAUSTED):
                state = _state(pos, marks, after, me)
            text = f"{head}{claimant}'s {role} run {END_TEXT[end]}"
            if end == FAILED:
                text += f" ({outcome_text(pos, failed, marks, me)})"
            out.append(Branch(mass * Fraction(run[end], total), text, ends[end], state))
        return out
    if not acts:
        values = action_values(pos, marks, role, False, None)
        mover = pos.left(marks, pos.claimant)
        return [Branch(mass, head.removesuffix("; "), values, _state(pos, marks, mover, me))]
    action = ACTIONS.get(role, "no action")
    if role == VAGRANT and VAGRANT not in pos.setup.roles:
        action = "no trade (the village has no vagrant)"
    mover = pos.claimant if role == GOOD_WITCH else pos.left(marks, pos.claimant)
    values = action_values(pos, marks, role, True, None)
    return [Branch(mass, f"{head}{claimant} takes {action}", values, _state(pos, marks, mover, me))]


@dataclass(frozen=True)
class Answers:
    """Both answers' branches, the claim's chance, and the claimant's run figures."""

    challenge: list[Branch]
    accept: list[Branch]
    true: Fraction
    runs: dict[str, Counter[str]]  # per answer: how her run ends (perspective's weights)


def outcomes(views: Views, claim: Claim, log: Log, goes_on: Table, planner: Planner) -> Answers:
    """Challenging against accepting ``claim``, from the perspective's worlds, the
    claimant's run planned over her own."""
    me = log.players.index(log.perspective or "")
    pos = position(log, claim.player, goes_on)
    worlds = views.worlds
    total = worlds.total
    code = ROLE_CODE[claim.role]
    true_rows = worlds.village[:, claim.cell] == code
    p = Fraction(int(worlds.weight[true_rows].sum()), total)
    classes = views.classes[:, views.column(claim.player)]
    own = views.own[views.column(claim.player)]
    runs: dict[str, Counter[str]] = {"challenge": Counter(), "accept": Counter()}

    def run(rows: np.ndarray, marks: tuple[int, ...], face_up: bool) -> Counter[str]:
        ends: Counter[str] = Counter()
        stakes = run_stakes(pos, marks, pos.claimant, pos.claimant)
        for cls in sorted(set(classes[rows].tolist())):
            mine = own[cls]
            if face_up:
                mine = where(mine, claim.cell, claim.role, face_up=True)
            plan = planner.plan(mine, claim.role, stakes)
            ends += play_out(plan, worlds, rows & (classes == cls))
        return ends

    challenge: list[Branch] = []
    if 1 - p:
        marks, acts = answered(pos, claim.role, False, (me,))
        head = "bluff caught: " if pos.penalised(claim.role) else "not true: "
        text = head + outcome_text(pos, marks, pos.marks, me)
        if not pos.penalised(claim.role):
            text += f" ({VILLAGER} claim: cunning-folk/villager-challenge=no-penalty)"
        challenge += _action_branches(pos, marks, claim.role, False, None, text + "; ", 1 - p, me)
    if p:
        marks, acts = answered(pos, claim.role, True, (me,))
        head = f"true: {outcome_text(pos, marks, pos.marks, me)}; "
        ends = None
        if acts and claim.role in ELDERS and not over(marks) and marks[me] < 2:
            ends = runs["challenge"] = run(true_rows, marks, True)
        challenge += _action_branches(pos, marks, claim.role, acts, ends, head, p, me)
    ends = None
    if claim.role in ELDERS:
        ends = runs["accept"] = run(np.ones(len(worlds.weight), dtype=bool), pos.marks, False)
    accept = _action_branches(pos, pos.marks, claim.role, True, ends, "", Fraction(1), me)
    return Answers(challenge, accept, p, runs)


def summary(branches: Sequence[Branch], me: int) -> dict[str, Fraction]:
    """P(win), P(loss), P(goes on) and the expected value of one answer's branches."""
    chance = {
        k: sum((b.probability for b in branches if b.outcome(me) == k), Fraction(0))
        for k in (WIN, LOSS, OPEN)
    }
    value = sum((b.probability * b.values[me] for b in branches), Fraction(0))
    return {**chance, "utility": value}


def better(challenge: Fraction, accept: Fraction) -> str:
    if challenge == accept:
        return "either"
    return "challenge" if challenge > accept else "accept"


def sensitivity(answers: Answers, me: int, goes_on: Table) -> list[dict[str, Any]]:
    """For each continuation value the answers rest on (the advised seat's, in one state),
    the range over which the better answer stays the same, the others held, beside the
    value's 95% interval. Linear in that value, so the range is exact."""
    now = {k: summary(getattr(answers, k), me)["utility"] for k in ("challenge", "accept")}
    gap = now["challenge"] - now["accept"]
    coefficient: dict[tuple, Fraction] = {}
    for answer, sign in (("challenge", 1), ("accept", -1)):
        for b in getattr(answers, answer):
            if b.state is not None:
                coefficient[b.state] = coefficient.get(b.state, Fraction(0)) + sign * b.probability
    out = []
    for (state, k), coef in sorted(coefficient.items()):
        value = goes_on.value(state, k)
        low, high = -1.0, 1.0
        if coef and not gap:  # a tie holds only at the value itself
            low = high = float(value)
        elif coef:
            turn = float(value - gap / coef)  # where the two answers are equal
            if (coef > 0) == (gap > 0):
                low = max(low, turn)
            else:
                high = min(high, turn)
        out.append(goes_on.holds(state, k, low, high))
    return out


def branch_json(b: Branch, me: int, players: Sequence[str]) -> dict[str, Any]:
    return {
        "probability": str(b.probability),
        "outcome": b.outcome(me),
        "value": str(b.values[me]),
        "value_float": float(b.values[me]),
        "values": {p: str(v) for p, v in zip(players, b.values, strict=True)},
        "what": b.text,
        "goes_on_state": None if b.state is None else state_text(b.state[0]),
    }
