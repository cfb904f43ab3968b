"""``check()`` on the built-in data and on broken game files."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.budget import Budget
from ruleslawyer.checks.twisted_cryptids.check import check
from ruleslawyer.cli.main import cli
from ruleslawyer.errors import IllegalMove
from ruleslawyer.findings import Kind
from ruleslawyer.gamefiles.source import builtin_path, load_source
from ruleslawyer.models.twisted_cryptids.play import Pass, legal_moves, step
from ruleslawyer.models.twisted_cryptids.points import RULE_POINTS
from ruleslawyer.solvers.twisted_cryptids.placement import (
    relocation_after_setup,
    relocation_anywhere,
    setup_stall,
)


@pytest.fixture(scope="module")
def findings():
    return {f.id: f for f in check(load_source("twisted-cryptids"), {}, Budget(max_seconds=600))}


def test_one_finding_per_rule_point(findings):
    assert list(findings) == [p.id for p in RULE_POINTS]
    assert all(f.finished for f in findings.values())


def test_relocation_deadlock_reported_for_four_players_with_a_witness(findings):
    f = findings["twisted-cryptids/relocation-deadlock"]
    assert f.kind == Kind.GAP and f.finished
    per = f.extra["per_reading"]["constrained"]
    assert per["2"].startswith("unreachable") and per["3"].startswith("unreachable")
    assert all(per[n].startswith("reachable") for n in ("4", "5", "6"))
    # without the cap at Night, never: only the Encounter Site and two own Sites are barred
    assert all(v.startswith("unreachable") for v in f.extra["per_reading"]["free"].values())
    assert f.extra["holds_under"] == {"twisted-cryptids/night-placement-limits": ["constrained"]}
    assert "night-placement-limits=constrained" in f.message
    w = f.witness
    assert w.position["players"] == 4 and w.position["cap"] == 3
    spots = w.position["hiding_spots"]
    encounter = w.position["encounter"]
    # Check the witness by hand: ann alone at the Encounter; every other Site is ann's or full.
    assert [p for p, s in spots.items() if encounter in s] == ["ann"]
    for site in w.position["humans_at_dusk"]:
        if site == encounter:
            continue
        holders = [p for p, s in spots.items() if site in s]
        assert "ann" in holders or len(holders) >= 3
    assert max(w.position["humans_at_dusk"].values()) == w.position["humans_at_dusk"][encounter]
    # the replayed game: 12 setup placements, then ann's reveal at the Encounter
    assert sum("places Hiding Spot" in m for m in w.moves) == 12
    assert f"ann reveals at {encounter}" in w.moves


def test_dead_rule_and_info_points(findings):
    dead = findings["twisted-cryptids/no-hiding-spot-encounter"]
    assert dead.kind == Kind.DEAD_RULE and dead.finished
    assert findings["twisted-cryptids/small-game-cap"].kind == Kind.INFO
    assert findings["twisted-cryptids/setup-stall"].kind == Kind.INFO


def test_parted_points_have_witnesses(findings):
    for pid in (
        "twisted-cryptids/optional-move-constraints",
        "twisted-cryptids/myth-floor",
        "twisted-cryptids/encounter-site-scope",
        "twisted-cryptids/tie-break-count",
        "twisted-cryptids/dusk-reveal-order",
        "twisted-cryptids/night-placement-limits",
        "twisted-cryptids/night-order",
        "twisted-cryptids/event-chooser",
        "twisted-cryptids/player-count",
        "twisted-cryptids/boxed-spot-move",
    ):
        f = findings[pid]
        assert f.kind in (Kind.AMBIGUITY, Kind.GAP)
        assert f.witness is not None
        assert len(set(map(str, f.witness.results.values()))) == 2  # the readings differ
    floor = findings["twisted-cryptids/myth-floor"].witness.results
    assert floor["floor-at-zero"] == 0 and floor["negative"] < 0


def test_z3_placement_answers_per_player_count():
    # Setup never stalls (2-6 players); the over-approximated deadlock is impossible with
    # 2-3 players (no cap: the Encounter and two own spots block only 3 of 6 Sites).
    for n, cap in ((2, None), (3, None), (4, 3), (5, 4), (6, 4)):
        assert setup_stall(n, cap) is None
        assert (relocation_anywhere(n, cap) is None) == (n <= 3)
    # With 3 players and cap 3 (the cap-3 reading) still unreachable: 3 full Sites need 9
    # spots from the 2 other players, who have 6.
    assert relocation_anywhere(3, 3) is None
    board = relocation_after_setup(4, 3, [4, 4, 4, 4, 4, 4], 0)
    assert board is not None and all(len(s) == 3 for s in board.spots)


def test_budget_exhausted_is_not_a_clean_bill():
    out = {f.id: f for f in check(load_source("twisted-cryptids"), {}, Budget(max_seconds=1e-9))}
    f = out["twisted-cryptids/tie-break-count"]
    assert not f.finished and f.kind == Kind.AMBIGUITY


def broken(tmp_path: Path, old: str, new: str) -> Path:
    text = builtin_path("twisted-cryptids.toml").read_text()
    assert old in text
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(old, new, 1))
    return path


def test_structural_problem_is_a_data_error_with_place_and_line(tmp_path):
    path = broken(
        tmp_path, 'symbols = ["hunters", "researchers"]', 'symbols = ["hunters", "hunters"]'
    )
    source = load_source(str(path))
    errors = [f for f in check(source, {}, Budget(max_seconds=30)) if f.kind == Kind.DATA_ERROR]
    assert len(errors) >= 1
    e = errors[0]
    assert e.location.place == "site[2].symbols"
    assert e.location.line == source.text.splitlines().index('symbols = ["hunters", "hunters"]') + 1


def test_bad_game_file_exits_2_with_one_line(tmp_path):
    path = broken(tmp_path, "count = 14\n", 'count = "many"\n')
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"{path}: action[0].count: found 'many', expected a valid integer" in lines[0]


def test_unknown_key_exits_2(tmp_path):
    path = broken(tmp_path, "start_myth = 5", "start_myth = 5\nstart_mythos = 5")
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 2
    assert "start_mythos: found 'start_mythos', expected no such key here" in result.stderr


def test_model_replays_a_game_to_the_end():
    from ruleslawyer.models.twisted_cryptids.game import builtin_game
    from ruleslawyer.solvers.twisted_cryptids.simulate import random_game

    state = random_game(builtin_game(), 4, 3)
    assert state.phase == "over" and legal_moves(state) == ()
    with pytest.raises(IllegalMove):
        step(state, Pass())


def test_no_clean_bill_when_the_budget_is_gone():
    out = check(load_source("twisted-cryptids"), {}, Budget(max_seconds=1e-9))
    for f in out:
        if not f.finished:
            assert f.kind != Kind.INFO
            assert "not" in f.message.lower()
    by_id = {f.id: f for f in out}
    assert not by_id["twisted-cryptids/relocation-deadlock"].finished
    assert not by_id["twisted-cryptids/setup-stall"].finished


def test_relocation_deadlock_is_info_when_the_night_placement_is_ruled_free():
    limits = "twisted-cryptids/night-placement-limits"
    out = {
        f.id: f
        for f in check(load_source("twisted-cryptids"), {limits: "free"}, Budget(max_seconds=600))
    }
    dead = out["twisted-cryptids/relocation-deadlock"]
    assert dead.kind == Kind.INFO and dead.finished and dead.witness is None
    assert "under constrained it is reachable" in dead.message
    point = out[limits]
    assert point.status == "resolved" and point.kind == Kind.AMBIGUITY
    results = point.witness.results
    assert results["constrained"]["legal Sites"] == [] and results["free"]["legal Sites"]


def test_sinkhole_token_is_listed_and_never_used(findings):
    # The rulebook's only mention: "• 1 Sinkhole token" in the component list (line 20).
    f = findings["twisted-cryptids/sinkhole-token"]
    assert f.kind == Kind.GAP and f.witness is not None
    assert f.witness.position == {"component_list_lines": [20], "rule_lines": []}


def test_player_count_ruling_limits_the_counts_asked():
    ruled = {"twisted-cryptids/player-count": "four-to-six"}
    out = {f.id: f for f in check(load_source("twisted-cryptids"), ruled, Budget(max_seconds=600))}
    per = out["twisted-cryptids/relocation-deadlock"].extra["per_reading"]["constrained"]
    assert sorted(per) == ["4", "5", "6"]
    assert "4-6 players" in out["twisted-cryptids/setup-stall"].message
    # the searches that play 2 or 3 players play 4 instead
    scope = out["twisted-cryptids/encounter-site-scope"].witness
    assert scope is None or scope.position["replay"]["players"] == 4


def test_sighting_move_from_the_encounter_site_to_itself_is_a_data_error(tmp_path):
    path = broken(
        tmp_path,
        'effect = [{ op = "move", human = "hunters", count = 1 }]',
        'effect = [{ op = "move", human = "hunters", count = 1, to = "encounter" }]',
    )
    errors = [
        f
        for f in check(load_source(str(path)), {}, Budget(max_seconds=30))
        if f.kind == Kind.DATA_ERROR
    ]
    assert [e.message for e in errors] == [
        "found a decoy move from the Encounter Site to itself, expected a chosen Site at one end"
    ]


def test_too_few_hidden_traits_is_a_data_error(tmp_path):
    # Found by the slow fuzz run: a game file without Hidden Traits crashed the deal.
    # Setup: "shuffle the Hidden Trait cards ... and deal two to each player".
    import re

    text = builtin_path("twisted-cryptids.toml").read_text("utf-8")
    parts = re.split(r"(?m)^(?=\[\[)", text)
    path = tmp_path / "game.toml"
    path.write_text("".join(p for p in parts if not p.startswith("[[trait]]")), "utf-8")
    errors = [
        f.message
        for f in check(load_source(str(path)), {}, Budget(max_seconds=30))
        if f.kind == Kind.DATA_ERROR
    ]
    assert errors == [
        "found 0 Hidden Trait cards, expected at least 12 (two for each of up to 6 players)"
    ]
