"""Twist of Fate pictures: the end-state distribution of the benchmark positions.

Each shipped position in ``ruleslawyer/data/positions`` that solves in seconds
is searched to its horizon with the game file's deck; the chart counts, for
every seat, the distinct horizon states in which it holds each Sanctuary value.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ruleslawyer.checks.twist_of_fate.analysis import POSITIONS, position_with_deck
from ruleslawyer.designer.checking import GameResult
from ruleslawyer.gamefiles.source import GameSource
from ruleslawyer.reports.svg import bar_chart


def pictures(source: GameSource, result: GameResult) -> list[tuple[str, ...]]:
    from ruleslawyer.models.twist_of_fate.play import Rules
    from ruleslawyer.solvers.twist_of_fate.memory import end_states

    rules = Rules.from_rulings(result.rulings)
    out: list[tuple[str, ...]] = []
    for name in POSITIONS:
        position = position_with_deck(name, source, rules)
        if position is None:
            continue
        ends = end_states(position, rules)
        if ends is None:
            continue
        seats = [*position.names, "Monks"][: len(position.state.seats)]
        counts = Counter(
            (seat, values[2]) for end in ends for seat, values in zip(seats, end, strict=True)
        )
        bars = [(f"{seat}: Sanctuary {s}", n) for (seat, s), n in sorted(counts.items())]
        title = f"{name}: {len(ends)} distinct end states, by each seat's Sanctuary"
        caption = (
            f"{name}: how many of the {len(ends)} distinct states at the horizon leave each "
            "seat on each Sanctuary value (every line of play searched, this deck)."
        )
        out.append((name, caption, bar_chart(title, bars, width=620)))
    return out + witness_pictures(source, result, rules)


def witness_pictures(
    source: GameSource, result: GameResult, rules: Any
) -> list[tuple[str, str, str, str]]:
    """Each witness's line of play, replayed: every seat's values after each play."""
    from ruleslawyer.models.twist_of_fate.files import deck_from_document
    from ruleslawyer.reports.pictures.twist_of_fate_line import line_picture, replay, seat_names

    deck = deck_from_document(source.document, source.display)
    out = []
    for f in result.findings:
        w = f.witness
        if w is None or not w.moves or "player" not in w.position:
            continue
        rows = replay(w.moves, w.position, deck, rules)
        caption = (
            f"{f.id}: {w.description}. The line of play from the start, every seat's values "
            "after each play; the last play (highlighted), then its end under each reading."
        )
        picture = line_picture(f.id, rows, seat_names(w.position), w.results)
        out.append((f.id.split("/", 1)[1], caption, picture, f.id))
    return out
