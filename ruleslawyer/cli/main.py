"""``ruleslawyer``: check rulebooks, write reports, and solve positions per game."""

from __future__ import annotations

import importlib
import shlex
from pathlib import Path
from typing import Any

import click

from ruleslawyer import __version__
from ruleslawyer.cli import completion
from ruleslawyer.cli.common import (
    EXIT_UNFINISHED,
    INPUT_FILE,
    Directory,
    FilePath,
    answer_given,
    emit,
    fail_on_option,
    format_option,
    held_interrupts,
    interrupted,
    max_seconds_option,
    one_line_errors,
    output_option,
    progress,
    ruling_option,
    run_as_console_script,
)
from ruleslawyer.games import GAMES

FINDING_FORMATS = ("text", "json", "markdown", "sarif", "junit")


class OneLineUsageError(click.UsageError):
    """A malformed command line, told in one line (like every other bad input) and exit 2."""

    def show(self, file: Any = None) -> None:
        from ruleslawyer.errors import printable

        where = self.ctx.command_path if self.ctx is not None else "ruleslawyer"
        click.echo(
            f"error: {where}: {printable(self.format_message())} (see `{where} --help`)",
            file=file,
            err=file is None,
        )


def _one_line(error: click.UsageError) -> OneLineUsageError:
    if isinstance(error, OneLineUsageError):
        return error
    return OneLineUsageError(error.format_message(), error.ctx)


class GameGroups(click.Group):
    """Adds one lazily imported command group per game (``ruleslawyer kaelyfos step``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        base = super().list_commands(ctx)
        return base + sorted(g.id for g in GAMES.values() if g.cli)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        if command is not None:
            return command
        info = GAMES.get(name)
        if info is None or info.cli is None:
            return None
        return importlib.import_module(info.cli).group

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = click.utils.make_str(args[0]) if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            from ruleslawyer.games import suggestion

            ctx.fail(f"No such command '{name}'{suggestion(name, self.list_commands(ctx))}")
        return super().resolve_command(ctx, args)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as error:
            raise _one_line(error) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as error:  # a subcommand's own command line
            raise _one_line(error) from None
        except KeyboardInterrupt:  # outside a command's own handler (e.g. while importing)
            interrupted()

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = super().get_command(ctx, name)
            if command is not None:
                rows.append((name, command.get_short_help_str(60)))
            else:
                rows.append((name, GAMES[name].cli_help))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=GameGroups, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ruleslawyer")
def cli() -> None:
    """Model tabletop games formally and find the holes in their rulebooks.

    Exit codes: 0 success (for check: nothing at or above --fail-on),
    1 findings at or above --fail-on, 2 bad input or usage,
    3 a search did not finish within its budget (and nothing else failed),
    130 interrupted (Ctrl-C): nothing reported, no output file changed.
    """


@cli.command()
@one_line_errors
def games() -> None:
    """List the built-in games."""
    lines = [f"{i.id:<18} {i.title}  (ruleslawyer/data/{i.data_file})\n" for i in GAMES.values()]
    emit("".join(lines), None)


@cli.command()
@click.argument("targets", nargs=-1, metavar="[GAME|FILE]...", shell_complete=completion.game_names)
@format_option(FINDING_FORMATS)
@output_option
@fail_on_option
@ruling_option
@click.option(
    "--baseline",
    type=INPUT_FILE,
    default=None,
    help="Findings already in this baseline (from `ruleslawyer baseline`) do not fail.",
)
@click.option(
    "--baseline-if-present",
    "default_baseline",
    type=FilePath("a baseline file's path"),
    default=None,
    metavar="FILE",
    help="Use FILE as --baseline when it exists (and no --baseline is given); else check "
    "without one. The published pre-commit hook passes ruleslawyer-baseline.json.",
)
@click.option(
    "--only-game-files",
    is_flag=True,
    help="Leave out FILEs that are no game file (positions, logs and records of play, other "
    "TOML: a game key naming no game, a game's table names shaped otherwise), and check "
    "nothing (not every built-in game) when none is left: for pre-commit, which passes "
    "every staged .toml.",
)
@max_seconds_option
@one_line_errors
def check(
    targets: tuple[str, ...],
    fmt: str,
    output: Path | None,
    fail_on: str,
    rulings: tuple[str, ...],
    baseline: Path | None,
    default_baseline: Path | None,
    only_game_files: bool,
    max_seconds: float | None,
) -> None:
    """Run every rule check on built-in games or game files (all built-in games by default).

    \b
    FILE: a game file (TOML): a board, deck or compositions, `provenance`, `[rulings]`.
    Examples: ruleslawyer/data/*.toml (built in), examples/kaelyfos/tiny-board.toml.
    """
    from ruleslawyer.budget import Budget
    from ruleslawyer.designer import baseline as baselines
    from ruleslawyer.designer.checking import check_all, game_files
    from ruleslawyer.findings import parse_kinds, parse_ruling_options
    from ruleslawyer.reports import markdown, renderer

    if only_game_files:
        targets = tuple(game_files(targets))
        if not targets:
            click.echo("no game files among the files given: nothing to check", err=True)
            return
    kinds = parse_kinds(fail_on)
    if baseline is None and default_baseline is not None and default_baseline.exists():
        baseline = default_baseline
    accepted = baselines.load(baseline) if baseline is not None else None
    budget = Budget(max_seconds=max_seconds)
    results = check_all(targets, parse_ruling_options(rulings), budget, progress)
    if accepted is not None:
        results = baselines.apply(results, accepted)
    if fmt == "markdown":  # its note names the command that wrote it: this one
        words = ["ruleslawyer", "check", *targets, "--format", "markdown"]
        words += _report_options("markdown", fail_on, rulings)
        words += ["--baseline", str(baseline)] if baseline is not None else []
        emit(markdown.render(results, kinds, command=shlex.join(words)), output)
    else:
        emit(renderer(fmt)(results, kinds), output)
    if any(r.failing(kinds) for r in results):
        raise SystemExit(1)
    if any(r.unfinished() for r in results):
        raise SystemExit(EXIT_UNFINISHED)


@cli.command()
@click.argument("targets", nargs=-1, metavar="[GAME|FILE]...", shell_complete=completion.game_names)
@click.option(
    "--dir",
    "directory",
    type=Directory(),
    default=Path("reports"),
    show_default=True,
    help="Directory to write <page>.md (or .html) and <page>/*.svg into; <page> is the "
    "game id, or the game file's name without .toml.",
)
@format_option(("markdown", "html"), default="markdown")
@fail_on_option
@ruling_option
@max_seconds_option
@one_line_errors
def report(
    targets: tuple[str, ...],
    directory: Path,
    fmt: str,
    fail_on: str,
    rulings: tuple[str, ...],
    max_seconds: float | None,
) -> None:
    """Write a report with pictures per game (all built-in games by default).

    \b
    FILE: a game file (TOML), as for `ruleslawyer check`.
    Examples: ruleslawyer/data/*.toml (the built-in games), examples/designer-repo/board.toml.

    One page per game file: <page> is the built-in game's id or the file's name
    (-2, -3, ... where two would share one); --format html also writes index.html,
    linking them. The whole set is written, then swapped in at once. Exits 1 when a
    finding is at or above --fail-on, else 3 when a search did not finish (as check does).
    """
    from ruleslawyer.budget import Budget
    from ruleslawyer.designer.checking import check_sources, load_all
    from ruleslawyer.findings import parse_kinds, parse_ruling_options
    from ruleslawyer.gamefiles.outputs import write_set
    from ruleslawyer.reports.files import index_file, page_files, page_names

    kinds = parse_kinds(fail_on)
    sources = load_all(targets)
    budget = Budget(max_seconds=max_seconds)
    results = check_sources(sources, parse_ruling_options(rulings), budget, progress)
    files: dict[str, str] = {}
    finished = True  # every designer table's search (the Kaelyfos card table) within budget
    names = page_names(sources, reserved=("index",) if fmt == "html" else ())
    options = _report_options(fmt, fail_on, rulings)
    for source, result, name in zip(sources, results, names, strict=True):
        progress(f"drawing the pictures of {source.display} ...")
        target = source.game if source.built_in else source.display
        command = shlex.join(["ruleslawyer", "report", target, *options])
        page = page_files(source, result, kinds, fmt, name, command, budget)
        files.update(page.files)
        finished = finished and page.finished
    if fmt == "html":
        pages = [(f"{name}.html", result) for name, result in zip(names, results, strict=True)]
        files.update(
            index_file(pages, kinds, shlex.join(["ruleslawyer", "report", *targets, *options]))
        )
    with held_interrupts():
        write_set(directory, files)
        for name in files:
            click.echo(f"wrote {directory / name}", err=True)
        answer_given()
    if any(r.failing(kinds) for r in results):
        raise SystemExit(1)
    if not finished or any(r.unfinished() for r in results):
        raise SystemExit(EXIT_UNFINISHED)


def _report_options(fmt: str, fail_on: str, rulings: tuple[str, ...]) -> list[str]:
    """The options of a ``report`` command line that change what a page says."""
    options = [] if fmt == "markdown" else ["--format", fmt]
    from ruleslawyer.findings import DEFAULT_FAIL_ON, parse_kinds

    if parse_kinds(fail_on) != DEFAULT_FAIL_ON:
        options += ["--fail-on", fail_on]
    for ruling in rulings:
        options += ["--ruling", ruling]
    return options


from ruleslawyer.cli import designer  # noqa: E402  (commands registered below)

for _command in designer.COMMANDS:
    cli.add_command(_command)


def main() -> None:
    run_as_console_script()
    try:
        cli(prog_name="ruleslawyer")
    except (OSError, UnicodeEncodeError) as exc:  # click's own output: --help, --version
        if not _writing_stdout(exc):
            raise
        from ruleslawyer.gamefiles.outputs import unwritable_stdout, unwritable_text

        if isinstance(exc, UnicodeEncodeError):
            error = unwritable_text(exc.object, exc.encoding)
        else:
            error = unwritable_stdout(exc)
        click.echo(f"error: {error}", err=True)
        raise SystemExit(2) from None


def _writing_stdout(exc: BaseException) -> bool:
    """Whether ``exc`` was raised writing to stdout (``click.echo``'s ``file``): the last
    frame of its traceback writes there."""
    import sys

    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_locals.get("file") is sys.stdout
