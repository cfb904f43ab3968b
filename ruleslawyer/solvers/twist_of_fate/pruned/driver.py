"""The pruned paranoid solver for Twist of Fate: its questions, its budget, its answers.

The model is the outcome-ranked paranoid one of
:mod:`~ruleslawyer.solvers.twist_of_fate.maxn` (mode ``paranoid``): every other
player minimises the utility of the player to move (or of the ``seat`` asked for:
what another player can guarantee), ties go to the first move in legal-move order.
Each field answers one precise question, the same one the exhaustive search
answers (``solve --exhaustive``):

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
in one thread (:mod:`~ruleslawyer.solvers.twist_of_fate.pruned.split` hands its
root moves to Dask workers); ``Budget.max_states`` caps the nodes it visits and
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
from ruleslawyer.models.twist_of_fate.play import Move, Rules
from ruleslawyer.solvers.twist_of_fate.encoding import Encoded

# the transposition table: slots of four words (32 bytes); a power of two of them
TABLE_BYTES = 1 << 28
LEAST_SLOTS = 1 << 10
SLOT_BYTES = 32
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
    seat: int = 0  # whose values (every other player plays against it)


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


def rise_levels(enc: Encoded) -> tuple[np.ndarray, np.ndarray]:
    """Each character's rise and fall (``[card, 0]``, ``[card, 1]``: the most one play
    of it, either side, face up or down, as player or target, adds to or takes from a
    seat's Luck + Shilling before it scores, read off the score table), and the
    distinct positive rises (row 0) and falls (row 1), highest first, padded with 0."""
    table = enc.scores.astype(np.int64)
    at = np.array([luck | (shilling << 3) for luck in range(5) for shilling in range(5)])
    twisted = (table[at] >> 8) & 63
    change = (twisted & 7) + (twisted >> 3) - ((at & 7) + (at >> 3))[:, None]
    per_card = np.zeros((enc.sides.shape[0], 2), dtype=np.int64)
    for c in range(enc.sides.shape[0]):
        used = change[:, np.r_[enc.sides[c], enc.columns[c].ravel()]]
        per_card[c] = max(0, int(used.max())), max(0, int(-used.min()))
    rows = [sorted({int(x) for x in per_card[:, r] if x > 0}, reverse=True) for r in (0, 1)]
    width = max(1, *(len(row) for row in rows))
    levels = np.zeros((2, width), dtype=np.int64)
    for r, row in enumerate(rows):
        levels[r, : len(row)] = row
    return per_card, levels


def hand_table(
    vectors: list[tuple[int, ...]], kinds: int, enc: Encoded
) -> tuple[np.ndarray, np.ndarray]:
    """A row per hand of multiset index ``hand`` (see the search's ``Z_*``): its number
    of cards, the mask of the kinds it holds (0 for a deck of more than
    :data:`MASKED_KINDS`), the sums of its cards' rises and falls, and how many of
    its cards have each rise, then each fall, of the levels (:func:`rise_levels`,
    returned too)."""
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    per_card, levels = rise_levels(enc)
    width = levels.shape[1]
    out = np.zeros((len(vectors), s.Z_LEVELS + 2 * width), dtype=np.int64)
    for i, v in enumerate(vectors):
        out[i, s.Z_CARDS] = sum(v)
        if kinds <= MASKED_KINDS:
            out[i, s.Z_KINDS] = sum(1 << c for c, n in enumerate(v) if n)
        for r in (0, 1):
            out[i, s.Z_RISE + r] = sum(n * int(per_card[c, r]) for c, n in enumerate(v))
            for j, level in enumerate(levels[r].tolist()):
                if level > 0:
                    at = s.Z_LEVELS + r * width + j
                    out[i, at] = sum(n for c, n in enumerate(v) if per_card[c, r] == level)
    return out, levels


def _reaches(start: np.ndarray, up: int, plays: np.ndarray) -> np.ndarray:
    """``[start, plays]``: how often a count starting at ``start`` (a column) can
    reach 4 (and drop to 0) in ``plays`` plays (a row) that each raise it by at most
    ``up``: once after (4 - start) / ``up`` plays (rounded up; at least 1: a count
    already at 4 scores when a play touches the seat), then once every 4 / ``up``."""
    if up <= 0:
        return np.zeros((start.shape[0], plays.shape[0]), dtype=np.int64)
    first = np.maximum(-(-(4 - np.minimum(start, 4)) // up), 1)
    return np.where(plays >= first, 1 + (plays - first) // -(-4 // up), 0)


def bound_tables(
    position: Position, enc: Encoded, rules: Rules
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The static bound's tables for a position: :func:`hand_table` of its hands'
    multiset indices, :func:`points_table` (a seat takes part in at most its own
    hand's plays and, as a target, the six-card limit's) and the rise levels."""
    from ruleslawyer.solvers.twist_of_fate.encoding import multisets
    from ruleslawyer.solvers.twist_of_fate.kernel import LIMIT

    kinds = len(position.deck.characters)
    most = max(len(seat.hand) for seat in position.state.seats)
    vectors, _ = multisets(kinds, most)
    hands, levels = hand_table(vectors, kinds, enc)
    return hands, points_table(enc, rules, most + LIMIT), levels


def _slots(table_bytes: int) -> int:
    slots = LEAST_SLOTS
    while slots * 2 * SLOT_BYTES <= table_bytes:
        slots *= 2
    return slots


def _no_packing(position: Position) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's packing tables (``parts``, ``head``: see ``tiers.pack_parts``) with
    every part 0: the search keys its table by the kernel's two words, so the packed
    word the kernel's ``_open`` works out for each child is not used (and any
    position, four seats of six cards too, can be searched)."""
    from ruleslawyer.solvers.twist_of_fate import kernel as k
    from ruleslawyer.solvers.twist_of_fate.encoding import multisets

    state = position.state
    most = max(len(seat.hand) for seat in state.seats)
    vectors, _ = multisets(len(position.deck.characters), most)
    hand_bits = max(1, (len(vectors) - 1).bit_length())
    seats, players, hands = len(state.seats), state.players, len(vectors)
    head = np.array([seats, players, hand_bits, hands], dtype=np.int64)
    return np.zeros(seats * k.SEAT_PARTS + players * hands + 4 + 8, dtype=np.int64), head


@dataclass(frozen=True)
class Levers:
    """The search's levers, both on by default, each measured side by side in
    benchmarks/README.md (off: the search as it was before them): the rise bound,
    and the other seats' fields out of the table's keys once no other seat can win.
    (The coarse question first, then the fine one only inside its answer's class,
    was measured there too and dropped: it paid only without the second lever.)"""

    rise: bool = True
    others_out: bool = True


class _Search:
    """One position's search: its tables, its transposition table, its counters and its
    stop flag."""

    def __init__(
        self,
        position: Position,
        rules: Rules,
        table_bytes: int,
        budget: Budget,
        levers: Levers,
        seat: int,
    ):
        from ruleslawyer.solvers.twist_of_fate import kernel as k
        from ruleslawyer.solvers.twist_of_fate.encoding import encode
        from ruleslawyer.solvers.twist_of_fate.pruned import search as s

        enc = encode(position, rules)
        params = enc.params.copy()
        params[k.P_ROOT] = seat  # whose value: every other player plays against it
        enc = enc._replace(params=params)
        # the player to move is the root player (its best: its highest), or another
        self.sign = 1 if seat == position.state.active else -1
        self.n_moves = len(position.deck.characters) * len(position.state.seats) * k.VARIANTS
        hands, points, levels = bound_tables(position, enc, rules)
        plies = sum(len(seat.hand) for seat in position.state.seats)
        depth = plies + 2
        self.frame = np.zeros((depth, k.FRAME), dtype=np.int64)
        self.root_frame = enc.root
        self.kid = np.zeros((depth, self.n_moves * k.KID), dtype=np.int64)
        self.keys = np.zeros((depth, self.n_moves), dtype=np.int64)
        self.order = np.zeros((depth, self.n_moves), dtype=np.int64)
        self.st = np.zeros((depth, s.STACK), dtype=np.int64)
        self.table = np.zeros((_slots(table_bytes) + k.PAD, s.SLOT_WORDS), dtype=np.int64)
        self.counters = np.zeros(s.NCOUNTERS, dtype=np.int64)
        self.counters[s.C_LIMIT] = budget.max_states if budget.max_states is not None else 1 << 62
        self.counters[s.C_PLIES] = plies
        self.stop = np.zeros((1, 1), dtype=np.int64)
        parts, head = _no_packing(position)
        self.rules_in = (*enc[1:], parts, head, hands, points, levels)
        self.abstract = rules.face_down_at_zero != "must-decrease"
        self.levers = levers

    def restart(self, budget: Budget) -> None:
        """Count afresh under ``budget``, keeping the table (its entries hold for any
        search of the same position and seat)."""
        from ruleslawyer.solvers.twist_of_fate.pruned import search as s

        plies = int(self.counters[s.C_PLIES])
        self.counters[:] = 0
        self.counters[s.C_LIMIT] = budget.max_states if budget.max_states is not None else 1 << 62
        self.counters[s.C_PLIES] = plies
        self.stop[0, 0] = 0

    @property
    def aborted(self) -> bool:
        from ruleslawyer.solvers.twist_of_fate.pruned import search as s

        return bool(self.counters[s.C_ABORT])

    def root(
        self,
        mode: int,
        *,
        windows: dict[int, tuple[int, int]] | None = None,
        threshold: int = 0,
    ) -> tuple[int, dict[int, tuple[int, int]]]:
        """One call of the search's ``root``: its value and each root move searched,
        by index, as (value, flag); ``windows`` the moves to search and the window
        each starts in (every move, whole window, when None)."""
        from ruleslawyer.solvers.twist_of_fate import kernel as k
        from ruleslawyer.solvers.twist_of_fate.pruned import search as s

        low = np.full(self.n_moves, s.LOW, dtype=np.int64)
        high = np.full(self.n_moves, s.HIGH, dtype=np.int64)
        if windows is not None:
            low[:] = 0
            high[:] = 0
            for m, (a, b) in windows.items():
                low[m], high[m] = a, b
        out = np.full(self.n_moves, -1, dtype=np.int64)
        flags = np.zeros(self.n_moves, dtype=np.int64)
        how = np.zeros(s.NHOW, dtype=np.int64)
        how[s.H_RISE] = self.levers.rise
        how[s.H_ABS] = self.abstract and self.levers.others_out
        self.frame[0, k.F_K1], self.frame[0, k.F_K2] = self.root_frame
        v = s.root(
            mode, threshold, low, high, out, flags, self.frame, self.kid, self.table,
            self.counters, self.stop, self.st, self.keys, self.order, how, *self.rules_in,
        )  # fmt: skip
        pairs = enumerate(zip(out.tolist(), flags.tolist(), strict=True))
        found = {m: (x, f) for m, (x, f) in pairs if x >= 0}
        return int(v), found


def _answer(
    search: _Search, mode: int, threshold: int
) -> tuple[int, int | None, dict[int, int], bool]:
    """The root searched: (value, best move, each move's value, whether ``moves`` is
    every move exact)."""
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    v, found = search.root(mode, threshold=threshold)
    moves = {m: x for m, (x, _) in found.items()}
    return v, _first_best(moves, search.sign), moves, mode == s.EVERY


def _first_best(moves: dict[int, int], sign: int) -> int | None:
    """The first move (legal-move order) of the best value for the player to move:
    the highest for the root player (``sign`` 1), else the lowest."""
    if not moves:
        return None
    top = max(sign * v for v in moves.values())
    return next(m for m, v in moves.items() if sign * v == top)


def _in_thread(search: _Search, budget: Budget, work: Any) -> Any:
    """``work()``'s answer, run in a thread (the compiled search releases the GIL)
    until it returns or the budget's time is up (or Ctrl-C): then the search stops at
    its next look and the answer is None."""
    result: list[Any] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as error:  # raised again in the calling thread
            result.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    try:
        worker.join(budget.remaining_seconds())
    finally:  # the time is up, or Ctrl-C: the search stops at its next look
        search.stop[0, 0] = 1
        worker.join()
    if result and isinstance(result[0], BaseException):
        raise result[0]
    return None if search.aborted or not result else result[0]


def _run(
    position: Position,
    rules: Rules,
    mode: int,
    threshold: int,
    budget: Budget,
    table_bytes: int,
    levers: Levers,
    seat: int,
) -> Pruned:
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    began = time.perf_counter()
    search = _Search(position, rules, table_bytes, budget, levers, seat)
    found = _in_thread(search, budget, lambda: _answer(search, mode, threshold))
    nodes = int(search.counters[s.C_NODES])
    expanded = int(search.counters[s.C_OPENED])
    seconds = time.perf_counter() - began
    if found is None:
        return Pruned(None, None, {}, False, nodes, expanded, seconds, False, seat=seat)
    value, best, moves, exact = found
    if mode == s.PROOF:
        best = None
    return Pruned(value, best, moves, exact, nodes, expanded, seconds, True, seat)


def search_window(
    position: Position,
    rules: Rules,
    seat: int,
    move: int,
    window: tuple[int, int],
    budget: Budget,
    table_bytes: int = TABLE_BYTES,
    kept: dict[str, Any] | None = None,
) -> tuple[int | None, int, int, int]:
    """Root move ``move``'s value for ``seat`` searched in ``window`` (which must hold
    it, or be cut by it): exact inside the window, else a bound on the side it fell;
    with the search module's flag for which (None, 0 when the budget ran out); and
    the nodes entered and expanded. ``kept`` keeps the search (its table) for the
    next call on the same position and seat."""
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    key = kept_key(position, rules, seat, table_bytes)
    search = (kept or {}).get(key)
    if search is None:
        search = _Search(position, rules, table_bytes, budget, Levers(), seat)
        if kept is not None:
            kept.clear()
            kept[key] = search
    else:
        search.restart(budget)
    found = _in_thread(search, budget, lambda: search.root(s.EVERY, windows={move: window})[1])
    nodes, expanded = int(search.counters[s.C_NODES]), int(search.counters[s.C_OPENED])
    value, flag = found.get(move, (None, 0)) if found is not None else (None, 0)
    return value, flag, nodes, expanded


def kept_key(position: Position, rules: Rules, seat: int, table_bytes: int) -> str:
    """What a kept search is for: the position's state, names and deck, the rules, the
    seat and the table's size."""
    return repr((position.state, position.names, position.deck, rules, seat, table_bytes))


def move_index(move: Move, position: Position) -> int:
    """The search's index of a model move (:func:`decode_move`'s inverse)."""
    from ruleslawyer.models.twist_of_fate.play import FACE_UP, SHILLING
    from ruleslawyer.solvers.twist_of_fate.kernel import VARIANTS

    seats = len(position.state.seats)
    base = (position.deck.names.index(move.card) * seats + move.target) * VARIANTS
    if move.play == FACE_UP:
        return base + (move.side or 0)
    mine = int(move.player_raises == SHILLING)
    if move.target == position.state.active:
        return base + 2 + mine
    return base + 2 + 2 * mine + int(move.target_raises == SHILLING)


def solve(
    position: Position,
    rules: Rules,
    budget: Budget | None = None,
    *,
    every_move: bool = False,
    table_bytes: int = TABLE_BYTES,
    levers: Levers = Levers(),
    seat: int | None = None,
) -> Pruned:
    """The value of ``seat`` (default: the player to move) when every other player
    plays against it, and the first best move of the player to move (its own best, or,
    when another seat's value is asked, the move worst for that seat); with
    ``every_move`` each root move's exact value too (sharing the table)."""
    from ruleslawyer.solvers.twist_of_fate.pruned import search as s

    mode = s.EVERY if every_move else s.BEST
    who = position.state.active if seat is None else seat
    return _run(position, rules, mode, 0, budget or Budget(), table_bytes, levers, who)


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

    found = _run(
        position, rules, s.PROOF, threshold, budget or Budget(), table_bytes, Levers(),
        position.state.active,
    )  # fmt: skip
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
    """The transposition table's size for a position: about 2^(10 + cards) slots of
    :data:`SLOT_BYTES` (the memory a search touches grows with the nodes it visits; a
    table never written costs none, its pages mapped lazily), at least 2^16 and at most
    2^24 slots, and never more than ``most`` bytes."""
    cards = sum(len(seat.hand) for seat in position.state.seats)
    slots = 1 << min(24, max(16, 10 + cards))
    return min(most, SLOT_BYTES * slots)


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
    possible win, end states, the line) null, each value the player's own entry.
    ``player`` is the seat whose values they are, ``to_move`` the player to move (the
    same unless another seat's guarantee was asked: then every move is the player to
    move's, and ``best_move`` the first one worst for ``player``)."""
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
    me = position.names[found.seat]
    mover = position.names[state.active]
    names = seat_names(state, position.names)
    utility = PARANOID_UTILITY.split("; each move")[0] + "; each value is the player's own"
    tie_break = PARANOID
    if found.seat != state.active:
        for whose in ("the player to move's", "the player's"):
            utility = utility.replace(whose, f"{me}'s")
        tie_break = tie_break.replace("against the player to move", f"against {me}")

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
        "to_move": mover,
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
        "utility": utility,
        "tie_break": tie_break,
        "horizon": HORIZON,
        "search": SEARCH,
        "value": {me: utility_json(utility_of(found.value))}
        if done and found.value is not None
        else None,
        "moves": moves,
        "line": None,
    }
