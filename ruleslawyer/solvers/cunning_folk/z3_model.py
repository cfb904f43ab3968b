"""Z3 deduction for Cunning Folk logs: consistency, possible and certain roles, and why.

Each cell of the initial deal is one integer variable (a role code); the
setup's card counts constrain them. Events act on the current cell terms:
a public trade or a known swap permutes them, a hidden swap introduces a
Boolean (swapped or not) and fresh terms for the two cells. Every event's
constraints are guarded by a Boolean named for the event (``e4``), so checks
run under assumptions and an unsat core is a set of events: the reason a cell
is certain. The solver's assertions never change after construction.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Any

from ruleslawyer.models.cunning_folk.log import Exchange, Is, IsNot, Log
from ruleslawyer.models.cunning_folk.village import CELLS, ROLES
from ruleslawyer.solvers.z3util import SolverUnknown, check

ROLE_CODE = {r: i for i, r in enumerate(ROLES)}


@dataclass
class Deduction:
    """A Z3 encoding of one log; build with :func:`encode`."""

    solver: Any
    labels: tuple[Any, ...]
    constraining: tuple[bool, ...]  # whether each event constrains the cards at all
    final: tuple[Any, ...]
    roles: tuple[str, ...]
    _is: dict[tuple[int, str], Any]

    def consistent(self, upto: int | None = None) -> bool:
        """Whether some world satisfies events ``0..upto`` (all events by default)."""
        import z3

        labels = self.labels if upto is None else self.labels[: upto + 1]
        return check(self.solver, *labels) == z3.sat

    def first_impossible(self) -> int | None:
        """Index of the first event after which no world remains, or None."""
        if self.consistent():
            return None
        low, high = 0, len(self.labels) - 1  # prefix 0..high is unsat
        while low < high:
            middle = (low + high) // 2
            if self.consistent(middle):
                low = middle + 1
            else:
                high = middle
        return high

    def possible(self) -> dict[str, tuple[str, ...]]:
        """Per cell, the roles it can hold now, in role order."""
        import z3

        seen: set[tuple[int, str]] = set()
        for c in range(len(CELLS)):
            for role in self.roles:
                if (c, role) in seen:
                    continue
                if check(self.solver, *self.labels, self._holds(c, role)) == z3.sat:
                    model = self.solver.model()
                    for k, term in enumerate(self.final):
                        seen.add((k, ROLES[model.eval(term, model_completion=True).as_long()]))
        return {
            cell: tuple(r for r in self.roles if (c, r) in seen) for c, cell in enumerate(CELLS)
        }

    def why(
        self, cell: int, role: str, *, max_checks: int = 64, seconds: float | None = None
    ) -> tuple[int, ...] | None:
        """The events (indices) that force ``role`` in ``cell``: an unsat core.

        Z3's core is shrunk by deletion to a minimal one (dropping any event frees the
        cell); then smaller sets of the constraining events are tried, up to
        ``max_checks`` solver calls, so the core is the smallest whenever that search
        is small (in practice: always for cores of one or two events). With ``seconds``
        every call and the whole search are bounded by it: None when time ran out first.
        """
        import z3

        deadline = None if seconds is None else time.monotonic() + seconds
        if seconds is not None:
            self.solver.set("timeout", max(1, int(seconds * 1000)))
        other = z3.Not(self._holds(cell, role))
        try:
            answer = check(self.solver, *self.labels, other)
        except SolverUnknown:
            return None
        if answer != z3.unsat:
            raise ValueError(f"{CELLS[cell]} is not certainly {role}")
        in_core = {label.get_id() for label in self.solver.unsat_core()}
        core = [k for k, label in enumerate(self.labels) if label.get_id() in in_core]
        for k in list(reversed(core)):
            trial = [j for j in core if j != k]
            forces = self._forces(trial, other, deadline)
            if forces is None:
                return None
            if forces:
                core = trial
        checks = 0
        candidates = [k for k, c in enumerate(self.constraining) if c]
        for size in range(1, len(core)):
            for subset in itertools.combinations(candidates, size):
                checks += 1
                if checks > max_checks:
                    return tuple(core)
                forces = self._forces(list(subset), other, deadline)
                if forces is None:
                    return None
                if forces:
                    return subset
        return tuple(core)

    def _forces(self, events: list[int], other: Any, deadline: float | None = None) -> bool | None:
        """Whether ``events`` alone force the cell; None when the time ran out."""
        import z3

        if deadline is not None and time.monotonic() > deadline:
            return None
        try:
            return check(self.solver, *(self.labels[k] for k in events), other) == z3.unsat
        except SolverUnknown:
            return None

    def _holds(self, cell: int, role: str) -> Any:
        return self._is[(cell, role)]


def encode(log: Log) -> Deduction:
    """The Z3 encoding of ``log``; the composition constraints are unguarded."""
    import z3

    solver = z3.Solver()
    roles = log.setup.roles
    codes = [ROLE_CODE[r] for r in roles]
    current = [z3.Int(f"{cell}@start") for cell in CELLS]
    for term in current:
        solver.add(z3.Or([term == code for code in codes]))
    solver.add(
        z3.Or(
            [
                z3.And(
                    [
                        z3.Sum([z3.If(t == ROLE_CODE[r], 1, 0) for t in current]) == cards.count(r)
                        for r in roles
                    ]
                )
                for cards in log.setup.compositions
            ]
        )
    )
    labels = []
    for event in log.events:
        label = z3.Bool(f"e{event.index}")
        labels.append(label)
        for op in event.ops:
            if isinstance(op, Is):
                solver.add(z3.Implies(label, current[op.cell] == ROLE_CODE[op.role]))
            elif isinstance(op, IsNot):
                solver.add(z3.Implies(label, current[op.cell] != ROLE_CODE[op.role]))
            elif isinstance(op, Exchange) and op.known:
                current[op.a], current[op.b] = current[op.b], current[op.a]
            elif isinstance(op, Exchange):
                swapped = z3.Bool(f"swapped{event.index}")
                a, b = (z3.Int(f"{CELLS[k]}@{event.index}") for k in (op.a, op.b))
                solver.add(a == z3.If(swapped, current[op.b], current[op.a]))
                solver.add(b == z3.If(swapped, current[op.a], current[op.b]))
                current[op.a], current[op.b] = a, b
    holds = {}
    for c, cell in enumerate(CELLS):
        for role in roles:
            flag = z3.Bool(f"{cell}={role}")
            solver.add(flag == (current[c] == ROLE_CODE[role]))
            holds[(c, role)] = flag
    constraining = tuple(event.constrains for event in log.events)
    return Deduction(solver, tuple(labels), constraining, tuple(current), roles, holds)
