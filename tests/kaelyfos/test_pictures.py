"""Kaelyfos pictures, measured: no node name collides with another or leaves its picture.

Label boxes are estimated here with the layout's own generous width estimate
(``svg.text_width``); tests/test_report_browser.py measures the real boxes in
Chromium on the built-in board.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.graphs.board import Board
from ruleslawyer.reports.pictures.kaelyfos import board_picture
from ruleslawyer.reports.svg import text_width
from tests.kaelyfos.helpers import board as builtin_board
from tests.kaelyfos.test_random_boards import boards

NS = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float]  # left, top, right, bottom


def text_boxes(svg: str, *classes: str) -> list[tuple[str, Box]]:
    """Every text's estimated box (only those of ``classes``, where given)."""
    root = ET.fromstring(svg)
    out = []
    for t in root.iter(f"{NS}text"):
        if classes and t.get("class") not in classes:
            continue
        size = float(t.get("font-size", 12))
        width = text_width(t.text or "", size, bold=t.get("font-weight") == "bold")
        x, y = float(t.get("x", 0)), float(t.get("y", 0))
        left = {"middle": x - width / 2, "end": x - width}.get(t.get("text-anchor", ""), x)
        out.append((t.text or "", (left, y - size, left + width, y + 0.25 * size)))
    return out


def circles(svg: str) -> list[Box]:
    root = ET.fromstring(svg)
    return [
        (cx - r, cy - r, cx + r, cy + r)
        for c in root.iter(f"{NS}circle")
        for cx, cy, r in [(float(c.get("cx")), float(c.get("cy")), float(c.get("r")))]
    ]


def meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def assert_laid_out(svg: str) -> None:
    root = ET.fromstring(svg)
    width, height = float(root.get("width")), float(root.get("height"))
    for words, (left, top, right, bottom) in text_boxes(svg):
        assert left >= 0 and top >= 0 and right <= width and bottom <= height, (words, width)
    names = text_boxes(svg, "node-name", "explorers")
    assert names, "no node names drawn"
    for i, (a, box_a) in enumerate(names):
        for b, box_b in names[i + 1 :]:
            assert not meets(box_a, box_b), f"{a!r} and {b!r} overlap"
        for c in circles(svg):
            assert not meets(box_a, c), f"{a!r} covers a node or piece"


def test_overlap_check_catches_a_collision() -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50">'
        '<text class="node-name" x="50" y="30" font-size="10" text-anchor="middle">left-node</text>'
        '<text class="node-name" x="80" y="30" font-size="10" text-anchor="middle">right</text>'
        "</svg>"
    )
    try:
        assert_laid_out(svg)
    except AssertionError as exc:
        assert "overlap" in str(exc)
    else:
        raise AssertionError("two labels 30 px apart were not caught")


def test_builtin_board_and_a_crowded_witness() -> None:
    board = builtin_board()
    assert_laid_out(board_picture(board, board.name, [("board", {})]))
    # Every node holds explorers, bloodsuckers, a trap and (three of them) a nest.
    crowded = {
        "explorers": {f"explorer-{i}": node for i, node in enumerate(board.node_ids)},
        "bloodsuckers": dict.fromkeys(board.node_ids, 3),
        "traps": [{"node": n, "caught": 2} for n in board.node_ids],
        "nests": dict(zip("ABC", board.node_ids, strict=False)),
    }
    assert_laid_out(
        board_picture(board, "crowded", [("before", crowded), ("a-long-reading-name", crowded)])
    )


@settings(max_examples=25, deadline=None)
@given(board=boards(), data=st.data())
def test_random_boards_lay_out_without_collisions(board: Board, data) -> None:
    names = st.text("abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=14)
    explorers = data.draw(st.dictionaries(names, st.sampled_from(board.node_ids), max_size=4))
    assert_laid_out(
        board_picture(board, "random", [("board", {}), ("x", {"explorers": explorers})])
    )


def test_counters_off_the_board_are_drawn_and_the_parting_ones_marked() -> None:
    # attack-removal's two readings: the same board, one bloodsucker back in the supply or
    # removed from play. The pictures must differ, and the counters that part are red.
    board = builtin_board()
    start = {"explorers": {"ada": board.node_ids[0]}, "nests": {}, "supply": 6}
    end = {"bloodsuckers": {}, "traps": [], "trap_tokens": 2, "distress": {"ada": 1}}
    svg = board_picture(
        board,
        "attack-removal",
        [
            ("before", start),
            ("supply", {**end, "supply": 4, "removed_from_play": 0, "nightmares": ["ada"]}),
            ("removed-from-play", {**end, "supply": 3, "removed_from_play": 1, "nightmares": []}),
        ],
    )
    assert_laid_out(svg)
    counters = {
        t.text: t.get("fill")
        for t in ET.fromstring(svg).iter(f"{NS}text")
        if t.get("class") == "counter"
    }
    red = "#c00000"
    assert counters == {
        "supply 6": None,  # the position: nothing to compare it with
        "supply 4": red,
        "removed from play 0": red,
        "trap tokens 2": None,
        "distress: ada 1": None,
        "nightmares: ada": red,
        "supply 3": red,
        "removed from play 1": red,
        "nightmares: none": red,
    }
