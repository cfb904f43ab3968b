"""Time ``DesignerRulebook.nearest`` on a hostile designer rulebook, beside the old search.

Run from the repository root:  python benchmarks/rulebook_nearest.py

The rulebook: 256 KiB of copies of the shipped Kaelyfos rulebook with half the words of
each copy reversed or changed (seeded), so every sentence is like a quote and none is one
verbatim. Every quote of every Kaelyfos rule point is matched against it, once by
``nearest`` (every run bounded at once by character counts, then by the longest common
subsequence, at most ``MAX_COMPARED`` exact ratios), once by the old search (a difflib
matcher built for every run and every quote, ``quick_ratio`` of each, exact ratios from
the highest bound down). Both must give the same sentences.
"""

from __future__ import annotations

import difflib
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ruleslawyer.games import GAMES  # noqa: E402
from ruleslawyer.rulebook import books as rulebooks  # noqa: E402
from tests.test_rulebooks import drifted_rulebook  # noqa: E402

SIZE = 256 * 1024


def old_nearest(body: str, quote: str) -> tuple[str, int, float]:
    """The search before this benchmark: a matcher per run, sorted by quick_ratio."""
    pieces = rulebooks._sentences(body)
    want = rulebooks._plain(quote.replace("...", " "))
    width = max(1, len(re.findall(r"[.!?](?:\s|$)", quote)))
    runs = [pieces[i : i + width] for i in range(len(pieces))]
    joined = [" ".join(p[1] for p in run) for run in runs]
    matchers = [difflib.SequenceMatcher(None, want, j, autojunk=False) for j in joined]
    bounds = sorted((-m.quick_ratio(), i) for i, m in enumerate(matchers))
    best_score, best_i = -1.0, -1
    for bound, i in bounds:
        if -bound < best_score:
            break
        score = matchers[i].ratio()
        if score > best_score or (score == best_score and i < best_i):
            best_score, best_i = score, i
    return joined[best_i], runs[best_i][0][0], best_score


def main() -> None:
    body = drifted_rulebook(SIZE)
    book = rulebooks.DesignerRulebook("rules/kaelyfos.md", body)
    quotes = [s.text for p in GAMES["kaelyfos"].rule_points() for s in p.sentences]
    rulebooks._sentences(body)  # split once, outside both timings
    exact = [0]

    class Counted(difflib.SequenceMatcher):
        def ratio(self) -> float:
            exact[0] += 1
            return super().ratio()

    rulebooks.difflib.SequenceMatcher = Counted  # type: ignore[misc]
    start = time.perf_counter()
    new = [book.nearest(q) for q in quotes]
    fast = time.perf_counter() - start
    rulebooks.difflib.SequenceMatcher = difflib.SequenceMatcher  # type: ignore[misc]
    start = time.perf_counter()
    old = [old_nearest(body, q) for q in quotes]
    slow = time.perf_counter() - start
    same = sum(
        1 for n, o in zip(new, old, strict=True) if n is not None and (n.text, n.line, n.score) == o
    )
    print(f"rulebook: {len(body):,} characters, {len(rulebooks._sentences(body)):,} sentences")
    print(f"quotes: {len(quotes)}; same answer from both: {same}")
    most = rulebooks.MAX_COMPARED
    print(f"nearest: {fast:.2f} s, {exact[0]:,} exact ratios (at most {most} a quote)")
    print(f"old search (a matcher per run): {slow:.2f} s ({slow / fast:.1f}x)")


if __name__ == "__main__":
    main()
