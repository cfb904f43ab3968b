"""Small Z3 helpers shared by the games' solvers.

Every satisfiability question goes through :func:`check`. Z3 catches Ctrl-C
itself while it searches and returns ``unknown``; read as "not sat", that
would turn an interrupted search into a changed answer marked finished, so
:func:`check` raises :class:`KeyboardInterrupt` instead (the CLI exits 130),
and any other ``unknown`` raises :class:`SolverUnknown`.

A plain ``solver.model()`` may differ with what the process asked Z3 before
(Z3 keeps global state), so witnesses built from it would make reports
depend on the order of work. :func:`lexmin_model` returns the unique model
that is lexicographically smallest over the listed variables instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ruleslawyer.errors import RulesLawyerError


class SolverUnknown(RulesLawyerError):
    """Z3 could not decide a question (and was not interrupted)."""


def check(solver: Any, *assumptions: Any) -> Any:
    """``solver.check(*assumptions)``: ``z3.sat`` or ``z3.unsat``, never a silent ``unknown``."""
    import z3

    result = solver.check(*assumptions)
    if result == z3.unknown:
        reason = solver.reason_unknown()
        if "interrupt" in reason or "cancel" in reason:
            raise KeyboardInterrupt(reason)
        raise SolverUnknown(f"Z3 could not decide a question ({reason})")
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
