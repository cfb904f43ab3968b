"""``kaelyfos advise`` keeps its budget on a large board within the README's limits.

The budget used to be checked once every 16 draws: on a large board one draw (or the
free actions before it: 4 explorers, 100 material, 40 trap tokens, 20 build sites a node
give tens of thousands of tables) took minutes. Now every draw, every card's branch,
every free-action table and every move order checks it. The tests measure work between
two checks, never the wall clock.
"""

from __future__ import annotations

import random
from itertools import pairwise
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.models.kaelyfos.advice_file import load_advice
from ruleslawyer.solvers.kaelyfos import options
from ruleslawyer.solvers.kaelyfos.advise import advise


def _big_board(folder: Path) -> Path:
    """200 nodes, 913 edges, 30 markers, 20 trap tokens of each kind, 20 build sites on
    every face-up node, six cards of 20 spawns and move 1000, 4 explorers, 100 material:
    every count within the README's limits."""
    rng = random.Random(1)
    lines = ['name = "Big"', 'provenance = "placeholder"', "supply = 30", "trap_tokens = 20"]
    lines += ["doppelganger_trap_tokens = 20", "", "[[node]]", 'id = "scarab"']
    lines += ['side = "exterior"', "scarab = true", ""]
    ext, inn = [f"e{i}" for i in range(99)], [f"i{i}" for i in range(100)]
    for side, names in (("exterior", ext), ("interior", inn)):
        for i, n in enumerate(names):
            lines += ["[[node]]", f'id = "{n}"', f'side = "{side}"', "build_sites = 20"]
            if (side == "exterior" and i < 2) or (side == "interior" and i == 0):
                lines.append("nest_site = true")
            if (side == "exterior" and i == 2) or (side == "interior" and i == 1):
                lines.append("orifice = true")
            lines.append("")
    edges: dict[frozenset[str], None] = {frozenset(("scarab", "e0")): None}
    for names in (ext, inn):
        for a, b in pairwise(names):
            edges[frozenset((a, b))] = None
        for _ in range(380):
            edges[frozenset(rng.sample(names, 2))] = None
    edges[frozenset(("e2", "i1"))] = None
    for edge in edges:
        a, b = sorted(edge)
        lines += ["[[edge]]", f'between = ["{a}", "{b}"]', "dots = [1, 0]", ""]
    spawn = ", ".join(['"A"', '"B"', '"C"'] * 6 + ['"A"', '"B"'])
    for k in range(6):
        lines += ["[[behavior]]", f'name = "C{k}"', f"spawn = [{spawn}]", "move = 1000", ""]
    (folder / "board.toml").write_text("\n".join(lines), "utf-8")
    position = folder / "position.toml"
    position.write_text(
        'board = "board.toml"\n'
        'nests = { A = "e0", B = "e1", C = "i0" }\n'
        "supply = 20\n"
        'explorers = { ada = "e5", ben = "e9", cy = "i7", di = "i12" }\n'
        'bloodsuckers = { "e20" = 3, "i30" = 3, "e40" = 2, "i50" = 2 }\n'
        "material = 100\n",
        "utf-8",
    )
    return position


class Checks(Budget):
    """A budget spent after ``allowed`` checks, counting the work done between checks."""

    def __init__(self, allowed: int):
        super().__init__(max_seconds=1e9)
        self.allowed, self.checks, self.work, self.gaps = allowed, 0, 0, []

    def spent(self, states: int = 0) -> bool:
        self.checks += 1
        self.gaps.append(self.work)
        self.work = 0
        return self.checks > self.allowed


@pytest.mark.parametrize("allowed", [50, 2000])
def test_the_budget_is_checked_between_small_pieces_of_work(
    tmp_path: Path, monkeypatch, allowed: int
) -> None:
    # A unit of work is one table of free actions taken (about 0.4 ms on this board): no
    # more than a few hundred of them pass between two checks, and the run stops at the
    # first check past the budget, saying it did not finish.
    loaded = load_advice(_big_board(tmp_path))
    budget = Checks(allowed)
    taken = options.take

    def counting(*args, **kwargs):
        budget.work += 1
        return taken(*args, **kwargs)

    monkeypatch.setattr(options, "take", counting)
    advice = advise(loaded.position, loaded.material, loaded.spent, 1, {}, budget)
    assert not advice.finished
    assert advice.to_json()["finished"] is False
    assert budget.checks == allowed + 1  # stopped at the first spent check
    assert max(budget.gaps) <= 200


def test_cli_stops_with_finished_false(tmp_path: Path) -> None:
    position = _big_board(tmp_path)
    result = CliRunner().invoke(
        cli, ["kaelyfos", "advise", str(position), "--max-seconds", "0.01", "--triggers", "2"]
    )
    assert result.exit_code == 3, result.output
    assert "finished: false" in result.output
    assert "no open rule point re-ranks" not in result.output
