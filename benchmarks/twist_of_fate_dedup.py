"""Twist of Fate tiers: the expand task's deduplication beside numpy's ``unique``, one process.

Run from the repository root:

    .venv/bin/python benchmarks/twist_of_fate_dedup.py [--position 3p-9] [--tier 5]
        [--rounds 3]

Enumerates the position's tiers up to ``--tier`` in this process (the tiered
engine, no Dask), then times the expand step of every partition of that tier
two ways, alternately: as the engine does it now (children grouped by partition
with a counting sort, each group deduplicated by a sort and a compare of
neighbours, :func:`twist_of_fate_tiers.distinct`), and as the engine did before
(``np.argsort`` of the partitions and ``np.unique``, numpy's hash-based
``unique`` in numpy 2), on the same children. Prints both times, the expansion's
own time (the Numba kernel, the same in both) and whether the outputs agree.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.models.twist_of_fate.files import load_position
from ruleslawyer.models.twist_of_fate.play import Rules
from ruleslawyer.solvers.twist_of_fate import dask as dask_engine
from ruleslawyer.solvers.twist_of_fate import tiers

ROOT = Path(__file__).resolve().parents[1]
POSITIONS = ROOT / "ruleslawyer" / "data" / "positions"


def numpy_unique_split(words: np.ndarray, parts: int) -> list[np.ndarray]:
    """The engine's dedup before: a stable argsort of the partitions, then ``np.unique``."""
    owner = tiers.partition_of(words, parts)
    order = np.argsort(owner, kind="stable")
    bounds = np.searchsorted(owner[order], np.arange(parts + 1))
    ordered = words[order]
    return [np.unique(ordered[bounds[j] : bounds[j + 1]]) for j in range(parts)]


def sort_split(words: np.ndarray, parts: int) -> list[np.ndarray]:
    return [tiers.distinct(part) for part in tiers.split(words, parts)]


def dedup(chunks: list[np.ndarray], parts: int, how, union) -> list[np.ndarray]:
    buckets: list[list[np.ndarray]] = [[] for _ in range(parts)]
    for kids in chunks:
        for j, part in enumerate(how(kids, parts)):
            buckets[j].append(part)
    return [union(b) if b else np.empty(0, dtype=np.int64) for b in buckets]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--position", default="3p-9")
    parser.add_argument("--tier", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--parts", type=int, default=8, help="partitions of the next tier")
    opts = parser.parse_args()
    position = load_position(POSITIONS / f"twist-of-fate-{opts.position}.toml")
    with tempfile.TemporaryDirectory(prefix="ruleslawyer-dedup-") as tmp:
        work = Path(tmp)
        engine = dask_engine.Engine(
            position, Rules(), dask_engine.InProcess(), work, partition_states=1 << 22
        )
        # one more tier per call: forward() stops once the states reach the budget
        while len(engine.run.tiers) <= opts.tier and not engine.run.forward_done:
            engine.budget = Budget(max_states=engine.run.states + 1)
            engine.forward()
        k = opts.tier
        prob = engine.prob
        parents = np.concatenate(
            [
                np.load(dask_engine._words_file(work, k, i))
                for i in range(engine.run.tiers[k]["partitions"])
            ]
        )
        began = time.perf_counter()
        chunks = [c[2] for c in tiers.expand_chunks(prob, parents, dask_engine.CHUNK)]
        expand_s = time.perf_counter() - began
        children = sum(c.shape[0] for c in chunks)
        print(
            f"{opts.position} tier {k}: {parents.shape[0]:,} states, {children:,} children, "
            f"expansion (Numba) {expand_s:.2f} s; next tier in {opts.parts} partitions"
        )
        times: dict[str, list[float]] = {"sort-based": [], "numpy unique": []}
        outs = {}
        ways = {
            "sort-based": (sort_split, dask_engine._union),
            "numpy unique": (numpy_unique_split, lambda b: np.unique(np.concatenate(b))),
        }
        for r in range(opts.rounds):
            order = list(ways) if r % 2 == 0 else list(reversed(ways))
            for label in order:
                how, union = ways[label]
                began = time.perf_counter()
                outs[label] = dedup(chunks, opts.parts, how, union)
                times[label].append(time.perf_counter() - began)
        same = all(
            np.array_equal(a, b)
            for a, b in zip(outs["sort-based"], outs["numpy unique"], strict=True)
        )
        distinct = sum(o.shape[0] for o in outs["sort-based"])
        for label, ts in times.items():
            print(
                f"  {label}: median {statistics.median(ts):.2f} s "
                f"({', '.join(f'{t:.2f}' for t in ts)})"
            )
        ratio = statistics.median(times["numpy unique"]) / statistics.median(times["sort-based"])
        print(f"  {distinct:,} distinct children; same output: {same}; sort-based {ratio:.1f}x")


if __name__ == "__main__":
    main()
