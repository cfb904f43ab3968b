"""The README's Twist of Fate section: a ruling's answer as the prose says, files that load,
every rule point listed (its console blocks are run by tests/test_docs.py)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.twist_of_fate.play import RULE_POINTS

ROOT = Path(__file__).resolve().parents[2]
SECTION = (
    (ROOT / "README.md").read_text("utf-8").split("## Twist of Fate", 1)[1].split("\n## ", 1)[0]
)


def test_penalty_first_ruling_as_the_readme_says() -> None:
    args = [
        "twist-of-fate",
        "solve",
        "examples/twist-of-fate/monks-win.toml",
        "--model",
        "paranoid",
    ]
    ruling = ["--ruling", "twist-of-fate/finish-before-penalty=penalty-first"]
    out = CliRunner().invoke(cli, [*args, *ruling], catch_exceptions=False).output
    assert "guaranteed_sanctuary: 7" in out and "guaranteed_win: no" in out
    assert "`guaranteed_sanctuary: 7`, `guaranteed_win: no`" in SECTION


def test_toml_blocks_parse() -> None:
    blocks = re.findall(r"```toml\n(.*?)```", SECTION, re.DOTALL)
    assert len(blocks) == 3
    for block in blocks:
        tomllib.loads(block)


def test_every_rule_point_listed() -> None:
    for point in RULE_POINTS:
        assert f"`{point.id}`" in SECTION
