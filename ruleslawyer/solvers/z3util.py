"""Small Z3 helpers shared by the games' solvers.

A plain ``solver.model()`` may differ with what the process asked Z3 before
(Z3 keeps global state), so witnesses built from it would make reports
depend on the order of work. :func:`lexmin_model` returns the unique model
that is lexicographically smallest over the listed variables instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def lexmin_model(constraints: Sequence[Any], variables: Sequence[Any]) -> Any | None:
    """The model of ``constraints`` minimising ``variables`` in order, or None when unsat.

    Booleans count False before True; integers must be bounded by the constraints.
    """
    import z3

    opt = z3.Optimize()
    opt.add(*constraints)
    for var in variables:
        opt.minimize(z3.If(var, 1, 0) if z3.is_bool(var) else var)
    if opt.check() != z3.sat:
        return None
    return opt.model()
