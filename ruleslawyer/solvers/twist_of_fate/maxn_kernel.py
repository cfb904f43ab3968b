"""The compiled max^n search for Twist of Fate (imported only by its driver).

It runs on the machinery of :mod:`~ruleslawyer.solvers.twist_of_fate.kernel`:
a node's children are listed in move order, keyed by the tiers' 64-bit packing
and their table slots prefetched, by that kernel's ``_open``; then the children
that need no search (horizon states, and states already stored) are valued in
one pass, and the search visits only the rest. The table is that kernel's,
grown in place by the driver's
:class:`~ruleslawyer.solvers.twist_of_fate.memory.StateTable`: in max^n (mode 0)
one-word slots where a vector's code (:func:`narrow`) fits beside the packed
state, as the paranoid solver's value does (a quarter of the memory of two-word
slots at half load; on 3p-9 it is most of the time the system spends clearing
new pages), else two-word slots (the packed state, then the value word). Only
the value rule and the code are this module's.

A node's value is a vector: per player ``s``, 11 bits at ``11 * s``, its
outcome-ranked utility (:data:`~ruleslawyer.solvers.twist_of_fate.common.UTILITY`)
as one integer that compares as the utility does, plies counted from the node:

- lost ``ply`` plies from the node: ``ply`` (0 to :data:`MAX_PLY`; more plies, larger);
- open: :data:`OPEN_BASE` + (Sanctuary plus ``Z_OFF``) * 16 + Luck + Shilling;
- won ``ply`` plies from the node: :data:`WON_TOP` - ``ply``.

A horizon state is 0 plies from itself; a node's vector is its chosen child's
one ply further off (:func:`shift`), so a state's value still depends only on the
state. The value word holds the vector and,
in mode 1, above :data:`P_SHIFT`, the paranoid kernel's own value of the node (its
16-bit guaranteed and reachable Sanctuary, guaranteed and possible win), so that
one search gives both the paranoid analysis and the paranoid solver's answer;
mode 1 also keeps the horizon states in a leaf table and their projections in an
end-state set, as the paranoid kernel does. The move chosen at a node is not
stored: it is the first child, in move order, whose vector is the node's
(:func:`principal_line`).

``mode`` 0 is max^n with the spiteful tie-break of
:mod:`~ruleslawyer.solvers.twist_of_fate.common`; ``mode`` 1 is paranoid
minimax for the root player (its utility: the highest where it moves, the
lowest elsewhere). In both, of the moves of equal worth the first in move
order is chosen (:func:`_fold`), whatever order they are valued in.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ruleslawyer.solvers.twist_of_fate import kernel
from ruleslawyer.solvers.twist_of_fate.kernel import (
    ACT_SHIFT,
    F_CUR,
    F_G,
    F_GW,
    F_K1,
    F_K2,
    F_N,
    F_NEXT,
    F_PW,
    F_R,
    F_SLOT,
    F_W,
    K_H,
    K_INFO,
    K_SLOT,
    K_W,
    KID,
    LEAF_BIT,
    NOT_PACKED,
    OVERFLOW,
    P_ENDMASK,
    P_HB,
    P_KMASK,
    P_N,
    P_ROOT,
    SEAT_BITS,
    SEAT_MASK,
    Z_OFF,
    Z_SHIFT,
    _combine,
    _encode,
    _insert_end,
    _load,
    _open,
    _second,
    _store_release,
    enter,
    home_mask,
    horizon_value,
    insert_from,
    keep_child,
    locate,
    run_mark,
    run_start,
    slot_hash,
    store_leaf,
    turned,
)

W = 11  # bits per player in a value vector
UMASK = (1 << W) - 1
# lost: 0..31; open: 32..1055; won: 2016..2047. A round has at most 24 plies (position
# files allow at most 6 cards in a hand for 3-4 players, 9 for 2), so no ply overflows.
MAX_PLY = 31
OPEN_BASE = MAX_PLY + 1
WON_TOP = UMASK
WON_LOW = WON_TOP - MAX_PLY
Z_SUM_OFF = 128  # _others: the open Sanctuary sum plus this, in 8 bits
# One-word slots (max^n, where the code fits beside the packed state): a vector as a
# code (see narrow), its parameters after the kernel's in ``params``: the shift of
# the code in the slot, the bit of the decided flag, then per player the code's bit
# offset and width and the lowest Sanctuary (kernel units) of its digit
C_VSHIFT = kernel.NPARAMS
C_FLAG = C_VSHIFT + 1
C_AT = C_VSHIFT + 2
C_BITS = C_AT + 4
C_ZLOW = C_BITS + 4
NPARAMS = C_ZLOW + 4
LS_VALUES = 9  # Luck + Shilling: 0 to 8
DECIDED_BITS = 8  # a decided code: the winner (3 bits, 7: none of the players), the ply
P_SHIFT = 4 * W  # the value word: the vector, then (mode 1) the kernel's paranoid value
VEC_MASK = (1 << P_SHIFT) - 1
MOVE_INFO = 17  # a child's move is its K_INFO word shifted down this far

# frame: the kernel's fields (its paranoid value so far among them), then the node's
# best vector so far, its move, and whether it has one
F_BEST, F_MOVE, F_HAS = kernel.FRAME, kernel.FRAME + 1, kernel.FRAME + 2
FRAME = kernel.FRAME + 3
# counters: entries added to the table, the leaf table and the end-state set
C_DEPTH, C_STATES, C_LEAVES, C_ENDS = range(4)
NCOUNTERS = 4
STATUS_DONE, STATUS_SLICE, STATUS_FULL, STATUS_OVERFLOW, STATUS_UNPACKABLE = range(5)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def leaf_vector(k1, k2, params):
    """Every player's utility at a horizon state (0 plies from it)."""
    n = params[P_N]
    winner = ((k2 >> (params[P_HB] * n)) & 7) - 1
    vec = np.int64(0)
    for s in range(n):
        if winner < 0:
            f = (k1 >> (SEAT_BITS * s)) & SEAT_MASK
            u = OPEN_BASE + ((((f >> Z_SHIFT) & 63) << 4) | ((f & 7) + ((f >> 3) & 7)))
        elif winner == s:
            u = np.int64(WON_TOP)
        else:
            u = np.int64(0)
        vec |= u << (W * s)
    return vec


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def shift(vec, n):
    """A child's vector seen from its parent, one ply earlier: each win and each loss
    one ply further off."""
    out = vec & ~np.int64(VEC_MASK)
    for s in range(n):
        u = (vec >> (W * s)) & UMASK
        if u < OPEN_BASE:
            u += 1
        elif u >= WON_LOW:
            u -= 1
        out |= u << (W * s)
    return out


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _others(vec, p, n):
    """The sums of the others' outcome ranks (won 2, open 1, lost 0), open Sanctuary
    and open Luck + Shilling as one integer."""
    sw = 0
    sz = Z_SUM_OFF
    sl = 0
    for s in range(n):
        if s != p:
            u = (vec >> (W * s)) & UMASK
            if u >= WON_LOW:
                sw += 2
            elif u >= OPEN_BASE:
                sw += 1
                o = u - OPEN_BASE
                sz += (o >> 4) - Z_OFF
                sl += o & 15
    return (sw << 16) | (sz << 8) | sl


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def compare(a, b, p, n, mode, root):
    """1 if the mover ``p`` prefers vector ``a`` to ``b``, -1 if ``b`` to ``a``, 0 if
    neither (mode 0: the vectors are equal; mode 1: the root's utilities are)."""
    if mode == 1:
        ua = (a >> (W * root)) & UMASK
        ub = (b >> (W * root)) & UMASK
        if ua == ub:
            return 0
        return 1 if (ua > ub) == (p == root) else -1
    ua = (a >> (W * p)) & UMASK
    ub = (b >> (W * p)) & UMASK
    if ua != ub:
        return 1 if ua > ub else -1
    oa = _others(a, p, n)
    ob = _others(b, p, n)
    if oa != ob:
        return 1 if oa < ob else -1
    for k in range(1, n):
        q = p + k
        if q >= n:
            q -= n
        ua = (a >> (W * q)) & UMASK
        ub = (b >> (W * q)) & UMASK
        if ua != ub:
            return 1 if ua < ub else -1
    return 0


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def narrow(vec, params):
    """A vector (mode 0) as the code a one-word slot keeps beside the packed state, or
    -1 if a Sanctuary is out of the code's range. A line with a winner is decided: every
    player's utility follows from the winner (7: none of the players, the Monks) and the
    ply, below the flag bit ``params[C_FLAG]``. An open line: per player the digit
    (Sanctuary - its lowest) * 9 + Luck + Shilling, at its bit offset."""
    n = params[P_N]
    u0 = vec & UMASK
    if u0 < OPEN_BASE or u0 >= WON_LOW:
        winner = np.int64(7)
        ply = u0 if u0 < OPEN_BASE else WON_TOP - u0
        for s in range(n):
            if ((vec >> (W * s)) & UMASK) >= WON_LOW:
                winner = s
        return (np.int64(1) << params[C_FLAG]) | (winner << 5) | ply
    code = np.int64(0)
    for s in range(n):
        o = ((vec >> (W * s)) & UMASK) - OPEN_BASE
        digit = ((o >> 4) - params[C_ZLOW + s]) * LS_VALUES + (o & 15)
        if digit < 0 or digit >= np.int64(1) << params[C_BITS + s]:
            return np.int64(-1)
        code |= digit << params[C_AT + s]
    return code


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def widen(code, params):
    """:func:`narrow` undone."""
    n = params[P_N]
    vec = np.int64(0)
    if (code >> params[C_FLAG]) & 1:
        winner = (code >> 5) & 7
        ply = code & 31
        for s in range(n):
            u = WON_TOP - ply if s == winner else ply
            vec |= u << (W * s)
        return vec
    for s in range(n):
        digit = (code >> params[C_AT + s]) & ((np.int64(1) << params[C_BITS + s]) - 1)
        z = digit // LS_VALUES
        u = OPEN_BASE + (((z + params[C_ZLOW + s]) << 4) | (digit - z * LS_VALUES))
        vec |= u << (W * s)
    return vec


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def value_at(table, i, params):
    """The value word in slot ``i``: the second word of a two-word slot, or the vector
    coded above the packed state in a one-word slot."""
    if table.shape[1] == 2:
        return _second(table, i)
    vshift = params[C_VSHIFT]
    return widen((table[i, 0] >> vshift) & ((np.int64(1) << (64 - vshift)) - 1), params)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def lookup(table, kw, h, params):
    """The value word stored with the packed state ``kw`` (``h`` its hash), or -1."""
    i, found = locate(table, kw, params[P_KMASK], h & home_mask(table))
    return value_at(table, i, params) if found else np.int64(-1)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _fold(frame, d, word, m, root_vals, params, mode):
    """Fold child move ``m``'s value word into the node's: the best vector by the
    mover's preference, then the first in move order; in mode 1 the paranoid value too."""
    if d == 0:
        root_vals[m] = word
    if mode == 1:
        _combine(frame, d, (word >> P_SHIFT) & 0xFFFF)
    vec = word & VEC_MASK
    if frame[d, F_HAS] != 0:
        p = (frame[d, F_K1] >> ACT_SHIFT) & 3
        c = compare(vec, frame[d, F_BEST], p, params[P_N], mode, params[P_ROOT])
        if c < 0 or (c == 0 and m > frame[d, F_MOVE]):
            return
    frame[d, F_BEST] = vec
    frame[d, F_MOVE] = m
    frame[d, F_HAS] = 1


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _settle(frame, kid, d, table, leaves, ends, counters, root_vals, params, mode):
    """Value the children of the node at depth ``d`` that need no search (horizon
    states, states already stored); keep the others, in order, as the node's
    children to visit. Mode 1 puts the horizon states in ``leaves`` and their
    projections in ``ends``. Returns 0, or the status that stops the search."""
    kmask = params[P_KMASK]
    endmask = params[P_ENDMASK]
    keep = np.int64(0)  # not 0: a literal would compile keep_child again (a first run)
    for j in range(frame[d, F_N]):
        b = j * KID
        kw = kid[d, b + K_W]
        if kw == NOT_PACKED:
            return STATUS_UNPACKABLE
        info = kid[d, b + K_INFO]
        if info & LEAF_BIT:
            word = leaf_vector(kid[d, b], kid[d, b + 1], params)
            if mode == 1:
                word |= (info & 0xFFFF) << P_SHIFT
                added, new_ends = store_leaf(leaves, ends, kid, d, b, kw, kmask, endmask)
                if added == OVERFLOW:
                    return STATUS_OVERFLOW
                counters[C_LEAVES] += added
                counters[C_ENDS] += new_ends
        else:
            i, found = locate(table, kw, kmask, kid[d, b + K_H] & home_mask(table))
            if not found:
                kid[d, b + K_SLOT] = run_mark(table, i)
                keep_child(kid, d, keep, b)
                keep += 1
                continue
            word = value_at(table, i, params)
        _fold(frame, d, word, info >> MOVE_INFO, root_vals, params, mode)
    frame[d, F_N] = keep
    return 0


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def search(
    frame, kid, counters, table, leaves, ends, root_vals, params, remove, cards, sides,
    scores, columns, after, parts, head, steps, room, mode, stop, turn,
):  # fmt: skip
    """Run the depth-first search for about ``steps`` children, or until this search
    has added ``room[0]``, ``room[1]`` or ``room[2]`` entries to the table, the leaf
    table or the end-state set; resumable from ``frame``/``counters``. In mode 0
    ``leaves`` only takes the horizon states' prefetches (a small table will do) and
    ``ends`` is unused.

    Several searches may run at once over the same tables, as in the paranoid
    kernel's ``search``: each from the root with its own stack, visiting a node's
    children from ``turn`` (between 0 and 1) along its list; inserts are
    compare-and-swap, and a state's value depends only on the state (ties go to
    the first move in move order, whatever order the moves are valued in). A slice
    ends when ``stop[0, 0]`` is not 0, and sets it as it ends."""
    kmask = params[P_KMASK]
    endmask = params[P_ENDMASK]
    d = counters[C_DEPTH]
    status = STATUS_SLICE
    while steps > 0:
        if _load(stop, np.int64(0), np.int64(0)) != 0:
            break
        if (
            counters[C_STATES] >= room[0]
            or counters[C_LEAVES] >= room[1]
            or counters[C_ENDS] >= room[2]
        ):
            status = STATUS_FULL
            break
        n = frame[d, F_N]
        if n < 0:  # a node just entered
            _open(
                frame, kid, d, params, remove, cards, sides, scores, columns, after, table,
                leaves, parts, head,
            )  # fmt: skip
            steps -= frame[d, F_N]
            frame[d, F_HAS] = 0
            if frame[d, F_N] == 0:  # no move: valued as a horizon state
                k1 = frame[d, F_K1]
                frame[d, F_BEST] = leaf_vector(k1, frame[d, F_K2], params)
                if mode == 1:
                    counters[C_ENDS] += _insert_end(ends, k1 & endmask)
                continue
            status = _settle(frame, kid, d, table, leaves, ends, counters, root_vals, params, mode)
            if status != 0:
                break
            status = STATUS_SLICE
            continue
        j = frame[d, F_NEXT]
        if j < n:
            frame[d, F_NEXT] = j + 1
            steps -= 1
            b = turned(frame, d, j, n, turn) * KID
            # stored since the node was entered (by another search: see the kernel's search)?
            start = run_start(table, kid[d, b + K_SLOT], kid[d, b + K_H])
            i, found = locate(table, kid[d, b + K_W], kmask, start)
            if found:
                w = value_at(table, i, params)
                _fold(frame, d, w, kid[d, b + K_INFO] >> MOVE_INFO, root_vals, params, mode)
                continue
            kid[d, b + K_SLOT] = run_mark(table, i)
            enter(frame, kid, d, b)
            d += 1
            continue
        # every move of the node at depth d is valued
        word = frame[d, F_BEST]
        if frame[d, F_HAS] != 0:  # the chosen child's vector, one ply earlier
            word = shift(word, params[P_N])
        if mode == 1:
            if frame[d, F_HAS] == 0:
                pval = horizon_value(frame[d, F_K1], frame[d, F_K2], params)
            else:
                pval = _encode(frame[d, F_G], frame[d, F_R], frame[d, F_GW], frame[d, F_PW])
            word |= pval << P_SHIFT
        kw = frame[d, F_W]
        start = run_start(table, frame[d, F_SLOT], slot_hash(kw))
        if table.shape[1] == 2:
            added = insert_from(table, kw, kw, word, start, kmask)
        else:
            code = narrow(word, params)
            if code < 0:
                status = STATUS_UNPACKABLE
                break
            w0 = kw | (code << params[C_VSHIFT])
            added = insert_from(table, kw, w0, np.int64(0), start, kmask)  # as for _open
        if added == OVERFLOW:
            status = STATUS_OVERFLOW
            break
        counters[C_STATES] += added
        if d == 0:
            status = STATUS_DONE
            break
        d -= 1
        b = frame[d, F_CUR] * KID
        _fold(frame, d, word, kid[d, b + K_INFO] >> MOVE_INFO, root_vals, params, mode)
    _store_release(stop, np.int64(0), np.int64(0), np.int64(1))
    counters[C_DEPTH] = d
    return status


@njit(cache=True, error_model="numpy", _nrt=False)
def principal_line(
    table, dummy, params, remove, cards, sides, scores, columns, after, parts, head,
    frame, kid, out,
):  # fmt: skip
    """The moves chosen from the state in ``frame[0]`` on, to the horizon, into
    ``out``; their number. The move chosen at a node is its first child, in move
    order, whose vector one ply earlier is the node's: a child before it with that
    vector would have been of equal worth, and chosen."""
    n = 0
    while n < out.shape[0]:
        kw = frame[0, F_W]
        w = lookup(table, kw, slot_hash(kw), params)
        if w < 0:
            break
        # depth np.int64(0), not 0: a literal 0 would compile _open (and what it calls)
        # a second time, for that constant, on a first run
        _open(
            frame, kid, np.int64(0), params, remove, cards, sides, scores, columns, after,
            table, dummy, parts, head,
        )  # fmt: skip
        found = -1
        for j in range(frame[0, F_N]):
            b = j * KID
            if kid[0, b + K_INFO] & LEAF_BIT:
                v = leaf_vector(kid[0, b], kid[0, b + 1], params)
            else:
                v = lookup(table, kid[0, b + K_W], kid[0, b + K_H], params)
            if v >= 0 and (shift(v, params[P_N]) & VEC_MASK) == (w & VEC_MASK):
                found = j
                break
        if found < 0:
            break
        b = found * KID
        out[n] = kid[0, b + K_INFO] >> MOVE_INFO
        n += 1
        if kid[0, b + K_INFO] & LEAF_BIT:
            break
        frame[0, F_K1] = kid[0, b]
        frame[0, F_K2] = kid[0, b + 1]
        frame[0, F_W] = kid[0, b + K_W]
    return n
