"""Twist of Fate: the max^n solve beside the paranoid solve, in the same run.

Run from the repository root:

    .venv/bin/python benchmarks/twist_of_fate_maxn.py [--repeat 3] [--positions 3p-6 3p-9]
        [--reference DIR] [--warm-full 3p-6] [--kinds paranoid maxn ...]

For each position (ruleslawyer/data/positions/twist-of-fate-<name>.toml) and each
solve, every repeat in a fresh process (one warm-up run first fills the Numba
cache): wall and CPU seconds of the solve call, states, peak RSS (each process first
loads the compiled code: by a whole solve for the positions of ``--warm-full``, else
by a search with a budget of one state; that is not timed); the median of
``--repeat`` runs, and every run's CPU seconds. The solves:

- ``paranoid``: the fast paranoid kernel (``twist_of_fate_numba.solve``);
- ``maxn``: ``twist_of_fate_maxn.analyse`` under max^n (every move scored, the line);
- ``paranoid cli``: what ``solve --model paranoid`` computes (the paranoid
  analysis and the paranoid solver's answer, ``twist_of_fate_maxn.paranoid_solve``);
- with ``--reference DIR`` (a source tree holding an older ``ruleslawyer``, e.g. a
  ``git worktree`` of an older commit): that tree's max^n, as ``maxn (reference)``
  (``--reference-kinds`` picks which, e.g. ``"maxn 1t"``), and the ratio of each of
  this tree's max^n CPU medians to the reference's with as many threads.

Each with the CLI's default threads (one per usable processor, at most 4), or
with one thread where the name ends in `` 1t``.

CPU seconds are the comparable figure on a shared machine (wall time depends on the
other jobs); the ratio max^n / paranoid is printed per position.
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

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[3])
%%SHIM%%
from ruleslawyer.models.twist_of_fate.play import Rules
from ruleslawyer.models.twist_of_fate.files import load_position
kind, path = sys.argv[1], sys.argv[2]
from ruleslawyer.solvers.twist_of_fate.memory import default_threads
threads = 1 if kind.endswith(" 1t") else default_threads()
kind = kind.removesuffix(" 1t")
position = load_position(path)
from ruleslawyer.budget import Budget
def go(budget):
    if kind == "paranoid":
        from ruleslawyer.solvers.twist_of_fate.memory import solve
        result = solve(position, Rules(), budget, threads=threads)
        return result.states, result.finished
    if kind == "paranoid cli":
        from ruleslawyer.solvers.twist_of_fate.maxn import paranoid_solve
        analysis, result = paranoid_solve(position, Rules(), budget, threads=threads)
        return result.states, result.finished and analysis.finished
    from ruleslawyer.solvers.twist_of_fate.maxn import analyse
    try:
        analysis = analyse(position, Rules(), "maxn", budget, threads=threads)
    except TypeError:  # an older tree: one search thread
        analysis = analyse(position, Rules(), "maxn", budget)
    return analysis.states, analysis.finished
# loads the compiled code from the cache, not timed: a whole solve (small positions,
# where loading the principal line's code would count), or one state's search
go(Budget() if sys.argv[4] == "full" else Budget(max_states=1))
wall, cpu = time.perf_counter(), time.process_time()
states, finished = go(Budget())
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"wall": wall, "cpu": cpu, "states": states, "finished": finished,
                  "peak": peak}))
"""
CHILD = CHILD.replace("%%SHIM%%", SHIM)


def run(kind: str, path: Path, tree: Path, warm: str = "budget") -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, kind, str(path), str(tree), warm],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--positions", nargs="+", default=["3p-6", "3p-9"])
    parser.add_argument("--reference", type=Path, default=None)
    parser.add_argument("--reference-kinds", nargs="+", default=["maxn"])
    parser.add_argument("--warm-full", nargs="*", default=["3p-6"])
    parser.add_argument(
        "--kinds",
        nargs="+",
        default=["paranoid", "paranoid 1t", "maxn", "maxn 1t", "paranoid cli"],
    )
    args = parser.parse_args()
    solves = [(kind, ROOT) for kind in args.kinds]
    if args.reference is not None:
        solves += [(f"{k} (reference)", args.reference.resolve()) for k in args.reference_kinds]
    print(f"load average at start: {os.getloadavg()}")
    print("| position | solve | states | wall s | CPU s | CPU / paranoid | peak RSS |")
    print("|---|---|---|---|---|---|---|")
    notes = []
    for name in args.positions:
        path = POSITIONS / f"twist-of-fate-{name}.toml"
        for tree in dict.fromkeys(tree for _, tree in solves):  # warm each tree's cache
            for kind in ("paranoid", "maxn", "paranoid cli") if tree == ROOT else ("maxn",):
                run(kind, path, tree)
        runs: dict[str, list[dict]] = {kind: [] for kind, _ in solves}
        for _ in range(args.repeat):  # interleaved, so that the load hits all alike
            for kind, tree in solves:
                warm = "full" if name in args.warm_full else "budget"
                runs[kind].append(run(kind.replace(" (reference)", ""), path, tree, warm))
        # CPU seconds against the fast paranoid solve with as many threads
        bases = {
            t: statistics.median(r["cpu"] for r in runs[f"paranoid{t}"])
            for t in ("", " 1t")
            if f"paranoid{t}" in runs
        }
        for kind, _ in solves:
            rs = runs[kind]
            cpu = statistics.median(r["cpu"] for r in rs)
            wall = statistics.median(r["wall"] for r in rs)
            peak = max(r["peak"] for r in rs) / 2**20
            base = bases.get(" 1t" if kind.endswith(" 1t") or "reference" in kind else "")
            ratio = f"{cpu / base:.2f}x" if base else "-"
            done = "" if all(r["finished"] for r in rs) else " (unfinished)"
            print(
                f"| {name} | {kind} | {rs[0]['states']:,}{done} | {wall:.2f} | {cpu:.2f} | "
                f"{ratio} | {peak:.0f} MiB |"
            )
            notes.append(f"{name} {kind}: CPU s " + ", ".join(f"{r['cpu']:.2f}" for r in rs))
        for kind, tree in solves:  # this tree's max^n against the reference's
            old = f"{kind} (reference)"
            if tree == ROOT and old in runs:
                new_cpu = statistics.median(r["cpu"] for r in runs[kind])
                old_cpu = statistics.median(r["cpu"] for r in runs[old])
                notes.append(f"{name} {kind} / {old}: CPU {new_cpu / old_cpu:.2f}x")
    print(f"load average at end: {os.getloadavg()}")
    print("\n".join(notes))


if __name__ == "__main__":
    main()
