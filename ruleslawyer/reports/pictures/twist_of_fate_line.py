"""Twist of Fate witnesses as a line of play: one row per play, every seat's values after it.

A witness's record (``Witness.moves``) names every play and every round's start in
the words of :func:`~ruleslawyer.checks.twist_of_fate.search.describe`. It is
replayed on the model with the game file's deck, matching each line against the
legal plays (and each round's start against the chance outcomes), so the picture
shows every seat's Luck, Shilling and Sanctuary after each play; a value that
changed is drawn bold. The last play (where the readings part) is highlighted, and
under it each reading's end. A line the replay cannot match is drawn without values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ruleslawyer.reports.svg import Picture, text_width

SIZE = 12  # every text's font size: readable at a page width of 1280 px
ROW = 20.0
VALUE_W = 34.0  # one of a seat's three value columns
SEAT_GAP = 14.0
WRAP = 900.0  # a result's line wraps past this width (px)
MAX_PLAYS = 72  # a longer record shows its last plays only (the endless game's 1000+)
VALUES = ("luck", "shilling", "sanctuary")
SHORT = {"luck": "L", "shilling": "S", "sanctuary": "San"}
CHANGED = "#b03060"


@dataclass(frozen=True)
class Row:
    """One line of the record: a play (who, what) or a round's start, and the values after."""

    text: str
    who: str = ""
    values: tuple[tuple[int, int, int], ...] | None = None
    round_start: bool = False


def replay(record: Sequence[str], position: Mapping[str, Any], deck: Any, rules: Any) -> list[Row]:
    """The record's rows, with every seat's values after each line where the replay matches."""
    from ruleslawyer.checks.twist_of_fate.search import describe, describe_round
    from ruleslawyer.models.twist_of_fate.play import (
        chance_outcomes,
        legal_moves,
        play,
        start,
        start_two_player,
    )

    names = tuple(p["name"] for p in position["player"])
    two = "monks" in position
    state: Any = None
    rows: list[Row] = []
    for line in record:
        if line.startswith("round "):
            if state is None:
                outcomes = start_two_player(deck) if two else ((1, start(len(names), deck)),)
            elif state.round_over and not state.over:
                outcomes = chance_outcomes(state, deck, rules)
            else:
                outcomes = ()
            state = next((s for _, s in outcomes if describe_round(s, names) == line), None)
            rows.append(Row(line, values=_values(state), round_start=True))
            continue
        who, _, what = line.partition(" plays ")
        if state is not None and not state.over and not state.round_over:
            moves = legal_moves(state, deck, rules)
            move = next((m for m in moves if describe(m, state, names) == line), None)
            state = None if move is None else play(state, move, deck, rules)
        else:
            state = None
        rows.append(Row(what, who=who, values=_values(state)))
    return rows


def _values(state: Any) -> tuple[tuple[int, int, int], ...] | None:
    if state is None:
        return None
    return tuple((s.luck, s.shilling, s.sanctuary) for s in state.seats)


def seat_names(position: Mapping[str, Any]) -> list[str]:
    from ruleslawyer.models.twist_of_fate.play import MONKS

    return [p["name"] for p in position["player"]] + ([MONKS] if "monks" in position else [])


def _end_values(result: Any, seats: Sequence[str]) -> tuple[tuple[int | None, ...], ...] | None:
    """A reading's result as each seat's values, where it is one (else None)."""
    if not isinstance(result, Mapping) or not all(s in result for s in seats):
        return None
    if not all(isinstance(result[s], Mapping) for s in seats):
        return None
    return tuple(tuple(result[s].get(v) for v in VALUES) for s in seats)


def _other(result: Any) -> list[str]:
    """A result that is not every seat's values, as lines of text."""
    if isinstance(result, str):
        return [result]
    if isinstance(result, Sequence):
        return [_other(r)[0] if not isinstance(r, str) else r for r in result] or ["nothing"]
    if isinstance(result, Mapping):
        if all(isinstance(v, Mapping) for v in result.values()):
            return [
                f"{k}: " + ", ".join(f"{SHORT.get(f, f)} {x}" for f, x in v.items())
                for k, v in result.items()
            ]
        return [line for k, v in result.items() for line in _field(str(k), v)]
    return [str(result)]


def _field(name: str, value: Any) -> list[str]:
    """One field of a result as lines: a list joined, a mapping a line per key (each
    seat's hand), a long line wrapped at its commas so the picture stays page-wide."""
    if isinstance(value, Mapping):
        return [line for k, v in value.items() for line in _field(f"{name} {k}", v)]
    text = f"{name}: {', '.join(map(str, value)) if isinstance(value, list) else value}"
    lines: list[str] = []
    for part in text.split(", "):
        if lines and text_width(f"{lines[-1]}, {part}", SIZE) <= WRAP:
            lines[-1] += f", {part}"
        else:
            lines.append(part if not lines else f"    {part}")
    return lines


def line_picture(
    title: str,
    rows: Sequence[Row],
    seats: Sequence[str],
    results: Mapping[str, Any],
) -> str:
    """The record as a table: play | each seat's L, S, Sanct. after it; then each reading's end."""
    shown = list(rows)
    plays = [i for i, r in enumerate(shown) if not r.round_start]
    hidden = 0
    if len(plays) > MAX_PLAYS:
        cut = plays[-MAX_PLAYS]
        first = max((i for i in range(cut) if shown[i].round_start), default=0)
        hidden = sum(1 for r in shown[:first] if not r.round_start)
        shown = shown[first:]
    who_w = max([text_width(r.who, SIZE, bold=True) for r in shown] + [40.0]) + 10
    what_w = max(
        [text_width(r.text, SIZE) for r in shown if not r.round_start]
        + [text_width(f"under {k}", SIZE, bold=True) for k in results]
        + [200.0]
    )
    left = 10.0
    seat_x = left + who_w + what_w + 16
    seat_w = 3 * VALUE_W + SEAT_GAP
    ends = {k: _end_values(v, seats) for k, v in results.items()}
    other = {k: _other(v) for k, v in results.items() if ends[k] is None}
    notes = sum(len(v) for v in other.values())
    width = max(
        seat_x + seat_w * len(seats),
        text_width(title, SIZE, bold=True) + 20,
        *(left + 20 + text_width(t, SIZE) for v in other.values() for t in v),
    )
    legend = (
        "Each row: a play, then every seat's Luck (L), Shilling (S) and Sanctuary (San) after it; "
        "bold: changed."
    )
    width = max(width, text_width(legend, SIZE) + 20)
    height = 80 + ROW * (len(shown) + (1 if hidden else 0) + 1 + len(results) + notes) + 16
    pic = Picture(width, height, title)
    pic.text(left, 20, title, font_weight="bold", font_size=SIZE)
    pic.text(left, 40, legend, font_size=SIZE, fill="#444")
    y = 64.0
    for j, seat in enumerate(seats):
        x = seat_x + j * seat_w
        pic.text(x + 3 * VALUE_W / 2, y, seat, font_weight="bold", text_anchor="middle")
        for k, v in enumerate(VALUES):
            pic.text(x + (k + 0.5) * VALUE_W, y + ROW - 4, SHORT[v], text_anchor="middle")
    pic.text(left, y + ROW - 4, "seat", font_weight="bold")
    pic.text(left + who_w, y + ROW - 4, "plays", font_weight="bold")
    y += ROW + 8
    if hidden:
        pic.text(left, y + 14, f"(the first {hidden} plays are not shown)", fill="#444")
        y += ROW
    before: tuple[tuple[int, int, int], ...] | None = None
    last = len(shown) - 1
    for i, row in enumerate(shown):
        if row.round_start:
            pic.rect(left - 4, y, width - 2 * left + 8, ROW, fill="#e8eef7")
            head, _, _ = row.text.partition("; ")
            starts = row.text.split("; ")[1] if "; " in row.text else ""
            pic.text(left, y + 15, f"{head[0].upper()}{head[1:]}: {starts}", font_weight="bold")
        else:
            if i == last:
                pic.rect(left - 4, y, width - 2 * left + 8, ROW, fill="#fff3c4")
            pic.text(left, y + 15, row.who, font_weight="bold")
            pic.text(left + who_w, y + 15, row.text)
        if i != last or row.round_start:  # the last play's end is each reading's, below
            _seat_values(pic, seat_x, seat_w, y, row.values, before)
        if row.values is not None and i != last:
            before = row.values
        y += ROW
    y += 8
    pic.line(left, y, width - left, y, stroke="#999")
    for reading, result in results.items():
        values = ends[reading]
        pic.text(left, y + 15, f"under {reading}", font_weight="bold")
        winner = result.get("winner") if isinstance(result, Mapping) else None
        if winner is not None:
            pic.text(
                left + text_width(f"under {reading}  ", SIZE, bold=True),
                y + 15,
                f"winner: {winner}",
            )
        if values is not None:
            _seat_values(pic, seat_x, seat_w, y, values, before)
            y += ROW
            continue
        y += ROW
        for text in other[reading]:
            pic.text(left + 20, y + 15, text)
            y += ROW
    return pic.render()


def _seat_values(
    pic: Picture,
    x0: float,
    seat_w: float,
    y: float,
    values: Sequence[Sequence[int | None]] | None,
    before: Sequence[Sequence[int | None]] | None,
) -> None:
    if values is None:
        return
    for j, seat in enumerate(values):
        for k, v in enumerate(seat):
            if v is None:
                continue
            changed = before is not None and before[j][k] != v
            pic.text(
                x0 + j * seat_w + (k + 0.5) * VALUE_W,
                y + 15,
                str(v),
                text_anchor="middle",
                font_weight="bold" if changed else None,
                fill=CHANGED if changed else None,
            )
