"""`ruleslawyer check cunning-folk`: every rule point with a witness that replays, data errors."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.budget import Budget
from ruleslawyer.checks.cunning_folk import PLANS, summary
from ruleslawyer.cli.main import cli
from ruleslawyer.designer.checking import check_source
from ruleslawyer.findings import Kind
from ruleslawyer.gamefiles.source import builtin_path, load_source
from ruleslawyer.models.cunning_folk.data import load_game_data
from ruleslawyer.models.cunning_folk.play import Rules, Table, legal_moves, start, step
from ruleslawyer.models.cunning_folk.village import NOT_MODELLED, RULE_POINTS, Setup
from ruleslawyer.rulebook import books as rulebooks

ISSUE_POINTS = {
    "cunning-folk/multiple-challengers": ("each-challenger", "first-challenger"),
    "cunning-folk/villager-challenge": ("penalty-applies", "no-penalty"),
    "cunning-folk/elder-face-up-picks": ("counts", "face-down-only"),
    "cunning-folk/pirate-unknown": (),
    "cunning-folk/scoundrels-village-size": (),
    "cunning-folk/endless-passing": (),
    "cunning-folk/elder-run-stop": ("must-continue", "may-stop"),
    "cunning-folk/declare-without-picks": ("allowed", "after-a-pick"),
    "cunning-folk/challenge-order": ("from-left", "first-to-speak"),
}
EXPECTED_KIND = {
    "cunning-folk/multiple-challengers": Kind.AMBIGUITY,
    "cunning-folk/villager-challenge": Kind.AMBIGUITY,
    "cunning-folk/elder-face-up-picks": Kind.AMBIGUITY,
    "cunning-folk/pirate-unknown": Kind.INFO,
    "cunning-folk/scoundrels-village-size": Kind.GAP,
    "cunning-folk/endless-passing": Kind.NON_TERMINATION,
    "cunning-folk/endless-extra-turns": Kind.NON_TERMINATION,
    "cunning-folk/liar-face-up": Kind.AMBIGUITY,
    "cunning-folk/swap-face-up": Kind.AMBIGUITY,
    "cunning-folk/optional-action": Kind.AMBIGUITY,
    "cunning-folk/cat-meow": Kind.DEAD_RULE,
    "cunning-folk/elder-run-stop": Kind.AMBIGUITY,
    "cunning-folk/declare-without-picks": Kind.AMBIGUITY,
    "cunning-folk/challenge-order": Kind.AMBIGUITY,
    "cunning-folk/later-games": Kind.INFO,
}


@pytest.fixture(scope="module")
def result():
    return check_source(load_source("cunning-folk"), {}, Budget(max_seconds=60))


def test_issue_points_and_readings_are_the_interface() -> None:
    by_id = {p.id: p for p in RULE_POINTS}
    for point_id, readings in ISSUE_POINTS.items():
        assert by_id[point_id].reading_names == readings
        if readings:
            assert by_id[point_id].default == readings[0]


def test_every_quote_is_in_the_rulebook() -> None:
    for point in RULE_POINTS:
        for sentence in point.sentences:
            assert rulebooks.find(sentence) is not None, sentence.text


def test_each_point_is_reported_with_a_witness(result) -> None:
    assert result.provenance == "printed"
    kinds = {f.id: f.kind for f in result.findings}
    assert kinds == EXPECTED_KIND
    for finding in result.findings:
        if finding.id in NOT_MODELLED:
            # out of the model's reach: an info finding that says so, with its sentence
            assert finding.kind == Kind.INFO and finding.witness is None
            assert finding.message.startswith("Not modelled") and finding.sentences
            continue
        assert finding.finished and finding.witness is not None, finding.id
        assert len(finding.witness.results) >= 2 or finding.kind == Kind.NON_TERMINATION


@pytest.mark.parametrize("point_id", sorted(PLANS))
def test_witness_replays_on_the_state_machine(result, point_id: str) -> None:
    # Replaying the witness's moves under each reading gives the reported results,
    # and the readings' results differ.
    finding = next(f for f in result.findings if f.id == point_id)
    witness = finding.witness.to_json()
    plan = PLANS[point_id]
    deal = tuple(witness["position"]["deal"].values())
    setup = Setup(witness["position"]["setup"], (tuple(sorted(deal)),))
    moves = [m.split(" ", 1)[1] for m in witness["moves"]]
    outcomes = {}
    for reading in finding.readings:
        table = Table(setup, plan.players, replace(Rules(), **{plan.field: reading.name}))
        state, allowed = start(table, deal), ()
        for move in moves:
            allowed = legal_moves(table, state)
            if move not in allowed:
                state = None
                break
            state = step(table, state, move)
        outcomes[reading.name] = json.loads(json.dumps(summary(state, allowed)))
    assert outcomes == witness["results"]
    assert len({json.dumps(v, sort_keys=True) for v in outcomes.values()}) == len(outcomes)


def test_a_ruling_resolves_its_point() -> None:
    source = load_source("cunning-folk")
    rulings = {"cunning-folk/villager-challenge": "no-penalty"}
    result = check_source(source, rulings, Budget(max_seconds=60))
    finding = next(f for f in result.findings if f.id == "cunning-folk/villager-challenge")
    assert finding.status == "resolved" and finding.ruling == "no-penalty"


def write_game(tmp_path: Path, old: str, new: str) -> Path:
    text = builtin_path("cunning-folk.toml").read_text()
    assert old in text
    path = tmp_path / "game.toml"
    path.write_text(text.replace(old, new))
    return path


def test_short_village_is_a_data_error_with_its_line(tmp_path: Path) -> None:
    path = write_game(tmp_path, "villager = 3", "villager = 2")
    result = check_source(load_source(str(path)), {}, Budget(max_seconds=30))
    errors = [f for f in result.findings if f.kind == Kind.DATA_ERROR]
    assert [f.id for f in errors] == ["cunning-folk/data/village-size"]
    location = errors[0].location
    assert location.place == "composition.standard"
    assert path.read_text().splitlines()[location.line - 1] == "[composition.standard]"
    assert all(
        not f.finished
        for f in result.findings
        if f.kind != Kind.DATA_ERROR and f.id != "cunning-folk/scoundrels-village-size"
    )


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ("villager = 3", 'villager = "three"', "composition.standard.villager: found 'three'"),
        (
            "evil-elder = 1\nvillager",
            "wizard = 1\nvillager",
            "composition.standard.wizard: found 'wizard'",
        ),
        ("replaces = ", "swaps = ", "bonus.replaces: found nothing, expected a value"),
    ],
)
def test_malformed_game_file_is_one_line_exit_2(
    tmp_path: Path, old: str, new: str, line: str
) -> None:
    path = write_game(tmp_path, old, new)
    run = CliRunner().invoke(cli, ["check", str(path)])
    assert run.exit_code == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and line in lines[0]


def test_scoundrels_size_follows_the_file(tmp_path: Path) -> None:
    # With a 7-card core, 2 players fill the 3x3 village and 3 or 4 overfill it.
    path = write_game(tmp_path, "core = { good-witch = 2,", "core = { good-witch = 3,")
    data = load_game_data(load_source(str(path)))
    assert sum(data.scoundrel_core.values()) == 7
    result = check_source(load_source(str(path)), {}, Budget(max_seconds=30))
    finding = next(f for f in result.findings if f.id == "cunning-folk/scoundrels-village-size")
    assert finding.witness.results["2 players"] == "9 cards for 9 cells"
    assert "3 or 4 players" in finding.message


def test_an_exhausted_budget_never_claims_a_clean_bill() -> None:
    result = check_source(load_source("cunning-folk"), {}, Budget(max_states=1))
    searched = [f for f in result.findings if f.id in PLANS]
    assert searched and all(not f.finished and f.kind != Kind.INFO for f in searched)


def _replay(table: Table, deal: tuple[str, ...], moves: list[str]):
    """The state after ``moves`` from the opening position of ``deal``, and the moves allowed
    before the last one (state None: the last move is not allowed under ``table``)."""
    state, allowed = start(table, deal), ()
    for move in moves:
        allowed = legal_moves(table, state)
        if move not in allowed:
            return None, allowed
        state = step(table, state, move)
    return state, allowed


def test_every_committed_witness_replays_from_the_start(result) -> None:
    # Every witness starts at the opening position of a deal of the game file's cards (a
    # position reachable from the start: it is the start), and its moves, replayed under
    # each reading (or, for pirate-unknown, from each deal), give the recorded results.
    data = load_game_data(load_source("cunning-folk"))
    replayed = set()
    for finding in result.findings:
        witness = finding.witness.to_json() if finding.witness else {}
        if not witness.get("moves"):
            continue
        position = witness["position"]
        moves = [m.split(" ", 1)[1] for m in witness["moves"]]
        if finding.id == "cunning-folk/pirate-unknown":
            deals = {k: tuple(v.values()) for k, v in position.items() if isinstance(v, dict)}
            setup = Setup("scoundrels", tuple(tuple(sorted(d)) for d in deals.values()))
            table = Table(setup, position["players"])
            for name, deal in deals.items():
                state, _ = _replay(table, deal, moves)
                while state.phase != "over":
                    state = step(table, state, "no-reveal")
                got = json.loads(json.dumps(summary(state)))
                recorded = dict(witness["results"][name])
                recorded.pop("then")
                assert got == recorded, name
            replayed.add(finding.id)
            continue
        deal = tuple(position["deal"].values())
        assert sorted(deal) == sorted(
            data.standard.cards if position["setup"] == "standard" else deal
        )
        setup = Setup(position["setup"], (tuple(sorted(deal)),))
        table = Table(setup, position["players"])
        if finding.id in PLANS:
            plan = PLANS[finding.id]
            for reading in finding.readings:
                rules = replace(Rules(), **{plan.field: reading.name})
                state, allowed = _replay(Table(setup, plan.players, rules), deal, moves)
                got = json.loads(json.dumps(summary(state, allowed)))
                assert got == witness["results"][reading.name], (finding.id, reading.name)
        else:  # loops come back to the opening position; the cat's claim changes nothing
            state, _ = _replay(table, deal, moves)
            assert state is not None
            if finding.kind == Kind.NON_TERMINATION:
                assert state == start(table, deal)
            else:
                assert json.loads(json.dumps(summary(state))) in witness["results"].values()
        replayed.add(finding.id)
    assert replayed == {f.id for f in result.findings if f.witness and f.witness.moves}
    assert len(replayed) >= 12


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # found by the slow fuzz run: a 10-card core left no cell for kept cards (a crash)
        ("core = { good-witch = 2,", "core = { good-witch = 6,"),
        # a 5-card core and a 3-card pool cannot fill 9 cells
        (
            "core = { good-witch = 2, good-elder = 1, evil-witch = 2, evil-elder = 1 }\n"
            "pool = { liar = 1, cat = 1, pirate = 1, vagrant = 1, good-witch = 1, villager = 3 }\n"
            "dealt_per_player = 2",
            "core = { good-witch = 1, good-elder = 1, evil-witch = 2, evil-elder = 1 }\n"
            "pool = { liar = 1, cat = 1, pirate = 1 }\ndealt_per_player = 1",
        ),
    ],
)
def test_scoundrels_that_cannot_fill_the_grid_are_a_data_error(
    tmp_path: Path, old: str, new: str
) -> None:
    path = write_game(tmp_path, old, new)
    result = check_source(load_source(str(path)), {}, Budget(max_seconds=30))
    errors = [f.id for f in result.findings if f.kind == Kind.DATA_ERROR]
    assert errors == ["cunning-folk/data/scoundrels-village"]
