"""The files ``ruleslawyer report`` writes for one game: Markdown or HTML, plus SVG pictures.

A game may have a module ``ruleslawyer/reports/pictures/<module>.py`` (named
like its checks module) defining ``pictures(source, result)`` that returns
``[(name, caption, svg_text), ...]`` or ``[(name, caption, svg_text,
finding_id), ...]``; they are written to ``<dir>/<page>/<name>.svg`` and shown
beside the finding they draw (those without a finding id after the summary
table). The HTML page inlines them, so it is one self-contained file.

Each game file gets its own page, ``<dir>/<page>.md`` (or ``.html``): ``<page>``
is the game id for a built-in game and the file's stem for a designer's file,
with ``-2``, ``-3``, ... where two game files of one run would share a name
(:func:`page_names`), so no page overwrites another. With ``--format html``,
``<dir>/index.html`` links every page of the run.

A game may also have ``ruleslawyer/reports/tables/<module>.py`` defining
``tables(source, result, budget)`` that returns a :class:`Table` (Markdown lines: a
designer's table, shown after the summary table and the game's own pictures), which
says whether it finished within the run's budget (``--max-seconds``).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ruleslawyer import games
from ruleslawyer.budget import Budget
from ruleslawyer.designer.checking import GameResult
from ruleslawyer.findings import Kind
from ruleslawyer.gamefiles.source import GameSource
from ruleslawyer.reports.markdown import game_report
from ruleslawyer.rulebook import coverage


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


class Table(NamedTuple):
    """A designer's table of a report: its Markdown lines, and whether its search finished."""

    lines: list[str]
    finished: bool = True


class Page(NamedTuple):
    """The files of one game file's report (relative path -> content), and whether every
    search of its tables finished."""

    files: dict[str, str]
    finished: bool


def tables(source: GameSource, result: GameResult, budget: Budget | None = None) -> Table:
    maker = _game_module(source, "tables")
    return Table([]) if maker is None else maker.tables(source, result, budget or Budget())


def page_names(sources: Sequence[GameSource], reserved: Sequence[str] = ()) -> list[str]:
    """Each game file's page name: the game id (built in) or the file's stem, made unique.

    Characters other than letters, digits, ``.``, ``_`` and ``-`` become ``-``; a name
    taken by an earlier file of the run (or ``reserved``) gets ``-2``, ``-3``, ...
    """
    taken = set(reserved)
    names = []
    for source in sources:
        stem = source.game if source.built_in else Path(source.display).stem
        base = re.sub(r"[^A-Za-z0-9._-]", "-", stem).strip(".") or source.game
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}-{n}"
        taken.add(name)
        names.append(name)
    return names


def page_files(
    source: GameSource,
    result: GameResult,
    fail_on: frozenset[Kind],
    fmt: str = "markdown",
    name: str | None = None,
    command: str | None = None,
    budget: Budget | None = None,
) -> Page:
    """The files of one game file's report, its page called ``name``, and whether its tables'
    searches finished within ``budget``.

    ``name`` defaults to the game id; ``command`` is the one the page says wrote it.
    """
    name = name or result.game
    figures = pictures(source, result)
    table = tables(source, result, budget)
    extra = table.lines
    svgs = {f"{name}/{fig.name}.svg": fig.svg for fig in figures}
    images: dict[str | None, list[tuple[str, str]]] = {}
    for fig in figures:
        images.setdefault(fig.finding, []).append((f"{name}/{fig.name}.svg", fig.caption))
    covered = "\n".join(coverage.section(result.game, full=False))
    if fmt == "html":
        from ruleslawyer.reports.html_page import page

        body = game_report(result, fail_on, images, header=False, tables=extra)
        html = page(result, f"{body}\n{covered}", svgs, command)
        return Page({**svgs, f"{name}.html": html}, table.finished)
    text = game_report(result, fail_on, images, tables=extra, command=command)
    return Page({**svgs, f"{name}.md": f"{text}\n{covered}"}, table.finished)


def report_files(source: GameSource, result: GameResult, *args: Any) -> dict[str, str]:
    """Relative path -> content, for one game file's report (:func:`page_files`' files)."""
    return page_files(source, result, *args).files


def index_file(
    pages: Sequence[tuple[str, GameResult]], fail_on: frozenset[Kind], command: str
) -> dict[str, str]:
    """``index.html``: every page of the run (``(page file, result)``), linked."""
    from ruleslawyer.reports.html_page import IndexEntry, index_page

    entries = [IndexEntry(page, r, len(r.failing(fail_on))) for page, r in pages]
    return {"index.html": index_page(entries, command)}
