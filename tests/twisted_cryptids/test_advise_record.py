"""Twisted Cryptids ``advise RECORD``: the ``[position]`` table, a hand-worked known answer,
differential tests on generated records against the plain reference and against the seeded
game they came from, and one-line errors for bad records."""

from __future__ import annotations

import json
import random
import tomllib
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.twisted_cryptids.game import builtin_game, target_count
from ruleslawyer.models.twisted_cryptids.play import State, legal_moves, step
from ruleslawyer.solvers.twisted_cryptids.advise import advise, world_count
from ruleslawyer.solvers.twisted_cryptids.position import (
    brute_force,
    excluded_traits,
    position_state,
)
from ruleslawyer.solvers.twisted_cryptids.record import (
    POSITION_PHASES,
    KnownEntry,
    Record,
    load_record,
    parse_record,
    record_from_state,
    record_to_toml,
)
from ruleslawyer.solvers.twisted_cryptids.reference import Reference
from ruleslawyer.solvers.twisted_cryptids.simulate import deal, position
from tests.twisted_cryptids.small import assert_matches, small_game

GAME = builtin_game()
SMALL = small_game()
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "twisted-cryptids" / "advise-day.toml"


def test_example_known_answer() -> None:
    # advise-day.toml, worked by hand from the rulebook and the built-in (placeholder) data.
    # Ann's last Day turn of round 3 is the last turn of the Day; then Dusk: "the Encounter
    # Site is the Site with the most Humans" among those with a Hiding Spot, and every player
    # with a Hiding Spot there reveals the top Sighting of that Stack, scoring the Humans there
    # (hikers, hunters, researchers). Ann holds one grant-money (attract 2 researchers).
    # - Pass: lake (2,0,1) = 3 Humans beats campground 2 and the others 1 or 0, so bob reveals
    #   the top of his Stack 1. He has real-deal 2, hoax 2, decoy 1, look-alike 2 unrevealed
    #   (9 cards less a hoax and a decoy), so the top is each kind with chance count/7 (a fair
    #   shuffle): real-deal 2*1 = +2, hoax 2-1 = +1, decoy 0-2 = -2, look-alike 2-0 = +2;
    #   bob's expected change (2*2 + 2*1 - 2 + 2*2)/7 = 8/7, ann's 0.
    # - grant-money on campground: (0,1,3) = 4 Humans is the Encounter; ann reveals her
    #   known real-deal: 2*3 - 2*1 = +4; bob 0.
    # - on lake: (2,0,3), bob: real-deal +6, hoax -1, decoy -2, look-alike +2: 12/7.
    # - on ridge: 2 Humans, lake still wins: as Pass.
    # - on trailhead (1,0,2), observatory (0,1,2) or swamp (0,0,3): a 3-3 tie with lake; bob,
    #   the First Player, chooses the Site, for himself (his Myth, then the least for ann).
    #   trailhead: ann's decoy there scores 0 - 1 = -1, bob has no Hiding Spot: he takes lake
    #   unless his top there is his decoy (-2 < 0): ann -1/7, bob (2*2 + 2*1 + 2*2)/7 = 10/7.
    #   observatory and swamp: bob has a Hiding Spot at both and ann at neither (ann 0); he
    #   takes the better of his two tops (two cards of his 7, every pair alike):
    #   observatory: real-deal +2, hoax -2, decoy +1, look-alike -1; E[max] = 62/42 = 31/21;
    #   swamp (0,0,3): real-deal +6, hoax -3, decoy 0, look-alike 0; E[max] = 112/42 = 8/3.
    record, game = load_record(EXAMPLE)
    state, hidden = position_state(record, game, "example")
    result = advise(state, hidden=hidden, exact_limit=1000)
    assert result["mode"] == "exact" and result["worlds"] == 630 and result["finished"]
    got = {
        r["move"]: (r["score_change"]["mean"], r["leader_score_change"]["mean"])
        for r in result["choices"]
    }
    pass_ = (0.0, round(8 / 7, 4))
    assert got == {
        "ann plays grant-money on campground": (4.0, 0.0),
        "ann: pass": pass_,
        "ann plays grant-money on ridge": pass_,
        "ann plays grant-money on trailhead": (round(-1 / 7, 4), round(10 / 7, 4)),
        "ann plays grant-money on observatory": (0.0, round(31 / 21, 4)),
        "ann plays grant-money on swamp": (0.0, round(8 / 3, 4)),
        "ann plays grant-money on lake": (0.0, round(12 / 7, 4)),
    }
    assert result["choices"][0]["move"] == "ann plays grant-money on campground"
    assert result["choices"][-1]["move"] == "ann plays grant-money on trailhead"
    worst = {r["move"]: r["worst_case"]["score_change"] for r in result["choices"]}
    # the worst case: bob takes the tied Site worst for ann (trailhead: her decoy, -1)
    assert worst["ann plays grant-money on trailhead"] == -1.0
    assert worst["ann plays grant-money on campground"] == 4.0


def _generated(
    per_phase: int, *, max_cost: int, min_cost: int = 0
) -> list[tuple[int, int, Record]]:
    """Records with a [position] from seeded 2-player games of the small game (as
    ``simulate --moves`` plays them), the player to act's view, with a random peek or two at
    the other player's unrevealed slots (a card allowed it); up to ``per_phase`` of each
    phase."""
    out: list[tuple[int, int, Record]] = []
    taken: Counter[str] = Counter()
    for seed in range(40):
        rng, peek = random.Random(seed), random.Random(-seed)
        state = deal(SMALL, 2, seed)
        for moves in range(200):
            if state.phase == "over":
                break
            legal = legal_moves(state)
            record = _candidate(state, legal, peek, min_cost, max_cost) if moves >= 20 else None
            if record is not None and taken[state.phase] < per_phase:
                taken[state.phase] += 1
                out.append((seed, moves, record))
            state = step(state, rng.choice(legal))
    return out


def _candidate(
    state: State, legal: tuple, peek: random.Random, min_cost: int, max_cost: int
) -> Record | None:
    if state.phase not in POSITION_PHASES:
        return None
    me = state.actor()
    assert me is not None
    other = 1 - me
    slots = [
        (j, 3 - len(stack) + d, s)
        for j, stack in enumerate(state.stacks[other])
        for d, s in enumerate(stack)
    ]
    # the reference's work: every world (both players' arrangements; in the last round every
    # deal of Hidden Traits, and the Night of both), for every legal move
    last = 20 if state.round == SMALL.rounds else 1
    lines = len(legal)
    if state.phase == "dawn":  # the Event's effects still to resolve, each a choice of Sites
        effects = SMALL.events[state.event_deck[0]].effect[state.dawn_step :]
        lines = target_count(effects, len(SMALL.sites))
    cost = len(Reference(state).worlds) * lines * last
    if not slots or not min_cost <= cost <= max_cost:
        return None
    record = record_from_state(state, me, with_position=True)
    sightings = SMALL.cryptids[state.cryptids[other]].sightings
    peeks = peek.sample(slots, peek.randrange(0, min(3, len(slots)) + 1))
    known = tuple(
        KnownEntry(state.players[other], j + 1, d + 1, sightings[s].kind) for j, d, s in peeks
    )
    return replace(record, known=record.known + known)


GENERATED = _generated(3, max_cost=1_500)


def test_generated_records_cover_the_phases() -> None:
    phases = {r.position.phase for _, _, r in GENERATED if r.position is not None}
    assert len(GENERATED) >= 9 and {"day", "dawn", "reveal"} <= phases
    assert any(len(r.known) > 9 for _, _, r in GENERATED)  # some with peeks


@pytest.mark.parametrize(("seed", "moves", "record"), GENERATED, ids=lambda x: str(x)[:12])
def test_record_advice_matches_brute_force(seed: int, moves: int, record: Record) -> None:
    _check_against_reference(record)


@pytest.mark.slow
def test_larger_records_match_brute_force() -> None:
    for _, _, record in _generated(1, min_cost=3_001, max_cost=60_000):
        _check_against_reference(record)


def _check_against_reference(record: Record) -> None:
    text = record_to_toml(record)
    again = parse_record(tomllib.loads(text), "generated")
    assert again == record
    state, hidden = position_state(again, SMALL, "generated")
    # the averaging over a record's worlds, the actor's later Day turns passing (the
    # reference plays each world's every Day line on its own: with full hands that is
    # minutes; test_advise_model.py checks the chosen later turns against it)
    fast = advise(state, hidden=hidden, exact_limit=100_000, later_turns=0)
    assert fast["mode"] == "exact" and fast["finished"]
    assert_matches(fast, brute_force(again, SMALL, later_turns=0))


@pytest.mark.parametrize(("seed", "moves"), [(1, 58), (3, 67), (4, 61), (7, 58)])
def test_record_matches_the_game_it_came_from(seed: int, moves: int) -> None:
    # The record of the player to act, without peeks, is what they know: advice from it
    # equals advice on the full game state (the other hands and the decks are not needed).
    state = position(GAME, 2, seed, moves)
    record = record_from_state(state, state.actor() or 0, with_position=True)
    rebuilt, hidden = position_state(record, GAME, "record")
    assert world_count(rebuilt, rebuilt.actor() or 0, hidden) == world_count(
        state, state.actor() or 0
    )
    a = advise(state, exact_limit=100_000, later_turns=0)
    out = excluded_traits(record, GAME)  # the Hidden Trait the actor returned to the box
    b = advise(rebuilt, hidden=hidden, exact_limit=100_000, later_turns=0, excluded=out)
    assert a["choices"] == b["choices"] and a["actor"] == b["actor"]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rec.toml"
    path.write_text(text, "utf-8")
    return path


BAD = [
    ("campground = [0, 1, 1]", "campground = [0, 1]", "position.sites.campground: found [0, 1]"),
    ("campground = [0, 1, 1]", "camp = [0, 1, 1]", "position.sites.camp: found 'camp'"),
    ('phase = "day"', 'phase = "choose"', "expected Sites tied for the Encounter"),
    ('first_player = "bob"', 'first_player = "cat"', "position.first_player: found 'cat'"),
    (
        'phase = "day"',
        'phase = "reveal"\nencounter = "lake"',
        "position.phase: found 'reveal with bob to act",
    ),
    ('"ridge", "trailhead"]', '"ridge", "boxed"]', "position.spots.ann[2]: found 'boxed'"),
    ('hand = ["grant-money"]', 'hand = ["joker"]', "position.hand[0]: found 'joker'"),
    ('phase = "day"', 'phase = "night"', "position.phase"),
    ('phase = "day"', 'phase = "dawn"', "position.event: found nothing"),
    ('sighting = "real-deal"\n', 'sighting = "hoax"\n', "known"),
]


@pytest.mark.parametrize(("old", "new", "message"), BAD)
def test_bad_records_one_line_exit_2(tmp_path: Path, old: str, new: str, message: str) -> None:
    text = EXAMPLE.read_text("utf-8")
    assert old in text
    path = _write(tmp_path, text.replace(old, new, 1))
    out = CliRunner().invoke(cli, ["twisted-cryptids", "advise", str(path)])
    assert out.exit_code == 2, out.output
    assert "Traceback" not in out.output and len(out.output.strip().splitlines()) == 1
    assert str(path) in out.output and message in out.output


def test_record_without_position_is_refused(tmp_path: Path) -> None:
    text = EXAMPLE.read_text("utf-8").split("\n[position]\n")[0]
    path = _write(tmp_path, text)
    out = CliRunner().invoke(cli, ["twisted-cryptids", "advise", str(path)])
    assert out.exit_code == 2 and "position: found 'no [position] table'" in out.output


def test_cli_json_states_assumptions_and_simulate_writes_positions(tmp_path: Path) -> None:
    runner = CliRunner()
    rec = tmp_path / "pos.toml"
    made = runner.invoke(
        cli,
        [
            "twisted-cryptids",
            "simulate",
            "--players",
            "2",
            "--seed",
            "7",
            "--moves",
            "58",
            "-o",
            str(rec),
        ],
    )
    assert made.exit_code == 0, made.output
    out = runner.invoke(cli, ["twisted-cryptids", "advise", str(rec), "--format", "json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["mode"] == "exact" and doc["worlds"] == 10 and doc["finished"] is True
    assert doc["prior"] and doc["horizon"] and doc["policy"] and doc["not_averaged"]
    night = runner.invoke(
        cli, ["twisted-cryptids", "simulate", "--players", "2", "--seed", "1", "--moves", "20"]
    )
    assert night.exit_code == 2 and "expected a position in" in night.output


def test_budget_cut_says_finished_false_and_exits_3() -> None:
    args = ["twisted-cryptids", "advise", str(EXAMPLE), "--max-seconds", "1e-9"]
    out = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert out.exit_code == 3
    doc = json.loads(out.output)
    assert doc["finished"] is False and doc["moves_ranked"] < doc["moves_legal"]


def _first_reveal_with_a_quieter_site() -> tuple[Record, str]:
    """A seeded 2-player game's first reveal of a round, and another Site with a Hiding Spot
    and fewer Humans than the Encounter's, where the rules cannot hold the Encounter."""
    for seed in range(40):
        rng, state = random.Random(seed), deal(GAME, 2, seed)
        while state.phase != "over":
            fresh = not any(r == state.round for own in state.revealed for _, _, r in own)
            if state.phase == "reveal" and fresh:
                here = sum(state.sites[state.encounter])
                quieter = [
                    s for own in state.spots for s in own if s >= 0 and sum(state.sites[s]) < here
                ]
                if quieter:
                    record = record_from_state(state, state.actor() or 0, with_position=True)
                    return record, GAME.sites[quieter[0]].name
            state = step(state, rng.choice(legal_moves(state)))
    raise AssertionError("no such position in 40 seeded games")


def test_an_encounter_where_the_rules_do_not_hold_it_is_refused(tmp_path: Path) -> None:
    # found by the fuzz: an Encounter on a Site with no Humans was advised on
    record, quieter = _first_reveal_with_a_quieter_site()
    assert position_state(record, GAME, "record")  # as played: accepted
    assert record.position is not None
    moved = replace(record, position=replace(record.position, encounter=quieter))
    path = _write(tmp_path, record_to_toml(moved))
    out = CliRunner().invoke(cli, ["twisted-cryptids", "advise", str(path)])
    assert out.exit_code == 2 and out.stderr.count("\n") == 1, out.output
    assert out.stderr.startswith(f"error: {path}: position.encounter: found '{quieter} (")
    assert "the most Humans among the Sites with a Hiding Spot" in out.stderr
