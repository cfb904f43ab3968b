"""Twist of Fate witness pictures: the record replayed, every seat's values after each play."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ruleslawyer.gamefiles.source import load_source
from ruleslawyer.models.twist_of_fate.files import deck_from_document
from ruleslawyer.models.twist_of_fate.play import Rules
from ruleslawyer.reports.pictures.twist_of_fate_line import line_picture, replay

NS = "{http://www.w3.org/2000/svg}"
HAND = "Mr. Brownlow, The Artful Dodger, Bill Sikes, Nancy, Fagin, Mr. Bumble"
POSITION = {"player": [{"name": name} for name in ("ann", "bob", "cat")]}
RECORD = (
    f"round 1 begins; ann starts; ann holds {HAND}; bob holds {HAND}; cat holds {HAND}",
    "ann plays Nancy on bob, face-down (ann raises shilling, bob raises shilling)",
    "bob plays Mr. Brownlow on cat, face-down (bob raises luck, cat raises luck)",
)


def _replay(record: tuple[str, ...]):
    source = load_source("twist-of-fate")
    deck = deck_from_document(source.document, source.display)
    return replay(record, POSITION, deck, Rules.from_rulings({}))


def test_replay_gives_every_seats_values_after_each_play() -> None:
    # Face down, each player raises the named card by 1 and lowers the other (never below 0).
    rows = _replay(RECORD)
    assert [(r.who, r.round_start) for r in rows] == [("", True), ("ann", False), ("bob", False)]
    assert rows[0].values == ((0, 0, 0), (0, 0, 0), (0, 0, 0))
    assert rows[1].values == ((0, 1, 0), (0, 1, 0), (0, 0, 0))
    assert rows[2].values == ((0, 1, 0), (1, 0, 0), (1, 0, 0))
    assert rows[1].text == "Nancy on bob, face-down (ann raises shilling, bob raises shilling)"


def test_a_line_the_replay_cannot_match_is_drawn_without_values() -> None:
    rows = _replay((*RECORD[:2], "cat plays Nancy on ann, face-up, side 0 facing ann"))
    assert rows[1].values is not None and rows[2].values is None  # it is bob's turn


def test_line_picture_shows_the_last_play_and_each_readings_end() -> None:
    rows = _replay(RECORD)
    seat = {"luck": 1, "shilling": 0, "sanctuary": 0}
    results = {
        "scores": {"ann": {**seat, "shilling": 1}, "bob": seat, "cat": {**seat, "sanctuary": 1}},
        "forbids": "not a legal move",
    }
    root = ET.fromstring(line_picture("twist-of-fate/x", rows, ["ann", "bob", "cat"], results))
    texts = [(t.text, t.get("font-weight"), t.get("font-size")) for t in root.iter(f"{NS}text")]
    words = [w for w, _, _ in texts]
    assert (
        words.index("under scores") < words.index("under forbids") < words.index("not a legal move")
    )
    assert all(size == "12" for _, _, size in texts)
    highlighted = [r for r in root.iter(f"{NS}rect") if r.get("fill") == "#fff3c4"]
    assert len(highlighted) == 1  # the last play, where the readings part
    # Under "scores", against the values before bob's play (ann 0 1 0, bob 0 1 0, cat 0 0 0):
    # ann's Luck, bob's Luck and Shilling, cat's Luck and Sanctuary changed.
    end = texts[words.index("under scores") + 1 : words.index("under forbids")]
    assert [(w, bold == "bold") for w, bold, _ in end] == [
        ("1", True), ("1", False), ("0", False),
        ("1", True), ("0", True), ("0", False),
        ("1", True), ("0", False), ("1", True),
    ]  # fmt: skip
