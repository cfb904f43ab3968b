"""The compiled core of the Numba solver for Twist of Fate (imported only by that solver).

A state is a row of small integers (see the ``_*`` offsets below) packed into two
64-bit keys; the transposition table is open addressing over two key arrays and
one value array. The depth-first search keeps its stack in arrays so that it can
stop after a number of steps and resume: the Python driver checks the clock, the
state budget and the table's load between slices.

The rules here mirror :mod:`ruleslawyer.models.twist_of_fate` line for line; the
differential test holds them to the reference solver.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Per seat: Luck, Shilling, Sanctuary, count toward the six-card limit.
SEAT_FIELDS = 4
MAX_SEATS = 5
_HAND = SEAT_FIELDS * MAX_SEATS  # then one multiset index per player (4)
ACT = _HAND + 4
WIN = ACT + 1
FIELDS = WIN + 1

# params
P_K, P_S, P_N, P_MONKS, P_ROOT, P_DT, P_AF, P_SPC, P_SFD, P_FLOOR, P_EMPTY, P_HB = range(12)
NPARAMS = 12

# counters
C_DEPTH, C_STATES, C_ENDS, C_DONE, C_MAIN, C_LEAVES = range(6)
NCOUNTERS = 6

Z_OFF = 32  # Sanctuary may go below 0 under monks-penalty-floor=negative
EMPTY_KEY = -1
VALUE_SHIFT = 47
KEY2_MASK = (1 << VALUE_SHIFT) - 1
LOW, HIGH = -1000, 1000

STATUS_DONE, STATUS_SLICE, STATUS_FULL_MAIN, STATUS_FULL_LEAVES, STATUS_FULL_ENDS, STATUS_BUDGET = (
    range(6)
)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _clamp(x):
    if x < 0:
        return 0
    if x > 4:
        return 4
    return x


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _hash(k1, k2, mask):
    h = np.uint64(k1) * np.uint64(0x9E3779B97F4A7C15)
    h ^= np.uint64(k2) * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= h >> np.uint64(31)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(mask))


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def pack(st, d, params):
    """The state in row d as two keys: the seats and the player to move; the hands and winner."""
    k1 = np.int64(0)
    for s in range(params[P_S]):
        b = s * SEAT_FIELDS
        seat = st[d, b] | (st[d, b + 1] << 3) | ((st[d, b + 2] + Z_OFF) << 6) | (st[d, b + 3] << 12)
        k1 |= seat << (15 * s)
    k1 |= st[d, ACT] << 60
    hb = params[P_HB]
    k2 = np.int64(0)
    for p in range(params[P_N]):
        k2 |= st[d, _HAND + p] << (hb * p)
    k2 |= (st[d, WIN] + 1) << (hb * params[P_N])
    return k1, k2


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def end_key(st, d, params):
    k = np.int64(0)
    for s in range(params[P_S]):
        b = s * SEAT_FIELDS
        seat = st[d, b] | (st[d, b + 1] << 3) | ((st[d, b + 2] + Z_OFF) << 6)
        k |= seat << (12 * s)
    return k


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def lookup(table, k1, k2):
    """The slot holding (k1, k2), or the empty slot where it would go.

    A slot is two words: k1, and k2 with the node's value in bits 47 and up.
    """
    mask = table.shape[0] - 1
    i = _hash(k1, k2, mask)
    while True:
        w = table[i, 0]
        if w == EMPTY_KEY:
            return i
        if w == k1 and (table[i, 1] & KEY2_MASK) == k2:
            return i
        i = (i + 1) & mask


@njit(cache=True, error_model="numpy", _nrt=False)
def rehash(old, new):
    for i in range(old.shape[0]):
        if old[i, 0] != EMPTY_KEY:
            j = lookup(new, old[i, 0], old[i, 1] & KEY2_MASK)
            new[j, 0] = old[i, 0]
            new[j, 1] = old[i, 1]


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _encode(g, r, gw, pw):
    return (g + Z_OFF) | ((r + Z_OFF) << 7) | (gw << 14) | (pw << 15)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _score(st, e, s, params):
    b = s * SEAT_FIELDS
    # (Numba note: `and`/`or` on array comparisons is slow; the kernel uses plain ifs.)
    l4 = 0
    s4 = 0
    if st[e, b] == 4:
        l4 = 1
    if st[e, b + 1] == 4:
        s4 = 1
    if l4 + s4 == 0:
        return 0
    dt = params[P_DT]
    pts = 1
    if dt == 2:
        if l4 == 1:
            st[e, b] = 0
        else:
            st[e, b + 1] = 0
    else:
        if dt == 0:
            pts = l4 + s4
        if l4 == 1:
            st[e, b] = 0
        if s4 == 1:
            st[e, b + 1] = 0
    z = st[e, b + 2] + pts
    st[e, b + 2] = 8 if z > 8 else z
    return pts


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _twist(st, e, s, dl, ds):
    b = s * SEAT_FIELDS
    st[e, b] = _clamp(st[e, b] + dl)
    st[e, b + 1] = _clamp(st[e, b + 1] + ds)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def is_horizon(st, e, params):
    if st[e, WIN] >= 0:
        return True
    for p in range(params[P_N]):  # noqa: SIM110 (no generators in Numba closures)
        if st[e, _HAND + p] != params[P_EMPTY]:
            return False
    return True


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def moves_of(st, d, params, ms_remove):
    """The node's legal cards and targets as bit masks.

    Move index m = (card * seats + target) * 6 + variant: card in deck order, target in
    seat order, variants face-up side 0, side 1, then face-down (player raises, target
    raises) = (L, L), (L, S), (S, L), (S, S); on oneself face-down L, S.
    """
    p = st[d, ACT]
    cards = np.int64(0)
    for c in range(params[P_K]):
        if ms_remove[st[d, _HAND + p], c] >= 0:
            cards |= np.int64(1) << c
    targets = np.int64(0)
    for t in range(params[P_S]):
        if t != p and st[d, t * SEAT_FIELDS + 3] < 6:
            targets |= np.int64(1) << t
    if targets == 0 and st[d, p * SEAT_FIELDS + 3] < 6:
        targets = np.int64(1) << p
    return cards, targets


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def apply(st, d, m, params, ms_remove, side_l, side_s):
    """Write into row d + 1 the state after move ``m`` from row d (mirrors the model's play)."""
    e = d + 1
    for i in range(FIELDS):
        st[e, i] = st[d, i]
    n_s = params[P_S]
    c = m // (n_s * 6)
    t = (m // 6) % n_s
    v = m % 6
    p = st[d, ACT]
    st[e, _HAND + p] = ms_remove[st[d, _HAND + p], c]
    if t == p:
        if v < 2:
            _twist(st, e, p, side_l[c, v], side_s[c, v])
        elif v == 2:
            _twist(st, e, p, 1, -1)
        else:
            _twist(st, e, p, -1, 1)
        if params[P_SPC] == 1:
            st[e, p * SEAT_FIELDS + 3] += 1
    else:
        if v < 2:
            _twist(st, e, t, side_l[c, v], side_s[c, v])
            _twist(st, e, p, side_l[c, 1 - v], side_s[c, 1 - v])
        else:
            if (v - 2) // 2 == 0:
                _twist(st, e, p, 1, -1)
            else:
                _twist(st, e, p, -1, 1)
            if (v - 2) % 2 == 0:
                _twist(st, e, t, 1, -1)
            else:
                _twist(st, e, t, -1, 1)
        st[e, t * SEAT_FIELDS + 3] += 1
    # Scoring Sanctuary: the active player's token moves first.
    _score(st, e, p, params)
    zp = p * SEAT_FIELDS + 2
    if params[P_AF] == 1 and st[e, zp] >= 8:
        st[e, WIN] = p
        return
    ft = 0
    if t != p:
        pts = _score(st, e, t, params)
        if t == params[P_MONKS] and pts > 0:
            z = st[e, zp] - pts
            if params[P_FLOOR] == 1 and z < 0:
                z = 0
            st[e, zp] = z
        if st[e, t * SEAT_FIELDS + 2] >= 8:
            ft = 1
    fp = 0
    if st[e, zp] >= 8:
        fp = 1
    if fp + ft == 2:
        vp = st[e, p * SEAT_FIELDS] + st[e, p * SEAT_FIELDS + 1]
        vt = st[e, t * SEAT_FIELDS] + st[e, t * SEAT_FIELDS + 1]
        st[e, WIN] = t if vt > vp else p
        return
    if fp == 1:
        st[e, WIN] = p
        return
    if ft == 1:
        st[e, WIN] = t
        return
    n = params[P_N]
    for k in range(1, n + 1):
        q = (p + k) % n
        if st[e, _HAND + q] != params[P_EMPTY]:
            st[e, ACT] = q
            return


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _insert_end(ek, k):
    mask = ek.shape[0] - 1
    i = _hash(k, 0, mask)
    while True:
        if ek[i] == EMPTY_KEY:
            ek[i] = k
            return 1
        if ek[i] == k:
            return 0
        i = (i + 1) & mask


@njit(cache=True, error_model="numpy", _nrt=False)
def rehash_ends(old, new):
    for i in range(old.shape[0]):
        if old[i] != EMPTY_KEY:
            _insert_end(new, old[i])


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _combine(acc, d, is_root_node, g, r, gw, pw):
    if is_root_node:
        if g > acc[d, 0]:
            acc[d, 0] = g
        acc[d, 2] = acc[d, 2] | gw
    else:
        if g < acc[d, 0]:
            acc[d, 0] = g
        acc[d, 2] = acc[d, 2] & gw
    if r > acc[d, 1]:
        acc[d, 1] = r
    acc[d, 3] = acc[d, 3] | pw


# Per depth, the node's children, listed when the node opens: keys, move, leaf value.
CH_K1, CH_K2, CH_M, CH_LEAF, CH_VAL, CH_END, CH_SLOT = range(7)
CH_FIELDS = 7


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _open(st, ch, chn, acc, d, params, ms_remove, side_l, side_s, main, leaves):
    """List the node's children in move order and touch their table slots.

    The touches are independent loads, so the processor overlaps their cache
    misses; by the time each child is looked up its slot is (usually) in cache.
    Row d + 1 serves as scratch.
    """
    root = params[P_ROOT]
    n_s = params[P_S]
    cards, targets = moves_of(st, d, params, ms_remove)
    self_variants = 4 if params[P_SFD] == 1 else 2
    p = st[d, ACT]
    n = 0
    sink = np.int64(0)
    mask_main = main.shape[0] - 1
    mask_leaves = leaves.shape[0] - 1
    for c in range(params[P_K]):
        if (cards >> c) & 1 == 0:
            continue
        for t in range(n_s):
            if (targets >> t) & 1 == 0:
                continue
            top = 6
            if t == p:
                top = self_variants
            for v in range(top):
                m = (c * n_s + t) * 6 + v
                apply(st, d, m, params, ms_remove, side_l, side_s)
                k1, k2 = pack(st, d + 1, params)
                ch[d, n, CH_K1] = k1
                ch[d, n, CH_K2] = k2
                ch[d, n, CH_M] = m
                if is_horizon(st, d + 1, params):
                    z = st[d + 1, root * SEAT_FIELDS + 2]
                    won = np.int64(st[d + 1, WIN] == root)
                    ch[d, n, CH_LEAF] = 1
                    ch[d, n, CH_VAL] = _encode(z, z, won, won)
                    ch[d, n, CH_END] = end_key(st, d + 1, params)
                    ch[d, n, CH_SLOT] = _hash(k1, k2, mask_leaves)
                else:
                    ch[d, n, CH_LEAF] = 0
                    ch[d, n, CH_SLOT] = _hash(k1, k2, mask_main)
                n += 1
    # A tight loop of independent loads: many cache misses in flight at once.
    for j in range(n):
        if ch[d, j, CH_LEAF] == 1:
            sink += leaves[ch[d, j, CH_SLOT], 0]
        else:
            sink += main[ch[d, j, CH_SLOT], 0]
    chn[d, 0] = n
    chn[d, 1] = 0
    chn[d, 2] = sink
    if p == root:
        acc[d, 0] = LOW
        acc[d, 2] = 0
    else:
        acc[d, 0] = HIGH
        acc[d, 2] = 1
    acc[d, 1] = LOW
    acc[d, 3] = 0


@njit(cache=True, error_model="numpy", _nrt=False)
def begin(st, ch, chn, acc, params, ms_remove, side_l, side_s, main, leaves):
    """Put the root (already in ``st[0]``) on the stack."""
    _open(st, ch, chn, acc, 0, params, ms_remove, side_l, side_s, main, leaves)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _store(table, slot, k1, k2, val):
    table[slot, 0] = k1
    table[slot, 1] = k2 | (val << VALUE_SHIFT)


@njit(cache=True, error_model="numpy", _nrt=False)
def search(
    st,
    ch,
    chn,
    acc,
    counters,
    main,
    leaves,
    ends,
    root_val,
    params,
    ms_remove,
    side_l,
    side_s,
    max_steps,
    max_main,
    max_leaves,
    max_ends,
    max_states,
):
    """Run the depth-first search for up to ``max_steps`` moves; return a status.

    Internal nodes go to ``main``; horizon states (far more often looked up, and
    far fewer) to the small ``leaves`` table; their (Luck, Shilling, Sanctuary)
    projections to the ``ends`` set. A slice may stop with nodes open: their
    children lists stay in ``ch`` and the search resumes where it was.
    """
    root = params[P_ROOT]
    d = counters[C_DEPTH]
    steps = 0
    while steps < max_steps:
        if counters[C_STATES] >= max_states:
            counters[C_DEPTH] = d
            return STATUS_BUDGET
        if counters[C_MAIN] >= max_main:
            counters[C_DEPTH] = d
            return STATUS_FULL_MAIN
        if counters[C_LEAVES] >= max_leaves:
            counters[C_DEPTH] = d
            return STATUS_FULL_LEAVES
        if counters[C_ENDS] >= max_ends:
            counters[C_DEPTH] = d
            return STATUS_FULL_ENDS
        j = chn[d, 1]
        if j < chn[d, 0]:
            chn[d, 1] = j + 1
            steps += 1
            k1 = ch[d, j, CH_K1]
            k2 = ch[d, j, CH_K2]
            m = ch[d, j, CH_M]
            if ch[d, j, CH_LEAF] == 1:
                slot = lookup(leaves, k1, k2)
                if leaves[slot, 0] == EMPTY_KEY:
                    _store(leaves, slot, k1, k2, ch[d, j, CH_VAL])
                    counters[C_STATES] += 1
                    counters[C_LEAVES] += 1
                    counters[C_ENDS] += _insert_end(ends, ch[d, j, CH_END])
                val = leaves[slot, 1] >> VALUE_SHIFT
            else:
                slot = lookup(main, k1, k2)
                if main[slot, 0] == EMPTY_KEY:
                    apply(st, d, m, params, ms_remove, side_l, side_s)
                    d += 1
                    _open(st, ch, chn, acc, d, params, ms_remove, side_l, side_s, main, leaves)
                    continue
                val = main[slot, 1] >> VALUE_SHIFT
            g = (val & 127) - Z_OFF
            r = ((val >> 7) & 127) - Z_OFF
            _combine(acc, d, st[d, ACT] == root, g, r, (val >> 14) & 1, (val >> 15) & 1)
            if d == 0:
                root_val[m] = val
            continue
        # every move of the node at depth d is done
        if chn[d, 0] == 0:
            z = st[d, root * SEAT_FIELDS + 2]
            won = np.int64(st[d, WIN] == root)
            val = _encode(z, z, won, won)
            counters[C_ENDS] += _insert_end(ends, end_key(st, d, params))
        else:
            val = _encode(acc[d, 0], acc[d, 1], acc[d, 2], acc[d, 3])
        k1, k2 = pack(st, d, params)
        _store(main, lookup(main, k1, k2), k1, k2, val)
        counters[C_STATES] += 1
        counters[C_MAIN] += 1
        if d == 0:
            counters[C_DONE] = 1
            counters[C_DEPTH] = 0
            return STATUS_DONE
        d -= 1
        g = (val & 127) - Z_OFF
        r = ((val >> 7) & 127) - Z_OFF
        _combine(acc, d, st[d, ACT] == root, g, r, (val >> 14) & 1, (val >> 15) & 1)
        if d == 0:
            root_val[ch[0, chn[0, 1] - 1, CH_M]] = val
    counters[C_DEPTH] = d
    return STATUS_SLICE
