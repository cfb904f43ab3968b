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

from ruleslawyer import coverage, games
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


def _game_module(source: GameSource, package: str) -> Any:
    """``ruleslawyer.reports.<package>.<game>`` for the game (its id in snake case), or None."""
    name = f"ruleslawyer.reports.{package}.{games.get(source.game).id.replace('-', '_')}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def pictures(source: GameSource, result: GameResult) -> list[Figure]:
    drawer = _game_module(source, "pictures")
    if drawer is None:
        return []
    return [Figure(*picture) for picture in drawer.pictures(source, result)]


def tables(source: GameSource, result: GameResult) -> list[str]:
    maker = _game_module(source, "tables")
    return [] if maker is None else list(maker.tables(source, result))


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
    covered = "\n".join(coverage.section(result.game, full=False))
    if fmt == "html":
        from ruleslawyer.reports.html_page import page

        body = game_report(result, fail_on, images, header=False, tables=extra)
        return {**svgs, f"{result.game}.html": page(result, f"{body}\n{covered}", svgs)}
    body = game_report(result, fail_on, images, tables=extra)
    return {**svgs, f"{result.game}.md": f"{body}\n{covered}"}
