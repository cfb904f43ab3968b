"""Plain text for the terminal; click adds colour only when stdout is a TTY."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import click

from ruleslawyer.designer.checking import GameResult, effective_fail_on
from ruleslawyer.errors import printable
from ruleslawyer.findings import Kind, Sentence
from ruleslawyer.reports.words import KIND_LABEL, compact, status_phrase, summary_line

COLOUR = {
    Kind.DATA_ERROR: "red",
    Kind.CONTRADICTION: "red",
    Kind.GAP: "red",
    Kind.AMBIGUITY: "yellow",
    Kind.NON_TERMINATION: "yellow",
    Kind.DEAD_RULE: "yellow",
    Kind.INFO: "blue",
}


def _where(s: Sentence) -> str:
    """The section, and for a designer's own rulebook the file and line too."""
    if s.file is None:
        return printable(s.section)
    where = f"{s.section}, {s.file}:{s.line}" if s.line else f"no longer in {s.file}"
    return printable(where)


def render(results: Sequence[GameResult], fail_on: frozenset[Kind]) -> str:
    failing_kinds = effective_fail_on(fail_on)
    out: list[str] = []
    total_failing = 0
    for result in results:
        out.append(
            click.style(printable(f"{result.title} ({result.game})"), bold=True)
            + f" — {printable(str(result.source))}"
        )
        if result.warning:
            out.append(click.style(f"  warning: {result.warning}", fg="yellow"))
        if result.rulings:
            rulings = printable(", ".join(f"{k}={v}" for k, v in result.rulings.items()))
            out.append(f"  rulings: {rulings}")
        for f in result.findings:
            fails = f.fails(failing_kinds)
            total_failing += fails
            mark = "FAIL" if fails else "    "
            label = click.style(f"[{KIND_LABEL[f.kind]}]", fg=COLOUR[f.kind], bold=fails)
            out.append(f"{mark} {label} {printable(f'{f.id}: {f.title}')}")
            incomplete = f.unfinished_phrase()
            out.append(
                f"       {status_phrase(f) if f.readings or f.edit else f.status}"
                f"{'' if incomplete is None else '; ' + printable(incomplete)}"
            )
            # Everything below can hold text from the game file: each line is made
            # printable, so a newline or a bidirectional control in a key cannot split
            # or reverse it.
            out.append(f"       {printable(f.message)}")
            if f.location is not None:
                line = f":{f.location.line}" if f.location.line else ""
                at = f"at {f.location.file}{line} ({f.location.place})"
                out.append(f"       {printable(at)}")
            for s in f.sentences[:2]:
                out.append(f"       \u201c{printable(s.text)}\u201d ({_where(s)})")
            if f.witness is not None:
                w = f.witness.to_json()
                out.append(f"       witness: {printable(f.witness.description)}")
                out.append(f"         position: {printable(compact(w['position']))}")
                if f.witness.moves:
                    out.append(f"         moves: {printable(compact(w['moves']))}")
                for reading, res in f.witness.results.items():
                    out.append(f"         {printable(f'{reading}: {compact(res)}')}")
        counts = Counter(KIND_LABEL[f.kind] for f in result.findings)
        out.append("  " + summary_line(dict(sorted(counts.items())), len(result.failing(fail_on))))
        out.append("")
    out.append(
        f"{total_failing} finding(s) at or above --fail-on "
        f"({', '.join(sorted(k.value for k in failing_kinds))})"
    )
    skipped = sum(1 for r in results for f in r.findings if f.not_searched is not None)
    unfinished = sum(len(r.unfinished()) for r in results) - skipped
    if unfinished:
        out.append(
            f"{unfinished} search(es) not finished (a budget such as --max-seconds, or a bound "
            "of the search, cut them short): those findings are incomplete, not a clean bill "
            "and not failures (exit 3 when nothing else fails)"
        )
    if skipped:
        out.append(f"{skipped} point(s) not searched: the game file has data errors")
    return "\n".join(out) + "\n"
