"""Functions of the readings of open rule points, as reduced ordered decision diagrams.

A :class:`Diagrams` holds the variables (each an open rule point with its readings, in a
fixed order) and every diagram built so far. A diagram is an ``int``: a leaf (any
hashable value) or a node that branches on one variable, one child per reading, on
variables later in the order below it. Nodes are shared and reduced (a node whose
children are all the same is that child), so a function that does not depend on a
variable never mentions it, and two equal functions are the same ``int``.

Used by :mod:`ruleslawyer.solvers.kaelyfos.joint` to value the crew's options under
every combination of the open rule points' readings at once.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from itertools import product
from typing import Any

Assignment = dict[int, int]  # variable index -> reading index


class Diagrams:
    """The variables, the leaves and nodes, and the memo of every operation."""

    def __init__(self, variables: Sequence[tuple[str, tuple[str, ...]]]):
        self.names = tuple(name for name, _ in variables)
        self.readings = tuple(readings for _, readings in variables)
        self.index = {name: i for i, name in enumerate(self.names)}
        self._leaf: dict[Hashable, int] = {}
        self._node: dict[tuple[int, tuple[int, ...]], int] = {}
        self.entries: list[tuple[int, Any]] = []  # (variable, children) or (-1, leaf value)
        self._memo: dict[Any, int] = {}

    # -- building -------------------------------------------------------------------------

    def leaf(self, value: Hashable) -> int:
        found = self._leaf.get(value)
        if found is None:
            found = self._leaf[value] = len(self.entries)
            self.entries.append((-1, value))
        return found

    def node(self, var: int, kids: Sequence[int]) -> int:
        kids = tuple(kids)
        if all(k == kids[0] for k in kids):
            return kids[0]
        found = self._node.get((var, kids))
        if found is None:
            found = self._node[var, kids] = len(self.entries)
            self.entries.append((var, kids))
        return found

    def top(self, f: int) -> int:
        """The variable ``f`` branches on first (past every variable for a leaf)."""
        var = self.entries[f][0]
        return len(self.names) if var < 0 else var

    def value(self, f: int) -> Any:
        var, value = self.entries[f]
        assert var < 0, "not a leaf"
        return value

    def cofactor(self, f: int, var: int, reading: int) -> int:
        """``f`` with ``var`` set to ``reading`` (``var`` no later than ``f``'s top)."""
        v, kids = self.entries[f]
        return kids[reading] if v == var else f

    # -- operations -----------------------------------------------------------------------

    def apply(
        self, op: Callable[..., Hashable], fs: Sequence[int], tag: Hashable, chooses: bool = False
    ) -> int:
        """The diagram of ``op(*leaves)``, leaf by leaf (``tag`` names ``op`` in the memo).

        ``chooses``: ``op`` picks one of its arguments and depends only on which values it
        is given (a min or a max), so the functions are taken as a set, and one is itself.
        """
        fs = tuple(sorted(set(fs))) if chooses else tuple(fs)
        if chooses and len(fs) == 1:
            return fs[0]
        key = ("apply", tag, fs)
        found = self._memo.get(key)
        if found is not None:
            return found
        rows = [self.entries[f] for f in fs]  # (variable or -1, children or leaf value)
        var = min((v for v, _ in rows if v >= 0), default=-1)
        if var < 0:
            out = self.leaf(op(*(value for _, value in rows)))
        else:  # each function's cofactor on ``var`` (one not branching on it is its own)
            out = self.node(
                var,
                [
                    self.apply(
                        op,
                        [k[r] if v == var else f for f, (v, k) in zip(fs, rows, strict=True)],
                        tag,
                        chooses,
                    )
                    for r in range(len(self.readings[var]))
                ],
            )
        self._memo[key] = out
        return out

    def select(self, var: int, kids: Sequence[int]) -> int:
        """The function equal to ``kids[r]`` where ``var`` has reading ``r``."""
        kids = tuple(kids)
        key = ("select", var, kids)
        found = self._memo.get(key)
        if found is not None:
            return found
        top = min([var, *(self.top(k) for k in kids)])
        if top == var:
            out = self.node(var, [self.cofactor(k, var, r) for r, k in enumerate(kids)])
        else:
            out = self.node(
                top,
                [
                    self.select(var, [self.cofactor(k, top, r) for k in kids])
                    for r in range(len(self.readings[top]))
                ],
            )
        self._memo[key] = out
        return out

    def cases(self, items: Sequence[tuple[Assignment, int]]) -> int:
        """One function from pieces: ``f`` on the assignments matching each ``(fixed, f)``.

        The ``fixed`` parts must split the assignments into disjoint pieces covering them
        all (the leaves of a decision tree).
        """
        if len(items) == 1 and not items[0][0]:
            return items[0][1]
        var = min(min((*fixed, *[self.top(f)])) for fixed, f in items)
        kids = []
        for r in range(len(self.readings[var])):
            kids.append(
                self.cases(
                    [
                        ({k: v for k, v in fixed.items() if k != var}, self.cofactor(f, var, r))
                        for fixed, f in items
                        if fixed.get(var, r) == r
                    ]
                )
            )
        return self.node(var, kids)

    def restrict(self, f: int, fixed: Assignment) -> int:
        """``f`` with the variables of ``fixed`` set."""
        var, kids = self.entries[f]
        if var < 0 or not fixed or var > max(fixed):
            return f
        if var in fixed:
            return self.restrict(kids[fixed[var]], fixed)
        return self.node(var, [self.restrict(k, fixed) for k in kids])

    # -- reading ----------------------------------------------------------------------------

    def paths(self, f: int) -> Iterator[tuple[Assignment, Any]]:
        """Every path to a leaf: the variables it sets, and the leaf's value."""

        def walk(g: int, fixed: Assignment) -> Iterator[tuple[Assignment, Any]]:
            var, kids = self.entries[g]
            if var < 0:
                yield fixed, kids
                return
            for r, k in enumerate(kids):
                yield from walk(k, {**fixed, var: r})

        return walk(f, {})

    def at(self, f: int, fixed: Assignment) -> Any:
        """The value of ``f`` where the variables have the readings ``fixed`` (others: 0)."""
        var, kids = self.entries[f]
        while var >= 0:
            f = kids[fixed.get(var, 0)]
            var, kids = self.entries[f]
        return kids

    def support(self, fs: Sequence[int]) -> set[int]:
        """The variables some function of ``fs`` depends on."""
        seen: set[int] = set()
        out: set[int] = set()
        todo = list(fs)
        while todo:
            g = todo.pop()
            if g in seen:
                continue
            seen.add(g)
            var, kids = self.entries[g]
            if var >= 0:
                out.add(var)
                todo.extend(kids)
        return out

    def count(self, fixed: Assignment, over: set[int]) -> int:
        """How many assignments of the variables ``over`` match ``fixed``."""
        total = 1
        for var in over - set(fixed):
            total *= len(self.readings[var])
        return total

    def all_assignments(self, over: Sequence[int]) -> Iterator[Assignment]:
        for combo in product(*(range(len(self.readings[v])) for v in over)):
            yield dict(zip(over, combo, strict=True))
