"""Kaelyfos board files: parse, validate, check the structural rules, build the graph.

A board file is TOML: ``[[node]]`` environment cards, ``[[edge]]`` adjacencies
with the pheromone dots on each end, ``[[behavior]]`` bloodsucker behaviour
cards and the ``supply`` of black markers. Malformed files (wrong types,
unknown keys) raise :class:`~ruleslawyer.errors.InputError`; a well-formed
file that breaks a structural rule of the rulebook yields :class:`Problem`
objects, which checks report as ``data-error`` findings and the ``step``
command refuses as bad input.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from ruleslawyer.errors import InputError
from ruleslawyer.gamefiles import tomlwriter
from ruleslawyer.gamefiles.schema import StrictModel
from ruleslawyer.gamefiles.source import validate

if TYPE_CHECKING:
    import networkx as nx

NEST_LETTERS = ("A", "B", "C")
# Limits a board file may not pass (bad input beyond them: one line, exit 2). Chosen so
# that a check of the largest board reaches its first budget test within a second
# (setup is linear in the board; distances are computed per node on demand).
MAX_NODES = 200
MAX_EDGES = 1000
MAX_SUPPLY = 30
MAX_EXPLORERS = 4
MAX_TRAP_TOKENS = 20
MAX_BEHAVIORS = 100
MAX_SPAWNS = 20
MAX_MOVE = 1000
MAX_TRIGGERS = 20
MAX_SPACE = 100  # timeline spaces: triggers, the marker and an advance
# The number of trap tokens is not in the rulebook (FACTS.md): a board file names it,
# else this placeholder applies (doppelganger trap tokens: none unless named).
DEFAULT_TRAP_TOKENS = 2
Side = Literal["exterior", "interior"]


class NodeSpec(StrictModel):
    id: str = Field(min_length=1)
    side: Side
    scarab: bool = False
    orifice: bool = False
    build_sites: int = Field(default=0, ge=0)
    nest_site: bool = False
    revealed: bool = True


class EdgeSpec(StrictModel):
    between: list[str] = Field(min_length=2, max_length=2)
    dots: list[int] = Field(default=[0, 0], min_length=2, max_length=2)


class BehaviorSpec(StrictModel):
    name: str
    spawn: list[Literal["A", "B", "C"]] = Field(max_length=MAX_SPAWNS)
    move: int = Field(ge=0, le=MAX_MOVE)


class BoardSpec(StrictModel):
    game: Literal["kaelyfos"] | None = None
    name: str
    provenance: Literal["printed", "assumed", "placeholder"]
    supply: int = Field(ge=0, le=MAX_SUPPLY)
    trap_tokens: int = Field(default=DEFAULT_TRAP_TOKENS, ge=0, le=MAX_TRAP_TOKENS)
    doppelganger_trap_tokens: int = Field(default=0, ge=0, le=MAX_TRAP_TOKENS)
    # Quick Setup: "Place the red-triangle trigger tokens on the 3rd and 6th spaces of the
    # timeline."
    triggers: list[Annotated[int, Field(ge=1, le=MAX_SPACE)]] = Field(
        default=[3, 6], max_length=MAX_TRIGGERS
    )
    node: list[NodeSpec] = Field(max_length=MAX_NODES)
    edge: list[EdgeSpec] = Field(default=[], max_length=MAX_EDGES)
    behavior: list[BehaviorSpec] = Field(default=[], max_length=MAX_BEHAVIORS)
    rulings: dict[str, str] = {}


@dataclass(frozen=True)
class Node:
    """One environment card (or the Scarab)."""

    id: str
    side: Side
    scarab: bool = False
    orifice: bool = False
    build_sites: int = 0
    nest_site: bool = False
    revealed: bool = True


@dataclass(frozen=True)
class Edge:
    """An adjacency; ``dots`` are the pheromone dots on ``a``'s exit toward ``b``, and back."""

    a: str
    b: str
    dots: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class Behavior:
    """A bloodsucker behaviour card: the nests it spawns on, in order, and how far they move."""

    name: str
    spawn: tuple[str, ...]
    move: int


@dataclass(frozen=True)
class Board:
    name: str
    provenance: str
    supply: int
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...] = ()
    behaviors: tuple[Behavior, ...] = ()
    rulings: tuple[tuple[str, str], ...] = ()
    trap_tokens: int = DEFAULT_TRAP_TOKENS
    doppelganger_trap_tokens: int = 0
    triggers: tuple[int, ...] = (3, 6)

    def __hash__(self) -> int:
        # Boards key the caches of every search step: hash the nested tuples once.
        cached = self.__dict__.get("_hash")
        if cached is None:
            fields = (self.name, self.provenance, self.supply, self.nodes, self.edges)
            tokens = (self.trap_tokens, self.doppelganger_trap_tokens, self.triggers)
            cached = hash((*fields, self.behaviors, self.rulings, tokens))
            object.__setattr__(self, "_hash", cached)
        return cached

    @cached_property
    def node_ids(self) -> tuple[str, ...]:
        return tuple(n.id for n in self.nodes)

    def node(self, node_id: str) -> Node:
        return _index(self)[node_id]

    @property
    def scarab(self) -> str | None:
        return next((n.id for n in self.nodes if n.scarab), None)

    @property
    def nest_sites(self) -> tuple[str, ...]:
        return tuple(n.id for n in self.nodes if n.nest_site)


@cache
def _index(board: Board) -> dict[str, Node]:
    return {n.id: n for n in board.nodes}


def require_sizes(
    document: Mapping[str, Any],
    source: str,
    limits: Mapping[str, tuple[int, str]],
    prefix: str = "",
) -> None:
    """Refuse a list or table longer than its limit, naming its length, not its content."""
    for key, (limit, what) in limits.items():
        value = document.get(key)
        if isinstance(value, (list, dict)) and len(value) > limit:
            place = f"{prefix}{key}"
            raise InputError(source, place, f"{len(value)} {what}", f"at most {limit} {what}")


BOARD_LIMITS = {
    "node": (MAX_NODES, "nodes"),
    "edge": (MAX_EDGES, "edges"),
    "behavior": (MAX_BEHAVIORS, "behaviour cards"),
}


def parse_board(document: Mapping[str, Any], source: str) -> Board:
    """Validate a parsed board document and build the :class:`Board` (structure unchecked)."""
    require_sizes(document, source, BOARD_LIMITS)
    spec = validate(BoardSpec, document, source)
    return Board(
        name=spec.name,
        provenance=spec.provenance,
        supply=spec.supply,
        nodes=tuple(Node(**n.model_dump()) for n in spec.node),
        edges=tuple(Edge(e.between[0], e.between[1], (e.dots[0], e.dots[1])) for e in spec.edge),
        behaviors=tuple(Behavior(b.name, tuple(b.spawn), b.move) for b in spec.behavior),
        rulings=tuple(spec.rulings.items()),
        trap_tokens=spec.trap_tokens,
        doppelganger_trap_tokens=spec.doppelganger_trap_tokens,
        triggers=tuple(sorted(set(spec.triggers))),
    )


def dump_board(board: Board, header: str = "") -> str:
    """TOML text that :func:`parse_board` reads back to an equal board."""
    top: dict[str, Any] = {
        "name": board.name,
        "provenance": board.provenance,
        "supply": board.supply,
        "trap_tokens": board.trap_tokens,
        "doppelganger_trap_tokens": board.doppelganger_trap_tokens,
        "triggers": list(board.triggers),
    }
    nodes = [
        {
            "id": n.id,
            "side": n.side,
            "scarab": n.scarab,
            "orifice": n.orifice,
            "build_sites": n.build_sites,
            "nest_site": n.nest_site,
            "revealed": n.revealed,
        }
        for n in board.nodes
    ]
    edges = [{"between": [e.a, e.b], "dots": list(e.dots)} for e in board.edges]
    behaviors = [{"name": b.name, "spawn": list(b.spawn), "move": b.move} for b in board.behaviors]
    return tomlwriter.dumps(
        top,
        tables={"rulings": dict(board.rulings)} if board.rulings else None,
        arrays={"node": nodes, "edge": edges, "behavior": behaviors},
        header=header,
    )


@dataclass(frozen=True)
class Problem:
    """A structural rule the board breaks: where, what was found, what the rulebook needs."""

    check: str
    title: str
    place: str
    found: str
    expected: str

    def error(self, source: str) -> InputError:
        return InputError(source, self.place, self.found, self.expected)


def problems(board: Board) -> list[Problem]:
    """Every structural rule of the rulebook that ``board`` breaks, in file order."""
    out: list[Problem] = []
    out += _duplicate_ids(board)
    out += _scarab(board)
    out += _nest_sites(board)
    out += _edges(board)
    out += _halves(board)
    if not out:
        out += _reachable(board)
    return out


def _duplicate_ids(board: Board) -> list[Problem]:
    seen: set[str] = set()
    out = []
    for i, node in enumerate(board.nodes):
        if node.id in seen:
            out.append(
                Problem(
                    "duplicate-id",
                    "Node ids are unique",
                    f"node[{i}].id",
                    node.id,
                    "a node id not used by an earlier node",
                )
            )
        seen.add(node.id)
    return out


def _scarab(board: Board) -> list[Problem]:
    # Quick Setup: "Place the Scarab, glowing fold, ... face-up as shown." One Scarab.
    scarabs = [i for i, n in enumerate(board.nodes) if n.scarab]
    if not scarabs:
        return [
            Problem(
                "one-scarab",
                "Exactly one Scarab",
                "node",
                "no Scarab",
                "one node with scarab = true",
            )
        ]
    return [
        Problem(
            "one-scarab",
            "Exactly one Scarab",
            f"node[{i}].scarab",
            f"a second Scarab ({board.nodes[i].id})",
            "one node with scarab = true",
        )
        for i in scarabs[1:]
    ]


def _nest_sites(board: Board) -> list[Problem]:
    # Quick Setup: "Randomly place a nest token on the vesicle cluster, bony protrusion,
    # and glowing fold." Three nests, three sites.
    sites = [i for i, n in enumerate(board.nodes) if n.nest_site]
    if len(sites) == 3:
        return []
    place = f"node[{sites[3]}].nest_site" if len(sites) > 3 else "node"
    return [
        Problem(
            "nest-sites",
            "Three nest sites",
            place,
            f"{len(sites)} nest sites",
            "exactly 3 nodes with nest_site = true (nests A, B, C)",
        )
    ]


def _edges(board: Board) -> list[Problem]:
    known = set(board.node_ids)
    seen: set[frozenset[str]] = set()
    out = []
    for i, edge in enumerate(board.edges):
        unknown = [x for x in (edge.a, edge.b) if x not in known]
        if unknown:
            out.append(
                Problem(
                    "unknown-node",
                    "Edges join known nodes",
                    f"edge[{i}].between",
                    unknown[0],
                    "the id of a [[node]]",
                )
            )
            continue
        pair = frozenset((edge.a, edge.b))
        if len(pair) == 1:
            out.append(
                Problem(
                    "self-edge",
                    "Edges join two nodes",
                    f"edge[{i}].between",
                    f"{edge.a} joined to itself",
                    "two different nodes",
                )
            )
        elif pair in seen:
            out.append(
                Problem(
                    "duplicate-edge",
                    "Each pair of nodes is joined once",
                    f"edge[{i}].between",
                    f"{edge.a} - {edge.b} again",
                    "one [[edge]] per pair of nodes",
                )
            )
        seen.add(pair)
        if min(edge.dots) < 0:
            out.append(
                Problem(
                    "negative-dots",
                    "Pheromone dots are counts",
                    f"edge[{i}].dots",
                    str(list(edge.dots)),
                    "dots >= 0",
                )
            )
    return out


def _halves(board: Board) -> list[Problem]:
    # Interior vs Exterior: "The only way to move between the two is by moving from one
    # "orifice" node to the other. All other nodes across the separation from each other
    # are not considered adjacent."
    by_id = {n.id: n for n in board.nodes}
    out = []
    for side in ("exterior", "interior"):
        at = [i for i, n in enumerate(board.nodes) if n.orifice and n.side == side]
        if len(at) != 1:
            out.append(
                Problem(
                    "orifices",
                    "One orifice on each half",
                    f"node[{at[1]}].orifice" if at else "node",
                    f"{len(at)} {side} orifice nodes",
                    f"exactly one {side} node with orifice = true",
                )
            )
    crossings = []
    for i, edge in enumerate(board.edges):
        a, b = by_id.get(edge.a), by_id.get(edge.b)
        if a is None or b is None or a.side == b.side:
            continue
        crossings.append(i)
        if not (a.orifice and b.orifice):
            out.append(
                Problem(
                    "halves",
                    "The halves meet only orifice to orifice",
                    f"edge[{i}].between",
                    f"{a.id} ({a.side}) - {b.id} ({b.side})",
                    "an edge across the halves only between the two orifices",
                )
            )
    if not crossings:
        out.append(
            Problem(
                "halves",
                "The halves meet only orifice to orifice",
                "edge",
                "no edge between the exterior and the interior",
                "one edge joining the exterior orifice to the interior orifice",
            )
        )
    return out


def _reachable(board: Board) -> list[Problem]:
    import networkx as nx

    g = graph(board)
    start = board.scarab
    if start is None:
        return []
    reached = nx.node_connected_component(g, start)
    return [
        Problem(
            "reachable",
            "Every node can be reached",
            f"node[{i}].id",
            n.id,
            "a node connected to the Scarab by edges",
        )
        for i, n in enumerate(board.nodes)
        if n.id not in reached
    ]


@cache
def graph(board: Board) -> nx.Graph:
    """The board as an undirected graph; edge attribute ``dots`` maps each end to its exit dots."""
    import networkx as nx

    g = nx.Graph()
    for node in board.nodes:
        g.add_node(node.id, spec=node)
    for edge in board.edges:
        g.add_edge(edge.a, edge.b, dots={edge.a: edge.dots[0], edge.b: edge.dots[1]})
    return g


def exit_dots(board: Board, here: str, there: str) -> int:
    """Pheromone dots on ``here``'s exit toward ``there``."""
    return int(graph(board).edges[here, there]["dots"][here])


def require_sound(board: Board, source: str) -> Board:
    """The board, or the first structural problem as an :class:`InputError`."""
    found = problems(board)
    if found:
        raise found[0].error(source)
    return board
