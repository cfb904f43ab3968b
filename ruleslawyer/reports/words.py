"""Shared phrasing for the human-readable writers (text and Markdown)."""

from __future__ import annotations

import json
from typing import Any

from ruleslawyer.findings import Finding, Kind

KIND_LABEL = {
    Kind.DATA_ERROR: "data error",
    Kind.CONTRADICTION: "contradiction",
    Kind.AMBIGUITY: "ambiguity",
    Kind.GAP: "gap",
    Kind.DEAD_RULE: "dead rule",
    Kind.NON_TERMINATION: "non-termination",
    Kind.INFO: "info",
}


def status_phrase(finding: Finding) -> str:
    if finding.status == "resolved" and finding.edit is not None:
        ruling = f" (ruling '{finding.ruling}')" if finding.ruling else ""
        return f"resolved by the rulebook edit '{finding.edit}'{ruling}"
    if finding.status == "resolved":
        return f"resolved by ruling '{finding.ruling}'"
    if finding.readings:
        default = finding.readings[0].name
        return f"open (default reading '{default}')"
    return "open"


def compact(value: Any) -> str:
    """A one-line JSON rendering of a witness value."""
    return json.dumps(value, sort_keys=False, ensure_ascii=False, separators=(", ", ": "))


def summary_line(counts: dict[str, int], failing: int) -> str:
    parts = [f"{n} {k}" for k, n in counts.items() if n]
    listed = ", ".join(parts) if parts else "no findings"
    verdict = f"{failing} at or above --fail-on" if failing else "nothing at or above --fail-on"
    return f"{listed}; {verdict}"
