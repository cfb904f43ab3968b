"""The files ``ruleslawyer report`` writes for one game: Markdown or HTML, plus SVG pictures.

A game may have a module ``ruleslawyer/reports/pictures/<module>.py`` (named
like its checks module) defining ``pictures(source, result)`` that returns
``[(name, caption, svg_text), ...]``; they are written to
``<dir>/<game>/<name>.svg`` and shown in the report.
"""

from __future__ import annotations

import html
import importlib
from typing import Any

from ruleslawyer import games
from ruleslawyer.checking import GameResult
from ruleslawyer.findings import Kind
from ruleslawyer.gamefiles import GameSource
from ruleslawyer.reports.markdown import game_report

Pictures = list[tuple[str, str, str]]


def pictures(source: GameSource, result: GameResult) -> Pictures:
    module = games.get(source.game).checks.rsplit(".", 1)[-1]
    try:
        drawer: Any = importlib.import_module(f"ruleslawyer.reports.pictures.{module}")
    except ModuleNotFoundError as exc:
        if exc.name != f"ruleslawyer.reports.pictures.{module}":
            raise
        return []
    return list(drawer.pictures(source, result))


def report_files(
    source: GameSource, result: GameResult, fail_on: frozenset[Kind], fmt: str = "markdown"
) -> dict[str, str]:
    """Relative path -> content, for one game's report."""
    pics = pictures(source, result)
    out = {f"{result.game}/{name}.svg": svg for name, _, svg in pics}
    text = game_report(result, fail_on)
    if pics:
        text += "\n## Pictures\n\n" + "".join(
            f"![{caption}]({result.game}/{name}.svg)\n\n{caption}\n\n" for name, caption, _ in pics
        )
        text = text.rstrip() + "\n"
    if fmt == "html":
        out[f"{result.game}.html"] = _html(result, text, pics)
    else:
        out[f"{result.game}.md"] = text
    return out


def _html(result: GameResult, markdown: str, pics: Pictures) -> str:
    """One self-contained page: the report's text (pre-formatted Markdown) with inline SVG."""
    body = markdown.split("\n## Pictures\n", 1)[0]
    figures = "".join(
        f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>\n"
        for _, caption, svg in pics
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(result.title)}: rulebook findings</title>"
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
        "pre{white-space:pre-wrap}figure{margin:1em 0}</style></head><body>\n"
        f"<pre>{html.escape(body)}</pre>\n{figures}</body></html>\n"
    )
