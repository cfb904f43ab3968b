"""Unsettled: Kaelyfos: resolve one bloodsucker behaviour card on a position.

``step(position, rulings)`` is pure: spawn, move, attack, "In that order."
(Bloodsuckers). Every rule below cites the sentence it follows. Where the
rulebook leaves a choice open (pheromone ties, the order bloodsuckers move in)
or gives it to the crew (who takes a distress), :func:`step` lists each option
with its result in ``choices`` instead of picking silently; ``result`` is the
first option's.

Internally :func:`resolve` runs the card under a full set of readings and
records which rule points it consulted: a point it never consulted cannot
change this result, which is what lets the checks skip most alternatives.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ruleslawyer.graphs.board import Board
from ruleslawyer.graphs.pathing import INF, Distances, distances, same_from
from ruleslawyer.models.kaelyfos_points import (
    ATTACK_REMOVAL,
    MOVE_ORDER,
    PHEROMONE_TIE,
    RULE_POINTS,
    SCARAB_PASSABLE,
    SPAWN_INTO_TRAP,
    STOP_AT_EXPLORER,
    TRAP_DISTANCE_TIE,
    TRAPPED_ATTACK,
    UNREACHABLE_EXPLORER,
    UNREVEALED_PASSABLE,
    in_force,
)

__all__ = ["RULE_POINTS", "Card", "Position", "Result", "Step", "Trap", "resolve", "step"]


@dataclass(frozen=True)
class Card:
    """A behaviour card: nests to spawn on, in order, and how many nodes they move."""

    spawn: tuple[str, ...]
    move: int


@dataclass(frozen=True)
class Trap:
    node: str
    caught: int = 0


@dataclass(frozen=True)
class Position:
    """The planet just before a behaviour card is resolved.

    ``bloodsuckers`` counts free bloodsuckers per node (board order, no zeros);
    ``explorers`` pairs names with nodes (sorted by name); ``nests`` pairs the
    letters A, B, C with nodes.
    """

    board: Board
    nests: tuple[tuple[str, str], ...]
    supply: int
    card: Card
    explorers: tuple[tuple[str, str], ...] = ()
    bloodsuckers: tuple[tuple[str, int], ...] = ()
    traps: tuple[Trap, ...] = ()
    removed_from_play: int = 0

    def markers(self) -> int:
        """Black markers accounted for: board, traps, supply and out of play."""
        on_board = sum(n for _, n in self.bloodsuckers) + sum(t.caught for t in self.traps)
        return on_board + self.supply + self.removed_from_play


@dataclass(frozen=True)
class Result:
    """The planet after the card: the JSON ``result`` of ``ruleslawyer kaelyfos step``."""

    bloodsuckers: tuple[tuple[str, int], ...]
    traps: tuple[Trap, ...]
    supply: int
    removed_from_play: int
    distress: tuple[tuple[str, int], ...]
    nightmares: tuple[str, ...]

    def markers(self) -> int:
        on_board = sum(n for _, n in self.bloodsuckers) + sum(t.caught for t in self.traps)
        return on_board + self.supply + self.removed_from_play

    def to_json(self) -> dict[str, Any]:
        return {
            "bloodsuckers": dict(self.bloodsuckers),
            "traps": [{"node": t.node, "caught": t.caught} for t in self.traps],
            "supply": self.supply,
            "removed_from_play": self.removed_from_play,
            "distress": dict(self.distress),
            "nightmares": list(self.nightmares),
        }


@dataclass(frozen=True)
class Decision:
    """A choice made during resolution: by the crew (``point`` None) or left open by the rules."""

    key: str
    point: str | None
    description: str
    labels: tuple[str, ...]


@dataclass
class Readings:
    """The readings in force, recording which points were consulted and which gaps reached."""

    chosen: Mapping[str, str]
    consulted: set[str] = field(default_factory=set)
    reached: set[str] = field(default_factory=set)

    def __call__(self, point_id: str) -> str:
        self.consulted.add(point_id)
        return self.chosen[point_id]


@dataclass(frozen=True)
class Outcome:
    result: Result
    decisions: tuple[Decision, ...]
    consulted: frozenset[str]
    reached: frozenset[str]


@dataclass(frozen=True)
class Step:
    """What :func:`step` returns: the JSON of ``ruleslawyer kaelyfos step``."""

    rulings: Mapping[str, str]
    result: Result
    divergences: tuple[tuple[str, str, Result], ...]
    choices: tuple[tuple[Decision, tuple[Result, ...]], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "rulings": dict(self.rulings),
            "result": self.result.to_json(),
            "divergences": [
                {"point": p, "reading": r, "result": res.to_json()}
                for p, r, res in self.divergences
            ],
            "choices": [
                {
                    "point": d.point,
                    "decided_by": "crew" if d.point is None else "nobody: the rules are silent",
                    "description": d.description,
                    "options": [
                        {"option": label, "result": res.to_json()}
                        for label, res in zip(d.labels, results, strict=True)
                    ],
                }
                for d, results in self.choices
            ],
        }


def step(position: Position, rulings: Mapping[str, str] | None = None) -> Step:
    """Resolve ``position.card``: the result, the open points that would change it, the choices."""
    rulings = dict(rulings or {})
    chosen = in_force(rulings)
    base = resolve(position, chosen)
    divergences = []
    for point in RULE_POINTS:
        if not point.readings or point.id in rulings or point.id not in base.consulted:
            continue  # a point never consulted cannot change the result
        for reading in point.reading_names:
            if reading == chosen[point.id]:
                continue
            other = resolve(position, {**chosen, point.id: reading}).result
            if other != base.result:
                divergences.append((point.id, reading, other))
    choices = tuple((d, option_results(position, chosen, d, base.result)) for d in base.decisions)
    return Step(chosen, base.result, tuple(divergences), choices)


def option_results(
    position: Position, chosen: Mapping[str, str], decision: Decision, first: Result
) -> tuple[Result, ...]:
    """The result of each option of ``decision`` (every other decision at its first option)."""
    others = range(1, len(decision.labels))
    return (first, *(resolve(position, chosen, {decision.key: i}).result for i in others))


def resolve(
    position: Position, chosen: Mapping[str, str], picks: Mapping[str, int] | None = None
) -> Outcome:
    """Resolve the card under the readings ``chosen``; ``picks`` selects options by decision key."""
    readings = Readings(chosen)
    table = _Table.of(position)
    decisions: list[Decision] = []
    picks = picks or {}
    _spawn(table, position, readings)
    _move(table, position, readings, picks, decisions)
    distress = _attack(table, position, readings, picks, decisions)
    result = table.result(distress)
    return Outcome(
        result, tuple(decisions), frozenset(readings.consulted), frozenset(readings.reached)
    )


@dataclass
class _Table:
    """The mutable working copy of a position while one card resolves (never escapes)."""

    board: Board
    free: dict[str, int]
    traps: list[list[Any]]  # [node, caught]
    supply: int
    removed: int

    @classmethod
    def of(cls, position: Position) -> _Table:
        return cls(
            position.board,
            dict(position.bloodsuckers),
            [[t.node, t.caught] for t in position.traps],
            position.supply,
            position.removed_from_play,
        )

    def copy(self) -> _Table:
        return _Table(
            self.board, dict(self.free), [list(t) for t in self.traps], self.supply, self.removed
        )

    def trap_at(self, node: str) -> list[Any] | None:
        return next((t for t in self.traps if t[0] == node), None)

    def catch(self, trap: list[Any]) -> None:
        # Traps: "If a bloodsucker moves onto a node with a trap, it is instantly trapped
        # ...; place it on the trap token." / "If a trap has caught 2 bloodsuckers it is
        # destroyed. Return it and the bloodsuckers to the supply."
        trap[1] += 1
        if trap[1] >= 2:
            self.traps.remove(trap)
            self.supply += trap[1]

    def key(self) -> tuple[Any, ...]:
        return (
            tuple(sorted((n, c) for n, c in self.free.items() if c)),
            tuple(tuple(t) for t in self.traps),
            self.supply,
            self.removed,
        )

    def result(self, distress: dict[str, int]) -> Result:
        order = self.board.node_ids
        return Result(
            bloodsuckers=tuple((n, self.free[n]) for n in order if self.free.get(n)),
            traps=tuple(Trap(n, c) for n, c in self.traps),
            supply=self.supply,
            removed_from_play=self.removed,
            distress=tuple(sorted(distress.items())),
            # Reference & FAQ: "You can only experience 1 waking nightmare per turn, even if
            # attacked multiple times."
            nightmares=tuple(sorted(e for e, n in distress.items() if n > 0)),
        )


def _spawn(table: _Table, position: Position, readings: Readings) -> None:
    nests = dict(position.nests)
    # Spawn: "Place a bloodsucker (black marker) on the nests indicated, in the order shown."
    for letter in position.card.spawn:
        # "If a bloodsucker would spawn and there are no black markers available, it doesn't spawn."
        if table.supply == 0:
            continue
        table.supply -= 1
        node = nests[letter]
        trap = table.trap_at(node)
        if trap is not None and readings(SPAWN_INTO_TRAP) == "caught":
            table.catch(trap)
        else:
            table.free[node] = table.free.get(node, 0) + 1


# -- move ---------------------------------------------------------------------------------


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


def _distances_at(geo: _Geometry, here: str, readings: Readings) -> Distances:
    """The table for a step from ``here``; consults a passability point only where it matters."""
    s = readings(SCARAB_PASSABLE) if here in geo.scarab_matters else "no"
    u = readings(UNREVEALED_PASSABLE) if here in geo.hidden_matters else "yes"
    return geo.tables[s, u]


WALK_MEMO = 200_000


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
    chosen: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, position: Position, readings: Readings, picks: Mapping[str, int]) -> _Mover:
        geo = geometry(position.board)
        # Reference & FAQ: "Bloodsuckers completely ignore the Scarab and any explorers on it."
        hunted = tuple(node for _, node in position.explorers if node != geo.scarab)
        chosen = tuple(readings.chosen.items())
        return cls(geo, hunted, position.card.move, readings, picks, chosen)

    def targets(
        self, traps: tuple[str, ...], here: str, dist: Distances, readings: Readings
    ) -> tuple[tuple[str, ...], int]:
        """The nodes the bloodsucker on ``here`` heads for, and how far they are (INF: none)."""
        row = dist.dist[here]
        hunted = self.hunted
        if here in hunted and readings(STOP_AT_EXPLORER) == "onward":
            hunted = tuple(node for node in hunted if node != here)
        d_explorer = INF
        for node in hunted:
            if row[node] >= INF:  # unreachable explorers are left out
                readings.reached.add(UNREACHABLE_EXPLORER)
            d_explorer = min(d_explorer, row[node])
        d_trap = min((row[t] for t in traps), default=INF)
        # Move: "If a trap is nearer than any explorer, bloodsuckers will move toward the trap."
        to_trap = d_trap < d_explorer
        if d_trap == d_explorer < INF:
            to_trap = readings(TRAP_DISTANCE_TIE) == "trap"
        if to_trap:
            return tuple(t for t in traps if row[t] == d_trap), d_trap
        # Move: "Each bloodsucker moves the amount indicated, toward the nearest explorer."
        return tuple(node for node in hunted if row[node] == d_explorer), d_explorer

    def move(self, table: _Table, start: str, tag: str, decisions: list[Decision]) -> bool:
        """Move the bloodsucker on ``start``; return whether it went for a trap.

        A walk depends only on where it starts, the explorers, the traps' nodes, the move
        value and the readings, so walks are memoised per board.
        """
        traps = tuple(t[0] for t in table.traps)
        picked = tuple(sorted(self.picks.items())) if self.picks else ()
        key = (start, tag, self.hunted, traps, self.moves, self.chosen, picked)
        walk = self.geo.walks.get(key)
        if walk is None:
            if len(self.geo.walks) > WALK_MEMO:
                self.geo.walks.clear()
            walk = self.geo.walks[key] = self._walk(traps, start, tag)
        self.readings.consulted |= walk.consulted
        self.readings.reached |= walk.reached
        decisions += walk.decisions
        if walk.caught:
            table.catch(table.trap_at(walk.end))
        else:
            table.free[walk.end] = table.free.get(walk.end, 0) + 1
        return walk.touched

    def _walk(self, traps: tuple[str, ...], start: str, tag: str) -> _Walk:
        geo, readings = self.geo, Readings(self.readings.chosen)
        decisions: list[Decision] = []
        here, touched = start, False
        for done in range(self.moves):
            dist = _distances_at(geo, here, readings)
            targets, d = self.targets(traps, here, dist, readings)
            touched = touched or any(t in traps for t in targets)
            if not targets or d == 0 or d >= INF:
                break
            options = [
                n for n in dist.neighbours[here] if min(dist.dist[n][t] for t in targets) == d - 1
            ]
            # Move: "If multiple explorers are equally close—or if 2 directions take the
            # bloodsucker equally close to the nearest explorer—look at the dots on the
            # bloodsucker's node ... The bloodsucker will move toward the tied option that
            # takes them over the most pheromone dots on their current node."
            most = max(geo.dots[here, n] for n in options)
            tied = [n for n in options if geo.dots[here, n] == most]
            key = f"tie:{tag}:{done}"
            if len(tied) > 1:
                decisions.append(
                    Decision(
                        key,
                        PHEROMONE_TIE,
                        f"bloodsucker from {start}, step {done + 1}: exits of {here} toward "
                        f"{' and '.join(tied)} both carry {most} dots",
                        tuple(f"toward {n}" for n in tied),
                    )
                )
            here = tied[_pick(self.picks, key, len(tied))]
            if here in traps:
                # Traps: "If a bloodsucker moves onto a node with a trap, it is instantly
                # trapped". Whether "instantly" means mid-move or where the move ends cannot
                # matter: a trap on the way is nearer than the explorer beyond it, so a
                # bloodsucker only enters a trap's node when it is heading there.
                return _Walk.of(here, True, True, decisions, readings)
        return _Walk.of(here, False, touched, decisions, readings)

    def run(self, table: _Table, starts: list[str], decisions: list[Decision]) -> None:
        """Move the bloodsuckers on ``starts`` one after another, in that order."""
        seen: dict[str, int] = {}
        for start in starts:
            seen[start] = seen.get(start, 0) + 1
            table.free[start] -= 1
            self.move(table, start, f"{start}#{seen[start]}", decisions)


def _move(
    table: _Table,
    position: Position,
    readings: Readings,
    picks: Mapping[str, int],
    decisions: list[Decision],
) -> None:
    mover = _Mover.of(position, readings, picks)
    order = position.board.node_ids
    starts = [n for n in order for _ in range(table.free.get(n, 0))]
    if not table.traps:
        # Without traps no bloodsucker's move can change another's: one order is all orders.
        mover.run(table, starts, decisions)
        return
    # "Each bloodsucker moves": the rulebook names no order. Only bloodsuckers that go for
    # a trap (alone, from this position) can feel another's move; try their orders.
    dependent = []
    for start in dict.fromkeys(starts):
        trial = table.copy()
        trial.free[start] -= 1
        if mover.move(trial, start, f"{start}#1", []):
            dependent += [start] * table.free[start]
    rest = [s for s in starts if s not in dependent]
    mover.run(table, rest, decisions)
    if len(set(dependent)) < 2:  # alike bloodsuckers: every order is the same order
        mover.run(table, dependent, decisions)
        return
    totals = Counter(dependent)  # board order
    outcomes = _orders(mover, table, tuple(totals.items()), totals, {})
    runs = list(outcomes.values())
    if len(runs) > 1:
        decisions.append(
            Decision(
                "move-order",
                MOVE_ORDER,
                "bloodsuckers heading for a trap end differently by who moves first",
                tuple("first: " + ", ".join(perm) for _, _, perm in runs),
            )
        )
    chosen, made, _ = runs[_pick(picks, "move-order", len(runs))]
    decisions += made
    table.free, table.traps, table.supply = chosen.free, chosen.traps, chosen.supply


_Ends = dict[tuple[Any, ...], tuple[_Table, list[Decision], list[str]]]


def _orders(
    mover: _Mover,
    table: _Table,
    left: tuple[tuple[str, int], ...],
    totals: Counter[str],
    memo: dict[tuple[Any, ...], _Ends],
) -> _Ends:
    """Every distinct end of moving the bloodsuckers ``left`` (start, count) in every order.

    Bloodsuckers from one node are alike, so states repeat across orders: memoised on
    the table and what is left to move. Each end keeps the first order reaching it.
    """
    if not left:
        return {table.key(): (table, [], [])}
    memo_key = (table.key(), left)
    if memo_key in memo:
        return memo[memo_key]
    ends: _Ends = {}
    for i, (start, count) in enumerate(left):
        trial, made = table.copy(), list[Decision]()
        trial.free[start] -= 1
        mover.move(trial, start, f"{start}#{totals[start] - count + 1}", made)
        rest = left[:i] + (((start, count - 1),) if count > 1 else ()) + left[i + 1 :]
        for key, (end, later, order) in _orders(mover, trial, rest, totals, memo).items():
            ends.setdefault(key, (end, made + later, [start, *order]))
    memo[memo_key] = ends
    return ends


# -- attack -------------------------------------------------------------------------------


def _attack(
    table: _Table,
    position: Position,
    readings: Readings,
    picks: Mapping[str, int],
    decisions: list[Decision],
) -> dict[str, int]:
    board = position.board
    distress = {name: 0 for name, _ in position.explorers}
    for node in board.node_ids:
        # FAQ: bloodsuckers "completely ignore the Scarab and any explorers on it".
        here = sorted(
            name for name, at in position.explorers if at == node and node != board.scarab
        )
        if not here:
            continue
        attackers = table.free.get(node, 0)
        trapped = [t for t in table.traps if t[0] == node and t[1] > 0]
        # FAQ: "Bloodsuckers caught in traps count as "bloodsuckers" where effects are concerned."
        if trapped and readings(TRAPPED_ATTACK) == "yes":
            for t in trapped:
                attackers += t[1]
                t[1] = 0
        if not attackers:
            continue
        table.free[node] = 0
        # Attack: "... and is returned to the supply." vs the example card: "... and is then
        # removed from play."
        if readings(ATTACK_REMOVAL) == "supply":
            table.supply += attackers
        else:
            table.removed += attackers
        # "Each bloodsucker gives a distress to an explorer on their node ... If there are
        # multiple explorers, the explorers choose who takes the distress."
        shares = list(_shares(attackers, len(here)))
        if len(here) > 1:
            decisions.append(
                Decision(
                    f"distress:{node}",
                    None,
                    f"{attackers} distress on {node} among {', '.join(here)}",
                    tuple(
                        ", ".join(f"{e} {n}" for e, n in zip(here, s, strict=True)) for s in shares
                    ),
                )
            )
        for name, n in zip(
            here, shares[_pick(picks, f"distress:{node}", len(shares))], strict=True
        ):
            distress[name] += n
    return distress


def _pick(picks: Mapping[str, int], key: str, options: int) -> int:
    """The option picked for decision ``key``: the first unless a valid other is asked for.

    A pick is made against the first-option run; where the same key meets a different
    set of options (another order of moves), the first option stands.
    """
    pick = picks.get(key, 0)
    return pick if 0 <= pick < options else 0


def _shares(total: int, people: int) -> Iterator[tuple[int, ...]]:
    """Every way to split ``total`` among ``people``, the first person's largest share first."""
    if people == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _shares(total - first, people - 1):
            yield (first, *rest)
