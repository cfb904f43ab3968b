"""Time `ruleslawyer kaelyfos advise --triggers 2` on the built-in board, beside references.

Run from the repository root:  python benchmarks/kaelyfos_advise.py

Every figure is printed beside a reference measured in the same run:
- the CLI's wall time beside `python -c pass` (interpreter start-up);
- the in-process ranking (memoised over draw sequences) beside the plain reference
  (brute force over every order of the deck) on the same options, which must agree.
The position is examples/kaelyfos/advise.toml with the whole deck left (no card spent).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
REPEAT = 3
EXAMPLE = "examples/kaelyfos/advise.toml"


def wall(args: list[str]) -> float:
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        subprocess.run(args, cwd=ROOT, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def in_process(triggers: int) -> tuple[float, float, int, bool]:
    """Seconds for the ranking, for the reference on its options, options, agreement."""
    from ruleslawyer.budget import Budget
    from ruleslawyer.models.kaelyfos.advice_file import load_advice
    from ruleslawyer.models.kaelyfos.points import in_force
    from ruleslawyer.solvers.kaelyfos.advise import rank
    from ruleslawyer.solvers.kaelyfos.reference import reference

    position = load_advice(ROOT / EXAMPLE).position
    chosen = in_force({})
    start = time.perf_counter()
    ranking = rank(position, 1, (), triggers, chosen, Budget())
    fast = time.perf_counter() - start
    start = time.perf_counter()
    plain = [
        reference(replace(position, actions=o.actions), (), triggers, chosen)
        for o in ranking.options
    ]
    slow = time.perf_counter() - start
    agree = plain == [(o.expected, o.worst) for o in ranking.options]
    return fast, slow, len(ranking.options), agree


def main() -> None:
    python = sys.executable
    cli = [python, "-m", "ruleslawyer", "kaelyfos", "advise", EXAMPLE, "--triggers", "2"]
    print("| measure | value | reference in the same run |")
    print("|---|---|---|")
    for triggers in (2, 4):
        fast, slow, options, agree = in_process(triggers)
        print(
            f"| ranking, --triggers {triggers}, whole deck, in process | {fast:.3f} s "
            f"({options} options) | brute force over deck orders: {slow:.3f} s, "
            f"agree: {'yes' if agree else 'NO'} |"
        )
    base = wall([python, "-c", "pass"])
    print(
        f"| `ruleslawyer kaelyfos advise {EXAMPLE} --triggers 2` (subprocess, with the "
        f"open rule points' re-rankings) | {wall(cli):.2f} s | `python -c pass` {base:.3f} s |"
    )


if __name__ == "__main__":
    main()
