"""Twisted Cryptids ``advise``: the other players' choices made by them, for themselves, and
the last round ranked by the chance to win; hand-worked from the rulebook on the example
records (each file's comments carry the arithmetic)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.solvers.twisted_cryptids import search
from ruleslawyer.solvers.twisted_cryptids.advise import advise
from ruleslawyer.solvers.twisted_cryptids.position import (
    excluded_traits,
    position_state,
    trait_known,
)
from ruleslawyer.solvers.twisted_cryptids.record import load_record, parse_record

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "twisted-cryptids"
TIE = EXAMPLES / "tie-break.toml"
WIN = EXAMPLES / "last-round-win.toml"


def _advise(path: Path, text: str | None = None, **options: object) -> dict:
    if text is None:
        record, game = load_record(path)
    else:
        record, game = parse_record(tomllib.loads(text), str(path)), load_record(path)[1]
    state, hidden = position_state(record, game, str(path))
    return advise(
        state,
        hidden=hidden,
        exact_limit=1000,
        trait_known=trait_known(record),
        excluded=excluded_traits(record, game),
        **options,  # type: ignore[arg-type]
    )


def _rows(result: dict) -> dict[str, dict]:
    return {r["move"]: r for r in result["choices"]}


def test_first_player_breaks_a_tie_for_himself() -> None:
    # tie-break.toml (reasoning in the file): "If multiple Sites tie for the most Humans, the
    # First Player chooses at which of those Sites the Encounter occurs." grant-money on lake
    # ties lake (ann's Real Deal: +4 for her) with observatory (bob's Stack: +2, +2 or +3
    # for him, 0 for him at lake): bob takes observatory, ann gets 0, in every world.
    # trail-mix on trailhead: +3 for sure. The first tied Site in the file's order (lake)
    # would have ranked grant-money on lake first at +4.
    result = _advise(TIE)
    rows = _rows(result)
    risky = rows["ann plays grant-money on lake"]
    assert risky["score_change"]["mean"] == 0.0 and risky["worst_case"]["score_change"] == 0.0
    # bob: real-deal 2 of 7, hoax 3 of 7 (+2 each), look-alike 2 of 7 (+3): 16/7
    assert risky["leader_score_change"]["mean"] == round(16 / 7, 4)
    safe = rows["ann plays trail-mix on trailhead"]
    assert safe["score_change"]["mean"] == 3.0 and safe["worst_case"]["score_change"] == 3.0
    assert result["choices"][0]["move"] == "ann plays trail-mix on trailhead"
    # grant-money on trailhead: (2,1,2) = 5, the most: her look-alike 2 - 1 = +1
    assert rows["ann plays grant-money on trailhead"]["score_change"]["mean"] == 1.0
    assert rows["ann: pass"]["score_change"]["mean"] == 0.0
    assert "First Player's choice of a tied Site" in result["policy"]
    assert "first legal move" not in result["model"]


def test_last_round_is_ranked_by_the_chance_to_win() -> None:
    # last-round-win.toml (reasoning in the file): "The player with the greatest total Myth
    # wins the game." trail-mix on trailhead scores +3 (ann 27) but bob has 28 and a Hidden
    # Trait worth 0 or more: no win in any world. Pass: bob's last Real Deal turns up at
    # ridge 1 time in 5 and costs him 8 Myth and its 7: 13 and at most 8 from any Hidden
    # Trait, below ann's 24; otherwise he keeps 28 or more.
    result = _advise(WIN)
    assert result["scoring"] == "final" and result["ranking"].startswith("chance to win")
    assert "Hidden Trait" in result["hidden_traits"]
    rows = _rows(result)
    greedy = rows["ann plays trail-mix on trailhead"]
    assert greedy["win_chance"]["mean"] == 0.0 and greedy["score_change"]["mean"] == 3.0
    assert greedy["worst_case"] == {"win_chance": 0.0, "score_change": 3.0}
    passing = rows["ann: pass"]
    assert passing["win_chance"]["mean"] == 0.2 and passing["score_change"]["mean"] == 0.0
    # whatever bob does (his decoy's Site, his Night): the Real Deal decides
    assert passing["worst_case"] == {"win_chance": 0.2, "score_change": 0.0}
    assert result["choices"][-1]["move"] == "ann plays trail-mix on trailhead"
    assert all(r["win_chance"]["mean"] == 0.2 for r in result["choices"][:-1])


def _night_tie_text() -> str:
    # last-round-win.toml changed so that the end is a tie that the Night decides:
    # - ann has no card: she passes; trailhead (2,1,0) = 3 is the Encounter (ridge emptied),
    #   where only ann has a Hiding Spot: her look-alike 2 - 1 = +1 Myth: 7 + 14 + 4 = 25.
    # - bob: 15 Myth + 7 (his last Real Deal unrevealed) + show-off (1 Real Deal revealed:
    #   +3): 25. Every other Hidden Trait is out of play (excluded_traits), so ann knows his.
    # - the tie-break: "tally the number of Humans on the Sites where you have Hiding Spots".
    #   Every Human is at trailhead. Ann's spot there goes back to its Stack at Dusk and
    #   must be placed "on a different Site than the Site at which the Encounter occurred":
    #   her tally is 0. Bob, the First Player, acts first at Night and "may move one of your
    #   Hiding Spots": onto trailhead his tally is 3 and he wins; staying (the first legal
    #   move) leaves 0 against 0, a shared win for ann.
    text = WIN.read_text("utf-8")
    keep = {"recluse", "show-off"}
    from ruleslawyer.models.twisted_cryptids.game import builtin_game

    out = sorted(t.name for t in builtin_game().traits if t.name not in keep)
    for old, new in (
        ("rounds_played = 4\n", f"rounds_played = 4\nexcluded_traits = {json.dumps(out)}\n"),
        ('hand = ["trail-mix"]', "hand = []"),
        ("ridge = [0, 4, 0]", "ridge = [0, 0, 0]"),
        ("myth = 21", "myth = 15"),
    ):
        assert old in text
        text = text.replace(old, new, 1)
    return text


def test_an_owner_moves_his_own_spot_for_himself() -> None:
    result = _advise(WIN, _night_tie_text())
    (row,) = result["choices"]
    assert row["move"] == "ann: pass"
    assert row["score_change"]["mean"] == 1.0
    assert row["win_chance"]["mean"] == 0.0 and row["worst_case"]["win_chance"] == 0.0


@pytest.mark.parametrize("path", [WIN, EXAMPLES / "advise-last-round.toml"])
def test_last_night_by_players_equals_the_engine(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # night.py scores every combination of the players' Night ends at once; the search
    # stepping every Night move of every player to the end must give the same figures
    fast = _advise(path)
    monkeypatch.setattr(search, "last_night_applies", lambda *_: False)
    assert _advise(path)["choices"] == fast["choices"]


def test_cli_prints_the_model_and_the_worst_case() -> None:
    out = CliRunner().invoke(cli, ["twisted-cryptids", "advise", str(WIN)])
    assert out.exit_code == 0, out.output
    assert "ranked by: chance to win, then expected score" in out.output
    assert "hidden traits: " in out.output and "worst case: every other player's" in out.output
    assert "win 0.00; score +3.00" in out.output and "worst win 0.20" in out.output
    doc = json.loads(
        CliRunner().invoke(cli, ["twisted-cryptids", "advise", str(TIE), "--format", "json"]).output
    )
    assert doc["worst_case"] and doc["choices"][0]["worst_case"] == {"score_change": 3.0}
