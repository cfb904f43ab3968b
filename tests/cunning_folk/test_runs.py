"""Runs in progress and the readings that let a run stop or end with nothing to pick:
advised at their next decision, a failed run always valued (issue 34)."""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.cunning_folk.record import dump_log
from ruleslawyer.solvers.cunning_folk.advise import advise, claim_outcomes, pending_claim
from ruleslawyer.solvers.cunning_folk.reference import reference_claim
from tests.cunning_folk.helpers import log_of, marks_table

ROOT = Path(__file__).resolve().parents[2]
CF = ROOT / "examples" / "cunning-folk"
F = Fraction
TABLE = marks_table(F(-1, 2), F(1, 2))  # a suspected card -1/2 to its holder, +1/2 to the other


def test_my_run_in_progress_is_advised_at_its_next_pick_or_stop() -> None:
    # examples/cunning-folk/my-run.toml, under elder-run-stop=may-stop: I hold a suspected
    # card; my good-elder run has picked A1 (an evil witch). Two evil cards are left among
    # A2, A3, B1, B3, C1, C2 (B2 I saw: a villager; C3 is face up: a villager). Stopping
    # ends the run unpunished: my card stays, -1/2. Picking one of the six: 1/3 it opposes,
    # and then stopping (-1/2) beats going on (1/5 a win, 4/5 ostracised: -3/5); 2/3 it
    # does not and I am ostracised (-1): 1/3 x (-1/2) + 2/3 x (-1) = -5/6. B2 or C3, known
    # villagers: -1. Stop.
    log = log_of(tomllib.loads((CF / "my-run.toml").read_text()))
    run = advise(log, None, goes_on=TABLE)["run"]
    assert run["yours"] and run["picked"] == ["A1"] and run["best"] == "stop"
    assert run["value"] == "-1/2"
    values = {o["option"]: o["value"] for o in run["options"]}
    assert values["stop"] == "-1/2"
    assert all(values[f"pick {c}"] == "-5/6" for c in ("A2", "A3", "B1", "B3", "C1", "C2"))
    assert values["pick B2"] == values["pick C3"] == "-1"
    # must-continue (no stop, and none after the second evil card either): 1/3 x (1/5 x 1
    # + 4/5 x (-1)) + 2/3 x (-1) = -13/15
    ruled = log_of(
        tomllib.loads((CF / "my-run.toml").read_text()),
        cli_rulings={"cunning-folk/elder-run-stop": "must-continue"},
    )
    run = advise(ruled, None, goes_on=TABLE)["run"]
    assert run["best"] == "pick A2" and run["value"] == "-13/15"


def test_another_players_run_in_progress_is_planned_over_her_worlds(tmp_path: Path) -> None:
    document = {
        "setup": "standard",
        "players": ["me", "bea", "cal"],
        "perspective": "me",
        "event": [
            {"type": "pass", "player": "me", "cell": "B2", "saw": "evil-witch"},
            {"type": "claim", "player": "bea", "cell": "C3", "role": "good-elder"},
            {"type": "reveal", "player": "bea", "cell": "B2", "revealed": "evil-witch"},
        ],
    }
    run = advise(log_of(document), None, goes_on=TABLE)["run"]
    assert not run["yours"] and run["runner"] == "bea" and run["picked"] == ["B2"]
    assert sum(F(v) for v in run["ends"].values()) == 1
    path = tmp_path / "log.toml"
    path.write_text(dump_log(document))
    text = CliRunner().invoke(cli, ["cunning-folk", "advise", str(path)]).output
    assert "run in progress: bea's good-elder run (picked B2), planned over bea's worlds" in text


def test_a_failed_run_under_face_down_only_and_may_stop_is_valued() -> None:
    # Issue 34: under elder-face-up-picks=face-down-only and elder-run-stop=may-stop a
    # failed run was "not valued, counted 0". Now: two players, nothing seen, bea says A1
    # is the good elder. Her stakes (this table): a win +1, a failed pick -1/2 (her first
    # suspected card), stopping after an opposing card 0. Where A1 holds an evil card (1
    # time in 3) she picks it and stops (going on: two evil cards among eight cells, worth
    # less than 0); otherwise she picks (every cell alike to her) and 3 times in 8 finds an
    # evil card and stops, 5 times in 8 fails. Over my worlds: stopped 1/3 + 2/3 x 3/8 =
    # 7/12, failed 2/3 x 5/8 = 5/12; accepting is worth 5/12 x 1/2 = 5/24 to me.
    document = {
        "setup": "standard",
        "players": ["me", "bea"],
        "perspective": "me",
        "rulings": {
            "cunning-folk/elder-face-up-picks": "face-down-only",
            "cunning-folk/elder-run-stop": "may-stop",
        },
        "event": [{"type": "claim", "player": "bea", "cell": "A1", "role": "good-elder"}],
    }
    log = log_of(document)
    found = claim_outcomes(log, pending_claim(document, log), goes_on=TABLE)
    assert found["claimant_run"] == {"failed": "5/12", "stopped": "7/12"}
    assert found["accept"]["game"]["expected_value"] == "5/24"
    whats = [b["what"] for b in found["accept"]["game"]["branches"]]
    assert not any("not valued" in w for w in whats)


def test_a_failed_run_is_valued_alike_by_the_reference() -> None:
    # The plain reference (its own run search on the state machine, the shipped table)
    # reads a log where bea's earlier good-elder run showed A1 and A2 (evil) and failed on
    # B2 (a villager: her suspected card), and she now claims B1 is the good elder; under
    # may-stop her run may stop after an opposing card.
    def reveal(cell: str, role: str) -> dict:
        return {"type": "reveal", "player": "bea", "cell": cell, "revealed": role}

    document = {
        "setup": "standard",
        "players": ["me", "bea"],
        "perspective": "me",
        "rulings": {"cunning-folk/elder-run-stop": "may-stop"},
        "event": [
            {"type": "claim", "player": "bea", "cell": "C3", "role": "good-elder"},
            reveal("A1", "evil-witch"),
            reveal("A2", "evil-elder"),
            reveal("B2", "villager"),
            {"type": "pass", "player": "me", "cell": "C1", "saw": "evil-witch"},
            {"type": "claim", "player": "bea", "cell": "B1", "role": "good-elder"},
        ],
    }
    log = log_of(document)
    claim = pending_claim(document, log)
    found = claim_outcomes(log, claim)
    expected = reference_claim(log, claim.cell, claim.role, claim.player)
    for answer in ("challenge", "accept"):
        assert F(found[answer]["game"]["expected_value"]) == expected[answer]["utility"]


def test_the_cli_json_of_a_run_in_progress() -> None:
    done = CliRunner().invoke(
        cli, ["cunning-folk", "advise", str(CF / "my-run.toml"), "--format", "json"]
    )
    assert done.exit_code == 0, done.output
    out = json.loads(done.output)
    assert out["claim"] is None and out["run"]["yours"] is True
