"""Benchmark: ``cunning-folk balance`` beside a plain reference in the same run.

Run from the repository root:
``python benchmarks/cunning_folk_balance.py [--games 200] [--scoundrel-games 200] [--cli]``.

Rows: ``balance s`` for ``--games`` seeded 3-player games, per setup and seat policies.
The reference row is the same games' count under the random policy (the cost of playing
the games on the state machine with no deduction); the deduce rows add, at each of their
decisions, the exact worlds of ``cunning-folk deduce`` over the seat's log so far. The
last line (with ``--cli``) is the CLI wall time of ``ruleslawyer cunning-folk balance
--games N --setup standard`` in a fresh process.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruleslawyer.models.cunning_folk.play import Table  # noqa: E402
from ruleslawyer.models.cunning_folk.village import (  # noqa: E402
    bonus_setup,
    scoundrel_setup,
    standard_setup,
)
from ruleslawyer.solvers.cunning_folk.balance import balance  # noqa: E402

NAMES = ["P1", "P2", "P3"]
BONUS = ["liar", "pirate", "vagrant"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--scoundrel-games", type=int, default=200)
    parser.add_argument("--cli", action="store_true", help="also time the CLI")
    args = parser.parse_args()
    scoundrels = (Table(scoundrel_setup(3), 3), {"setup": "scoundrels", "players": NAMES})
    standard = (Table(standard_setup(), 3), {"setup": "standard", "players": NAMES})
    bonus = (Table(bonus_setup(BONUS), 3), {"setup": "bonus", "bonus": BONUS, "players": NAMES})
    rows = (
        ("reference: random", standard, ["random"] * 3, args.games),
        ("deduce x3", standard, ["deduce"] * 3, args.games),
        ("deduce x3", bonus, ["deduce"] * 3, args.games),
        ("reference: random", scoundrels, ["random"] * 3, args.scoundrel_games),
        ("deduce x3", scoundrels, ["deduce"] * 3, args.scoundrel_games),
    )
    print(
        "| setup | policies | games | `balance` s | CPU s | mean moves | good | evil | refuted "
        "| ostracism | unended |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"(load average before the run: {' '.join(os.getloadavg().__repr__()[1:-1].split(', '))})"
    )
    for label, (table, head), policies, games in rows:
        start, cpu = time.perf_counter(), time.process_time()
        r = balance(table, head, policies, games, 0)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        o = {k: v["wins"] for k, v in r["outcomes"].items()}
        print(
            f"| {r['setup']} | {label} | {r['games']} | {seconds:.1f} | {cpu:.1f} | "
            f"{r['mean_moves']} | "
            f"{o['good']} | {o['evil']} | {o['refuted']} | {o['ostracism']} | {o['unended']} |"
        )
    if not args.cli:
        return
    cli = [sys.executable, "-m", "ruleslawyer", "cunning-folk", "balance"]
    start = time.perf_counter()
    subprocess.run(
        [*cli, "--games", str(args.games), "--setup", "standard"],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    print(
        f"CLI `balance --games {args.games} --setup standard`: {time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
