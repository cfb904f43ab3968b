"""Known-answer deduction cases, worked out by hand from the rulebook, and the CLI's errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.solvers.cunning_folk_deduce import deduce
from tests.cunning_folk.helpers import log_of

ISSUE_EXAMPLE = """\
setup = "standard"
players = ["me", "bea", "cal"]
perspective = "me"
[[event]]
type = "peek"
player = "me"
cell = "B2"
saw = "evil-witch"
[[event]]
type = "claim"
player = "bea"
cell = "A1"
role = "good-elder"
challenged = true
revealed = "villager"
[[event]]
type = "pass"
player = "cal"
cell = "C3"
[[event]]
type = "swap"
player = "bea"
cells = ["A1", "C3"]
[[event]]
type = "trade"
cells = ["B1", "B2"]
[[event]]
type = "reveal"
cell = "B3"
revealed = "evil-elder"
"""


def run(tmp_path: Path, text: str, *args: str):
    path = tmp_path / "log.toml"
    path.write_text(text)
    return CliRunner().invoke(cli, ["cunning-folk", "deduce", str(path), *args])


def doc(*events: dict, setup: str = "standard", **keys) -> dict:
    return {"setup": setup, **keys, "players": ["me", "bea", "cal"], "event": list(events)}


def test_issue_example_by_hand(tmp_path: Path) -> None:
    # B2 = evil witch (my peek), A1 = villager (revealed), B3 = evil elder (revealed). The six
    # other cells hold 2 good witches, the good elder, 1 evil witch, 2 villagers:
    # 6!/(2!·1!·1!·2!) = 180 deals, times 2 for bea's hidden swap = 360 worlds.
    # The trade moves my evil witch from B2 to B1, so B1 is certain because of event 0.
    # A1 after the swap is the villager (180 worlds) or C3's card (180 worlds split
    # 2:1:1:2 over good witch, good elder, evil witch, villager) = villager 240.
    result = run(tmp_path, ISSUE_EXAMPLE, "--format", "json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["worlds"] == 360 and out["finished"] is True
    assert out["cells"]["B1"] == {
        "face_up": False,
        "certain": "evil-witch",
        "counts": {"evil-witch": 360},
        "why": [0],
    }
    assert out["cells"]["B3"]["certain"] == "evil-elder" and out["cells"]["B3"]["why"] == [5]
    assert out["cells"]["B3"]["face_up"] is True
    assert out["cells"]["A1"]["counts"] == {
        "good-witch": 60,
        "good-elder": 30,
        "evil-witch": 30,
        "villager": 240,
    }
    # Good elder: B1 and B3 are known evil; the last evil witch is in A2, A3, B2, C1 or C2
    # with chance 1/6 each (1/12 in A1 or C3, split by the swap): best 1/6, first in A2.
    good = out["elder"]["good-elder"]
    assert good["win_fraction"] == "1/6" and good["first_pick"] == "A2"
    assert good["guaranteed"] is False
    # Evil elder: 2 good witches and the good elder among six unswapped-alike cells:
    # 3/6 · 2/5 · 1/4 = 1/20.
    assert out["elder"]["evil-elder"]["win_fraction"] == "1/20"


def test_empty_log_is_the_uniform_deal() -> None:
    # 9!/(2!·1!·2!·1!·3!) = 15120 deals; each cell holds a villager in 3/9 of them.
    result = deduce(log_of(doc()))
    assert result["worlds"] == 15120
    assert result["cells"]["C2"]["counts"] == {
        "good-witch": 3360,
        "good-elder": 1680,
        "evil-witch": 3360,
        "evil-elder": 1680,
        "villager": 5040,
    }
    # No information: any order of picks finds the 3 evil cards with 3/9 · 2/8 · 1/7 = 1/84.
    assert result["elder"]["good-elder"]["win_fraction"] == "1/84"
    assert result["elder"]["good-elder"]["first_pick"] == "A1"


def reveal(cell: str, role: str) -> dict:
    return {"type": "reveal", "cell": cell, "revealed": role}


def test_all_evil_revealed_guarantees_the_good_elder() -> None:
    result = deduce(
        log_of(
            doc(reveal("C3", "evil-witch"), reveal("A2", "evil-elder"), reveal("B1", "evil-witch"))
        )
    )
    good = result["elder"]["good-elder"]
    assert good == {
        "win_probability": 1.0,
        "win_fraction": "1",
        "guaranteed": True,
        "first_pick": "A2",
    }


def test_pirate_joins_the_opposition() -> None:
    # With the pirate in play the good elder must also find him: he is in one of the
    # six other cells, each equally likely, so the run wins with 1/6.
    events = (reveal("C3", "evil-witch"), reveal("A2", "evil-elder"), reveal("B1", "evil-witch"))
    result = deduce(log_of(doc(*events, setup="bonus", bonus=["pirate"])))
    assert result["elder"]["good-elder"]["win_fraction"] == "1/6"
    assert result["elder"]["good-elder"]["guaranteed"] is False


def test_face_down_only_ruling_blocks_a_face_up_evil_card() -> None:
    log = log_of(doc(reveal("B2", "evil-witch")))
    assert deduce(log, face_down_only=True)["elder"]["good-elder"] == {
        "win_probability": 0.0,
        "win_fraction": "0",
        "guaranteed": False,
        "first_pick": None,
    }
    # Default reading: B2 counts when picked (at any time, so it ties with A1: the first
    # pick is A1); the other two evil cards are among 8 cells: 2/8 · 1/7 = 1/28.
    counts = deduce(log)["elder"]["good-elder"]
    assert counts["win_fraction"] == "1/28" and counts["first_pick"] == "A1"


def test_pass_with_a_liar_in_play_rules_the_liar_out() -> None:
    passed = {"type": "pass", "player": "bea", "cell": "A1"}
    result = deduce(log_of(doc(passed, setup="bonus", bonus=["liar"])))
    assert "liar" not in result["cells"]["A1"]["counts"]
    assert result["cells"]["A2"]["counts"]["liar"] > 0


def test_hidden_swap_splits_a_certain_card() -> None:
    # A1 is the evil elder; 8!/(2!·1!·2!·3!) = 1680 deals of the rest, times 2 for the swap.
    swap = {"type": "swap", "player": "bea", "cells": ["A1", "B1"]}
    result = deduce(log_of(doc(reveal("A1", "evil-elder"), swap)))
    assert result["worlds"] == 3360
    assert result["cells"]["A1"]["certain"] is None
    assert result["cells"]["A1"]["counts"]["evil-elder"] == 1680
    assert result["cells"]["A1"]["face_up"] is False


def test_my_own_swap_is_known() -> None:
    swap = {"type": "swap", "player": "me", "cells": ["A1", "B1"], "swapped": True}
    result = deduce(log_of(doc(reveal("A1", "evil-elder"), swap, perspective="me")))
    assert result["worlds"] == 1680
    assert result["cells"]["B1"]["certain"] == "evil-elder"
    assert result["cells"]["B1"]["why"] == [0]


def test_scoundrels_worlds_follow_my_kept_and_discarded_cards() -> None:
    # I kept the pirate and set the liar aside: the two other players add two of
    # cat, vagrant, good witch and three villagers. No cell can hold the liar.
    events = (reveal("A1", "evil-elder"), reveal("A2", "good-witch"), reveal("A3", "pirate"))
    log = log_of(
        doc(*events, setup="scoundrels", perspective="me", kept=["pirate"], discarded=["liar"])
    )
    result = deduce(log)
    assert all("liar" not in cell["counts"] for cell in result["cells"].values())
    assert result["cells"]["B1"]["counts"]["cat"] > 0
    assert result["cells"]["A3"]["certain"] == "pirate"


@pytest.mark.parametrize(
    ("text", "place", "found"),
    [
        (ISSUE_EXAMPLE.replace('saw = "evil-witch"', 'saw = "wizard"'), "event[0].saw", "'wizard'"),
        (ISSUE_EXAMPLE.replace('cell = "C3"', 'cell = "D4"'), "event[2].cell", "'D4'"),
        (ISSUE_EXAMPLE.replace('setup = "standard"', 'setup = "chaos"'), "setup", "'chaos'"),
        (
            ISSUE_EXAMPLE.replace('cell = "B3"', 'cell = "B1"'),
            "event[5]",
            "'reveal B1 evil-elder'",
        ),
        (
            ISSUE_EXAMPLE.replace('revealed = "villager"', 'revealed = "good-witch"').replace(
                'cell = "A1"', 'cell = "B2"'
            ),
            "event[1]",
            "'claim bea B2 good-elder'",
        ),
        (
            ISSUE_EXAMPLE.replace("challenged = true", 'challenged = "yes"'),
            "event[1].challenged",
            "'yes'",
        ),
        (ISSUE_EXAMPLE + "colour = 1\n", "event[5].colour", "'colour'"),
        (ISSUE_EXAMPLE.replace('player = "me"', 'player = "bea"'), "event[0].saw", "'evil-witch'"),
        (
            ISSUE_EXAMPLE.replace('cells = ["A1", "C3"]', 'cells = ["A1", "C3"]\nswapped = true'),
            "event[3].swapped",
            "True",
        ),
        (
            ISSUE_EXAMPLE.replace('setup = "standard"', 'setup = "bonus"\nbonus = ["wizard"]'),
            "bonus[0]",
            "'wizard'",
        ),
        (
            ISSUE_EXAMPLE.replace('setup = "standard"', 'setup = "scoundrels"').replace(
                '"cal"]', '"cal", "dan"]'
            ),
            "players",
            "'4 players'",
        ),
        (
            ISSUE_EXAMPLE.replace('role = "good-elder"', 'role = "pirate"'),
            "event[1].role",
            "'pirate'",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, text: str, place: str, found: str
) -> None:
    result = run(tmp_path, text)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"log.toml: {place}: found {found}" in lines[0]


def test_inconsistent_log_names_the_first_impossible_event() -> None:
    from ruleslawyer.errors import InconsistentRecord

    events = (reveal("B3", "evil-elder"), reveal("A1", "good-witch"), reveal("A2", "evil-elder"))
    with pytest.raises(InconsistentRecord, match=r"event\[2\]"):
        deduce(log_of(doc(*events)))


def test_text_format_shows_the_grid(tmp_path: Path) -> None:
    result = run(tmp_path, ISSUE_EXAMPLE)
    assert result.exit_code == 0
    assert result.output.startswith("360 worlds consistent with 6 events")
    assert "B1 evil-witch" in result.output


def test_a_card_i_set_aside_can_be_claimed_but_not_revealed() -> None:
    from ruleslawyer.errors import InconsistentRecord

    bluff = {"type": "claim", "player": "bea", "cell": "B1", "role": "vagrant"}
    keys = {"setup": "scoundrels", "perspective": "me", "kept": ["cat"], "discarded": ["vagrant"]}
    assert deduce(log_of(doc(bluff, **keys)))["worlds"] > 0
    with pytest.raises(InconsistentRecord, match=r"event\[1\]: found 'reveal B1 vagrant'"):
        deduce(log_of(doc(bluff, reveal("B1", "vagrant"), **keys)))
