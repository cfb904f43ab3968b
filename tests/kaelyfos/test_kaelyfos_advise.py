"""``kaelyfos advise``: hand-worked answers, a brute-force reference, properties, the CLI."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.models.kaelyfos import Card, Position, resolve
from ruleslawyer.models.kaelyfos_points import in_force
from ruleslawyer.solvers.kaelyfos_advise import advise, candidates, next_position, rank
from ruleslawyer.solvers.kaelyfos_advise_reference import reference
from tests.kaelyfos.kaelyfos_helpers import board, position
from tests.kaelyfos.test_kaelyfos_properties import positions

ROOT = Path(__file__).resolve().parents[2]
ALL = ("Frenzy", "Hunt", "Prowl", "Swarm")


def _spent_all_but(*left: str) -> tuple[str, ...]:
    return tuple(n for n in ALL if n not in left)


def _values(ranking) -> dict[str, tuple[Fraction, int]]:
    return {o.label: (o.expected, o.worst) for o in ranking.options}


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


def test_no_material_no_build_and_destroy_offered_on_a_trap() -> None:
    start = position(explorers={"ada": "bony-protrusion", "ben": "glowing-fold"})
    assert candidates(start, 0, in_force({})) == [()]
    labels = {len(c) for c in candidates(start, 2, in_force({}))}
    assert labels == {0, 1, 2}


@settings(max_examples=25, deadline=None)
@given(
    positions(spawn=False),
    st.lists(st.sampled_from(ALL), unique=True, max_size=3),
    st.integers(1, 3),
    st.integers(0, 2),
    st.sampled_from(
        [{}, {"kaelyfos/spawn-into-trap": "caught"}, {"kaelyfos/scarab-passable": "yes"}]
    ),
)
def test_matches_brute_force_over_deck_orders(
    start: Position, spent: list[str], triggers: int, material: int, rulings: dict[str, str]
) -> None:
    chosen = in_force(rulings)
    ranking = rank(start, material, tuple(spent), triggers, chosen, Budget())
    assert ranking.finished
    for option in ranking.options:
        with_actions = replace(start, actions=option.actions)
        assert (option.expected, option.worst) == reference(
            with_actions, tuple(spent), triggers, chosen
        )


@settings(max_examples=25, deadline=None)
@given(positions(spawn=False), st.integers(1, 3))
def test_properties(start: Position, triggers: int) -> None:
    ranking = rank(start, 1, (), triggers, in_force({}), Budget())
    options = ranking.options
    assert options, "doing nothing is always an option"
    assert any(o.actions == () for o in options)
    keys = [(o.expected, o.worst, len(o.actions)) for o in options]
    assert keys == sorted(keys)  # best first
    for o in options:
        assert 0 <= o.expected <= o.worst  # the mean never exceeds the worst draw
    # a longer horizon never lowers an option's worst case (distress only accumulates)
    if triggers > 1:
        shorter = {
            o.label: o.worst
            for o in rank(start, 1, (), triggers - 1, in_force({}), Budget()).options
        }
        assert all(o.worst >= shorter[o.label] for o in options)


def test_budget_says_not_finished() -> None:
    start = position(explorers={"ada": "glowing-fold", "ben": "bony-protrusion"})
    advice = advise(start, 2, (), 4, {}, Budget(max_states=0, max_seconds=0.0))
    assert not advice.finished
    assert advice.to_json()["finished"] is False


def test_cli_text_and_json(tmp_path: Path) -> None:
    example = str(ROOT / "examples/kaelyfos/advise.toml")
    text = CliRunner().invoke(cli, ["kaelyfos", "advise", example, "--triggers", "2"])
    assert text.exit_code == 0, text.output
    assert text.output.startswith("model: options: every set of free actions")
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
    # examples/kaelyfos/pheromone-tie.toml's table: the bloodsucker on the exterior orifice
    # is equally close to both explorers and both exits carry 2 dots (a tie the rules leave
    # open); whichever card comes first moves it, so the tie is met and must be named.
    start = position(
        explorers={"ada": "bony-protrusion", "ben": "exterior-facedown-2"},
        bloodsuckers={"exterior-orifice": 1},
    )
    advice = advise(start, 1, (), 1, {})
    assert "kaelyfos/pheromone-tie" in advice.ranking.ties
    assert advice.to_json()["ties_at_first_option"] == sorted(advice.ranking.ties)
    calm = advise(position(explorers={"ada": "glowing-fold"}), 1, _spent_all_but("Swarm"), 1, {})
    assert calm.ranking.ties == frozenset()


def test_an_oversized_deck_is_refused_before_the_search(tmp_path: Path) -> None:
    # 20 behaviour cards drawn 3 times: 8000 draw sequences (about 50 s), refused at once;
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
