"""What a random read of a table costs on this machine, by the table's size.

Run from the repository root:

    .venv/bin/python benchmarks/memory_latency.py [--reads 4000000] [--sizes 1 4 8 16 32 128]

The tables are made as the memory solver makes its own (``empty_table``: on
transparent huge pages where the system allows), and each is read at random
offsets two ways, in compiled loops:

- one read after another, each read's address depending on the one before (what a
  probe costs when nothing else is in flight: the latency);
- in batches of 16: the 16 lines asked for first (the kernel's ``_prefetch``), then
  read (what the solver's listing and valuing of a node's children comes to: the
  most lines the memory system brings in a second).

Per table size, nanoseconds per read, both ways. The memory solver's main table
for the shipped 3p-9 position is 128 MiB; its children make about 1.4 random line
reads each (a home slot near the end of its line has the next line asked for too).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from ruleslawyer.solvers.twist_of_fate.kernel import _prefetch
from ruleslawyer.solvers.twist_of_fate.memory import empty_table

BATCH = 16


@njit(cache=True, _nrt=False)
def dependent(table, offsets, mask):
    s = 0
    for i in range(offsets.shape[0]):
        s = table[(offsets[i] + s) & mask, 0]
    return s


@njit(cache=True, _nrt=False)
def batched(table, offsets, mask):
    s = 0
    for b in range(0, offsets.shape[0] - BATCH, BATCH):
        for j in range(BATCH):
            _prefetch(table, offsets[b + j] & mask)
        for j in range(BATCH):
            s += table[offsets[b + j] & mask, 0]
    return s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=4_000_000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 4, 8, 16, 32, 128], help="MiB")
    args = parser.parse_args()
    offsets = np.random.default_rng(0).integers(0, 1 << 40, args.reads, dtype=np.int64)
    print("table MiB | dependent ns/read | batches of 16 ns/read")
    for mib in args.sizes:
        rows = (mib << 20) // 8
        table = empty_table((rows, 1))
        table[:] = 0  # every page backed before the timed reads
        mask = rows - 1
        dependent(table, offsets[:100], mask)  # compiled (or loaded) before timing
        batched(table, offsets[:100], mask)
        began = time.perf_counter()
        dependent(table, offsets, mask)
        one = time.perf_counter() - began
        began = time.perf_counter()
        batched(table, offsets, mask)
        many = time.perf_counter() - began
        print(f"{mib} | {1e9 * one / args.reads:.1f} | {1e9 * many / args.reads:.1f}")


if __name__ == "__main__":
    main()
