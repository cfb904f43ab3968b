"""Twist of Fate states in one 64-bit word, and the per-partition work of the tiered engine.

The Numba kernel (:mod:`~ruleslawyer.solvers.twist_of_fate.kernel`) keeps a state in two words. Over
the states reachable from one position most of those bits never change, so one
word holds them all: per seat its Luck and Shilling (``5 * luck + shilling``, 5
bits), its Sanctuary and its count toward the six-card limit as offsets from the
lowest value they can reach; per player their hand as an index into the
sub-hands of the hand they hold at the root; the player to move and the winner.
:func:`layout` sizes every field from the root position and refuses a position
whose fields need more than :data:`STATE_BITS` bits. Bit :data:`LEAF_FLAG` of a
stored word says the kernel found the state at the horizon (a leaf has no
children); it is not part of the state.

The functions that walk partitions (:func:`expand`, :func:`combine`) call the
kernel's own child generation (``_open``) and value combination (``_combine``),
and the max^n kernel's paranoid choice of a line (``compare``, ``shift``), so
the tiered engine plays by exactly the rules of the in-memory solver and values
a state as ``solve --model paranoid`` does.
"""

from __future__ import annotations

from math import prod
from typing import NamedTuple

import numpy as np
from numba import njit

from ruleslawyer.errors import InputError
from ruleslawyer.models.twist_of_fate.files import Position
from ruleslawyer.models.twist_of_fate.play import Rules, count_toward_limit
from ruleslawyer.solvers.twist_of_fate import kernel as k
from ruleslawyer.solvers.twist_of_fate import maxn_kernel as mk
from ruleslawyer.solvers.twist_of_fate.encoding import Encoded, encode, multisets
from ruleslawyer.solvers.twist_of_fate.kernel import NOT_PACKED, pack, unpack

__all__ = ["NOT_PACKED", "Layout", "Problem", "layout", "pack", "problem", "unpack"]

STATE_BITS = 62
LEAF_FLAG = np.int64(1 << STATE_BITS)
LS_BITS = 5  # 5 * luck + shilling: 0..24


class Layout(NamedTuple):
    """Where each field of a state sits in its word (see the module docstring).

    ``fields`` has one row per field: shift, width, lowest value (in the kernel's
    units). The rows are: per seat Luck-and-Shilling, Sanctuary, count; per player
    their hand; the player to move; the winner plus one.
    """

    fields: np.ndarray  # (fields, 3) int64
    head: np.ndarray  # seats, players, the kernel's hand bits, the kernel's hands
    to_local: np.ndarray  # player, kernel hand index -> index among the root hand's sub-hands
    to_global: np.ndarray  # player, sub-hand index -> kernel hand index
    bits: int
    parts: np.ndarray  # each field's value -> its part of the word (see pack_parts)


def _width(values: int) -> int:
    return max(0, (values - 1).bit_length())


def layout(position: Position, rules: Rules) -> Layout:
    """The packing of every state reachable from ``position``; an InputError if it needs
    more than :data:`STATE_BITS` bits."""
    state, deck = position.state, position.deck
    kinds = len(deck.characters)
    most = max(len(s.hand) for s in state.seats)
    vectors, _ = multisets(kinds, most)
    hand_bits = max(1, (len(vectors) - 1).bit_length())
    rows: list[tuple[int, int]] = []  # (width, lowest)
    for seat in state.seats:
        z = seat.sanctuary + k.Z_OFF
        # Sanctuary falls only by the Monks' penalty: at most MOST_POINTS per card the
        # seat plays; it rises to the last card at most (a higher one only falls to it).
        lowest = z - (k.MOST_POINTS * len(seat.hand) if state.monks is not None else 0)
        highest = max(z, k.LAST + k.Z_OFF)
        count = count_toward_limit(seat, rules)
        rows += [
            (LS_BITS, 0),
            (_width(highest - lowest + 1), lowest),
            (_width(max(count, k.LIMIT) - count + 1), count),
        ]
    to_local = np.full((state.players, len(vectors)), -1, dtype=np.int64)
    sub_hands = [
        prod(seat.hand.count(n) + 1 for n in deck.names) for seat in state.seats[: state.players]
    ]
    to_global = np.zeros((state.players, max(sub_hands)), dtype=np.int64)
    for p in range(state.players):
        held = [state.seats[p].hand.count(n) for n in deck.names]
        local = 0
        for g, v in enumerate(vectors):
            if all(a <= b for a, b in zip(v, held, strict=True)):
                to_local[p, g] = local
                to_global[p, local] = g
                local += 1
        rows.append((_width(sub_hands[p]), 0))
    rows += [(_width(state.players), 0), (_width(len(state.seats) + 1), 0)]
    fields = np.zeros((len(rows), 3), dtype=np.int64)
    shift = 0
    for i, (width, lowest) in enumerate(rows):
        fields[i] = (shift, width, lowest)
        shift += width
    if shift > STATE_BITS:
        raise InputError(
            "position",
            "seats",
            f"states needing {shift} bits",
            f"a position whose states fit {STATE_BITS} bits (fewer seats or smaller hands)",
        )
    head = np.array([len(state.seats), state.players, hand_bits, len(vectors)], dtype=np.int64)
    return Layout(fields, head, to_local, to_global, shift, pack_parts(fields, head, to_local))


def pack_parts(fields: np.ndarray, head: np.ndarray, to_local: np.ndarray) -> np.ndarray:
    """The table of the kernel's ``pack_by``: for every field and each value its bits in
    the packed word (``NOT_PACKED`` where the value is out of the field's range).
    Per seat 64 entries by the kernel's Luck-and-Shilling bits, 64 by its Sanctuary
    bits, 8 by its count; per player one by each kernel hand; 4 by the player to move;
    8 by the winner plus one. Built from the field rows, as :func:`pack` reads them."""
    seats, players, _, hands = (int(x) for x in head)

    def part(f: int, value: int) -> int:
        shift, width, lowest = (int(x) for x in fields[f])
        x = value - lowest
        return x << shift if 0 <= x < 1 << width else NOT_PACKED

    out: list[int] = []
    for s in range(seats):
        f = 3 * s
        out += [part(f, (b & 7) * 5 + (b >> 3)) if (b & 7) <= 4 and (b >> 3) <= 4 else NOT_PACKED
                for b in range(64)]  # fmt: skip
        out += [part(f + 1, z) for z in range(64)]
        out += [part(f + 2, c) for c in range(8)]
    f = 3 * seats
    for p in range(players):
        out += [NOT_PACKED if to_local[p, g] < 0 else part(f + p, int(to_local[p, g]))
                for g in range(hands)]  # fmt: skip
    f += players
    out += [part(f, a) for a in range(4)] + [part(f + 1, w) for w in range(8)]
    return np.array(out, dtype=np.int64)


class Problem(NamedTuple):
    """Everything a partition task (or the memory solver) needs: the kernel's tables
    with the slot parameters, the packing, and the words in a slot of the memory
    solver's transposition table (see :func:`slot_params`)."""

    enc: Encoded
    lay: Layout
    n_moves: int
    slot_width: int


def slot_params(params: np.ndarray, lay: Layout, root: int, width: int | None = None) -> int:
    """Set the kernel's slot parameters in ``params`` (``P_KMASK`` and after) for states
    packed by ``lay``, and return the words per slot of the transposition table: one
    (the packed state, a marker bit, and the value in the bits above: each
    Sanctuary of the value as an offset in the root seat's packed range) when that
    fits 64 bits, else two. ``width`` forces one (tests)."""
    _, zw, zlow = (int(x) for x in lay.fields[3 * root + 1])
    vbits = 2 * zw + 2  # guaranteed and reachable Sanctuary, guaranteed and possible win
    params[k.P_MARK] = 1 << lay.bits
    params[k.P_KMASK] = (1 << (lay.bits + 1)) - 1
    params[k.P_VSHIFT] = lay.bits + 1
    params[k.P_VMASK] = (1 << vbits) - 1
    params[k.P_ZLOW] = zlow
    params[k.P_ZW] = zw
    if width is None:
        width = 1 if lay.bits + 1 + vbits <= 64 else 2
    return width


def problem(position: Position, rules: Rules, slot_width: int | None = None) -> Problem:
    enc = encode(position, rules)
    lay = layout(position, rules)
    params = enc.params.copy()
    width = slot_params(params, lay, position.state.active, slot_width)
    n_moves = len(position.deck.characters) * len(position.state.seats) * k.VARIANTS
    return Problem(enc._replace(params=params), lay, n_moves, width)


def root_word(prob: Problem) -> int:
    """The root's packed word (never flagged a leaf: the memory solver opens it too)."""
    w = int(pack(*prob.enc.root, prob.lay.fields, prob.lay.head, prob.lay.to_local))
    if w == NOT_PACKED:
        raise InputError("position", "seats", "a value out of its range", "a packable position")
    return w


def _scratch(prob: Problem) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's frame and child list for one node, and a two-slot table for its prefetches."""
    frame = np.zeros((1, k.FRAME), dtype=np.int64)
    kid = np.zeros((1, prob.n_moves * k.KID), dtype=np.int64)
    return frame, kid, np.zeros((k.PAD + 2, 2), dtype=np.int64)


# expand(): how a call ended
EXPAND_DONE, EXPAND_FULL, EXPAND_UNPACKABLE = range(3)


@njit(cache=True, nogil=True, error_model="numpy")
def _expand(
    parents, start, out, moves, ends, fanout, counts, fields, head, parts, to_global,
    frame, kid, dummy, params, remove, cards, sides, scores, columns, after,
):  # fmt: skip
    """The children of ``parents[start:]`` in move order into ``out`` (flagged leaves
    where the kernel says so) until it could not hold another node's; their move
    indices into ``moves`` if it is as long as ``out``; each parent's number of
    children into ``fanout[i - start]``. The end-state projection of every parent
    that is a leaf or has no move goes to ``ends``. ``counts`` gets the parents done,
    children written, ends written. Returns a status."""
    endmask = params[k.P_ENDMASK]
    mark = params[k.P_MARK]
    max_kids = kid.shape[1] // k.KID
    with_moves = moves.shape[0] == out.shape[0]
    n = 0
    n_ends = 0
    i = start
    status = EXPAND_DONE
    while i < parents.shape[0]:
        if n + max_kids > out.shape[0]:
            status = EXPAND_FULL
            break
        w = parents[i]
        k1, k2 = unpack(w & ~LEAF_FLAG, fields, head, to_global)
        if w & LEAF_FLAG:
            ends[n_ends] = k1 & endmask
            n_ends += 1
            fanout[i - start] = 0
            i += 1
            continue
        frame[0, k.F_K1] = k1
        frame[0, k.F_K2] = k2
        k._open(
            frame, kid, 0, params, remove, cards, sides, scores, columns, after, dummy, dummy,
            parts, head,
        )  # fmt: skip
        kids = frame[0, k.F_N]
        fanout[i - start] = kids
        if kids == 0:
            ends[n_ends] = k1 & endmask
            n_ends += 1
        for j in range(kids):
            b = j * k.KID
            c = kid[0, b + k.K_W]
            if c == NOT_PACKED:
                status = EXPAND_UNPACKABLE
                break
            c ^= mark
            info = kid[0, b + k.K_INFO]
            if info & k.LEAF_BIT:
                c |= LEAF_FLAG
            out[n] = c
            if with_moves:
                moves[n] = info >> 17
            n += 1
        if status == EXPAND_UNPACKABLE:
            break
        i += 1
    counts[0] = i - start
    counts[1] = n
    counts[2] = n_ends
    return status


class Chunk(NamedTuple):
    """One run ``parents[start:stop]`` expanded by :func:`expand_chunks`."""

    start: int
    stop: int
    children: np.ndarray  # every child of every parent, in parent order and move order
    moves: np.ndarray | None  # each child's move index (``with_moves``)
    ends: np.ndarray  # the end-state projections of the parents that are leaves or stuck
    fanout: np.ndarray  # each parent's number of children


def expand_chunks(prob: Problem, parents: np.ndarray, chunk: int, *, with_moves: bool = False):
    """Yield a :class:`Chunk` for successive runs ``parents[start:stop]``: every child
    of every parent, ``chunk`` at most (more only when one node alone has more)."""
    frame, kid, dummy = _scratch(prob)
    size = max(chunk, prob.n_moves)
    out = np.empty(size, dtype=np.int64)
    moves = np.empty(size if with_moves else 0, dtype=np.int64)
    ends = np.empty(size, dtype=np.int64)
    fanout = np.empty(size, dtype=np.int64)
    counts = np.zeros(3, dtype=np.int64)
    lay, enc = prob.lay, prob.enc
    start = 0
    while start < parents.shape[0]:
        # at most one end per parent: never more parents than ``size``
        stop = min(parents.shape[0], start + size)
        status = _expand(
            parents[:stop], start, out, moves, ends, fanout, counts, lay.fields, lay.head,
            lay.parts, lay.to_global, frame, kid, dummy, *enc[1:],
        )  # fmt: skip
        if status == EXPAND_UNPACKABLE:
            raise InputError(
                "position", "seats", "a reachable state out of the packing's ranges",
                "a position whose states fit the packing",
            )  # fmt: skip
        n, n_ends, done = int(counts[1]), int(counts[2]), int(counts[0])
        yield Chunk(
            start,
            start + done,
            out[:n].copy(),
            moves[:n].copy() if with_moves else None,
            ends[:n_ends].copy(),
            fanout[:done].copy(),
        )
        start += done


@njit(cache=True, nogil=True, error_model="numpy")
def _combine_values(parents, fanout, child_values, out, fields, head, to_global, params):
    """Each parent's value word from its children's, which ``child_values`` lists in
    the order :func:`_expand` writes them (``fanout`` of them per parent): the value
    word of the max^n kernel in paranoid mode (``maxn_kernel``, mode 1), the
    outcome-ranked vector of the paranoid line and, above ``P_SHIFT``, the paranoid
    kernel's 16-bit bounds. The node is not opened again: its bounds start as the
    kernel's ``_open`` starts them (maximising when the root's player moves), then take
    each child's by the kernel's ``_combine``; its vector is the first child's, in
    move order, of the best utility for the root (the highest where the root moves,
    the lowest elsewhere), one ply earlier."""
    frame = np.zeros((1, k.FRAME), dtype=np.int64)
    root = params[k.P_ROOT]
    players = params[k.P_N]
    pos = 0
    for i in range(parents.shape[0]):
        w = parents[i]
        n = fanout[i]
        k1, k2 = unpack(w & ~LEAF_FLAG, fields, head, to_global)
        if w & LEAF_FLAG or n == 0:  # a horizon state, or no move at all: valued as one
            bounds = k.horizon_value(k1, k2, params)
            out[i] = mk.leaf_vector(k1, k2, params) | (bounds << mk.P_SHIFT)
            pos += n
            continue
        mover = (k1 >> k.ACT_SHIFT) & 3
        frame[0, k.F_MAX] = 1 if mover == root else 0
        frame[0, k.F_G] = k.LOW if mover == root else k.HIGH
        frame[0, k.F_GW] = 0 if mover == root else 1
        frame[0, k.F_R] = k.LOW
        frame[0, k.F_PW] = 0
        best = child_values[pos] & mk.VEC_MASK
        for j in range(n):
            word = child_values[pos + j]
            k._combine(frame, 0, (word >> mk.P_SHIFT) & 0xFFFF)
            vec = word & mk.VEC_MASK
            if mk.compare(vec, best, mover, players, 1, root) > 0:
                best = vec
        pos += n
        bounds = k._encode(frame[0, k.F_G], frame[0, k.F_R], frame[0, k.F_GW], frame[0, k.F_PW])
        out[i] = mk.shift(best, players) | (bounds << mk.P_SHIFT)
    return pos


def combine(
    prob: Problem, parents: np.ndarray, fanout: np.ndarray, child_values: np.ndarray
) -> np.ndarray:
    """The value words of ``parents`` given their children's (see :func:`_combine_values`)."""
    out = np.empty(parents.shape[0], dtype=np.int64)
    lay = prob.lay
    used = _combine_values(
        parents, fanout, child_values, out, lay.fields, lay.head, lay.to_global, prob.enc.params
    )
    if used != child_values.shape[0]:
        raise ValueError("children and parents out of step")
    return out


@njit(cache=True, nogil=True, error_model="numpy")
def _key(w, bits, shift):
    """The word ``w`` (``bits`` bits, and the leaf flag) in ``bits + 1`` bits, in the
    same order as the words, then without its lowest ``shift`` bits."""
    return ((w & (LEAF_FLAG - 1)) | ((w >> STATE_BITS) << bits)) >> shift


@njit(cache=True, nogil=True, error_model="numpy")
def _queries(words, owner, bounds, bits, shift, index_bits, keys, grouped):
    """Group ``words`` by partition (``owner``, ``bounds``: a counting sort) into
    ``grouped``, and each as a packed key into ``keys``: its :func:`_key` above its
    index in its group (``index_bits`` bits)."""
    at = bounds[:-1].copy()
    for i in range(words.shape[0]):
        j = owner[i]
        a = at[j]
        keys[a] = (_key(words[i], bits, shift) << index_bits) | (a - bounds[j])
        grouped[a] = words[i]
        at[j] = a + 1


@njit(cache=True, nogil=True, error_model="numpy")
def _ungroup(owner, bounds, grouped, out):
    """``out[i]``: what ``grouped`` holds at word ``i``'s place in its group."""
    at = bounds[:-1].copy()
    for i in range(owner.shape[0]):
        j = owner[i]
        out[i] = grouped[at[j]]
        at[j] += 1


class Queries(NamedTuple):
    """Words to look up, grouped by partition, each group's keys sorted: see
    :func:`queries`."""

    owner: np.ndarray  # each word's partition
    bounds: np.ndarray  # where each partition's group starts
    grouped: np.ndarray  # the words, grouped
    keys: np.ndarray  # the packed keys, grouped, each group sorted
    bits: int
    shift: int
    index_bits: int


def queries(words: np.ndarray, parts: int, bits: int) -> Queries:
    """``words`` (states of ``bits`` bits, maybe flagged leaves) grouped by
    :func:`partition_of`, for :func:`join_group`. Each group is sorted as one array of
    64-bit keys, each word's bits above its index in the group (no ``argsort``:
    numpy's sort is about three times faster, and the join then reads and writes
    within the group, not all over ``words``); where word and index do not fit 63
    bits together, the word's lowest bits are left out of the key (``shift``), and the
    join finds the word among the few that share the rest."""
    bounds = np.zeros(parts + 1, dtype=np.int64)
    owner = _owners(words, parts, bounds)
    largest = int(np.diff(bounds).max()) if words.shape[0] else 1
    index_bits = max(1, (largest - 1).bit_length())
    shift = max(0, bits + 1 + index_bits - 63)
    keys = np.empty(words.shape[0], dtype=np.int64)
    grouped = np.empty(words.shape[0], dtype=np.int64)
    _queries(words, owner, bounds, bits, shift, index_bits, keys, grouped)
    for j in range(parts):
        keys[bounds[j] : bounds[j + 1]].sort()
    return Queries(owner, bounds, grouped, keys, bits, shift, index_bits)


@njit(cache=True, nogil=True, error_model="numpy")
def _join(known, known_values, keys, words, bits, shift, index_bits, out):
    """``out[i] = known_values[at]`` where ``known[at] == words[i]``, for each packed
    key (in increasing order) of :func:`_queries`: each search gallops forward from
    the last one's place in the sorted ``known`` to the first word whose key is not
    below the query's, so the pass reads ``known`` nearly in sequence, then steps
    over the few words that share that key. Returns -1, or the index in ``words`` of
    a word missing from ``known``."""
    n = known.shape[0]
    mask = (1 << index_bits) - 1
    lo = 0
    for t in range(keys.shape[0]):
        i = keys[t] & mask
        p = keys[t] >> index_bits
        q = words[i]
        if lo < n and _key(known[lo], bits, shift) < p:
            # double the step until known[lo + step]'s key >= p or the end
            step = 1
            while lo + step < n and _key(known[lo + step], bits, shift) < p:
                lo += step
                step *= 2
            hi = min(lo + step, n)  # the first index whose key >= p is in (lo, hi]
            while hi - lo > 1:
                mid = (lo + hi) >> 1
                if _key(known[mid], bits, shift) < p:
                    lo = mid
                else:
                    hi = mid
            lo = hi
        at = lo  # lo stays at the first word of key p: the next query may share it
        while at < n and known[at] < q:
            at += 1
        if at >= n or known[at] != q:
            return i
        out[i] = known_values[at]
    return -1


def join_group(
    known: np.ndarray, known_values: np.ndarray, q: Queries, j: int, found: np.ndarray
) -> int:
    """Write the value of each word of ``q``'s group ``j`` (all in the sorted
    ``known``) to ``found`` at the word's place in ``q.grouped``; -1, or the index in
    the group of a word that ``known`` lacks."""
    a, b = q.bounds[j], q.bounds[j + 1]
    keys, words = q.keys[a:b], q.grouped[a:b]
    return int(_join(known, known_values, keys, words, q.bits, q.shift, q.index_bits, found[a:b]))


def ungroup(q: Queries, found: np.ndarray) -> np.ndarray:
    """``found`` (in ``q.grouped``'s order) in the order of the words grouped."""
    out = np.empty(found.shape[0], dtype=found.dtype)
    _ungroup(q.owner, q.bounds, found, out)
    return out


def join(
    known: np.ndarray, known_values: np.ndarray, want: np.ndarray, out: np.ndarray, bits: int
) -> int:
    """Write the value of each word of ``want`` (all in the sorted ``known``) to
    ``out`` at its index; -1, or the index of a word of ``want`` that ``known`` lacks."""
    q = queries(want, 1, bits)  # one group: the words in their order
    return join_group(known, known_values, q, 0, out)


@njit(cache=True, nogil=True, error_model="numpy")
def _partitions(words, parts, out):
    for i in range(words.shape[0]):
        out[i] = k.key_hash(words[i], 0) % parts


def partition_of(words: np.ndarray, parts: int) -> np.ndarray:
    """The partition of each word (a hash of it, modulo ``parts``)."""
    out = np.empty(words.shape[0], dtype=np.int64)
    _partitions(words, parts, out)
    return out


@njit(cache=True, nogil=True, error_model="numpy")
def _owners(words, parts, bounds):
    """Each word's partition; ``bounds[j]`` where partition ``j``'s group starts when
    grouped by partition (``bounds[parts]``: all of them)."""
    owner = np.empty(words.shape[0], dtype=np.int64)
    bounds[:] = 0
    for i in range(words.shape[0]):
        j = k.key_hash(words[i], 0) % parts
        owner[i] = j
        bounds[j + 1] += 1
    for j in range(parts):
        bounds[j + 1] += bounds[j]
    return owner


@njit(cache=True, nogil=True, error_model="numpy")
def _group(words, parts, bounds, grouped):
    """Group ``words`` by partition into ``grouped`` (a counting sort: each group in the
    words' order): partition ``j``'s at ``[bounds[j]:bounds[j + 1]]``."""
    owner = _owners(words, parts, bounds)
    at = bounds[:-1].copy()
    for i in range(words.shape[0]):
        j = owner[i]
        grouped[at[j]] = words[i]
        at[j] += 1


def split(words: np.ndarray, parts: int) -> list[np.ndarray]:
    """``words`` as ``parts`` arrays, by :func:`partition_of` (each in the order given)."""
    if parts == 1:
        return [words]
    grouped = np.empty(words.shape[0], dtype=np.int64)
    bounds = np.zeros(parts + 1, dtype=np.int64)
    _group(words, parts, bounds, grouped)
    return [grouped[bounds[j] : bounds[j + 1]] for j in range(parts)]


def distinct(words: np.ndarray, *, runs: bool = False) -> np.ndarray:
    """The distinct values of ``words``, sorted: a sort and a compare of neighbours
    (numpy's ``unique`` is hash-based in numpy 2 and several times slower here).
    ``runs``: ``words`` is a few sorted runs (such as concatenated results of this),
    which the stable sort merges in one pass over each; otherwise numpy's default
    sort, about three times faster than the stable one on words in no order."""
    if words.shape[0] < 2:
        return np.array(words, dtype=np.int64)
    ordered = np.sort(words, kind="stable" if runs else "quicksort")
    keep = np.empty(ordered.shape[0], dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]
