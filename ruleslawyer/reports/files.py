"""The files ``ruleslawyer report`` writes for one game: Markdown or HTML, plus SVG pictures.

A game may have a module ``ruleslawyer/reports/pictures/<module>.py`` (named
like its checks module) defining ``pictures(source, result)`` that returns
``[(name, caption, svg_text), ...]`` or ``[(name, caption, svg_text,
finding_id), ...]``; they are written to ``<dir>/<game>/<name>.svg`` and shown
beside the finding they draw (those without a finding id after the summary
table). The HTML page inlines them, so it is one self-contained file.

A game may also have ``ruleslawyer/reports/tables/<module>.py`` defining
``tables(source, result)`` that returns Markdown lines (a designer's table), shown
after the summary table and the game's own pictures.
"""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple

from ruleslawyer import games
from ruleslawyer.checking import GameResult
from ruleslawyer.findings import Kind
from ruleslawyer.gamefiles import GameSource
from ruleslawyer.reports.markdown import game_report


class Figure(NamedTuple):
    """One picture of a report: its file name (no suffix), caption, SVG, and finding."""

    name: str
    caption: str
    svg: str
    finding: str | None = None


def pictures(source: GameSource, result: GameResult) -> list[Figure]:
    module = games.get(source.game).checks.rsplit(".", 1)[-1]
    try:
        drawer: Any = importlib.import_module(f"ruleslawyer.reports.pictures.{module}")
    except ModuleNotFoundError as exc:
        if exc.name != f"ruleslawyer.reports.pictures.{module}":
            raise
        return []
    return [Figure(*picture) for picture in drawer.pictures(source, result)]


def tables(source: GameSource, result: GameResult) -> list[str]:
    module = games.get(source.game).checks.rsplit(".", 1)[-1]
    try:
        maker: Any = importlib.import_module(f"ruleslawyer.reports.tables.{module}")
    except ModuleNotFoundError as exc:
        if exc.name != f"ruleslawyer.reports.tables.{module}":
            raise
        return []
    return list(maker.tables(source, result))


def report_files(
    source: GameSource, result: GameResult, fail_on: frozenset[Kind], fmt: str = "markdown"
) -> dict[str, str]:
    """Relative path -> content, for one game's report."""
    figures = pictures(source, result)
    extra = tables(source, result)
    svgs = {f"{result.game}/{fig.name}.svg": fig.svg for fig in figures}
    images: dict[str | None, list[tuple[str, str]]] = {}
    for fig in figures:
        images.setdefault(fig.finding, []).append((f"{result.game}/{fig.name}.svg", fig.caption))
    if fmt == "html":
        from ruleslawyer.reports.html_page import page

        body = game_report(result, fail_on, images, header=False, tables=extra)
        return {**svgs, f"{result.game}.html": page(result, body, svgs)}
    return {**svgs, f"{result.game}.md": game_report(result, fail_on, images, tables=extra)}
