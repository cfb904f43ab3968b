"""Time `ruleslawyer kaelyfos balance` on the built-in board, beside references.

Run from the repository root:  python benchmarks/kaelyfos_balance.py

Every figure is printed beside a reference measured in the same run:
- the in-process figures (every nest deal and first card; the crew's free actions merged
  by the position they leave, memoised over draws) beside the plain reference (every deal,
  every sequence of free actions in every order before every trigger, every copy of every
  card, nothing merged), which must agree on every deal's figures;
- the CLI's wall time (with the open rule points' figures) beside `python -c pass`.
The start: ada on the bony protrusion, ben on the exterior orifice, 1 material.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from kaelyfos_advise import wall  # run as a script: benchmarks/ is on sys.path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PLACED = (("ada", "bony-protrusion"), ("ben", "exterior-orifice"))
MATERIAL = 1


def in_process(triggers: int) -> tuple[float, float, bool]:
    """Seconds for the figures, for the reference, agreement."""
    from ruleslawyer.budget import Budget
    from ruleslawyer.models.kaelyfos.files import load_board
    from ruleslawyer.models.kaelyfos.points import in_force
    from ruleslawyer.models.kaelyfos.resolve import Card, Position
    from ruleslawyer.solvers.kaelyfos.balance import deal_figures
    from ruleslawyer.solvers.kaelyfos.reference import reference_balance

    board = load_board("kaelyfos")[0]
    chosen = in_force({})
    start = time.perf_counter()
    fast = deal_figures(board, PLACED, True, MATERIAL, triggers, chosen, Budget(), "uniform")
    fast_s = time.perf_counter() - start
    start = time.perf_counter()
    origin = Position(board, (), board.supply, Card((), 0), PLACED)
    plain = reference_balance(origin, MATERIAL, triggers, chosen)
    slow_s = time.perf_counter() - start
    agree = all(
        min(total for total, _ in plain[row.nests].values()) == row.value.key()
        and plain[row.nests][row.actions]
        == (
            row.value.key(),
            {n: v.key() for n, v in row.cards},
        )
        for row in fast.rows
    ) and len(fast.rows) == len(plain)
    return fast_s, slow_s, agree


def main() -> None:
    python = sys.executable
    print("| measure | value | reference in the same run |")
    print("|---|---|---|")
    for triggers in (1, 2, 3):
        fast, slow, agree = in_process(triggers)
        print(
            f"| figures, --triggers {triggers}, 6 deals x 4 cards, in process | {fast:.3f} s "
            f"| brute force: {slow:.3f} s, agree: {'yes' if agree else 'NO'} |"
        )
    base = wall([python, "-c", "pass"])
    places = [a for name, node in PLACED for a in ("--explorer", f"{name}={node}")]
    for triggers in (1, 2):
        cli = [python, "-m", "ruleslawyer", "kaelyfos", "balance", *places]
        cli += ["--material", str(MATERIAL), "--triggers", str(triggers)]
        print(
            f"| `ruleslawyer kaelyfos balance`, --triggers {triggers} (subprocess, with the "
            f"open rule points' figures) | {wall(cli):.2f} s | `python -c pass` {base:.3f} s |"
        )


if __name__ == "__main__":
    main()
