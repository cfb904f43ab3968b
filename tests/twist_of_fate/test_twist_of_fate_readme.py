"""The README's Twist of Fate section shows real output and files that load."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.twist_of_fate import RULE_POINTS

ROOT = Path(__file__).resolve().parents[2]
SECTION = (
    (ROOT / "README.md").read_text("utf-8").split("## Twist of Fate", 1)[1].split("\n## ", 1)[0]
)


def test_console_example_runs_as_printed() -> None:
    block = re.search(r"```console\n\$ ruleslawyer (.+?)\n(.*?)```", SECTION, re.DOTALL)
    assert block is not None
    args, printed = block.group(1).split(), block.group(2)
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0
    strip = re.compile(r"^seconds: .*$", re.MULTILINE)
    assert strip.sub("", result.output) == strip.sub("", printed)


def test_toml_blocks_parse() -> None:
    blocks = re.findall(r"```toml\n(.*?)```", SECTION, re.DOTALL)
    assert len(blocks) == 2
    for block in blocks:
        tomllib.loads(block)


def test_every_rule_point_listed() -> None:
    for point in RULE_POINTS:
        assert f"`{point.id}`" in SECTION
