"""Options and error handling every command shares."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import math
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import click

from ruleslawyer.cli import completion
from ruleslawyer.errors import RulesLawyerError, printable
from ruleslawyer.gamefiles.inputs import tracking
from ruleslawyer.gamefiles.outputs import (
    answer_out,
    interrupts_noted_only,
    is_interrupt,
    noting_interrupts,
    refuse_if_interrupted,
    unwritable_stdout,
    unwritable_text,
    write_atomic,
)

F = TypeVar("F", bound=Callable[..., Any])

EXIT_UNFINISHED = 3  # a search ran out of its budget and nothing else failed (README: Exit codes)


EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C


def one_line_errors(func: F) -> F:
    """Print a :class:`RulesLawyerError` as one line on stderr and exit 2; never a traceback.

    An interrupt (Ctrl-C) exits 130 with nothing reported as finished. The files
    the command reads are remembered, so ``-o`` never overwrites one of them.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            with tracking(), noting_interrupts():
                value = func(*args, **kwargs)
                refuse_if_interrupted()  # a Ctrl-C Python dropped still ends in exit 130
                return value
        except RulesLawyerError as exc:
            click.echo(f"error: {printable(str(exc))}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            interrupted()
        except ctypes.ArgumentError as exc:  # Ctrl-C while ctypes converted a call's arguments
            if not is_interrupt(exc):
                raise
            interrupted()

    return wrapper  # type: ignore[return-value]


def interrupted() -> None:
    """Stop on Ctrl-C: one line on stderr, exit 130."""
    click.echo("interrupted: nothing reported", err=True)
    if _CONSOLE["script"]:
        # an object the interrupt cut short (a Z3 context half made) may complain as the
        # interpreter clears it: the run is over and has said so
        sys.unraisablehook = lambda unraisable: None
    sys.exit(EXIT_INTERRUPTED)


def comma_choices(choices: tuple[str, ...]) -> Callable[..., tuple[str, ...]]:
    """A click callback reading a comma-separated list of ``choices`` (repeats kept)."""

    def parse(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
        names = tuple(value.split(","))
        if all(n in choices for n in names):
            return names
        raise click.BadParameter(
            f"found {value!r}, expected a comma-separated list of {' | '.join(choices)}"
        )

    return parse


def format_option(choices: tuple[str, ...], default: str = "text") -> Callable[[F], F]:
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(choices),
        default=default,
        show_default=True,
        help="Output format.",
    )


class FilePath(click.Path):
    """A file's path on the command line (or, with ``as_text``, a built-in id or a path,
    kept as text; with ``directory``, a directory's: ``--dir``, ``--work-dir``): never
    empty, which ``Path("")`` would read as the current directory and report as "."
    (an unset variable in a script would read or write there)."""

    def __init__(
        self, expected: str = "a file's path", *, as_text: bool = False, directory: bool = False
    ) -> None:
        super().__init__(file_okay=not directory, path_type=None if as_text else Path)
        self.expected = expected

    def convert(self, value: Any, param: Any, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail(f"found {value!r}, expected {self.expected}", param, ctx)
        return super().convert(value, param, ctx)


INPUT_FILE = FilePath()


def Directory() -> FilePath:
    """A directory's path, never empty."""
    return FilePath("a directory path (not empty)", directory=True)


output_option = click.option(
    "-o",
    "--output",
    type=FilePath("a file's path to write"),
    default=None,
    help="Write to FILE instead of stdout.",
)


ruling_option = click.option(
    "--ruling",
    "rulings",
    multiple=True,
    shell_complete=completion.rulings,
    metavar="ID=READING",
    help="Settle a rule point with one of its readings (repeatable).",
)


def game_file_argument(game: str) -> Callable[[F], F]:
    """The optional ``[GAME|FILE]`` argument of one game's command: the built-in ``game``
    by default, or a designer's game file of that game."""
    return click.argument(
        "target", default=game, metavar="[GAME|FILE]", shell_complete=completion.one_game(game)
    )


def load_game_file(target: str, game: str, options: tuple[str, ...]) -> tuple[Any, dict[str, str]]:
    """The :class:`~ruleslawyer.gamefiles.source.GameSource` of ``target`` (``game``'s id or a game
    file of ``game``) and the rulings in force: the file's ``[rulings]``, then ``--ruling``."""
    from ruleslawyer import games
    from ruleslawyer.errors import InputError
    from ruleslawyer.findings import parse_ruling_options, resolve_rulings
    from ruleslawyer.gamefiles.source import load_source

    source = load_source(target)
    if source.game != game:
        raise InputError(target, "game", source.game, f"a {game} game file")
    points = games.get(game).rule_points()
    cli_rulings = parse_ruling_options(options)
    return source, resolve_rulings(points, source.rulings(), cli_rulings, source=source.display)


def refuse_data_errors(findings: list[Any]) -> None:
    """Stop with the first data error of a game file (as ``check`` reports it), exit 2:
    a file that breaks a structural rule cannot be played."""
    from ruleslawyer.errors import InputError

    for f in findings:
        if f.location is not None:
            line = f":{f.location.line}" if f.location.line else ""
            raise InputError(
                f"{f.location.file}{line}",
                f.location.place,
                f.message,
                f"a playable game file ({f.title}; `ruleslawyer check` lists every data error)",
            )


fail_on_option = click.option(
    "--fail-on",
    default="contradiction,gap",
    show_default=True,
    metavar="KINDS",
    help="Comma-separated finding kinds that make the command exit 1, or 'none'. "
    "A data-error always counts.",
)


_WHOLE = re.compile(r"[+-]?[0-9]{1,30}")
_DECIMAL = re.compile(
    r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})(?:[eE][+-]?[0-9]{1,4})?"
)


def ascii_number(text: str, *, whole: bool) -> int | float | None:
    """``text`` as a whole or a finite decimal number written in ASCII digits only, or None.

    ``int`` and ``float`` also take other scripts' digits (``"٣"``), ``"nan"``, ``"inf"``,
    underscores and surrounding spaces; none of those is a number on a command line here.
    """
    if not (_WHOLE if whole else _DECIMAL).fullmatch(text):
        return None
    number = int(text) if whole else float(text)
    return number if math.isfinite(number) else None


class Number(click.ParamType):
    """The one option type for numbers: seconds, bytes, counts, odds, seeds.

    ASCII digits only, finite (never ``nan`` or ``inf``) and in range: above ``above`` or
    at least ``least``, and at most ``most``. ``whole`` takes integers only.
    """

    def __init__(
        self,
        unit: str,
        *,
        whole: bool = False,
        above: float | None = None,
        least: float | None = None,
        most: float | None = None,
    ) -> None:
        self.unit, self.whole = unit, whole
        self.above, self.least, self.most = above, least, most
        self.name = "integer" if whole else "float"

    def expected(self) -> str:
        """What the option takes, in words (``a whole number of games of at least 1``)."""
        kind = "a whole number" if self.whole else "a finite number"
        bounds = [f"above {_shown(self.above)}"] if self.above is not None else []
        bounds += [f"at least {_shown(self.least)}"] if self.least is not None else []
        bounds += [f"at most {_shown(self.most)}"] if self.most is not None else []
        unit = f" of {self.unit}" if self.unit else ""
        return f"{kind}{unit}" + (f" ({' and '.join(bounds)})" if bounds else "")

    def in_range(self, number: float) -> bool:
        return (
            (self.above is None or number > self.above)
            and (self.least is None or number >= self.least)
            and (self.most is None or number <= self.most)
        )

    def convert(self, value: Any, param: Any, ctx: click.Context | None) -> Any:
        if isinstance(value, int | float) and not isinstance(value, bool):
            number: int | float | None = value  # a default given as a number
        else:
            number = ascii_number(str(value), whole=self.whole)
        if number is None or not self.in_range(number):
            self.fail(f"found {str(value)!r}, expected {self.expected()}", param, ctx)
        return number


def _shown(bound: float) -> str:
    return str(int(bound)) if float(bound).is_integer() else f"{bound:g}"


def whole(unit: str, least: int = 1, most: int | None = None) -> Number:
    """A count (games, rounds, iterations, ...): a whole number from ``least``."""
    return Number(unit, whole=True, least=least, most=most)


SEED = Number("seed", whole=True, least=0, most=2**63 - 1)

MAX_SECONDS_HELP = "Stop searching after this many seconds and report finished: false."


def max_seconds(help: str = MAX_SECONDS_HELP) -> Callable[[F], F]:
    """The ``--max-seconds`` option, with ``help`` (what the budget counts, where more
    needs saying)."""
    return click.option(
        "--max-seconds",
        type=Number("seconds", above=0, most=86400 * 366),
        default=None,
        help=help,
    )


max_seconds_option = max_seconds()


def colour_allowed() -> bool:
    """False where the user asked for no colour (``NO_COLOR``, https://no-color.org)."""
    return not os.environ.get("NO_COLOR")


def emit(text: str, output: Path | None, note: str = "") -> None:
    """Write ``text`` to ``output`` (atomically, never over an input; saying so on stderr,
    with ``note``) or to stdout.

    Colour is kept only on a TTY and only without ``NO_COLOR``; files never get it.
    """
    with held_interrupts():
        if output is None:
            refuse_if_interrupted()
            to_stdout(text if colour_allowed() else click.unstyle(text))
        else:
            write_atomic(output, click.unstyle(text))
            click.echo(f"wrote {output}{note}", err=True)
        answer_given()


def to_stdout(text: str) -> None:
    """Write ``text`` to stdout whole, flushed; one line (exit 2) instead of a traceback when
    stdout cannot take it (a character its encoding lacks, a full disk, a reader gone)."""
    error = unwritable_text(click.unstyle(text), getattr(sys.stdout, "encoding", None))
    if error is not None:
        raise error
    try:
        click.echo(text, nl=False)
        sys.stdout.flush()
    except OSError as exc:
        raise unwritable_stdout(exc) from None


@contextlib.contextmanager
def held_interrupts() -> Iterator[None]:
    """In the console script, a Ctrl-C waits while the answer is written (never half an
    answer on stdout); once it is out, :func:`answer_given` drops it."""
    hold = _CONSOLE["script"] and threading.current_thread() is threading.main_thread()
    if hold:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        with interrupts_noted_only():
            yield
    finally:
        if hold:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


_CONSOLE = {"script": False}


def run_as_console_script() -> None:
    """Mark this process as the ``ruleslawyer`` console script (see :func:`answer_given`)."""
    _CONSOLE["script"] = True


def answer_given() -> None:
    """Once the answer is out, a Ctrl-C must not turn the run into an interrupted one (exit
    130 after printing, or a kill by SIGINT while exiting): the console script ignores it
    from here on. Runs inside another program (tests) keep their handler."""
    answer_out()
    if _CONSOLE["script"] and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def progress(message: str) -> None:
    """A line of progress on stderr, only when stderr is a terminal (never in pipes or CI logs)."""
    if sys.stderr.isatty():
        click.echo(message if colour_allowed() else click.unstyle(message), err=True)
