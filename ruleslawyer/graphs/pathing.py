"""Shortest-path distances on a board where some nodes may not be entered.

A rule point may close nodes to bloodsuckers (the Scarab, face-down cards).
A closed node is never entered, so paths cannot run through it or end on it;
a bloodsucker standing on one can still leave it. Each table is made once per
board and closed set; its rows are computed on demand, one breadth-first
search per node asked about, so a large board costs nothing before a step
needs it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from ruleslawyer.graphs.board import Board, graph

INF = 10**9


class Rows(Mapping[str, dict[str, int]]):
    """``rows[u][v]``: fewest steps from ``u`` to ``v``; each row computed when first read."""

    def __init__(
        self, order: tuple[str, ...], closed: frozenset[str], adjacent: dict[str, tuple[str, ...]]
    ) -> None:
        self._order = order
        self._closed = closed
        self._adjacent = adjacent  # open neighbours
        self._rows: dict[str, dict[str, int]] = {}

    def __getitem__(self, u: str) -> dict[str, int]:
        row = self._rows.get(u)
        if row is None:
            if u not in self._adjacent:
                raise KeyError(u)
            row = self._rows[u] = self._search(u)
        return row

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def _search(self, u: str) -> dict[str, int]:
        # A closed start is left but never entered: its open neighbours are at 1.
        row = dict.fromkeys(self._order, INF)
        row[u] = 0
        queue = deque([u])
        while queue:
            here = queue.popleft()
            for n in self._adjacent[here]:
                if row[n] == INF:
                    row[n] = row[here] + 1
                    queue.append(n)
        return row


@dataclass(frozen=True)
class Distances:
    """``dist[u][v]``: fewest steps from ``u`` to ``v`` entering no closed node (``INF``: none)."""

    closed: frozenset[str]
    dist: Mapping[str, dict[str, int]]
    neighbours: dict[str, tuple[str, ...]]  # open neighbours, in board order

    def __hash__(self) -> int:
        return hash(self.closed)

    def between(self, u: str, v: str) -> int:
        return self.dist[u][v]


@cache
def distances(board: Board, closed: frozenset[str]) -> Distances:
    """Distances for ``board`` with ``closed`` nodes shut (see the module docstring)."""
    g = graph(board)
    order = {n: i for i, n in enumerate(board.node_ids)}
    neighbours = {
        u: tuple(sorted((v for v in g.neighbors(u) if v not in closed), key=order.__getitem__))
        for u in board.node_ids
    }
    return Distances(closed, Rows(board.node_ids, closed, neighbours), neighbours)


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
