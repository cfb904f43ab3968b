"""The pruned paranoid search split over Dask workers: the root's moves as tasks.

The answers are those of :func:`~ruleslawyer.solvers.twist_of_fate.pruned.driver.solve`
in one process; only the work is shared out. Each task searches one root move in a
worker process (its own transposition table), in a window the client chooses:

- every move (``--every-move``): each move's whole window, so every value is exact;
- the best move: the first tasks (one per worker) in their whole window; after them
  each move is searched with a window that starts at the best value found so far
  (the bound the tasks share, handed to each as it is submitted): a move before the
  best one in legal-move order must reach that value to matter, a move after it must
  beat it. A move that cannot gets a bound on the side it falls and needs no more;
  one that can gets its exact value. The best value only rises (for another seat's
  guarantee: only falls), so a bound against an older best still settles its move,
  and the first move of the best value in legal-move order is the answer.

The client hands out a task whenever a worker is free (so the tasks see the best
value found so far), stops on the budget (cancelling the tasks: unfinished), and
sums the nodes and the CPU seconds the tasks report. A worker keeps its table from
one task to the next (:data:`KEPT`); the moves searched on different workers share
nothing, so the split costs more nodes than one process does (see
benchmarks/README.md for how much).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from ruleslawyer.budget import Budget
from ruleslawyer.models.twist_of_fate.files import Position
from ruleslawyer.models.twist_of_fate.play import Rules, legal_moves
from ruleslawyer.solvers.twist_of_fate.pruned import driver

WAIT_SECONDS = 1.0  # the client's look at the budget while it waits for a task
# a worker keeps its searches, and so their transposition tables, for the next tasks
# of the same position and seat (one a thread at a time): the root moves share what
# they can. Those of another position are dropped.
KEPT: dict[str, list[dict[str, Any]]] = {}
KEEPING = threading.Lock()


@dataclass(frozen=True)
class Done:
    """One task's answer: the move's value and whether it is exact or a bound
    (the search module's flags), the nodes and CPU seconds it took."""

    move: int
    value: int | None
    flag: int
    nodes: int
    expanded: int
    cpu: float


def search_move(
    position: Position,
    rules: Rules,
    seat: int,
    move: int,
    window: tuple[int, int],
    table_bytes: int,
    max_seconds: float | None,
) -> Done:
    """A task: the value of root move ``move`` for ``seat``, searched in ``window``."""
    began = time.process_time()
    key = driver.kept_key(position, rules, seat, table_bytes)
    with KEEPING:
        idle = KEPT.get(key)
        if idle is None:
            KEPT.clear()
            idle = KEPT[key] = []
        kept = idle.pop() if idle else {}
    value, flag, nodes, expanded = driver.search_window(
        position, rules, seat, move, window, Budget(max_seconds=max_seconds), table_bytes, kept
    )
    with KEEPING:
        KEPT.setdefault(key, []).append(kept)
    return Done(move, value, flag, nodes, expanded, time.process_time() - began)


def solve(
    position: Position,
    rules: Rules,
    budget: Budget,
    client: Any,
    *,
    workers: int,
    every_move: bool = False,
    seat: int | None = None,
    table_bytes: int = driver.TABLE_BYTES,
) -> tuple[driver.Pruned, float]:
    """:func:`driver.solve`'s answer, the root's moves searched as tasks on ``client``
    (at most ``workers`` at once); and the CPU seconds of the tasks."""
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    began = time.perf_counter()
    state = position.state
    who = state.active if seat is None else seat
    sign = 1 if who == state.active else -1
    order = [driver.move_index(m, position) for m in legal_moves(state, position.deck, rules)]
    place = {m: i for i, m in enumerate(order)}
    exact: dict[int, int] = {}
    bounds: dict[int, int] = {}
    nodes = expanded = 0
    cpu = 0.0
    waiting = list(order)
    running: dict[Any, int] = {}
    best: int | None = None  # the first move of the best exact value so far

    def window(m: int) -> tuple[int, int]:
        whole = (s.LOW, s.HIGH)
        if every_move or best is None:
            return whole
        b = exact[best]
        if sign > 0:  # before the best: reach it; after it: beat it
            return (b - 1, s.HIGH) if place[m] < place[best] else (b, s.HIGH)
        return (s.LOW, b + 1) if place[m] < place[best] else (s.LOW, b)

    def submit() -> None:
        while waiting and len(running) < max(1, workers):
            m = waiting.pop(0)
            future = client.submit(
                search_move, position, rules, who, m, window(m), table_bytes,
                budget.remaining_seconds(), pure=False,
            )  # fmt: skip
            running[future] = m

    from distributed import wait

    finished = True
    try:
        submit()
        while running:
            try:
                done, _ = wait(list(running), timeout=WAIT_SECONDS, return_when="FIRST_COMPLETED")
            except TimeoutError:
                done = set()
            if budget.spent():
                finished = False
                break
            for future in done:
                m = running.pop(future)
                task: Done = future.result()
                nodes += task.nodes
                expanded += task.expanded
                cpu += task.cpu
                if task.value is None:
                    finished = False
                    break
                if task.flag == s.EXACT:
                    exact[m] = task.value
                    if best is None or _better(task.value, m, best, exact, place, sign):
                        best = m
                else:
                    bounds[m] = task.value
            if not finished:
                break
            submit()
    finally:
        for future in running:
            future.cancel()
    seconds = time.perf_counter() - began
    if not finished:
        return driver.Pruned(None, None, {}, False, nodes, expanded, seconds, False, seat=who), cpu
    moves = {m: exact.get(m, bounds.get(m, 0)) for m in order}
    value = exact[best] if best is not None else None
    answer = driver.Pruned(
        value, best, moves, every_move, nodes, expanded, seconds, True, seat=who
    )  # fmt: skip
    return answer, cpu


def _better(
    v: int, m: int, best: int, exact: dict[int, int], place: dict[int, int], sign: int
) -> bool:
    """Whether value ``v`` of move ``m`` takes the best's place: a better value, or the
    same one earlier in legal-move order."""
    b = exact[best]
    return sign * v > sign * b or (v == b and place[m] < place[best])
