"""The README's Cunning Folk log is one a legal game produces (its console blocks are run
by tests/test_docs.py)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ruleslawyer.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]


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
