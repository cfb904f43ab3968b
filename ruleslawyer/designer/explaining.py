"""A rule point in words a player can follow, for ``ruleslawyer explain``."""

from __future__ import annotations

import json
import textwrap
from typing import Any

from ruleslawyer.designer.checking import GameResult
from ruleslawyer.findings import Finding, RulePoint
from ruleslawyer.reports.words import KIND_LABEL, status_phrase


def _wrap(text: str, indent: str = "  ") -> list[str]:
    lines = textwrap.wrap(
        text, width=78, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
    )
    return lines or [indent]


def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def explain(point: RulePoint, finding: Finding, result: GameResult) -> str:
    lines = [f"{point.id}: {point.title}", ""]
    lines.append(f"What the rulebook says ({result.title}):")
    for s in finding.sentences:
        file, line, _ = s.where()
        where = f"{file}:{line}, {s.section}" if line else f"no longer in {file} verbatim"
        lines += [*_wrap(f"“{s.text}”"), f"    ({where})"]
    lines.append("")
    if point.readings:
        lines.append("Ways to read it:")
        for r in point.readings:
            marks = []
            if r.name == point.default:
                marks.append("default")
            if r.name == finding.ruling:
                marks.append("your ruling")
            tag = f" [{', '.join(marks)}]" if marks else ""
            lines += _wrap(f"{r.name}{tag}: {r.summary}")
        lines.append("")
        ruling = finding.ruling or f"none (the default '{point.default}' is used)"
        lines += [f"Ruling in force for {result.source}: {ruling}", ""]
    else:
        lines += ["No reading can settle this: the rulebook gives no answer here.", ""]
    stale = [f for f in result.findings if f.extra.get("point") == point.id]
    for f in stale:
        lines += [*_wrap(f.message), ""]
    lines.append(f"What the check found: {KIND_LABEL[finding.kind]}, {status_phrase(finding)}.")
    lines += _wrap(finding.message)
    if (incomplete := finding.unfinished_phrase()) is not None:
        lines += _wrap(f"{incomplete[0].upper()}{incomplete[1:]}.")
    if finding.witness is not None:
        w = finding.witness
        where = "Where the readings part:" if point.readings else "Where the rules give no answer:"
        lines += ["", where, *_wrap(w.description)]
        for key, value in w.to_json()["position"].items():
            lines += _wrap(f"{key}: {_value(value)}", "    ")
        if w.moves:
            lines.append("  Moves:")
            for move in w.to_json()["moves"]:
                lines += _wrap(_value(move), "    ")
        lines.append(
            "  What happens under each reading:" if point.readings else "  Each way it could go:"
        )
        for reading, outcome in w.to_json()["results"].items():
            lines += _wrap(f"{reading}: {_value(outcome)}", "    ")
    if result.warning:
        lines += ["", *_wrap(f"Note: {result.warning}", "")]
    return "\n".join(lines) + "\n"
