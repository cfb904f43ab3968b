"""The designer's workflow: baselines, the impact of an edit, and explaining a rule point."""

from __future__ import annotations

from pathlib import Path

import click

from ruleslawyer.cli import completion
from ruleslawyer.cli.common import (
    EXIT_UNFINISHED,
    FilePath,
    emit,
    fail_on_option,
    format_option,
    max_seconds_option,
    one_line_errors,
    output_option,
    progress,
    ruling_option,
)


@click.command()
@click.argument("targets", nargs=-1, metavar="[GAME|FILE]...", shell_complete=completion.game_names)
@click.option(
    "-o",
    "--output",
    type=FilePath("a file's path to write"),
    required=True,
    help="The baseline file to write.",
)
@ruling_option
@max_seconds_option
@one_line_errors
def baseline(
    targets: tuple[str, ...], output: Path, rulings: tuple[str, ...], max_seconds: float | None
) -> None:
    """Record today's findings so `check --baseline FILE` fails only on new ones.

    \b
    FILE: a game file (TOML), as for `ruleslawyer check`; writes JSON fingerprints.
    Example: examples/designer-repo/ (board.toml and its ruleslawyer-baseline.json).
    """
    from ruleslawyer.budget import Budget
    from ruleslawyer.designer import baseline as baselines
    from ruleslawyer.designer.checking import check_all
    from ruleslawyer.findings import parse_ruling_options

    budget = Budget(max_seconds=max_seconds)
    results = check_all(targets, parse_ruling_options(rulings), budget, progress)
    count = sum(len(r.findings) for r in results)
    cut = sum(len(r.unfinished()) for r in results)
    note = f"; finished: false ({cut} search(es) ran out of the budget)" if cut else ""
    emit(baselines.render(results), output, note=f": {count} finding(s){note}")
    if cut:
        raise SystemExit(EXIT_UNFINISHED)


@click.command()
@click.argument("old", metavar="OLD")
@click.argument("new", metavar="NEW")
@format_option(("text", "json", "markdown"))
@output_option
@fail_on_option
@ruling_option
@click.option(
    "--game",
    default=None,
    metavar="GAME",
    help="With two rulebook versions: the game whose rule points to compare "
    "(default: the game whose quotes they hold).",
)
@max_seconds_option
@one_line_errors
def diff(
    old: str,
    new: str,
    fmt: str,
    output: Path | None,
    fail_on: str,
    rulings: tuple[str, ...],
    game: str | None,
    max_seconds: float | None,
) -> None:
    """Show what changes from game file OLD to NEW: findings, witnesses, rulings, solver answers.

    \b
    OLD, NEW: two versions of a game file (TOML), or of a rulebook (Markdown, text).
    Example: examples/designer-repo/board.toml, examples/designer-repo/rules/kaelyfos.md.

    Given two rulebook versions, it lists the rule points whose quoted sentences
    changed and the new sentences nothing covers (see `coverage`), and exits 1
    when there is any.
    """
    from ruleslawyer.rulebook.quotes import is_rulebook

    if is_rulebook(old) and is_rulebook(new):
        _rulebook_diff(old, new, game, fmt, output)
        return
    from ruleslawyer.budget import Budget
    from ruleslawyer.designer.diffing import diff_files, render
    from ruleslawyer.findings import parse_kinds, parse_ruling_options

    kinds = parse_kinds(fail_on)
    _compile_if_twist_of_fate(old, new, max_seconds)
    progress(f"checking {old} and {new} ...")
    result = diff_files(old, new, parse_ruling_options(rulings), Budget(max_seconds=max_seconds))
    emit(render(result, kinds, fmt), output)
    if result.failing(kinds):
        raise SystemExit(1)
    if not result.finished:
        raise SystemExit(EXIT_UNFINISHED)


def _compile_if_twist_of_fate(old: str, new: str, max_seconds: float | None) -> None:
    """Twist of Fate decks are compared by solving positions: load or compile the
    solver's kernels first, saying so on a terminal (``twist-of-fate solve`` does the
    same), so that a first run is not silent and no budget counts the compile."""
    from ruleslawyer.gamefiles.source import load_source

    if any(load_source(path).game == "twist-of-fate" for path in (old, new)):
        from ruleslawyer.cli.twist_of_fate.kernels import compiled_first

        compiled_first(["memory"], max_seconds)


def _rulebook_diff(old: str, new: str, game: str | None, fmt: str, output: Path | None) -> None:
    from ruleslawyer import games
    from ruleslawyer.errors import InputError
    from ruleslawyer.rulebook.books import read
    from ruleslawyer.rulebook.coverage import uncovered
    from ruleslawyer.rulebook.quotes import compare, quoted_game, render_changes

    books = [read(Path(p), p, origin=p, place="") for p in (old, new)]
    if game is None:
        points = {g: info.rule_points() for g, info in games.GAMES.items()}
        game = quoted_game(books, points)
        if game is None:
            raise InputError(old, "", "no rule point quotes", f"--game ({', '.join(games.GAMES)})")
    changes = compare(games.get(game).rule_points(), *books)
    before = {text for _, text in uncovered(game, books[0])}
    added = [(n, text) for n, text in uncovered(game, books[1]) if text not in before]
    emit(render_changes(game, *books, changes, fmt, added), output)
    if any(c.change == "changed" for c in changes) or added:
        raise SystemExit(1)


@click.command()
@click.argument("point_id", metavar="ID", required=False, shell_complete=completion.point_ids)
@click.option("--list", "list_points", is_flag=True, help="List every rule point id and exit.")
@click.option(
    "--game-file",
    "game_file",
    default=None,
    metavar="FILE",
    help="Explain against this game file instead of the built-in one.",
)
@ruling_option
@max_seconds_option
@one_line_errors
def explain(
    point_id: str | None,
    list_points: bool,
    game_file: str | None,
    rulings: tuple[str, ...],
    max_seconds: float | None,
) -> None:
    """Explain a rule point: its sentences, readings, ruling and the witness where readings part.

    \b
    ID: a rule point id such as kaelyfos/attack-removal (`ruleslawyer explain --list`).
    FILE: a game file (TOML), as for `ruleslawyer check`; e.g. examples/designer-repo/board.toml.
    """
    from ruleslawyer import games
    from ruleslawyer.budget import Budget
    from ruleslawyer.designer.checking import check_source, validate_cli_rulings
    from ruleslawyer.designer.explaining import explain as words
    from ruleslawyer.errors import InputError
    from ruleslawyer.findings import parse_ruling_options
    from ruleslawyer.gamefiles.source import load_source

    if list_points:
        points = [p for info in games.GAMES.values() for p in info.rule_points()]
        emit("".join(f"{p.id:<48} {p.kind.value:<15} {p.title}\n" for p in points), None)
        return
    expected = "a rule point id (`ruleslawyer explain --list`)"
    if point_id is None:
        raise InputError("ID", "", None, expected)
    game = point_id.split("/", 1)[0]
    if game not in games.GAMES:
        raise InputError("ID", "", point_id, expected + games.suggestion(game, games.GAMES))
    source = load_source(game_file or game)
    info = games.get(source.game)
    ids = [p.id for p in info.rule_points()]
    if source.game != game or point_id not in ids:
        names = {i.split("/", 1)[1]: i for i in ids}  # compare the names, not the game prefix
        close = games.closest(point_id.split("/", 1)[-1], names)
        hint = f"; did you mean '{names[close]}'?" if close else ""
        raise InputError("ID", "", point_id, expected + hint)
    cli_rulings = parse_ruling_options(rulings)
    validate_cli_rulings([source], cli_rulings)
    progress(f"checking {source.display} ...")
    result = check_source(source, cli_rulings, Budget(max_seconds=max_seconds))
    finding = next(f for f in result.findings if f.id == point_id)
    point = next(p for p in info.rule_points() if p.id == point_id)
    emit(words(point, finding, result), None)
    if not finding.finished:
        raise SystemExit(EXIT_UNFINISHED)


@click.command()
@click.argument("targets", nargs=-1, metavar="[GAME|FILE]...")
@format_option(("text", "json", "markdown"))
@output_option
@one_line_errors
def coverage(targets: tuple[str, ...], fmt: str, output: Path | None) -> None:
    """Show what covers each sentence of a game's rulebook: model code, a rule point, or why not.

    \b
    FILE: a game file (TOML), or GAME: a game id (default: all four games).
    Example: examples/designer-repo/board.toml, which names its own rulebook.

    For a file that names its own rulebook, the sentences of it that nothing
    covers are listed too (check reports each as a gap).
    """
    from ruleslawyer import games
    from ruleslawyer.gamefiles.source import load_source
    from ruleslawyer.rulebook import coverage as covering

    shown = []
    for target in targets or tuple(games.GAMES):
        if target in games.GAMES:
            shown.append(covering.Target(target))
            continue
        source = load_source(target)
        book = source.rulebook()
        if book is None:
            shown.append(covering.Target(source.game))
            continue
        found = covering.uncovered(source.game, book, source.coverage())
        shown.append(covering.Target(source.game, book.display, tuple(found)))
    emit(covering.render(shown, fmt), output)


COMMANDS = (baseline, diff, explain, coverage)
