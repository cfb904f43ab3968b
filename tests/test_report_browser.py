"""Every built-in game's HTML report, rendered in headless Chromium at 1280 px.

The page must show no raw Markdown, load every picture, resolve every anchor,
overflow nothing sideways, and keep every SVG label inside its picture with no
two labels of a picture overlapping and no counter drawn on the board
(measured boxes, not estimates). Every text, in the page and in its pictures as
scaled there, is at least 12 px, and no word in a table cell is broken over two
lines. The index page links every page. A screenshot of each page is kept under
``<tmp>/ruleslawyer-browser/`` (the test prints the path). Skipped where no
Chromium is installed (``.ci/run`` installs Debian's ``chromium``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from ruleslawyer.findings import DEFAULT_FAIL_ON
from ruleslawyer.gamefiles.source import load_source
from ruleslawyer.games import GAMES
from ruleslawyer.reports.files import report_files

CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser")) if p), None)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on PATH (install Debian's chromium package)"
)
WIDTH = 1280
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)

# Runs in the page after load and writes what it measured into the DOM as JSON.
PROBE = """
<script>
(function () {
  const out = {width: window.innerWidth};
  const copy = document.body.cloneNode(true);
  copy.querySelectorAll("pre, code, svg, script").forEach((e) => e.remove());
  document.body.appendChild(copy);
  copy.style.position = "absolute"; copy.style.left = "-99999px";
  out.text = copy.innerText;
  copy.remove();
  out.images = Array.from(document.images).map((i) => ({src: i.src.slice(0, 60),
    ok: i.complete && i.naturalWidth > 0}));
  out.svgs = Array.from(document.querySelectorAll("figure svg")).map((s) => {
    const r = s.getBoundingClientRect();
    return {title: s.querySelector("title").textContent, w: r.width, h: r.height};
  });
  out.broken = Array.from(document.querySelectorAll('a[href^="#"]'))
    .map((a) => decodeURIComponent(a.getAttribute("href").slice(1)))
    .filter((id) => !document.getElementById(id));
  out.links = document.querySelectorAll('a[href^="#"]').length;
  out.scrollWidth = document.documentElement.scrollWidth;
  out.wide = Array.from(document.body.querySelectorAll("*"))
    .filter((e) => !e.closest("svg") && e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .map((e) => e.tagName + ":" + (e.textContent || "").slice(0, 40));
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 &&
    a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const meets = (a, b) => a.left < b.right && b.left < a.right &&
    a.top < b.bottom && b.top < a.bottom;
  out.clipped = []; out.overlaps = []; out.small = [];
  document.querySelectorAll("figure svg").forEach((s) => {
    const box = s.getBoundingClientRect();
    const title = s.querySelector("title").textContent;
    s.querySelectorAll("text").forEach((t) => {
      if (!inside(t.getBoundingClientRect(), box)) out.clipped.push(title + ": " + t.textContent);
    });
    const texts = Array.from(s.querySelectorAll("text"));
    const boxes = texts.map((t) => t.getBoundingClientRect());
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      if (meets(boxes[i], boxes[j]))
        out.overlaps.push(title + ": " + texts[i].textContent + " / " + texts[j].textContent);
    }
    const board = Array.from(s.querySelectorAll("circle, line"));
    s.querySelectorAll("text.counter").forEach((t) => {
      const r = t.getBoundingClientRect();
      if (board.some((b) => meets(r, b.getBoundingClientRect())))
        out.overlaps.push(title + ": counter on the board: " + t.textContent);
    });
    const scale = box.width / s.viewBox.baseVal.width;
    texts.forEach((t) => {
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (px < 11.95) out.small.push(title + ": " + t.textContent + " " + px.toFixed(1) + "px");
    });
  });
  document.body.querySelectorAll("*").forEach((e) => {
    if (e.closest("svg") || e.closest("#probe-result")) return;
    const own = Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    const px = parseFloat(getComputedStyle(e).fontSize);
    if (own && px < 11.95) out.small.push(e.tagName + ": " + e.textContent.slice(0, 40) + " " + px);
  });
  out.broken_words = [];
  document.querySelectorAll("td, th").forEach((cell) => {
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (const m of n.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(n, m.index); range.setEnd(n, m.index + m[0].length);
        const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
        if (tops.size < 2) continue;
        // The first column (finding ids, reading names) keeps every word on one line,
        // unless it holds prose (the coverage table's rulebook sentences); elsewhere (a
        // witness's JSON) a line may end only after a hyphen or a slash, and a test id
        // (tests/...py::test_...) also after "::" or "_".
        const head = cell.closest("table").querySelector("th");
        let bad = cell.cellIndex === 0 && !(head && head.textContent.trim() === "sentence");
        const id = n.parentElement.tagName === "CODE" && /^tests\\/\\S+::/.test(n.textContent);
        const ends = id ? "-/_:" : "-/";
        for (let k = 1; k < m[0].length && !bad; k++) {
          const a = document.createRange(), b = document.createRange();
          a.setStart(n, m.index + k - 1); a.setEnd(n, m.index + k);
          b.setStart(n, m.index + k); b.setEnd(n, m.index + k + 1);
          const ta = a.getBoundingClientRect().top, tb = b.getBoundingClientRect().top;
          if (tb > ta + 1 && !ends.includes(m[0][k - 1])) bad = true;
        }
        if (bad) out.broken_words.push(m[0]);
      }
    }
  });
  out.hrefs = Array.from(document.querySelectorAll("a[href]")).map((a) => a.getAttribute("href"));
  const pre = document.createElement("pre");
  pre.id = "probe-result";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""
RAW_MARKDOWN = re.compile(r"\*\*|\]\(|```|^\s*#{1,6} |^\s*\|.*\|\s*$|^\s*> |\|---", re.M)


def chromium(*args: str, profile: Path, height: int = 900) -> str:
    """Run headless Chromium with a fresh profile and a window ``WIDTH`` px wide."""
    done = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", f"--window-size={WIDTH},{height}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


@pytest.fixture(scope="module")
def pages(tmp_path_factory, builtin_results) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("html")
    paths = {}
    for game in sorted(GAMES):
        files = report_files(load_source(game), builtin_results[game], DEFAULT_FAIL_ON, "html")
        page = out / f"{game}.html"
        page.write_text(files[f"{game}.html"], "utf-8")
        paths[game] = page
    return paths


@pytest.mark.parametrize("game", sorted(GAMES))
def test_page_in_chromium(pages: dict[str, Path], game: str, tmp_path: Path) -> None:
    seen = probe(pages[game].read_text("utf-8"), tmp_path)
    assert seen["width"] == WIDTH
    raw = RAW_MARKDOWN.findall(seen["text"])
    assert not raw, f"raw Markdown shows on the {game} page: {raw[:5]}"
    assert all(i["ok"] for i in seen["images"]), seen["images"]
    assert seen["svgs"], f"the {game} page shows no pictures"
    assert all(s["w"] > 50 and s["h"] > 50 for s in seen["svgs"]), seen["svgs"]
    assert seen["links"] > 0 and seen["broken"] == [], seen["broken"]
    assert seen["scrollWidth"] <= WIDTH and seen["wide"] == [], seen["wide"][:5]
    assert seen["clipped"] == [], seen["clipped"][:5]
    assert seen["overlaps"] == [], seen["overlaps"][:5]
    assert seen["small"] == [], seen["small"][:5]
    assert seen["broken_words"] == [], seen["broken_words"][:5]

    shots = Path(tempfile.gettempdir()) / "ruleslawyer-browser"
    shots.mkdir(exist_ok=True)
    shot = shots / f"{game}.png"
    shot_profile = tmp_path / "profile-shot"
    chromium(f"--screenshot={shot}", pages[game].as_uri(), profile=shot_profile, height=2400)
    assert shot.stat().st_size > 10_000
    print(f"screenshot of the {game} report page: {shot}")


def probe(page: str, tmp_path: Path) -> dict:
    """What the probe measures of ``page`` in Chromium."""
    import html

    path = tmp_path / "page.html"
    path.write_text(page.replace("</body>", PROBE + "</body>"), "utf-8")
    dom = chromium("--dump-dom", path.as_uri(), profile=tmp_path / "profile")
    found = re.search(r'<pre id="probe-result">(.*?)</pre>', dom, re.S)
    assert found, f"the probe did not run in Chromium: {dom[:300]}"
    return json.loads(html.unescape(found.group(1)))


def test_the_probe_sees_what_it_must_reject(tmp_path: Path) -> None:
    # A page with every fault the test looks for: raw Markdown, a dead anchor, an element
    # wider than the window, a label outside its picture, two node names on each other, a
    # counter on the board, text under 12 px (in the page; in a picture, also by scaling it
    # down) and a word broken in a narrow table cell.
    bad = (
        "<!DOCTYPE html><html><body><p>**bold** and [x](#y)</p><a href='#nowhere'>n</a>"
        "<div style='width:2000px'>wide</div><figure><svg width='100' height='60' "
        "viewBox='0 0 100 60'>"
        "<title>t</title><text x='90' y='20'>far outside</text>"
        "<text class='node-name' x='10' y='50'>alpha</text>"
        "<text class='node-name' x='14' y='50'>beta</text>"
        "<text x='2' y='30' font-size='6'>tiny</text>"
        "<circle cx='60' cy='50' r='6'/><text class='counter' x='55' y='54'>3</text></svg>"
        "</figure><figure><svg width='40' height='20' viewBox='0 0 80 40' style='width:40px'>"
        "<title>u</title><text x='2' y='20' font-size='16'>half</text></svg></figure>"
        "<p style='font-size:8px'>fine print</p><table style='width:40px'><tr>"
        "<td style='overflow-wrap:anywhere'>removed-from-play</td>"
        "<td style='overflow-wrap:anywhere'>a-b-c-d supplyremovedfromplay</td></tr></table>"
        "</body></html>"
    )
    seen = probe(bad, tmp_path)
    assert RAW_MARKDOWN.findall(seen["text"])
    assert seen["broken"] == ["nowhere"]
    assert seen["scrollWidth"] > WIDTH and seen["wide"]
    assert seen["clipped"] == ["t: far outside"]
    assert seen["overlaps"] == ["t: alpha / beta", "t: counter on the board: 3"]
    assert [s.split(":")[0] for s in seen["small"]] == ["t", "u", "P"], seen["small"]
    assert seen["broken_words"] == ["removed-from-play", "supplyremovedfromplay"]


def test_index_in_chromium(builtin_results, tmp_path: Path) -> None:
    from ruleslawyer.reports.files import index_file

    pages = [(f"{game}.html", builtin_results[game]) for game in sorted(GAMES)]
    index = index_file(pages, DEFAULT_FAIL_ON, "ruleslawyer report --format html")
    seen = probe(index["index.html"], tmp_path)
    assert seen["hrefs"] == [page for page, _ in pages]
    assert seen["scrollWidth"] <= WIDTH and seen["wide"] == [], seen["wide"][:5]
    assert seen["small"] == [] and seen["broken_words"] == []
