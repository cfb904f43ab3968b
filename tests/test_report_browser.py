"""Every built-in game's HTML report, rendered in headless Chromium at 1280 px.

The page must show no raw Markdown, load every picture, resolve every anchor,
overflow nothing sideways, and keep every SVG label inside its picture with no
two node names of a board overlapping (measured boxes, not estimates). A
screenshot of each page is kept under ``<tmp>/ruleslawyer-browser/`` (the test
prints the path). Skipped where no Chromium is installed (``.ci/run`` installs
Debian's ``chromium``).
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
from ruleslawyer.games import GAMES, load_source
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
  out.clipped = []; out.overlaps = [];
  document.querySelectorAll("figure svg").forEach((s) => {
    const box = s.getBoundingClientRect();
    const title = s.querySelector("title").textContent;
    s.querySelectorAll("text").forEach((t) => {
      if (!inside(t.getBoundingClientRect(), box)) out.clipped.push(title + ": " + t.textContent);
    });
    const names = Array.from(s.querySelectorAll("text.node-name, text.explorers"));
    for (let i = 0; i < names.length; i++) for (let j = i + 1; j < names.length; j++) {
      if (meets(names[i].getBoundingClientRect(), names[j].getBoundingClientRect()))
        out.overlaps.push(title + ": " + names[i].textContent + " / " + names[j].textContent);
    }
  });
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
    # wider than the window, a label outside its picture and two node names on each other.
    bad = (
        "<!DOCTYPE html><html><body><p>**bold** and [x](#y)</p><a href='#nowhere'>n</a>"
        "<div style='width:2000px'>wide</div><figure><svg width='100' height='60'>"
        "<title>t</title><text x='90' y='20'>far outside</text>"
        "<text class='node-name' x='10' y='50'>alpha</text>"
        "<text class='node-name' x='14' y='50'>beta</text></svg></figure></body></html>"
    )
    seen = probe(bad, tmp_path)
    assert RAW_MARKDOWN.findall(seen["text"])
    assert seen["broken"] == ["nowhere"]
    assert seen["scrollWidth"] > WIDTH and seen["wide"]
    assert seen["clipped"] == ["t: far outside"]
    assert seen["overlaps"] == ["t: alpha / beta"]
