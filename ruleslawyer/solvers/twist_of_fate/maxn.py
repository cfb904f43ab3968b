"""Every move scored and the line shown, for Twist of Fate, under max^n or paranoid play.

:func:`analyse` values every legal move of the player to move under the chosen
opponent model and follows the principal variation to the horizon (the end of
the round, or of the game if it comes first), with the compiled search of
:mod:`~ruleslawyer.solvers.twist_of_fate.maxn_kernel` or the plain reference of
:mod:`~ruleslawyer.solvers.twist_of_fate.reference.maxn` it is tested against.
The rule of choice (utility and tie-break) is
:data:`~ruleslawyer.solvers.twist_of_fate.common.TIE_BREAK`.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.errors import BudgetExceeded, InputError
from ruleslawyer.models.twist_of_fate.files import Position
from ruleslawyer.models.twist_of_fate.play import Move, Rules, State, play, seat_names
from ruleslawyer.solvers.twist_of_fate.common import (
    LOST,
    OPEN,
    TIE_BREAK,
    UTILITY,
    WON,
    SolveResult,
    Utility,
    Vector,
    move_json,
    shift,
    unfinished,
)

SLICE = 1 << 20
LINE_APART = 16  # int64s between two searches' counters: two 64-byte lines
FIRST_CAPACITY = 1 << 16
LOAD = 0.5
HORIZON = "the end of the current round (or of the game, if it ends first)"
CHANCE_TIES = (
    "a chance node's value is the expectation of every player's utility components "
    "(outcome as +1 won, 0 open, -1 lost; tempo as minus the plies to a win, plus the "
    "plies to a loss; Sanctuary and Luck + Shilling when open, else 0); a player choosing "
    "between moves compares expected utilities in that order and breaks ties by the same "
    "rule on the expectations; after a draw every hand is open to both players (the "
    "draws are not hidden in the search)"
)
PARANOID_UTILITY = f"the player to move's, {UTILITY}; each move's value lists every player's"
PARANOID = (
    "paranoid: every other player plays against the player to move, minimising its "
    "utility; ties go to the first move in legal-move order; a move's value is the end "
    "of its line under that play, and the player's own entry is what it can guarantee"
)


@dataclass(frozen=True)
class Analysis:
    """Every move of the player to move with its value, and the principal variation."""

    model: str
    scored: tuple[tuple[Move, Vector], ...]
    line: tuple[tuple[Move, State], ...]
    states: int
    seconds: float
    finished: bool
    horizon: str = HORIZON
    chance: str | None = None  # across round ends: how chance nodes were valued
    line_end: str | None = None  # where the line stops short of the horizon, and why
    before: tuple[State, ...] = ()  # the state before each ply, when not the one after the last


def analyse(
    position: Position,
    rules: Rules,
    model: str = "maxn",
    budget: Budget | None = None,
    *,
    solver: str = "numba",
    max_table_bytes: int = 5 << 30,
    threads: int = 1,
    slot_width: int | None = None,
) -> Analysis:
    """Value every move under ``model`` ("maxn" or "paranoid"); unfinished if the budget
    ends. ``threads`` compiled searches share the tables (the answer does not depend
    on how many); ``slot_width`` 2 forces max^n's two-word slots (tests)."""
    budget = budget or Budget()
    began = time.perf_counter()
    if solver == "reference":
        from ruleslawyer.solvers.twist_of_fate.reference.maxn import solve_moves

        try:
            scored, line, states = solve_moves(position.state, position.deck, rules, model, budget)
        except BudgetExceeded:
            return Analysis(model, (), (), 0, time.perf_counter() - began, False)
        return Analysis(
            model, tuple(scored), tuple(line), states, time.perf_counter() - began, True
        )
    return _compiled(position, rules, model, budget, max_table_bytes, threads, slot_width)[0]


def paranoid_solve(
    position: Position,
    rules: Rules,
    budget: Budget | None = None,
    *,
    max_table_bytes: int = 5 << 30,
    threads: int = 1,
) -> tuple[Analysis, SolveResult]:
    """The paranoid analysis (every move scored, the line) and the paranoid solver's
    answer (guaranteed and reachable Sanctuary, wins, end states) from one compiled
    search; both unfinished if the budget ends it."""
    return _compiled(position, rules, "paranoid", budget or Budget(), max_table_bytes, threads)


def _compiled(
    position: Position,
    rules: Rules,
    model: str,
    budget: Budget,
    max_bytes: int,
    threads: int,
    slot_width: int | None = None,
) -> tuple[Analysis, SolveResult]:
    """The compiled search under ``model``; with "paranoid" also the paranoid solver's
    answer (with "maxn" that is left unfinished, with no values)."""
    from ruleslawyer.solvers.twist_of_fate import kernel as k
    from ruleslawyer.solvers.twist_of_fate import maxn_kernel as mk
    from ruleslawyer.solvers.twist_of_fate import tiers
    from ruleslawyer.solvers.twist_of_fate.memory import Tables, paranoid_result

    began = time.perf_counter()
    prob = tiers.problem(position, rules, 2)
    lay = prob.lay
    mode = 1 if model == "paranoid" else 0
    # max^n: one-word slots (the packed state, the vector's code above it) where the
    # code fits; else, and in paranoid mode, two-word slots (the state, the value word)
    params = one_word_params(position, lay, prob.enc.params) if mode == 0 else None
    width = 2 if params is None or slot_width == 2 else 1
    if params is None:  # no code parameters: the kernel's, and room for them
        params = np.zeros(mk.NPARAMS, dtype=np.int64)
        params[: prob.enc.params.shape[0]] = prob.enc.params
    enc = prob.enc._replace(params=params)
    root_kw = tiers.root_word(prob) | int(enc.params[k.P_MARK])
    state = position.state
    name = position.names[state.active]
    depth = sum(len(s.hand) for s in state.seats) + 2
    n = threads
    frame = np.zeros((n, depth, mk.FRAME), dtype=np.int64)
    frame[:, 0, k.F_K1], frame[:, 0, k.F_K2] = enc.root
    frame[:, 0, k.F_W] = root_kw
    frame[:, 0, k.F_N] = -1
    kid = np.zeros((n, depth, prob.n_moves * k.KID), dtype=np.int64)
    # each search's counters on cache lines of their own: the searches write them at
    # every node, and counters sharing a line would bounce it between processors
    counters = np.zeros((n, LINE_APART), dtype=np.int64)[:, : mk.NCOUNTERS]
    root_vals = np.full((n, prob.n_moves), -1, dtype=np.int64)
    pool = ThreadPoolExecutor(n) if n > 1 else None
    kmask = int(enc.params[k.P_KMASK])
    tables = Tables(FIRST_CAPACITY, max_bytes, pool, n, width=width, kmask=kmask)
    stop = np.zeros((1, 1), dtype=np.int64)  # set by the first search to end its slice
    # max^n keeps no horizon states: their prefetches go to a small table
    dummy = np.zeros((k.PAD + 2, 1), dtype=np.int64)
    rules_in = (*enc[1:], lay.parts, lay.head)
    progress = Progress(f"twist-of-fate {model}: states")
    counts = {"main": mk.C_STATES, "leaves": mk.C_LEAVES, "ends": mk.C_ENDS}
    leaves = tables.leaves if mode == 1 else dummy

    def states() -> int:
        return int(counters[:, mk.C_STATES].sum() + counters[:, mk.C_LEAVES].sum())

    def run(w: int, room: np.ndarray) -> int:
        return int(
            mk.search(
                frame[w], kid[w], counters[w], tables.main, leaves, tables.ends, root_vals[w],
                *rules_in, SLICE, room[w], mode, stop, w / n,
            )
        )  # fmt: skip

    def cut() -> tuple[Analysis, SolveResult]:
        seconds = time.perf_counter() - began
        return Analysis(model, (), (), states(), seconds, False), unfinished(
            name, states(), seconds
        )

    columns = [mk.C_STATES, mk.C_LEAVES, mk.C_ENDS]
    try:
        while True:
            leaves = tables.leaves if mode == 1 else dummy
            total = counters[:, columns].sum(axis=0)
            spare = np.array(tables.limits(), dtype=np.int64) - total
            if budget.max_states is not None:
                spare[0] = min(spare[0], budget.max_states - states())
            # each search's share of what the tables may still take, rounded up; in C
            # order, as compiled ahead (cli/twist_of_fate/kernels.py): a row of another
            # layout would compile the kernel again
            room = np.ascontiguousarray(counters[:, columns] + np.maximum(0, -(-spare // n)))
            stop[0, 0] = 0
            statuses = list(pool.map(run, range(n), [room] * n) if pool else [run(0, room)])
            if mk.STATUS_DONE in statuses:
                done = statuses.index(mk.STATUS_DONE)
                break
            if mk.STATUS_UNPACKABLE in statuses:
                raise InputError(
                    "position", "seats", "a reachable state out of the packing's ranges",
                    "a position whose states fit the packing",
                )  # fmt: skip
            progress.update(states())
            if mk.STATUS_OVERFLOW in statuses or budget.spent(states()):
                return cut()
            limits = dict(zip(counts, tables.limits(), strict=True))
            for which, c in counts.items():
                if counters[:, c].sum() >= limits[which] and (
                    not tables.can_grow(which) or not tables.grow(which)
                ):
                    return cut()
    finally:
        progress.close()
        if pool is not None:
            pool.shutdown()
    out = np.zeros(depth, dtype=np.int64)
    scratch = (np.zeros((1, mk.FRAME), dtype=np.int64), np.zeros((1, kid.shape[2]), np.int64))
    scratch[0][0, k.F_K1], scratch[0][0, k.F_K2] = enc.root
    scratch[0][0, k.F_W] = root_kw
    n = mk.principal_line(tables.main, dummy, *rules_in, *scratch, out)
    seconds = time.perf_counter() - began
    analysis = analysis_of_words(
        position, rules, model, root_vals[done].tolist(), out[:n].tolist(), states(), seconds
    )
    if mode == 0:
        return analysis, unfinished(name, states(), seconds)
    top = int(mk.lookup(tables.main, root_kw, k.slot_hash(root_kw), enc.params))
    mine = root_vals[done]
    paranoid = np.where(mine >= 0, (mine >> mk.P_SHIFT) & 0xFFFF, -1)
    result = paranoid_result(
        position, (top >> mk.P_SHIFT) & 0xFFFF, paranoid, int(counters[:, mk.C_ENDS].sum()),
        states(), began,
    )  # fmt: skip
    return analysis, result


def one_word_params(position: Position, lay: Any, params: np.ndarray) -> np.ndarray | None:
    """The kernel's ``params`` with the max^n kernel's code parameters after them (see
    ``maxn_kernel.narrow``), or None if the code of a vector does not fit beside the
    packed state in one word. Each player's digit spans its packed Sanctuary range
    (up to the last card, or the seat's own if higher: as the packing's), times the
    nine values of Luck + Shilling."""
    from ruleslawyer.solvers.twist_of_fate import kernel as k
    from ruleslawyer.solvers.twist_of_fate import maxn_kernel as mk

    out = np.zeros(mk.NPARAMS, dtype=np.int64)
    out[: params.shape[0]] = params
    out[mk.C_VSHIFT] = lay.bits + 1
    at = 0
    for p, seat in enumerate(position.state.seats[: position.state.players]):
        _, _, lowest = (int(x) for x in lay.fields[3 * p + 1])
        highest = max(seat.sanctuary, k.LAST) + k.Z_OFF
        bits = ((highest - lowest + 1) * mk.LS_VALUES - 1).bit_length()
        out[mk.C_AT + p], out[mk.C_BITS + p], out[mk.C_ZLOW + p] = at, bits, lowest
        at += bits
    out[mk.C_FLAG] = max(at, mk.DECIDED_BITS)
    return out if lay.bits + 1 + int(out[mk.C_FLAG]) + 1 <= 64 else None


def analysis_of_words(
    position: Position,
    rules: Rules,
    model: str,
    root_words: list[int],
    line_moves: list[int],
    states: int,
    seconds: float,
) -> Analysis:
    """The finished analysis from the kernel's value words of the root's children (by
    move index; -1 where a move is not legal) and the moves of the principal line."""
    state = position.state
    scored = tuple(
        (_move(m, state, position), shift(_vector(v, state.players)))
        for m, v in enumerate(root_words)
        if v >= 0
    )
    line: list[tuple[Move, State]] = []
    at = state
    for m in line_moves:
        move = _move(m, at, position)
        at = play(at, move, position.deck, rules)
        line.append((move, at))
    return Analysis(model, scored, tuple(line), states, seconds, True)


def paranoid_json(position: Position, analysis: Analysis, result: SolveResult) -> dict[str, Any]:
    """What ``solve --model paranoid --exhaustive`` answers, as JSON: the paranoid
    solver's fields (its best move the outcome-ranked choice of the analysis, its
    guarantees read from the outcome-ranked value), then the analysis's (model,
    utility, every move's value, the line); its states (the nodes) and seconds."""
    found = analysis_json(position, analysis)
    out = {**result.to_json(), **found, "player": result.player}
    out["best_move"] = found["best_move"] if result.finished else None
    out.update(
        states=result.states,
        seconds=result.seconds,
        finished=result.finished and analysis.finished,
    )
    if out["finished"] and found["value"]:
        out["guaranteed_sanctuary"], out["guaranteed_win"] = guarantees(
            found["value"][result.player]
        )
    out.update(nodes=result.states, search="exhaustive")
    return out


def guarantees(mine: dict[str, Any]) -> tuple[int | None, bool]:
    """guaranteed_sanctuary and guaranteed_win from the player's outcome-ranked paranoid
    value (its JSON): the largest k such that every line can be made to end not lost
    with at least k Sanctuary (a win counts as the last card, 8; None: a loss cannot
    be avoided), and whether the value is a win."""
    if mine["outcome"] == "won":
        return 8, True
    if mine["outcome"] == "open":
        return mine["sanctuary"], False
    return None, False


def _move(m: int, state: State, position: Position) -> Move:
    from ruleslawyer.solvers.twist_of_fate.encoding import decode_move

    return decode_move(m, Position(state, position.names, position.deck, position.rulings))


def _vector(word: int, players: int) -> Vector:
    """A kernel value word's vector (plies from the state it values)."""
    from ruleslawyer.solvers.twist_of_fate import maxn_kernel as mk
    from ruleslawyer.solvers.twist_of_fate.kernel import Z_OFF

    word &= mk.VEC_MASK
    out: list[tuple[int, int, int, int]] = []
    for s in range(players):
        u = (word >> (mk.W * s)) & mk.UMASK
        if u >= mk.WON_LOW:
            out.append((WON, u - mk.WON_TOP, 0, 0))
        elif u >= mk.OPEN_BASE:
            o = u - mk.OPEN_BASE
            out.append((OPEN, 0, (o >> 4) - Z_OFF, o & 15))
        else:
            out.append((LOST, u, 0, 0))
    return tuple(out)


def vector_json(names: tuple[str, ...], vector: Vector) -> dict[str, Any]:
    """Every player's utility by name: its outcome and, for a win or a loss, the ply it
    comes at (counted from the position, its move ply 1), or when open its Sanctuary and
    Luck + Shilling. An expected utility (a chance node's, or an average over hidden
    cards: fractions) gives the expected components, exact ("p/q")."""
    return {names[p]: utility_json(u) for p, u in enumerate(vector)}


def utility_json(u: Utility) -> dict[str, Any]:
    outcome, tempo, sanctuary, luck_shilling = u
    if any(isinstance(x, Fraction) for x in u):
        return {
            "outcome": "expected",
            "expected_outcome": _number(outcome),
            "expected_tempo": _number(tempo),
            "sanctuary": _number(sanctuary),
            "luck_plus_shilling": _number(luck_shilling),
        }
    if outcome == OPEN:
        return {"outcome": "open", "sanctuary": sanctuary, "luck_plus_shilling": luck_shilling}
    return {"outcome": "won" if outcome == WON else "lost", "ply": abs(tempo)}


def _number(x: Any) -> int | str:
    """A whole number as itself, an exact fraction as "p/q"."""
    fraction = Fraction(x)
    return int(fraction) if fraction.denominator == 1 else str(fraction)


def best(analysis: Analysis) -> tuple[Move, Vector] | None:
    """The move the line starts with, and its value."""
    if not analysis.line:
        return None
    first = analysis.line[0][0]
    return next(mv for mv in analysis.scored if mv[0] == first)


def analysis_json(position: Position, analysis: Analysis) -> dict[str, Any]:
    """The analysis as JSON: model, assumptions, every move's value and the line."""
    state, deck = position.state, position.deck
    names = seat_names(state, position.names)
    root = state.active

    def value(vector: Vector) -> dict[str, Any]:
        return vector_json(names, vector)

    out: dict[str, Any] = {
        "player": position.names[root],
        "model": analysis.model,
        "utility": UTILITY if analysis.model == "maxn" else PARANOID_UTILITY,
        "tie_break": TIE_BREAK if analysis.model == "maxn" else PARANOID,
        "horizon": analysis.horizon,
    }
    if analysis.chance is not None:
        out["chance"] = analysis.chance
        out["chance_ties"] = CHANCE_TIES
    if analysis.finished:
        chosen = best(analysis)
        out["best_move"] = move_json(chosen[0], root, names, deck) if chosen else None
        out["value"] = value(chosen[1]) if chosen else None
        out["moves"] = [
            {"move": move_json(m, root, names, deck), "value": value(v)} for m, v in analysis.scored
        ]
        line = []
        before = state
        for ply, (m, after) in enumerate(analysis.line, start=1):
            if analysis.before:
                before = analysis.before[ply - 1]
            line.append(
                {
                    "ply": ply,
                    **({"round": before.round} if analysis.before else {}),
                    "player": names[before.active],
                    "move": move_json(m, before.active, names, deck),
                    "seats": {
                        names[s]: {
                            "luck": seat.luck,
                            "shilling": seat.shilling,
                            "sanctuary": seat.sanctuary,
                        }
                        for s, seat in enumerate(after.seats)
                    },
                }
            )
            before = after
        out["line"] = line
        if analysis.line_end is not None:
            out["line_end"] = analysis.line_end
    else:
        out.update(best_move=None, value=None, moves=None, line=None)
    out.update(states=analysis.states, seconds=analysis.seconds, finished=analysis.finished)
    return out
