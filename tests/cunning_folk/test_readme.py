"""The README's Cunning Folk example prints exactly what the README shows."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from ruleslawyer.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]


def _runs_as_printed(heading: str, command_name: str) -> None:
    """The first `ruleslawyer cunning-folk COMMAND FILE` after ``heading`` prints the text
    block that follows it."""
    section = (ROOT / "README.md").read_text().split(heading, 1)[1]
    command = re.search(rf"```sh\nruleslawyer (cunning-folk {command_name} \S+)\n```", section)
    assert command
    shown = re.search(r"\n\n```text\n(.*?)```", section[command.end() :], flags=re.DOTALL)
    assert shown
    result = CliRunner().invoke(cli, command.group(1).split())
    assert result.exit_code == 0
    assert result.output == shown.group(1)


def test_readme_deduce_example_runs_as_printed() -> None:
    _runs_as_printed("## Cunning Folk", "deduce")


def test_readme_log_example_is_a_legal_log(tmp_path: Path) -> None:
    # The annotated log in the README is one a legal game produces under its rulings:
    # cal's vagrant trade moves my evil witch from B2 to B1, where my good-elder run finds it.
    section = (ROOT / "README.md").read_text().split("## Cunning Folk", 1)[1]
    block = section.split("A log (`examples/cunning-folk/*.toml`):\n\n```toml\n", 1)[1]
    path = tmp_path / "log.toml"
    path.write_text(block.split("```", 1)[0])
    result = CliRunner().invoke(cli, ["cunning-folk", "deduce", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["cells"]["B1"]["certain"] == "evil-witch"


def test_readme_advise_example_runs_as_printed() -> None:
    _runs_as_printed("### Advise the player", "advise")


def test_readme_balance_example_runs_as_printed() -> None:
    section = (ROOT / "README.md").read_text().split("### Balance: who wins", 1)[1]
    command = re.search(r"```sh\nruleslawyer (cunning-folk balance [^\n]+)\n```", section)
    shown = re.search(r"prints\n\n```text\n(.*?)```", section, flags=re.DOTALL)
    assert command and shown
    result = CliRunner().invoke(cli, command.group(1).split())
    assert result.exit_code == 0
    assert result.output == shown.group(1)
