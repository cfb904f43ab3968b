"""``--horizon game`` where a round end would draw from a pile of fewer than three cards,
and the order of a position's and a deck's entries.

Two-Player Variant: "the new starting player takes three random cards from the six
unused cards from the previous round, saving the other three for the following round.
The other player takes three random cards currently in front of "Monks" and saves the
other three". The rulebook says nothing of a pile under three (a real game always has
six there), so a position whose horizon needs such a draw is refused with one line
(exit 2); the search used to stop there silently, every line "open".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.twist_of_fate.files import Position
from ruleslawyer.models.twist_of_fate.play import (
    Character,
    Deck,
    Rules,
    Seat,
    ShortPile,
    Side,
    State,
    short_pile,
)
from ruleslawyer.solvers.twist_of_fate.horizon import analyse_rounds
from ruleslawyer.solvers.twist_of_fate.reference import horizon as reference

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "twist-of-fate"
BROWNLOW = Character("Mr. Brownlow", (Side((0, 2), (2, 0)), Side((1, 1), (0, 0))), "printed")
DUD = Character("Dud", (Side(), Side()), "placeholder")
DECK = Deck("two cards", (BROWNLOW, DUD))
MUST = Rules(face_down_at_zero="must-decrease")
THREE = 'in_front = ["Dud", "Dud", "Dud"]'


def _variant(tmp_path: Path, old: str, new: str, name: str = "position.toml") -> Path:
    """examples/twist-of-fate/across-rounds.toml with ``old`` replaced by ``new``, beside
    a copy of its deck."""
    deck = (EXAMPLES / "two-card-deck.toml").read_text("utf-8")
    (tmp_path / "two-card-deck.toml").write_text(deck, "utf-8")
    text = (EXAMPLES / "across-rounds.toml").read_text("utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new), "utf-8")
    return path


def _solve(path: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["twist-of-fate", "solve", str(path), *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_monks_pile_short_on_every_line_is_refused(tmp_path: Path) -> None:
    # The README's example with one Dud in front of the Monks: Bob's last card (a Dud)
    # goes on Ann (the Monks keep 1) or on the Monks (2): round 2 ends with at most 2
    # there, and Ann must "take three random cards currently in front of Monks".
    path = _variant(tmp_path, THREE, 'in_front = ["Dud"]')
    code, out, err = _solve(path, "--horizon", "game")
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1
    assert f"{path}: monks.in_front: found 'at most 2 card(s) in front of the Monks" in err
    assert "at the end of round 2 on every line of play" in err and "expected at least 3" in err
    # one round at a time needs no draw: the round is solved
    code, out, _ = _solve(path, "--format", "json")
    assert code == 0 and json.loads(out)["finished"] is True


def test_a_pile_short_on_some_line_is_refused(tmp_path: Path) -> None:
    # Two Duds in front of the Monks: Bob's Dud on the Monks makes three (a draw the
    # rules describe), on Ann leaves two: that line's round end cannot draw.
    path = _variant(tmp_path, THREE, 'in_front = ["Dud", "Dud"]')
    code, out, err = _solve(path, "--horizon", "game")
    assert (code, out) == (2, "")
    assert "found '2 card(s) in front of the Monks at the end of round 2 on some line" in err


def test_both_searches_refuse_a_short_unused_pile() -> None:
    # Round 2 over (no card left in any hand), three Duds in front of the Monks but only
    # two unused cards: Ann, who starts round 3, must "take three random cards from the
    # six unused cards". Under leftover-cards=set-aside with no unused card left, the
    # rules give her none to draw: no refusal.
    seats = (Seat(1, 1, 0), Seat(3, 0, 7), Seat(1, 1, 0, in_front=("Dud",) * 3))
    state = State(seats, players=2, active=0, starter=1, round=2, unused=("Dud", "Dud"))
    assert state.round_over
    short = short_pile(state, MUST)
    assert short is not None and short.place == "unused"
    with pytest.raises(ShortPile):
        analyse_rounds(Position(state, ("ann", "bob"), DECK, {}), MUST, "maxn", 1)
    with pytest.raises(ShortPile):
        reference.value(state, DECK, MUST, 1)
    none_left = State(seats, players=2, active=0, starter=1, round=3, unused=())
    aside = Rules(face_down_at_zero="must-decrease", leftover_cards="set-aside")
    assert short_pile(none_left, aside) is None
    # with no round end to cross, nothing is drawn and nothing refused
    assert reference.value(state, DECK, MUST, 0) is not None


def test_entry_order_never_changes_the_answer(tmp_path: Path) -> None:
    # The deck file's characters in the other order and the unused cards listed in
    # another order: the same answer, every field (but the time taken).
    plain = _variant(tmp_path, "", "", "plain.toml")
    deck = (EXAMPLES / "two-card-deck.toml").read_text("utf-8")
    first = deck.index("[[character]]")
    second = deck.index("[[character]]", first + 1)
    swapped = deck[:first] + deck[second:].rstrip() + "\n\n" + deck[first:second]
    (tmp_path / "swapped-deck.toml").write_text(swapped, "utf-8")
    text = plain.read_text("utf-8").replace("two-card-deck.toml", "swapped-deck.toml")
    text = text.replace(
        'unused = ["Mr. Brownlow", "Dud", "Dud", "Dud"]',
        'unused = ["Dud", "Dud", "Mr. Brownlow", "Dud"]',
    )
    other = tmp_path / "other.toml"
    other.write_text(text, "utf-8")
    answers = []
    for path in (plain, other):
        code, out, _ = _solve(path, "--horizon", "game", "--format", "json")
        assert code == 0, out
        doc = json.loads(out)
        del doc["seconds"]
        answers.append(doc)
    assert answers[0] == answers[1]
    assert answers[0]["value"]["bob"]["expected_outcome"] == "3/4"
