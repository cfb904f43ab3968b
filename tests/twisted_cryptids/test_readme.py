"""The README's Twisted Cryptids rule-point table is complete (its console blocks are run by
tests/test_docs.py)."""

from __future__ import annotations

from pathlib import Path

from ruleslawyer.models.twisted_cryptids.points import RULE_POINTS

README = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
SECTION = README.split("\n## Twisted Cryptids\n", 1)[1].split("\n## ", 1)[0]


def test_rule_point_table_lists_every_point():
    table = SECTION.split("### Rule points", 1)[1]
    for point in RULE_POINTS:
        assert f"| `{point.id}` |" in table
        for reading in point.reading_names:
            assert f"`{reading}`" in table
