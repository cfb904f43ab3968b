"""The README's Cunning Folk example prints exactly what the README shows."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from ruleslawyer.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]


def test_readme_deduce_example_runs_as_printed() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Cunning Folk", 1)[1]
    command = re.search(r"```sh\nruleslawyer (cunning-folk deduce \S+)\n```", section)
    shown = re.search(r"prints\n\n```text\n(.*?)```", section, flags=re.DOTALL)
    assert command and shown
    result = CliRunner().invoke(cli, command.group(1).split())
    assert result.exit_code == 0
    assert result.output == shown.group(1)
