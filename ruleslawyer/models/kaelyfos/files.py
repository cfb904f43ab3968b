"""Kaelyfos position files (the ``step`` command's input) and the built-in board.

A position file names its board (a built-in id, or a path relative to the
position file), deals the nests, places explorers, bloodsuckers and traps, and
gives the behaviour card to resolve. Malformed or inconsistent files raise
:class:`~ruleslawyer.errors.InputError` naming the file, the place, what was
found and what was expected.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from ruleslawyer.errors import InputError
from ruleslawyer.gamefiles import tomlwriter
from ruleslawyer.gamefiles.kinds import require_kind
from ruleslawyer.gamefiles.schema import StrictModel
from ruleslawyer.gamefiles.source import read_reference, read_toml, validate
from ruleslawyer.graphs.board import (
    MAX_BEHAVIORS,
    MAX_EXPLORERS,
    MAX_MOVE,
    MAX_SPACE,
    MAX_SPAWNS,
    MAX_SUPPLY,
    MAX_TRAP_TOKENS,
    NEST_LETTERS,
    Board,
    parse_board,
    require_sizes,
    require_sound,
)
from ruleslawyer.models.kaelyfos.resolve import Action, Card, Position, Trap
from ruleslawyer.models.kaelyfos.timeline import Timeline, most_revealed

BUILT_IN = "kaelyfos"
MAX_ACTIONS = 10


class TrapSpec(StrictModel):
    node: str
    caught: int = Field(default=0, ge=0, le=1)
    doppelganger: bool = False


class ActionSpec(StrictModel):
    action: Literal["build", "destroy"]
    by: str


class CardSpec(StrictModel):
    spawn: list[Literal["A", "B", "C"]] = Field(max_length=MAX_SPAWNS)
    move: int = Field(ge=0, le=MAX_MOVE)


class PositionSpec(StrictModel):
    board: str = BUILT_IN
    nests: dict[str, str]
    supply: int = Field(ge=0, le=MAX_SUPPLY)
    explorers: dict[str, str] = Field(default={}, max_length=MAX_EXPLORERS)
    bloodsuckers: dict[str, int] = {}
    traps: list[TrapSpec] = []
    removed_from_play: int = Field(default=0, ge=0, le=MAX_SUPPLY)
    trap_tokens: int | None = Field(default=None, ge=0, le=MAX_TRAP_TOKENS)
    turn: str | None = None
    nightmares: list[str] = Field(default=[], max_length=MAX_EXPLORERS)
    actions: list[ActionSpec] = Field(default=[], max_length=MAX_ACTIONS)
    card: CardSpec
    rulings: dict[str, str] = {}


@dataclass(frozen=True)
class PositionFile:
    """A parsed position file: the position, how it names its board, and its rulings."""

    position: Position
    board_ref: str = BUILT_IN
    rulings: tuple[tuple[str, str], ...] = ()


def load_board(ref: str, relative_to: Path | None = None, referrer: str = "") -> tuple[Board, str]:
    """A board by built-in id or path: relative paths resolve next to ``relative_to``, the
    folder of ``referrer``, the file whose ``board`` key names it (without one, a
    command-line argument). Returned with the name it is shown by."""
    display, doc = read_reference(
        ref,
        referrer=referrer,
        key="board",
        folder=relative_to,
        noun="board",
        tables="[[node]] and [[edge]]",
        built_in=(BUILT_IN, "kaelyfos.toml"),
    )
    return require_sound(parse_board(doc, display), display), display


def load_position(path: str | Path) -> PositionFile:
    """Read, validate and check a position file."""
    path = Path(path)
    _, doc = read_toml(path, display=str(path))
    require_kind(doc, str(path), "a Kaelyfos position")
    return parse_position(doc, str(path), path.parent)


def parse_position(doc: Mapping[str, Any], source: str, folder: Path) -> PositionFile:
    require_sizes(
        doc,
        source,
        {"explorers": (MAX_EXPLORERS, "explorers"), "actions": (MAX_ACTIONS, "actions")},
    )
    card = doc.get("card")
    if isinstance(card, Mapping):
        require_sizes(card, source, {"spawn": (MAX_SPAWNS, "spawns")}, "card.")
    spec = validate(PositionSpec, doc, source)
    board, _ = load_board(spec.board, folder, source)
    nodes = set(board.node_ids)

    def known(place: str, node: str) -> str:
        if node not in nodes:
            raise InputError(source, place, node, f"a node of {board.name}")
        return node

    if set(spec.nests) != set(NEST_LETTERS):
        raise InputError(source, "nests", sorted(spec.nests), "exactly the nests A, B and C")
    for letter, node in spec.nests.items():
        if known(f"nests.{letter}", node) not in board.nest_sites:
            raise InputError(
                source, f"nests.{letter}", node, f"a nest site ({', '.join(board.nest_sites)})"
            )
    if len(set(spec.nests.values())) != 3:
        raise InputError(source, "nests", spec.nests, "the three nests on three different sites")
    for name, node in spec.explorers.items():
        # Quick Setup: "Place the crew on the Scarab"; the environment cards are placed
        # "face-down as shown" and no rule of the model puts an explorer on one unrevealed.
        if not board.node(known(f"explorers.{name}", node)).revealed:
            raise InputError(
                source,
                f"explorers.{name}",
                node,
                "a face-up card (no rule puts an explorer on a face-down card)",
            )
    for node, count in spec.bloodsuckers.items():
        known(f"bloodsuckers.{node}", node)
        if count < 0:
            raise InputError(source, f"bloodsuckers.{node}", count, "a count >= 0")
    per_node = Counter(known(f"traps[{i}].node", t.node) for i, t in enumerate(spec.traps))
    for i, t in enumerate(spec.traps):
        if not board.node(t.node).revealed:
            raise InputError(
                source,
                f"traps[{i}].node",
                t.node,
                "a face-up card (a trap is built by an explorer on its node)",
            )
        if per_node[t.node] > board.node(t.node).build_sites:
            raise InputError(
                source,
                f"traps[{i}].node",
                t.node,
                f"at most {board.node(t.node).build_sites} trap(s) there (its build sites)",
            )
    for place, name in [("turn", spec.turn)] + [
        (f"nightmares[{i}]", e) for i, e in enumerate(spec.nightmares)
    ]:
        if name is not None and name not in spec.explorers:
            raise InputError(source, place, name, "the name of an explorer of this position")
    traps = tuple(Trap(t.node, t.caught, t.doppelganger) for t in spec.traps)
    _check_tokens(board, traps, spec.trap_tokens, source)
    for i, a in enumerate(spec.actions):
        _check_action(board, spec, i, a, source)
    position = Position(
        board=board,
        nests=tuple(sorted(spec.nests.items())),
        supply=spec.supply,
        card=Card(tuple(spec.card.spawn), spec.card.move),
        explorers=tuple(sorted(spec.explorers.items())),
        bloodsuckers=tuple(sorted((n, c) for n, c in spec.bloodsuckers.items() if c)),
        traps=traps,
        removed_from_play=spec.removed_from_play,
        trap_tokens=spec.trap_tokens,
        turn=spec.turn,
        had_nightmare=tuple(sorted(set(spec.nightmares))),
        actions=tuple(Action(a.action, a.by) for a in spec.actions),
    )
    if position.markers() > board.supply:
        raise InputError(
            source,
            "supply",
            f"{position.markers()} black markers (supply, board, traps and out of play)",
            f"at most the board's {board.supply}",
        )
    return PositionFile(position, spec.board, tuple(sorted(spec.rulings.items())))


def _check_tokens(
    board: Board, traps: tuple[Trap, ...], available: int | None, source: str
) -> None:
    placed = sum(not t.doppelganger for t in traps)
    if placed + (available or 0) > board.trap_tokens:
        raise InputError(
            source,
            "trap_tokens" if available else "traps",
            f"{placed} trap(s) on the board and {available or 0} available",
            f"at most the board's {board.trap_tokens} trap tokens",
        )
    doppelgangers = sum(t.doppelganger for t in traps)
    if doppelgangers > board.doppelganger_trap_tokens:
        raise InputError(
            source,
            "traps",
            f"{doppelgangers} doppelganger trap(s)",
            f"at most the board's {board.doppelganger_trap_tokens} doppelganger trap tokens",
        )


def _check_action(board: Board, spec: PositionSpec, i: int, a: ActionSpec, source: str) -> None:
    """An action names an explorer; build needs a build site, destroy a trap (at the start)."""
    node = spec.explorers.get(a.by)
    if node is None:
        raise InputError(source, f"actions[{i}].by", a.by, "the name of an explorer")
    if a.action == "build" and (node == board.scarab or not board.node(node).build_sites):
        raise InputError(
            source,
            f"actions[{i}].by",
            f"{a.by} on {node}",
            "an explorer on a node with build sites",
        )
    if a.action == "destroy" and not any(t.node == node for t in spec.traps):
        raise InputError(
            source, f"actions[{i}].by", f"{a.by} on {node}", "an explorer on a node with a trap"
        )


class TimelineSpec(StrictModel):
    board: str = BUILT_IN
    marker: int = Field(ge=0, le=MAX_SPACE)
    advance: int = Field(ge=0, le=MAX_SPACE)
    deck: list[str] = Field(max_length=MAX_BEHAVIORS)
    revealed: list[str] = Field(default=[], max_length=MAX_BEHAVIORS)
    rulings: dict[str, str] = {}


@dataclass(frozen=True)
class TimelineFile:
    timeline: Timeline
    board: Board
    rulings: tuple[tuple[str, str], ...] = ()


def load_timeline(path: str | Path) -> TimelineFile:
    """Read and check a timeline file (the ``advance`` command's input)."""
    path = Path(path)
    _, doc = read_toml(path, display=str(path))
    require_kind(doc, str(path), "a Kaelyfos timeline")
    return parse_timeline(doc, str(path), path.parent)


def parse_timeline(doc: Mapping[str, Any], source: str, folder: Path) -> TimelineFile:
    """The deck and revealed cards are the board's behaviour cards, each at most once."""
    spec = validate(TimelineSpec, doc, source)
    board, _ = load_board(spec.board, folder, source)
    printed = Counter(b.name for b in board.behaviors)
    used: Counter[str] = Counter()
    for place, names in (("deck", spec.deck), ("revealed", spec.revealed)):
        for i, name in enumerate(names):
            used[name] += 1
            if used[name] > printed[name]:
                raise InputError(
                    source,
                    f"{place}[{i}]",
                    name,
                    f"a behaviour card of the board not already listed "
                    f"({', '.join(printed) or 'the board has none'})",
                )
    most = most_revealed(spec.marker, board.triggers)
    if len(spec.revealed) > most:
        raise InputError(
            source,
            "revealed",
            f"{len(spec.revealed)} card(s) with the marker on {spec.marker}",
            f"at most {most}: a card is revealed only when the marker reaches a trigger "
            f"(triggers on {', '.join(map(str, board.triggers)) or 'no space'})",
        )
    timeline = Timeline(
        spec.marker, spec.advance, tuple(spec.deck), tuple(spec.revealed), board.triggers
    )
    return TimelineFile(timeline, board, tuple(sorted(spec.rulings.items())))


def position_document(position: Position, board_ref: str = BUILT_IN) -> dict[str, Any]:
    """A position as the JSON-able document a position file holds (witnesses use it too)."""
    doc: dict[str, Any] = {
        "board": board_ref,
        "nests": dict(position.nests),
        "supply": position.supply,
        "explorers": dict(position.explorers),
        "bloodsuckers": dict(position.bloodsuckers),
        "traps": [t.to_json() for t in position.traps],
    }
    if position.removed_from_play:
        doc["removed_from_play"] = position.removed_from_play
    if position.trap_tokens is not None:
        doc["trap_tokens"] = position.trap_tokens
    if position.turn is not None:
        doc["turn"] = position.turn
    if position.had_nightmare:
        doc["nightmares"] = list(position.had_nightmare)
    if position.actions:
        doc["actions"] = [{"action": a.kind, "by": a.explorer} for a in position.actions]
    doc["card"] = {"spawn": list(position.card.spawn), "move": position.card.move}
    return doc


def dump_position(file: PositionFile) -> str:
    """TOML text that :func:`load_position` reads back to an equal :class:`PositionFile`."""
    doc = position_document(file.position, file.board_ref)
    card = doc.pop("card")
    tables = {"card": card}
    if file.rulings:
        tables["rulings"] = dict(file.rulings)
    return tomlwriter.dumps(doc, tables=tables)
