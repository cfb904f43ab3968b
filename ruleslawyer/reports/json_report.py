"""The JSON form of ``ruleslawyer check``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ruleslawyer import __version__
from ruleslawyer.designer.checking import GameResult, effective_fail_on
from ruleslawyer.findings import Kind
from ruleslawyer.schemas import dumps


def document(results: Sequence[GameResult], fail_on: frozenset[Kind]) -> dict[str, Any]:
    failing = effective_fail_on(fail_on)
    return {
        "tool": {"name": "ruleslawyer", "version": __version__},
        "fail_on": sorted(k.value for k in failing),
        "games": [
            {
                "game": r.game,
                "title": r.title,
                "source": r.source,
                "provenance": r.provenance,
                "warning": r.warning,
                "rulings": dict(r.rulings),
                "findings": [{**f.to_json(), "fails": f.fails(failing)} for f in r.findings],
            }
            for r in results
        ],
    }


def render(results: Sequence[GameResult], fail_on: frozenset[Kind]) -> str:
    return dumps(document(results, fail_on), ensure_ascii=False)
