"""``kaelyfos advise``: hand-worked answers, a brute-force reference, properties, the CLI."""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.graphs.board import Board, parse_board, require_sound
from ruleslawyer.models.kaelyfos.points import in_force
from ruleslawyer.models.kaelyfos.resolve import Card, Position, Trap, resolve
from ruleslawyer.models.kaelyfos.state import Readings
from ruleslawyer.solvers.kaelyfos.advise import (
    OPEN_TIES,
    TIE_READINGS,
    advise,
    follow_ups,
    next_position,
    rank,
    reachable,
)
from ruleslawyer.solvers.kaelyfos.reference import reference_options
from tests.kaelyfos.helpers import board, position
from tests.kaelyfos.test_properties import positions

ROOT = Path(__file__).resolve().parents[2]
ALL = ("Frenzy", "Hunt", "Prowl", "Swarm")


def _spent_all_but(*left: str) -> tuple[str, ...]:
    return tuple(n for n in ALL if n not in left)


def _values(ranking) -> dict[str, tuple[Fraction, int]]:
    return {o.label: (o.value.expected, o.value.worst) for o in ranking.options}


def test_hand_worked_swarm_alone() -> None:
    # ada alone on the glowing fold (nest C, one build site), no bloodsuckers out, only
    # Swarm left (spawn C, B, A; move 1). Spawn puts one bloodsucker on ada's node; it
    # starts on an explorer's node and stays (stop-at-explorer default "stop"); the ones
    # on B and A move 1 and reach nobody. Attack: 1 distress, whatever the crew does:
    # a trap built on the fold does not catch a bloodsucker that spawns there (default
    # spawn-into-trap "not-caught": "If a bloodsucker moves onto a node with a trap").
    # Under spawn-into-trap=caught the trap catches it: 0 distress, building is best.
    start = position(explorers={"ada": "glowing-fold"})
    advice = advise(start, 1, _spent_all_but("Swarm"), 1, {})
    assert _values(advice.ranking) == {
        "nothing": (Fraction(1), 1),
        "ada builds on glowing-fold": (Fraction(1), 1),
    }
    assert advice.ranking.options[0].label == "nothing"  # a tie: fewer actions first
    assert advice.finished
    parted = {(p, r): _values(o) for p, r, o in advice.divergences}
    assert parted[("kaelyfos/spawn-into-trap", "caught")] == {
        "ada builds on glowing-fold": (Fraction(0), 0),
        "nothing": (Fraction(1), 1),
    }


def test_hand_worked_two_cards_two_triggers() -> None:
    # Same crew, deck Swarm and Prowl (spawn none, move 2). One trigger: Swarm gives 1,
    # Prowl moves nothing (no bloodsucker out) and gives 0: expected 1/2, worst 1.
    # Two triggers: Swarm then Prowl: 1, then the bloodsucker from B (now on the exterior
    # orifice) moves 2 via the face-down card onto the fold: 1 more (2 in all); the one
    # from A (interior orifice) stops short. Prowl then Swarm: 0 + 1. Expected 3/2, worst 2.
    start = position(explorers={"ada": "glowing-fold"})
    spent = _spent_all_but("Swarm", "Prowl")
    one = rank(start, 0, spent, 1, in_force({}), Budget())
    assert _values(one) == {"nothing": (Fraction(1, 2), 1)}
    two = rank(start, 0, spent, 2, in_force({}), Budget())
    assert _values(two) == {"nothing": (Fraction(3, 2), 2)}


def test_exhausted_deck_readings() -> None:
    # Only Swarm left, two triggers. exhausted-deck=no-card: the second trigger reveals
    # nothing, so the total is Swarm's 1. reshuffle: the four revealed cards form a new
    # deck and the second card is any of them, equally likely, resolved after Swarm.
    start = position(explorers={"ada": "glowing-fold"})
    spent = _spent_all_but("Swarm")
    assert _values(rank(start, 0, spent, 2, in_force({}), Budget())) == {
        "nothing": (Fraction(1), 1)
    }
    chosen = in_force({"kaelyfos/exhausted-deck": "reshuffle"})
    cards = {b.name: Card(b.spawn, b.move) for b in board().behaviors}
    first = resolve(replace(start, card=cards["Swarm"]), chosen).result
    after = next_position(start, first)
    seconds = [
        sum(n for _, n in resolve(replace(after, card=c), chosen).result.distress)
        for c in cards.values()
    ]
    want = (1 + Fraction(sum(seconds), len(seconds)), 1 + max(seconds))
    assert _values(rank(start, 0, spent, 2, chosen, Budget())) == {"nothing": want}


def test_reachable_merges_orders_and_bounds_by_material() -> None:
    start = position(explorers={"ada": "bony-protrusion", "ben": "glowing-fold"})
    readings = Readings(in_force({}))
    assert [a for a, _, _ in reachable(start, 0, readings)] == [()]
    sequences = [a for a, _, _ in reachable(start, 2, readings)]
    # nothing, ada builds, ben builds, both (ada then ben = ben then ada: one position)
    assert [len(a) for a in sequences] == [0, 1, 1, 2]
    # a build then a destroy on the same site leaves the table as it was with less
    # material: dropped, since unspent material can always stay unspent
    assert all(len(a) < 3 for a in sequences)


def test_hand_worked_destroy_and_rebuild_is_offered_and_best() -> None:
    # ben alone on the exterior orifice, whose one build site holds a trap that has caught
    # 1; 2 bloodsuckers on the bony protrusion next to it; only Prowl left (no spawn,
    # move 2); 1 material. Both bloodsuckers step onto ben's node, where the trap catches
    # them ("instantly trapped (even if explorers are also present)").
    # - nothing: the first makes 2 caught, the trap is destroyed ("If a trap has caught 2
    #   bloodsuckers it is destroyed"); the second stays with ben and attacks: 1.
    # - destroy: no trap, both attack: 2.
    # - destroy, then build (the site is empty again, its token available): the fresh
    #   trap catches both and is destroyed: 0. Build alone: no empty build site.
    start = position(
        explorers={"ben": "exterior-orifice"},
        bloodsuckers={"bony-protrusion": 2},
        traps=(Trap("exterior-orifice", 1),),
    )
    ranking = rank(start, 1, _spent_all_but("Prowl"), 1, in_force({}), Budget())
    assert _values(ranking) == {
        "ben destroys on exterior-orifice, then ben builds on exterior-orifice": (0, 0),
        "nothing": (1, 1),
        "ben destroys on exterior-orifice": (2, 2),
    }
    assert ranking.options[0].label.startswith("ben destroys on exterior-orifice, ")


def _two_traps_full() -> Position:
    # ada on the glowing fold (nest C), its trap has caught 1; ben on the exterior orifice
    # with an empty trap; both trap tokens are on the board.
    return position(
        explorers={"ada": "glowing-fold", "ben": "exterior-orifice"},
        traps=(Trap("exterior-orifice", 0), Trap("glowing-fold", 1)),
    )


def test_hand_worked_acting_between_triggers_beats_every_one_shot_option() -> None:
    # Deck Swarm (spawn C, B, A; move 1) and Hunt (spawn B; move 2), 1 material, 2 triggers.
    # Swarm: the bloodsucker spawned on ada's node is not caught (spawn-into-trap default)
    # and attacks her: 1; the one from B steps into ben's trap (1 caught); the one from A
    # steps to the interior orifice. Hunt after Swarm: its new bloodsucker and the one on
    # the interior orifice both reach ben's trap: the first fills it (destroyed), the
    # second attacks ben: 1. Hunt first: its bloodsucker is caught, nobody is hit; then
    # Swarm: 1 (ada). Without free actions between cards: (2 + 1) / 2 = 3/2, and no action
    # now does better (a fresh trap on ben's node is filled by Swarm just the same).
    # With them: after Swarm, ben destroys his half-full trap and builds again: Hunt's
    # two bloodsuckers are both caught: 1 + 0; Hunt first: 0 + 1. Expected 1.
    start = _two_traps_full()
    spent = _spent_all_but("Swarm", "Hunt")
    chosen = in_force({})
    whole = rank(start, 1, spent, 2, chosen, Budget())
    one_shot = rank(start, 1, spent, 2, chosen, Budget(), between=False)
    assert whole.options[0].value.expected == 1
    assert min(o.value.expected for o in one_shot.options) == Fraction(3, 2)
    # ada's destroy now (her trap is of no use: Swarm spawns on her node) keeps the value 1
    destroy = next(o for o in whole.options if o.label == "ada destroys on glowing-fold")
    assert destroy.value.expected == 1
    then = {f.card: f.label for f in follow_ups(start, destroy, 1, spent, 2, chosen)}
    assert then == {
        "Swarm": "ben destroys on exterior-orifice, then ben builds on exterior-orifice",
        "Hunt": "nothing",
    }


def test_destroying_now_and_building_after_the_first_card() -> None:
    # Under kaelyfos/trapped-attack=yes a caught bloodsucker attacks the explorers on its
    # trap's node. ada on the exterior orifice and ben on the vesicle cluster each stand on
    # a trap that has caught 1 (both trap tokens on the board); 2 bloodsuckers on the bony
    # protrusion, 2 on a face-down card by the glowing fold; deck Prowl and Swarm; 1
    # material; 2 triggers. Whichever card comes first, a second bloodsucker steps into
    # ada's trap, which is destroyed ("If a trap has caught 2 bloodsuckers it is
    # destroyed"): her site is empty and a token available only after the first card.
    # Best: ben destroys his trap now (its bloodsucker would attack him), and after the
    # first card ada builds on her emptied site. Swarm then Prowl: ada 1, then ada 1;
    # Prowl then Swarm: ada 1, then ada 1 and ben 1: (2 + 3) / 2 = 5/2. Acting only now,
    # the best is 4 (ada destroys and rebuilds, ben destroys): Swarm then Prowl 1 + 3,
    # Prowl then Swarm 0 + 4 (the fresh trap is spent on the first card). Figures checked
    # against the brute force.
    start = position(
        explorers={"ada": "exterior-orifice", "ben": "vesicle-cluster"},
        bloodsuckers={"bony-protrusion": 2, "exterior-facedown-1": 2},
        traps=(Trap("exterior-orifice", 1), Trap("vesicle-cluster", 1)),
    )
    spent = _spent_all_but("Prowl", "Swarm")
    chosen = in_force({"kaelyfos/trapped-attack": "yes"})
    whole = rank(start, 1, spent, 2, chosen, Budget())
    best = whole.options[0]
    assert best.label == "ben destroys on vesicle-cluster"
    assert best.value.expected == Fraction(5, 2) < whole.options[1].value.expected
    one_shot = rank(start, 1, spent, 2, chosen, Budget(), between=False)
    assert min(o.value.expected for o in one_shot.options) == 4
    then = {f.card: f.label for f in follow_ups(start, best, 1, spent, 2, chosen)}
    assert then == {
        "Prowl": "ada builds on exterior-orifice",
        "Swarm": "ada builds on exterior-orifice",
    }
    brute = reference_options(start, 1, spent, 2, chosen)
    assert brute[best.actions] == best.value.key() == min(brute.values())


def test_crew_splits_distress_for_fewest_nightmares() -> None:
    # ada and ben share the exterior orifice; 2 bloodsuckers next door, Prowl (move 2) the
    # only card: 2 distress on the node. Giving both to one explorer means 1 waking
    # nightmare ("You can only experience 1 waking nightmare per turn"); splitting, 2.
    # The crew chooses who takes the distress: 1 nightmare expected, not 2.
    start = position(
        explorers={"ada": "exterior-orifice", "ben": "exterior-orifice"},
        bloodsuckers={"bony-protrusion": 2},
    )
    ranking = rank(start, 0, _spent_all_but("Prowl"), 1, in_force({}), Budget())
    assert [o.value for o in ranking.options] == [
        replace(ranking.options[0].value, expected=Fraction(2), nightmares=Fraction(1), worst=2)
    ]


def test_open_pheromone_tie_ranked_under_each_reading() -> None:
    # The bloodsucker on the exterior orifice is 1 step from ada (bony protrusion) and from
    # ben (a face-down card); both exits carry 2 dots: the rules leave the way open. Prowl
    # (move 2) is the only card. ada may build on her node (1 material): the trap catches
    # the bloodsucker if it comes her way. uniform: build 1/2, nothing 1. worst: it goes to
    # ben either way, so building buys nothing: 1 and 1 (nothing first, fewer actions).
    start = position(
        explorers={"ada": "bony-protrusion", "ben": "exterior-facedown-2"},
        bloodsuckers={"exterior-orifice": 1},
    )
    advice = advise(start, 1, _spent_all_but("Prowl"), 1, {})
    assert _values(advice.ranking) == {
        "ada builds on bony-protrusion": (Fraction(1, 2), 1),
        "nothing": (1, 1),
    }
    assert advice.ranking.ties == {"kaelyfos/pheromone-tie"}
    parted = {(p, r): o for p, r, o in advice.divergences}
    assert [o.label for o in parted[(OPEN_TIES, "worst")].options] == [
        "nothing",
        "ada builds on bony-protrusion",
    ]
    assert (OPEN_TIES, "best") not in parted  # same order as uniform
    best = rank(start, 1, _spent_all_but("Prowl"), 1, in_force({}), Budget(), "best")
    assert _values(best)["ada builds on bony-protrusion"] == (0, 0)


@cache
def _permuted(seed: int) -> Board:
    """The built-in board with its [[node]] and [[edge]] blocks in another order."""
    import random

    doc = tomllib.loads((ROOT / "ruleslawyer/data/kaelyfos.toml").read_text())
    rng = random.Random(seed)
    rng.shuffle(doc["node"])
    rng.shuffle(doc["edge"])
    return require_sound(parse_board(doc, f"permuted {seed}"), f"permuted {seed}")


@settings(max_examples=20, deadline=None)
@given(
    positions(spawn=False),
    st.integers(0, 10_000),
    st.lists(st.sampled_from(ALL), unique=True, min_size=2, max_size=3),
    st.sampled_from(list(TIE_READINGS)),
)
def test_block_order_never_changes_the_ranking(
    start: Position, seed: int, spent: list[str], ties: str
) -> None:
    chosen = in_force({})
    here = rank(start, 1, tuple(spent), 2, chosen, Budget(), ties)
    there = rank(replace(start, board=_permuted(seed)), 1, tuple(spent), 2, chosen, Budget(), ties)
    assert [(o.label, o.value) for o in there.options] == [(o.label, o.value) for o in here.options]


@settings(max_examples=25, deadline=None)
@given(
    positions(spawn=False),
    st.lists(st.sampled_from(ALL), unique=True, min_size=1, max_size=3),
    st.integers(1, 2),
    st.integers(0, 2),
    st.sampled_from(
        [
            {},
            {"kaelyfos/spawn-into-trap": "caught"},
            {"kaelyfos/scarab-passable": "yes"},
            {"kaelyfos/nightmare-limit": "per-crew"},
            {"kaelyfos/exhausted-deck": "reshuffle"},
            {"kaelyfos/trap-tie": "open", "kaelyfos/caught-move": "yes"},
            {"kaelyfos/build-on-bloodsuckers": "caught", "kaelyfos/destroyed-token": "spent"},
        ]
    ),
    st.sampled_from(list(TIE_READINGS)),
    st.booleans(),
)
def test_matches_brute_force(
    start: Position,
    spent: list[str],
    triggers: int,
    material: int,
    rulings: dict[str, str],
    ties: str,
    between: bool,
) -> None:
    _agrees_with_brute_force(start, spent, triggers, material, rulings, ties, between)


def _agrees_with_brute_force(
    start: Position,
    spent: list[str],
    triggers: int,
    material: int,
    rulings: dict[str, str],
    ties: str,
    between: bool,
) -> None:
    chosen = in_force(rulings)
    ranking = rank(start, material, tuple(spent), triggers, chosen, Budget(), ties, between)
    assert ranking.finished
    brute = reference_options(start, material, tuple(spent), triggers, chosen, ties, between)
    for option in ranking.options:
        assert option.value.key() == brute[option.actions]
    # every sequence the brute force tries is worth at least the best option
    assert min(brute.values()) == ranking.options[0].value.key()


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(
    positions(spawn=False),
    st.lists(st.sampled_from(ALL), unique=True, max_size=2),
    st.integers(0, 1),
    st.sampled_from(list(TIE_READINGS)),
)
def test_matches_brute_force_three_triggers(
    start: Position, spent: list[str], material: int, ties: str
) -> None:
    _agrees_with_brute_force(start, spent, 3, material, {}, ties, True)


def test_nightmares_one_per_turn_each_trigger_a_turn() -> None:
    # ada alone on the glowing fold; Swarm gives her 1 distress, Prowl after Swarm 1 more
    # (see test_hand_worked_two_cards_two_triggers), Prowl first 0. Each distress is a
    # waking nightmare, at most 1 a turn, each trigger in a turn of its own: Swarm then
    # Prowl 2, Prowl then Swarm 1: 3/2. Had she had one this turn already, the first
    # card's is lost: 1 and 1.
    start = position(explorers={"ada": "glowing-fold"})
    spent = _spent_all_but("Swarm", "Prowl")
    fresh = rank(start, 0, spent, 2, in_force({}), Budget()).options[0].value
    assert fresh.nightmares == Fraction(3, 2)
    had = replace(start, turn="ada", had_nightmare=("ada",))
    assert rank(had, 0, spent, 2, in_force({}), Budget()).options[0].value.nightmares == 1


@settings(max_examples=25, deadline=None)
@given(positions(spawn=False), st.integers(1, 3))
def test_properties(start: Position, triggers: int) -> None:
    ranking = rank(start, 1, (), triggers, in_force({}), Budget())
    options = ranking.options
    assert options, "doing nothing is always an option"
    assert any(o.actions == () for o in options)
    keys = [(*o.value.key(), len(o.actions)) for o in options]
    assert keys == sorted(keys)  # best first
    for o in options:
        assert 0 <= o.expected <= o.worst  # the mean never exceeds the worst draw
    # acting between triggers never does worse than acting only now
    narrow = {
        o.label: o.value.key()
        for o in rank(start, 1, (), triggers, in_force({}), Budget(), between=False).options
    }
    assert all(o.value.key() <= narrow[o.label] for o in options)


def test_budget_says_not_finished() -> None:
    start = position(explorers={"ada": "glowing-fold", "ben": "bony-protrusion"})
    advice = advise(start, 2, (), 4, {}, Budget(max_states=0, max_seconds=0.0))
    assert not advice.finished
    assert advice.to_json()["finished"] is False


def test_cli_open_ties_reading(tmp_path: Path) -> None:
    # The tie of test_open_pheromone_tie_ranked_under_each_reading on face-up cards (a file
    # with an explorer on a face-down card is refused): the bloodsucker on the interior
    # orifice is 1 step from ada and ben, both exits carry 1 dot; Prowl is the only card.
    path = tmp_path / "tie.toml"
    path.write_text(
        'board = "kaelyfos"\n'
        'nests = { A = "vesicle-cluster", B = "bony-protrusion", C = "glowing-fold" }\n'
        "supply = 5\n"
        'explorers = { ada = "exterior-orifice", ben = "vesicle-cluster" }\n'
        'bloodsuckers = { "interior-orifice" = 1 }\n'
        "material = 1\n"
        'spent = ["Frenzy", "Hunt", "Swarm"]\n'
    )
    runner = CliRunner()
    plain = runner.invoke(cli, ["kaelyfos", "advise", str(path), "--format", "json"])
    doc = json.loads(plain.output)
    assert (
        f"{OPEN_TIES}=uniform (each option the rules leave open is equally likely)"
        in (doc["model"])
    )
    assert doc["options"][0]["option"] == "ada builds on exterior-orifice"
    assert (OPEN_TIES, "worst") in {
        (d["point"], d["reading"]) for d in doc["open_rule_points_changing_the_ranking"]
    }
    worst = runner.invoke(cli, ["kaelyfos", "advise", str(path), "--open-ties", "worst"])
    assert f"met on some draw ({OPEN_TIES}=worst): kaelyfos/pheromone-tie" in worst.output
    assert "  1. nothing: distress 1 " in worst.output
    worst_json = runner.invoke(
        cli, ["kaelyfos", "advise", str(path), "--open-ties", "worst", "--format", "json"]
    )
    assert (OPEN_TIES, "uniform") in {
        (d["point"], d["reading"])
        for d in json.loads(worst_json.output)["open_rule_points_changing_the_ranking"]
    }


def test_cli_unfinished_exits_3(tmp_path: Path) -> None:
    whole = tmp_path / "advise.toml"
    text = (ROOT / "examples/kaelyfos/advise.toml").read_text()
    whole.write_text(text.replace('spent = ["Prowl"]', "spent = []"))
    args = ["kaelyfos", "advise", str(whole), "--triggers", "6", "--max-seconds", "1e-9"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 3, result.output
    assert "finished: false" in result.output


def test_cli_text_and_json(tmp_path: Path) -> None:
    example = str(ROOT / "examples/kaelyfos/advise.toml")
    text = CliRunner().invoke(cli, ["kaelyfos", "advise", example])
    assert text.exit_code == 0, text.output
    assert text.output.startswith("model: options: every distinct result of any sequence")
    assert "finished: true" in text.output
    out = CliRunner().invoke(cli, ["kaelyfos", "advise", example, "--format", "json"])
    doc = json.loads(out.output)
    assert doc["finished"] is True and doc["triggers"] == 1
    assert "placeholder" in doc["behaviour_cards"]


def test_bad_input_one_line(tmp_path: Path) -> None:
    text = (ROOT / "examples/kaelyfos/advise.toml").read_text()
    cases = {
        "spent-unknown": (text.replace('spent = ["Prowl"]', 'spent = ["Nope"]'), "spent[0]"),
        "spent-twice": (
            text.replace('spent = ["Prowl"]', 'spent = ["Prowl", "Prowl"]'),
            "spent[1]",
        ),
        "material": (text.replace("material = 1", "material = -1"), "material"),
        "card": (text + "\n[card]\nspawn = []\nmove = 1\n", "card"),
    }
    for name, (body, place) in cases.items():
        path = tmp_path / f"{name}.toml"
        path.write_text(body)
        result = CliRunner().invoke(cli, ["kaelyfos", "advise", str(path)])
        assert result.exit_code == 2, (name, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and f"{path}: {place}:" in lines[0], (name, result.output)


def test_cli_budget_help_deep_toml_and_a_board_without_a_deck(tmp_path: Path) -> None:
    example = str(ROOT / "examples/kaelyfos/advise.toml")
    runner = CliRunner()
    again = [runner.invoke(cli, ["kaelyfos", "advise", example]).output for _ in range(2)]
    assert again[0] == again[1]  # deterministic
    help_text = runner.invoke(cli, ["kaelyfos", "advise", "--help"]).output
    assert "POSITION.toml:" in help_text and "examples/kaelyfos/advise.toml" in help_text
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    result = runner.invoke(cli, ["kaelyfos", "advise", str(deep)])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    board = tmp_path / "board.toml"
    text = (ROOT / "ruleslawyer/data/kaelyfos.toml").read_text()
    board.write_text(text.split("[[behavior]]", 1)[0])
    position = tmp_path / "advise.toml"
    position.write_text(
        (ROOT / "examples/kaelyfos/advise.toml")
        .read_text()
        .replace('board = "kaelyfos"', 'board = "board.toml"')
        .replace('spent = ["Prowl"]', "spent = []")
    )
    result = runner.invoke(cli, ["kaelyfos", "advise", str(position)])
    assert result.exit_code == 2, result.output
    assert f"{position}: board:" in result.output and "behaviour deck" in result.output


def test_open_ties_met_are_named() -> None:
    # examples/kaelyfos/pheromone-tie.toml's table: the bloodsucker on the interior orifice
    # is equally close to both explorers and both exits carry 1 dot (a tie the rules leave
    # open); whichever card comes first moves it, so the tie is met and must be named.
    start = position(
        explorers={"ada": "exterior-orifice", "ben": "vesicle-cluster"},
        bloodsuckers={"interior-orifice": 1},
    )
    advice = advise(start, 1, (), 1, {})
    assert "kaelyfos/pheromone-tie" in advice.ranking.ties
    assert advice.to_json()["open_ties_met"] == sorted(advice.ranking.ties)
    calm = advise(position(explorers={"ada": "glowing-fold"}), 1, _spent_all_but("Swarm"), 1, {})
    assert calm.ranking.ties == frozenset()


def test_block_order_on_an_open_pheromone_tie() -> None:
    # The tie of test_open_pheromone_tie_ranked_under_each_reading: the board file's order
    # decides neither which tied exit `step` lists first (they are listed by node id) nor
    # the advice.
    from ruleslawyer.models.kaelyfos.resolve import step

    start = position(
        explorers={"ada": "bony-protrusion", "ben": "exterior-facedown-2"},
        bloodsuckers={"exterior-orifice": 1},
        move=2,
    )
    firsts, rankings = set(), set()
    for seed in range(6):
        moved = replace(start, board=_permuted(seed))
        firsts.add(json.dumps(step(moved).to_json(), sort_keys=True))
        advice = advise(moved, 1, _spent_all_but("Prowl"), 1, {})
        rankings.add(tuple((o.label, o.value) for o in advice.ranking.options))
    assert len(firsts) == 1
    assert len(rankings) == 1


def test_an_oversized_deck_is_refused_before_the_search(tmp_path: Path) -> None:
    # 20 behaviour cards drawn 3 times: 8000 draw sequences, refused at once;
    # the same board over 1 trigger (20 sequences) is searched
    import re

    built_in = (ROOT / "ruleslawyer" / "data" / "kaelyfos.toml").read_text("utf-8")
    cards = "".join(f'[[behavior]]\nname = "B{k}"\nspawn = ["A"]\nmove = 1\n\n' for k in range(20))
    body = re.sub(r"\[\[behavior\]\]\n(?:(?!\[).*\n)*", "", built_in)
    (tmp_path / "board.toml").write_text(body + cards, "utf-8")
    advice = (ROOT / "examples" / "kaelyfos" / "advise.toml").read_text("utf-8")
    advice = advice.replace('board = "kaelyfos"', 'board = "board.toml"')
    path = tmp_path / "advise.toml"
    path.write_text(advice.replace('spent = ["Prowl"]', "spent = []"), "utf-8")
    result = CliRunner().invoke(cli, ["kaelyfos", "advise", str(path), "--triggers", "3"])
    assert result.exit_code == 2 and result.stderr == (
        f"error: {path}: board.behavior: found '20 behaviour cards drawn 3 times (20**3 draw "
        "sequences)', expected at most 5000 draw sequences to the horizon (fewer --triggers, "
        "or a smaller deck)\n"
    )
    assert (
        CliRunner().invoke(cli, ["kaelyfos", "advise", str(path), "--triggers", "1"]).exit_code == 0
    )
