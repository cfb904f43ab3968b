"""The committed reports/ are exactly what `ruleslawyer report` writes today."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.games import GAMES
from ruleslawyer.reports.svg import Picture, bar_chart

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def fresh_reports(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("reports")
    result = CliRunner().invoke(cli, ["report", "--dir", str(out)])
    assert result.exit_code == 1, result.output  # the built-in rulebooks contradict themselves
    return out


def _files(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): p.read_text("utf-8")
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.suffix in {".md", ".svg"} and p.name != "README.md"
    }


@pytest.mark.parametrize("game", sorted(GAMES))
def test_committed_report_is_current(fresh_reports: Path, game: str) -> None:
    fresh = {
        k: v for k, v in _files(fresh_reports).items() if k.split("/")[0] in (game, f"{game}.md")
    }
    committed = {
        k: v for k, v in _files(ROOT / "reports").items() if k.split("/")[0] in (game, f"{game}.md")
    }
    assert fresh, f"report wrote nothing for {game}"
    assert committed == fresh, f"reports/ is stale for {game}: run `ruleslawyer report {game}`"


def test_every_picture_parses_as_svg(fresh_reports: Path) -> None:
    for path in fresh_reports.rglob("*.svg"):
        root = ET.fromstring(path.read_text("utf-8"))
        assert root.tag == "{http://www.w3.org/2000/svg}svg", path


def test_every_picture_is_readable_at_1280_px(fresh_reports: Path) -> None:
    # A page 1280 px wide shows a picture up to 1152 px wide unscaled (the page's column):
    # so every text at 12 px or more is shown at 12 px or more (the browser test measures it).
    for path in fresh_reports.rglob("*.svg"):
        root = ET.fromstring(path.read_text("utf-8"))
        assert float(root.get("width")) <= 1152, path
        sizes = [float(t.get("font-size")) for t in root.iter("{http://www.w3.org/2000/svg}text")]
        assert sizes and min(sizes) >= 12, (path, min(sizes))


def test_svg_builder_escapes_and_rounds() -> None:
    pic = Picture(10, 10, "a <b> & c")
    pic.text(1.25, 2.0, "x < y")
    svg = pic.render()
    root = ET.fromstring(svg)
    assert root.find("{http://www.w3.org/2000/svg}title").text == "a <b> & c"
    assert 'x="1.2"' in svg or 'x="1.3"' in svg
    chart = ET.fromstring(bar_chart("t", [("a", 2), ("b", 1)]))
    assert len(chart.findall("{http://www.w3.org/2000/svg}rect")) == 2


def test_html_report_is_self_contained(tmp_path) -> None:
    game = sorted(GAMES)[0]
    result = CliRunner().invoke(cli, ["report", game, "--format", "html", "--dir", str(tmp_path)])
    assert result.exit_code in (0, 1), result.output  # 1: findings at or above --fail-on
    page = (tmp_path / f"{game}.html").read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>") and "src=" not in page
