"""Shortest-path distances on a board where some nodes may not be entered.

A rule point may close nodes to bloodsuckers (the Scarab, face-down cards).
A closed node is never entered, so paths cannot run through it or end on it;
a bloodsucker standing on one can still leave it. Tables are computed once
per board and closed set and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ruleslawyer.graphs.board import Board, graph

INF = 10**9


@dataclass(frozen=True)
class Distances:
    """``dist[u][v]``: fewest steps from ``u`` to ``v`` entering no closed node (``INF``: none)."""

    closed: frozenset[str]
    dist: dict[str, dict[str, int]]
    neighbours: dict[str, tuple[str, ...]]  # open neighbours, in board order

    def __hash__(self) -> int:
        return hash(self.closed)

    def between(self, u: str, v: str) -> int:
        return self.dist[u][v]


@cache
def distances(board: Board, closed: frozenset[str]) -> Distances:
    """Distances for ``board`` with ``closed`` nodes shut (see the module docstring)."""
    import networkx as nx

    g = graph(board)
    order = {n: i for i, n in enumerate(board.node_ids)}
    open_graph = g.subgraph([n for n in g.nodes if n not in closed])
    inner = dict(nx.all_pairs_shortest_path_length(open_graph))
    neighbours = {
        u: tuple(sorted((v for v in g.neighbors(u) if v not in closed), key=order.__getitem__))
        for u in g.nodes
    }
    dist: dict[str, dict[str, int]] = {}
    for u in board.node_ids:
        if u not in closed:
            dist[u] = {v: inner[u].get(v, INF) for v in board.node_ids}
        else:
            row = {v: INF for v in board.node_ids}
            row[u] = 0
            for n in neighbours[u]:
                for v, d in inner[n].items():
                    row[v] = min(row[v], d + 1)
            dist[u] = row
    return Distances(closed, dist, neighbours)


@cache
def same_from(board: Board, tables: tuple[Distances, ...], here: str) -> bool:
    """Whether every table gives ``here`` and its neighbours the same distances and exits.

    When they do, a step from ``here`` cannot depend on which table is in force.
    """
    first = tables[0]
    around = (here, *graph(board).neighbors(here))
    return all(
        t.neighbours[here] == first.neighbours[here]
        and all(t.dist[u] == first.dist[u] for u in around)
        for t in tables[1:]
    )
