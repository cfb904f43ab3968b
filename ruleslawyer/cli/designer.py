"""The designer's workflow: baselines, the impact of an edit, and explaining a rule point."""

from __future__ import annotations

from pathlib import Path

import click

from ruleslawyer.cli.common import (
    emit,
    fail_on_option,
    format_option,
    max_seconds_option,
    one_line_errors,
    output_option,
    ruling_option,
)


@click.command()
@click.argument("targets", nargs=-1, metavar="[GAME|FILE]...")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The baseline file to write.",
)
@ruling_option
@max_seconds_option
@one_line_errors
def baseline(
    targets: tuple[str, ...], output: Path, rulings: tuple[str, ...], max_seconds: float | None
) -> None:
    """Record today's findings so `check --baseline FILE` fails only on new ones."""
    from ruleslawyer import baseline as baselines
    from ruleslawyer.budget import Budget
    from ruleslawyer.checking import check_all
    from ruleslawyer.findings import parse_ruling_options

    results = check_all(targets, parse_ruling_options(rulings), Budget(max_seconds=max_seconds))
    emit(baselines.render(results), output)
    count = sum(len(r.findings) for r in results)
    click.echo(f"wrote {output}: {count} finding(s)", err=True)


@click.command()
@click.argument("old", metavar="OLD")
@click.argument("new", metavar="NEW")
@format_option(("text", "json", "markdown"))
@output_option
@fail_on_option
@ruling_option
@max_seconds_option
@one_line_errors
def diff(
    old: str,
    new: str,
    fmt: str,
    output: Path | None,
    fail_on: str,
    rulings: tuple[str, ...],
    max_seconds: float | None,
) -> None:
    """Show what changes from game file OLD to NEW: findings, witnesses, rulings, solver answers."""
    from ruleslawyer.budget import Budget
    from ruleslawyer.diffing import diff_files, render
    from ruleslawyer.findings import parse_kinds, parse_ruling_options

    kinds = parse_kinds(fail_on)
    result = diff_files(old, new, parse_ruling_options(rulings), Budget(max_seconds=max_seconds))
    emit(render(result, kinds, fmt), output)
    if result.failing(kinds):
        raise SystemExit(1)


@click.command()
@click.argument("point_id", metavar="ID")
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
    point_id: str, game_file: str | None, rulings: tuple[str, ...], max_seconds: float | None
) -> None:
    """Explain a rule point: its sentences, readings, ruling and the witness where readings part."""
    from ruleslawyer import games
    from ruleslawyer.budget import Budget
    from ruleslawyer.checking import check_source, validate_cli_rulings
    from ruleslawyer.errors import InputError
    from ruleslawyer.explaining import explain as words
    from ruleslawyer.findings import parse_ruling_options

    game, slash, _ = point_id.partition("/")
    if not (game and slash):
        raise InputError("ID", "", point_id, "a rule point id such as kaelyfos/attack-removal")
    source = games.load_source(game_file or game)
    info = games.get(source.game)
    if source.game != game or point_id not in {p.id for p in info.rule_points()}:
        known = ", ".join(p.id for p in info.rule_points())
        raise InputError("ID", "", point_id, f"a rule point of {source.game} ({known})")
    cli_rulings = parse_ruling_options(rulings)
    validate_cli_rulings([source], cli_rulings)
    result = check_source(source, cli_rulings, Budget(max_seconds=max_seconds))
    finding = next(f for f in result.findings if f.id == point_id)
    point = next(p for p in info.rule_points() if p.id == point_id)
    emit(words(point, finding, result), None)


COMMANDS = (baseline, diff, explain)
