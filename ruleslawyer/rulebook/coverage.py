"""Rulebook coverage: what covers each sentence of a game's rulebook.

``ruleslawyer/data/coverage/<game>.toml`` lists every sentence of the shipped
rulebook (as :func:`sentences` splits it), in order, each with its status:

- ``modelled``: model code states the whole sentence (``code``:
  ``models/<game>/<module>.py:<function>``);
- ``rule-point``: a rule point covers it (``points``: ids), the model follows its reading;
- ``partly``: code or a rule point covers part of it (``code``, ``points``), and
  ``reason`` says what is left out;
- ``not-modelled``: outside the model (``reason``);
- ``not-rule-stating``: states no rule (``reason``: heading, flavour, components,
  example, credits or note).

Each modelled, rule-point and partly entry names the tests that exercise it
(``tests``: pytest node ids, ``tests/<game>/test_<topic>.py::test_name``);
``tests/test_coverage.py`` fails on an entry that names none, or one that does not exist.

On a designer's own rulebook, a sentence that no entry quotes (new or changed
against the shipped text) and that the game file's ``[coverage]`` table does not
explain is a ``gap`` finding: the model says nothing about it, so no check can
have tested it against the rest of the rules.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ruleslawyer.findings import Finding, Kind, Location, Sentence
from ruleslawyer.rulebook.books import DesignerRulebook, _sentences

STATUSES = ("modelled", "rule-point", "partly", "not-modelled", "not-rule-stating")
TESTED = ("modelled", "rule-point", "partly")  # the statuses that name tests
LABELS = {s: s.replace("-", " ", 1) for s in STATUSES}
NOT_RULE_REASONS = ("heading", "flavour", "components", "example", "credits", "note")
TITLE = "A sentence of the rulebook that nothing covers"


@dataclass(frozen=True)
class Entry:
    """One sentence of a shipped rulebook and what covers it."""

    quote: str
    status: str
    code: tuple[str, ...] = ()
    points: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    reason: str = ""

    @property
    def covered_by(self) -> str:
        """What covers it: the code and rule points, or (for the rest) the reason."""
        if self.status in TESTED:
            return ", ".join((*self.code, *self.points))
        return self.reason

    @property
    def left_out(self) -> str:
        """What the model leaves out of the sentence ("" for modelled and rule-point)."""
        return self.reason if self.status in ("partly", "not-modelled") else ""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"quote": self.quote, "status": self.status}
        if self.code:
            out["code"] = list(self.code)
        if self.points:
            out["points"] = list(self.points)
        if self.tests:
            out["tests"] = list(self.tests)
        if self.reason:
            out["reason"] = self.reason
        return out


def sentences(body: str) -> list[tuple[int, str]]:
    """The distinct sentences of a rulebook with their first line, as coverage counts them.

    :func:`ruleslawyer.rulebook.books._sentences` also yields the text after a
    capitalised label (``"BLOODSUCKERS ATTACK: Each ..."`` and ``"Each ..."``);
    that repeat, and a sentence printed twice, count once.
    """
    out: list[tuple[int, str]] = []
    seen: set[str] = set()
    for line, text in _sentences(body):
        if (out and out[-1][0] == line and out[-1][1].endswith(text)) or text in seen:
            continue
        seen.add(text)
        out.append((line, text))
    return out


@cache
def entries(game: str) -> tuple[Entry, ...]:
    """The shipped coverage map of ``game``, in rulebook order."""
    raw = resources.files("ruleslawyer").joinpath("data", "coverage", f"{game}.toml").read_text()
    return tuple(
        Entry(
            quote=row["quote"],
            status=row["status"],
            code=tuple(row.get("code", ())),
            points=tuple(row.get("points", ())),
            tests=tuple(row.get("tests", ())),
            reason=row.get("reason", ""),
        )
        for row in tomllib.loads(raw)["sentence"]
    )


def counts(rows: Sequence[Entry]) -> dict[str, int]:
    """How many entries have each status, in :data:`STATUSES` order."""
    return {s: sum(1 for e in rows if e.status == s) for s in STATUSES}


def _norm(text: str) -> str:
    return " ".join(text.split())


def uncovered(
    game: str, book: DesignerRulebook, explained: Mapping[str, str] | None = None
) -> list[tuple[int, str]]:
    """The sentences of ``book`` no entry of ``game`` quotes and ``explained`` does not name."""
    known = {_norm(e.quote) for e in entries(game)}
    known |= {_norm(q) for q in (explained or {})}
    return [
        (line, text)
        for line, text in sentences(book.text)
        if _norm(text) not in known and _norm(_unlabelled(text)) not in known
    ]


def _unlabelled(text: str) -> str:
    """``"BLOODSUCKERS ATTACK: Each ..."`` without its capitalised label (a heading of a kind)."""
    label, colon, rest = text.partition(": ")
    return rest if colon and rest and label.upper() == label else text


def gap_findings(
    game: str, rulebook: str, book: DesignerRulebook, explained: Mapping[str, str]
) -> list[Finding]:
    """A ``gap`` finding per uncovered sentence of a designer's rulebook (see :func:`uncovered`)."""
    out = []
    for line, text in uncovered(game, book, explained):
        section = book.section_at(line, "")
        out.append(
            Finding(
                id=f"{game}/coverage/uncovered-sentence",
                kind=Kind.GAP,
                title=TITLE,
                message=(
                    f"{book.display}:{line} has a sentence the shipped rulebook does not, "
                    "and nothing covers it: no model code, rule point or reason. Model it, "
                    'or say why not in the game file\'s [coverage] table ("the sentence" = '
                    '"why it is covered or not rule-stating").'
                ),
                sentences=(
                    Sentence(rulebook, section, text, file=book.display, line=line, end_line=line),
                ),
                location=Location(book.display, section, line),
                subject=f"uncovered sentence: {text}",
            )
        )
    return out


@dataclass(frozen=True)
class Target:
    """A game to show: its id, and a designer's rulebook with its sentences nothing covers."""

    game: str
    book: str | None = None
    uncovered: tuple[tuple[int, str], ...] = ()


def to_json(targets: Sequence[Target]) -> str:
    doc = []
    for t in targets:
        rows = entries(t.game)
        item: dict[str, object] = {"game": t.game, "sentences_total": len(rows)}
        item["counts"] = counts(rows)
        if t.book is not None:
            item["rulebook"] = t.book
            item["uncovered"] = [{"line": n, "text": text} for n, text in t.uncovered]
        item["sentences"] = [e.to_json() for e in rows]
        doc.append(item)
    from ruleslawyer.schemas import dumps

    return dumps({"games": doc}, ensure_ascii=False)


def render(targets: Sequence[Target], fmt: str) -> str:
    """The coverage of ``targets`` as text, Markdown or JSON."""
    if fmt == "json":
        return to_json(targets)
    lines: list[str] = []
    for t in targets:
        lines += section(t.game, heading="# ") if fmt == "markdown" else _text(t.game)
        if t.book is not None:
            lines += _uncovered(t, fmt == "markdown")
    return "\n".join(lines).rstrip() + "\n"


def _uncovered(t: Target, md: bool) -> list[str]:
    head = f"{len(t.uncovered)} sentence(s) of {t.book} that nothing covers"
    lines = [f"## {head}", ""] if md else [head + (":" if t.uncovered else "")]
    for n, text in t.uncovered:
        lines.append(f"{'-' if md else ' '} {t.book}:{n}: “{text}”")
    return [*lines, ""]


def summary(game: str) -> str:
    """``"72 sentences: 20 modelled, 25 rule point, ..."``."""
    rows = entries(game)
    parts = ", ".join(f"{n} {LABELS[s]}" for s, n in counts(rows).items())
    return f"{len(rows)} sentences: {parts}"


def _text(game: str) -> list[str]:
    lines = [f"{game}: {summary(game)}"]
    for e in entries(game):
        lines.append(f"  [{LABELS[e.status]}] {e.quote}")
        if e.status == "partly":
            lines.append(f"      {e.covered_by}")
            lines.append(f"      left out: {e.reason}")
        else:
            lines.append(f"      {e.covered_by}")
        if e.tests:
            lines.append(f"      tests: {', '.join(e.tests)}")
    return [*lines, ""]


def section(game: str, heading: str = "## ", full: bool = True) -> list[str]:
    """Markdown: the counts, then the entries (all, or without ``full`` only the
    ones the model does not fully state: partly and not modelled)."""
    lines = [f"{heading}Rulebook coverage: {game}", "", summary(game) + ".", ""]
    rows = [e for e in entries(game) if full or e.status in ("partly", "not-modelled")]
    if not full:
        lines += [
            "Sentences the model does not fully state (each modelled or rule-point sentence "
            "names the tests that exercise it: `ruleslawyer coverage`):"
            if rows
            else "The model states every rule-stating sentence, in code or through a rule point.",
            "",
        ]
    if rows:
        lines += ["| sentence | status | covered by | left out | tests |", "|---|---|---|---|---|"]
        for e in rows:
            covered = e.covered_by if e.status in TESTED else ""
            left = e.left_out or ("" if e.status in TESTED else e.reason)
            tests = ", ".join(f"`{t}`" for t in e.tests)
            cells = (e.quote, LABELS[e.status], covered, left, tests)
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        lines.append("")
    return lines
