"""``kaelyfos advise``: the open rule points varied together, every combination of their
readings (and of ``advise/open-ties``), against a brute force over the combinations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.models.kaelyfos.points import RULE_POINTS, in_force
from ruleslawyer.models.kaelyfos.resolve import Position
from ruleslawyer.solvers.kaelyfos.advise import OPEN_TIES, advise, rank
from ruleslawyer.solvers.kaelyfos.reference import reference_jointly
from tests.kaelyfos.test_properties import positions

ROOT = Path(__file__).resolve().parents[2]
TOGETHER = ROOT / "examples" / "kaelyfos" / "advise-readings-together.toml"
ALL = ("Frenzy", "Hunt", "Prowl", "Swarm")
BOTH = {"kaelyfos/caught-move": "yes", "kaelyfos/trapped-attack": "yes"}


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.output


def test_two_readings_re_rank_only_together() -> None:
    # examples/kaelyfos/advise-readings-together.toml: ada on the exterior orifice, ben on
    # the bony protrusion; a trap holding 1 on ben's node and one on the glowing fold; an
    # empty supply; Frenzy (spawn A, C; move 3) the only card; no material.
    # - nothing: the caught bloodsuckers stay in their traps ("place it on the trap
    #   token"; caught-move=no) and attack nobody (trapped-attack=no): 0.
    # - ben destroys his trap: its bloodsucker goes to the supply, so Frenzy spawns one on
    #   nest A (the vesicle cluster), 2 steps from ada, 3 from ben: it reaches ada and
    #   attacks: 1.
    # Under caught-move=yes alone, the bloodsucker in ben's trap, on ben's node, stays
    # there (back in its trap) and the one on the glowing fold reaches ada (2 steps): 1
    # for nothing; destroying adds the spawned one: 2 for ada (1 nightmare): the order
    # holds. Under trapped-attack=yes alone, the one in ben's trap attacks him: 1 for
    # nothing, 1 (ada, the spawn) for destroying: a tie, fewer actions first: it holds.
    # Both: nothing gives ben 1 and ada 1 (2 distress, 2 nightmares); destroying gives ada
    # 2 (2 distress, 1 nightmare, "1 waking nightmare per turn"): destroying is best.
    code, out = _run("kaelyfos", "advise", TOGETHER, "--format", "json")
    assert code == 0, out
    doc = json.loads(out)
    assert [o["option"] for o in doc["options"]] == ["nothing", "ben destroys on bony-protrusion"]
    assert [o["expected_distress"] for o in doc["options"]] == ["0", "1"]
    assert doc["open_rule_points_changing_the_ranking"] == []  # no reading alone
    joint = doc["open_rule_points_jointly"]
    assert joint["checked"] is True
    firsts = {
        tuple(sorted(o["readings"].items())): o["options"][0]["option"]
        for o in joint["other_orders"]
    }
    assert firsts[tuple(sorted(BOTH.items()))] == "ben destroys on bony-protrusion"
    worst = doc["options"][0]["worst_case_over_readings"]
    assert (worst["expected_distress"], worst["expected_nightmares"]) == ("2", "2")
    code, text = _run("kaelyfos", "advise", TOGETHER)
    assert "no open rule point re-ranks" not in text
    assert (
        "    2. ben destroys on bony-protrusion: 346 combinations "
        "(kaelyfos/caught-move=yes, kaelyfos/trapped-attack=yes)" in text
    )
    # the brute force under both readings (every other point as in force)
    from ruleslawyer.models.kaelyfos.advice_file import load_advice

    loaded = load_advice(TOGETHER)
    brute = reference_jointly(
        loaded.position, 0, loaded.spent, 1, in_force({}), tuple(sorted(BOTH))
    )
    under_both = brute[tuple(sorted({**BOTH, OPEN_TIES: "uniform"}.items()))]
    assert {len(a): v for a, v in under_both.items()} == {0: (2, 2, 2), 1: (2, 1, 2)}


def test_no_re_rank_line_only_after_every_combination(tmp_path: Path) -> None:
    # A position where no combination of the readings re-ranks the two options (found by
    # the search; test_every_combination_matches_brute_force checks such verdicts against
    # the brute force): the line says so only once every combination was checked.
    path = tmp_path / "calm.toml"
    path.write_text(
        'board = "kaelyfos"\n'
        'nests = { A = "vesicle-cluster", B = "bony-protrusion", C = "glowing-fold" }\n'
        "supply = 0\n"
        'explorers = { ada = "exterior-orifice" }\n'
        'bloodsuckers = { "exterior-orifice" = 2, "vesicle-cluster" = 1, '
        '"interior-facedown-1" = 2 }\n'
        'traps = [ { node = "bony-protrusion", caught = 0 }, '
        '{ node = "exterior-orifice", caught = 1 } ]\n'
        "material = 0\n"
        'spent = ["Frenzy", "Prowl"]\n',
        "utf-8",
    )
    code, text = _run("kaelyfos", "advise", path)
    assert code == 0, text
    assert "  1. nothing: distress 3 " in text
    assert "  no open rule point re-ranks the options, alone or together\n" in text
    # a search cut by its budget never says so
    code, text = _run("kaelyfos", "advise", path, "--max-seconds", "1e-9")
    assert code == 3
    assert "no open rule point re-ranks" not in text
    assert "finished: false" in text


OPEN = [
    "kaelyfos/attack-removal",
    "kaelyfos/caught-move",
    "kaelyfos/nightmare-limit",
    "kaelyfos/spawn-into-trap",
    "kaelyfos/stop-at-explorer",
    "kaelyfos/trap-distance-tie",
    "kaelyfos/trapped-attack",
]


@settings(max_examples=25, deadline=None)
@given(
    positions(spawn=False),
    st.lists(st.sampled_from(ALL), unique=True, min_size=1, max_size=3),
    st.integers(0, 1),
    st.lists(st.sampled_from(OPEN), unique=True, min_size=1, max_size=2),
)
def test_every_combination_matches_brute_force(
    start: Position, spent: list[str], material: int, points: list[str]
) -> None:
    _agrees_jointly(start, spent, material, points, 1)


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(
    positions(spawn=False),
    st.lists(st.sampled_from(ALL), unique=True, min_size=2, max_size=3),
    st.integers(0, 1),
    st.lists(st.sampled_from(OPEN), unique=True, min_size=1, max_size=2),
)
def test_every_combination_matches_brute_force_two_triggers(
    start: Position, spent: list[str], material: int, points: list[str]
) -> None:
    _agrees_jointly(start, spent, material, points, 2)


def _agrees_jointly(
    start: Position, spent: list[str], material: int, points: list[str], triggers: int
) -> None:
    # Every point but ``points`` settled at its default; the brute force ranks every legal
    # sequence of free actions under every combination of their readings and the three
    # open-tie readings. advise must find the same orders and the same worst cases.
    rulings = {p.id: p.default for p in RULE_POINTS if p.readings and p.id not in points}
    advice = advise(start, material, tuple(spent), triggers, rulings, Budget())
    assert advice.finished
    chosen = in_force(rulings)
    brute = reference_jointly(start, material, tuple(spent), triggers, chosen, tuple(points))
    options = advice.ranking.options
    base = [o.label for o in options]
    for combo, values in brute.items():
        there = advice.varied.at(dict(combo))
        # each option advise ranks there has the brute force's value, in the brute
        # force's order, and the best is the best of every sequence
        assert [v.key() for a, _, v in there] == [values[a] for a, _, _ in there]
        keys = [(v.key(), len(a)) for a, _, v in there]
        assert keys == sorted(keys)
        assert there[0][2].key() == min(values.values())
        # an order other than the base one is among those listed
        order = [label for _, label, _ in there]
        if order != base:
            assert order in [[x[1] for x in o.options] for o in advice.varied.orders]
    # each listed order and worst case holds at the readings named for it (the others in
    # force)
    in_force_now = {**{p: in_force(rulings)[p] for p in points}, OPEN_TIES: "uniform"}
    for o in advice.varied.orders:
        there = advice.varied.at({**in_force_now, **dict(o.readings)})
        assert [x[1] for x in there] == [x[1] for x in o.options]
    for option, (worst, where) in zip(options, advice.varied.worst, strict=True):
        combo = tuple(sorted({**in_force_now, **dict(where)}.items()))
        assert brute[combo][option.actions] == worst.key()
    if not advice.varied.orders:
        assert all([x[1] for x in advice.varied.at(dict(c))] == base for c in brute)
    # each option's worst case is the brute force's largest value over the combinations
    for option, (worst, _) in zip(options, advice.varied.worst, strict=True):
        assert worst.key() == max(v[option.actions] for v in brute.values())
    # and the readings in force give the ranking advise shows
    plain = rank(start, material, tuple(spent), triggers, chosen, Budget())
    assert [o.label for o in plain.options] == base
