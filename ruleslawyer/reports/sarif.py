"""SARIF 2.1.0: one rule per rule point (stable ruleId = its id), one result per finding.

Each result's locations point at the game file (the place of a data error,
else the file itself) and at every rulebook sentence the point quotes.
Resolved points carry an external suppression naming the ruling.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ruleslawyer import __version__, rulebooks
from ruleslawyer.checking import GameResult, effective_fail_on
from ruleslawyer.findings import Finding, Kind

SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)


def _level(f: Finding, failing: frozenset[Kind]) -> str:
    if f.kind == Kind.INFO:
        return "note"
    if f.fails(failing):
        return "error"
    return "warning"


def _location(uri: str, line: int | None, message: str | None = None) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": uri}}
    if line:
        physical["region"] = {"startLine": line}
    loc: dict[str, Any] = {"physicalLocation": physical}
    if message:
        loc["message"] = {"text": message}
    return loc


def _rule(f: Finding) -> dict[str, Any]:
    rule: dict[str, Any] = {
        "id": f.id,
        "name": "".join(part.capitalize() for part in f.id.replace("/", "-").split("-")),
        "shortDescription": {"text": f.title},
        "fullDescription": {"text": " ".join(s.text for s in f.sentences) or f.title},
        "properties": {"readings": [r.name for r in f.readings]},
    }
    return rule


def _result(f: Finding, r: GameResult, index: int, failing: frozenset[Kind]) -> dict[str, Any]:
    if f.location is not None:
        locations = [_location(f.location.file, f.location.line, f.location.place)]
    else:
        locations = [_location(r.source, None)]
    locations += [
        _location(rulebooks.path(s.rulebook), rulebooks.line_of(s), s.section) for s in f.sentences
    ]
    result: dict[str, Any] = {
        "ruleId": f.id,
        "ruleIndex": index,
        "level": _level(f, failing),
        "message": {"text": f.message},
        "locations": locations,
        "partialFingerprints": {"rulePoint/v1": f"{r.game}:{f.id}:{f.kind.value}"},
        "properties": {
            "kind": f.kind.value,
            "status": f.status,
            "finished": f.finished,
            "witness": f.witness.to_json() if f.witness else None,
        },
    }
    if f.status == "resolved":
        result["suppressions"] = [
            {"kind": "external", "justification": f"ruling {f.id}={f.ruling}"}
        ]
    return result


def document(results: Sequence[GameResult], fail_on: frozenset[Kind]) -> dict[str, Any]:
    failing = effective_fail_on(fail_on)
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    out_results = []
    for r in results:
        for f in r.findings:
            if f.id not in index:
                index[f.id] = len(rules)
                rules.append(_rule(f))
            out_results.append(_result(f, r, index[f.id], failing))
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "ruleslawyer",
                        "version": __version__,
                        "informationUri": "https://pypi.org/project/ruleslawyer/",
                        "rules": rules,
                    }
                },
                "results": out_results,
            }
        ],
    }


def render(results: Sequence[GameResult], fail_on: frozenset[Kind]) -> str:
    return json.dumps(document(results, fail_on), indent=2, ensure_ascii=False) + "\n"
