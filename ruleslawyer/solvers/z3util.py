"""Small Z3 helpers shared by the games' solvers.

Every satisfiability question goes through :func:`check`. Left to itself, Z3
catches Ctrl-C while it searches and returns ``unknown`` (or, when its answer
was nearly ready, drops the interrupt); read as "not sat", that turned an
interrupted search into a changed answer marked finished. So Z3's own Ctrl-C
handling is switched off, each question runs on a helper thread while the
calling thread waits (where Python sees Ctrl-C at once), and an interrupt
cancels the question and propagates as :class:`KeyboardInterrupt` (the CLI
exits 130). An ``unknown`` for any other reason raises :class:`SolverUnknown`.

A plain ``solver.model()`` may differ with what the process asked Z3 before
(Z3 keeps global state), so witnesses built from it would make reports
depend on the order of work. :func:`lexmin_model` returns the unique model
that is lexicographically smallest over the listed variables instead.

Inside ``with deadline(budget):`` a question still open when the budget's time
runs out is cancelled the same way and raises :class:`BudgetExceeded`, so one
hard question cannot overrun ``--max-seconds``.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as QuestionTimeout
from contextvars import ContextVar
from typing import Any

from ruleslawyer.budget import Budget
from ruleslawyer.errors import BudgetExceeded, RulesLawyerError

_deadline: ContextVar[float | None] = ContextVar("z3_deadline", default=None)


@contextlib.contextmanager
def deadline(budget: Budget) -> Iterator[None]:
    """Within the block, every question ends when ``budget``'s seconds do."""
    left = budget.remaining_seconds()
    token = _deadline.set(None if left is None else time.monotonic() + left)
    try:
        yield
    finally:
        _deadline.reset(token)


class SolverUnknown(RulesLawyerError):
    """Z3 could not decide a question (and was not interrupted)."""


@functools.cache
def _asker() -> ThreadPoolExecutor:
    """The thread Z3's questions run on; Z3's own SIGINT handler switched off first."""
    import z3

    z3.set_param("ctrl_c", False)
    return ThreadPoolExecutor(1, thread_name_prefix="z3")


def check(solver: Any, *assumptions: Any) -> Any:
    """``solver.check(*assumptions)``: ``z3.sat`` or ``z3.unsat``, never a silent ``unknown``."""
    import z3

    question = _asker().submit(solver.check, *assumptions)
    ends = _deadline.get()
    try:
        result = question.result(None if ends is None else max(0.0, ends - time.monotonic()))
    except QuestionTimeout:  # the deadline passed: stop Z3, say the budget ended the search
        solver.ctx.interrupt()
        question.exception()
        raise BudgetExceeded("a Z3 question ran past the --max-seconds budget") from None
    except BaseException:  # Ctrl-C (or an alarm) while Z3 works: stop it, then pass it on
        solver.ctx.interrupt()
        question.exception()  # wait until Z3 has stopped
        raise
    if result == z3.unknown:
        raise SolverUnknown(f"Z3 could not decide a question ({solver.reason_unknown()})")
    return result


def lexmin_model(constraints: Sequence[Any], variables: Sequence[Any]) -> Any | None:
    """The model of ``constraints`` minimising ``variables`` in order, or None when unsat.

    Booleans count False before True; integers must be bounded by the constraints.
    """
    import z3

    opt = z3.Optimize()
    opt.add(*constraints)
    for var in variables:
        opt.minimize(z3.If(var, 1, 0) if z3.is_bool(var) else var)
    if check(opt) != z3.sat:
        return None
    return opt.model()
