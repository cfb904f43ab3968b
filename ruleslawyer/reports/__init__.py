"""Writers that turn check results into text, JSON, Markdown, SARIF 2.1.0 and JUnit XML.

Each writer is a function ``render(results, fail_on) -> str``; :data:`FORMATS`
maps the ``--format`` names to them. Output is deterministic: no timestamps,
no timings, the same order every run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ruleslawyer.designer.checking import GameResult
from ruleslawyer.findings import Kind

Renderer = Callable[[Sequence[GameResult], frozenset[Kind]], str]

FORMAT_NAMES = ("text", "json", "markdown", "sarif", "junit")


def renderer(name: str) -> Renderer:
    """The writer for a ``--format`` name."""
    from ruleslawyer.reports import json_report, junit, markdown, sarif, text

    return {
        "text": text.render,
        "json": json_report.render,
        "markdown": markdown.render,
        "sarif": sarif.render,
        "junit": junit.render,
    }[name]
