"""Twist of Fate pictures: the end-state distribution of the benchmark positions.

Each shipped position in ``ruleslawyer/data/positions`` that solves in seconds
is searched to its horizon with the game file's deck; the chart counts, for
every seat, the distinct horizon states in which it holds each Sanctuary value.
"""

from __future__ import annotations

from collections import Counter

from ruleslawyer.checking import GameResult
from ruleslawyer.checks.twist_of_fate.analysis import POSITIONS, position_with_deck
from ruleslawyer.gamefiles import GameSource
from ruleslawyer.reports.svg import bar_chart


def pictures(source: GameSource, result: GameResult) -> list[tuple[str, str, str]]:
    from ruleslawyer.models.twist_of_fate.play import Rules
    from ruleslawyer.solvers.twist_of_fate.memory import end_states

    rules = Rules.from_rulings(result.rulings)
    out = []
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
    return out
