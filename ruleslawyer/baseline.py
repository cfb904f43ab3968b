"""Baselines: the findings a designer has accepted, so CI fails only on new ones.

A baseline file is JSON written by ``ruleslawyer baseline``. Findings are
matched by :meth:`~ruleslawyer.findings.Finding.fingerprint`, which ignores
line numbers and the order of the game file.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ruleslawyer import __version__
from ruleslawyer.checking import GameResult
from ruleslawyer.errors import InputError
from ruleslawyer.inputs import check_nesting, read_text, too_deep

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
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def load(path: Path) -> frozenset[str]:
    """The fingerprints in a baseline file."""
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
    prints = []
    for i, entry in enumerate(entries):
        value = entry.get("fingerprint") if isinstance(entry, dict) else None
        if not isinstance(value, str):
            raise InputError(shown, f"findings[{i}].fingerprint", value, "a fingerprint string")
        prints.append(value)
    return frozenset(prints)


def apply(results: Sequence[GameResult], fingerprints: frozenset[str]) -> list[GameResult]:
    """Mark the findings already in the baseline; they no longer count toward --fail-on."""
    return [
        dataclasses.replace(
            r,
            findings=tuple(
                dataclasses.replace(f, baselined=f.fingerprint(r.game) in fingerprints)
                for f in r.findings
            ),
        )
        for r in results
    ]
