"""Twist of Fate: the tiered engine on Dask against the in-memory solver, side by side.

Run from the repository root:

    .venv/bin/python benchmarks/twist_of_fate_tiers.py [--positions 3p-9 2p-10]
        [--workers 2] [--max-seconds 1800] [--work-dir DIR]

Runs ``ruleslawyer twist-of-fate solve`` on each position with ``--engine memory``
and then ``--engine dask --workers N`` (a local cluster of N worker processes,
4 GiB each), one after the other in the same run, each in its own process. Prints
seconds, states, states/s, finished, the client's peak resident memory (GNU
time), and for the tiered engine its per-tier state counts, bytes written, disk
used at the end and each worker's peak resident memory; and whether the two
engines' answers are identical. The dask run keeps its tier files in
``--work-dir`` (so an unfinished one can be continued with ``--resume``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POSITIONS = ROOT / "ruleslawyer" / "data" / "positions"
BIN = Path(sys.executable).parent


def run(args: list[str]) -> tuple[dict, int]:
    """The JSON report of one solve, and the peak resident memory of its process (bytes)."""
    cmd = [
        "/usr/bin/time",
        "-f",
        "%M",
        str(BIN / "ruleslawyer"),
        "twist-of-fate",
        "solve",
        "--model",
        "paranoid",
        *args,
    ]
    done = subprocess.run([*cmd, "--format", "json"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr[-2000:]}")
    return json.loads(done.stdout), int(done.stderr.strip().splitlines()[-1]) * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", nargs="+", default=["3p-9", "2p-10"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=1800)
    parser.add_argument("--work-dir", type=Path, default=Path("/tmp/ruleslawyer-tiers-bench"))
    parser.add_argument("--skip-memory", action="store_true")
    opts = parser.parse_args()
    mib = 2**20
    for name in opts.positions:
        path = str(POSITIONS / f"twist-of-fate-{name}.toml")
        budget = ["--max-seconds", str(opts.max_seconds)]
        memory = None
        if not opts.skip_memory:
            memory, rss = run([path, *budget, "--max-memory", "7"])
            print(
                f"{name} memory: {memory['seconds']:.1f} s, {memory['states']:,} states, "
                f"{memory['states'] / memory['seconds']:,.0f} states/s, "
                f"finished {memory['finished']}, peak {rss / mib:,.0f} MiB"
            )
        work = opts.work_dir / name
        shutil.rmtree(work, ignore_errors=True)
        tiered, rss = run(
            [
                path,
                *budget,
                "--engine",
                "dask",
                "--workers",
                str(opts.workers),
                "--work-dir",
                str(work),
            ]
        )
        peaks = ", ".join(f"{b / mib:,.0f}" for b in tiered["peak_memory_per_worker"].values())
        print(
            f"{name} dask --workers {opts.workers}: {tiered['seconds']:.1f} s, "
            f"{tiered['states']:,} states, {tiered['states'] / tiered['seconds']:,.0f} states/s, "
            f"finished {tiered['finished']}, client peak {rss / mib:,.0f} MiB, "
            f"worker peaks {peaks} MiB"
        )
        print(f"  states per tier: {[t['states'] for t in tiered['tiers']]}")
        print(
            f"  bytes written {tiered['bytes_written'] / mib:,.0f} MiB, "
            f"disk at the end {tiered['disk_bytes'] / mib:,.0f} MiB"
        )
        if memory is not None and memory["finished"] and tiered["finished"]:
            same = all(tiered[k] == memory[k] for k in memory if k != "seconds")
            print(f"  identical answers: {same}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
