"""How bloodsuckers move: toward the nearest explorer, or a nearer trap, one step at a time.

Each step re-reads the board from the bloodsucker's node. Closed nodes (the
Scarab, face-down cards) depend on readings; :func:`geometry` knows, per node,
whether a reading can matter there, so a resolution consults a point only
where it could change the step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ruleslawyer.budget import poll
from ruleslawyer.graphs.board import Board
from ruleslawyer.graphs.pathing import INF, Distances, distances, same_from
from ruleslawyer.models.kaelyfos.points import (
    CAUGHT_MOVE,
    FREE_ON_TRAP,
    MOVE_ORDER,
    PHEROMONE_TIE,
    SCARAB_PASSABLE,
    STOP_AT_EXPLORER,
    TRAP_DISTANCE_TIE,
    TRAP_TIE,
    UNREACHABLE_EXPLORER,
    UNREVEALED_PASSABLE,
)
from ruleslawyer.models.kaelyfos.state import (
    Decision,
    Position,
    Readings,
    Table,
    enter_trap,
    pick,
)


@dataclass(frozen=True)
class _Geometry:
    """What every step on one board needs, computed once per board."""

    tables: dict[tuple[str, str], Distances]  # keyed by (scarab-passable, unrevealed-passable)
    dots: dict[tuple[str, str], int]  # exit dots of (here, toward)
    scarab: str | None
    scarab_matters: frozenset[str]  # nodes where a step depends on scarab-passable
    hidden_matters: frozenset[str]  # nodes where a step depends on unrevealed-passable
    walks: dict[tuple[Any, ...], _Walk] = field(default_factory=dict, compare=False)


@cache
def geometry(board: Board) -> _Geometry:
    """Distance tables per passability reading, exit dots, and where each reading matters."""
    scarab = frozenset({board.scarab} if board.scarab else ())
    hidden = frozenset(n.id for n in board.nodes if not n.revealed)
    t = {
        (s, u): distances(
            board, (scarab if s == "no" else frozenset()) | (hidden if u == "no" else frozenset())
        )
        for s in ("no", "yes")
        for u in ("yes", "no")
    }
    dots = {}
    for e in board.edges:
        dots[e.a, e.b], dots[e.b, e.a] = e.dots
    return _Geometry(
        tables=t,
        dots=dots,
        scarab=board.scarab,
        scarab_matters=frozenset(
            n
            for n in board.node_ids
            if not same_from(board, (t["no", "yes"], t["yes", "yes"]), n)
            or not same_from(board, (t["no", "no"], t["yes", "no"]), n)
        ),
        hidden_matters=frozenset(
            n
            for n in board.node_ids
            if not same_from(board, (t["no", "yes"], t["no", "no"]), n)
            or not same_from(board, (t["yes", "yes"], t["yes", "no"]), n)
        ),
    )


def distances_at(geo: _Geometry, here: str, readings: Readings) -> Distances:
    """The table for a step from ``here``; consults a passability point only where it matters."""
    s = readings(SCARAB_PASSABLE) if here in geo.scarab_matters else "no"
    u = readings(UNREVEALED_PASSABLE) if here in geo.hidden_matters else "yes"
    return geo.tables[s, u]


def _toward_different_traps(
    dist: Distances, options: list[str], targets: tuple[str, ...], d: int
) -> bool:
    """Whether the exits in ``options`` lead toward different ones of the tied traps."""
    return len({tuple(t for t in targets if dist.dist[n][t] == d - 1) for n in options}) > 1


def tied_decision(
    key: str, start: str, done: int, here: str, tied: list[str], geo: _Geometry
) -> Decision:
    """The open choice between ``tied`` exits of ``here`` (a pheromone or a trap tie)."""
    if key.startswith("trap-tie:"):
        return Decision(
            key,
            TRAP_TIE,
            f"bloodsucker from {start}, step {done + 1}: exits of {here} toward "
            f"{' and '.join(tied)} lead to different traps equally near",
            tuple(f"toward {n}" for n in tied),
        )
    return Decision(
        key,
        PHEROMONE_TIE,
        f"bloodsucker from {start}, step {done + 1}: exits of {here} toward "
        f"{' and '.join(tied)} both carry {geo.dots[here, tied[0]]} dots",
        tuple(f"toward {n}" for n in tied),
    )


WALK_MEMO = 50_000
# The only points a walk consults: its memo is keyed on their readings alone.
WALK_POINTS = (
    SCARAB_PASSABLE,
    UNREVEALED_PASSABLE,
    STOP_AT_EXPLORER,
    TRAP_DISTANCE_TIE,
    TRAP_TIE,
)


@dataclass(frozen=True)
class _Walk:
    """Where one bloodsucker's move ends, and what resolving it looked at."""

    end: str
    caught: bool
    touched: bool  # it went for a trap
    decisions: tuple[Decision, ...]
    consulted: frozenset[str]
    reached: frozenset[str]

    @classmethod
    def of(
        cls, end: str, caught: bool, touched: bool, decisions: list[Decision], readings: Readings
    ) -> _Walk:
        return cls(
            end,
            caught,
            touched,
            tuple(decisions),
            frozenset(readings.consulted),
            frozenset(readings.reached),
        )


@dataclass
class _Mover:
    """Moves bloodsuckers one at a time for one card under one set of readings."""

    geo: _Geometry
    hunted: tuple[str, ...]  # explorer nodes off the Scarab
    moves: int
    readings: Readings
    picks: Mapping[str, int]
    chosen: tuple[str, ...]
    picked: tuple[tuple[str, int], ...] = ()  # the picks, sorted (a walk's memo key)
    # every walk taken, by (start, tag, traps): ``readings`` has only the points read outside
    trace: dict[tuple[str, str, tuple[str, ...]], _Walk] = field(default_factory=dict)

    @classmethod
    def of(cls, position: Position, readings: Readings, picks: Mapping[str, int]) -> _Mover:
        geo = geometry(position.board)
        # Reference & FAQ: "Bloodsuckers completely ignore the Scarab and any explorers on it."
        hunted = tuple(node for _, node in position.explorers if node != geo.scarab)
        chosen = tuple(readings.chosen[p] for p in WALK_POINTS)
        return cls(geo, hunted, position.card.move, readings, picks, chosen, picked(picks))

    def targets(
        self,
        traps: tuple[str, ...],
        here: str,
        passed: frozenset[str],
        dist: Distances,
        readings: Readings,
    ) -> tuple[tuple[str, ...], int, bool]:
        """The nodes the bloodsucker on ``here`` heads for, how far (INF: none), whether traps.

        ``passed`` are the explorers' nodes it has already passed over in this move
        (``kaelyfos/stop-at-explorer=onward``): it never heads back to them.
        """
        row = dist.dist[here]
        d_any = INF
        for node in self.hunted:
            # "the nearest explorer" says nothing of explorers no path reaches (a gap):
            # they are left out, and with no one else to hunt the bloodsucker stays.
            if row[node] >= INF:
                readings.reached.add(UNREACHABLE_EXPLORER)
            d_any = min(d_any, row[node])
        d_trap = min((row[t] for t in traps), default=INF)
        # Move: "If a trap is nearer than any explorer, bloodsuckers will move toward the
        # trap." Any explorer: one on this node (distance 0) and one passed over count too.
        to_trap = d_trap < d_any
        if d_trap == d_any < INF:
            to_trap = readings(TRAP_DISTANCE_TIE) == "trap"
        if to_trap:
            return tuple(t for t in traps if row[t] == d_trap), d_trap, True
        # Move: "Each bloodsucker moves the amount indicated, toward the nearest explorer."
        # Called only with movement left; "then attack any explorers on their node": an
        # explorer here is at distance 0 (stop), or is passed over while the amount is not
        # spent (onward), and a passed explorer is not hunted again in this move (else the
        # bloodsucker would turn back to it and swing between two explorers).
        chase = tuple(n for n in self.hunted if n not in passed)
        d_explorer = min((row[n] for n in chase), default=INF)
        return tuple(n for n in chase if row[n] == d_explorer), d_explorer, False

    def move(self, table: Table, start: str, tag: str, decisions: list[Decision]) -> bool:
        """Move the bloodsucker on ``start`` (lifted already); whether it went for a trap.

        A walk depends only on where it starts, the explorers, the traps' nodes, the move
        value and the readings, so walks are memoised per board. A caught bloodsucker
        (``kaelyfos/caught-move=yes``) is not drawn by its own trap, stays in it if it does
        not move, and counts as going for a trap (its trap's count depends on the order).
        """
        node, own = _origin(start)
        traps = tuple(dict.fromkeys(t[0] for t in table.traps if t[0] != node or own is None))
        if own is None and node in traps and self.readings(FREE_ON_TRAP) == "hunts":
            # A free bloodsucker on a trap's node: the trap under it does not draw it.
            traps = tuple(t for t in traps if t != node)
        walk = self.walk(start, tag, traps)
        decisions += walk.decisions
        if own is not None and walk.end == node:
            table.catch(table.trap_by_id(own))  # back into the trap it left
        elif walk.caught:
            who = f"the bloodsucker from {node}"
            enter_trap(table, walk.end, f"catch:{tag}", who, self.readings, self.picks, decisions)
        else:
            table.free[walk.end] = table.free.get(walk.end, 0) + 1
        return walk.touched or own is not None

    def walk(self, start: str, tag: str, traps: tuple[str, ...]) -> _Walk:
        """The walk of the bloodsucker leaving ``start`` toward ``traps`` (memoised), noted in
        :attr:`trace` (the points it consulted count as the move's)."""
        key = (start, tag, self.hunted, traps, self.moves, self.chosen, self.picked)
        walk = self.geo.walks.get(key)
        if walk is None:
            if len(self.geo.walks) > WALK_MEMO:
                self.geo.walks.clear()
            walk = self.geo.walks[key] = self._walk(traps, _origin(start)[0], tag)
        self.trace[start, tag, traps] = walk
        return walk

    def _walk(self, traps: tuple[str, ...], start: str, tag: str) -> _Walk:
        geo, readings = self.geo, Readings(self.readings.chosen)
        decisions: list[Decision] = []
        here, touched, passed = start, False, frozenset[str]()
        # Each step brings the bloodsucker one nearer its trap (and, heading for a trap, it
        # stays nearer the trap than any explorer), or one nearer the explorers it has not
        # passed: after len(nodes) * (explorers + 1) steps it has stopped, whatever the move.
        nodes = len(geo.tables["no", "yes"].dist)
        steps = min(self.moves, nodes * (len(self.hunted) + 1) + 1)
        for done in range(steps):
            if here in self.hunted and readings(STOP_AT_EXPLORER) == "onward":
                passed |= {here}
            dist = distances_at(geo, here, readings)
            targets, d, for_trap = self.targets(traps, here, passed, dist, readings)
            touched = touched or any(t in traps for t in targets)
            if not targets or d == 0 or d >= INF:
                break
            options = [
                n for n in dist.neighbours[here] if min(dist.dist[n][t] for t in targets) == d - 1
            ]
            if for_trap and _toward_different_traps(dist, options, targets, d):
                tied, key = self._trap_tie(here, options, start, tag, done, readings)
            else:
                tied, key = self._pheromones(here, options, start, tag, done)
            if len(tied) > 1:
                decisions.append(tied_decision(key, start, done, here, tied, geo))
            here = tied[pick(self.picks, key, len(tied))]
            if here in traps:
                # Traps: "If a bloodsucker moves onto a node with a trap, it is instantly
                # trapped": mid-move. (Heading for an explorer, a bloodsucker meets a trap on
                # its way only under onward, when an explorer it passed is as near as it.)
                return _Walk.of(here, True, True, decisions, readings)
        return _Walk.of(here, False, touched, decisions, readings)

    def _pheromones(
        self, here: str, options: list[str], start: str, tag: str, done: int
    ) -> tuple[list[str], str]:
        # Move: "If multiple explorers are equally close—or if 2 directions take the
        # bloodsucker equally close to the nearest explorer—look at the dots on the
        # bloodsucker's node ... The bloodsucker will move toward the tied option that
        # takes them over the most pheromone dots on their current node."
        # The tied exits are listed by node id, never in the board file's order.
        most = max(self.geo.dots[here, n] for n in options)
        return sorted(n for n in options if self.geo.dots[here, n] == most), f"tie:{tag}:{done}"

    def _trap_tie(
        self,
        here: str,
        options: list[str],
        start: str,
        tag: str,
        done: int,
        readings: Readings,
    ) -> tuple[list[str], str]:
        # Two traps equally near, nearer than any explorer ("If a trap is nearer than any
        # explorer, bloodsuckers will move toward the trap."): the tie rule names explorers.
        if readings(TRAP_TIE) == "pheromones":
            return self._pheromones(here, options, start, tag, done)
        return sorted(options), f"trap-tie:{tag}:{done}"

    def run(self, table: Table, starts: list[str], decisions: list[Decision]) -> None:
        """Move the bloodsuckers on ``starts`` one after another, in that order."""
        seen: dict[str, int] = {}
        for start in starts:
            seen[start] = seen.get(start, 0) + 1
            if not _waiting(table, start):
                continue  # its trap was destroyed: it went to the supply
            lift(table, start)
            self.move(table, start, f"{start}#{seen[start]}", decisions)


def picked(picks: Mapping[str, int], but: str = "") -> tuple[tuple[str, int], ...]:
    """The picks as a memo key, sorted: a pick of the first option is no pick (see
    :func:`~ruleslawyer.models.kaelyfos.state.pick`), so it is left out, and so is ``but``."""
    return tuple(sorted((k, v) for k, v in picks.items() if v and k != but))


CAUGHT = "@trap"  # "<node>@trap<id>": a caught bloodsucker leaving its trap (caught-move=yes)


@cache
def _origin(start: str) -> tuple[str, int | None]:
    """The node a start names, and the id of the trap it leaves (None: a free bloodsucker)."""
    node, sep, ident = start.rpartition(CAUGHT)
    return (node, int(ident)) if sep else (start, None)


def lift(table: Table, start: str) -> None:
    """Take the bloodsucker about to move off its node (or out of its trap)."""
    node, own = _origin(start)
    if own is not None:
        table.trap_by_id(own)[1] -= 1  # type: ignore[index]
    else:
        table.free[node] -= 1


def _waiting(table: Table, start: str) -> int:
    """How many bloodsuckers wait to move from ``start``."""
    node, own = _origin(start)
    if own is not None:
        trap = table.trap_by_id(own)
        return trap[1] if trap is not None else 0
    return table.free.get(node, 0)


MOVE_MEMO = 20_000
_Runs = tuple[tuple[Table, tuple[Decision, ...], tuple[str, ...]], ...]
_Trace = tuple[tuple[tuple[str, str, tuple[str, ...]], _Walk], ...]
# the ends and decisions, the points consulted and reached, the points read outside the
# walks with their readings, and the walks taken
_Moved = tuple[
    tuple[Decision, ...], _Runs, frozenset[str], frozenset[str], tuple[tuple[str, str], ...], _Trace
]
# per input: the readings the move read (point and reading, sorted), and what it gave
_MOVES: dict[tuple[Any, ...], dict[frozenset[str], dict[tuple[str, ...], _Moved]]] = {}


def move_all(
    table: Table,
    position: Position,
    readings: Readings,
    picks: Mapping[str, int],
    decisions: list[Decision],
) -> None:
    """Move every bloodsucker (see :func:`_move_runs`), then take the picked order's end.

    Memoised on what the move reads: the board, the explorers, the move value, the
    table, the picks (but the move order's) and the readings of the points it consulted
    (the same inputs give the same ends, decisions and points consulted; advise resolves
    one card under many readings and picks); or, under other readings, on a move
    recorded for the same inputs that :func:`_replayed` shows runs the same.
    """
    key = (
        position.board,
        position.explorers,
        position.card.move,
        tuple(sorted(table.free.items())),
        tuple(tuple(t) for t in table.traps),
        table.supply,
        table.removed,
        table.tokens,
        table.doppelganger_tokens,
        picked(picks, MOVE_ORDER_KEY),
    )
    seen = _MOVES.get(key, {})
    hit = next(
        (
            found[tuple(readings.chosen[p] for p in sorted(points))]
            for points, found in seen.items()
            if tuple(readings.chosen[p] for p in sorted(points)) in found
        ),
        None,
    )
    if hit is None:
        if len(_MOVES) > MOVE_MEMO:
            _MOVES.clear()
        hit = _replayed(seen, position, readings, picks) or _moved(table, position, readings, picks)
        values = tuple(readings.chosen[p] for p in sorted(hit[2]))
        _MOVES.setdefault(key, {}).setdefault(hit[2], {})[values] = hit
    before, runs, consulted, reached, _, _ = hit
    decisions += before
    if len(runs) > 1:
        decisions.append(
            Decision(
                MOVE_ORDER_KEY,
                MOVE_ORDER,
                "bloodsuckers heading for a trap end differently by who moves first",
                tuple("first: " + ", ".join(perm) for _, _, perm in runs),
            )
        )
    end, made, _ = runs[pick(picks, MOVE_ORDER_KEY, len(runs))]
    decisions += made
    end = end.copy()
    table.free, table.traps, table.supply = end.free, end.traps, end.supply
    table.tokens, table.doppelganger_tokens = end.tokens, end.doppelganger_tokens
    readings.consulted |= consulted
    readings.reached |= reached


MOVE_ORDER_KEY = "move-order"


def _moved(
    table: Table, position: Position, readings: Readings, picks: Mapping[str, int]
) -> _Moved:
    """The move (see :func:`_move_runs`) under ``readings``, with what it read."""
    own = Readings(readings.chosen)
    mover = _Mover.of(position, own, picks)
    before, runs = _move_runs(table.copy(), position, mover)
    walks = tuple(mover.trace.items())
    consulted = own.consulted.union(*(w.consulted for _, w in walks))
    reached = own.reached.union(*(w.reached for _, w in walks))
    direct = tuple((p, own.chosen[p]) for p in sorted(own.consulted))
    return before, runs, frozenset(consulted), frozenset(reached), direct, walks


def _replayed(
    seen: dict[frozenset[str], dict[tuple[str, ...], _Moved]],
    position: Position,
    readings: Readings,
    picks: Mapping[str, int],
) -> _Moved | None:
    """A move recorded for these inputs under other readings that runs the same under
    ``readings``: the points it read outside the walks read the same, and every walk it
    took ends the same (a walk reads the rest), so each of its steps is the same."""
    mover = None
    checked: set[int] = set()
    for found in seen.values():
        for hit in found.values():
            if id(hit) in checked or any(readings.chosen[p] != r for p, r in hit[4]):
                continue
            checked.add(id(hit))
            mover = mover or _Mover.of(position, Readings(readings.chosen), picks)
            if all(mover.walk(*where) == walk for where, walk in hit[5]):
                return hit
    return None


def _move_runs(
    table: Table, position: Position, mover: _Mover
) -> tuple[tuple[Decision, ...], _Runs]:
    """The decisions met by the bloodsuckers whose order does not matter, and each distinct
    end of moving the others in every order: (table, decisions, the first order to it)."""
    decisions: list[Decision] = []
    order = sorted(position.board.node_ids)  # by id: the board file's order never shows
    starts = [n for n in order for _ in range(table.free.get(n, 0))]
    # FAQ: "Bloodsuckers caught in traps count as "bloodsuckers" where effects are
    # concerned." / Move: "Each bloodsucker moves the amount indicated".
    caught = [f"{t[0]}{CAUGHT}{t[3]}" for t in table.traps if t[1]]
    if caught and position.card.move and mover.readings(CAUGHT_MOVE) == "yes":
        starts += [c for c in caught for _ in range(_waiting(table, c))]
    if not table.traps:
        # Without traps no bloodsucker's move can change another's: one order is all orders.
        mover.run(table, starts, decisions)
        return tuple(decisions), ((table, (), ()),)
    # "Each bloodsucker moves": the rulebook names no order. Only bloodsuckers that go for
    # a trap (alone, from this position) can feel another's move; try their orders.
    dependent = []
    for start in dict.fromkeys(starts):
        trial = table.copy()
        lift(trial, start)
        if mover.move(trial, start, f"{start}#1", []):
            dependent += [start] * _waiting(table, start)
    rest = [s for s in starts if s not in dependent]
    mover.run(table, rest, decisions)
    if len(set(dependent)) < 2:  # alike bloodsuckers: every order is the same order
        mover.run(table, dependent, decisions)
        return tuple(decisions), ((table, (), ()),)
    totals = Counter(dependent)  # by node id
    outcomes = _orders(mover, table, tuple(totals.items()), totals, {})
    runs = tuple((end, tuple(made), tuple(perm)) for end, made, perm in outcomes.values())
    return tuple(decisions), runs


_Ends = dict[tuple[Any, ...], tuple[Table, list[Decision], list[str]]]


def _orders(
    mover: _Mover,
    table: Table,
    left: tuple[tuple[str, int], ...],
    totals: Counter[str],
    memo: dict[tuple[Any, ...], _Ends],
) -> _Ends:
    """Every distinct end of moving the bloodsuckers ``left`` (start, count) in every order.

    Bloodsuckers from one node are alike, so states repeat across orders: memoised on
    the table and what is left to move. Each end keeps the first order reaching it.
    """
    poll()  # every order of many bloodsuckers can take long: the search's budget stops it
    # A trap destroyed meanwhile took the bloodsuckers waiting in it to the supply.
    waiting = [(s, c, _waiting(table, s)) for s, c in left]
    left = tuple((s, min(c, w)) for s, c, w in waiting if w)
    if not left:
        return {table.key(): (table, [], [])}
    memo_key = (table.key(), left)
    if memo_key in memo:
        return memo[memo_key]
    ends: _Ends = {}
    for i, (start, count) in enumerate(left):
        trial, made = table.copy(), list[Decision]()
        lift(trial, start)
        mover.move(trial, start, f"{start}#{totals[start] - count + 1}", made)
        rest = left[:i] + (((start, count - 1),) if count > 1 else ()) + left[i + 1 :]
        for key, (end, later, order) in _orders(mover, trial, rest, totals, memo).items():
            ends.setdefault(key, (end, made + later, [start, *order]))
    memo[memo_key] = ends
    return ends
