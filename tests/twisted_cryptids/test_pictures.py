"""Twisted Cryptids pictures: drawn from the deadlock witness and the stacks answer."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ruleslawyer.reports.pictures.twisted_cryptids import deadlock_picture, stacks_picture

NS = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{NS}text")]


def test_deadlock_picture_says_why_each_site_is_ruled_out() -> None:
    # 4 players, cap 3 (Setup: "no more than 3 players may have a Hiding Spot token at any
    # one Site"). ann's spot comes back from the Encounter Site "a"; "b" is full (bob, cat,
    # dan), "c" holds ann's own spot, "d" has two players: the one Site left open.
    position = {
        "players": 4,
        "cap": 3,
        "hiding_spots": {"ann": ["a", "c"], "bob": ["b", "d"], "cat": ["b", "d"], "dan": ["b"]},
        "humans_at_dusk": {"a": 7, "b": 4, "c": 4, "d": 4},
        "encounter": "a",
        "returning": "ann",
    }
    words = texts(deadlock_picture(position))
    assert "✗ Encounter Site" in words
    assert "✗ full: 3 of 3" in words
    assert "✗ ann is here" in words
    assert "✓ open" in words
    assert words.count("bob") == 2 and words.count("dan") == 1


def test_stacks_picture_names_revealed_cards_and_winners() -> None:
    answer = {
        "players": {
            "ann": {
                "stacks": [
                    [{"revealed": "hoax"}, {"counts": {"decoy": 2, "real-deal": 1}}],
                    [{"counts": {"decoy": 1}}],
                    [],
                ],
                "arrangements": 3,
                "real_deals_hidden": {"min": 0, "max": 1},
                "final_myth": {"min": 4, "max": 11},
            }
        },
        "possible_winners": ["ann"],
        "winner_decided": True,
    }
    svg = stacks_picture(answer, "a title")
    words = texts(svg)
    assert "hoax" in words and "ann: 3 arrangement(s)" in words
    assert any(w.startswith("possible winners: ann (decided)") for w in words)
    assert "ann: final Myth 4..11, Real Deals hidden 0..1" in words
    # The hidden slot's bar is split 2:1 between decoy and real-deal.
    widths = sorted(
        float(r.get("width"))
        for r in ET.fromstring(svg).iter(f"{NS}rect")
        if r.get("height") == "22"
    )
    assert widths[:2] == [27.3, 54.7] or widths[:2] == [27.3, 54.6]
