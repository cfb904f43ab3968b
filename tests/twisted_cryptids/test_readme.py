"""The README's Twisted Cryptids check output is real, and its rule-point table complete."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.twisted_cryptids.points import RULE_POINTS

README = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
SECTION = README.split("\n## Twisted Cryptids\n", 1)[1].split("\n## ", 1)[0]


def test_check_output_shown_is_real():
    shown = SECTION.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    result = CliRunner().invoke(cli, ["check", "twisted-cryptids"])
    assert result.exit_code == 1
    actual = result.output.splitlines()
    assert [line for line in shown if line != "..." and line not in actual] == []


def test_rule_point_table_lists_every_point():
    table = SECTION.split("### Rule points", 1)[1]
    for point in RULE_POINTS:
        assert f"| `{point.id}` |" in table
        for reading in point.reading_names:
            assert f"`{reading}`" in table
