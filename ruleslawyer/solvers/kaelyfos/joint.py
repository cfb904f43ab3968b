"""The crew's options under every combination of the open rule points' readings at once.

:mod:`ruleslawyer.solvers.kaelyfos.advise` values the options under one set of readings.
Here the same expectimax is computed as a function of the readings of every open rule
point (and of ``advise/open-ties``), as a decision diagram
(:mod:`ruleslawyer.solvers.kaelyfos.diagram`): each call that reads a rule point (a card
resolved, the free actions open) is run under each reading of the points it consulted,
as far as they go (a point it never consulted cannot change it), and the values are
combined reading by reading. The result is exact for every combination: which ones
re-rank the options, and each option's worst case over them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ruleslawyer.budget import Budget, Progress, watching
from ruleslawyer.models.kaelyfos.points import EXHAUSTED_DECK, POINTS_BY_ID
from ruleslawyer.models.kaelyfos.resolve import PHASES, Action, Card, Position, Working
from ruleslawyer.models.kaelyfos.state import Readings, Result
from ruleslawyer.solvers.kaelyfos.diagram import Assignment, Diagrams
from ruleslawyer.solvers.kaelyfos.options import (
    OPEN_TIES,
    TIE_READINGS,
    ZERO,
    Deck,
    OutOfTime,
    Value,
    add_card,
    deck_of,
    label,
    mean,
    next_position,
    reachable,
    remaining,
    settled,
    take,
    take_card,
)

# How a card resolves under every combination of readings: see Joint.resolution.
Tree = tuple[Any, ...]


def _weighted(weights: tuple[Fraction, ...]) -> Callable[..., Value]:
    def average(*values: Value) -> Value:
        return mean(list(zip(weights, values, strict=True)))

    return average


def _state(working: Working) -> tuple[Any, ...]:
    """What a phase reads of a working copy (not the decisions already met)."""
    table = working.table
    return (
        tuple(sorted((n, c) for n, c in table.free.items() if c)),
        tuple(sorted(tuple(t) for t in table.traps)),
        table.supply,
        table.removed,
        table.tokens,
        table.doppelganger_tokens,
        tuple(sorted(working.distress.items())) if working.distress is not None else None,
        working.nightmares,
    )


def _without(fixed: Assignment, var: int) -> Assignment:
    return {v: r for v, r in fixed.items() if v != var}


def _lowest(*values: Value) -> Value:
    return min(values, key=Value.key)


def _highest(*values: Value) -> Value:
    return max(values, key=Value.key)


@dataclass(frozen=True)
class Region:
    """Combinations of readings (the variables ``fixed``, every reading of the others) and
    the options' ranking there."""

    fixed: Assignment
    options: tuple[tuple[tuple[Action, ...], str, Value], ...]  # best first

    def order(self) -> tuple[str, ...]:
        return tuple(label for _, label, _ in self.options)


class Joint:
    """The expectimax of :class:`~ruleslawyer.solvers.kaelyfos.advise.Evaluator`, as a
    function of the readings of the open rule points ``points`` and ``advise/open-ties``.

    ``chosen`` gives every other point's reading (the rulings in force).
    """

    def __init__(
        self,
        chosen: Mapping[str, str],
        points: Sequence[str],
        cards: Mapping[str, Card],
        budget: Budget,
    ):
        self.chosen, self.cards, self.budget = dict(chosen), cards, budget
        variables = [(OPEN_TIES, tuple(TIE_READINGS))]
        variables += [(p, POINTS_BY_ID[p].reading_names) for p in sorted(points)]
        self.d = Diagrams(variables)
        self.ties = self.d.index[OPEN_TIES]
        # each variable's reading in force (readings() leaves the others so); the ties'
        # reading in force does not matter to a run (no run reads it)
        self.base = [0] + [
            self.d.readings[v].index(self.chosen[self.d.names[v]])
            for v in range(1, len(points) + 1)
        ]
        self.memo: dict[Any, int] = {}
        self.trees: dict[Tree, int] = {}
        self.nodes: list[Tree] = []
        # per phase input: the variables it read, their readings, and the tree and reads
        self.phases: dict[Any, dict[tuple[int, ...], dict[tuple[Any, ...], Any]]] = {}
        self.calls = 0
        self.progress = Progress("kaelyfos advise: every combination of readings, runs")
        self.zero = self.d.leaf(ZERO)

    # -- readings -------------------------------------------------------------------------

    def readings(self, fixed: Assignment) -> dict[str, str]:
        """The readings in force where the variables have the readings ``fixed``."""
        out = dict(self.chosen)
        for var, r in fixed.items():
            if var != self.ties:
                out[self.d.names[var]] = self.d.readings[var][r]
        return out

    def split(
        self,
        call: Callable[[dict[str, str]], tuple[Any, frozenset[str]]],
        within: Assignment | None = None,
        same: Callable[[Any], Hashable] = lambda result: result,
    ) -> tuple[list[tuple[Assignment, Any]], set[int]]:
        """``call``'s result under every reading of the open points it consults: a list of
        (the readings it was run under, its result), one per piece of a decision tree; and
        the variables of ``within`` it consulted.

        ``call`` returns its result and the points it consulted; each consulted open
        point not yet fixed is branched on, so the pieces cover every combination (of
        those with the readings ``within``, when given: those are fixed from the start).
        A branch whose pieces all give the same result (by ``same``) is one piece.
        """
        uses: set[int] = set()
        start = dict(within or {})

        def go(fixed: Assignment) -> list[tuple[Assignment, Any, Hashable]]:
            self.calls += 1
            self.progress.update(self.calls)
            if self.budget.spent():  # a call runs one phase of a card at most
                raise OutOfTime
            result, consulted = call(self.readings(fixed))
            read = {self.d.index[p] for p in consulted if p in self.d.index}
            uses.update(read & start.keys())
            free = sorted(v for v in read if v not in fixed)
            if not free:
                return [(fixed, result, same(result))]
            var = free[0]
            kids = [go({**fixed, var: r}) for r in range(len(self.d.readings[var]))]
            shapes = [[(_without(f, var), k) for f, _, k in kid] for kid in kids]
            if all(shape == shapes[0] for shape in shapes):
                return [(_without(f, var), res, k) for f, res, k in kids[0]]
            return [leaf for kid in kids for leaf in kid]

        return [(fixed, result) for fixed, result, _ in go(start)], uses

    # -- combining ------------------------------------------------------------------------

    def mean(self, weighted: Sequence[tuple[Fraction, int]]) -> int:
        if not weighted:
            return self.zero
        weights = tuple(w for w, _ in weighted)
        return self.d.apply(_weighted(weights), [f for _, f in weighted], ("mean", weights))

    def lowest(self, fs: Sequence[int]) -> int:
        return self.d.apply(_lowest, fs, "min", chooses=True)

    def open_choice(self, fs: Sequence[int]) -> int:
        """An open choice's value under each reading of ``advise/open-ties``."""
        k = Fraction(1, len(fs))
        uniform = self.mean([(k, f) for f in fs])
        worst = self.d.apply(_highest, fs, "max", chooses=True)
        return self.d.select(self.ties, [uniform, worst, self.lowest(fs)])

    def plus(self, f: int, distress: int, nightmares: int) -> int:
        if not distress and not nightmares:
            return f

        def shift(v: Value) -> Value:
            return Value(v.expected + distress, v.nightmares + nightmares, v.worst + distress)

        return self.d.apply(shift, [f], ("plus", distress, nightmares))

    # -- the expectimax -------------------------------------------------------------------

    def value(
        self, position: Position, material: int, deck: Deck, revealed: Deck, triggers: int
    ) -> int:
        """Before a trigger: the crew's best free actions, then the card."""
        key = ("value", position, material, deck, revealed, triggers)
        if key not in self.memo:
            self.memo[key] = self._drawable(
                deck, revealed, lambda d, r: self._value(position, material, d, r, triggers)
            )
        return self.memo[key]

    def _value(
        self, position: Position, material: int, deck: Deck, revealed: Deck, triggers: int
    ) -> int:
        if triggers == 0 or not deck:
            return self.zero

        def options(chosen: dict[str, str]) -> tuple[Any, frozenset[str]]:
            readings = Readings(chosen)
            found = tuple((a, m) for _, a, m in reachable(position, material, readings))
            return found, frozenset(readings.consulted)

        return self.d.cases(
            [
                (fixed, self.lowest([self.draw(a, m, deck, revealed, triggers) for a, m in found]))
                for fixed, found in self.split(options)[0]
            ]
        )

    def draw(
        self, position: Position, material: int, deck: Deck, revealed: Deck, triggers: int
    ) -> int:
        """The free actions taken: the expectation over the next card and what follows."""
        key = ("draw", position, material, deck, revealed, triggers)
        if key not in self.memo:
            self.memo[key] = self._drawable(
                deck, revealed, lambda d, r: self._draw(position, material, d, r, triggers)
            )
        return self.memo[key]

    def _draw(
        self, position: Position, material: int, deck: Deck, revealed: Deck, triggers: int
    ) -> int:
        if triggers == 0 or not deck:
            return self.zero
        total = sum(c for _, c in deck)
        return self.mean(
            [
                (Fraction(n, total), self.card(position, material, deck, revealed, name, triggers))
                for name, n in deck
            ]
        )

    def _drawable(self, deck: Deck, revealed: Deck, then: Callable[[Deck, Deck], int]) -> int:
        """``then`` on the deck to draw from: reshuffled when it is out (exhausted-deck)."""
        if deck or not revealed:
            return then(deck, revealed)
        if EXHAUSTED_DECK in self.d.index:
            var = self.d.index[EXHAUSTED_DECK]
            kids = [
                then(revealed, ()) if reading == "reshuffle" else then(deck, revealed)
                for reading in self.d.readings[var]
            ]
            return self.d.select(var, kids)
        if self.chosen[EXHAUSTED_DECK] == "reshuffle":
            return then(revealed, ())
        return then(deck, revealed)

    def card(
        self,
        position: Position,
        material: int,
        deck: Deck,
        revealed: Deck,
        name: str,
        triggers: int,
    ) -> int:
        left, shown = take_card(deck, name), add_card(revealed, name)
        start = replace(position, card=self.cards[name])
        after = (position, material, left, shown, triggers - 1)
        return self._fold(self.resolution(start, triggers == 1), after)

    def resolution(self, start: Position, last: bool) -> int:
        """How ``start``'s card resolves under every combination of readings and every
        option of every choice met: a tree (see :meth:`tree`) of readings (``var``),
        choices (``crew``, ``open``) and results (``leaf``; ``end`` for the last card,
        where only the distress and the nightmares count).

        Phase by phase (:data:`PHASES`): each phase runs under every reading of the
        points it consults, on each way the phases before it can end, so points read by
        different phases add up instead of multiplying; a branch whose every reading
        ends the same is one; a phase met again with the same table, picks and readings
        of the points it and the later phases read is not run again.
        """
        key = ("resolution", start, last)
        if key not in self.memo:
            self.memo[key] = self._phase(0, Working.of(start), {}, {}, start, last)[0]
        return self.memo[key]

    def tree(self, node: Tree) -> int:
        """The id of a tree node (children given by id): equal trees get equal ids."""
        found = self.trees.get(node)
        if found is None:
            found = self.trees[node] = len(self.nodes)
            self.nodes.append(node)
        return found

    def _phase(
        self,
        i: int,
        working: Working,
        picks: dict[str, int],
        fixed: Assignment,
        start: Position,
        last: bool,
        ran: tuple[Working, set[int]] | None = None,
        state: tuple[Any, ...] | None = None,
    ) -> tuple[int, set[int]]:
        """Phases ``i`` on of ``start``'s card from ``working``, under the readings ``fixed``
        and every reading of the points not fixed: the tree, and the variables of
        ``fixed`` it read (it is memoised on those). ``ran``: phase ``i`` already run
        under these readings (the others in force), and the variables it read; ``state``:
        ``_state(working)``, when known."""
        if i == len(PHASES):
            result = working.result()
            if last:
                return self.tree(
                    ("end", sum(n for _, n in result.distress), len(result.nightmares))
                ), set()
            return self.tree(("leaf", result)), set()
        state = state or _state(working)
        key = (i, state, tuple(sorted(picks.items())), start, last)
        known = self.phases.get(key, {})
        for pinned, found in known.items():
            hit = found.get(tuple(fixed.get(v) for v in pinned))
            if hit is not None:
                return hit
        if ran is None:
            self.calls += 1
            self.progress.update(self.calls)
            if self.budget.spent():  # a call runs one phase of a card at most
                raise OutOfTime
            done = working.copy()
            done.decisions = []
            readings = Readings(self.readings(fixed))
            PHASES[i](done, start, readings, picks)
            ran = done, {self.d.index[p] for p in readings.consulted if p in self.d.index}
        done, read = ran
        used = read & fixed.keys()
        free = sorted(read - fixed.keys())
        decision = next((d for d in done.decisions if d.key not in picks), None)
        if free:
            # the run above had the reading in force for ``var``: that branch reuses it
            var = free[0]
            parts = [
                self._phase(
                    i,
                    working,
                    picks,
                    {**fixed, var: r},
                    start,
                    last,
                    ran if r == self.base[var] else None,
                    state,
                )
                for r in range(len(self.d.readings[var]))
            ]
            kids = tuple(k for k, _ in parts)
            found = kids[0] if len(set(kids)) == 1 else self.tree(("var", var, kids))
        elif decision is not None:
            # the run above picked the first option (an unpicked decision takes it): reused
            parts = [
                self._phase(
                    i,
                    working,
                    {**picks, decision.key: j},
                    fixed,
                    start,
                    last,
                    ran if j == 0 else None,
                    state,
                )
                for j in range(len(decision.labels))
            ]
            kids = tuple(k for k, _ in parts)
            kind = "crew" if decision.crew else "open"
            found = kids[0] if len(set(kids)) == 1 else self.tree((kind, kids))
        else:
            # a phase meets only decisions of its own (their keys name the phase: destroy,
            # catch:spawn, the moves' ties, catches and order, distress, nightmare), so the
            # picks made so far are no input to the next: left out, its memo is shared
            parts = [self._phase(i + 1, done, {}, fixed, start, last)]
            found = parts[0][0]
        for _, more in parts:
            used |= more & fixed.keys()
        pinned = tuple(sorted(used))
        self.phases.setdefault(key, {}).setdefault(pinned, {})[tuple(fixed[v] for v in pinned)] = (
            found,
            used,
        )
        return found, used

    def _fold(self, node: int, after: tuple[Any, ...]) -> int:
        """The value of a resolution tree (what follows each result valued by ``after``)."""
        key = ("fold", node, after)
        if key in self.memo:
            return self.memo[key]
        tree = self.nodes[node]
        kind = tree[0]
        if kind == "end":
            out = self.d.leaf(Value(Fraction(tree[1]), Fraction(tree[2]), tree[1]))
        elif kind == "leaf":
            out = self._after(tree[1], after)
        elif kind == "var":
            out = self.d.select(tree[1], [self._fold(k, after) for k in tree[2]])
        else:
            kids = [self._fold(k, after) for k in tree[1]]
            out = self.lowest(kids) if kind == "crew" else self.open_choice(kids)
        self.memo[key] = out
        return out

    def _after(self, result: Result, after: tuple[Any, ...]) -> int:
        position, material, left, shown, triggers = after
        later = self.value(next_position(position, result), material, left, shown, triggers)
        return self.plus(later, sum(n for _, n in result.distress), len(result.nightmares))

    # -- the options ------------------------------------------------------------------------

    def plan(
        self,
        start: Position,
        actions: tuple[Action, ...],
        material: int,
        deck: Deck,
        revealed: Deck,
        triggers: int,
    ) -> int:
        """The value of taking ``actions`` now, under every combination of readings (an
        action the readings make impossible, a build with no token, does nothing)."""

        def taken(chosen: dict[str, str]) -> tuple[Any, frozenset[str]]:
            readings = Readings(chosen)
            here, left = settled(start), material
            for action in actions:
                if action.kind == "build" and left < 1:
                    continue
                there = take(here, action, readings)
                left -= action.kind == "build" and there != here
                here = there
            return (here, left), frozenset(readings.consulted)

        return self.d.cases(
            [
                (fixed, self.draw(here, left, deck, revealed, triggers))
                for fixed, (here, left) in self.split(taken)[0]
            ]
        )

    def regions(
        self, start: Position, material: int, deck: Deck, revealed: Deck, triggers: int
    ) -> list[Region]:
        """The ranking of every option open now, under every combination of readings: one
        region per piece where it is the same (as :func:`~ruleslawyer.solvers.kaelyfos.
        advise.rank` ranks: by value, then fewer actions)."""

        def options(chosen: dict[str, str]) -> tuple[Any, frozenset[str]]:
            readings = Readings(chosen)
            found = tuple(reachable(start, material, readings))
            return found, frozenset(readings.consulted)

        out = []
        for fixed, found in self.split(options)[0]:
            values = [self.draw(after, left, deck, revealed, triggers) for _, after, left in found]
            together = self.d.restrict(self.d.apply(lambda *v: v, values, "tuple"), fixed)
            for path, leaf in self.d.paths(together):
                ranked = sorted(
                    zip(found, leaf, strict=True), key=lambda o: (*o[1].key(), len(o[0][0]))
                )
                out.append(
                    Region(
                        {**fixed, **path},
                        tuple((a, label(a, start), v) for (a, _, _), v in ranked),
                    )
                )
        return out


Readings_ = tuple[tuple[str, str], ...]  # point and reading, sorted: those not in force


@dataclass(frozen=True)
class Order:
    """An order of the options other than the one under the readings in force."""

    readings: Readings_  # the fewest readings other than those in force that give it
    combinations: int  # how many combinations of the varied readings give it
    options: tuple[tuple[tuple[Action, ...], str, Value], ...]  # best first


@dataclass(frozen=True)
class Varied:
    """The options under every combination of the open rule points' readings."""

    finished: bool
    points: tuple[str, ...] = ()  # the varied points some figure or option depends on
    combinations: int = 1  # combinations of their readings
    orders: tuple[Order, ...] = ()  # every other order, most combinations first
    worst: tuple[tuple[Value, Readings_], ...] = ()  # per plan: its worst value and where
    alone: tuple[tuple[str, str, Order], ...] = ()  # one reading changed at a time
    # every piece of the combinations: the readings it fixes, and the options there
    regions: tuple[tuple[Readings_, tuple[tuple[tuple[Action, ...], str, Value], ...]], ...] = ()

    def at(self, readings: Mapping[str, str]) -> tuple[tuple[tuple[Action, ...], str, Value], ...]:
        """The options, best first, where the varied points have ``readings`` (all of them)."""
        return next(
            options for fixed, options in self.regions if all(readings[p] == r for p, r in fixed)
        )


def vary(
    start: Position,
    material: int,
    spent: tuple[str, ...],
    triggers: int,
    chosen: Mapping[str, str],
    ties: str,
    points: Sequence[str],
    plans: Sequence[tuple[Action, ...]],
    budget: Budget,
) -> Varied:
    """Rank the options under every combination of the readings of ``points`` and
    ``advise/open-ties`` (``chosen`` and ``ties`` in force), and value each of ``plans``
    (sequences of free actions now) in its worst case over them."""
    board = start.board
    cards = {b.name: Card(b.spawn, b.move) for b in board.behaviors}
    deck, revealed = remaining(board, spent), deck_of(spent)
    joint = Joint(chosen, points, cards, budget)
    d = joint.d
    base = {
        v: d.readings[v].index(ties if v == joint.ties else chosen[d.names[v]])
        for v in range(len(d.names))
    }
    try:
        with watching(budget):
            regions = joint.regions(start, material, deck, revealed, triggers)
            plan_fs = [joint.plan(start, p, material, deck, revealed, triggers) for p in plans]
    except OutOfTime:
        return Varied(False)
    finally:
        joint.progress.close()
    support = d.support(plan_fs) | {v for r in regions for v in r.fixed}

    def changed(fixed: Assignment) -> Readings_:
        return tuple(
            sorted((d.names[v], d.readings[v][r]) for v, r in fixed.items() if r != base[v])
        )

    def fewest(fixeds: list[Assignment]) -> Readings_:
        return min((changed(f) for f in fixeds), key=lambda c: (len(c), c))

    def region_at(assignment: Assignment) -> Region:
        return next(r for r in regions if all(assignment[v] == x for v, x in r.fixed.items()))

    home = region_at(base).order()
    by_order: dict[tuple[str, ...], list[Region]] = {}
    for region in regions:
        if region.order() != home:
            by_order.setdefault(region.order(), []).append(region)
    orders = [
        Order(
            fewest([r.fixed for r in group]),
            sum(d.count(r.fixed, support) for r in group),
            min(group, key=lambda r: (len(changed(r.fixed)), changed(r.fixed))).options,
        )
        for group in by_order.values()
    ]
    orders.sort(key=lambda o: (-o.combinations, len(o.readings), o.readings))
    worst = []
    for f in plan_fs:
        paths = list(d.paths(f))
        top = max((v for _, v in paths), key=Value.key)
        worst.append((top, fewest([fixed for fixed, v in paths if v == top])))
    alone = []
    for v in sorted(support, key=lambda v: d.names[v]):
        for r, reading in enumerate(d.readings[v]):
            region = region_at({**base, v: r})
            if r != base[v] and region.order() != home:
                alone.append(
                    (d.names[v], reading, Order(((d.names[v], reading),), 0, region.options))
                )
    named = tuple(
        (
            tuple(sorted((d.names[v], d.readings[v][r]) for v, r in region.fixed.items())),
            region.options,
        )
        for region in regions
    )
    return Varied(
        True,
        tuple(sorted(d.names[v] for v in support)),
        d.count({}, support),
        tuple(orders),
        tuple(worst),
        tuple(alone),
        named,
    )
