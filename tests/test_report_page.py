"""The HTML report page and the Markdown report's pictures, without a browser."""

from __future__ import annotations

import dataclasses
import html
import re

from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.designer.checking import GameResult
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


def test_page_names_are_the_game_files_and_never_repeat() -> None:
    from ruleslawyer.gamefiles.source import load_source
    from ruleslawyer.reports.files import page_names

    built_in = load_source("cunning-folk")
    a = dataclasses.replace(built_in, built_in=False, display="a/board.toml")
    b = dataclasses.replace(built_in, built_in=False, display="b/board.toml")
    odd = dataclasses.replace(built_in, built_in=False, display="my village (v2).toml")
    index = dataclasses.replace(built_in, built_in=False, display="index.toml")
    names = page_names([built_in, a, b, built_in, odd, index], reserved=("index",))
    assert names == [
        "cunning-folk",
        "board",
        "board-2",
        "cunning-folk-2",
        "my-village--v2-",
        "index-2",
    ]


def test_two_files_of_one_game_get_a_page_each_and_an_index(tmp_path) -> None:
    from ruleslawyer.gamefiles.source import builtin_path

    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "village.toml").write_text(
            builtin_path("cunning-folk.toml").read_text("utf-8"), "utf-8"
        )
    first, second = str(tmp_path / "a" / "village.toml"), str(tmp_path / "b" / "village.toml")
    out = tmp_path / "out"
    args = ["report", first, second, "--format", "html", "--dir", str(out), "--fail-on", "none"]
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 0, done.output
    assert sorted(p.name for p in out.iterdir()) == [
        "index.html",
        "village",
        "village-2",
        "village-2.html",
        "village.html",
    ]
    assert sorted(p.name for p in (out / "village-2").iterdir()) == sorted(
        p.name for p in (out / "village").iterdir()
    )
    page = (out / "village-2.html").read_text("utf-8")
    assert (
        f"Generated by <code>ruleslawyer report {second} --format html --fail-on none</code>"
        in page
    )
    assert f"from <code>{second}</code>" in page
    index = (out / "index.html").read_text("utf-8")
    assert re.findall(r'href="([^"]+)"', index) == ["village.html", "village-2.html"]
    assert f"ruleslawyer report {first} {second} --format html --fail-on none" in index


def test_markdown_report_names_the_command_that_wrote_it(tmp_path) -> None:
    from ruleslawyer.gamefiles.source import builtin_path

    board = tmp_path / "village.toml"
    board.write_text(builtin_path("cunning-folk.toml").read_text("utf-8"), "utf-8")
    done = CliRunner().invoke(cli, ["report", str(board), "--dir", str(tmp_path / "out")])
    assert done.exit_code in (0, 1), done.output
    text = (tmp_path / "out" / "village.md").read_text("utf-8")
    assert f"Generated by `ruleslawyer report {board}` from `{board}`" in text
    assert "(village/" in text and not (tmp_path / "out" / "index.html").exists()
    # check --format markdown names check, the command that wrote it (it said report)
    checked = CliRunner().invoke(cli, ["check", str(board), "--format", "markdown"])
    assert f"Generated by `ruleslawyer check {board} --format markdown` from `{board}`" in (
        checked.stdout
    )
    built_in = CliRunner().invoke(cli, ["check", "cunning-folk", "--format", "markdown"])
    assert "by `ruleslawyer check cunning-folk --format markdown` from `ruleslawyer/data/" in (
        built_in.stdout
    )


def test_a_test_id_may_end_a_line_at_its_joints_and_reads_whole() -> None:
    from ruleslawyer.reports.html_page import markdown_to_html

    out = markdown_to_html("| tests |\n|---|\n| `tests/a_b/test_c.py::test_d_e`, `x_y` |\n", {})
    cell = re.search(r"<td>(.*?)</td>", out).group(1)
    assert cell.count("<wbr>") == 7  # after "/", "_", "/", "_", "::", "_", "_"
    text = html.unescape(re.sub(r"<[^>]+>", "", cell))
    assert text == "tests/a_b/test_c.py::test_d_e, x_y"
    assert "<code>x_y</code>" in cell  # other code is left as it was
