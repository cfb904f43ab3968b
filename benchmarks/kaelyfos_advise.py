"""Time `ruleslawyer kaelyfos advise` on the built-in board, beside references.

Run from the repository root:  python benchmarks/kaelyfos_advise.py

Every figure is printed beside a reference measured in the same run:
- the CLI's wall time (`--triggers 3`, the whole deck left: the target, under 10 s) beside
  `python -c pass` (interpreter start-up);
- the in-process ranking (positions merged, memoised over draws and free actions) beside
  the plain reference (every sequence of free actions in every order before every
  trigger, every copy of every card, nothing merged), which must agree on every option.
The position is examples/kaelyfos/advise.toml with the whole deck left (no card spent).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
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
    """Seconds for the ranking, for the reference, options, agreement."""
    from ruleslawyer.budget import Budget
    from ruleslawyer.models.kaelyfos.advice_file import load_advice
    from ruleslawyer.models.kaelyfos.points import in_force
    from ruleslawyer.solvers.kaelyfos.advise import rank
    from ruleslawyer.solvers.kaelyfos.reference import reference_options

    loaded = load_advice(ROOT / EXAMPLE)
    chosen = in_force({})
    start = time.perf_counter()
    ranking = rank(loaded.position, loaded.material, (), triggers, chosen, Budget())
    fast = time.perf_counter() - start
    start = time.perf_counter()
    plain = reference_options(loaded.position, loaded.material, (), triggers, chosen)
    slow = time.perf_counter() - start
    agree = (
        all(plain[o.actions] == o.value.key() for o in ranking.options)
        and min(plain.values()) == ranking.options[0].value.key()
    )
    return fast, slow, len(ranking.options), agree


def jointly(triggers: int) -> tuple[float, float, int]:
    """CPU seconds for ``advise`` (every combination of the open points' readings) and for
    the ranking alone, with the whole deck left; the combinations checked."""
    from ruleslawyer.budget import Budget
    from ruleslawyer.models.kaelyfos.advice_file import load_advice
    from ruleslawyer.models.kaelyfos.points import in_force
    from ruleslawyer.solvers.kaelyfos.advise import advise, rank

    loaded = load_advice(ROOT / EXAMPLE)
    start = time.process_time()
    rank(loaded.position, loaded.material, (), triggers, in_force({}), Budget())
    ranking = time.process_time() - start
    start = time.process_time()
    advice = advise(loaded.position, loaded.material, (), triggers, {}, Budget())
    assert advice.varied.finished
    return time.process_time() - start, ranking, advice.varied.combinations


def main() -> None:
    python = sys.executable
    print("| measure | value | reference in the same run |")
    print("|---|---|---|")
    for triggers in (2, 3, 4):
        fast, slow, options, agree = in_process(triggers)
        print(
            f"| ranking, --triggers {triggers}, whole deck, in process | {fast:.3f} s "
            f"({options} options) | brute force: {slow:.3f} s, "
            f"agree: {'yes' if agree else 'NO'} |"
        )
    figures = [jointly(triggers) for triggers in (1, 2, 3)]
    print(
        "| `advise` in process, the open rule points varied together (every combination: "
        f"{figures[-1][2]:,}), `spent = []`, `--triggers 1 / 2 / 3` | "
        + " / ".join(f"{a:.1f}" for a, _, _ in figures)
        + " CPU s | the ranking alone in the same run: "
        + " / ".join(f"{r:.3f}" for _, r, _ in figures)
        + " CPU s |"
    )
    base = wall([python, "-c", "pass"])
    with tempfile.TemporaryDirectory() as folder:
        whole = Path(folder) / "advise.toml"
        whole.write_text((ROOT / EXAMPLE).read_text().replace('spent = ["Prowl"]', "spent = []"))
        cli = [python, "-m", "ruleslawyer", "kaelyfos", "advise", str(whole), "--triggers", "3"]
        print(
            f"| `ruleslawyer kaelyfos advise` on {EXAMPLE} with `spent = []`, `--triggers 3` "
            f"(subprocess, with the open rule points' re-rankings) | {wall(cli):.2f} s "
            f"| `python -c pass` {base:.3f} s |"
        )


if __name__ == "__main__":
    main()
