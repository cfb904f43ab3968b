"""The ``stacks`` analysis: exact counts against brute force and Z3 enumeration on records
of simulated games, known answers, the record file round trip, and bad input."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.cli.main import cli
from ruleslawyer.errors import InconsistentRecord
from ruleslawyer.gamefiles.source import read_toml
from ruleslawyer.models.twisted_cryptids.game import builtin_game
from ruleslawyer.solvers.twisted_cryptids.record import (
    KnownEntry,
    PlayerEntry,
    Record,
    RevealEntry,
    parse_record,
    record_to_toml,
)
from ruleslawyer.solvers.twisted_cryptids.simulate import simulated_record
from ruleslawyer.solvers.twisted_cryptids.stacks import (
    analyse,
    arrangements,
    brute_force,
    possible_winners,
    slot_counts,
    views,
    z3_enumerate_counts,
    z3_player,
)

GAME = builtin_game()


@pytest.mark.parametrize(
    ("players", "seed", "rounds"),
    [(2, 1, None), (3, 2, None), (4, 3, 2), (2, 4, 1), (3, 5, 3), (4, 6, None), (5, 7, 4)],
)
def test_counts_match_brute_force_on_simulated_records(players, seed, rounds):
    record = simulated_record(players, seed, rounds=rounds)
    for view in views(record, GAME):
        total, counts, deals = brute_force(view)
        assert arrangements(view) == total > 0
        assert slot_counts(view) == counts
        solved = z3_player(view)
        assert solved["consistent"]
        assert (solved["real_deals_hidden"]["min"], solved["real_deals_hidden"]["max"]) == deals


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12)])
def test_counts_match_z3_model_enumeration(players, seed):
    record = simulated_record(players, seed)
    for view in views(record, GAME):
        total, per_slot = z3_enumerate_counts(view)
        assert total == arrangements(view)
        for slot, row in zip(range(9), slot_counts(view), strict=True):
            if isinstance(row, dict):
                assert {k: v for k, v in row.items() if v} == dict(per_slot[slot])


def small_record(**changes) -> Record:
    base = Record(
        perspective="ann",
        rounds_played=5,
        players=(
            PlayerEntry("ann", "bigfoot", 10, "prankster", 8),
            PlayerEntry("bob", "mothman", 12),
        ),
        reveals=(
            RevealEntry("bob", 1, "hoax", 1),
            RevealEntry("bob", 1, "hoax", 2),
            RevealEntry("ann", 2, "real-deal", 3),
        ),
        known=(KnownEntry("ann", 1, 1, "real-deal"),),
    )
    return Record(**{**base.__dict__, **changes})


def test_known_answer_counts():
    result = analyse(small_record(), GAME)
    ann, bob = result["players"]["ann"], result["players"]["bob"]
    # ann: 9 cards (2 real-deal, 3 hoax, 2 decoy, 2 look-alike); one real-deal revealed
    # (stack 2 top), the other known at stack 1 top; the 7 free slots take 3 hoax, 2 decoy,
    # 2 look-alike: 7!/(3!2!2!) = 210 arrangements.
    assert ann["arrangements"] == 210
    assert ann["stacks"][1][0] == {"revealed": "real-deal"}
    assert ann["stacks"][0][0]["counts"] == {
        "decoy": 0,
        "hoax": 0,
        "look-alike": 0,
        "real-deal": 210,
    }
    # a free slot is a hoax in 6!/(2!2!2!) = 90 of them, a decoy in 6!/(3!1!2!) = 60.
    assert ann["stacks"][0][1]["counts"] == {
        "decoy": 60,
        "hoax": 90,
        "look-alike": 60,
        "real-deal": 0,
    }
    # ann: 1 real-deal hidden at the end; prankster (0 hoaxes revealed -> 0): 10 + 7 = 17.
    assert ann["real_deals_hidden"] == {"min": 1, "max": 1}
    assert ann["final_myth"] == {"min": 17, "max": 17}
    # bob: 7 cards left (2 real-deal, 1 hoax, 2 decoy, 2 look-alike): 7!/(2!1!2!2!) = 630.
    assert bob["arrangements"] == 630
    # bob: 12 + 14 + an unknown trait among the 13 ann does not hold: at least 0 (show-off,
    # no real-deal revealed), at most 7 (crowd-pleaser: Humans at the end are not in the
    # record); show-off's 8 would need 2 revealed real-deals and bob revealed none.
    assert bob["final_myth"] == {"min": 26, "max": 33}
    assert result["possible_winners"] == ["bob"] and result["winner_decided"] is True


def test_mid_game_bounds_count_future_reveals():
    # After round 3 with nothing revealed, 2 more rounds may reveal 2 Stack tops: ann's known
    # real-deal at stack 1 top can still come out.
    record = small_record(rounds_played=3, reveals=(RevealEntry("bob", 1, "hoax", 1),))
    ann = analyse(record, GAME)["players"]["ann"]
    assert ann["real_deals_hidden"] == {"min": 0, "max": 2}


def test_possible_winners_and_tie_break():
    bounds = {"ann": (10, 20), "bob": (20, 25), "cat": (5, 19)}
    assert possible_winners(bounds, {}) == ["ann", "bob"]
    # ann at 20 ties bob's minimum; bob has more Humans at his Sites: ann cannot win.
    assert possible_winners(bounds, {"ann": 3, "bob": 7}) == ["bob"]
    assert possible_winners(bounds, {"ann": 7, "bob": 7}) == ["ann", "bob"]


def test_first_impossible_reveal_is_named():
    reveals = (
        RevealEntry("bob", 1, "hoax", 1),
        RevealEntry("bob", 1, "hoax", 2),
        RevealEntry("bob", 1, "hoax", 3),
        RevealEntry("bob", 2, "hoax", 4),
        RevealEntry("bob", 3, "hoax", 5),
    )
    with pytest.raises(InconsistentRecord) as err:
        views(small_record(reveals=reveals), GAME, display="log.toml")
    assert err.value.place == "reveal[3]"
    assert "only 3 'hoax'" in str(err.value)


def test_reveal_against_a_known_slot_is_impossible():
    reveals = (RevealEntry("ann", 1, "hoax", 1),)
    with pytest.raises(InconsistentRecord) as err:
        views(small_record(reveals=reveals), GAME, display="log.toml")
    assert err.value.place == "reveal[0]"
    assert "'real-deal', the Sighting known to lie in that slot" in str(err.value)


def test_two_reveals_in_one_round_and_a_fourth_from_a_stack():
    twice = (RevealEntry("bob", 1, "hoax", 1), RevealEntry("bob", 2, "hoax", 1))
    with pytest.raises(InconsistentRecord, match=r"reveal\[1\].*at most one reveal"):
        views(small_record(reveals=twice), GAME)
    four = (
        RevealEntry("bob", 1, "decoy", 1),
        RevealEntry("bob", 1, "decoy", 2),
        RevealEntry("bob", 1, "hoax", 3),
        RevealEntry("bob", 1, "hoax", 4),
    )
    with pytest.raises(InconsistentRecord, match=r"reveal\[3\].*emptied"):
        views(small_record(reveals=four), GAME)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000), rounds=st.integers(0, 5))
def test_record_round_trip(players, seed, rounds):
    record = simulated_record(players, seed, rounds=rounds)
    assert parse_record(__import__("tomllib").loads(record_to_toml(record)), "x") == record


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "log.toml"
    path.write_text(text)
    return path


def test_cli_json_shape(tmp_path):
    path = write(tmp_path, record_to_toml(simulated_record(3, 9)))
    result = CliRunner().invoke(cli, ["twisted-cryptids", "stacks", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"schema_version", "players", "possible_winners", "winner_decided"}
    for entry in data["players"].values():
        assert set(entry) == {"stacks", "arrangements", "real_deals_hidden", "final_myth"}
        assert [len(s) for s in entry["stacks"]] == [3, 3, 3]
        for stack in entry["stacks"]:
            for slot in stack:
                assert set(slot) in ({"revealed"}, {"counts"})
                if "counts" in slot:
                    assert sum(slot["counts"].values()) == entry["arrangements"]


def test_example_record_runs():
    example = Path("examples/twisted-cryptids/six-player-end.toml")
    _, doc = read_toml(example)
    assert len(doc["player"]) == 6 and doc["rounds_played"] == 5
    result = CliRunner().invoke(
        cli, ["twisted-cryptids", "stacks", str(example), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["players"]) == 6


BAD = [
    ("perspective = 3\n", "perspective: found 3, expected a valid string"),
    ("colour = 1\n", "colour: found 'colour', expected no such key here"),
    ("[[player]]\nname = 'x'\n", "player[0].name"),
]


def one_bad_line(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    line = one_bad_line_any(tmp_path, path)
    assert str(path) in line
    return line


@pytest.mark.parametrize(("change", "expected"), BAD)
def test_bad_record_types_exit_2(tmp_path, change, expected):
    good = record_to_toml(small_record())
    if change.startswith("[[player]]"):
        text = good.replace('name = "ann"', 'name = "bob"', 1)
        expected = "player[1].name: found 'bob', expected a name no other player has"
    else:
        text = change + good.replace(
            'perspective = "ann"\n', "" if "perspective" in change else 'perspective = "ann"\n'
        )
    assert expected in one_bad_line(tmp_path, text)


def test_impossible_reveal_exits_2_naming_it(tmp_path):
    text = record_to_toml(small_record()) + (
        '\n[[reveal]]\nplayer = "bob"\nstack = 2\nsighting = "hoax"\nround = 4\n'
        '\n[[reveal]]\nplayer = "bob"\nstack = 3\nsighting = "hoax"\nround = 5\n'
    )
    line = one_bad_line(tmp_path, text)
    assert "reveal[4]: found \"bob revealing 'hoax' from stack 3 in round 5\"" in line
    assert "bob has only 3 'hoax'" in line


def test_unknown_sighting_kind_exits_2(tmp_path):
    text = record_to_toml(small_record()).replace('sighting = "hoax"', 'sighting = "ufo"', 1)
    line = one_bad_line(tmp_path, text)
    assert "reveal[0].sighting: found 'ufo', expected one of" in line


def test_record_with_its_own_game_file(tmp_path):
    # A designer's cards: every Cryptid with 3 real-deals instead of 2 (one hoax fewer).
    from ruleslawyer.gamefiles.source import builtin_path

    cards = builtin_path("twisted-cryptids.toml").read_text()
    cards = cards.replace('kind = "real-deal"\ncount = 2', 'kind = "real-deal"\ncount = 3')
    cards = cards.replace('kind = "hoax"\ncount = 3', 'kind = "hoax"\ncount = 2')
    (tmp_path / "cards.toml").write_text(cards)
    # every Dusk reveals (check_reveal_rounds): bob's, none of ann's
    reveals = tuple(
        RevealEntry("bob", stack, kind, played)
        for played, (stack, kind) in enumerate(
            [(1, "hoax"), (1, "hoax"), (2, "decoy"), (2, "decoy"), (3, "look-alike")], start=1
        )
    )
    record = small_record(reveals=reveals, known=(), game_file="cards.toml")
    path = write(tmp_path, record_to_toml(record))
    result = CliRunner().invoke(cli, ["twisted-cryptids", "stacks", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    ann = json.loads(result.output)["players"]["ann"]
    # nothing revealed: 9!/(3!2!2!2!) = 7560 arrangements, 3 real-deals hidden: 10 + 21 + 0.
    assert ann["arrangements"] == 7560
    assert ann["real_deals_hidden"] == {"min": 3, "max": 3}
    missing = small_record(game_file="nowhere.toml")
    path = write(tmp_path, record_to_toml(missing))
    line = one_bad_line_any(tmp_path, path)
    assert f"{path}: game_file: found 'nowhere.toml' (no such file), expected a Twisted" in line


def one_bad_line_any(tmp_path: Path, path: Path) -> str:
    result = CliRunner().invoke(cli, ["twisted-cryptids", "stacks", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    return lines[0]


@functools.cache
def second_view(seed: int):
    return views(simulated_record(2, seed), GAME)[1]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 5),
    slots=st.lists(
        st.tuples(st.integers(0, 8), st.sampled_from(["hoax", "real-deal", "decoy"])), max_size=4
    ),
    known=st.booleans(),
)
def test_consistency_agrees_across_combinatorics_z3_and_brute_force(seed, slots, known):
    """Corrupt a simulated player's view at random: all three methods agree on whether any
    arrangement fits, and on how many."""
    from dataclasses import replace

    view = second_view(seed)
    field = "known" if known else "revealed"
    cells = list(getattr(view, field))
    for slot, kind in slots:
        cells[slot] = kind
    view = replace(view, **{field: tuple(cells)})
    total = arrangements(view)
    assert z3_player(view)["consistent"] == (total > 0)
    assert brute_force(view)[0] == total


@settings(max_examples=60, deadline=None)
@given(
    bounds=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3)), min_size=2, max_size=4),
    tallies=st.lists(st.one_of(st.none(), st.integers(0, 3)), min_size=4, max_size=4),
)
def test_possible_winners_against_every_score_vector(bounds, tallies):
    import itertools

    names = [f"p{i}" for i in range(len(bounds))]
    box = {n: (lo, lo + width) for n, (lo, width) in zip(names, bounds, strict=False)}
    tally = dict(zip(names, tallies, strict=False))
    seen = set()
    ranges = [range(lo, hi + 1) for lo, hi in box.values()]
    unknown = [n for n in names if tally[n] is None]
    for scores in itertools.product(*ranges):
        for guess in itertools.product(range(4), repeat=len(unknown)):
            t = {**tally, **dict(zip(unknown, guess, strict=True))}
            best = max(scores)
            tied = [n for n, s in zip(names, scores, strict=True) if s == best]
            most = max(t[n] for n in tied)
            seen |= {n for n in tied if t[n] == most}
    assert set(possible_winners(box, tally)) == seen


STACKS_SCHEMA = {
    "type": "object",
    "required": ["players", "possible_winners", "winner_decided"],
    "additionalProperties": False,
    "properties": {
        "players": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["stacks", "arrangements", "real_deals_hidden", "final_myth"],
                "additionalProperties": False,
                "properties": {
                    "stacks": {
                        "type": "array",
                        "minItems": 3,
                        "maxItems": 3,
                        "items": {
                            "type": "array",
                            "minItems": 3,
                            "maxItems": 3,
                            "items": {
                                "oneOf": [
                                    {
                                        "type": "object",
                                        "required": ["revealed"],
                                        "additionalProperties": False,
                                        "properties": {"revealed": {"type": "string"}},
                                    },
                                    {
                                        "type": "object",
                                        "required": ["counts"],
                                        "additionalProperties": False,
                                        "properties": {
                                            "counts": {
                                                "type": "object",
                                                "additionalProperties": {
                                                    "type": "integer",
                                                    "minimum": 0,
                                                },
                                            }
                                        },
                                    },
                                ]
                            },
                        },
                    },
                    "arrangements": {"type": "integer", "minimum": 1},
                    "real_deals_hidden": {"$ref": "#/$defs/bounds"},
                    "final_myth": {"$ref": "#/$defs/bounds"},
                },
            },
        },
        "possible_winners": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "winner_decided": {"type": "boolean"},
    },
    "$defs": {
        "bounds": {
            "type": "object",
            "required": ["min", "max"],
            "additionalProperties": False,
            "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}},
        }
    },
}


@pytest.mark.parametrize(("players", "seed", "rounds"), [(6, 7, None), (4, 2, 3), (2, 0, 0)])
def test_stacks_json_matches_the_issue_schema(players, seed, rounds):
    import jsonschema

    result = analyse(simulated_record(players, seed, rounds=rounds), GAME)
    jsonschema.validate(json.loads(json.dumps(result)), STACKS_SCHEMA)
    for entry in result["players"].values():
        for bounds in (entry["real_deals_hidden"], entry["final_myth"]):
            assert bounds["min"] <= bounds["max"]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_counts_match_brute_force_exhaustively(players):
    for seed in range(20):
        for rounds in (0, 1, 2, 3, 4, None):
            record = simulated_record(players, seed, rounds=rounds)
            for view in views(record, GAME):
                total, counts, deals = brute_force(view)
                assert arrangements(view) == total
                assert slot_counts(view) == counts
                bounds = z3_player(view)["real_deals_hidden"]
                assert (bounds["min"], bounds["max"]) == deals
