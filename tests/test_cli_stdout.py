"""A standard output that cannot take the answer: one line on stderr, exit 2, never a
traceback (fuzz round 4). A full disk (``/dev/full``), a reader gone (a closed pipe), and an
encoding without one of the answer's characters (a cp1252 or Latin-1 console: ``—``,
``“``, ``Ł``), said before anything is written, so no half answer goes out."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]
CONSOLE = [sys.executable, "-c", "from ruleslawyer.cli import main; main()"]

# commands of each way of writing stdout: the answer (emit), a list, click's own help and version
COMMANDS = (
    ["games"],
    ["explain", "--list"],
    ["check", "cunning-folk", "--format", "json"],
    ["coverage", "kaelyfos"],
    ["--help"],
    ["--version"],
    ["kaelyfos", "--help"],
)


def one_line(stderr: str, *named: str) -> None:
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr
    assert len(stderr.splitlines()) == 1 and stderr.startswith("error: stdout: "), stderr
    for name in named:
        assert name in stderr, stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_full_stdout_is_one_line(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([*CONSOLE, *args], stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 2, done.stderr
    one_line(done.stderr, "No space left on device")


def test_a_reader_gone_is_one_line() -> None:
    with subprocess.Popen(
        [*CONSOLE, "explain", "--list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        process.stdout.close()  # the reader is gone before a byte is written
        stderr = process.stderr.read()
    assert process.returncode == 2, stderr
    one_line(stderr, "Broken pipe")


@pytest.fixture
def polish_board(tmp_path: Path) -> Path:
    """The example board under a name holding ``Ł``, which cp1252 lacks (Latin-1 too)."""
    folder = tmp_path / "Łąka"
    shutil.copytree(ROOT / "examples" / "designer-repo", folder)
    return folder / "board.toml"


@pytest.mark.parametrize(
    "charset, args, char",
    [
        ("latin-1", ["check", "kaelyfos"], "—"),  # the header's dash
        ("latin-1", ["explain", "kaelyfos/attack-removal"], "“"),  # a quote's marks
        ("ascii", ["games"], None),  # nothing outside ASCII: written as it is
        ("cp1252", ["check", "kaelyfos"], None),  # — and “ are in cp1252
    ],
)
def test_characters_the_encoding_lacks_are_one_line_before_anything_is_written(
    charset: str, args: list[str], char: str | None
) -> None:
    done = CliRunner(charset=charset).invoke(cli, args)
    if char is None:
        assert done.exit_code in (0, 1) and done.stdout, done.output
        return
    assert done.exit_code == 2 and done.stdout == "", done.output
    one_line(done.stderr, f"U+{ord(char):04X}", f"its encoding ({charset})")


def test_a_file_name_cp1252_lacks_is_one_line(polish_board: Path) -> None:
    done = CliRunner(charset="cp1252").invoke(cli, ["check", str(polish_board)])
    assert done.exit_code == 2 and done.stdout == "", done.output
    one_line(done.stderr, "U+0141", "-o")
    written = polish_board.parent / "out.txt"  # -o writes UTF-8 whatever the console takes
    done = CliRunner(charset="cp1252").invoke(cli, ["check", str(polish_board), "-o", str(written)])
    assert done.exit_code == 1 and "Łąka" in written.read_text("utf-8")


def test_a_real_cp1252_stdout_is_one_line(polish_board: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    done = subprocess.run(
        [*CONSOLE, "check", str(polish_board)], capture_output=True, env=env, text=False
    )
    assert done.returncode == 2 and done.stdout == b"", done.stderr
    one_line(done.stderr.decode("cp1252"), "U+0141", "cp1252")
