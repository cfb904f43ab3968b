"""Rule points against a designer's own rulebook: where each quote is, and which are gone.

When a game file names its rulebook (``rulebook = "rules/kaelyfos.md"``),
every quote of every rule point is looked up there. A quote no longer found
verbatim is a ``data-error`` finding (``<game>/data/rulebook-quote``): the
rule point's readings and witness were worked out from a sentence the
designer's text no longer has, so nothing reported about the point is known
to hold until someone re-checks it. The nearest sentence now in the file is
the suggestion.

A rulebook edit that settles a point (both sentences of a contradiction now
say the same thing) is recorded in the game file's ``[edits]`` table, next
to the ruling that names the reading the text now states; the point and its
changed quotes are then reported as resolved by that edit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ruleslawyer.errors import InputError
from ruleslawyer.findings import Finding, Location, RulePoint, Sentence, data_error
from ruleslawyer.gamefiles import GameSource
from ruleslawyer.rulebooks import Candidate, DesignerRulebook

TITLE = "A sentence a rule point quotes changed or is gone from the rulebook"


@dataclass(frozen=True)
class Drift:
    """One quote of a rule point that is not verbatim in a rulebook, with its nearest sentence."""

    point: RulePoint
    sentence: Sentence
    nearest: Candidate | None


def drifts(points: Sequence[RulePoint], book: DesignerRulebook) -> list[Drift]:
    """Every quote of ``points`` that ``book`` no longer has verbatim, in point order."""
    return [
        Drift(point, sentence, book.nearest(sentence.text))
        for point in points
        for sentence in point.sentences
        if book.place(sentence).line is None
    ]


def describe(drift: Drift, book: DesignerRulebook) -> str:
    said = f"It quoted “{drift.sentence.text}” (under {drift.sentence.section})"
    if drift.nearest is None:
        return f"{said}; {book.display} has no sentence left to compare."
    where = f"line {drift.nearest.line}"
    if drift.nearest.section:
        where += f", under {drift.nearest.section}"
    return f"{said}; the nearest sentence now in {book.display} ({where}) is “{drift.nearest.text}”"


def apply(
    source: GameSource,
    points: Sequence[RulePoint],
    rulings: Mapping[str, str],
    findings: Sequence[Finding],
) -> list[Finding]:
    """``findings`` placed in the designer's rulebook, with a finding per changed quote.

    Without a ``rulebook`` key the findings only gain the game-file line of
    their ruling. ``[edits]`` entries are checked here: an unknown point, an
    edit without a rulebook, a point with readings but no ruling, or an edit
    of a point whose quotes are all still there is bad input.
    """
    book = source.rulebook()
    edits = source.edits()
    by_id = {p.id: p for p in points}
    found = _drifts_checked(source, book, edits, by_id, rulings)
    placed = [_placed(f, source, book, edits) for f in findings]
    game = points[0].game if points else source.game
    at = Location(source.display, "rulebook", source.line("rulebook"))
    return [*(_finding(game, d, book, at, edits) for d in found), *placed]  # type: ignore[arg-type]


def _drifts_checked(
    source: GameSource,
    book: DesignerRulebook | None,
    edits: Mapping[str, str],
    by_id: Mapping[str, RulePoint],
    rulings: Mapping[str, str],
) -> list[Drift]:
    found = drifts(list(by_id.values()), book) if book is not None else []
    changed = {d.point.id for d in found}
    for point_id in edits:
        place = f"edits.{point_id}"
        point = by_id.get(point_id)
        if point is None:
            known = ", ".join(by_id)
            raise InputError(source.display, place, point_id, f"a rule point id ({known})")
        if book is None:
            raise InputError(
                source.display, place, point_id, 'a rulebook named in the file (rulebook = "...")'
            )
        if point.readings and point_id not in rulings:
            raise InputError(
                source.display,
                place,
                "no ruling",
                f"a ruling for {point_id} in [rulings]: the reading the edited text now states",
            )
        if point_id not in changed:
            raise InputError(
                source.display,
                place,
                "every sentence of the point unchanged",
                f"an edit of {book.display} that changed a sentence {point_id} quotes",
            )
    return found


def _finding(
    game: str, drift: Drift, book: DesignerRulebook, at: Location, edits: Mapping[str, str]
) -> Finding:
    point_id = drift.point.id
    finding = data_error(
        game,
        "rulebook-quote",
        TITLE,
        at,
        f"The sentence behind rule point {point_id} changed or is gone; re-check the point. "
        + describe(drift, book),
        subject=f"{point_id}: {drift.sentence.text}",
    )
    nearest = drift.nearest
    extra = {
        "point": point_id,
        "quote": drift.sentence.text,
        "nearest": None
        if nearest is None
        else {
            "text": nearest.text,
            "file": book.display,
            "line": nearest.line,
            "section": nearest.section,
            "similarity": round(nearest.score, 3),
        },
    }
    edit = edits.get(point_id)
    return dataclasses.replace(
        finding,
        sentences=(book.place(drift.sentence),),
        extra=extra,
        status="resolved" if edit is not None else "open",
        edit=edit,
    )


def _placed(
    finding: Finding, source: GameSource, book: DesignerRulebook | None, edits: Mapping[str, str]
) -> Finding:
    changes: dict[str, object] = {}
    if book is not None and finding.sentences:
        changes["sentences"] = tuple(book.place(s) for s in finding.sentences)
    if finding.location is None and finding.ruling is not None:
        line = source.table_line("rulings", finding.id)
        if line is not None:
            changes["location"] = Location(source.display, f"rulings.{finding.id}", line)
    if finding.id in edits:
        changes["edit"] = edits[finding.id]
        changes["status"] = "resolved"
    return dataclasses.replace(finding, **changes) if changes else finding  # type: ignore[arg-type]
