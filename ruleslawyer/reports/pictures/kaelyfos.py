"""Kaelyfos pictures: the board by halves, and each witness drawn under each reading.

Layout is deterministic: the exterior half on the left, the interior half on
the right, each node in a column by its distance from its half's orifice and
in a row by id. Columns are as wide as their widest label (node name, or the
explorers drawn above a node), rows leave room for the pieces around a node,
so no two labels collide (tests check the label boxes). Edges show their
pheromone dots at each exit. Under each panel, the counters off the board
(supply, removed from play, trap tokens, distress, nightmares); a counter that
differs between the readings' panels is drawn bold in red. Every text is at
least 12 px, so a page 1280 px wide shows it readably.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import networkx as nx

from ruleslawyer.designer.checking import GameResult
from ruleslawyer.gamefiles.source import GameSource
from ruleslawyer.graphs.board import Board, parse_board
from ruleslawyer.reports.svg import Picture, text_width

FILL = {"exterior": "#f2e3c6", "interior": "#f4c9d0"}
NAME_SIZE, PIECE_SIZE = 12, 12  # font sizes: node names; explorer names
ROW = 90.0  # vertical pitch: explorers above a node, its name below
BODY = 70.0  # a node with its trap (left) and bloodsuckers (right)
GAP = 16.0  # between the widest labels of neighbouring columns
TOP, BOTTOM, SIDE = 58.0, 40.0, 12.0
LEGEND = (
    "exterior | interior;  • pheromone dots at an exit;  dashed: face-down",
    "black: bloodsuckers;  blue: explorers;  red square: trap (caught)",
    "under each panel: the counters off the board; red: differs between readings",
)
LEGEND_SIZE = 12
COUNTER_SIZE, COUNTER_LINE = 12, 18.0
PARTS = "#c00000"  # a counter that differs between the readings
COUNTERS = (
    ("supply", "supply"),
    ("removed_from_play", "removed from play"),
    ("trap_tokens", "trap tokens"),
)


def explorer_label(names: Sequence[str]) -> str:
    return " ".join(sorted(names))


def layout(
    board: Board, above: Mapping[str, str] | None = None, min_width: float = 0.0
) -> tuple[dict[str, tuple[float, float]], float, float]:
    """Node -> (x, y) in a panel, and the panel's width and height.

    ``above`` maps a node to the widest text drawn over it in any panel (explorers),
    so columns make room for it too; the panel is at least ``min_width`` wide (its title).
    """
    above = above or {}
    g = nx.Graph()
    g.add_nodes_from(board.node_ids)
    g.add_edges_from((e.a, e.b) for e in board.edges)
    halves: list[list[list[str]]] = []
    for side in ("exterior", "interior"):
        members = [n.id for n in board.nodes if n.side == side]
        roots = [n.id for n in board.nodes if n.side == side and n.orifice] or members[:1]
        depth = nx.multi_source_dijkstra_path_length(g.subgraph(members), roots) if roots else {}
        far = max(depth.values(), default=0) + 1
        columns: dict[int, list[str]] = {}
        for node in sorted(members):
            columns.setdefault(int(depth.get(node, far)), []).append(node)
        ordered = [columns[c] for c in sorted(columns)]
        # The exterior's orifice column is its rightmost, the interior's its leftmost.
        halves.append(ordered[::-1] if side == "exterior" else ordered)
    rows = max((len(col) for half in halves for col in half), default=1)
    places: dict[str, tuple[float, float]] = {}
    x = SIDE
    for half in halves:
        for col in half:
            width = max(
                BODY,
                *(text_width(node, NAME_SIZE) for node in col),
                *(text_width(above.get(node, ""), PIECE_SIZE) for node in col),
            )
            for row, node in enumerate(col):
                offset = (rows - len(col)) * ROW / 2
                places[node] = (x + width / 2, TOP + offset + row * ROW)
            x += width + GAP
        x += GAP  # the two halves apart
    width = x - 2 * GAP + SIDE
    if width < min_width:  # centre the board in a wider panel
        places = {n: (px + (min_width - width) / 2, py) for n, (px, py) in places.items()}
        width = min_width
    return places, width, TOP + (rows - 1) * ROW + BOTTOM


def _label(pic: Picture, x: float, y: float, words: str, size: int, **attrs: object) -> None:
    """Text with a white halo, so edges drawn under it do not hide it."""
    pic.text(
        x,
        y,
        words,
        font_size=size,
        text_anchor="middle",
        stroke="#fff",
        stroke_width=3,
        paint_order="stroke",
        **attrs,
    )


def _panel(
    pic: Picture,
    board: Board,
    places: Mapping[str, tuple[float, float]],
    box: tuple[float, float, float],
    title: str,
    state: Mapping[str, Any],
    parting: frozenset[str] = frozenset(),
) -> None:
    dy, width, height = box
    places = {node: (x, y + dy) for node, (x, y) in places.items()}
    pic.rect(2, dy + 2, width - 4, height - 4, fill="none", stroke="#999")
    pic.text(10, dy + 20, title, font_weight="bold")
    exterior = [x for n in board.nodes if n.side == "exterior" for x, _ in [places[n.id]]]
    interior = [x for n in board.nodes if n.side == "interior" for x, _ in [places[n.id]]]
    if exterior and interior:  # the line between the halves
        middle = (max(exterior) + min(interior)) / 2
        bottom = dy + height - 8 - COUNTER_LINE * len(counter_lines(state, width - 20))
        pic.line(middle, dy + 28, middle, bottom, stroke="#bbb", stroke_dasharray="4 4")
    explorers: dict[str, list[str]] = {}
    for name, node in state.get("explorers", {}).items():
        explorers.setdefault(node, []).append(name)
    pieces = {
        *(t["node"] for t in state.get("traps", [])),
        *(n for n, count in state.get("bloodsuckers", {}).items() if count),
    }
    labels = _label_boxes(board, places, explorers, pieces)
    for edge in board.edges:
        (x1, y1), (x2, y2) = places[edge.a], places[edge.b]
        pic.line(x1, y1, x2, y2, stroke="#555", stroke_width=2)
        for (xa, ya), (xb, yb), dots in (
            ((x1, y1), (x2, y2), edge.dots[0]),
            ((x2, y2), (x1, y1), edge.dots[1]),
        ):
            for cx, cy in _dots((xa, ya), (xb, yb), dots, labels):
                pic.circle(cx, cy, 2, fill="#b03060")
    nests = {node: letter for letter, node in state.get("nests", {}).items()}
    traps = {t["node"]: t["caught"] for t in state.get("traps", [])}
    for node in board.nodes:
        x, y = places[node.id]
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
        _label(pic, x, y + 30, node.id, NAME_SIZE, class_="node-name")
        if node.id in nests:
            pic.text(x, y + 5, nests[node.id], font_weight="bold", text_anchor="middle")
        if node.id in traps:
            pic.rect(x - 32, y - 8, 16, 16, fill="#fff", stroke="#c00")
            pic.text(
                x - 24,
                y + 4.5,
                str(traps[node.id]),
                font_size=12,
                fill="#c00",
                text_anchor="middle",
            )
        if node.id in explorers:
            names = sorted(explorers[node.id])
            for i in range(len(names)):
                pic.circle(x + (i - (len(names) - 1) / 2) * 11, y - 21, 4, fill="#1f77b4")
            _label(
                pic,
                x,
                y - 29,
                explorer_label(names),
                PIECE_SIZE,
                fill="#1f77b4",
                class_="explorers",
            )
        count = state.get("bloodsuckers", {}).get(node.id)
        if count:
            pic.circle(x + 25, y, 9, fill="#111")
            pic.text(x + 25, y + 4.5, str(count), font_size=12, fill="#fff", text_anchor="middle")
    for i, line in enumerate(counter_lines(state, width - 20)):
        x = 10.0
        for key, words in line:
            bold = key in parting
            pic.text(
                x,
                dy + height - 10 - COUNTER_LINE * (len(counter_lines(state, width - 20)) - 1 - i),
                words,
                font_size=COUNTER_SIZE,
                font_weight="bold" if bold else None,
                fill=PARTS if bold else None,
                class_="counter",
            )
            x += text_width(words, COUNTER_SIZE, bold=bold) + 16


Box = tuple[float, float, float, float]  # left, top, right, bottom


def _label_boxes(
    board: Board,
    places: Mapping[str, tuple[float, float]],
    explorers: Mapping[str, list[str]],
    pieces: set[str],
) -> list[Box]:
    """The boxes of the node names, explorer labels, and the trap (left) and bloodsuckers
    (right) of the nodes in ``pieces`` that a panel draws (estimated widths)."""
    boxes = []
    for node in board.nodes:
        x, y = places[node.id]
        if node.id in pieces:
            boxes += [(x - 32, y - 9, x - 16, y + 9), (x + 16, y - 9, x + 34, y + 9)]
        half = text_width(node.id, NAME_SIZE) / 2
        boxes.append((x - half, y + 30 - NAME_SIZE, x + half, y + 34))
        if node.id in explorers:
            half = text_width(explorer_label(sorted(explorers[node.id])), PIECE_SIZE) / 2
            boxes.append((x - half, y - 29 - PIECE_SIZE, x + half, y - 17))
    return boxes


def _dots(
    start: tuple[float, float], end: tuple[float, float], dots: int, labels: Sequence[Box]
) -> list[tuple[float, float]]:
    """Where an exit's pheromone dots go: just past the node's circle, a little off the
    line, one after another along it; further along where a label would cover them."""
    (xa, ya), (xb, yb) = start, end
    length = max(((xb - xa) ** 2 + (yb - ya) ** 2) ** 0.5, 1.0)
    ux, uy = (xb - xa) / length, (yb - ya) / length

    def at(d: float) -> list[tuple[float, float]]:
        return [
            (xa + ux * (d + 5 * k) - uy * 6, ya + uy * (d + 5 * k) + ux * 6) for k in range(dots)
        ]

    def clear(points: list[tuple[float, float]]) -> bool:
        return not any(
            x + 3 > left and x - 3 < right and y + 3 > top and y - 3 < bottom
            for x, y in points
            for left, top, right, bottom in labels
        )

    d = 24.0
    while d + 5 * dots < length - 16 and not clear(at(d)):
        d += 4
    return at(d) if clear(at(d)) else at(24.0)


def counters(state: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The counters off the board in ``state``: (key, words), in a fixed order."""
    out = [(key, f"{label} {state[key]}") for key, label in COUNTERS if key in state]
    if "distress" in state:
        given = ", ".join(f"{who} {n}" for who, n in sorted(state["distress"].items()))
        out.append(("distress", f"distress: {given or 'none'}"))
    if "nightmares" in state:
        out.append(("nightmares", f"nightmares: {', '.join(state['nightmares']) or 'none'}"))
    return out


def counter_lines(state: Mapping[str, Any], width: float) -> list[list[tuple[str, str]]]:
    """The counters packed into lines no wider than ``width``."""
    lines: list[list[tuple[str, str]]] = []
    used = width
    for key, words in counters(state):
        w = text_width(words, COUNTER_SIZE, bold=True) + 16
        if used + w > width and (not lines or lines[-1]):
            lines.append([])
            used = 0.0
        lines[-1].append((key, words))
        used += w
    return lines


def parting_counters(states: Sequence[Mapping[str, Any]]) -> frozenset[str]:
    """The counters whose values differ between ``states`` (the readings' ends)."""
    keys = {key for state in states for key, _ in counters(state)}
    return frozenset(k for k in keys if len({repr(state.get(k)) for state in states}) > 1)


def board_picture(board: Board, title: str, panels: list[tuple[str, Mapping[str, Any]]]) -> str:
    above: dict[str, str] = {}
    for _, state in panels:
        here: dict[str, list[str]] = {}
        for name, node in state.get("explorers", {}).items():
            here.setdefault(node, []).append(name)
        for node, names in here.items():
            label = explorer_label(names)
            if len(label) > len(above.get(node, "")):
                above[node] = label
    titles = [text_width(caption, 12, bold=True) + 20 for caption, _ in panels]
    legend = max(text_width(line, LEGEND_SIZE) for line in LEGEND) + 16
    places, width, height = layout(board, above, max([*titles, legend]))
    lines = max(len(counter_lines(state, width - 20)) for _, state in panels)
    height += COUNTER_LINE * lines
    parting = parting_counters([state for _, state in panels[1:]])
    # Panels one under another, so a page as wide as one board shows each at full size.
    pic = Picture(width, height * len(panels) + 10 + 18 * len(LEGEND), title)
    for i, (caption, state) in enumerate(panels):
        shown = parting if i else frozenset()  # the readings' panels, not the position
        _panel(pic, board, places, (i * height, width, height), caption, state, shown)
    bottom = height * len(panels)
    for i, line in enumerate(LEGEND):
        pic.text(8, bottom + 16 + 18 * i, line, font_size=LEGEND_SIZE)
    return pic.render()


def pictures(source: GameSource, result: GameResult) -> list[tuple[str, str, str, str | None]]:
    board = parse_board(source.document, source.display)
    out: list[tuple[str, str, str, str | None]] = [
        (
            "board",
            f"The board of {result.source}",
            board_picture(board, board.name, [("board", {})]),
            None,
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
            "Top: the position; then the end of the step under each reading."
        )
        out.append((name, caption, board_picture(board, f.id, panels), f.id))
    return out
