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
from ruleslawyer.gamefiles.source import GameSource
from ruleslawyer.rulebook.books import Candidate, DesignerRulebook
from ruleslawyer.schemas import dumps

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
    if finding.id in edits and book is not None:
        changes["edit"] = edits[finding.id]
        changes["status"] = "resolved"
        changes["extra"] = {**finding.extra, "edited": edited_sentences(finding.sentences, book)}
    return dataclasses.replace(finding, **changes) if changes else finding  # type: ignore[arg-type]


def edited_sentences(sentences: Sequence[Sentence], book: DesignerRulebook) -> dict[str, object]:
    """What a point's sentences read now (the nearest sentence for a changed one), and
    whether they all read the same: what an edit that removes a contradiction does.

    This is shown next to the edit, not enforced: two sentences can agree in other words.
    """
    now = []
    for sentence in sentences:
        if book.place(sentence).line is not None:
            now.append(sentence.text)
        else:
            nearest = book.nearest(sentence.text)
            now.append(nearest.text if nearest is not None else "")
    same = {" ".join(t.split()).lower() for t in now}
    return {"sentences_now": now, "read_the_same": len(same) == 1}


def is_rulebook(path: str) -> bool:
    """Whether a ``diff`` argument is a rulebook version (Markdown or text), not a game file."""
    return path.lower().endswith((".md", ".markdown", ".txt"))


@dataclass(frozen=True)
class QuoteChange:
    """One quote of a rule point whose place differs between two versions of a rulebook."""

    point: str
    old: Sentence  # placed in the old version (line None: not there)
    new: Sentence  # placed in the new version
    nearest: Candidate | None  # in the new version, when the quote is gone from it

    @property
    def change(self) -> str:
        if self.old.line is not None and self.new.line is None:
            return "changed"
        if self.old.line is None and self.new.line is not None:
            return "restored"
        return "moved"


def compare(
    points: Sequence[RulePoint], old: DesignerRulebook, new: DesignerRulebook
) -> list[QuoteChange]:
    """Every quote whose presence or line differs from ``old`` to ``new``, in point order.

    A quote missing from both versions is not a change between them (``check``
    reports it against the version a game file names).
    """
    out = []
    for point in points:
        for sentence in point.sentences:
            a, b = old.place(sentence), new.place(sentence)
            if a.line == b.line:
                continue
            nearest = new.nearest(sentence.text) if b.line is None else None
            out.append(QuoteChange(point.id, a, b, nearest))
    return out


def quoted_game(
    books: Sequence[DesignerRulebook], points_by_game: Mapping[str, Sequence[RulePoint]]
) -> str | None:
    """The game most of whose quotes the rulebooks hold (None when no game's, or a tie)."""
    counts = {
        game: sum(1 for p in points for s in p.sentences for b in books if b.place(s).line)
        for game, points in points_by_game.items()
    }
    best = max(counts.values(), default=0)
    winners = [g for g, n in counts.items() if n == best]
    return winners[0] if best and len(winners) == 1 else None


def render_changes(
    game: str,
    old: DesignerRulebook,
    new: DesignerRulebook,
    changes: Sequence[QuoteChange],
    fmt: str,
    uncovered: Sequence[tuple[int, str]] = (),
) -> str:
    """The rulebook diff as text, Markdown or JSON; ``uncovered``: the new version's
    sentences (line, text) that the old one did not have and nothing covers."""
    changed = sorted({c.point for c in changes if c.change == "changed"})
    if fmt == "json":
        doc = {
            "game": game,
            "old": old.display,
            "new": new.display,
            "changes": [
                {
                    "point": c.point,
                    "change": c.change,
                    "text": c.old.text,
                    "old": {"line": c.old.line, "section": c.old.section},
                    "new": {"line": c.new.line, "section": c.new.section},
                    "nearest": None
                    if c.nearest is None
                    else {
                        "text": c.nearest.text,
                        "line": c.nearest.line,
                        "section": c.nearest.section,
                    },
                }
                for c in changes
            ],
            "points_to_recheck": changed,
            "uncovered": [{"line": n, "text": t} for n, t in uncovered],
        }
        return dumps(doc, ensure_ascii=False)
    md = fmt == "markdown"
    bullet = "-" if md else " "
    lines = [f"{'# ' if md else ''}{game} rulebook: {old.display} -> {new.display}", ""]
    titles = {
        "changed": "Sentences changed or gone (re-check these rule points)",
        "restored": "Sentences back in the rulebook",
        "moved": "Sentences moved (same words, another line)",
    }
    for change, title in titles.items():
        rows = [c for c in changes if c.change == change]
        if not rows:
            continue
        lines.append(f"{'## ' if md else ''}{title}")
        for c in rows:
            was = f"{old.display}:{c.old.line}" if c.old.line else f"not in {old.display}"
            now = f"{new.display}:{c.new.line}" if c.new.line else f"not in {new.display}"
            lines.append(f"{bullet} {c.point}: “{c.old.text}” ({was} -> {now})")
            if c.nearest is not None:
                lines.append(
                    f"{bullet}   nearest now: “{c.nearest.text}” ({new.display}:{c.nearest.line})"
                )
        lines.append("")
    if not changes:
        lines += ["No quoted sentence changed.", ""]
    if uncovered:
        lines.append(f"{'## ' if md else ''}New sentences that nothing covers (gaps)")
        lines += [f"{bullet} “{t}” ({new.display}:{n})" for n, t in uncovered]
        lines.append("")
    lines.append(
        f"{len(changed)} rule point(s) whose sentences changed: {', '.join(changed) or 'none'}"
    )
    return "\n".join(lines) + "\n"
