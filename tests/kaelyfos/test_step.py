"""Known answers for one behaviour card, worked out by hand from the rulebook.

The built-in board (ruleslawyer/data/kaelyfos.toml) with the Scarab closed (the
default reading of kaelyfos/scarab-passable) has these adjacencies, with the
pheromone dots on each exit in brackets:

    glowing-fold: exterior-facedown-1 [2], exterior-facedown-2 [1]
    bony-protrusion: exterior-orifice [2]
    exterior-orifice: bony-protrusion [2], exterior-facedown-2 [2], interior-orifice [3]
    exterior-facedown-2: glowing-fold [2], exterior-orifice [1]
    interior-orifice: exterior-orifice [1], vesicle-cluster [1], interior-facedown-1 [1]
    vesicle-cluster: interior-orifice [1], interior-facedown-2 [1]

and the Scarab joins glowing-fold, bony-protrusion and exterior-facedown-1.
Nests: A vesicle-cluster, B bony-protrusion, C glowing-fold. Six black markers.
"""

from __future__ import annotations

from ruleslawyer.models.kaelyfos.resolve import Trap, step
from tests.kaelyfos.helpers import position


def _free(result) -> dict[str, int]:
    return dict(result.bloodsuckers)


def test_attack_returns_to_supply_or_leaves_play() -> None:
    # Move 1: the bloodsucker on the exterior orifice steps onto ada's node (distance 1).
    # Attack: "Each bloodsucker gives a distress ... and is returned to the supply."
    # 5 in the supply + the attacker = 6. The example card says "removed from play" instead.
    s = step(position(explorers={"ada": "bony-protrusion"}, bloodsuckers={"exterior-orifice": 1}))
    assert _free(s.result) == {}
    assert s.result.supply == 6 and s.result.removed_from_play == 0
    assert dict(s.result.distress) == {"ada": 1} and s.result.nightmares == ("ada",)
    (point, reading, other), *_ = s.divergences
    assert (point, reading) == ("kaelyfos/attack-removal", "removed-from-play")
    assert (other.supply, other.removed_from_play) == (5, 1)


def test_ruling_settles_attack_removal() -> None:
    s = step(
        position(explorers={"ada": "bony-protrusion"}, bloodsuckers={"exterior-orifice": 1}),
        {"kaelyfos/attack-removal": "removed-from-play"},
    )
    assert (s.result.supply, s.result.removed_from_play) == (5, 1)
    assert all(p != "kaelyfos/attack-removal" for p, _, _ in s.divergences)


def test_equal_dots_leave_a_choice_not_a_silent_pick() -> None:
    # ada and ben are both 1 away from the exterior orifice; its exits toward both carry
    # 2 dots: the rulebook does not say which way the bloodsucker goes.
    s = step(
        position(
            explorers={"ada": "bony-protrusion", "ben": "exterior-facedown-2"},
            bloodsuckers={"exterior-orifice": 1},
        )
    )
    (decision, results), *rest = s.choices
    assert decision.point == "kaelyfos/pheromone-tie" and not rest
    assert decision.labels == ("toward bony-protrusion", "toward exterior-facedown-2")
    assert [dict(r.distress) for r in results] == [{"ada": 1, "ben": 0}, {"ada": 0, "ben": 1}]
    assert results[0] == s.result


def test_more_dots_break_the_tie() -> None:
    # From the exterior orifice, ben (bony protrusion) is 1 away, and so is ada (interior
    # orifice). Dots: 2 toward the bony protrusion, 3 toward the interior orifice -> ada.
    s = step(
        position(
            explorers={"ada": "interior-orifice", "ben": "bony-protrusion"},
            bloodsuckers={"exterior-orifice": 1},
        )
    )
    assert dict(s.result.distress) == {"ada": 1, "ben": 0}
    assert s.choices == ()


def test_trap_strictly_nearer_draws_and_a_tie_is_a_reading() -> None:
    # From the interior orifice: ada on the vesicle cluster is 1 away, the trap on the
    # exterior orifice also 1. "If a trap is nearer than any explorer" - it is not nearer,
    # so by default the bloodsucker hunts ada; under the reading 'trap' it is caught.
    p = position(
        explorers={"ada": "vesicle-cluster"},
        bloodsuckers={"interior-orifice": 1},
        traps=(Trap("exterior-orifice"),),
    )
    s = step(p)
    assert dict(s.result.distress) == {"ada": 1}
    assert s.result.traps == (Trap("exterior-orifice", 0),)
    other = dict(((pt, r), res) for pt, r, res in s.divergences)[
        ("kaelyfos/trap-distance-tie", "trap")
    ]
    assert other.traps == (Trap("exterior-orifice", 1),) and dict(other.distress) == {"ada": 0}


def test_trap_catches_even_with_an_explorer_present() -> None:
    # ada stands on the trap's node; the bloodsucker from bony-protrusion enters it and is
    # "instantly trapped (even if explorers are also present)", so ada takes no distress.
    s = step(
        position(
            explorers={"ada": "exterior-orifice"},
            bloodsuckers={"bony-protrusion": 1},
            traps=(Trap("exterior-orifice"),),
        )
    )
    assert s.result.traps == (Trap("exterior-orifice", 1),)
    assert dict(s.result.distress) == {"ada": 0}
    # FAQ: caught bloodsuckers "count as bloodsuckers where effects are concerned".
    readings = {(p, r): res for p, r, res in s.divergences}
    yes = readings["kaelyfos/trapped-attack", "yes"]
    assert dict(yes.distress) == {"ada": 1} and yes.traps == (Trap("exterior-orifice", 0),)


def test_second_catch_destroys_the_trap() -> None:
    # "If a trap has caught 2 bloodsuckers it is destroyed. Return it and the bloodsuckers
    # to the supply": 4 + 2 = 6, no trap left.
    s = step(position(bloodsuckers={"bony-protrusion": 1}, traps=(Trap("exterior-orifice", 1),)))
    assert s.result.traps == () and _free(s.result) == {} and s.result.supply == 6


def test_who_moves_first_is_an_open_choice() -> None:
    # Two bloodsuckers next to a trap that has caught 1: the first in is caught and
    # destroys it; the second then has no target and stays. Which one is caught?
    s = step(
        position(
            bloodsuckers={"bony-protrusion": 1, "exterior-facedown-2": 1},
            traps=(Trap("exterior-orifice", 1),),
        )
    )
    (decision, results), *_ = s.choices
    assert decision.point == "kaelyfos/move-order"
    assert [_free(r) for r in results] == [{"exterior-facedown-2": 1}, {"bony-protrusion": 1}]


def test_spawning_stops_when_the_supply_is_empty() -> None:
    # Supply 1, spawn C, B, A: only C (glowing-fold) gets a bloodsucker. Move 0.
    s = step(position(spawn=("C", "B", "A"), move=0, supply=1))
    assert _free(s.result) == {"glowing-fold": 1} and s.result.supply == 0


def test_all_explorers_on_the_scarab_and_no_trap_nothing_moves() -> None:
    # FAQ: "If all explorers are on the Scarab and no traps are built, the bloodsucks will
    # not move." Nor do they attack the explorers there.
    s = step(
        position(
            explorers={"ada": "scarab", "ben": "scarab"},
            bloodsuckers={"glowing-fold": 2},
            move=3,
        )
    )
    assert _free(s.result) == {"glowing-fold": 2} and s.result.nightmares == ()


def test_one_waking_nightmare_however_many_attacks() -> None:
    # Two bloodsuckers on ada's node: 2 distress, but "only 1 waking nightmare per turn".
    s = step(position(explorers={"ada": "bony-protrusion"}, bloodsuckers={"bony-protrusion": 2}))
    assert dict(s.result.distress) == {"ada": 2} and s.result.nightmares == ("ada",)


def test_crew_decides_who_takes_the_distress() -> None:
    s = step(
        position(
            explorers={"ada": "bony-protrusion", "ben": "bony-protrusion"},
            bloodsuckers={"bony-protrusion": 1},
        )
    )
    (decision, results), *_ = s.choices
    assert decision.point is None
    assert decision.labels == ("ada 1, ben 0", "ada 0, ben 1")
    assert [r.nightmares for r in results] == [("ada",), ("ben",)]


def test_scarab_as_a_shortcut_is_a_reading() -> None:
    # glowing-fold to ada on bony-protrusion: 3 steps around (via exterior-facedown-2),
    # 2 through the Scarab. Move 1.
    s = step(position(explorers={"ada": "bony-protrusion"}, bloodsuckers={"glowing-fold": 1}))
    assert _free(s.result) == {"exterior-facedown-2": 1}
    other = {(p, r): res for p, r, res in s.divergences}["kaelyfos/scarab-passable", "yes"]
    assert _free(other) == {"scarab": 1}


def test_stop_at_the_explorer_or_move_onward() -> None:
    # Move 2 from the exterior orifice: ada (interior orifice, 3 dots) and ben (bony
    # protrusion, 2 dots) are both 1 away, so it goes to ada. With a step left it stops
    # there (default) or, reading 'onward', passes ada and heads for ben, 2 away: one step
    # back to the exterior orifice.
    s = step(
        position(
            explorers={"ada": "interior-orifice", "ben": "bony-protrusion"},
            bloodsuckers={"exterior-orifice": 1},
            move=2,
        )
    )
    assert dict(s.result.distress) == {"ada": 1, "ben": 0}
    onward = {(p, r): res for p, r, res in s.divergences}["kaelyfos/stop-at-explorer", "onward"]
    assert _free(onward) == {"exterior-orifice": 1} and onward.nightmares == ()


def test_spawn_onto_a_trap() -> None:
    # Spawn B onto bony-protrusion, which holds a trap. Move 0 so nothing else happens.
    s = step(position(spawn=("B",), move=0, traps=(Trap("bony-protrusion"),)))
    assert _free(s.result) == {"bony-protrusion": 1}
    caught = {(p, r): res for p, r, res in s.divergences}["kaelyfos/spawn-into-trap", "caught"]
    assert caught.traps == (Trap("bony-protrusion", 1),) and _free(caught) == {}


def test_face_down_cards_closed_leave_an_explorer_out_of_reach() -> None:
    # ada on a face-down card: under 'no' nothing can reach her and the bloodsucker stays.
    s = step(
        position(explorers={"ada": "exterior-facedown-2"}, bloodsuckers={"exterior-orifice": 1}),
        {"kaelyfos/unrevealed-passable": "no"},
    )
    assert _free(s.result) == {"exterior-orifice": 1}
    assert step(
        position(explorers={"ada": "exterior-facedown-2"}, bloodsuckers={"exterior-orifice": 1})
    ).result.nightmares == ("ada",)


def test_a_spent_budget_keeps_the_result_and_says_the_rest_is_cut() -> None:
    # The same position as above: attack-removal parts, so the full step has a divergence.
    from ruleslawyer.budget import Budget

    pos = position(explorers={"ada": "bony-protrusion"}, bloodsuckers={"exterior-orifice": 1})
    full = step(pos)
    cut = step(pos, budget=Budget(max_seconds=1e-9))
    assert full.finished and not cut.finished
    assert cut.result == full.result  # the result under the readings in force is exact
    assert set(cut.divergences) <= set(full.divergences) and not cut.divergences
    assert cut.to_json()["finished"] is False


def test_step_cli_budget_exits_3_with_finished_false(tmp_path) -> None:
    import json
    from pathlib import Path

    from click.testing import CliRunner

    from ruleslawyer.cli.main import cli

    example = Path(__file__).resolve().parents[2] / "examples" / "kaelyfos" / "pheromone-tie.toml"
    runner = CliRunner()
    full = runner.invoke(cli, ["kaelyfos", "step", str(example), "--format", "json"])
    cut = runner.invoke(
        cli, ["kaelyfos", "step", str(example), "--format", "json", "--max-seconds", "1e-9"]
    )
    assert full.exit_code == 0 and json.loads(full.stdout)["finished"] is True
    assert cut.exit_code == 3, cut.output
    out = json.loads(cut.stdout)
    assert out["finished"] is False and out["result"] == json.loads(full.stdout)["result"]
    text = runner.invoke(cli, ["kaelyfos", "step", str(example), "--max-seconds", "1e-9"])
    assert text.exit_code == 3 and "finished: false" in text.stdout


def test_free_on_a_trap_stays_or_hunts() -> None:
    # Spawn B onto bony-protrusion, which holds a trap; ada is one node away on
    # exterior-orifice; move 1. Under spawn-into-trap=not-caught it is free on the trap's
    # node. "If a trap is nearer than any explorer, bloodsuckers will move toward the
    # trap": the trap underneath (distance 0) is nearer than ada (1), so it stays (stays);
    # or the trap it did not move onto does not draw it and it hunts ada (hunts), gives
    # her a distress and returns to the supply.
    start = position(
        explorers={"ada": "exterior-orifice"},
        spawn=("B",),
        move=1,
        traps=(Trap("bony-protrusion"),),
    )
    s = step(start)
    assert _free(s.result) == {"bony-protrusion": 1} and dict(s.result.distress) == {"ada": 0}
    hunts = {(p, r): res for p, r, res in s.divergences}["kaelyfos/free-on-trap", "hunts"]
    assert _free(hunts) == {} and dict(hunts.distress) == {"ada": 1}
    assert hunts.traps == (Trap("bony-protrusion"),)


def test_legality_agrees_with_the_default_readings() -> None:
    # The default readings leave a spawned bloodsucker free on a trap's nest, so the
    # legality test must accept that position; under both "caught" readings it cannot
    # happen.
    from ruleslawyer.models.kaelyfos.setup import illegal as every_problem

    def illegal(p, readings=None) -> list[str]:  # where the pieces stand (not the card)
        return [x for x in every_problem(p, readings) if not x.startswith("card ")]

    after = position(bloodsuckers={"bony-protrusion": 1}, traps=(Trap("bony-protrusion"),))
    assert illegal(after) == []
    caught = {"kaelyfos/spawn-into-trap": "caught", "kaelyfos/build-on-bloodsuckers": "caught"}
    assert illegal(after, caught) == ["free bloodsuckers on bony-protrusion"]
    # Built under it (build-on-bloodsuckers=not-caught): any trap's node, a nest or not.
    off_nest = position(bloodsuckers={"exterior-orifice": 1}, traps=(Trap("exterior-orifice"),))
    assert illegal(off_nest) == []
    assert illegal(off_nest, {"kaelyfos/build-on-bloodsuckers": "caught"}) != []
