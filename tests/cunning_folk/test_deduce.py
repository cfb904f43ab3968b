"""Known-answer deduction cases, worked out by hand from the rulebook, and the CLI's errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.solvers.cunning_folk.deduce import deduce
from tests.cunning_folk.helpers import log_of

ROOT = Path(__file__).resolve().parents[2]

ISSUE_EXAMPLE = (ROOT / "examples" / "cunning-folk" / "table-talk.toml").read_text(encoding="utf-8")


def run(tmp_path: Path, text: str, *args: str):
    path = tmp_path / "log.toml"
    path.write_text(text)
    return CliRunner().invoke(cli, ["cunning-folk", "deduce", str(path), *args])


def doc(*events: dict, setup: str = "standard", **keys) -> dict:
    return {"setup": setup, **keys, "players": ["me", "bea", "cal"], "event": list(events)}


def test_issue_example_by_hand(tmp_path: Path) -> None:
    # B2 = evil witch (my pass, events 0 and 3), A1 = villager (revealed at event 1), B3 =
    # evil elder (cal's first pick). The six other cells hold 2 good witches, the good elder,
    # 1 evil witch, 2 villagers: 6!/(2!·1!·1!·2!) = 180 deals, times 2 for bea's hidden
    # swap = 360 worlds. B2 is certain because of event 0 (the first of the two looks).
    # A1 after the swap is the villager (180 worlds) or C3's card (180 worlds split
    # 2:1:1:2 over good witch, good elder, evil witch, villager) = villager 240.
    result = run(tmp_path, ISSUE_EXAMPLE, "--format", "json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["worlds"] == 360 and out["finished"] is True
    assert out["cells"]["B2"] == {
        "face_up": False,
        "certain": "evil-witch",
        "counts": {"evil-witch": 360},
        "why": [0],
    }
    assert out["cells"]["B3"]["certain"] == "evil-elder" and out["cells"]["B3"]["why"] == [7]
    assert out["cells"]["B3"]["face_up"] is True
    assert out["cells"]["A1"]["counts"] == {
        "good-witch": 60,
        "good-elder": 30,
        "evil-witch": 30,
        "villager": 240,
    }
    # Good elder: B2 and B3 are known evil; the last evil witch is in A2, A3, B1, C1 or C2
    # with chance 1/6 each (1/12 in A1 or C3, split by the swap): best 1/6, first in A2.
    good = out["elder"]["good-elder"]
    assert good["run_success_fraction"] == "1/6" and good["first_pick"] == "A2"
    assert good["guaranteed"] is False
    # Evil elder: the 3 good cards are among A2, A3, B1, C1, C2 and C3's old card (now in
    # A1 or C3). Picking only the five unswapped cells: the old C3 card is not good (1/2),
    # then 3/5 · 2/4 · 1/3 = 1/10: 1/20. (A1 or C3 is good only with 1/4: no better.)
    assert out["elder"]["evil-elder"]["run_success_fraction"] == "1/20"


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
    assert result["elder"]["good-elder"]["run_success_fraction"] == "1/84"
    assert result["elder"]["good-elder"]["first_pick"] == "A1"


def reveal(cell: str, role: str) -> dict:
    return {"type": "reveal", "cell": cell, "revealed": role}


def elder_run(elder: str, *picks: tuple[str, str], player: str = "bea") -> tuple[dict, ...]:
    """An unchallenged elder claim and its picks (cell, role seen), as log events."""
    claim = {"type": "claim", "player": player, "cell": picks[0][0], "role": elder}
    return (claim, *({**reveal(c, r), "player": player} for c, r in picks))


def test_all_evil_revealed_guarantees_the_good_elder() -> None:
    # An evil-elder run that finds three evil cards fails at the first one (they do not
    # oppose it): bea is suspected, and the good elder's run now cannot miss.
    events = (
        *elder_run("evil-elder", ("C3", "evil-witch")),
        *elder_run("evil-elder", ("A2", "evil-elder"), player="cal"),
        *elder_run("evil-elder", ("B1", "evil-witch"), player="me"),
    )
    result = deduce(log_of(doc(*events)))
    good = result["elder"]["good-elder"]
    assert good == {
        "run_success_probability": 1.0,
        "run_success_fraction": "1",
        "guaranteed": True,
        "first_pick": "A2",
    }


def test_pirate_joins_the_opposition() -> None:
    # With the pirate in play the good elder must also find him: he is in one of the
    # six other cells, each equally likely, so the run wins with 1/6.
    # (Three runs of the evil elder that each fail at once on an evil card.)
    events = (
        *elder_run("evil-elder", ("C3", "evil-witch")),
        *elder_run("evil-elder", ("A2", "evil-elder"), player="cal"),
        *elder_run("evil-elder", ("B1", "evil-witch"), player="me"),
    )
    result = deduce(log_of(doc(*events, setup="bonus", bonus=["pirate"])))
    assert result["elder"]["good-elder"]["run_success_fraction"] == "1/6"
    assert result["elder"]["good-elder"]["guaranteed"] is False


def test_face_down_only_ruling_blocks_a_face_up_evil_card() -> None:
    failed = elder_run("evil-elder", ("B2", "evil-witch"))
    ruled = {"cunning-folk/elder-face-up-picks": "face-down-only"}
    assert deduce(log_of(doc(*failed), cli_rulings=ruled))["elder"]["good-elder"] == {
        "run_success_probability": 0.0,
        "run_success_fraction": "0",
        "guaranteed": False,
        "first_pick": None,
    }
    # Default reading: B2 counts when picked (at any time, so it ties with A1: the first
    # pick is A1); the other two evil cards are among 8 cells: 2/8 · 1/7 = 1/28.
    counts = deduce(log_of(doc(*failed)))["elder"]["good-elder"]
    assert counts["run_success_fraction"] == "1/28" and counts["first_pick"] == "A1"


def test_pass_with_a_liar_in_play_rules_the_liar_out() -> None:
    passed = {"type": "pass", "player": "bea", "cell": "A1"}
    result = deduce(log_of(doc(passed, setup="bonus", bonus=["liar"])))
    assert "liar" not in result["cells"]["A1"]["counts"]
    assert result["cells"]["A2"]["counts"]["liar"] > 0


def test_hidden_swap_splits_a_certain_card() -> None:
    # A1 is the evil elder; 8!/(2!·1!·2!·3!) = 1680 deals of the rest, times 2 for the swap.
    swap = ({"type": "claim", "player": "bea", "cell": "C1", "role": "evil-witch"},)
    swap += ({"type": "swap", "player": "bea", "cells": ["A1", "B1"]},)
    result = deduce(log_of(doc(*elder_run("evil-elder", ("A1", "evil-elder")), *swap)))
    assert result["worlds"] == 3360
    assert result["cells"]["A1"]["certain"] is None
    assert result["cells"]["A1"]["counts"]["evil-elder"] == 1680
    assert result["cells"]["A1"]["face_up"] is False


def test_my_own_swap_is_known() -> None:
    swap = ({"type": "claim", "player": "me", "cell": "C1", "role": "evil-witch"},)
    swap += ({"type": "swap", "player": "me", "cells": ["A1", "B1"], "swapped": True},)
    failed = elder_run("evil-elder", ("A1", "evil-elder"))
    result = deduce(log_of(doc(*failed, *swap, perspective="me")))
    assert result["worlds"] == 1680
    assert result["cells"]["B1"]["certain"] == "evil-elder"
    assert result["cells"]["B1"]["why"] == [1]


def test_scoundrels_worlds_follow_my_kept_and_discarded_cards() -> None:
    # I kept the pirate and set the liar aside: the two other players add two of
    # cat, vagrant, good witch and three villagers. No cell can hold the liar.
    events = elder_run("good-elder", ("A1", "evil-elder"), ("A3", "pirate"), ("A2", "good-witch"))
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
            ISSUE_EXAMPLE.replace('cell = "B3"', 'cell = "B2"'),
            "event[7]",
            "'reveal cal B2 evil-elder'",
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
        (ISSUE_EXAMPLE + "colour = 1\n", "event[7].colour", "'colour'"),
        (ISSUE_EXAMPLE.replace('player = "me"', 'player = "bea"'), "event[0].saw", "'evil-witch'"),
        (
            ISSUE_EXAMPLE.replace('cells = ["A1", "C3"]', 'cells = ["A1", "C3"]\nswapped = true'),
            "event[5].swapped",
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
            # Any character may be claimed ("You can lie about which character is on the
            # card"), even one not in the game; a name no card bears may not.
            ISSUE_EXAMPLE.replace('role = "good-elder"', 'role = "wizard"'),
            "event[1].role",
            "'wizard'",
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

    events = elder_run("evil-elder", ("B3", "evil-elder"))
    events += elder_run("good-elder", ("A1", "evil-elder"), player="cal")
    with pytest.raises(InconsistentRecord, match=r"event\[3\]"):
        deduce(log_of(doc(*events)))


def test_text_format_shows_the_grid(tmp_path: Path) -> None:
    result = run(tmp_path, ISSUE_EXAMPLE)
    assert result.exit_code == 0
    assert result.output.startswith("360 worlds consistent with 8 events")
    assert "B2 evil-witch" in result.output


def test_a_card_i_set_aside_can_be_claimed_but_not_revealed() -> None:
    from ruleslawyer.errors import InconsistentRecord

    bluff = {"type": "claim", "player": "bea", "cell": "B1", "role": "vagrant"}
    keys = {"setup": "scoundrels", "perspective": "me", "kept": ["cat"], "discarded": ["vagrant"]}
    assert deduce(log_of(doc(bluff, **keys)))["worlds"] > 0
    with pytest.raises(InconsistentRecord, match=r"event\[1\]: found 'reveal B1 vagrant'"):
        deduce(log_of(doc(bluff, reveal("B1", "vagrant"), **keys)))
