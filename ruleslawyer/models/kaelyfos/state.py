"""The Kaelyfos state: positions, results, and the working table one card resolves on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ruleslawyer.graphs.board import Board
from ruleslawyer.models.kaelyfos.points import WHICH_TRAP


@dataclass(frozen=True)
class Card:
    """A behaviour card: nests to spawn on, in order, and how many nodes they move."""

    spawn: tuple[str, ...]
    move: int


@dataclass(frozen=True, order=True)
class Trap:
    node: str
    caught: int = 0
    doppelganger: bool = False  # built from a doppelganger trap token

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"node": self.node, "caught": self.caught}
        if self.doppelganger:
            doc["doppelganger"] = True
        return doc

    def words(self) -> str:
        """The trap among others on its node: "the empty trap", "the trap holding 1"."""
        kind = "doppelganger trap" if self.doppelganger else "trap"
        if self.caught:
            return f"the {kind} holding {self.caught}"
        return f"the empty {kind}"


@dataclass(frozen=True)
class Action:
    """A free action an explorer takes on their node before the card: build or destroy a trap.

    ``target`` names the trap a destroy takes when the node holds traps that differ (how
    many they have caught, which kind of token): the crew chooses it. None: the node's
    only kind of trap, or, in a position file, the crew's choice made during ``step``.
    """

    kind: str  # "build" | "destroy"
    explorer: str
    target: Trap | None = None


@dataclass(frozen=True)
class Position:
    """The planet just before a behaviour card is resolved.

    ``bloodsuckers`` counts free bloodsuckers per node (by node id, no zeros);
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
    trap_tokens: int | None = None  # available; None: the board's tokens not on the board
    turn: str | None = None  # the explorer whose turn it is
    had_nightmare: tuple[str, ...] = ()  # explorers who had a waking nightmare this turn
    actions: tuple[Action, ...] = ()  # free actions taken before the card resolves

    def tokens(self) -> tuple[int, int]:
        """Available (bloodsucker, doppelganger) trap tokens."""
        if self.trap_tokens is not None:
            free = self.trap_tokens
        else:
            free = self.board.trap_tokens - sum(not t.doppelganger for t in self.traps)
        used = sum(t.doppelganger for t in self.traps)
        return free, self.board.doppelganger_trap_tokens - used

    def markers(self) -> int:
        """Black markers accounted for: board, traps, supply and out of play."""
        return _markers(self.bloodsuckers, self.traps, self.supply, self.removed_from_play)


@dataclass(frozen=True)
class Result:
    """The planet after the card: the JSON ``result`` of ``ruleslawyer kaelyfos step``."""

    bloodsuckers: tuple[tuple[str, int], ...]
    traps: tuple[Trap, ...]
    supply: int
    removed_from_play: int
    distress: tuple[tuple[str, int], ...]
    nightmares: tuple[str, ...]  # one entry per waking nightmare experienced, by name
    trap_tokens: int = 0  # bloodsucker trap tokens available after the card

    def markers(self) -> int:
        return _markers(self.bloodsuckers, self.traps, self.supply, self.removed_from_play)

    def to_json(self) -> dict[str, Any]:
        return {
            "bloodsuckers": dict(self.bloodsuckers),
            "traps": [t.to_json() for t in self.traps],
            "supply": self.supply,
            "removed_from_play": self.removed_from_play,
            "trap_tokens": self.trap_tokens,
            "distress": dict(self.distress),
            "nightmares": list(self.nightmares),
        }


@dataclass(frozen=True)
class Decision:
    """A choice met during resolution: made by the crew (``crew``) or left open by the rules.

    ``point`` is the rule point that makes it a choice (None: a rule gives it to the crew).
    """

    key: str
    point: str | None
    description: str
    labels: tuple[str, ...]
    crew: bool = False


@dataclass
class Readings:
    """The readings in force, recording which points were consulted and which gaps reached."""

    chosen: Mapping[str, str]
    consulted: set[str] = field(default_factory=set)
    reached: set[str] = field(default_factory=set)

    def __call__(self, point_id: str) -> str:
        self.consulted.add(point_id)
        return self.chosen[point_id]


def _markers(
    bloodsuckers: tuple[tuple[str, int], ...], traps: tuple[Trap, ...], supply: int, removed: int
) -> int:
    return sum(n for _, n in bloodsuckers) + sum(t.caught for t in traps) + supply + removed


@dataclass
class Table:
    """The mutable working copy of a position while one card resolves (never escapes).

    A trap is ``[node, caught, doppelganger, id]``: ``id`` tells apart traps sharing a node
    while the card resolves (a caught bloodsucker that leaves its trap comes back to it).
    Traps start sorted by node, catches and kind, so the order a file lists them in never
    shows; :meth:`key` and :meth:`result` sort them again.
    """

    board: Board
    free: dict[str, int]
    traps: list[list[Any]]  # [node, caught, doppelganger, id]
    supply: int
    removed: int
    tokens: int  # bloodsucker trap tokens available
    doppelganger_tokens: int

    @classmethod
    def of(cls, position: Position) -> Table:
        return cls(
            position.board,
            dict(position.bloodsuckers),
            [[t.node, t.caught, t.doppelganger, i] for i, t in enumerate(sorted(position.traps))],
            position.supply,
            position.removed_from_play,
            *position.tokens(),
        )

    def copy(self) -> Table:
        return Table(
            self.board,
            dict(self.free),
            [list(t) for t in self.traps],
            self.supply,
            self.removed,
            self.tokens,
            self.doppelganger_tokens,
        )

    def add_trap(self, node: str, doppelganger: bool) -> list[Any]:
        trap = [node, 0, doppelganger, 1 + max((t[3] for t in self.traps), default=-1)]
        self.traps.append(trap)
        return trap

    def remove_trap(self, trap: list[Any], token_back: bool = True) -> None:
        """Take ``trap`` off the board; its token is available again if ``token_back``."""
        self.traps.remove(trap)
        if token_back and trap[2]:
            self.doppelganger_tokens += 1
        elif token_back:
            self.tokens += 1

    def traps_at(self, node: str) -> list[list[Any]]:
        return [t for t in self.traps if t[0] == node]

    def trap_by_id(self, ident: int) -> list[Any] | None:
        return next((t for t in self.traps if t[3] == ident), None)

    def catch(self, trap: list[Any]) -> None:
        # Traps: "If a bloodsucker moves onto a node with a trap, it is instantly trapped
        # ...; place it on the trap token." / "If a trap has caught 2 bloodsuckers it is
        # destroyed. Return it and the bloodsuckers to the supply."
        trap[1] += 1
        if trap[1] >= 2:
            self.remove_trap(trap)
            self.supply += trap[1]

    def key(self) -> tuple[Any, ...]:
        return (
            tuple(sorted((n, c) for n, c in self.free.items() if c)),
            tuple(sorted((n, c, d) for n, c, d, _ in self.traps)),
            self.supply,
            self.removed,
            self.tokens,
            self.doppelganger_tokens,
        )

    def result(self, distress: dict[str, int], nightmares: tuple[str, ...]) -> Result:
        return Result(
            bloodsuckers=tuple(sorted((n, c) for n, c in self.free.items() if c)),
            traps=tuple(sorted(Trap(n, c, d) for n, c, d, _ in self.traps)),
            supply=self.supply,
            removed_from_play=self.removed,
            distress=tuple(sorted(distress.items())),
            nightmares=nightmares,
            trap_tokens=self.tokens,
        )


def kinds(traps: list[list[Any]]) -> list[list[Any]]:
    """One trap of each kind among ``traps`` (caught, doppelganger), in that order.

    Traps of one kind on a node are alike: which of them a bloodsucker enters, or an
    explorer destroys, changes nothing.
    """
    first: dict[tuple[int, bool], list[Any]] = {}
    for t in sorted(traps, key=lambda t: (t[1], t[2], t[3])):
        first.setdefault((t[1], t[2]), t)
    return list(first.values())


def trap_of(trap: list[Any]) -> Trap:
    return Trap(trap[0], trap[1], trap[2])


def enter_trap(
    table: Table,
    node: str,
    key: str,
    who: str,
    readings: Readings,
    picks: Mapping[str, int],
    decisions: list[Decision],
) -> None:
    """A bloodsucker caught on ``node``: into the node's trap, or the one picked of several.

    Traps: "If a bloodsucker moves onto a node with a trap, it is instantly trapped ...;
    place it on the trap token." With traps of different kinds on the node the rules do
    not say which (``kaelyfos/which-trap``): a choice, listed in the order of :func:`kinds`.
    """
    options = kinds(table.traps_at(node))
    if len(options) > 1:
        decisions.append(
            Decision(
                key,
                WHICH_TRAP,
                f"{who} is caught on {node}: which of its traps takes it "
                f"({', '.join(trap_of(t).words() for t in options)})",
                tuple(f"into {trap_of(t).words()}" for t in options),
                crew=readings(WHICH_TRAP) == "crew",
            )
        )
    table.catch(options[pick(picks, key, len(options))])


def pick(picks: Mapping[str, int], key: str, options: int) -> int:
    """The option picked for decision ``key``: the first unless a valid other is asked for.

    A pick is made against the first-option run; where the same key meets a different
    set of options (another order of moves), the first option stands.
    """
    pick = picks.get(key, 0)
    return pick if 0 <= pick < options else 0
