"""Every quoted sentence of every rule point is found verbatim in its rulebook."""

from __future__ import annotations

import pytest

from ruleslawyer import rulebooks
from ruleslawyer.findings import Sentence
from ruleslawyer.games import GAMES


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
