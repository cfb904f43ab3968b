"""Time `ruleslawyer check kaelyfos`, its search rate, and `ruleslawyer --help`.

Run from the repository root:  python benchmarks/kaelyfos_check.py

Every figure is printed beside a reference measured in the same run:
- the CLI's wall time beside `python -c pass` (interpreter start-up);
- the check's search rate beside the same positions resolved without the walk memo
  (the plain reference solver) on an exhaustive sweep that never stops early.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
REPEAT = 5
SWEEP = 20  # sample every 20th position of the whole search space


def wall(args: list[str]) -> float:
    """Median wall time of running ``args`` REPEAT times."""
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        subprocess.run(args, cwd=ROOT, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def in_process() -> tuple[float, int]:
    """Seconds for one full check in this process (cold caches) and positions it visited."""
    from ruleslawyer.budget import Budget
    from ruleslawyer.checks.kaelyfos import check
    from ruleslawyer.gamefiles.source import load_source

    start = time.perf_counter()
    findings = check(load_source("kaelyfos"), {}, Budget())
    seconds = time.perf_counter() - start
    return seconds, max(f.searched or 0 for f in findings)


def sweep(memo: bool) -> float:
    """Positions per second over a sample of the whole search space, every point kept open."""
    from ruleslawyer.checks import kaelyfos as checks
    from ruleslawyer.gamefiles.source import load_source
    from ruleslawyer.graphs.board import parse_board
    from ruleslawyer.models.kaelyfos import move as model

    source = load_source("kaelyfos")
    board = parse_board(source.document, source.display)
    search = checks._Search(board, {}, "kaelyfos")
    saved = model.WALK_MEMO
    model.WALK_MEMO = saved if memo else -1  # -1: the memo is cleared before every walk
    try:
        batch = list(islice(checks.positions(board), 0, None, SWEEP))
        model.geometry(board).walks.clear()
        start = time.process_time()  # CPU time: other processes on the machine do not count
        for position in batch:
            for found in search.found.values():
                found.witness = None  # never settle: resolve every position in full
            search.visit(position)
        return len(batch) / (time.process_time() - start)
    finally:
        model.WALK_MEMO = saved


def main() -> None:
    python = sys.executable
    seconds, visited = in_process()
    warm, _ = in_process()
    print(f"{'measure':<44} {'value':>12}   reference")
    for label, took in (("cold", seconds), ("warm caches", warm)):
        print(
            f"{'check kaelyfos in process, ' + label:<44} {took:>11.3f}s   "
            f"{visited} positions, {visited / took:,.0f} positions/s"
        )
    plain_rate, memo_rate = sweep(False), sweep(True)
    print(
        f"{'exhaustive sweep, positions/s (memoised)':<44} {memo_rate:>12,.0f}   "
        f"plain reference solver {plain_rate:,.0f}/s ({memo_rate / plain_rate:.1f}x)"
    )
    started = wall([python, "-c", "pass"])
    check_wall = wall([python, "-m", "ruleslawyer", "check", "kaelyfos"])
    help_wall = wall([python, "-m", "ruleslawyer", "--help"])
    for label, value in (("check kaelyfos", check_wall), ("--help", help_wall)):
        name = f"ruleslawyer {label} (subprocess)"
        print(f"{name:<44} {value:>11.3f}s   python -c pass {started:.3f}s")


if __name__ == "__main__":
    main()
