"""The compiled alpha-beta search of the pruned paranoid solver (imported only by its driver).

It answers the paranoid question of the outcome-ranked model
(:data:`~ruleslawyer.solvers.twist_of_fate.reference.maxn.UTILITY`) for the player
to move at the root, without visiting every state: every other player minimises
the root player's utility. A node's children come from the exhaustive kernel's
``_open`` (the same rules, in legal-move order); the table keys a state by the
kernel's two words (:func:`_key`); only the search is this module's.

A value is the root player's utility as one integer that compares as the utility
does, plies counted from the root (every play takes a card, so a state's depth is
fixed and the value depends on the state alone, as a transposition table needs):

- lost at ply ``d``: ``d`` (more plies, larger);
- open: :data:`OPEN_BASE` + (Sanctuary plus ``Z_OFF``) * 16 + Luck + Shilling;
- won at ply ``d``: :data:`WON_TOP` - ``d``;

the same numbers as the max^n kernel's root entry once its plies are counted from
the root. The root player is any seat (``params[P_ROOT]``): the player to move by
default, or another whose guarantee is asked, the root then a node of the others.

Pruning: alpha-beta (fail-soft) with a fixed-size transposition table (two-slot
buckets: one kept for the entry with more cards left below it, one always
replaced; each entry's value is exact, a lower or an upper bound); a node is cut
before any search when a child's stored value (or a horizon child's) already
falls outside its window; the moves in order of the table's best move, then by
the root player's value of the child as it stands (:func:`_order`); every child
after a node's first tested with a null window (does it beat the best so far at
all?) and searched again with the whole window only when it does (principal
variation search); a static bound on each node (:func:`bounds`): what each seat
can still score this round, from the plays it can still take part in and the
rises the cards left can give it (``how[H_RISE]``); and, once that bound shows no
seat but the root can win, the other seats' Luck, Shilling and Sanctuary left out
of the table's keys (``how[H_ABS]``, :func:`_key`): the states that differ only
there share one entry.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ruleslawyer.solvers.twist_of_fate.kernel import (
    ACT_SHIFT,
    COUNT_SHIFT,
    F_K1,
    F_K2,
    F_N,
    K_INFO,
    KID,
    LAST,
    LEAF_BIT,
    LIMIT,
    MOST_POINTS,
    P_HB,
    P_MONKS,
    P_N,
    P_ROOT,
    P_S,
    PAD,
    SEAT_BITS,
    SEAT_MASK,
    TOP,
    Z_OFF,
    Z_SHIFT,
    _load,
    _open,
    enter,
    key_hash,
)

MAX_PLY = 31
OPEN_BASE = MAX_PLY + 1
WON_TOP = (1 << 11) - 1
WON_LOW = WON_TOP - MAX_PLY
LOW, HIGH = -1, WON_TOP + 1  # below and above every value
OTHERS_FIELDS = (1 << COUNT_SHIFT) - 1  # a seat's Luck, Shilling and Sanctuary in ``k1``
ABSTRACT = 1 << 47  # a key without them (above the marker bit of ``k2``)
SLOT_WORDS = 4  # a table slot: the key's two words, the data word, a spare (alignment)
EXACT, LOWER, UPPER = 0, 1, 2  # a stored value: exact, a lower bound, an upper bound
MOVE_INFO = 17  # a child's move is its K_INFO word shifted down this far
# counters
C_NODES, C_LIMIT, C_ABORT, C_PLIES, C_OPENED = range(5)
NCOUNTERS = 5
CHECK_EVERY = 1023  # nodes between two looks at the stop flag (the node budget: at each)
# the switches of a search (``how``): the rise bound; the others out of the keys
H_RISE, H_ABS = range(2)
NHOW = 2
# sizes[hand]: its cards, the mask of its kinds, the sums of its cards' rises and falls,
# then its number of cards at each rise of ``levels[0]``, then at each fall of
# ``levels[1]`` (highest first; see the driver's ``hand_table``)
Z_CARDS, Z_KINDS, Z_RISE, Z_FALL, Z_LEVELS = range(5)


def open_value(sanctuary: int, luck_shilling: int) -> int:
    """The value of an open end with this Sanctuary and Luck + Shilling."""
    return OPEN_BASE + ((sanctuary + Z_OFF) << 4) + luck_shilling


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def leaf_value(k1, k2, ply, params):
    """The root player's utility at a horizon state ``ply`` plies from the root."""
    winner = ((k2 >> (params[P_HB] * params[P_N])) & 7) - 1
    root = params[P_ROOT]
    if winner < 0:
        f = (k1 >> (SEAT_BITS * root)) & SEAT_MASK
        return np.int64(OPEN_BASE + (((f >> Z_SHIFT) & 63) << 4) + (f & 7) + ((f >> 3) & 7))
    if winner == root:
        return np.int64(WON_TOP - ply)
    return np.int64(ply)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _most(k2, s, n, hb, sizes, levels, row, left):
    """The most seat ``s``'s Luck + Shilling can rise (``row`` 0) or fall (1) this round:
    by its own cards' rises (or falls), and by those of the ``left`` plays of the
    others' cards that rise (fall) the most."""
    hmask = (np.int64(1) << hb) - 1
    at = Z_LEVELS + row * levels.shape[1]
    total = sizes[(k2 >> (hb * s)) & hmask, Z_RISE + row] if s < n else 0
    for i in range(levels.shape[1]):
        if left == 0:
            break
        count = 0
        for q in range(n):
            if q != s:
                count += sizes[(k2 >> (hb * q)) & hmask, at + i]
        take = count if count < left else left
        total += take * levels[row, i]
        left -= take
    return total


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def bounds(k1, k2, ply, params, sizes, points, levels, how):
    """A lower and an upper bound on the root player's value of the node ``ply`` plies
    from the root, from what each seat can still score this round.

    A seat takes part in a play as its player (a card of its hand) or its target (at
    most until its count reaches the six-card limit), and ``points[kinds, ls, plays]``
    bounds what a seat with Luck and Shilling ``ls`` scores in that many plays while
    the hands hold only the kinds of card in the mask ``kinds`` (see the driver's
    ``points_table``). With ``how[H_RISE]`` also the rise bound: a point takes Luck or
    Shilling from 4 back to 0, and a play raises Luck + Shilling by at most its card's
    rise (``levels``), so a seat scores at most (Luck + Shilling + the rises of its own
    cards + the largest rises of the others' cards, as many as it can still be
    targeted) / 4, and the root, after the most points it can score, holds at most
    what is left of that sum in Luck + Shilling (a Sanctuary short of those points
    is worth less whatever it holds). A seat whose Sanctuary plus its points stays
    below the last Sanctuary card cannot win. No seat wins or loses before the next
    ply. The root's Sanctuary only falls by the Monks penalty (2-player variant), at
    most :data:`MOST_POINTS` for each card it still holds."""
    n_s = params[P_S]
    n = params[P_N]
    hb = params[P_HB]
    hmask = (np.int64(1) << hb) - 1
    root = params[P_ROOT]
    total = 0
    kinds = 0
    for q in range(n):
        hand = (k2 >> (hb * q)) & hmask
        total += sizes[hand, Z_CARDS]
        kinds |= sizes[hand, Z_KINDS]
    other_wins = False
    root_wins = False
    left_root = 0
    ls_now = 0
    z_root = 0
    own_root = 0
    top_root = 0
    ls_root = 2 * TOP
    for s in range(n_s):
        f = (k1 >> (SEAT_BITS * s)) & SEAT_MASK
        hand_s = (k2 >> (hb * s)) & hmask if s < n else -1
        own = sizes[hand_s, Z_CARDS] if s < n else 0
        room = LIMIT - (f >> COUNT_SHIFT)
        if room < 0:
            room = 0
        others = total - own
        left = others if others < room else room
        gain = points[kinds, f & 63, own + left]
        if how[H_RISE]:
            rise = _most(k2, s, n, hb, sizes, levels, 0, left)
            reach = (f & 7) + ((f >> 3) & 7) + rise
            if reach >> 2 < gain:
                gain = reach >> 2
            if s == root and reach - 4 * gain < ls_root:
                # scoring ``gain`` points leaves at most this Luck + Shilling
                ls_root = reach - 4 * gain
        z = (f >> Z_SHIFT) & 63
        top = z + gain
        can = top >= LAST + Z_OFF
        if s == root:
            root_wins = can
            z_root = z
            own_root = own
            top_root = top
            left_root = left
            ls_now = (f & 7) + ((f >> 3) & 7)
        elif can:
            other_wins = True
    if root_wins:
        hi = np.int64(WON_TOP - (ply + 1))
    else:
        hi = np.int64(OPEN_BASE + (top_root << 4) + ls_root)
    if other_wins:
        lo = np.int64(ply + 1)
    else:
        zmin = z_root
        if params[P_MONKS] >= 0:
            zmin -= MOST_POINTS * own_root
        if zmin < 0:
            zmin = 0
        lo = np.int64(OPEN_BASE + (zmin << 4))
        if how[H_RISE] and zmin == z_root:
            # no point scored: Luck + Shilling falls at most by the cards' falls
            low_ls = ls_now - _most(k2, root, n, hb, sizes, levels, 1, left_root)
            if low_ls > 0:
                lo += low_ls
    return lo, hi


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _bucket(tt, h):
    return (h & (tt.shape[0] - PAD - 1)) & ~np.int64(1)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def probe(tt, k1, k2, h):
    """The data word stored with the state keyed ``k1``, ``k2`` (``h`` its hash), or -1."""
    i = _bucket(tt, h)
    if tt[i, 0] == k1 and tt[i, 1] == k2:
        return tt[i, 2]
    if tt[i + 1, 0] == k1 and tt[i + 1, 1] == k2:
        return tt[i + 1, 2]
    return np.int64(-1)


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def store(tt, k1, k2, h, value, flag, move, left):
    """Keep a node's value (a ``flag``: exact or a bound), its best move and the cards
    ``left`` below it: in the first slot of its bucket if that holds this state or a
    node with no more cards left, else in the second."""
    i = _bucket(tt, h)
    word = value | (flag << 16) | ((move + 1) << 18) | (left << 40)
    if tt[i, 0] == 0 or (tt[i, 0] == k1 and tt[i, 1] == k2) or (tt[i, 2] >> 40) <= left:
        tt[i, 0] = k1
        tt[i, 1] = k2
        tt[i, 2] = word
    else:
        tt[i + 1, 0] = k1
        tt[i + 1, 1] = k2
        tt[i + 1, 2] = word


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _key(k1, k2, params, abstract):
    """A state's key in the table: its two words; with ``abstract`` (no seat but the
    root can win below the state), without the other seats' Luck, Shilling and
    Sanctuary (the Monks' kept: their scoring costs the player who targets them),
    marked :data:`ABSTRACT`.

    Below such a state those fields cannot change the root's value: a seat's Luck,
    Shilling and Sanctuary decide only its own scoring, and so whether it wins
    (ruled out), ties a finish (it would have to reach the last card too) or, for the
    Monks, brings a penalty; the plays open to each player depend only on the hands
    and the six-card counts (kept), but under face-down-at-zero = must-decrease,
    where a target's Luck and Shilling decide its face-down plays: the driver then
    turns ``how[H_ABS]`` off."""
    if abstract:
        root = params[P_ROOT]
        monks = params[P_MONKS]
        for s in range(params[P_S]):
            if s != root and s != monks:
                k1 &= ~(np.int64(OTHERS_FIELDS) << (SEAT_BITS * s))
        k2 |= ABSTRACT
    return k1, k2


@njit(cache=True, inline="always", error_model="numpy", _nrt=False)
def _order(kid, d, n, k1, tt_move, params, keys, order):
    """The node's children in the order they are searched: the table's best move first,
    then by the root player's value of the child as it stands (a horizon state's
    value; else its Sanctuary and Luck + Shilling): highest first where the root
    player moves, lowest first elsewhere; equal keys in legal-move order."""
    sign = 1 if ((k1 >> ACT_SHIFT) & 3) == params[P_ROOT] else -1
    for j in range(n):
        b = j * KID
        info = kid[d, b + K_INFO]
        if (info >> MOVE_INFO) == tt_move:
            key = np.int64(1 << 20)
        else:
            key = sign * leaf_value(kid[d, b], kid[d, b + 1], d + 1, params)
        keys[d, j] = key
        # insertion: stable, so equal keys stay in legal-move order
        i = j
        while i > 0 and keys[d, order[d, i - 1]] < key:
            order[d, i] = order[d, i - 1]
            i -= 1
        order[d, i] = j


# the search's own stack, a row per depth: the window, the window on entry, the best
# value and move so far, the next child (a place in ``order``), the node's hash, and
# how the child at the next place is searched (NULL_WINDOW: a null window, tested;
# FULL_AGAIN: it beat the null window, so again with the node's whole window)
S_ALPHA, S_BETA, S_A0, S_B0, S_BEST, S_MOVE, S_X, S_H, S_HOW, S_ABS = range(10)
STACK = 10
WHOLE, NULL_WINDOW, FULL_AGAIN = range(3)


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def _enter(
    d, frame, kid, tt, counters, st, keys, order, how, params, remove, cards, sides,
    scores, columns, after, parts, head, sizes, points, levels,
):  # fmt: skip
    """Enter the node at depth ``d`` (window in ``st[d]``): (True, its value) if it
    needs no search (a bound, the table, no move), else (False, 0) with its children
    listed and ordered."""
    counters[C_NODES] += 1
    k1 = frame[d, F_K1]
    k2 = frame[d, F_K2]
    alpha = st[d, S_ALPHA]
    beta = st[d, S_BETA]
    lo, hi = bounds(k1, k2, d, params, sizes, points, levels, how)
    if hi <= alpha:
        return True, hi
    if lo >= beta or lo >= hi:
        return True, lo
    tt_move = -1
    # no other seat can win below a node whose bound says so: the others' Luck,
    # Shilling and Sanctuary no longer matter to the root's value (see _others_out)
    abstract = how[H_ABS] != 0 and ((d > 0 and st[d - 1, S_ABS] != 0) or lo >= OPEN_BASE)
    st[d, S_ABS] = abstract
    c1, c2 = _key(k1, k2, params, abstract)
    h = key_hash(c1, c2)
    st[d, S_H] = h
    word = probe(tt, c1, c2, h)
    if word >= 0:
        v = word & 0xFFFF
        flag = (word >> 16) & 3
        tt_move = ((word >> 18) & 0x3FFFFF) - 1
        if flag == EXACT:
            return True, v
        if flag == LOWER and v > lo:
            lo = v
        if flag == UPPER and v < hi:
            hi = v
    if hi <= alpha:
        return True, hi
    if lo >= beta or lo >= hi:
        return True, lo
    _open(
        frame, kid, d, params, remove, cards, sides, scores, columns, after, tt, tt,
        parts, head,
    )  # fmt: skip
    counters[C_OPENED] += 1
    n = frame[d, F_N]
    if n == 0:  # no move at all: valued as a horizon state
        return True, leaf_value(k1, k2, d, params)
    is_max = ((k1 >> ACT_SHIFT) & 3) == params[P_ROOT]
    # a child already valued well enough (a horizon state, or one the table bounds
    # on the right side) may cut the node before any search
    for j in range(n):
        b = j * KID
        info = kid[d, b + K_INFO]
        if info & LEAF_BIT:
            v = leaf_value(kid[d, b], kid[d, b + 1], d + 1, params)
        else:
            c1, c2 = _key(kid[d, b], kid[d, b + 1], params, abstract)
            word = probe(tt, c1, c2, key_hash(c1, c2))
            if word < 0:
                continue
            v = word & 0xFFFF
            flag = (word >> 16) & 3
            if (is_max and flag == UPPER) or (not is_max and flag == LOWER):
                continue
        if (is_max and v >= beta) or (not is_max and v <= alpha):
            return True, v
    _order(kid, d, n, k1, tt_move, params, keys, order)
    # the bounds narrow the window: a value outside them cannot occur
    st[d, S_A0] = alpha
    st[d, S_B0] = beta
    if alpha < lo - 1:
        alpha = lo - 1
    if beta > hi + 1:
        beta = hi + 1
    st[d, S_ALPHA] = alpha
    st[d, S_BETA] = beta
    st[d, S_BEST] = LOW if is_max else HIGH
    st[d, S_MOVE] = -1
    st[d, S_X] = 0
    st[d, S_HOW] = WHOLE
    return False, np.int64(0)


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def value(
    d0, alpha, beta, frame, kid, tt, counters, stop, st, keys, order, how, params,
    remove, cards, sides, scores, columns, after, parts, head, sizes, points, levels,
):  # fmt: skip
    """The root player's value of the node at depth ``d0`` (in ``frame[d0]``),
    fail-soft alpha-beta in the window (``alpha``, ``beta``): exact inside it, else a
    bound on the side it fell. Sets ``counters[C_ABORT]`` (and returns 0) when the
    node budget ``counters[C_LIMIT]`` is spent or ``stop[0, 0]`` is set."""
    rules_in = (
        params, remove, cards, sides, scores, columns, after, parts, head, sizes, points, levels,
    )  # fmt: skip
    d = d0
    st[d, S_ALPHA] = alpha
    st[d, S_BETA] = beta
    done, v = _enter(d, frame, kid, tt, counters, st, keys, order, how, *rules_in)
    while True:
        if not done:
            # the node at depth d is open: its next child, or its value if none is left
            x = st[d, S_X]
            if x < frame[d, F_N] and st[d, S_ALPHA] < st[d, S_BETA]:
                b = order[d, x] * KID
                if kid[d, b + K_INFO] & LEAF_BIT:
                    v = leaf_value(kid[d, b], kid[d, b + 1], d + 1, params)
                    # fold it below, as a child's value
                else:
                    if counters[C_NODES] > counters[C_LIMIT] or (
                        counters[C_NODES] & CHECK_EVERY == 0
                        and _load(stop, np.int64(0), np.int64(0)) != 0
                    ):
                        counters[C_ABORT] = 1
                        return np.int64(0)
                    enter(frame, kid, d, b)
                    alpha = st[d, S_ALPHA]
                    beta = st[d, S_BETA]
                    if st[d, S_HOW] == FULL_AGAIN or st[d, S_MOVE] < 0 or beta - alpha <= 1:
                        st[d, S_HOW] = WHOLE  # the first child, or a re-search
                    else:  # a later child: does it beat the best so far at all?
                        st[d, S_HOW] = NULL_WINDOW
                        if ((frame[d, F_K1] >> ACT_SHIFT) & 3) == params[P_ROOT]:
                            beta = alpha + 1
                        else:
                            alpha = beta - 1
                    st[d + 1, S_ALPHA] = alpha
                    st[d + 1, S_BETA] = beta
                    d += 1
                    done, v = _enter(d, frame, kid, tt, counters, st, keys, order, how, *rules_in)
                    continue
            else:
                # every child searched, or a cut: store the node and return its value
                v = st[d, S_BEST]
                if v <= st[d, S_A0]:
                    flag = UPPER
                elif v >= st[d, S_B0]:
                    flag = LOWER
                else:
                    flag = EXACT
                c1, c2 = _key(frame[d, F_K1], frame[d, F_K2], params, st[d, S_ABS])
                store(tt, c1, c2, st[d, S_H], v, flag, st[d, S_MOVE], counters[C_PLIES] - d)
                done = True
                continue
        else:
            # the node at depth d is valued (v): back to its parent
            if d == d0:
                return v
            d -= 1
        # fold v, the value of the node's child at place S_X, into the node at depth d
        x = st[d, S_X]
        m = kid[d, order[d, x] * KID + K_INFO] >> MOVE_INFO
        is_max = ((frame[d, F_K1] >> ACT_SHIFT) & 3) == params[P_ROOT]
        if st[d, S_HOW] == NULL_WINDOW:
            st[d, S_HOW] = WHOLE
            if st[d, S_ALPHA] < v < st[d, S_BETA]:
                # it beat the best so far (a bound only): search it again, whole window
                st[d, S_HOW] = FULL_AGAIN
                done = False
                continue
        if is_max:
            if v > st[d, S_BEST]:
                st[d, S_BEST] = v
                st[d, S_MOVE] = m
                if v > st[d, S_ALPHA]:
                    st[d, S_ALPHA] = v
        else:
            if v < st[d, S_BEST]:
                st[d, S_BEST] = v
                st[d, S_MOVE] = m
                if v < st[d, S_BETA]:
                    st[d, S_BETA] = v
        st[d, S_X] = x + 1
        done = False


# root(): what it answers
BEST, EVERY, PROOF = range(3)


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def root(
    mode, threshold, low, high, out, flags, frame, kid, tt, counters, stop, st, keys,
    order, how, params, remove, cards, sides, scores, columns, after, parts, head, sizes,
    points, levels,
):  # fmt: skip
    """Search the root (in ``frame[0]``): each root move ``m`` with ``low[m] < high[m]``
    (the others are skipped), its value into ``out[m]`` and into ``flags[m]`` whether
    that is exact, a lower or an upper bound. Returns the best of them for the player
    to move (the root player's highest, another player's lowest: exact), or with
    :data:`PROOF` a bound on the side of ``threshold`` the root's value falls.

    Every search of a move starts inside its window (``low[m]``, ``high[m]``), which
    must hold its value. :data:`BEST`: the moves in legal-move order, the first
    exact, each later one only tested for a strictly better value (a null window on
    the best so far, then, where it is better, searched again for its exact value):
    the first best move and its exact value; a move that cannot beat the best so far
    gets a bound. :data:`EVERY`: each move by its own search in its window (one
    shared table): every value exact.
    """
    k1 = frame[0, F_K1]
    k2 = frame[0, F_K2]
    rules_in = (
        params, remove, cards, sides, scores, columns, after, parts, head, sizes, points, levels,
    )  # fmt: skip
    if mode == PROOF:
        return value(
            0, threshold - 1, threshold, frame, kid, tt, counters, stop, st, keys, order,
            how, *rules_in,
        )  # fmt: skip
    counters[C_NODES] += 1
    st[0, S_ABS] = 0
    _open(
        frame, kid, 0, params, remove, cards, sides, scores, columns, after, tt, tt,
        parts, head,
    )  # fmt: skip
    n_root = frame[0, F_N]
    if n_root == 0:
        return leaf_value(k1, k2, 0, params)
    # the root player's move (its highest value), or another's (the root player's lowest)
    sign = 1 if ((k1 >> ACT_SHIFT) & 3) == params[P_ROOT] else -1
    best = np.int64(LOW if sign > 0 else HIGH)
    found = False
    for j in range(n_root):
        b = j * KID
        info = kid[0, b + K_INFO]
        m = info >> MOVE_INFO
        if low[m] >= high[m]:
            continue
        flag = EXACT
        if info & LEAF_BIT:
            v = leaf_value(kid[0, b], kid[0, b + 1], 1, params)
        else:
            alpha = low[m]
            beta = high[m]
            if found and mode == BEST:  # does it beat the best so far at all?
                alpha = best if sign > 0 else best - 1
                beta = alpha + 1
            enter(frame, kid, 0, b)
            v = value(
                1, alpha, beta, frame, kid, tt, counters, stop, st, keys, order, how, *rules_in
            )  # fmt: skip
            better = v >= beta and beta < high[m] if sign > 0 else v <= alpha and alpha > low[m]
            if better and counters[C_ABORT] == 0:  # it does: by how much
                if sign > 0:
                    alpha, beta = v - 1, high[m]
                else:
                    alpha, beta = low[m], v + 1
                enter(frame, kid, 0, b)
                v = value(
                    1, alpha, beta, frame, kid, tt, counters, stop, st, keys, order, how,
                    *rules_in,
                )  # fmt: skip
            elif v <= alpha:
                flag = UPPER
            elif v >= beta:
                flag = LOWER
            if counters[C_ABORT] != 0:
                return np.int64(0)
        out[m] = v
        flags[m] = flag
        if not found or sign * v > sign * best:
            best = v
        found = True
    return best
