"""Rule fidelity: known answers worked out by hand from the rulebook's sentences.

The built-in (assumed) board, as far as these tests use it:

    glowing-fold - exterior-facedown-2 - exterior-orifice - interior-orifice - vesicle-cluster
    bony-protrusion - exterior-orifice;  scarab - glowing-fold, bony-protrusion
"""

from __future__ import annotations

import itertools
import time

from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.kaelyfos.resolve import Trap, step
from tests.kaelyfos.helpers import position

ONWARD = {"kaelyfos/stop-at-explorer": "onward"}


def _free(move: int, traps: tuple[Trap, ...] = ()) -> dict[str, int]:
    # One bloodsucker with ada on the exterior orifice, ben on the vesicle cluster.
    p = position(
        explorers={"ada": "exterior-orifice", "ben": "vesicle-cluster"},
        bloodsuckers={"exterior-orifice": 1},
        traps=traps,
        move=move,
    )
    return dict(step(p, ONWARD).result.bloodsuckers)


def test_onward_trap_only_when_nearer_than_the_explorer_on_its_own_node() -> None:
    # Move: "If a trap is nearer than any explorer, bloodsuckers will move toward the trap."
    # ada stands on the bloodsucker's own node (distance 0): the trap on the bony
    # protrusion (distance 1) is not nearer than her, so under onward the bloodsucker
    # passes ada and heads for ben: one step to the interior orifice. (Today's main sent
    # it into the trap.)
    p = position(
        explorers={"ada": "exterior-orifice", "ben": "vesicle-cluster"},
        bloodsuckers={"exterior-orifice": 1},
        traps=(Trap("bony-protrusion", 0),),
        move=1,
    )
    result = step(p, ONWARD).result
    assert dict(result.bloodsuckers) == {"interior-orifice": 1}
    assert result.traps == (Trap("bony-protrusion", 0),)


def test_onward_never_turns_back_to_an_explorer_it_passed() -> None:
    # Passing ada on the exterior orifice, the bloodsucker heads for ben (2 steps). After
    # one step, on the interior orifice, ada and ben are both 1 away: it must not turn
    # back to ada. Move 2 reaches ben and any larger move ends there too (no one is left
    # to hunt): the end never swings back as the move value grows. (Today's main: move 2
    # ends back on the exterior orifice, move 3 on the interior orifice.)
    assert _free(1) == {"interior-orifice": 1}
    for move in (2, 3, 4, 7):
        assert _free(move) == {}  # it attacked ben on the vesicle cluster
    p = position(
        explorers={"ada": "exterior-orifice", "ben": "vesicle-cluster"},
        bloodsuckers={"exterior-orifice": 1},
        move=5,
    )
    assert dict(step(p, ONWARD).result.distress) == {"ada": 0, "ben": 1}


def test_onward_with_a_huge_move_is_quick() -> None:
    # Issue 16: a move of 10^9 under onward ran for minutes. A walk stops once no one is
    # left to hunt, so the result is the move-2 result, at once.
    started = time.monotonic()
    assert _free(10**9) == {}
    assert time.monotonic() - started < 2


def _step(tmp_path, text: str, *args: str):
    path = tmp_path / "p.toml"
    path.write_text(text, "utf-8")
    return CliRunner().invoke(cli, ["kaelyfos", "step", str(path), *args])


POSITION = """board = "kaelyfos"
nests = { A = "glowing-fold", B = "bony-protrusion", C = "vesicle-cluster" }
supply = 5
explorers = { ada = "exterior-orifice", ben = "vesicle-cluster" }
bloodsuckers = { "exterior-orifice" = 1 }
[card]
spawn = []
move = MOVE
"""


def test_step_move_limit_is_one_line(tmp_path) -> None:
    run = _step(tmp_path, POSITION.replace("MOVE", str(10**9)))
    assert run.exit_code == 2
    assert len(run.output.strip().splitlines()) == 1
    assert "card.move" in run.output and "1000" in run.output


def test_step_largest_move_under_onward_finishes(tmp_path) -> None:
    started = time.monotonic()
    run = _step(
        tmp_path,
        POSITION.replace("MOVE", "1000"),
        "--ruling",
        "kaelyfos/stop-at-explorer=onward",
        "--format",
        "json",
    )
    assert run.exit_code == 0, run.output
    assert time.monotonic() - started < 5


def _line_board(n: int) -> str:
    """A board of ``n`` nodes: the Scarab, three nests, two orifices, then a long line."""
    lines = ['name = "line"', 'provenance = "placeholder"', "supply = 4"]
    nodes = [
        ("scarab", "exterior", "scarab = true"),
        ("a", "exterior", "nest_site = true"),
        ("b", "exterior", "nest_site = true\nbuild_sites = 1"),
        ("c", "exterior", "nest_site = true"),
        ("eo", "exterior", "orifice = true"),
        ("io", "interior", "orifice = true"),
    ]
    nodes += [(f"n{i}", "interior", "") for i in range(n - len(nodes))]
    for node_id, side, extra in nodes:
        lines += ["[[node]]", f'id = "{node_id}"', f'side = "{side}"', extra]
    ids = [x[0] for x in nodes]
    for u, v in itertools.pairwise(ids):
        lines += ["[[edge]]", f'between = ["{u}", "{v}"]']
    return "\n".join(lines) + "\n"


def test_board_over_the_size_limit_is_refused_in_one_line(tmp_path) -> None:
    path = tmp_path / "big.toml"
    path.write_text(_line_board(201), "utf-8")
    run = CliRunner().invoke(cli, ["check", str(path)])
    assert run.exit_code == 2
    (line,) = run.output.strip().splitlines()
    assert "node" in line and "201 nodes" in line and "at most 200" in line


def test_largest_board_reaches_its_budget_quickly(tmp_path) -> None:
    # 200 nodes (the limit): setup must not take minutes before the first budget check.
    path = tmp_path / "line.toml"
    path.write_text(_line_board(200), "utf-8")
    started = time.monotonic()
    run = CliRunner().invoke(cli, ["check", str(path), "--max-seconds", "2", "--format", "json"])
    assert run.exit_code in (0, 1), run.output
    assert time.monotonic() - started < 20


# -- the new rule points, by hand ---------------------------------------------------------


def _with(p, **changes):
    from dataclasses import replace

    return replace(p, **changes)


def _readings(p, point: str) -> dict[str, object]:
    from ruleslawyer.models.kaelyfos.points import POINTS_BY_ID

    return {r: step(p, {point: r}).result for r in POINTS_BY_ID[point].reading_names}


def test_build_on_a_node_with_bloodsuckers() -> None:
    # ada on the glowing fold with a free bloodsucker there builds a trap (Traps: "you may
    # build a trap as a free action"), then a card with no spawn and move 0 attacks.
    # not-caught: it did not move onto the trap, stays free and attacks ada.
    # caught: trapped at once; caught bloodsuckers do not attack (trapped-attack=no).
    from ruleslawyer.models.kaelyfos.resolve import Action

    p = position(explorers={"ada": "glowing-fold"}, bloodsuckers={"glowing-fold": 1}, move=0)
    p = _with(p, actions=(Action("build", "ada"),))
    r = _readings(p, "kaelyfos/build-on-bloodsuckers")
    assert dict(r["not-caught"].distress) == {"ada": 1}
    assert r["not-caught"].traps == (Trap("glowing-fold", 0),)
    assert dict(r["caught"].distress) == {"ada": 0}
    assert r["caught"].traps == (Trap("glowing-fold", 1),)
    assert r["caught"].trap_tokens == r["not-caught"].trap_tokens == 1  # 2 tokens, 1 built


def test_destroying_a_trap_as_a_free_action() -> None:
    # FAQ: "You may destroy a trap on your node (and any bloodsuckers on it)". The caught
    # bloodsucker goes to the supply (as "Return it and the bloodsuckers to the supply")
    # or out of play; the token comes back (2 available) or is spent (1 available).
    from ruleslawyer.models.kaelyfos.resolve import Action

    p = position(explorers={"ada": "glowing-fold"}, traps=(Trap("glowing-fold", 1),), move=0)
    p = _with(p, actions=(Action("destroy", "ada"),))
    where = _readings(p, "kaelyfos/destroyed-bloodsuckers")
    assert (where["supply"].supply, where["supply"].removed_from_play) == (6, 0)
    assert (where["removed-from-play"].supply, where["removed-from-play"].removed_from_play) == (
        5,
        1,
    )
    token = _readings(p, "kaelyfos/destroyed-token")
    assert (token["available"].trap_tokens, token["spent"].trap_tokens) == (2, 1)
    assert token["available"].traps == token["spent"].traps == ()


def test_building_with_no_trap_token_left() -> None:
    # Both bloodsucker trap tokens are on the board; ada on the exterior orifice builds.
    # cannot-build: no trap. doppelganger-token: the board's one doppelganger token.
    from ruleslawyer.models.kaelyfos.resolve import Action

    p = position(
        explorers={"ada": "exterior-orifice"},
        traps=(Trap("glowing-fold"), Trap("bony-protrusion")),
        move=0,
    )
    p = _with(p, actions=(Action("build", "ada"),))
    r = _readings(p, "kaelyfos/out-of-trap-tokens")
    # (a result lists its traps by node id)
    assert [t.node for t in r["cannot-build"].traps] == ["bony-protrusion", "glowing-fold"]
    assert Trap("exterior-orifice", 0, True) in r["doppelganger-token"].traps


def test_two_traps_equally_near() -> None:
    # From the exterior orifice, the trap on the glowing fold (via exterior-facedown-2) and
    # the one on the vesicle cluster (via the interior orifice) are both 2 away, no
    # explorer. pheromones: 3 dots toward the interior orifice beat 2. open: no rule; the
    # first exit by node id (exterior-facedown-2) is shown, and the choice is listed.
    p = position(
        bloodsuckers={"exterior-orifice": 1},
        traps=(Trap("glowing-fold"), Trap("vesicle-cluster")),
    )
    r = _readings(p, "kaelyfos/trap-tie")
    assert dict(r["pheromones"].bloodsuckers) == {"interior-orifice": 1}
    assert dict(r["open"].bloodsuckers) == {"exterior-facedown-2": 1}
    choices = step(p, {"kaelyfos/trap-tie": "open"}).choices
    assert [d.point for d, _ in choices] == ["kaelyfos/trap-tie"]


def test_caught_bloodsuckers_move_or_not() -> None:
    # A bloodsucker caught on the glowing fold, ada on the bony protrusion, move 1.
    # no: it stays caught. yes: it leaves its trap toward ada (Scarab closed: via
    # exterior-facedown-2 and the exterior orifice), one step, and is free there.
    p = position(explorers={"ada": "bony-protrusion"}, traps=(Trap("glowing-fold", 1),))
    r = _readings(p, "kaelyfos/caught-move")
    assert r["no"].traps == (Trap("glowing-fold", 1),) and r["no"].bloodsuckers == ()
    assert r["yes"].traps == (Trap("glowing-fold", 0),)
    assert dict(r["yes"].bloodsuckers) == {"exterior-facedown-2": 1}


def test_one_waking_nightmare_per_explorer_or_per_crew() -> None:
    # ada and ben each attacked once (a bloodsucker on each node, move 0).
    # per-explorer: both have a nightmare. per-crew: one, and who is a listed choice.
    p = position(
        explorers={"ada": "glowing-fold", "ben": "bony-protrusion"},
        bloodsuckers={"glowing-fold": 1, "bony-protrusion": 1},
        move=0,
    )
    r = _readings(p, "kaelyfos/nightmare-limit")
    assert r["per-explorer"].nightmares == ("ada", "ben")
    assert r["per-crew"].nightmares == ("ada",)
    (decision, results), *_ = step(p, {"kaelyfos/nightmare-limit": "per-crew"}).choices
    assert decision.labels == ("ada", "ben") and results[1].nightmares == ("ben",)


def test_whose_turn_the_nightmare_limit_counts_in() -> None:
    # It is ada's turn; ben is attacked twice. current-turn: "1 waking nightmare per turn,
    # even if attacked multiple times" binds ben too: 1. own-turn: not ben's turn: 2.
    p = position(
        explorers={"ada": "scarab", "ben": "bony-protrusion"},
        bloodsuckers={"bony-protrusion": 2},
        move=0,
    )
    p = _with(p, turn="ada")
    r = _readings(p, "kaelyfos/nightmare-turn")
    assert r["current-turn"].nightmares == ("ben",)
    assert r["own-turn"].nightmares == ("ben", "ben")
    # ben had one already this turn: none more under current-turn.
    assert step(_with(p, had_nightmare=("ben",))).result.nightmares == ()


ACTIONS = """board = "kaelyfos"
nests = { A = "glowing-fold", B = "bony-protrusion", C = "vesicle-cluster" }
supply = 5
explorers = { ada = "glowing-fold", ben = "bony-protrusion" }
bloodsuckers = { "glowing-fold" = 1 }
turn = "ada"
nightmares = []
actions = [ { action = "build", by = "ACTOR" } ]
[card]
spawn = []
move = 0
"""


def test_step_reads_actions_turn_and_nightmares(tmp_path) -> None:
    import json

    run = _step(tmp_path, ACTIONS.replace("ACTOR", "ada"), "--format", "json")
    assert run.exit_code == 0, run.output
    out = json.loads(run.output)
    assert out["result"]["traps"] == [{"node": "glowing-fold", "caught": 0}]
    assert out["result"]["trap_tokens"] == 1
    points = {d["point"]: d["result"] for d in out["divergences"]}
    assert points["kaelyfos/build-on-bloodsuckers"]["traps"] == [
        {"node": "glowing-fold", "caught": 1}
    ]


def test_step_refuses_an_action_no_explorer_can_take(tmp_path) -> None:
    for actor, expected in (("cat", "actions[0].by"), ("ben", "actions[0].by")):
        text = ACTIONS.replace("ACTOR", actor)
        if actor == "ben":  # ben's node has a build site: make it a destroy with no trap
            text = text.replace('action = "build"', 'action = "destroy"')
        run = _step(tmp_path, text)
        assert run.exit_code == 2
        (line,) = run.output.strip().splitlines()
        assert expected in line and "p.toml" in line


# -- the timeline -------------------------------------------------------------------------


def test_timeline_readings_by_hand() -> None:
    # Triggers on 3 and 6 (Quick Setup). "When the time marker reaches a bloodsucker
    # (triangle) trigger token: reveal and resolve a bloodsucker behavior card."
    from ruleslawyer.models.kaelyfos.points import in_force
    from ruleslawyer.models.kaelyfos.timeline import Timeline, advance

    chosen = in_force()
    deck = ("Swarm", "Hunt")
    # 2 -> 4 passes the trigger on 3: a card under passing-reaches, none if only landing.
    assert advance(Timeline(2, 2, deck), chosen).cards == (("Swarm",),)
    landing = {**chosen, "kaelyfos/trigger-passed": "landing-only"}
    assert advance(Timeline(2, 2, deck), landing).cards == ()
    assert advance(Timeline(2, 1, deck), landing).cards == (("Swarm",),)  # lands on 3
    # 2 -> 6 reaches both triggers: two cards (each), or one (once).
    assert advance(Timeline(2, 4, deck), chosen).cards == (("Swarm",), ("Hunt",))
    once = {**chosen, "kaelyfos/two-triggers": "once"}
    assert advance(Timeline(2, 4, deck), once).cards == (("Swarm",),)
    # An empty deck: nothing (no-card), or any card revealed before (reshuffle).
    # (Reachable only with a third trigger: two cards revealed by the triggers on 3 and 6.)
    empty = Timeline(6, 1, (), ("Swarm", "Hunt"), (3, 6, 7))
    assert advance(empty, chosen).cards == ()
    reshuffle = {**chosen, "kaelyfos/exhausted-deck": "reshuffle"}
    assert advance(empty, reshuffle).cards == (("Hunt", "Swarm"),)
    assert advance(empty, reshuffle).deck == ("?",)


def test_advance_command_end_to_end(tmp_path) -> None:
    import json

    path = tmp_path / "t.toml"
    path.write_text('board = "kaelyfos"\nmarker = 2\nadvance = 4\ndeck = ["Swarm", "Hunt"]\n')
    run = CliRunner().invoke(cli, ["kaelyfos", "advance", str(path), "--format", "json"])
    assert run.exit_code == 0, run.output
    out = json.loads(run.output)
    assert out["result"]["cards"] == [["Swarm"], ["Hunt"]]
    assert {(d["point"], d["reading"]) for d in out["divergences"]} == {
        ("kaelyfos/trigger-passed", "landing-only"),
        ("kaelyfos/two-triggers", "once"),
    }
    path.write_text('board = "kaelyfos"\nmarker = 2\nadvance = 4\ndeck = ["Swarm", "Swarm"]\n')
    run = CliRunner().invoke(cli, ["kaelyfos", "advance", str(path)])
    assert run.exit_code == 2
    (line,) = run.output.strip().splitlines()
    assert "deck[1]" in line and "t.toml" in line


def test_unreachable_timeline_refused(tmp_path) -> None:
    # "When the time marker reaches a bloodsucker (triangle) trigger token: reveal and
    # resolve a bloodsucker behavior card", triggers "on the 3rd and 6th spaces": with the
    # marker on 2 no trigger was reached, so no card can have been revealed yet.
    path = tmp_path / "t.toml"
    path.write_text(
        'board = "kaelyfos"\nmarker = 2\nadvance = 4\ndeck = ["Swarm", "Hunt"]\n'
        'revealed = ["Prowl", "Frenzy"]\n'
    )
    run = CliRunner().invoke(cli, ["kaelyfos", "advance", str(path)])
    assert run.exit_code == 2
    assert run.output.count("\n") == 1 and "Traceback" not in run.output
    assert "revealed: found '2 card(s) with the marker on 2', expected at most 0" in run.output
    # On 3 (one trigger reached) one card may be revealed, not two.
    path.write_text(
        'board = "kaelyfos"\nmarker = 3\nadvance = 3\ndeck = ["Swarm", "Hunt"]\n'
        'revealed = ["Prowl"]\n'
    )
    assert CliRunner().invoke(cli, ["kaelyfos", "advance", str(path)]).exit_code == 0


def test_timeline_search_only_reachable() -> None:
    from ruleslawyer.checks.kaelyfos import timelines
    from ruleslawyer.models.kaelyfos.files import load_board

    board, _ = load_board("kaelyfos", None)
    seen = list(timelines(board))
    assert seen and all(len(t.revealed) <= sum(x <= t.marker for x in t.triggers) for t in seen)
    # Four cards, two triggers: the deck can never be empty when a trigger is reached.
    assert not any(not t.deck for t in seen)
