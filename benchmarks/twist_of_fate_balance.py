"""Benchmark: ``twist-of-fate balance`` of three-player games beside random agents, one run.

Run from the repository root:
``python benchmarks/twist_of_fate_balance.py [--games 200] [--players 3]``.

Rows: wall and CPU seconds of ``ruleslawyer twist-of-fate balance --players P --games N``
in a fresh process (Numba's compiled solver loaded from its cache, as a user runs it),
first with ``--policy random`` (the reference: the cost of playing the games on the model
with no search), then with the default agent (UCT plus the exact max^n move for each
round's last plies). CPU seconds (the child's user + system time) are what the machine
being shared does not inflate; wall seconds are what a user waits.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(args: list[str]) -> tuple[float, float, dict]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    cli = [sys.executable, "-m", "ruleslawyer", "twist-of-fate", "balance", "--format", "json"]
    done = subprocess.run([*cli, *args], cwd=ROOT, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", default="3")
    args = parser.parse_args()
    common = ["--players", args.players, "--games", str(args.games)]
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}")
    print("| agent | games | wall s | CPU s | mean rounds | mean plies | seat wins | unended |")
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    for label, extra in (("reference: random", ["--policy", "random"]), ("uct+maxn", [])):
        wall, cpu, out = run([*common, *extra])
        for t in out["player_counts"]:
            wins = " / ".join(str(s["wins"]) for s in t["seats"])
            print(
                f"| {label} | {t['games']} | {wall:.1f} | {cpu:.1f} | {t['mean_rounds']} | "
                f"{t['mean_plies']} | {wins} | {t['unended']} |"
            )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
