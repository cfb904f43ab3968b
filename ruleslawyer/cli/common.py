"""Options and error handling every command shares."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ruleslawyer.errors import RulesLawyerError

F = TypeVar("F", bound=Callable[..., Any])

EXIT_UNFINISHED = 3  # a search ran out of its budget and nothing else failed (README: Exit codes)


def one_line_errors(func: F) -> F:
    """Print a :class:`RulesLawyerError` as one line on stderr and exit 2; never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except RulesLawyerError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def format_option(choices: tuple[str, ...], default: str = "text") -> Callable[[F], F]:
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(choices),
        default=default,
        show_default=True,
        help="Output format.",
    )


output_option = click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write to FILE instead of stdout.",
)

ruling_option = click.option(
    "--ruling",
    "rulings",
    multiple=True,
    metavar="ID=READING",
    help="Settle a rule point with one of its readings (repeatable).",
)

fail_on_option = click.option(
    "--fail-on",
    default="contradiction,gap",
    show_default=True,
    metavar="KINDS",
    help="Comma-separated finding kinds that make the command exit 1, or 'none'. "
    "A data-error always counts.",
)

max_seconds_option = click.option(
    "--max-seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Stop searching after this many seconds and report finished: false.",
)


def colour_allowed() -> bool:
    """False where the user asked for no colour (``NO_COLOR``, https://no-color.org)."""
    return not os.environ.get("NO_COLOR")


def emit(text: str, output: Path | None, note: str = "") -> None:
    """Write ``text`` to ``output`` (saying so on stderr, with ``note``) or to stdout.

    Colour is kept only on a TTY and only without ``NO_COLOR``; files never get it.
    """
    if output is None:
        click.echo(text if colour_allowed() else click.unstyle(text), nl=False)
        return
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(click.unstyle(text), "utf-8")
    except OSError as exc:
        from ruleslawyer.errors import InputError

        raise InputError(str(output), "", exc.strerror or str(exc), "a writable path") from None
    click.echo(f"wrote {output}{note}", err=True)


def progress(message: str) -> None:
    """A line of progress on stderr, only when stderr is a terminal (never in pipes or CI logs)."""
    if sys.stderr.isatty():
        click.echo(message if colour_allowed() else click.unstyle(message), err=True)
