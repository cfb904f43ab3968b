"""Exact linear algebra over Fractions: a system solved with its free variables given.

The equilibrium solvers find supports in floating point, then fix each side's
indifference equations and solve them here exactly, so the answer can be checked
with exact best responses.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction

Equation = tuple[Mapping[Hashable, Fraction], Fraction]  # sum(coef * var) == rhs


def solve(
    variables: Sequence[Hashable],
    equations: Sequence[Equation],
    guess: Mapping[Hashable, Fraction],
) -> dict[Hashable, Fraction] | None:
    """A solution of ``equations`` over ``variables`` (Gauss-Jordan elimination), each free
    variable set to its ``guess``; None when the equations are inconsistent."""
    index = {v: k for k, v in enumerate(variables)}
    n = len(variables)
    rows = []
    for coefs, rhs in equations:
        row = [Fraction(0)] * (n + 1)
        for v, c in coefs.items():
            row[index[v]] += Fraction(c)
        row[n] = Fraction(rhs)
        rows.append(row)
    pivots: list[int] = []
    r = 0
    for col in range(n):
        found = next((k for k in range(r, len(rows)) if rows[k][col] != 0), None)
        if found is None:
            continue
        rows[r], rows[found] = rows[found], rows[r]
        p = rows[r][col]
        rows[r] = [x / p for x in rows[r]]
        for k in range(len(rows)):
            if k != r and rows[k][col] != 0:
                f = rows[k][col]
                rows[k] = [a - f * b for a, b in zip(rows[k], rows[r], strict=True)]
        pivots.append(col)
        r += 1
        if r == len(rows):
            break
    if any(all(x == 0 for x in row[:n]) and row[n] != 0 for row in rows[r:]):
        return None
    free = [c for c in range(n) if c not in pivots]
    value = {c: Fraction(guess.get(variables[c], Fraction(0))) for c in free}
    for k, col in enumerate(pivots):
        row = rows[k]
        value[col] = row[n] - sum((row[c] * value[c] for c in free), Fraction(0))
    return {variables[c]: value[c] for c in range(n)}


def rational(x: float, bound: int = 10**6) -> Fraction:
    """The simplest fraction near ``x`` (denominator at most ``bound``), 0 for tiny values."""
    if abs(x) < 1e-9:
        return Fraction(0)
    return Fraction(x).limit_denominator(bound)
