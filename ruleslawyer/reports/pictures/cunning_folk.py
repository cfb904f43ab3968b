"""Cunning Folk pictures: villages as 3x3 grids with each cell's role counts.

Each picture deduces a recorded game (played on the state machine with a
seeded random chooser, so it is the same every run) from one player's
chair, and draws what that player can know: the share of worlds with each
role in each cell, certain cells outlined, face-up cells shaded. Every text
is 12 px or more, readable on a page 1280 px wide.
"""

from __future__ import annotations

import random
from typing import Any

from ruleslawyer.designer.checking import GameResult
from ruleslawyer.gamefiles.source import GameSource
from ruleslawyer.models.cunning_folk.log import parse_log
from ruleslawyer.models.cunning_folk.play import Table
from ruleslawyer.models.cunning_folk.record import play_and_record
from ruleslawyer.models.cunning_folk.village import CELLS, standard_setup
from ruleslawyer.reports.svg import Picture

CELL = 186.0  # room for five roles, each a bar over a 12 px label
GAMES = ((11, 3, 12), (23, 3, 24))  # (seed, players, moves): recorded games to draw
COLOUR = {
    "good-witch": "#4caf50",
    "good-elder": "#1b5e20",
    "evil-witch": "#e53935",
    "evil-elder": "#8e0000",
    "villager": "#9e9e9e",
}


def recorded(seed: int, players: int, moves: int) -> tuple[dict[str, Any], str]:
    """A seeded game of the standard village, logged from the first player's chair."""
    from ruleslawyer.solvers.cunning_folk.deduce import deduce

    rng = random.Random(seed)
    cards = list(standard_setup().cards)
    rng.shuffle(cards)
    names = ("me", "bea", "cal", "dee")[:players]
    recording = play_and_record(
        Table(standard_setup(), players),
        tuple(cards),
        lambda state, legal: rng.choice(legal),
        names=names,
        perspective=0,
        max_moves=moves,
    )
    log = parse_log(recording.document, f"recorded game (seed {seed})")
    events = len(recording.document["event"])
    return deduce(log), f"{players} players, {events} events seen from 'me' (seed {seed})"


def village(result: dict[str, Any], title: str) -> str:
    pic = Picture(3 * CELL + 20, 3 * CELL + 70, title)
    pic.text(10, 20, title, font_weight="bold")
    pic.text(
        10, 38, f"{result['worlds']} worlds; bars: share of worlds with each role", font_size=12
    )
    for cell in CELLS:
        info = result["cells"][cell]
        col, row = "ABC".index(cell[0]), int(cell[1]) - 1
        x, y = 10 + col * CELL, 50 + row * CELL
        pic.rect(
            x,
            y,
            CELL - 6,
            CELL - 6,
            fill="#fff3c4" if info["face_up"] else "#ffffff",
            stroke="#000" if info["certain"] else "#999",
            stroke_width=3 if info["certain"] else 1,
        )
        label = f"{cell}: {info['certain']}" if info["certain"] else cell
        pic.text(x + 6, y + 16, label, font_weight="bold")
        total = sum(info["counts"].values()) or 1
        for i, (role, n) in enumerate(sorted(info["counts"].items())):
            share = n / total
            top = y + 26 + i * 30
            pic.rect(x + 6, top, (CELL - 18) * share, 10, fill=COLOUR.get(role, "#607d8b"))
            pic.text(x + 6, top + 24, f"{role} {share:.0%}", font_size=12)
    return pic.render()


def pictures(source: GameSource, result: GameResult) -> list[tuple[str, str, str]]:
    out = []
    for seed, players, moves in GAMES:
        deduced, title = recorded(seed, players, moves)
        out.append(
            (
                f"village-seed-{seed}",
                f"The village after a recorded game: {title}.",
                village(deduced, title),
            )
        )
    return out
