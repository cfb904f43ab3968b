"""The compiled max^n search for Twist of Fate (imported only by its driver).

It works on the paranoid kernel's state words and plays (:func:`child` of
:mod:`~ruleslawyer.solvers.twist_of_fate_kernel`), one search thread, with its
own table. A node's value is a vector: per player ``s``, 11 bits at ``11 * s``:
won (bit 10), Sanctuary plus ``Z_OFF`` (bits 4-9), Luck + Shilling (bits 0-3), so
that one player's utility compares as one integer. The table stores the vector
and, above :data:`MOVE_SHIFT`, the move chosen there (the principal variation).

``mode`` 0 is max^n with the spiteful tie-break of
:mod:`~ruleslawyer.solvers.twist_of_fate_maxn_reference`; ``mode`` 1 is paranoid
minimax for the root player (its (won, Sanctuary): the highest where it moves,
the lowest elsewhere, the first in move order on ties).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ruleslawyer.solvers.twist_of_fate_kernel import (
    COUNT_SHIFT,
    LIMIT,
    P_HB,
    P_N,
    P_ROOT,
    P_S,
    P_SFD,
    RAISE_LUCK,
    RAISE_SHILLING,
    SEAT_BITS,
    SEAT_MASK,
    VARIANTS,
    Z_SHIFT,
    child,
    key_hash,
    may_raise,
)

W = 11  # bits per player in a value vector
UMASK = (1 << W) - 1
MOVE_SHIFT = 48
VEC_MASK = (1 << MOVE_SHIFT) - 1
ACT_SHIFT = 60
LEAF = 1 << 20

# frame fields
F_K1, F_K2, F_N, F_NEXT, F_BEST, F_HAS = range(6)
FRAME = 6
# counters
C_DEPTH, C_STATES, C_FILLED, C_LEAVES = range(4)
NCOUNTERS = 4
STATUS_DONE, STATUS_SLICE, STATUS_FULL = range(3)


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
def _slot(table, k1, k2):
    """The slot holding (k1, k2), or the empty slot where it would go."""
    mask = table.shape[0] - 1
    i = key_hash(k1, k2) & mask
    while table[i, 0] != 0 and (table[i, 0] != k1 or table[i, 1] != k2):
        i = (i + 1) & mask
    return i


@njit(cache=True)
def rehash(old, new):
    for i in range(old.shape[0]):
        if old[i, 0] != 0:
            j = _slot(new, old[i, 0], old[i, 1])
            new[j, 0] = old[i, 0]
            new[j, 1] = old[i, 1]
            new[j, 2] = old[i, 2]


@njit(cache=True)
def lookup(table, k1, k2):
    """The stored word of a state (vector and move), or -1."""
    i = _slot(table, k1, k2)
    return table[i, 2] if table[i, 0] != 0 else -1


@njit(cache=True, inline="always")
def _expand(frames, kids, d, params, remove, cards, sides, columns, scores):
    """List the children (words, move, whether a horizon state) of the node at depth ``d``."""
    k1 = frames[d, F_K1]
    k2 = frames[d, F_K2]
    n_s = params[P_S]
    p = (k1 >> ACT_SHIFT) & 3
    hb = params[P_HB]
    hand = (k2 >> (hb * p)) & ((1 << hb) - 1)
    targets = 0
    for t in range(n_s):
        if t != p and (k1 >> (SEAT_BITS * t + COUNT_SHIFT)) & 7 < LIMIT:
            targets |= 1 << t
    if targets == 0 and (k1 >> (SEAT_BITS * p + COUNT_SHIFT)) & 7 < LIMIT:
        targets = 1 << p
    self_variants = 4 if params[P_SFD] == 1 else 2
    lsp = (k1 >> (SEAT_BITS * p)) & 63
    j = 0
    for i in range(cards.shape[1]):
        c = cards[hand, i]
        if c < 0:
            break
        k2c = k2 + ((remove[hand, c] - hand) << (hb * p))
        for t in range(n_s):
            if (targets >> t) & 1 == 0:
                continue
            base = (c * n_s + t) * VARIANTS
            lst = (k1 >> (SEAT_BITS * t)) & 63
            for v in range(self_variants if t == p else VARIANTS):
                if t == p:
                    if v >= 2 and not may_raise(lsp, v == 2, params):
                        continue
                    ep = sides[c, v] if v < 2 else (RAISE_LUCK if v == 2 else RAISE_SHILLING)
                    et = 0
                else:
                    if v >= 2 and not (
                        may_raise(lsp, v < 4, params) and may_raise(lst, v % 2 == 0, params)
                    ):
                        continue
                    ep = columns[c, v, 0]
                    et = columns[c, v, 1]
                c1, c2, leaf = child(k1, k2c, p, t, ep, et, params, scores)
                kids[d, 3 * j] = c1
                kids[d, 3 * j + 1] = c2
                kids[d, 3 * j + 2] = (base + v) | (LEAF if leaf else 0)
                j += 1
    frames[d, F_N] = j
    frames[d, F_NEXT] = 0
    frames[d, F_HAS] = 0


@njit(cache=True, inline="always")
def _take(frames, kids, d, vec, root_vals, params, mode):
    """Fold the value of the node's next child into its best so far."""
    j = frames[d, F_NEXT]
    m = kids[d, 3 * j + 2] & (LEAF - 1)
    if d == 0:
        root_vals[m] = vec
    p = (frames[d, F_K1] >> ACT_SHIFT) & 3
    if frames[d, F_HAS] == 0 or better(
        vec, frames[d, F_BEST] & VEC_MASK, p, params[P_N], mode, params[P_ROOT]
    ):
        frames[d, F_BEST] = vec | (m << MOVE_SHIFT)
        frames[d, F_HAS] = 1
    frames[d, F_NEXT] = j + 1


@njit(cache=True, nogil=True)
def search(
    frames, kids, counters, table, root_vals, params, remove, cards, sides, columns, scores,
    steps, room, mode,
):  # fmt: skip
    """Run the depth-first search for up to ``steps`` steps, or until the table holds
    ``room`` entries; resumable from ``frames``/``counters``."""
    d = counters[C_DEPTH]
    while steps > 0:
        steps -= 1
        if frames[d, F_N] < 0:
            _expand(frames, kids, d, params, remove, cards, sides, columns, scores)
        if frames[d, F_N] == 0:  # no move: valued as a horizon state
            frames[d, F_BEST] = leaf_vector(frames[d, F_K1], frames[d, F_K2], params)
            frames[d, F_NEXT] = 0
        j = frames[d, F_NEXT]
        if j < frames[d, F_N]:
            c1 = kids[d, 3 * j]
            c2 = kids[d, 3 * j + 1]
            if kids[d, 3 * j + 2] & LEAF:
                counters[C_LEAVES] += 1
                _take(frames, kids, d, leaf_vector(c1, c2, params), root_vals, params, mode)
                continue
            w = lookup(table, c1, c2)
            if w >= 0:
                _take(frames, kids, d, w & VEC_MASK, root_vals, params, mode)
                continue
            if counters[C_FILLED] >= room:
                counters[C_DEPTH] = d
                return STATUS_FULL
            d += 1
            frames[d, F_K1] = c1
            frames[d, F_K2] = c2
            frames[d, F_N] = -1
            continue
        word = frames[d, F_BEST]
        i = _slot(table, frames[d, F_K1], frames[d, F_K2])
        table[i, 0] = frames[d, F_K1]
        table[i, 1] = frames[d, F_K2]
        table[i, 2] = word
        counters[C_FILLED] += 1
        counters[C_STATES] += 1
        if d == 0:
            counters[C_DEPTH] = 0
            return STATUS_DONE
        d -= 1
        _take(frames, kids, d, word & VEC_MASK, root_vals, params, mode)
    counters[C_DEPTH] = d
    return STATUS_SLICE


@njit(cache=True)
def principal_line(k1, k2, table, params, remove, cards, sides, columns, scores, frames, kids, out):
    """The moves chosen from (k1, k2) on, to the horizon, into ``out``; their number."""
    n = 0
    while n < out.shape[0]:
        w = lookup(table, k1, k2)
        if w < 0:
            break
        frames[0, F_K1] = k1
        frames[0, F_K2] = k2
        _expand(frames, kids, 0, params, remove, cards, sides, columns, scores)
        m = w >> MOVE_SHIFT
        found = -1
        for j in range(frames[0, F_N]):
            if kids[0, 3 * j + 2] & (LEAF - 1) == m:
                found = j
                break
        if found < 0:
            break
        out[n] = m
        n += 1
        if kids[0, 3 * found + 2] & LEAF:
            break
        k1 = kids[0, 3 * found]
        k2 = kids[0, 3 * found + 1]
    return n
