"""The Numba solver for Twist of Fate: same answers as the reference solver, at compiled speed.

Numba (and the compiled kernel) is imported only when :func:`solve` runs. The
Python driver here encodes the position into two words and a few small tables,
runs the kernel in slices (one search per thread, all over the same tables; the
kernel releases the GIL), grows the tables as they fill, checks the budget
between slices, and decodes the answer. A search that runs out of budget or
memory returns ``finished: false`` with no values.
"""

from __future__ import annotations

import mmap
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.errors import InputError
from ruleslawyer.models.twist_of_fate.files import Position
from ruleslawyer.models.twist_of_fate.play import (
    Rules,
    seat_names,
)
from ruleslawyer.solvers.twist_of_fate.common import SolveResult, move_json, unfinished
from ruleslawyer.solvers.twist_of_fate.encoding import decode_move

SLICE = 1 << 20
FIRST_CAPACITY = 1 << 18
MAX_TABLE_BYTES = 5 << 30  # every table together, old and new while one grows
LOAD = 0.5  # a table doubles past this load while the memory limit allows...
FULL_LOAD = 0.8  # ...and is filled up to this when it does not
# A main table of one-word slots doubles only past this load (and is filled to it when
# it cannot double): eight slots share a cache line, so at this load a probe still
# reads about one line, and the table takes half the memory of one doubled at LOAD.
ONE_WORD_LOAD = 0.875
MAX_THREADS = 4


def empty_table(shape: tuple[int, ...]) -> np.ndarray:
    """An int64 array of zeros (empty slots), on transparent huge pages where the
    system allows (see :func:`_memory`)."""
    size = int(np.prod(shape)) * 8
    if size < 1 << 22:
        return np.zeros(shape, dtype=np.int64)
    return np.frombuffer(_memory(size), dtype=np.int64).reshape(shape)


def _memory(size: int) -> mmap.mmap:
    """``size`` bytes of zeros, not yet backed by memory: the system backs each page
    when it is first written (Linux ``MAP_NORESERVE``), so this may be far more than
    is used. On transparent huge pages where the system allows: the tables are
    probed at random, and with 4 KiB pages nearly every probe of a large table also
    misses the TLB (Linux ``madvise``). The mapping must be private: Linux gives a
    shared anonymous mapping no huge pages."""
    if not hasattr(mmap, "MAP_PRIVATE"):  # Windows
        return mmap.mmap(-1, size)
    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
    if sys.platform == "linux":
        flags |= getattr(mmap, "MAP_NORESERVE", 0x4000)  # Python names it from 3.13
    memory = mmap.mmap(-1, size, flags=flags)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        memory.madvise(mmap.MADV_HUGEPAGE)
    return memory


class StateTable:
    """A table of states (see the kernel's ``PAD``): a power of two of home slots
    and the pad, in a mapping of ``max_bytes`` so that it grows in place. A slot is
    ``width`` words (see the kernel's ``slot_words``); ``kmask`` picks a state's key
    out of a slot's first word.

    Growing needs no second table: the new upper half is fresh memory, and the
    entries move within the one mapping, from several threads at once.
    """

    def __init__(self, capacity: int, max_bytes: int, width: int = 1, kmask: int = -1) -> None:
        from ruleslawyer.solvers.twist_of_fate import kernel as k

        self.width, self.kmask = width, kmask
        rows = max(capacity, max_bytes // (8 * width) - k.PAD) + k.PAD
        while True:
            try:
                self.memory = _memory(rows * 8 * width)
                break
            except OSError:  # a system that counts untouched memory (strict overcommit)
                if rows <= capacity + k.PAD:
                    raise
                rows = max(capacity + k.PAD, rows // 2)
        self.rows = rows
        self.array = self._view(capacity)

    def _view(self, capacity: int) -> np.ndarray:
        from ruleslawyer.solvers.twist_of_fate import kernel as k

        count = self.width * (capacity + k.PAD)
        return np.frombuffer(self.memory, dtype=np.int64, count=count).reshape(-1, self.width)

    @property
    def capacity(self) -> int:
        from ruleslawyer.solvers.twist_of_fate import kernel as k

        return self.array.shape[0] - k.PAD

    def can_double(self) -> bool:
        """Whether the mapping has room for twice the home slots."""
        return self.array.shape[0] + self.capacity <= self.rows

    def grow(self, pool: ThreadPoolExecutor | None, parts: int) -> bool:
        """Double the home slots in place; False if an entry found no room (see the
        kernel's ``insert``: a run of full slots as long as the pad)."""
        from ruleslawyer.solvers.twist_of_fate import kernel as k

        cap = self.capacity
        lifted = np.zeros((k.PAD, self.width), dtype=np.int64)
        n = k.lift(self.array, cap, lifted)
        self.array = table = self._view(2 * cap)
        # parts that start at empty slots, so that no run of full slots crosses two
        cuts = [0]
        for w in range(1, parts):
            i = cap * w // parts
            while i < cap and table[i, 0] != k.EMPTY_KEY:
                i += 1
            cuts.append(max(i, cuts[-1]))
        cuts.append(cap)
        starts, stops = cuts[:-1], cuts[1:]
        if pool is None or parts == 1:
            lost = k.spread(table, 0, cap, self.kmask)
        else:
            lost = sum(pool.map(k.spread, [table] * parts, starts, stops, [self.kmask] * parts))
        return lost + k.drop(table, lifted, n, self.kmask) == 0


class Tables:
    """The transposition table (internal nodes), the leaf table and the end-state set.

    Each doubles when its load passes :data:`LOAD` while all of them together stay
    within ``max_bytes``: a sparse table is probed faster, and each doubling moves
    fewer entries. A table that cannot double is filled up to :data:`FULL_LOAD`.
    A main table of one-word slots doubles past :data:`ONE_WORD_LOAD` instead, and
    is filled to that when it cannot double.
    """

    def __init__(
        self,
        capacity: int,
        max_bytes: int,
        pool: ThreadPoolExecutor | None = None,
        parts: int = 1,
        *,
        width: int = 1,
        kmask: int = -1,
    ) -> None:
        self.max_bytes = max_bytes
        self.pool, self.parts = pool, parts  # threads that move entries as a table grows
        self.states = {
            # slots of the main table: ``width`` words; of the leaf table: the key alone
            "main": StateTable(capacity, max_bytes, width, kmask),
            "leaves": StateTable(capacity, max_bytes, 1, kmask),
        }
        self.ends = empty_table((capacity,))
        # the load past which each table doubles, and up to which it fills if it cannot
        self.loads = {
            "main": (ONE_WORD_LOAD, ONE_WORD_LOAD) if width == 1 else (LOAD, FULL_LOAD),
            "leaves": (LOAD, FULL_LOAD),
            "ends": (LOAD, FULL_LOAD),
        }

    @property
    def main(self) -> np.ndarray:
        return self.states["main"].array

    @property
    def leaves(self) -> np.ndarray:
        return self.states["leaves"].array

    @property
    def nbytes(self) -> int:
        return self.main.nbytes + self.leaves.nbytes + self.ends.nbytes

    def _slots(self, which: str) -> int:
        return self.ends.shape[0] if which == "ends" else self.states[which].capacity

    def can_grow(self, which: str) -> bool:
        """Whether doubling the table stays within the memory limit."""
        if which == "ends":
            return self.nbytes + self.ends.nbytes <= self.max_bytes
        table = self.states[which]
        return (
            table.can_double() and self.nbytes + table.capacity * 8 * table.width <= self.max_bytes
        )

    def limits(self) -> tuple[int, int, int]:
        """How many entries main, leaves and ends may hold before they must grow."""
        main, leaves, ends = (
            int(self.loads[which][0 if self.can_grow(which) else 1] * self._slots(which))
            for which in ("main", "leaves", "ends")
        )
        return main, leaves, ends

    def grow(self, which: str) -> bool:
        """Double one table (it :meth:`can_grow`); False if an entry found no room."""
        from ruleslawyer.solvers.twist_of_fate import kernel as k

        if which != "ends":
            return self.states[which].grow(self.pool, self.parts)
        old = self.ends
        new = empty_table((2 * old.shape[0],))
        if self.pool is None:
            k.rehash_ends(old, new, 0, old.shape[0])
        else:
            # one part of the old set per thread: the new set's pages are first
            # touched here, and that costs as much as the copying
            parts = self.parts
            cuts = [old.shape[0] * w // parts for w in range(parts + 1)]
            list(self.pool.map(k.rehash_ends, [old] * parts, [new] * parts, cuts[:-1], cuts[1:]))
        self.ends = new
        return True


def usable_processors() -> int:
    """The processors this process may use (its affinity where the system has one)."""
    usable = (
        os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else range(os.cpu_count() or 1)
    )
    return max(1, len(usable))


def default_threads() -> int:
    """One search thread per processor this process may use, at most :data:`MAX_THREADS`."""
    return min(MAX_THREADS, usable_processors())


def solve(
    position: Position,
    rules: Rules,
    budget: Budget | None = None,
    *,
    max_table_bytes: int = MAX_TABLE_BYTES,
    threads: int | None = None,
    stats: dict[str, Any] | None = None,
    slot_width: int | None = None,
) -> SolveResult:
    """Search every line of play from ``position`` to the horizon, compiled.

    ``threads`` searches (default: one per usable processor, at most
    :data:`MAX_THREADS`) run at once over shared tables; the answer does not
    depend on how many. The tables key a state by its packing (the tiered engine's,
    :func:`~ruleslawyer.solvers.twist_of_fate.tiers.layout`), one word per slot where the value fits
    beside it; ``slot_width`` forces one or two words (tests).
    """
    from ruleslawyer.solvers.twist_of_fate import kernel as k
    from ruleslawyer.solvers.twist_of_fate import tiers

    budget = budget or Budget()
    began = time.perf_counter()
    prob = tiers.problem(position, rules, slot_width)
    enc, lay = prob.enc, prob.lay
    root_kw = tiers.root_word(prob) | int(enc.params[k.P_MARK])
    depth = sum(len(s.hand) for s in position.state.seats) + 2
    n_moves = len(position.deck.characters) * len(position.state.seats) * k.VARIANTS
    n = threads or default_threads()
    frames = np.zeros((n, depth, k.FRAME), dtype=np.int64)
    frames[:, 0, k.F_K1], frames[:, 0, k.F_K2] = enc.root
    frames[:, 0, k.F_W] = root_kw
    frames[:, 0, k.F_N] = -1  # the root is entered on the first slice
    kids = np.zeros((n, depth, n_moves * k.KID), dtype=np.int64)
    counters = np.zeros((n, k.NCOUNTERS), dtype=np.int64)
    root_vals = np.full((n, n_moves), -1, dtype=np.int64)
    rules_in = (*enc[1:], lay.parts, lay.head)
    pool = ThreadPoolExecutor(n) if n > 1 else None
    kmask = int(enc.params[k.P_KMASK])
    tables = Tables(FIRST_CAPACITY, max_table_bytes, pool, n, width=prob.slot_width, kmask=kmask)
    began_search = time.perf_counter()
    progress = Progress("twist-of-fate numba: states")
    name = position.names[position.state.active]
    full = {k.STATUS_FULL_MAIN: "main", k.STATUS_FULL_LEAVES: "leaves", k.STATUS_FULL_ENDS: "ends"}
    done = -1
    stop = np.zeros((1, 1), dtype=np.int64)  # set by the first search to end its slice

    def run(w: int, room: np.ndarray) -> int:
        return int(
            k.search(
                frames[w],
                kids[w],
                counters[w],
                tables.main,
                tables.leaves,
                tables.ends,
                root_vals[w],
                *rules_in,
                SLICE,
                room,
                stop,
                w / n,
            )
        )

    try:
        while done < 0:
            total = counters.sum(axis=0)
            spare = (
                (budget.max_states or 1 << 62) - total[k.C_STATES],
                *(
                    limit - total[c]
                    for limit, c in zip(
                        tables.limits(), (k.C_MAIN, k.C_LEAVES, k.C_ENDS), strict=True
                    )
                ),
            )
            # each search's share, rounded up (a table's limit is below its size)
            room = np.array([max(0, -(-x // n)) for x in spare], dtype=np.int64)
            stop[0, 0] = 0
            workers = range(n)
            statuses = list(
                pool.map(run, workers, [room] * n) if pool else map(run, workers, [room])
            )
            if stats is not None and "first_slice_seconds" not in stats:
                stats["first_slice_seconds"] = time.perf_counter() - began_search
            states = int(counters[:, k.C_STATES].sum())
            if k.STATUS_UNPACKABLE in statuses:
                raise InputError(
                    "position", "seats", "a reachable state out of the packing's ranges",
                    "a position whose states fit the packing",
                )  # fmt: skip
            if k.STATUS_OVERFLOW in statuses:  # a state not stored: no exact count
                if stats is not None:
                    stats["stopped"] = "overflow"
                return unfinished(name, states, time.perf_counter() - began)
            if k.STATUS_DONE in statuses:
                done = statuses.index(k.STATUS_DONE)
                break
            progress.update(states)
            limits = dict(zip(("main", "leaves", "ends"), tables.limits(), strict=True))
            counts = {"main": k.C_MAIN, "leaves": k.C_LEAVES, "ends": k.C_ENDS}
            for which in sorted({full[s] for s in statuses if s in full}):
                if counters[:, counts[which]].sum() < limits[which]:
                    continue  # one search's share spent, not the table's room
                stopped = "memory" if not tables.can_grow(which) else None
                if stopped is None and not tables.grow(which):
                    stopped = "overflow"
                if stopped is not None:
                    if stats is not None:
                        stats["stopped"] = stopped
                    return unfinished(name, states, time.perf_counter() - began)
            # one search's share of the state budget spent stops the others' slices
            # too: the next slice shares out what is left
            if budget.spent(states):
                return unfinished(name, states, time.perf_counter() - began)
    finally:
        progress.close()
        if pool is not None:
            pool.shutdown()
        if stats is not None:
            stats["ends"] = tables.ends
            stats["table_bytes"] = tables.nbytes
            stats["search_seconds"] = time.perf_counter() - began_search
            stats["threads"] = n
            stats["expanded"] = int(counters[:, k.C_EXPANDED].sum())
            stats["main"] = int(counters[:, k.C_MAIN].sum())
            stats["main_slots"] = tables.states["main"].capacity
            stats["slot_words"] = prob.slot_width
    total = counters.sum(axis=0)
    top = int(k.find(tables.main, root_kw, k.slot_hash(root_kw), enc.params))
    return paranoid_result(
        position, top, root_vals[done], int(total[k.C_ENDS]), int(total[k.C_STATES]), began
    )


def paranoid_result(
    position: Position, top: int, root_val: np.ndarray, ends: int, states: int, began: float
) -> SolveResult:
    """The finished answer from the root's kernel value ``top`` and each root move's
    (``root_val``, -1 where no move) (also used by the max^n driver's paranoid search)."""
    g, r, gw, pw = _decode(top)
    best = _best(root_val)
    state = position.state
    names = seat_names(state, position.names)
    move = decode_move(best, position) if best is not None else None
    return SolveResult(
        player=position.names[state.active],
        guaranteed_sanctuary=g,
        best_move=move_json(move, state.active, names, position.deck) if move else None,
        reachable_max_sanctuary=r,
        guaranteed_win=gw,
        possible_win=pw,
        end_states=ends,
        states=states,
        seconds=time.perf_counter() - began,
        finished=True,
    )


def _decode(val: int) -> tuple[int, int, bool, bool]:
    from ruleslawyer.solvers.twist_of_fate.kernel import Z_OFF

    return (
        (val & 127) - Z_OFF,
        ((val >> 7) & 127) - Z_OFF,
        bool((val >> 14) & 1),
        bool((val >> 15) & 1),
    )


def _best(root_val: np.ndarray) -> int | None:
    """The first move (by index, the legal-move order) with the best guaranteed (win, sanctuary)."""
    best, top = None, None
    for m, val in enumerate(root_val.tolist()):
        if val < 0:
            continue
        g, _, gw, _ = _decode(val)
        if top is None or (gw, g) > top:
            best, top = m, (gw, g)
    return best


def end_states(
    position: Position, rules: Rules, budget: Budget | None = None
) -> list[tuple[tuple[int, int, int], ...]] | None:
    """Every distinct horizon state as (luck, shilling, sanctuary) per seat, sorted; None if cut."""
    from ruleslawyer.solvers.twist_of_fate import kernel as k

    stats: dict[str, Any] = {}
    if not solve(position, rules, budget, stats=stats).finished:
        return None
    seats = len(position.state.seats)
    out = []
    for key in stats["ends"]:
        if key == k.EMPTY_KEY:
            continue
        key = int(key)
        ends = []
        for s in range(seats):
            seat = key >> (k.SEAT_BITS * s)
            ends.append((seat & 7, (seat >> 3) & 7, ((seat >> k.Z_SHIFT) & 63) - k.Z_OFF))
        out.append(tuple(ends))
    return sorted(out)
