"""The compiled max^n search for Twist of Fate (imported only by its driver).

It runs on the machinery of :mod:`~ruleslawyer.solvers.twist_of_fate_kernel`:
a node's children are listed in move order, keyed by the tiers' 64-bit packing
and their table slots prefetched, by that kernel's ``_open``; then the children
that need no search (horizon states, and states already stored) are valued in
one pass, and the search visits only the rest. The table is that kernel's
two-word slots (the packed state, then the value word), grown in place by the
driver's :class:`~ruleslawyer.solvers.twist_of_fate_numba.StateTable`. Only
the value rule is this module's.

A node's value is a vector: per player ``s``, 11 bits at ``11 * s``: won (bit 10),
Sanctuary plus ``Z_OFF`` (bits 4-9), Luck + Shilling (bits 0-3), so that one
player's utility compares as one integer. The value word holds the vector and,
above :data:`MOVE_SHIFT`, the move chosen there (the principal variation).

``mode`` 0 is max^n with the spiteful tie-break of
:mod:`~ruleslawyer.solvers.twist_of_fate_maxn_reference`; ``mode`` 1 is paranoid
minimax for the root player (its (won, Sanctuary): the highest where it moves,
the lowest elsewhere). In both, of the moves of equal worth the first in move
order is chosen (:func:`_fold`), whatever order they are valued in.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ruleslawyer.solvers import twist_of_fate_kernel as kernel
from ruleslawyer.solvers.twist_of_fate_kernel import (
    ACT_SHIFT,
    EMPTY_KEY,
    F_K1,
    F_K2,
    F_N,
    F_NEXT,
    F_W,
    K_H,
    K_INFO,
    K_W,
    KID,
    LEAF_BIT,
    NOT_PACKED,
    OVERFLOW,
    P_HB,
    P_KMASK,
    P_N,
    P_ROOT,
    SEAT_BITS,
    SEAT_MASK,
    Z_SHIFT,
    _open,
    _probe_at,
    home_mask,
    insert,
    slot_hash,
)

W = 11  # bits per player in a value vector
UMASK = (1 << W) - 1
MOVE_SHIFT = 48
VEC_MASK = (1 << MOVE_SHIFT) - 1
MOVE_INFO = 17  # a child's move is its K_INFO word shifted down this far

# frame: the kernel's fields, then the node's best value word so far and whether it has one
F_BEST, F_HAS = kernel.FRAME, kernel.FRAME + 1
FRAME = kernel.FRAME + 2
# counters
C_DEPTH, C_STATES, C_LEAVES = range(3)
NCOUNTERS = 3
STATUS_DONE, STATUS_SLICE, STATUS_FULL, STATUS_OVERFLOW, STATUS_UNPACKABLE = range(5)


@njit(cache=True, inline="always")
def leaf_vector(k1, k2, params):
    """Every player's utility at a horizon state."""
    n = params[P_N]
    winner = ((k2 >> (params[P_HB] * n)) & 7) - 1
    vec = np.int64(0)
    for s in range(n):
        f = (k1 >> (SEAT_BITS * s)) & SEAT_MASK
        u = (
            (np.int64(winner == s) << 10)
            | (((f >> Z_SHIFT) & 63) << 4)
            | ((f & 7) + ((f >> 3) & 7))
        )
        vec |= u << (W * s)
    return vec


@njit(cache=True, inline="always")
def _others(vec, p, n):
    """The sums of the others' (wins, Sanctuary, Luck + Shilling) as one integer."""
    sw = 0
    sz = 0
    sl = 0
    for s in range(n):
        if s != p:
            u = (vec >> (W * s)) & UMASK
            sw += u >> 10
            sz += (u >> 4) & 63
            sl += u & 15
    return (sw << 20) | (sz << 8) | sl


@njit(cache=True, inline="always")
def better(a, b, p, n, mode, root):
    """Whether the mover ``p`` prefers vector ``a`` to ``b`` (False when equal)."""
    if mode == 1:
        ua = (a >> (W * root)) & UMASK
        ub = (b >> (W * root)) & UMASK
        ka = ((ua >> 10) << 6) | ((ua >> 4) & 63)
        kb = ((ub >> 10) << 6) | ((ub >> 4) & 63)
        return ka > kb if p == root else ka < kb
    ua = (a >> (W * p)) & UMASK
    ub = (b >> (W * p)) & UMASK
    if ua != ub:
        return ua > ub
    oa = _others(a, p, n)
    ob = _others(b, p, n)
    if oa != ob:
        return oa < ob
    for k in range(1, n):
        q = (p + k) % n
        ua = (a >> (W * q)) & UMASK
        ub = (b >> (W * q)) & UMASK
        if ua != ub:
            return ua < ub
    return False


@njit(cache=True, inline="always")
def lookup(table, kw, h, kmask):
    """The value word stored with the packed state ``kw`` (``h`` its hash), or -1."""
    i = _probe_at(table, kw, kmask, h & home_mask(table))
    return table[i, 1] if table[i, 0] != EMPTY_KEY else np.int64(-1)


@njit(cache=True, inline="always")
def _fold(frame, d, vec, m, root_vals, params, mode):
    """Fold child move ``m``'s value into the node's best so far: the mover's
    preference, then the first in move order."""
    if d == 0:
        root_vals[m] = vec
    p = (frame[d, F_K1] >> ACT_SHIFT) & 3
    if frame[d, F_HAS] != 0:
        best = frame[d, F_BEST]
        old = best & VEC_MASK
        n = params[P_N]
        root = params[P_ROOT]
        if not better(vec, old, p, n, mode, root) and (
            better(old, vec, p, n, mode, root) or m > (best >> MOVE_SHIFT)
        ):
            return
    frame[d, F_BEST] = vec | (m << MOVE_SHIFT)
    frame[d, F_HAS] = 1


@njit(cache=True, inline="always")
def _settle(frame, kid, d, table, root_vals, params, mode):
    """Value the children of the node at depth ``d`` that need no search (horizon
    states, states already stored); keep the others, in order, as the node's
    children to visit. Returns the horizon states valued, or -1 if a child is out
    of the packing's ranges."""
    kmask = params[P_KMASK]
    keep = 0
    leaves = 0
    for j in range(frame[d, F_N]):
        b = j * KID
        kw = kid[d, b + K_W]
        if kw == NOT_PACKED:
            return -1
        info = kid[d, b + K_INFO]
        if info & LEAF_BIT:
            vec = leaf_vector(kid[d, b], kid[d, b + 1], params)
            leaves += 1
        else:
            w = lookup(table, kw, kid[d, b + K_H], kmask)
            if w < 0:
                if keep != j:
                    c = keep * KID
                    for x in range(KID):
                        kid[d, c + x] = kid[d, b + x]
                keep += 1
                continue
            vec = w & VEC_MASK
        _fold(frame, d, vec, info >> MOVE_INFO, root_vals, params, mode)
    frame[d, F_N] = keep
    return leaves


@njit(cache=True, nogil=True)
def search(
    frame, kid, counters, table, dummy, root_vals, params, remove, cards, sides, scores,
    columns, after, parts, head, steps, room, mode,
):  # fmt: skip
    """Run the depth-first search for about ``steps`` children, or until the table
    holds ``room`` entries; resumable from ``frame``/``counters``. ``dummy`` is a
    small table that takes the horizon states' prefetches."""
    kmask = params[P_KMASK]
    d = counters[C_DEPTH]
    while steps > 0:
        if counters[C_STATES] >= room:
            counters[C_DEPTH] = d
            return STATUS_FULL
        n = frame[d, F_N]
        if n < 0:  # a node just entered
            _open(
                frame, kid, d, params, remove, cards, sides, scores, columns, after, table,
                dummy, parts, head,
            )  # fmt: skip
            steps -= frame[d, F_N]
            frame[d, F_HAS] = 0
            if frame[d, F_N] == 0:  # no move: valued as a horizon state
                frame[d, F_BEST] = leaf_vector(frame[d, F_K1], frame[d, F_K2], params)
                continue
            leaves = _settle(frame, kid, d, table, root_vals, params, mode)
            if leaves < 0:
                counters[C_DEPTH] = d
                return STATUS_UNPACKABLE
            counters[C_LEAVES] += leaves
            continue
        j = frame[d, F_NEXT]
        if j < n:
            frame[d, F_NEXT] = j + 1
            steps -= 1
            b = j * KID
            # stored since the node was entered (in a sibling's subtree)?
            w = lookup(table, kid[d, b + K_W], kid[d, b + K_H], kmask)
            if w >= 0:
                _fold(frame, d, w & VEC_MASK, kid[d, b + K_INFO] >> MOVE_INFO, root_vals,
                      params, mode)  # fmt: skip
                continue
            frame[d + 1, F_K1] = kid[d, b]
            frame[d + 1, F_K2] = kid[d, b + 1]
            frame[d + 1, F_W] = kid[d, b + K_W]
            d += 1
            frame[d, F_N] = -1
            continue
        # every move of the node at depth d is valued
        word = frame[d, F_BEST]
        kw = frame[d, F_W]
        if insert(table, kw, kw, word, slot_hash(kw), kmask) == OVERFLOW:
            counters[C_DEPTH] = d
            return STATUS_OVERFLOW
        counters[C_STATES] += 1
        if d == 0:
            counters[C_DEPTH] = 0
            return STATUS_DONE
        d -= 1
        b = frame[d, F_NEXT] - 1
        _fold(frame, d, word & VEC_MASK, kid[d, b * KID + K_INFO] >> MOVE_INFO, root_vals,
              params, mode)  # fmt: skip
    counters[C_DEPTH] = d
    return STATUS_SLICE


@njit(cache=True)
def principal_line(
    table, dummy, params, remove, cards, sides, scores, columns, after, parts, head,
    frame, kid, out,
):  # fmt: skip
    """The moves chosen from the state in ``frame[0]`` on, to the horizon, into
    ``out``; their number."""
    kmask = params[P_KMASK]
    n = 0
    while n < out.shape[0]:
        kw = frame[0, F_W]
        w = lookup(table, kw, slot_hash(kw), kmask)
        if w < 0:
            break
        _open(
            frame, kid, 0, params, remove, cards, sides, scores, columns, after, table,
            dummy, parts, head,
        )  # fmt: skip
        m = w >> MOVE_SHIFT
        found = -1
        for j in range(frame[0, F_N]):
            if kid[0, j * KID + K_INFO] >> MOVE_INFO == m:
                found = j
                break
        if found < 0:
            break
        out[n] = m
        n += 1
        b = found * KID
        if kid[0, b + K_INFO] & LEAF_BIT:
            break
        frame[0, F_K1] = kid[0, b]
        frame[0, F_K2] = kid[0, b + 1]
        frame[0, F_W] = kid[0, b + K_W]
    return n
