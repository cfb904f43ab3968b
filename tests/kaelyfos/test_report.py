"""The committed report and the rule points' quotes."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.kaelyfos.resolve import RULE_POINTS
from ruleslawyer.rulebook.books import find

ROOT = Path(__file__).resolve().parents[2]


def test_committed_report_is_current(tmp_path) -> None:
    result = CliRunner().invoke(cli, ["report", "kaelyfos", "--dir", str(tmp_path)])
    assert result.exit_code == 1  # the contradiction and the gaps fail the default --fail-on
    fresh = (tmp_path / "kaelyfos.md").read_text("utf-8")
    assert fresh == (ROOT / "reports" / "kaelyfos.md").read_text("utf-8"), (
        "reports/kaelyfos.md is stale: run `ruleslawyer report kaelyfos`"
    )


def test_every_quote_is_in_the_rulebook() -> None:
    for point in RULE_POINTS:
        assert point.id.startswith("kaelyfos/")
        for sentence in point.sentences:
            assert find(sentence) is not None, (point.id, sentence.text)


def test_issue_interface_ids_and_defaults() -> None:
    points = {p.id: p for p in RULE_POINTS}
    expected = {
        "kaelyfos/attack-removal": ("supply", "removed-from-play"),
        "kaelyfos/trap-distance-tie": ("explorer", "trap"),
        "kaelyfos/trapped-attack": ("no", "yes"),
        "kaelyfos/scarab-passable": ("no", "yes"),
        "kaelyfos/spawn-into-trap": ("not-caught", "caught"),
        "kaelyfos/unrevealed-passable": ("yes", "no"),
        "kaelyfos/pheromone-tie": (),
        "kaelyfos/move-order": (),
    }
    for point_id, readings in expected.items():
        assert points[point_id].reading_names == readings
        assert points[point_id].default == (readings[0] if readings else None)
    assert points["kaelyfos/pheromone-tie"].kind.value == "gap"
    assert points["kaelyfos/attack-removal"].kind.value == "contradiction"
