"""The pruned paranoid solver for Twist of Fate: its questions, its budget, its answers.

The model is the outcome-ranked paranoid one of
:mod:`~ruleslawyer.solvers.twist_of_fate.maxn` (mode ``paranoid``): every other
player minimises the utility of the player to move, ties go to the first move in
legal-move order. Each field answers one precise question, the same one the
exhaustive search answers (``solve --exhaustive``):

- ``value``: the player's outcome-ranked utility under that play (outcome; tempo;
  when open, Sanctuary, then Luck + Shilling);
- ``best_move``: the first move, in legal-move order, whose value is ``value``;
- ``guaranteed_win``: can the player force a win within the horizon, whatever the
  others play (``value`` is a win);
- ``guaranteed_sanctuary``: the largest ``k`` such that the player can force every
  line to end, at the horizon, not lost and with at least ``k`` Sanctuary (a win
  counts as the last Sanctuary card, 8); None when it cannot even avoid a loss.

:func:`prove` answers "at least this value?" by one null-window search
(:func:`prove_win`, :func:`prove_sanctuary`), usually far cheaper than the value.
The search runs compiled (:mod:`~ruleslawyer.solvers.twist_of_fate.pruned.search`)
in one thread; ``Budget.max_states`` caps the nodes it visits and
``Budget.max_seconds`` its time: either spent, the answer is unfinished.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.models.twist_of_fate.files import Position
from ruleslawyer.models.twist_of_fate.play import Rules
from ruleslawyer.solvers.twist_of_fate.encoding import Encoded

# the transposition table: slots of two words (16 bytes); a power of two of them
TABLE_BYTES = 1 << 28
LEAST_SLOTS = 1 << 10
MASKED_KINDS = 8  # points_table: a row per set of kinds left in the hands, up to this many
LAST_SANCTUARY = 8
SEARCH = "pruned (alpha-beta, transposition table)"


@dataclass(frozen=True)
class Pruned:
    """An answer of the pruned solver: values are search values (see the search
    module), ``moves`` each root move's by move index (exact where ``exact``)."""

    value: int | None
    best: int | None  # the best move's index
    moves: dict[int, int]
    exact: bool  # every value in ``moves`` exact (else only the best move's)
    nodes: int  # nodes entered (those cut at once by a bound or the table among them)
    expanded: int  # nodes whose moves were listed
    seconds: float
    finished: bool


def points_table(enc: Encoded, rules: Rules, plays_most: int) -> np.ndarray:
    """``[kinds, ls, plays]``: the most Sanctuary Points a seat with Luck and Shilling
    ``ls`` (Luck | Shilling << 3) can score in ``plays`` plays it takes part in (up to
    ``plays_most``), while the hands hold only cards of the kinds in the mask
    ``kinds`` (bit ``c``: the deck's character ``c``; a single row, every kind, for a
    deck of more than :data:`MASKED_KINDS` characters).

    A seat scores when its Luck or Shilling reaches 4; one play raises either by at
    most ``up``: the largest rise of a play that a card left in the hands can make
    (either side, the player getting the side it does not face the target with, or
    face down), read off the score table's columns. So Luck scores at most once after
    (4 - Luck) / ``up`` plays (rounded up) and then once every 4 / ``up``, Shilling
    the same, and a seat scores at most the sum (one-point variants: at most one
    point a play). Under one-point-reset-one a Shilling left at 4 scores again
    without rising: there a seat scores at most one point a play.
    """
    from ruleslawyer.solvers.twist_of_fate import kernel as k

    kinds = enc.sides.shape[0]
    rows = 1 << kinds if kinds <= MASKED_KINDS else 1
    table = enc.scores.astype(np.int64)
    twisted = (table >> 8) & 63
    at = np.arange(64)
    rise_luck = ((twisted & 7) - (at & 7)[:, None]).max(axis=0)  # per column
    rise_shilling = ((twisted >> 3) - (at >> 3)[:, None]).max(axis=0)
    points = np.zeros((rows, 64, plays_most + 1), dtype=np.int8)
    at_plays = np.arange(plays_most + 1)
    if rules.double_threshold == "one-point-reset-one":
        points[:] = at_plays
        return points
    ls = np.arange(64)[:, None]
    for mask in range(rows):
        present = [c for c in range(kinds) if rows == 1 or mask >> c & 1]
        used = [k.RAISE_LUCK, k.RAISE_SHILLING, *enc.sides[present].ravel().tolist()]
        used += enc.columns[present].ravel().tolist()
        up_luck = max(0, int(rise_luck[used].max()))
        up_shilling = max(0, int(rise_shilling[used].max()))
        total = _reaches(ls & 7, up_luck, at_plays) + _reaches(ls >> 3, up_shilling, at_plays)
        if rules.double_threshold != "two-points":  # one point a play at most
            total = np.minimum(total, at_plays[None, :])
        points[mask] = total
    return points


def hand_table(vectors: list[tuple[int, ...]], kinds: int) -> np.ndarray:
    """``[hand, 0]``: the cards in the hand of multiset index ``hand``; ``[hand, 1]``
    the mask of the kinds it holds (0 for a deck of more than :data:`MASKED_KINDS`)."""
    out = np.zeros((len(vectors), 2), dtype=np.int64)
    for i, v in enumerate(vectors):
        out[i, 0] = sum(v)
        if kinds <= MASKED_KINDS:
            out[i, 1] = sum(1 << c for c, n in enumerate(v) if n)
    return out


def _reaches(start: np.ndarray, up: int, plays: np.ndarray) -> np.ndarray:
    """``[start, plays]``: how often a count starting at ``start`` (a column) can
    reach 4 (and drop to 0) in ``plays`` plays (a row) that each raise it by at most
    ``up``: once after (4 - start) / ``up`` plays (rounded up; at least 1: a count
    already at 4 scores when a play touches the seat), then once every 4 / ``up``."""
    if up <= 0:
        return np.zeros((start.shape[0], plays.shape[0]), dtype=np.int64)
    first = np.maximum(-(-(4 - np.minimum(start, 4)) // up), 1)
    return np.where(plays >= first, 1 + (plays - first) // -(-4 // up), 0)


def bound_tables(position: Position, enc: Encoded, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The static bound's tables for a position: :func:`hand_table` of its hands'
    multiset indices and :func:`points_table` (a seat takes part in at most its own
    hand's plays and, as a target, the six-card limit's)."""
    from ruleslawyer.solvers.twist_of_fate.encoding import multisets
    from ruleslawyer.solvers.twist_of_fate.kernel import LIMIT

    kinds = len(position.deck.characters)
    most = max(len(seat.hand) for seat in position.state.seats)
    vectors, _ = multisets(kinds, most)
    return hand_table(vectors, kinds), points_table(enc, rules, most + LIMIT)


def _slots(table_bytes: int) -> int:
    slots = LEAST_SLOTS
    while slots * 2 * 16 <= table_bytes:
        slots *= 2
    return slots


def _run(
    position: Position, rules: Rules, mode: int, threshold: int, budget: Budget, table_bytes: int
) -> Pruned:
    from ruleslawyer.solvers.twist_of_fate import kernel as k
    from ruleslawyer.solvers.twist_of_fate import tiers
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    began = time.perf_counter()
    prob = tiers.problem(position, rules, 2)
    enc, lay = prob.enc, prob.lay
    root_kw = tiers.root_word(prob) | int(enc.params[k.P_MARK])
    state = position.state
    hands, points = bound_tables(position, enc, rules)
    plies = sum(len(seat.hand) for seat in state.seats)
    depth = plies + 2
    frame = np.zeros((depth, k.FRAME), dtype=np.int64)
    frame[0, k.F_K1], frame[0, k.F_K2] = enc.root
    frame[0, k.F_W] = root_kw
    kid = np.zeros((depth, prob.n_moves * k.KID), dtype=np.int64)
    keys = np.zeros((depth, prob.n_moves), dtype=np.int64)
    order = np.zeros((depth, prob.n_moves), dtype=np.int64)
    st = np.zeros((depth, s.STACK), dtype=np.int64)
    tt = np.zeros((_slots(table_bytes) + k.PAD, 2), dtype=np.int64)
    counters = np.zeros(s.NCOUNTERS, dtype=np.int64)
    counters[s.C_LIMIT] = budget.max_states if budget.max_states is not None else 1 << 62
    counters[s.C_PLIES] = plies
    stop = np.zeros((1, 1), dtype=np.int64)
    out = np.full(prob.n_moves, -1, dtype=np.int64)
    rules_in = (*enc[1:], lay.parts, lay.head, hands, points)
    result: list[int] = []

    def work() -> None:
        result.append(
            int(
                s.root(
                    mode, threshold, out, frame, kid, tt, counters, stop, st, keys, order, *rules_in
                )
            )
        )

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    try:
        worker.join(budget.remaining_seconds())
    finally:  # the time is up, or Ctrl-C: the search stops at its next look
        stop[0, 0] = 1
        worker.join()
    nodes = int(counters[s.C_NODES])
    expanded = int(counters[s.C_OPENED])
    seconds = time.perf_counter() - began
    if counters[s.C_ABORT] != 0 or not result:
        return Pruned(None, None, {}, False, nodes, expanded, seconds, False)
    moves = {m: int(v) for m, v in enumerate(out.tolist()) if v >= 0}
    best = None
    if moves and mode != s.PROOF:
        top = max(moves.values())
        best = next(m for m, v in moves.items() if v == top)
    return Pruned(result[0], best, moves, mode == s.EVERY, nodes, expanded, seconds, True)


def solve(
    position: Position,
    rules: Rules,
    budget: Budget | None = None,
    *,
    every_move: bool = False,
    table_bytes: int = TABLE_BYTES,
) -> Pruned:
    """The player to move's value and first best move; with ``every_move`` each root
    move's exact value too (each by its own search, sharing the table)."""
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    mode = s.EVERY if every_move else s.BEST
    return _run(position, rules, mode, 0, budget or Budget(), table_bytes)


def prove(
    position: Position,
    rules: Rules,
    threshold: int,
    budget: Budget | None = None,
    *,
    table_bytes: int = TABLE_BYTES,
) -> tuple[bool | None, int, float]:
    """Whether the player to move's value is at least ``threshold`` (None when the
    budget ran out), by one null-window search; and the nodes and seconds it took."""
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    found = _run(position, rules, s.PROOF, threshold, budget or Budget(), table_bytes)
    if not found.finished or found.value is None:
        return None, found.nodes, found.seconds
    return found.value >= threshold, found.nodes, found.seconds


def prove_win(
    position: Position, rules: Rules, budget: Budget | None = None
) -> tuple[bool | None, int, float]:
    """Can the player to move force a win within the horizon?"""
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    return prove(position, rules, s.WON_LOW, budget)


def prove_sanctuary(
    position: Position, rules: Rules, k: int, budget: Budget | None = None
) -> tuple[bool | None, int, float]:
    """Can the player to move force every line to end not lost with at least ``k``
    Sanctuary (a win counting as the last card)?"""
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    if k > LAST_SANCTUARY:  # nobody holds more than the last card
        return False, 0, 0.0
    return prove(position, rules, s.open_value(k, 0), budget)


def won_value(ply: int) -> int:
    """The search value of a win ``ply`` plies from the root."""
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    return s.WON_TOP - ply


def guaranteed(value: int) -> tuple[int | None, bool]:
    """``guaranteed_sanctuary`` and ``guaranteed_win`` of a search value."""
    from ruleslawyer.solvers.twist_of_fate.kernel import Z_OFF
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    if value >= s.WON_LOW:
        return LAST_SANCTUARY, True
    if value >= s.OPEN_BASE:
        return ((value - s.OPEN_BASE) >> 4) - Z_OFF, False
    return None, False


def table_bytes_for(position: Position, most: int) -> int:
    """The transposition table's size for a position: about 2^(10 + cards) slots of 16
    bytes (a table much larger than the nodes visited costs more to clear than it
    saves), at least 2^16 and at most 2^24 slots, and never more than ``most`` bytes."""
    cards = sum(len(seat.hand) for seat in position.state.seats)
    slots = 1 << min(24, max(16, 10 + cards))
    return min(most, 16 * slots)


def utility_of(value: int) -> tuple[int, int, int, int]:
    """A search value as the reference's utility tuple (outcome, tempo, Sanctuary,
    Luck + Shilling), plies counted from the root."""
    from ruleslawyer.solvers.twist_of_fate.common import LOST, OPEN, WON
    from ruleslawyer.solvers.twist_of_fate.kernel import Z_OFF
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    if value >= s.WON_LOW:
        return (WON, value - s.WON_TOP, 0, 0)
    if value >= s.OPEN_BASE:
        o = value - s.OPEN_BASE
        return (OPEN, 0, (o >> 4) - Z_OFF, o & 15)
    return (LOST, value, 0, 0)


def answer_json(position: Position, found: Pruned) -> dict[str, Any]:
    """The pruned answer as ``solve --format json`` writes it: the fields of the
    exhaustive paranoid output, those only the enumeration gives (reachable maximum,
    possible win, end states, the line) null, each value the player's own entry."""
    from ruleslawyer.models.twist_of_fate.play import seat_names
    from ruleslawyer.solvers.twist_of_fate.common import move_json
    from ruleslawyer.solvers.twist_of_fate.encoding import decode_move
    from ruleslawyer.solvers.twist_of_fate.maxn import (
        HORIZON,
        PARANOID,
        PARANOID_UTILITY,
        utility_json,
    )

    state = position.state
    me = position.names[state.active]
    names = seat_names(state, position.names)

    def move(m: int) -> dict[str, Any]:
        return move_json(decode_move(m, position), state.active, names, position.deck)

    done = found.finished and found.value is not None
    sanctuary, win = guaranteed(found.value) if done and found.value is not None else (None, None)
    moves = None
    if done and found.exact:
        moves = [
            {"move": move(m), "value": {me: utility_json(utility_of(v))}}
            for m, v in sorted(found.moves.items())
        ]
    return {
        "player": me,
        "guaranteed_sanctuary": sanctuary,
        "best_move": move(found.best) if done and found.best is not None else None,
        "reachable_max_sanctuary": None,
        "guaranteed_win": win,
        "possible_win": None,
        "end_states": None,
        "nodes": found.nodes,
        "seconds": found.seconds,
        "finished": done,
        "model": "paranoid",
        "utility": PARANOID_UTILITY.split("; each move")[0] + "; each value is the player's own",
        "tie_break": PARANOID,
        "horizon": HORIZON,
        "search": SEARCH,
        "value": {me: utility_json(utility_of(found.value))}
        if done and found.value is not None
        else None,
        "moves": moves,
        "line": None,
    }
