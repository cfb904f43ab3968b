"""Kaelyfos pictures: the board by halves, and each witness drawn under each reading.

Layout is deterministic: the exterior half on the left, the interior half on
the right, each node in a column by its distance from its half's orifice and
in a row by id. Edges show their pheromone dots at each exit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import networkx as nx

from ruleslawyer.checking import GameResult
from ruleslawyer.gamefiles import GameSource
from ruleslawyer.graphs.board import Board, parse_board
from ruleslawyer.reports.svg import Picture

PANEL_W, PANEL_H = 600.0, 360.0
FILL = {"exterior": "#f2e3c6", "interior": "#f4c9d0"}


def layout(board: Board) -> dict[str, tuple[float, float]]:
    """Node -> (x, y) inside a PANEL_W x PANEL_H panel."""
    g = nx.Graph()
    g.add_nodes_from(board.node_ids)
    g.add_edges_from((e.a, e.b) for e in board.edges)
    places: dict[str, tuple[float, float]] = {}
    for side, x_orifice, step in (("exterior", 0.40, -0.12), ("interior", 0.60, 0.12)):
        members = [n.id for n in board.nodes if n.side == side]
        half = g.subgraph(members)
        roots = [n.id for n in board.nodes if n.side == side and n.orifice] or members[:1]
        depth = nx.multi_source_dijkstra_path_length(half, roots) if roots else {}
        far = max(depth.values(), default=0) + 1
        columns: dict[int, list[str]] = {}
        for node in sorted(members):
            columns.setdefault(int(depth.get(node, far)), []).append(node)
        for col, nodes in columns.items():
            for row, node in enumerate(nodes):
                x = x_orifice + step * col
                y = (row + 1) / (len(nodes) + 1)
                places[node] = (20 + x * (PANEL_W - 40), 40 + y * (PANEL_H - 70))
    return places


def _panel(
    pic: Picture,
    board: Board,
    places: Mapping[str, tuple[float, float]],
    dx: float,
    title: str,
    state: Mapping[str, Any],
) -> None:
    pic.rect(dx + 2, 2, PANEL_W - 4, PANEL_H - 4, fill="none", stroke="#999")
    pic.text(dx + 10, 20, title, font_weight="bold")
    pic.line(
        dx + PANEL_W / 2, 28, dx + PANEL_W / 2, PANEL_H - 10, stroke="#bbb", stroke_dasharray="4 4"
    )
    for edge in board.edges:
        (x1, y1), (x2, y2) = places[edge.a], places[edge.b]
        pic.line(dx + x1, y1, dx + x2, y2, stroke="#555", stroke_width=2)
        for (xa, ya), (xb, yb), dots in (
            ((x1, y1), (x2, y2), edge.dots[0]),
            ((x2, y2), (x1, y1), edge.dots[1]),
        ):
            if dots:
                pic.text(
                    dx + xa + (xb - xa) * 0.3,
                    ya + (yb - ya) * 0.3 - 3,
                    "•" * dots,
                    fill="#b03060",
                    font_size=11,
                )
    nests = {node: letter for letter, node in state.get("nests", {}).items()}
    traps = {t["node"]: t["caught"] for t in state.get("traps", [])}
    for node in board.nodes:
        x, y = places[node.id]
        x += dx
        if node.scarab:
            pic.rect(x - 16, y - 12, 32, 24, fill="#9fc5e8", stroke="#333")
        else:
            pic.circle(
                x,
                y,
                14,
                fill=FILL[node.side],
                stroke="#333",
                stroke_dasharray=None if node.revealed else "3 3",
            )
        pic.text(x, y + 28, node.id, font_size=9, text_anchor="middle")
        if node.id in nests:
            pic.text(x - 4, y + 4, nests[node.id], font_weight="bold")
        if node.id in traps:
            pic.rect(x + 10, y - 22, 12, 12, fill="#fff", stroke="#c00")
            pic.text(x + 13, y - 12, str(traps[node.id]), font_size=9, fill="#c00")
    for i, (name, node) in enumerate(sorted(state.get("explorers", {}).items())):
        x, y = places[node]
        pic.circle(dx + x - 14 + 9 * i, y - 18, 5, fill="#1f77b4")
        pic.text(dx + x - 18 + 9 * i, y - 25, name[:3], font_size=8, fill="#1f77b4")
    for node, count in sorted(state.get("bloodsuckers", {}).items()):
        x, y = places[node]
        pic.circle(dx + x + 14, y + 12, 6, fill="#111")
        pic.text(dx + x + 11, y + 16, str(count), font_size=9, fill="#fff")


def board_picture(board: Board, title: str, panels: list[tuple[str, Mapping[str, Any]]]) -> str:
    places = layout(board)
    pic = Picture(PANEL_W * len(panels), PANEL_H + 20, title)
    for i, (caption, state) in enumerate(panels):
        _panel(pic, board, places, i * PANEL_W, caption, state)
    pic.text(
        8,
        PANEL_H + 14,
        "exterior | interior;  • pheromone dots at an exit;  "
        "black: bloodsuckers;  blue: explorers;  red square: trap (caught);  dashed: face-down",
        font_size=10,
    )
    return pic.render()


def pictures(source: GameSource, result: GameResult) -> list[tuple[str, str, str]]:
    board = parse_board(source.document, source.display)
    out = [
        (
            "board",
            f"The board of {result.source}",
            board_picture(board, board.name, [("board", {})]),
        )
    ]
    for f in result.findings:
        if f.witness is None:
            continue
        w = f.witness.to_json()
        start = w["position"]
        if "nests" not in start:
            continue  # a timeline witness (kaelyfos advance): nothing on the board to draw
        panels: list[tuple[str, Mapping[str, Any]]] = [("before", start)]
        for reading, end in w["results"].items():
            if isinstance(end, Mapping):
                panels.append(
                    (
                        reading,
                        {
                            **end,
                            "explorers": start.get("explorers", {}),
                            "nests": start.get("nests", {}),
                        },
                    )
                )
        name = f.id.split("/", 1)[1]
        caption = (
            f"{f.id}: {f.witness.description}. "
            "Left: the position; then the end of the step under each reading."
        )
        out.append((name, caption, board_picture(board, f.id, panels)))
    return out
