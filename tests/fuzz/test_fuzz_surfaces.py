"""Fuzzing issue 38's surfaces (item 5): equilibrium with a pending claim and three or four
players, coverage and check on a designer's rulebook, ``--every-move``, ``--later-turns``,
``kaelyfos balance`` where one draw branches thousands of ways, odd encodings of the input
files, and stdout that cannot take the answer (an encoding, a full disk, a reader gone).

The contract is :mod:`tests.fuzz.harness`'s, with these oracles besides:

- a file that is not UTF-8 TOML (UTF-16, Latin-1 or cp1252 bytes, a byte-order mark, a NUL,
  a stray byte, bare CR line ends) is refused: exit 2 and one line naming it;
- with stdout in an encoding, the answer is exactly the UTF-8 run's when every character of
  it is in that encoding, and otherwise nothing, exit 2 and one line naming stdout, the first
  character that is not (``U+XXXX``) and its line;
- stdout on a full disk or a closed pipe: exit 2, one line naming stdout, no traceback.

The fast suite runs 3 seeded cases per kind; ``-m slow`` ``RULESLAWYER_FUZZ_EXAMPLES`` per
kind (a quarter of them for the subprocess-run stream faults). Counts tried are in
tests/fuzz/README.md.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import event as hypothesis_event
from hypothesis import given, reject, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from ruleslawyer.cli.main import cli
from tests.fuzz.analysis import ANALYSIS_KINDS
from tests.fuzz.harness import KINDS, ROOT, InputKind, run_case, verdict
from tests.fuzz.surfaces import (
    CHARSETS,
    STDOUT_COMMANDS,
    STREAM_FAULTS,
    SURFACE_KINDS,
    TEXT_KINDS,
    prose_mutated,
    reencoded,
)
from tests.fuzz.test_fuzz import COMMON, SLOW_EXAMPLES, case

FAST = 3  # seeded cases per kind in the fast suite


def event(name: str) -> None:
    """Count ``name`` in Hypothesis's statistics (outside a Hypothesis test: nothing)."""
    if currently_in_test_context():
        hypothesis_event(name)


# Failures these kinds find that are known and not fixed yet:
# (kind, a substring of the failure) -> why. A case failing so is rejected, the fuzz goes on.
KNOWN: dict[tuple[str, str], str] = {}


@st.composite
def surface_case(draw: st.DrawFn, kind: InputKind, *, commands: int) -> tuple[str, tuple]:
    if kind.name in TEXT_KINDS:
        text = draw(prose_mutated(kind.base()))
        return text, draw(st.sampled_from(kind.commands[:commands]))
    return draw(case(kind, commands=commands))


def judge(kind: InputKind, text: str, command: tuple[str, ...]) -> str | None:
    with tempfile.TemporaryDirectory(prefix="ruleslawyer-fuzz-") as tmp:
        result, names, args = run_case(kind, text, command, Path(tmp))
        problem = verdict(result, args, names)
    event(f"exit {result.exit_code}")
    return problem


def fail_unless_known(kind: InputKind, text: str, command: tuple[str, ...], problem: str) -> None:
    for (name, marker), _why in KNOWN.items():
        if name == kind.name and marker in problem:
            event("known, not fixed yet")
            reject()
    pytest.fail(f"{kind.name}: {' '.join(command)}\n--- file ---\n{text[:3000]}\n{problem}")


def check_surface(kind: InputKind, text: str, command: tuple[str, ...]) -> None:
    problem = judge(kind, text, command)
    if problem is not None:
        fail_unless_known(kind, text, command, problem)


@pytest.mark.parametrize("name", sorted(SURFACE_KINDS))
@settings(max_examples=FAST, derandomize=True, **COMMON)
@given(data=st.data())
def test_fuzz_surfaces_fast(name: str, data: st.DataObject) -> None:
    kind = SURFACE_KINDS[name]
    check_surface(kind, *data.draw(surface_case(kind, commands=1)))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SURFACE_KINDS))
@settings(max_examples=SLOW_EXAMPLES, **COMMON)
@given(data=st.data())
def test_fuzz_surfaces_slow(name: str, data: st.DataObject) -> None:
    kind = SURFACE_KINDS[name]
    check_surface(kind, *data.draw(surface_case(kind, commands=len(kind.commands))))


# --- odd encodings of the input files -------------------------------------------------------

ALL_KINDS = {**KINDS, **ANALYSIS_KINDS, **SURFACE_KINDS}
ENCODED = (
    "kaelyfos-board", "kaelyfos-position", "cunning-folk-log", "twist-of-fate-position",
    "twisted-cryptids-record", "baseline", "designer-rulebook-text",
    "cunning-folk-equilibrium-3p", "coverage-game-file",
)  # fmt: skip


def must_refuse(kind: InputKind, data: bytes) -> bool:
    """Whether these bytes are no file of ``kind`` (README: Limits): not UTF-8 or holding
    a NUL (any file); a byte-order mark (TOML, JSON); a CR not before LF (TOML)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    if b"\x00" in data:
        return True
    if kind.name in TEXT_KINDS:
        return False  # a rulebook may start with a BOM or end its lines with CR
    if data.startswith(b"\xef\xbb\xbf"):
        return True
    return not kind.json and re.search(rb"\r(?!\n)", data) is not None


def check_encoding(kind: InputKind, text: str, how: str, command: tuple[str, ...]) -> None:
    problem = judge(kind, text, command)
    if problem is None and must_refuse(kind, text.encode("utf-8", errors="surrogateescape")):
        with tempfile.TemporaryDirectory(prefix="ruleslawyer-fuzz-") as tmp:
            result, _, _ = run_case(kind, text, command, Path(tmp))
        if result.exit_code != 2:
            problem = f"{how} bytes read as a file (exit {result.exit_code}), not refused"
    if problem is not None:
        fail_unless_known(kind, f"({how}) {text[:3000]}", command, problem)


@st.composite
def encoded_case(draw: st.DrawFn, kind: InputKind, commands: int) -> tuple[str, str, tuple]:
    text, how = draw(reencoded(kind.base()))
    return text, how, draw(st.sampled_from(kind.commands[:commands]))


@pytest.mark.parametrize("name", ENCODED)
@settings(max_examples=FAST, derandomize=True, **COMMON)
@given(data=st.data())
def test_fuzz_encodings_fast(name: str, data: st.DataObject) -> None:
    kind = ALL_KINDS[name]
    check_encoding(kind, *data.draw(encoded_case(kind, 1)))


@pytest.mark.slow
@pytest.mark.parametrize("name", ENCODED)
@settings(max_examples=SLOW_EXAMPLES, **COMMON)
@given(data=st.data())
def test_fuzz_encodings_slow(name: str, data: st.DataObject) -> None:
    kind = ALL_KINDS[name]
    check_encoding(kind, *data.draw(encoded_case(kind, len(kind.commands))))


# --- stdout: an encoding, a full disk, a reader gone -------------------------------------------


@cache
def stdout_dir() -> Path:
    """The folder the stdout commands' ``{dir}`` names (one for the run: the answers are
    compared with a cached UTF-8 run): the tiny Kaelyfos position, its explorer Łucja."""
    folder = Path(tempfile.mkdtemp(prefix="ruleslawyer-fuzz-stdout-"))
    atexit.register(shutil.rmtree, folder, True)
    kaelyfos = ROOT / "examples" / "kaelyfos"
    shutil.copy(kaelyfos / "tiny-board.toml", folder)
    position = (kaelyfos / "tiny-position.toml").read_text("utf-8")
    (folder / "crew.toml").write_text(position.replace("ada = ", '"Łucja" = '), "utf-8")
    return folder


def stdout_args(command: tuple[str, ...]) -> list[str]:
    return [a.format(dir=stdout_dir(), examples=ROOT / "examples") for a in command]


@cache
def utf8_answer(command: tuple[str, ...]) -> tuple[int, str]:
    done = CliRunner().invoke(cli, stdout_args(command))
    assert done.exit_code in (0, 1), done.output
    return done.exit_code, done.stdout


def stdout_problem(command: tuple[str, ...], charset: str) -> str | None:
    code, answer = utf8_answer(command)
    done = CliRunner(charset=charset).invoke(cli, stdout_args(command))
    if done.exception is not None and not isinstance(done.exception, SystemExit):
        return f"{type(done.exception).__name__}: {done.exception}"
    try:
        answer.encode(charset)
    except UnicodeEncodeError as exc:
        char, line = answer[exc.start], answer.count("\n", 0, exc.start) + 1
        said = rf"error: stdout: line {line}: found '.+ \(U\+{ord(char):04X}\)', expected .+"
        event("refused: a character the encoding lacks")
        if done.exit_code != 2 or done.stdout or not re.fullmatch(said + "\n", done.stderr):
            return f"{charset}: expected one line on {char!r}; got exit {done.exit_code}, " + (
                f"stdout {done.stdout[:200]!r}, stderr {done.stderr!r}"
            )
        return None
    event("written: every character fits")
    if (done.exit_code, done.stdout) != (code, answer):
        return f"{charset}: not UTF-8's answer (exit {done.exit_code}): {done.output!r}"
    return None


@settings(max_examples=2 * FAST, derandomize=True, **COMMON)
@given(command=st.sampled_from(STDOUT_COMMANDS), charset=st.sampled_from(CHARSETS[1:]))
def test_fuzz_stdout_encodings_fast(command: tuple[str, ...], charset: str) -> None:
    problem = stdout_problem(command, charset)
    assert problem is None, (command, problem)


@pytest.mark.slow
@pytest.mark.parametrize("charset", CHARSETS)
def test_fuzz_stdout_encodings_every_command(charset: str) -> None:
    # few commands and encodings: every pair
    for command in STDOUT_COMMANDS:
        problem = stdout_problem(command, charset)
        assert problem is None, (command, problem)


CONSOLE = [sys.executable, "-c", "from ruleslawyer.cli import main; main()"]


def stream_problem(command: tuple[str, ...], fault: str) -> str | None:
    """Run the console script with stdout on ``/dev/full`` or a pipe whose reader is gone."""
    if fault == "full":
        if not os.path.exists("/dev/full"):
            pytest.skip("no /dev/full")
        target = os.open("/dev/full", os.O_WRONLY)
    else:
        reader, target = os.pipe()
        os.close(reader)  # gone before the command starts: its first write fails
    try:
        done = subprocess.run(
            [*CONSOLE, *stdout_args(command)], stdout=target, stderr=subprocess.PIPE, text=True
        )
    finally:
        os.close(target)
    lines = done.stderr.splitlines()
    if done.returncode != 2 or len(lines) != 1 or not lines[0].startswith("error: stdout: "):
        return f"{fault}: exit {done.returncode}, stderr {done.stderr[-2000:]!r}"
    return None


@settings(max_examples=FAST, derandomize=True, **COMMON)
@given(command=st.sampled_from(STDOUT_COMMANDS), fault=st.sampled_from(STREAM_FAULTS))
def test_fuzz_stdout_streams_fast(command: tuple[str, ...], fault: str) -> None:
    problem = stream_problem(command, fault)
    assert problem is None, (command, problem)


@pytest.mark.slow
@settings(max_examples=max(1, SLOW_EXAMPLES // 4), **COMMON)
@given(command=st.sampled_from(STDOUT_COMMANDS), fault=st.sampled_from(STREAM_FAULTS))
def test_fuzz_stdout_streams_slow(command: tuple[str, ...], fault: str) -> None:
    event(f"{fault} {command[0]}")
    problem = stream_problem(command, fault)
    assert problem is None, (command, problem)
