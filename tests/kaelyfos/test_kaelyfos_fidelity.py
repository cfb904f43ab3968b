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
from ruleslawyer.models.kaelyfos import Trap, step
from tests.kaelyfos.kaelyfos_helpers import position

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
