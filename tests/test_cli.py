"""The CLI's shared behaviour: help without heavy imports, exit codes, one-line errors."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from ruleslawyer.cli.main import cli

HEAVY = ("z3", "numba", "networkx", "pydantic", "dask", "distributed", "pyspiel", "open_spiel")


def test_help_imports_no_heavy_modules() -> None:
    probe = (
        "import sys\n"
        "from ruleslawyer.cli.main import cli\n"
        "try:\n"
        "    cli(['--help'], prog_name='ruleslawyer')\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().endswith("[]"), out


def test_help_lists_commands_and_games() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name in ("check", "report", "games", "kaelyfos"):
        assert name in result.output


def test_unknown_game_is_one_line_exit_2() -> None:
    result = CliRunner().invoke(cli, ["check", "chess"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: chess: found 'chess', expected a game id")


def test_missing_file_is_one_line_exit_2(tmp_path) -> None:
    result = CliRunner().invoke(cli, ["check", str(tmp_path / "mine.toml")])
    assert result.exit_code == 2
    assert (
        result.stderr
        == f"error: {tmp_path / 'mine.toml'}: found 'no such file', expected a game id "
        "(kaelyfos, cunning-folk, twist-of-fate, twisted-cryptids) or a game file path\n"
    )


def test_file_without_game_key_is_rejected(tmp_path) -> None:
    path = tmp_path / "x.toml"
    path.write_text('name = "x"\n')
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 2
    assert "game: found 'no game key', expected a top-level game" in result.stderr


def test_bad_fail_on_and_ruling_are_usage_errors() -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["check", "--fail-on", "oops"]).exit_code == 2
    bad = runner.invoke(cli, ["check", "--ruling", "nonsense"])
    assert bad.exit_code == 2 and "expected ID=READING" in bad.stderr


def test_games_lists_every_registered_game() -> None:
    from ruleslawyer.games import GAMES

    result = CliRunner().invoke(cli, ["games"])
    assert result.exit_code == 0
    assert [line.split()[0] for line in result.output.splitlines()] == list(GAMES)
