"""The HTML report page and the Markdown report's pictures, without a browser."""

from __future__ import annotations

import dataclasses
import html
import re

from click.testing import CliRunner

from ruleslawyer.checking import GameResult
from ruleslawyer.cli.main import cli
from ruleslawyer.findings import DEFAULT_FAIL_ON
from ruleslawyer.reports.html_page import page
from ruleslawyer.reports.markdown import game_report

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="50" viewBox="0 0 900 50">'
IMAGES = {
    None: [("kaelyfos/board.svg", "The board")],
    "kaelyfos/sample": [("kaelyfos/sample.svg", "The sample witness")],
}
SVGS = {
    "kaelyfos/board.svg": SVG + "<title>board</title></svg>\n",
    "kaelyfos/sample.svg": SVG + "<title>witness</title></svg>\n",
}


def _page(result: GameResult) -> str:
    return page(result, game_report(result, DEFAULT_FAIL_ON, IMAGES, header=False), SVGS)


def _visible_text(document: str) -> str:
    body = re.sub(r"<(svg|pre|code|style|title)\b.*?</\1>", " ", document, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def test_markdown_puts_each_picture_beside_its_finding(sample_result: GameResult) -> None:
    text = game_report(sample_result, DEFAULT_FAIL_ON, IMAGES)
    board, sample = text.index("![The board]"), text.index("![The sample witness]")
    first = text.index("\n## ")
    heading = text.index("\n## kaelyfos/sample")
    assert board < first  # the game's own pictures come after the table, before the findings
    assert heading < sample < text.index("\n## ", heading + 1)
    assert text.count("![The sample witness]") == 1  # the id repeats; its pictures do not


def test_page_renders_the_markdown(sample_result: GameResult) -> None:
    doc = _page(sample_result)
    assert doc.startswith("<!DOCTYPE html>") and "src=" not in doc
    assert '<h2 id="kaelyfossample">' in doc and '<h2 id="kaelyfossample-2">' in doc
    assert "<table>" in doc and "<blockquote>" in doc and '<code class="language-json">' in doc
    hrefs = set(re.findall(r'href="#([^"]+)"', doc))
    ids = set(re.findall(r' id="([^"]+)"', doc))
    assert hrefs and hrefs <= ids
    raw = re.findall(r"\*\*|\]\(|```|^#+ |\|---", _visible_text(doc), re.M)
    assert raw == []


def test_page_warns_first_and_inlines_pictures_beside_findings(sample_result) -> None:
    doc = _page(sample_result)
    warning = doc.index('class="provenance"')
    assert warning < doc.index("<table>") < doc.index("<title>board</title>")
    sample = doc.index('<h2 id="kaelyfossample">')
    assert sample < doc.index("<title>witness</title>") < doc.index("<h2", sample + 1)
    figure = re.search(r'<figure class="picture"><svg.*?</figure>', doc, re.S)
    assert figure and "<figcaption><em>The board</em></figcaption>" in figure.group(0)
    assert "*The board*" not in doc  # the Markdown caption became the figure's
    assert doc.count("Provenance: assumed.") == 1


def test_page_escapes_what_it_quotes(sample_result: GameResult) -> None:
    result = dataclasses.replace(sample_result, title="Dice <b>& Co</b>")
    doc = _page(result)
    assert "Dice &lt;b&gt;&amp; Co&lt;/b&gt;" in doc and "<b>&" not in doc


def test_cli_html_page_has_figures(tmp_path) -> None:
    done = CliRunner().invoke(
        cli, ["report", "twisted-cryptids", "--format", "html", "--dir", str(tmp_path)]
    )
    assert done.exit_code == 1, done.output  # its gap fails the default --fail-on
    doc = (tmp_path / "twisted-cryptids.html").read_text("utf-8")
    assert doc.count('<figure class="picture"><svg') == 2
    deadlock = doc.index('<h2 id="twisted-cryptidsrelocation-deadlock">')
    assert deadlock < doc.index("finds no Site</title>") < doc.index("<h2", deadlock + 1)
    assert (tmp_path / "twisted-cryptids" / "stacks.svg").is_file()


def test_captions_with_markdown_characters_stay_literal(sample_result: GameResult) -> None:
    caption = "ann's [spot] *moved* to <swamp> #2 | x_y"
    images = {None: [("kaelyfos/board.svg", caption)]}
    text = game_report(sample_result, DEFAULT_FAIL_ON, images, header=False)
    doc = page(sample_result, text, SVGS)
    shown = "ann's [spot] *moved* to &lt;swamp&gt; #2 | x_y"
    assert f"<figcaption><em>{shown}</em></figcaption>" in doc
    assert doc.count("*moved*") == 1  # the caption is not repeated beside the figure
