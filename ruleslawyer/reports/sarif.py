"""SARIF 2.1.0 for code scanning: one rule per rule point (ruleId = its id), one result per finding.

Each result's primary location is the game-file line the finding is about
(a data error's place, a ruled point's line in ``[rulings]``), else the
rulebook line of its first sentence; every sentence is a related location.
Rulebook sentences point at the designer's own rulebook when the game file
names one. A designer's file checked against the rulebooks shipped inside
ruleslawyer points there through the ``RULESLAWYER_RULEBOOKS`` base id (see
``originalUriBaseIds``), so the repository being scanned never gets paths it
does not hold. Every rule has ``help`` (text and Markdown) and no
``helpUri``. The driver's ``informationUri`` is the home page the installed
distribution declares (``[project.urls]`` in pyproject.toml: ``Homepage``,
else ``Documentation``, ``Repository`` or ``Source``); while it declares none,
the field is left out rather than pointing at a page that does not exist.
With ``--baseline`` each result has a ``baselineState`` (new, unchanged) and
baseline entries no longer found are results marked absent.
Resolved points carry an external suppression naming the ruling or the edit.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from ruleslawyer import __version__
from ruleslawyer.designer.baseline import absent
from ruleslawyer.designer.checking import GameResult, effective_fail_on
from ruleslawyer.findings import Finding, Kind, Sentence

SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
SHIPPED = "RULESLAWYER_RULEBOOKS"
SHIPPED_DIR = "ruleslawyer/data/rulebooks/"
BASE_IDS = {
    SHIPPED: {
        "description": {
            "text": "The rulebooks shipped inside the ruleslawyer package "
            f"({SHIPPED_DIR} in its source), which the rule points quote."
        }
    }
}


def _level(f: Finding, failing: frozenset[Kind]) -> str:
    if f.kind == Kind.INFO:
        return "note"
    if f.fails(failing):
        return "error"
    return "warning"


def _location(
    artifact: dict[str, Any], first: int, last: int | None, message: str | None = None
) -> dict[str, Any]:
    region = {"startLine": first, "endLine": max(first, last or first)}
    loc: dict[str, Any] = {"physicalLocation": {"artifactLocation": artifact, "region": region}}
    if message:
        loc["message"] = {"text": message}
    return loc


def _sentence_artifact(s: Sentence, r: GameResult) -> dict[str, Any]:
    file, _, _ = s.where()
    if s.file is None and not r.source.startswith("ruleslawyer/data/"):
        return {"uri": file.removeprefix(SHIPPED_DIR), "uriBaseId": SHIPPED}
    return {"uri": file}


def _sentence_locations(f: Finding, r: GameResult) -> list[dict[str, Any]]:
    out = []
    for s in f.sentences:
        _, first, last = s.where()
        if first is not None:  # a quote gone from the designer's rulebook has no line
            out.append(_location(_sentence_artifact(s, r), first, last, s.section))
    return out


def _primary(f: Finding, r: GameResult, quoted: list[dict[str, Any]]) -> dict[str, Any]:
    if f.location is not None:
        return _location({"uri": f.location.file}, f.location.line or 1, None, f.location.place)
    if quoted:
        return quoted[0]
    return _location({"uri": r.source}, 1, None, "the game file")


def _quote_lines(f: Finding, markdown: bool) -> list[str]:
    lines = []
    for s in f.sentences:
        file, line, _ = s.where()
        where = f"{file}:{line}" if line else f"no longer in {file}"
        if markdown:
            lines += [f"> {s.text}", ">", f"> — *{s.section}* (`{where}`)", ""]
        else:
            lines.append(f"“{s.text}” ({s.section}, {where})")
    return lines


def _help(f: Finding) -> dict[str, str]:
    """What the rule is and how to settle it, as plain text and as Markdown."""
    text = [f.title, ""]
    md = [f"**{f.title}**", ""]
    if f.kind == Kind.DATA_ERROR:
        advice = (
            "The game file (or the rulebook it names) breaks a structural rule: "
            "fix the place the result names, or accept it in a baseline."
        )
        text.append(advice)
        md.append(advice)
    else:
        text.append("What the rulebook says:")
        md += ["What the rulebook says:", ""]
        text += _quote_lines(f, markdown=False)
        md += _quote_lines(f, markdown=True)
        if f.readings:
            text += ["", "Readings (the default first):"]
            md += ["Readings (the default first):", ""]
            for r in f.readings:
                text.append(f"- {r.name}: {r.summary}")
                md.append(f"- `{r.name}`: {r.summary}")
            settle = (
                f'To settle it, choose a reading in the game file\'s [rulings] table ("{f.id}" = '
                f'"<reading>") or with --ruling {f.id}=<reading>.'
            )
        else:
            settle = (
                "No reading can settle it: the rulebook gives no answer. Edit the rulebook, "
                "or accept the finding in a baseline."
            )
        explain = f"`ruleslawyer explain {f.id}` prints the witness where the readings part."
        text += ["", settle, explain.replace("`", "")]
        md += ["", settle.replace("[rulings]", "`[rulings]`"), "", explain]
    return {"text": "\n".join(text).strip(), "markdown": "\n".join(md).strip()}


def _rule(f: Finding) -> dict[str, Any]:
    full = " ".join(s.text for s in f.sentences) or f.title
    return {
        "id": f.id,
        "name": "".join(part.capitalize() for part in f.id.replace("/", "-").split("-")),
        "shortDescription": {"text": f.title},
        "fullDescription": {"text": full},
        "help": _help(f),
        "properties": {"readings": [r.name for r in f.readings], "kind": f.kind.value},
    }


def _identity(f: Finding, game: str) -> str:
    about = f"{game}:{f.id}:{f.kind.value}"
    if f.subject:
        about += ":" + hashlib.sha256(f.subject.encode()).hexdigest()[:12]
    return about


def _result(f: Finding, r: GameResult, index: int, failing: frozenset[Kind]) -> dict[str, Any]:
    quoted = _sentence_locations(f, r)
    result: dict[str, Any] = {
        "ruleId": f.id,
        "ruleIndex": index,
        "level": _level(f, failing),
        "message": {"text": f.message},
        "locations": [_primary(f, r, quoted)],
        "partialFingerprints": {"rulePoint/v1": _identity(f, r.game)},
        "properties": {
            "kind": f.kind.value,
            "status": f.status,
            "finished": f.finished,
            "witness": f.witness.to_json() if f.witness else None,
        },
    }
    if (incomplete := f.unfinished_phrase()) is not None:
        result["properties"]["incomplete"] = incomplete
    if quoted:
        result["relatedLocations"] = [{"id": i, **loc} for i, loc in enumerate(quoted, start=1)]
    if r.baseline is not None:
        result["baselineState"] = "unchanged" if f.baselined else "new"
    if f.status == "resolved":
        how = f"rulebook edit: {f.edit}" if f.edit is not None else f"ruling {f.id}={f.ruling}"
        result["suppressions"] = [{"kind": "external", "status": "accepted", "justification": how}]
    return result


def _absent(entry: Mapping[str, str], r: GameResult, index: int) -> dict[str, Any]:
    return {
        "ruleId": entry["id"],
        "ruleIndex": index,
        "kind": "pass",
        "level": "none",
        "message": {"text": f"No longer reported (in the baseline): {entry.get('title', '')}"},
        "locations": [_location({"uri": r.source}, 1, None, "the game file")],
        "partialFingerprints": {"baseline/v1": entry["fingerprint"]},
        "baselineState": "absent",
    }


def _absent_rule(entry: Mapping[str, str]) -> dict[str, Any]:
    title = entry.get("title") or entry["id"]
    advice = "A finding recorded in the baseline that the check no longer reports."
    return {
        "id": entry["id"],
        "shortDescription": {"text": title},
        "fullDescription": {"text": title},
        "help": {"text": f"{title}\n\n{advice}", "markdown": f"**{title}**\n\n{advice}"},
    }


URL_LABELS = ("homepage", "documentation", "repository", "source")


def information_uri(distribution: str = "ruleslawyer") -> str | None:
    """The home page the installed distribution declares (its first ``Project-URL`` by
    :data:`URL_LABELS`), or None where it declares none or is not installed."""
    from importlib import metadata

    try:
        entries = metadata.metadata(distribution).get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    urls = {}
    for entry in entries:
        label, _, url = entry.partition(",")
        urls.setdefault(label.strip().lower(), url.strip())
    return next((urls[label] for label in URL_LABELS if urls.get(label)), None)


def document(results: Sequence[GameResult], fail_on: frozenset[Kind]) -> dict[str, Any]:
    failing = effective_fail_on(fail_on)
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}

    def rule_index(rule_id: str, make: Any) -> int:
        if rule_id not in index:
            index[rule_id] = len(rules)
            rules.append(make())
        return index[rule_id]

    out_results = []
    for r in results:
        for f in r.findings:
            out_results.append(_result(f, r, rule_index(f.id, lambda f=f: _rule(f)), failing))
        for entry in absent(r):
            i = rule_index(entry["id"], lambda e=entry: _absent_rule(e))
            out_results.append(_absent(entry, r, i))
    driver: dict[str, Any] = {"name": "ruleslawyer", "version": __version__}
    home = information_uri()
    if home is not None:
        driver["informationUri"] = home
    run: dict[str, Any] = {"tool": {"driver": {**driver, "rules": rules}}, "results": out_results}
    if any(
        loc["physicalLocation"]["artifactLocation"].get("uriBaseId") == SHIPPED
        for res in out_results
        for loc in [*res["locations"], *res.get("relatedLocations", [])]
    ):
        run["originalUriBaseIds"] = BASE_IDS
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def render(results: Sequence[GameResult], fail_on: frozenset[Kind]) -> str:
    return json.dumps(document(results, fail_on), indent=2, ensure_ascii=False) + "\n"
