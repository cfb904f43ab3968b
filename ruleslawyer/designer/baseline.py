"""Baselines: the findings a designer has accepted, so CI fails only on new ones.

A baseline file is JSON written by ``ruleslawyer baseline``. Findings are
matched by :meth:`~ruleslawyer.findings.Finding.fingerprint`, which ignores
line numbers and the order of the game file.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruleslawyer import __version__
from ruleslawyer.designer.checking import GameResult
from ruleslawyer.errors import InputError
from ruleslawyer.gamefiles.inputs import check_nesting, read_text, too_deep
from ruleslawyer.schemas import dumps

FORMAT = "ruleslawyer-baseline/1"


def render(results: Sequence[GameResult]) -> str:
    doc = {
        "format": FORMAT,
        "tool": {"name": "ruleslawyer", "version": __version__},
        "findings": sorted(
            (
                {
                    "fingerprint": f.fingerprint(r.game),
                    "game": r.game,
                    "id": f.id,
                    "kind": f.kind.value,
                    "status": f.status,
                    "title": f.title,
                }
                for r in results
                for f in r.findings
            ),
            key=lambda e: (e["game"], e["id"], e["fingerprint"]),
        ),
    }
    return dumps(doc, ensure_ascii=False)


@dataclass(frozen=True)
class Baseline:
    """The findings of a baseline file: each entry as written (fingerprint, game, id, kind, ...)."""

    entries: tuple[Mapping[str, str], ...]

    @property
    def fingerprints(self) -> frozenset[str]:
        return frozenset(e["fingerprint"] for e in self.entries)


def load(path: Path) -> Baseline:
    """The findings recorded in a baseline file."""
    shown = str(path)
    text = read_text(path, shown, "a baseline written by `ruleslawyer baseline`")
    try:
        doc: Any = json.loads(text)
    except RecursionError:
        raise too_deep(shown) from None
    except json.JSONDecodeError as exc:
        place = f"line {exc.lineno}, column {exc.colno}"
        raise InputError(shown, place, exc.msg, "a JSON baseline file") from None
    except ValueError:  # an integer of more digits than Python converts
        raise InputError(shown, "", "a number too long", "a JSON baseline file") from None
    check_nesting(doc, shown)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        found = doc.get("format") if isinstance(doc, dict) else type(doc).__name__
        raise InputError(shown, "format", found, repr(FORMAT))
    entries = doc.get("findings")
    if not isinstance(entries, list):
        raise InputError(shown, "findings", entries, "a list of findings")
    out = []
    for i, entry in enumerate(entries):
        value = entry.get("fingerprint") if isinstance(entry, dict) else None
        if not isinstance(value, str):
            raise InputError(shown, f"findings[{i}].fingerprint", value, "a fingerprint string")
        out.append({k: str(v) for k, v in entry.items() if isinstance(v, str)})
    return Baseline(tuple(out))


def apply(results: Sequence[GameResult], accepted: Baseline) -> list[GameResult]:
    """Mark the findings already in the baseline; they no longer count toward --fail-on.

    Each result also keeps the baseline's entries for its game, so writers can
    tell new findings from unchanged ones and list those now absent.
    """
    prints = accepted.fingerprints
    return [
        dataclasses.replace(
            r,
            findings=tuple(
                dataclasses.replace(f, baselined=f.fingerprint(r.game) in prints)
                for f in r.findings
            ),
            baseline=tuple(e for e in accepted.entries if e.get("game") == r.game),
        )
        for r in results
    ]


def absent(result: GameResult) -> list[Mapping[str, str]]:
    """The baseline entries of ``result``'s game that it no longer reports."""
    now = {f.fingerprint(result.game) for f in result.findings}
    return [e for e in result.baseline or () if e["fingerprint"] not in now]
