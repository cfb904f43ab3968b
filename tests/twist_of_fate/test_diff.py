"""`ruleslawyer diff` on two Twist of Fate decks solves the benchmark positions under each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
BROWNLOW = "{ gives = { luck = 1, shilling = 1 } },"


@pytest.mark.slow
def test_changing_a_card_changes_the_solved_benchmark_positions(tmp_path) -> None:
    text = (ROOT / "ruleslawyer/data/twist-of-fate.toml").read_text("utf-8")
    assert BROWNLOW in text
    old, new = tmp_path / "old.toml", tmp_path / "new.toml"
    old.write_text(text)
    # The player's side of Mr. Brownlow now gives +2 Shilling instead of +1.
    new.write_text(text.replace(BROWNLOW, BROWNLOW.replace("shilling = 1 }", "shilling = 2 }")))
    result = CliRunner().invoke(cli, ["diff", str(old), str(new), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    answers = json.loads(result.output)["analysis"]
    assert set(answers) <= {"twist-of-fate-3p-6", "twist-of-fate-3p-9"} and answers
    for change in answers.values():
        assert change["old"]["finished"] and change["new"]["finished"]
        assert change["old"] != change["new"]


@pytest.mark.slow
def test_same_deck_changes_nothing(tmp_path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text((ROOT / "ruleslawyer/data/twist-of-fate.toml").read_text("utf-8"))
    result = CliRunner().invoke(cli, ["diff", str(deck), str(deck)])
    assert result.exit_code == 0 and "No differences." in result.output
