"""Twist of Fate: the tiered engine on Dask against the in-memory solver, side by side.

Run from the repository root:

    .venv/bin/python benchmarks/twist_of_fate_tiers.py [--positions 3p-9 2p-10]
        [--workers 2] [--max-seconds 1800] [--budget 3p-12=1500] [--work-dir DIR]
        [--memory-gib 3] [--no-memory 3p-12]

Runs ``ruleslawyer twist-of-fate solve`` on each position with ``--engine memory``
and then ``--engine dask --workers N`` (a local cluster of N worker processes,
4 GiB each), one after the other in the same run, each in its own process. Prints
seconds, states, states/s, finished, the client's peak resident memory (GNU
time), and for the tiered engine its per-tier state counts, bytes written, disk
used at the end and each worker's peak resident memory; whether the two
engines' answers are identical (end states, guaranteed values, best move, value, moves,
line, states:
"yes" or "NO" and the fields that differ); and at the end a table of both engines
side by side, with CPU seconds (GNU time's user and system, which count a local
cluster's workers). The dask run keeps its tier files in
``--work-dir`` (so an unfinished one can be continued with ``--resume``).
``--budget NAME=SECONDS`` gives one position's runs their own time budget;
``--no-memory NAME`` skips the memory solver on that position. Each line starts
with the time and the machine's load average (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POSITIONS = ROOT / "ruleslawyer" / "data" / "positions"
BIN = Path(sys.executable).parent


def run(args: list[str]) -> tuple[dict, int, float]:
    """The JSON report of one solve, the peak resident memory of its process (bytes),
    and the CPU seconds (user and system) of it and of the processes it waited for
    (the local cluster's workers)."""
    cmd = [
        "/usr/bin/time",
        "-f",
        "%M %U %S",
        str(BIN / "ruleslawyer"),
        "twist-of-fate",
        "solve",
        "--model",
        "paranoid",
        *args,
    ]
    done = subprocess.run([*cmd, "--format", "json"], capture_output=True, text=True, check=False)
    if done.returncode not in (0, 3):  # 3: finished: false (a budget ran out)
        raise SystemExit(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr[-2000:]}")
    rss, user, system = done.stderr.strip().splitlines()[-1].split()
    return json.loads(done.stdout), int(rss) * 1024, float(user) + float(system)


# what "identical answers" compares: the end states, the guaranteed values, the best move
# and (the outcome-ranked paranoid analysis) its value, every move's and the line
ANSWER = (
    "end_states",
    "guaranteed_sanctuary",
    "guaranteed_win",
    "reachable_max_sanctuary",
    "possible_win",
    "best_move",
    "value",
    "moves",
    "line",
    "states",
)


def differences(memory: dict, tiered: dict) -> list[str]:
    """The fields of :data:`ANSWER` in which the two reports differ."""
    return [key for key in ANSWER if memory.get(key) != tiered.get(key)]


def _when() -> str:
    return f"[{time.strftime('%H:%M:%S')} load {os.getloadavg()[0]:.1f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", nargs="+", default=["3p-9", "2p-10"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=1800)
    parser.add_argument("--work-dir", type=Path, default=Path("/tmp/ruleslawyer-tiers-bench"))
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--no-memory", nargs="*", default=[], metavar="NAME")
    parser.add_argument("--budget", nargs="*", default=[], metavar="NAME=SECONDS")
    parser.add_argument("--memory-gib", type=float, default=3.0, help="the memory solver's tables")
    opts = parser.parse_args()
    budgets = {b.split("=")[0]: float(b.split("=")[1]) for b in opts.budget}
    mib = 2**20
    # both engines' Numba kernels compiled and cached before anything is measured
    # (a cold cache costs minutes on a busy machine, inside the first solve's time)
    warm = str(POSITIONS / "twist-of-fate-3p-6.toml")
    run([warm])
    run([warm, "--engine", "dask", "--workers", "0"])
    print(f"{_when()} kernels compiled (3p-6 solved by both engines)")
    rows = []
    for name in opts.positions:
        path = str(POSITIONS / f"twist-of-fate-{name}.toml")
        budget = ["--max-seconds", str(budgets.get(name, opts.max_seconds))]
        memory = None
        if not (opts.skip_memory or name in opts.no_memory):
            memory, rss, cpu = run([path, *budget, "--max-memory", str(opts.memory_gib)])
            rows.append((name, "memory", memory, rss, cpu, ""))
            print(
                f"{_when()} {name} memory: {memory['seconds']:.1f} s, {cpu:.1f} CPU s, "
                f"{memory['states']:,} states, "
                f"{memory['states'] / memory['seconds']:,.0f} states/s, "
                f"finished {memory['finished']}, peak {rss / mib:,.0f} MiB"
            )
        work = opts.work_dir / name
        shutil.rmtree(work, ignore_errors=True)
        dask_args = ["--engine", "dask", "--workers", str(opts.workers), "--work-dir", str(work)]
        tiered, rss, cpu = run([path, *budget, *dask_args])
        peaks = ", ".join(f"{b / mib:,.0f}" for b in tiered["peak_memory_per_worker"].values())
        print(
            f"{_when()} {name} dask --workers {opts.workers}: {tiered['seconds']:.1f} s, "
            f"{cpu:.1f} CPU s (client and workers), "
            f"{tiered['states']:,} states, {tiered['states'] / tiered['seconds']:,.0f} states/s, "
            f"finished {tiered['finished']}, client peak {rss / mib:,.0f} MiB, "
            f"worker peaks {peaks} MiB"
        )
        print(f"  states per tier: {[t['states'] for t in tiered['tiers']]}")
        tasks = tiered.get("task_cpu_seconds_per_worker", {})
        print(
            f"  task CPU s per worker: {tasks}; the rest of the {cpu:.1f} CPU s "
            f"(Dask, the client, start-up, tasks cut by the budget): "
            f"{cpu - sum(tasks.values()):.1f}"
        )
        print(
            f"  bytes written {tiered['bytes_written'] / mib:,.0f} MiB, "
            f"disk at the end {tiered['disk_bytes'] / mib:,.0f} MiB"
        )
        same = ""
        if memory is not None and memory["finished"] and tiered["finished"]:
            diff = differences(memory, tiered)
            same = "yes" if not diff else f"NO ({', '.join(diff)})"
            print(f"  answers identical (end states, guaranteed values, best move): {same}")
        elif memory is not None:
            same = "not compared: " + " and ".join(
                f"{engine} unfinished"
                for engine, rep in (("memory", memory), ("dask", tiered))
                if not rep["finished"]
            )
            print(f"  answers identical: {same}")
        rows.append((name, f"dask --workers {opts.workers}", tiered, rss, cpu, same))
        sys.stdout.flush()
    print(f"\n{_when()} side by side (CPU s: the process and the workers it waited for)")
    print("| position | engine | wall s | CPU s | states | states/s | finished | peak MiB | "
          "answers identical |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    for name, engine, rep, rss, cpu, same in rows:
        if engine != "memory":
            worker_peaks = rep["peak_memory_per_worker"].values()
            peak = f"client {rss / mib:,.0f}, workers " + ", ".join(
                f"{b / mib:,.0f}" for b in worker_peaks
            )
        else:
            peak = f"{rss / mib:,.0f}"
        print(
            f"| {name} | {engine} | {rep['seconds']:.1f} | {cpu:.1f} | {rep['states']:,} | "
            f"{rep['states'] / rep['seconds']:,.0f} | {rep['finished']} | {peak} | {same} |"
        )


if __name__ == "__main__":
    main()
