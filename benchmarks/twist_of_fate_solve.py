"""Twist of Fate: the Numba solver against the plain-Python reference, side by side.

Run from the repository root:

    /work/venv/bin/python benchmarks/twist_of_fate_solve.py [--reference-seconds 20]
        [--long-seconds 600] [--skip-twelve] [--repeat 5]

Prints, for the committed positions in ruleslawyer/data/positions/: states, seconds,
states/s, end states and finished, for both solvers where the reference is run
(it gets a time budget and reports its rate on the partial search), the Numba
solver both with its default threads and with one thread there; the Numba
compile time cold (fresh cache directory) and warm (same directory again); and
the peak resident memory of each run (each solve runs in its own process). The
Numba solver's rows for 3p-6 and 3p-9 are the median of ``--repeat`` runs (timings
on a shared machine vary by tens of per cent), and every run's time is listed. It
may use 7 GiB of tables here (the target allows 8 GB); the CLI's default is 5 GiB.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from old_layout import SHIM

ROOT = Path(__file__).resolve().parents[1]
POSITIONS = ROOT / "ruleslawyer" / "data" / "positions"

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
%%SHIM%%
from ruleslawyer.budget import Budget
from ruleslawyer.models.twist_of_fate.play import Rules
from ruleslawyer.models.twist_of_fate.files import load_position
solver, path, seconds, threads = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
if solver == "numba":
    from ruleslawyer.solvers.twist_of_fate.memory import solve
else:
    from ruleslawyer.solvers.twist_of_fate.reference.solve import solve
position = load_position(path)
began = time.perf_counter()
stats = {{}}
kwargs = {{}}
if solver == "numba":
    kwargs = {{"stats": stats, "max_table_bytes": 7 << 30, "threads": int(threads) or None}}
result = solve(position, Rules(), Budget(max_seconds=seconds), **kwargs)
wall = time.perf_counter() - began
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
stopped = stats.get("stopped", "time" if not result.finished else "")
out = {{"result": result.to_json(), "wall": wall, "peak_bytes": peak, "stopped": stopped,
       "threads": stats.get("threads", 1)}}
print(json.dumps(out))
"""


def run(
    solver: str, position: Path, seconds: float, cache: str | None = None, threads: int = 0
) -> dict:
    """One solve in a fresh process; ``threads`` 0 is the solver's default."""
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    code = CHILD.format(root=str(ROOT)).replace("%%SHIM%%", SHIM)
    out = subprocess.run(
        [sys.executable, "-c", code, solver, str(position), str(seconds), str(threads)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def row(label: str, solver: str, data: dict) -> str:
    r = data["result"]
    rate = r["states"] / r["seconds"] if r["seconds"] else 0.0
    return (
        f"| {label} | {solver} | {r['states']:,} | {r['seconds']:.2f} | {rate:,.0f} | "
        f"{r['end_states'] if r['end_states'] is not None else '-'} | "
        f"{'yes' if r['finished'] else 'no (' + data['stopped'] + ')'} | "
        f"{data['peak_bytes'] / 2**20:,.0f} MiB |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference-seconds", type=float, default=20.0)
    parser.add_argument("--long-seconds", type=float, default=600.0)
    parser.add_argument("--skip-twelve", action="store_true")
    parser.add_argument(
        "--repeat", type=int, default=5, help="runs of the Numba solver on 3p-6 and 3p-9"
    )
    args = parser.parse_args()

    print("## Numba compile time (a one-card position, own process each)")
    tiny = POSITIONS / "twist-of-fate-3p-6.toml"
    with tempfile.TemporaryDirectory() as cache:
        began = time.perf_counter()
        run("numba", tiny, 60, cache)
        cold = time.perf_counter() - began
        began = time.perf_counter()
        run("numba", tiny, 60, cache)
        warm = time.perf_counter() - began
    print(f"cold (empty cache): {cold:.1f} s wall; warm (cache=True hit): {warm:.1f} s wall")
    print("(both include interpreter start-up and a 164k-state search)")
    print()
    run("numba", tiny, 60)  # fill the default cache, so no row below includes a compile
    header = (
        "| position | solver | states | seconds | states/s | end_states | finished | peak RSS |\n"
        "|---|---|---|---|---|---|---|---|"
    )
    print(header)
    rates = {}
    spreads: dict[str, str] = {}
    for name, ref_too, budget in (
        ("3p-6", True, 600.0),
        ("3p-9", True, 600.0),
        ("2p-10", False, args.long_seconds),
        ("3p-12", False, args.long_seconds),
    ):
        if name == "3p-12" and args.skip_twelve:
            continue
        path = POSITIONS / f"twist-of-fate-{name}.toml"
        runs = [run("numba", path, budget) for _ in range(args.repeat if ref_too else 1)]
        runs.sort(key=lambda data: data["result"]["seconds"])
        fast = runs[len(runs) // 2]  # the median run
        print(row(name, f"numba ({fast['threads']} threads)", fast), flush=True)
        if len(runs) > 1:
            times = ", ".join(f"{data['result']['seconds']:.2f}" for data in runs)
            label = f"numba ({fast['threads']} threads)"
            spreads[name] = f"{name}: {label}, {len(runs)} runs: {times} s"
        rates[(name, "numba")] = fast["result"]["states"] / fast["result"]["seconds"]
        if ref_too:
            one = run("numba", path, budget, threads=1)
            print(row(name, "numba (1 thread)", one), flush=True)
            rates[(name, "numba-1")] = one["result"]["states"] / one["result"]["seconds"]
            slow = run("reference", path, args.reference_seconds)
            print(row(name, "reference", slow), flush=True)
            rates[(name, "reference")] = slow["result"]["states"] / slow["result"]["seconds"]
    print()
    print("The rows above are the median of the runs; each run's seconds, shortest first:")
    for line in spreads.values():
        print(line)
    print()
    for name in ("3p-6", "3p-9"):
        if (name, "reference") in rates:
            ratio = rates[(name, "numba")] / rates[(name, "reference")]
            single = rates[(name, "numba-1")] / rates[(name, "reference")]
            print(
                f"{name}: numba / reference states per second = {ratio:,.0f}x "
                f"({single:,.0f}x with one thread)"
            )


if __name__ == "__main__":
    main()
