"""Every quoted sentence of every rule point is found verbatim in its rulebook."""

from __future__ import annotations

import pytest

from ruleslawyer.findings import Sentence
from ruleslawyer.games import GAMES
from ruleslawyer.rulebook import books as rulebooks


def test_find_locates_quotes_loosely_and_with_ellipsis() -> None:
    book = "unsettled-kaelyfos-rulebook.txt"
    assert rulebooks.find(Sentence(book, "Spawn", "If a bloodsucker would spawn")) is not None
    spread = Sentence(book, "Traps", "If a trap has caught 2 bloodsuckers ... to the supply.")
    assert rulebooks.find(spread) is not None
    assert rulebooks.find(Sentence(book, "Spawn", "bloodsuckers dance at dawn")) is None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rule_point_quote_is_in_its_rulebook(game: str) -> None:
    info = GAMES[game]
    points = info.rule_points()
    assert points, f"{game} declares no rule points"
    for point in points:
        assert point.id.startswith(f"{game}/"), point.id
        assert point.sentences, f"{point.id} quotes no sentence"
        for sentence in point.sentences:
            assert sentence.rulebook == info.rulebook, point.id
            assert rulebooks.find(sentence) is not None, f"{point.id}: {sentence.text!r}"


def test_shipped_rulebooks_match_the_seeds() -> None:
    from pathlib import Path

    seeds = Path(__file__).resolve().parents[2] / "shared" / "seeds"
    if not seeds.is_dir():
        pytest.skip("the publishers' original rulebook texts are not beside this checkout")
    for info in GAMES.values():
        shipped = rulebooks.text(info.rulebook)
        assert shipped == (seeds / info.rulebook).read_text("utf-8"), info.rulebook


# ---- nearest(): the sentence most like a quote that is gone ----


def _brute_nearest(book: rulebooks.DesignerRulebook, quote: str) -> tuple[str, int, float]:
    """Every run of sentences compared with the quote by difflib's ratio: the first best."""
    import difflib
    import re

    pieces = rulebooks._sentences(book.text)
    want = rulebooks._plain(quote.replace("...", " "))
    width = max(1, len(re.findall(r"[.!?](?:\s|$)", quote)))
    best = (-1.0, 0, "", 0)
    for i in range(len(pieces)):
        text = " ".join(p[1] for p in pieces[i : i + width])
        score = difflib.SequenceMatcher(None, want, text, autojunk=False).ratio()
        if score > best[0]:
            best = (score, i, text, pieces[i][0])
    return best[2], best[3], best[0]


def _drifted(text: str) -> str:
    """``text`` with its middle word changed (what a designer's edit does to a quote)."""
    words = text.split()
    words[len(words) // 2] = "zzyzx"
    return " ".join(words)


def _books() -> list[tuple[rulebooks.DesignerRulebook, list[str]]]:
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    out = []
    for game, info in sorted(GAMES.items()):
        quotes = [_drifted(s.text) for p in info.rule_points() for s in p.sentences]
        shipped = rulebooks.text(info.rulebook)
        out.append((rulebooks.DesignerRulebook(info.rulebook, shipped), quotes))
        if game == "kaelyfos":
            example = (root / "examples" / "designer-repo" / "rules" / "kaelyfos.md").read_text()
            out.append((rulebooks.DesignerRulebook("rules/kaelyfos.md", example), quotes))
    return out


@pytest.mark.parametrize("at", range(5))
def test_nearest_is_the_best_of_every_sentence_on_the_shipped_and_example_rulebooks(
    at: int,
) -> None:
    book, quotes = _books()[at]
    for quote in quotes[:5]:
        near = book.nearest(quote)
        assert near is not None and (near.text, near.line, near.score) == _brute_nearest(
            book, quote
        ), quote


@pytest.mark.slow
@pytest.mark.parametrize("at", range(5))
def test_nearest_is_the_best_for_every_quote_of_every_rule_point(at: int) -> None:
    book, quotes = _books()[at]
    for quote in quotes:
        near = book.nearest(quote)
        assert near is not None and (near.text, near.line, near.score) == _brute_nearest(
            book, quote
        ), quote


def drifted_rulebook(size: int) -> str:
    """Copies of the shipped Kaelyfos rulebook, to ``size`` characters, with about half the
    words of each copy reversed or changed (seeded): sentences like a quote, none one."""
    import random
    import re

    rng = random.Random(7)
    shipped = rulebooks.text("unsettled-kaelyfos-rulebook.txt")

    def drift(m: re.Match[str]) -> str:
        r = rng.random()
        return m.group(0)[::-1] if r < 0.35 else m.group(0) + "s" if r < 0.5 else m.group(0)

    body = ""
    while len(body) < size:
        body += re.sub(r"[A-Za-z]{3,}", drift, shipped) + "\n\n"
    return body


def _comparisons(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter of the exact comparisons (difflib matchers) :mod:`rulebooks` makes."""
    import difflib

    made = [0]

    class Counting(difflib.SequenceMatcher):
        def __init__(self, *args: object, **kwargs: object) -> None:
            made[0] += 1
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rulebooks.difflib, "SequenceMatcher", Counting)
    return made


def test_a_drifted_256_kib_rulebook_is_compared_exactly_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 256 KiB: about 4,000 sentences, each like a quote but none verbatim (the old search
    # built a matcher per sentence per quote: 42 s for the 50 quotes)
    body = drifted_rulebook(256 * 1024)
    book = rulebooks.DesignerRulebook("rules/kaelyfos.md", body)
    assert len(rulebooks._sentences(body)) > 2000
    made = _comparisons(monkeypatch)
    quotes = [s.text for p in GAMES["kaelyfos"].rule_points() for s in p.sentences]
    for quote in quotes:
        near = book.nearest(quote)
        assert near is not None and near.score > 0.6
    assert made[0] <= len(quotes) * 100


def test_a_rulebook_of_anagrams_stops_at_the_cap_of_exact_comparisons(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import random

    # every sentence holds exactly the quote's letters, shuffled: no bound prunes any
    quote = "Each bloodsucker moves the amount indicated, toward the nearest explorer."
    rng = random.Random(3)
    letters = list(quote[:-1])
    sentences = []
    for _ in range(3000):
        rng.shuffle(letters)
        sentences.append("".join(letters).replace(".", ",") + ".")
    book = rulebooks.DesignerRulebook("rules/anagrams.txt", "\n\n".join(sentences))
    made = _comparisons(monkeypatch)
    near = book.nearest(quote.replace("toward", "to"))
    assert near is not None and made[0] == rulebooks.MAX_COMPARED
