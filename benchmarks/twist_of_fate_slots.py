"""Twist of Fate: the in-memory solver of this tree beside another tree's, alternately.

Run from the repository root:

    git archive 7f82e48 | tar -x -C /tmp/ruleslawyer-main    # the reference tree
    .venv/bin/python benchmarks/twist_of_fate_slots.py --reference /tmp/ruleslawyer-main
        [--positions 3p-9] [--rounds 3] [--threads 1 2] [--also DIR ...]

Each solve runs in its own process (this tree's Python environment, with the
reference tree first on ``PYTHONPATH`` for its runs), warm (a first untimed solve
of 3p-6 in each tree compiles and caches the kernels). The two trees alternate,
the reference first in odd rounds, so that a change in the machine's load falls
on both. Per run: wall seconds of the search, the process's CPU seconds (user and
system: less moved by other jobs' load than wall time), peak resident memory,
the bytes of the tables, and whether the answer equals the reference's. Then
the medians and their ratios. ``--also`` adds more trees (earlier versions of this
one, say), each run in every round beside the others and compared with the reference.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from old_layout import SHIM

ROOT = Path(__file__).resolve().parents[1]
POSITIONS = ROOT / "ruleslawyer" / "data" / "positions"

CHILD = """
import json, resource, sys, time
%%SHIM%%
from ruleslawyer.models.twist_of_fate.play import Rules
from ruleslawyer.models.twist_of_fate.files import load_position
from ruleslawyer.solvers.twist_of_fate import memory
position = load_position(sys.argv[1])
stats = {}
result = memory.solve(position, Rules(), threads=int(sys.argv[2]), stats=stats)
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({
    "search": stats["search_seconds"],
    "cpu": usage.ru_utime + usage.ru_stime,
    "rss": usage.ru_maxrss * 1024,
    "tables": stats["table_bytes"],
    "answer": result.answer(),
    "module": memory.__file__,
}))
"""
CHILD = CHILD.replace("%%SHIM%%", SHIM)


def solve(tree: Path | None, position: Path, threads: int) -> dict:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(position), str(threads)],
        capture_output=True,
        text=True,
        env=env,
        cwd="/",
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree or ROOT}: exit {done.returncode}: {done.stderr[-2000:]}")
    out = json.loads(done.stdout)
    expected = (tree or ROOT).resolve()
    if not Path(out["module"]).resolve().is_relative_to(expected):
        raise SystemExit(f"ran {out['module']}, not the solver of {expected}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, required=True, help="another tree's root")
    parser.add_argument("--positions", nargs="+", default=["3p-9"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--also", type=Path, nargs="*", default=[], help="more trees' roots")
    opts = parser.parse_args()
    trees: dict[str, Path | None] = {"reference": opts.reference}
    trees |= {str(tree): tree for tree in opts.also}
    trees["this tree"] = None
    for tree in trees.values():  # compile and cache the kernels, untimed
        solve(tree, POSITIONS / "twist-of-fate-3p-6.toml", 1)
    mib = 2**20
    for name in opts.positions:
        path = POSITIONS / f"twist-of-fate-{name}.toml"
        for threads in opts.threads:
            runs: dict[str, list[dict]] = {label: [] for label in trees}
            for r in range(opts.rounds):
                order = list(trees) if r % 2 == 0 else list(reversed(trees))
                for label in order:
                    out = solve(trees[label], path, threads)
                    runs[label].append(out)
                    print(
                        f"{name} threads {threads} round {r + 1} {label}: search "
                        f"{out['search']:.2f} s, cpu {out['cpu']:.2f} s, peak "
                        f"{out['rss'] / mib:,.0f} MiB, tables {out['tables'] / mib:,.0f} MiB",
                        flush=True,
                    )
            same = all(
                o["answer"] == runs["reference"][0]["answer"] for rs in runs.values() for o in rs
            )
            med = {
                label: {
                    key: statistics.median(o[key] for o in rs)
                    for key in ("search", "cpu", "rss", "tables")
                }
                for label, rs in runs.items()
            }
            ref = med["reference"]
            for label in list(trees)[1:]:
                new = med[label]
                print(
                    f"{name} threads {threads} medians, {label}: search {new['search']:.2f} s "
                    f"against {ref['search']:.2f} s ({ref['search'] / new['search']:.2f}x), cpu "
                    f"{new['cpu']:.2f} s against {ref['cpu']:.2f} s "
                    f"({ref['cpu'] / new['cpu']:.2f}x), peak {new['rss'] / mib:,.0f} MiB against "
                    f"{ref['rss'] / mib:,.0f} MiB ({new['rss'] / ref['rss']:.2f}), tables "
                    f"{new['tables'] / mib:,.0f} MiB against {ref['tables'] / mib:,.0f} MiB",
                    flush=True,
                )
            print(f"{name} threads {threads}: same answers: {same}", flush=True)


if __name__ == "__main__":
    main()
