"""The compiled core of the Numba solver for Twist of Fate (imported only by that solver).

A state is two 64-bit words, and the kernel works on those words directly:

- ``k1``: per seat s, 15 bits at ``15 * s``: Luck (3 bits), Shilling (3), Sanctuary
  plus :data:`Z_OFF` (6), and the count toward the six-card limit (3); the player
  to move at bit :data:`ACT_SHIFT`. At most four seats.
- ``k2``: per player p, the index of their hand (a multiset of cards) in ``hb``
  bits at ``hb * p``; the winner plus one above the hands (0: nobody yet).

A play changes two seat fields, one hand and the player to move, so a child's
words are the parent's with those fields replaced. A seat's Luck and Shilling
after a card's change and after scoring come from a small table built by the
driver for the double-threshold reading in force (:func:`score_entry`).

The tables key a state by one word, its packing (:func:`pack`: each field as an
offset in the range the layout of :mod:`~ruleslawyer.solvers.twist_of_fate.tiers` gives it, the same
packing as the tiered engine's) with a marker bit above it. The transposition
table is open addressing over slots of one word, the packed state with the node's
value in the bits above it, or of two words (the value in the second) when a
position's states leave too few bits for the value. The depth-first
search keeps its stack in arrays so that it can stop after a number of steps and
resume: the Python driver checks the clock, the state budget and the tables'
load between slices.

The rules here mirror :mod:`ruleslawyer.models.twist_of_fate.play` line for line; the
differential test holds them to the reference solver.

The small functions are inlined by LLVM (``forceinline=True``: each is compiled once
and marked ``alwaysinline``), not by Numba (``inline="always"``, which copies the
callee's IR into every caller, block by block: a first run spent 25-35 CPU seconds of
its compile there). The searches run as fast either way (benchmarks/README.md,
"The first run's compile").
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ruleslawyer.solvers.twist_of_fate import leave_compiles_out_of_budgets

leave_compiles_out_of_budgets()  # before any kernel compiles: no budget counts a compile

SEAT_BITS = 15
SEAT_MASK = (1 << SEAT_BITS) - 1
MAX_SEATS = 4
ACT_SHIFT = 60
Z_SHIFT, COUNT_SHIFT = 6, 12
Z_OFF = 32  # Sanctuary may go below 0 under monks-penalty-floor=negative
LAST = 8  # the last Sanctuary card
LIMIT = 6  # the six-card limit
MOST_POINTS = 2  # the most Sanctuary Points one seat scores in one play
TOP = 4  # Luck and Shilling run 0..4; a card changes either by -4..+4
END_SEAT_MASK = (1 << COUNT_SHIFT) - 1  # Luck, Shilling, Sanctuary: a seat's end state

# Move m = (card * seats + target) * 6 + variant: variants face-up side 0, side 1, then
# face down (player raises, target raises) = (L, L), (L, S), (S, L), (S, S); on oneself
# face down L, S.
VARIANTS = 6


# params
(P_K, P_S, P_N, P_MONKS, P_ROOT, P_AF, P_SPC, P_SFD, P_FLOOR, P_HB, P_EMPTY, P_ENDMASK) = range(12)
# 1 for the non-default readings of finish-before-penalty (penalty-first), monks-penalty-size
# (per-point), face-down-at-zero (must-decrease) and tie-remaining (before-reset)
P_PFIRST, P_PSIZE, P_FDZ, P_TIE = range(12, 16)
P_MFT = 16  # monks-finish-tie: 0 tie-rule, 1 active-player, 2 monks
# The memory solver's slots (set by tiers.slot_params): the key's bits of
# a slot's first word (the packed state and its marker bit), the marker, where a
# one-word slot's value starts and its mask, and the root seat's packed Sanctuary
# range (lowest, width), in which a value's Sanctuaries are kept
P_KMASK, P_MARK, P_VSHIFT, P_VMASK, P_ZLOW, P_ZW = range(17, 23)
P_WHO = 23  # monks-pronoun: 0 the-monks, 1 the-player (whose gain brings the penalty)
NPARAMS = 24

# counters
C_DEPTH, C_STATES, C_ENDS, C_DONE, C_MAIN, C_LEAVES, C_EXPANDED = range(7)
NCOUNTERS = 7

# Both words of every state carry a marker bit, so neither is ever 0: a table slot
# reads 0 when empty, and fresh memory from the system is already all zeros.
EMPTY_KEY = 0
NOT_PACKED = -1  # pack(): a field out of the range the layout gave it
SEAT_PARTS = 64 + 64 + 8  # pack_by(): a seat's Luck and Shilling, Sanctuary, count
VALUE_MARK = 1 << 16  # a two-word slot's second word: the value and this, never 0
MARK1 = 1 << 62
MARK2_SHIFT = 46
LOW, HIGH = -1000, 1000
# A table of the states has a power of two of home slots and PAD slots after them: a
# probe runs on into those and never wraps round, so a table can grow in place (see
# spread). The last slot always stays empty.
PAD = 1 << 12
# _emit: a child whose home slot starts at this word of its cache line (or later) has its
# next line prefetched too
NEAR_LINE_END = 5
OVERFLOW = 2

(
    STATUS_DONE,
    STATUS_SLICE,
    STATUS_FULL_MAIN,
    STATUS_FULL_LEAVES,
    STATUS_FULL_ENDS,
    STATUS_BUDGET,
    STATUS_OVERFLOW,  # a run of full slots reached the end of a table (see insert)
    STATUS_UNPACKABLE,  # a state out of the layout's ranges (see pack)
) = range(8)


def effect(luck: int, shilling: int) -> int:
    """The column of :func:`score_entry`'s table for a change of Luck and Shilling."""
    return (luck + TOP) * (2 * TOP + 1) + shilling + TOP


EFFECTS = (2 * TOP + 1) ** 2
RAISE_LUCK = effect(1, -1)  # face down: "+1 to one, -1 to the other"
RAISE_SHILLING = effect(-1, 1)


def variant_columns(sides: tuple[int, int]) -> list[tuple[int, int]]:
    """A card's six plays on another seat as score-table columns (player, target),
    given its two sides' columns."""
    out = []
    for v in range(VARIANTS):
        if v < 2:
            out.append((sides[1 - v], sides[v]))
        else:
            out.append(
                (
                    RAISE_LUCK if v < 4 else RAISE_SHILLING,
                    RAISE_LUCK if v % 2 == 0 else RAISE_SHILLING,
                )
            )
    return out


def score_entry(luck: int, shilling: int, change: tuple[int, int], double_threshold: int) -> int:
    """A seat's Luck and Shilling after a change: twisted (bits 8-13), then scored
    (bits 0-5) with the points scored (bits 6-7). Mirrors the model's ``score``."""
    luck = min(TOP, max(0, luck + change[0]))
    shilling = min(TOP, max(0, shilling + change[1]))
    twisted = luck | (shilling << 3)
    l4, s4 = luck == TOP, shilling == TOP
    points = 0
    if l4 or s4:
        points = int(l4) + int(s4) if double_threshold == 0 else 1
        if double_threshold == 2:  # one-point-reset-one: the Luck card resets first
            luck, shilling = (0, shilling) if l4 else (luck, 0)
        else:
            luck, shilling = (0 if l4 else luck), (0 if s4 else shilling)
    return luck | (shilling << 3) | (points << 6) | (twisted << 8)


@intrinsic
def _prefetch(typingctx, table, index):
    """Ask the processor to bring ``table[index, 0]``'s cache line in (no wait)."""
    sig = types.void(table, index)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1], zero])
        i8p = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.VoidType(), [i8p, ir.IntType(32), ir.IntType(32), ir.IntType(32)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        i32 = ir.IntType(32)
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


def _pointer(context, builder, aryty, array, indices):
    ary = context.make_array(aryty)(context, builder, array)
    return cgutils.get_item_pointer(context, builder, aryty, ary, indices)


@intrinsic
def _cas(typingctx, table, index, column, expected, new):
    """Compare-and-swap ``table[index, column]`` (2-D) or ``table[index]`` (1-D, column
    ignored): write ``new`` if it holds ``expected``; return what it held."""
    sig = types.int64(table, index, column, expected, new)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        idx = [args[1], args[2]] if aryty.ndim == 2 else [args[1]]
        ptr = _pointer(context, builder, aryty, args[0], idx)
        pair = builder.cmpxchg(ptr, args[3], args[4], "seq_cst", "seq_cst")
        return builder.extract_value(pair, 0)

    return sig, codegen


@intrinsic
def _load(typingctx, table, index, column):
    """``table[index, column]`` read afresh from memory (an atomic acquire load)."""
    sig = types.int64(table, index, column)

    def codegen(context, builder, signature, args):
        ptr = _pointer(context, builder, signature.args[0], args[0], [args[1], args[2]])
        return builder.load_atomic(ptr, "acquire", 8)

    return sig, codegen


@intrinsic
def _store_release(typingctx, table, index, column, value):
    """``table[index, column] = value``, ordered after every earlier write."""
    sig = types.void(table, index, column, value)

    def codegen(context, builder, signature, args):
        ptr = _pointer(context, builder, signature.args[0], args[0], [args[1], args[2]])
        builder.store_atomic(args[3], ptr, "release", 8)
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def hash_k2(k2):
    """The second word's part of :func:`key_hash` (the same for all of a card's plays)."""
    return np.uint64(k2) * np.uint64(0xC2B2AE3D27D4EB4F)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def hash_with(k1, h2):
    """:func:`key_hash` of ``k1`` and a second word whose :func:`hash_k2` is ``h2``."""
    h = (np.uint64(k1) * np.uint64(0x9E3779B97F4A7C15)) ^ h2
    h ^= h >> np.uint64(31)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(29)
    return np.int64(h >> np.uint64(1))


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def key_hash(k1, k2):
    return hash_with(k1, hash_k2(k2))


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _put(word, value, fields, f):
    x = value - fields[f, 2]
    if x < 0 or x >= np.int64(1) << fields[f, 1]:
        return np.int64(NOT_PACKED)
    return word | (x << fields[f, 0])


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _get(word, fields, f):
    return ((word >> fields[f, 0]) & ((np.int64(1) << fields[f, 1]) - 1)) + fields[f, 2]


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def pack(k1, k2, fields, head, to_local):
    """The kernel's two words as one (:data:`NOT_PACKED` if a field is out of its range)."""
    seats, players, hb = head[0], head[1], head[2]
    w = np.int64(0)
    f = np.int64(0)  # not 0: see _open
    for s in range(seats):
        seat = (k1 >> (SEAT_BITS * s)) & SEAT_MASK
        values = (
            (seat & 7) * 5 + ((seat >> 3) & 7),
            (seat >> Z_SHIFT) & 63,
            seat >> COUNT_SHIFT,
        )
        for v in values:
            w = _put(w, v, fields, f)
            if w < 0:
                return w
            f += 1
    hmask = (np.int64(1) << hb) - 1
    for p in range(players):
        w = _put(w, to_local[p, (k2 >> (hb * p)) & hmask], fields, f)
        if w < 0:
            return w
        f += 1
    w = _put(w, (k1 >> ACT_SHIFT) & 3, fields, f)
    if w < 0:
        return w
    return _put(w, (k2 >> (hb * players)) & 7, fields, f + 1)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def pack_by(k1, k2, parts, head):
    """:func:`pack` by table: each field's part of the word looked up in ``parts``
    (see ``tiers.pack_parts``), all ORed together; a field out of its
    range looks up :data:`NOT_PACKED` (every bit set), so the word is that too."""
    seats, players, hb, hands = head[0], head[1], head[2], head[3]
    w = np.int64(0)
    for s in range(seats):
        seat = (k1 >> (SEAT_BITS * s)) & SEAT_MASK
        b = s * SEAT_PARTS
        w |= parts[b + (seat & 63)]
        w |= parts[b + 64 + ((seat >> Z_SHIFT) & 63)]
        w |= parts[b + 128 + (seat >> COUNT_SHIFT)]
    b = seats * SEAT_PARTS
    hmask = (np.int64(1) << hb) - 1
    for p in range(players):
        w |= parts[b + p * hands + ((k2 >> (hb * p)) & hmask)]
    b += players * hands
    w |= parts[b + ((k1 >> ACT_SHIFT) & 3)]
    return w | parts[b + 4 + ((k2 >> (hb * players)) & 7)]


@njit(cache=True, error_model="numpy", _nrt=False)
def unpack(w, fields, head, to_global):
    """The kernel's two words of a packed state."""
    seats, players, hb = head[0], head[1], head[2]
    k1 = np.int64(MARK1)
    f = 0
    for s in range(seats):
        ls = _get(w, fields, f)
        seat = (ls // 5) | ((ls % 5) << 3)
        seat |= _get(w, fields, f + 1) << Z_SHIFT
        seat |= _get(w, fields, f + 2) << COUNT_SHIFT
        k1 |= seat << (SEAT_BITS * s)
        f += 3
    k2 = np.int64(1) << MARK2_SHIFT
    for p in range(players):
        k2 |= to_global[p, _get(w, fields, f)] << (hb * p)
        f += 1
    k1 |= _get(w, fields, f) << ACT_SHIFT
    k2 |= _get(w, fields, f + 1) << (hb * players)
    return k1, k2


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def slot_hash(kw):
    """The hash of a packed state (with its marker bit) in the memory solver's tables."""
    return key_hash(kw, 0)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _second(table, i):
    """A two-word slot's second word; a slot another thread has just claimed holds 0
    there for a moment (its first word is written first), so wait for it."""
    w = _load(table, i, np.int64(1))
    while w == EMPTY_KEY:
        w = _load(table, i, np.int64(1))
    return w


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def home_mask(table):
    """A state's home slot is its hash and this (the table's rows less :data:`PAD`, less 1)."""
    return table.shape[0] - PAD - 1


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _narrow(val, params):
    """A value (the 16-bit encoding of :func:`_encode`) in the bits a one-word slot has
    for it: each Sanctuary as an offset in the root seat's packed range."""
    low = params[P_ZLOW]
    zw = params[P_ZW]
    g = (val & 127) - low
    r = ((val >> 7) & 127) - low
    return g | (r << zw) | (((val >> 14) & 3) << (2 * zw))


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _widen(c, params):
    """:func:`_narrow` undone."""
    low = params[P_ZLOW]
    zw = params[P_ZW]
    zmask = (np.int64(1) << zw) - 1
    return ((c & zmask) + low) | ((((c >> zw) & zmask) + low) << 7) | (((c >> (2 * zw)) & 3) << 14)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def slot_words(kw, val, params, width):
    """The words a node's slot holds: the packed state ``kw`` with its value ``val``
    in the bits above it (one-word slots), or ``kw`` and the value (two-word slots)."""
    if width == 1:
        return kw | (_narrow(val, params) << params[P_VSHIFT]), np.int64(0)
    return kw, val | VALUE_MARK


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def locate(table, kw, kmask, i):
    """From slot ``i`` on: the slot holding the packed state ``kw`` and True, or the
    first empty slot and False."""
    while True:
        w = table[i, 0]
        if w == EMPTY_KEY:
            return i, False
        if (w & kmask) == kw:
            return i, True
        i += 1


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def slot_value(table, i, params):
    """The value (see :func:`_encode`) in slot ``i`` of the main table."""
    if table.shape[1] == 1:
        return _widen((table[i, 0] >> params[P_VSHIFT]) & params[P_VMASK], params)
    return _second(table, i) & 0xFFFF


# A probe for a state need not start at its home slot: every slot from the home slot
# up to the first empty one was full, and slots are never emptied (but when a table
# grows), so the state, if another search thread has put it in since, is at or after
# that empty slot, and so is where it would go. A child the main table did not have
# when its node was opened keeps that slot (with the table's rows, to tell a slot of
# the same table from one of before it grew) for the probes before it is entered and
# when it is stored, which then read one cache line instead of the whole run again.
@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def run_mark(table, i):
    """Slot ``i`` of ``table`` as kept in ``K_SLOT``/``F_SLOT``."""
    return (np.int64(table.shape[0]) << 32) | i


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def run_start(table, mark, h):
    """Where a probe for the state of hash ``h`` may start: the slot ``mark`` kept (see
    :func:`run_mark`) if ``table`` has not grown since, else the home slot."""
    if (mark >> 32) == table.shape[0]:
        return mark & 0xFFFFFFFF
    return h & home_mask(table)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def find(table, kw, h, params):
    """The value (see :func:`_encode`) stored with the packed state ``kw`` (``h`` its
    :func:`slot_hash`); -1 if the table has no such state."""
    i, found = locate(table, kw, params[P_KMASK], h & home_mask(table))
    return slot_value(table, i, params) if found else np.int64(-1)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def insert(table, kw, w0, w1, h, kmask):
    """Put the packed state ``kw`` in the table, its slot holding ``w0`` (and ``w1`` in
    a two-word slot), unless it is there already (another search thread may be
    inserting at the same time): 1 if this call did, 0 if it was there,
    :data:`OVERFLOW` if the run of full slots reached the end of the table (the last
    slot stays empty, so that every probe ends)."""
    return insert_from(table, kw, w0, w1, h & home_mask(table), kmask)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def insert_from(table, kw, w0, w1, start, kmask):
    """:func:`insert`, probing from slot ``start`` (see :func:`run_start`)."""
    last = table.shape[0] - 1
    i = start
    while True:
        # a state already there is found without a locked write
        i, found = locate(table, kw, kmask, i)
        if found:
            return 0
        if i == last:
            return OVERFLOW
        old = _cas(table, i, np.int64(0), np.int64(EMPTY_KEY), w0)
        if old == EMPTY_KEY:
            if table.shape[1] == 2:
                _store_release(table, i, np.int64(1), w1)
            return 1
        if (old & kmask) == kw:
            return 0
        i += 1  # another thread took the slot for another state


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def lift(table, cap, out):
    """Before ``table`` (``cap`` home slots) grows in place: move the entries past its
    home slots (where the larger table's home slots will be) to ``out``; how many."""
    n = 0
    for i in range(cap, cap + PAD):
        if table[i, 0] != EMPTY_KEY:
            for c in range(table.shape[1]):
                out[n, c] = table[i, c]
                table[i, c] = EMPTY_KEY
            n += 1
    return n


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _put_back(table, w0, w1, kmask):
    """Insert a slot's words ``w0`` (and ``w1``) into ``table``: 1 if they found no room."""
    kw = w0 & kmask
    return np.int64(insert(table, kw, w0, w1, slot_hash(kw), kmask) == OVERFLOW)


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def spread(table, start, stop, kmask):
    """Grow in place: ``table`` has twice the home slots it had, and the entries in
    ``start..stop-1`` (old home slots; ``start`` is 0 or an empty slot, so no run of
    full slots crosses it) move to where the larger table puts them. Each is taken
    out and put back: in the lower half it lands at or before its old slot (earlier
    slots are done), in the upper half after the entries already there. Several
    threads may spread parts of one table at once. Returns the entries that found no
    room (see :func:`insert`)."""
    lost = 0
    two = table.shape[1] == 2
    for i in range(start, stop):
        w0 = table[i, 0]
        if w0 == EMPTY_KEY:
            continue
        w1 = table[i, 1] if two else np.int64(0)
        for c in range(table.shape[1]):
            table[i, c] = EMPTY_KEY
        lost += _put_back(table, w0, w1, kmask)
    return lost


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def drop(table, entries, n, kmask):
    """Put back the ``n`` entries that :func:`lift` took out; the entries that found no room."""
    lost = 0
    two = entries.shape[1] == 2
    for i in range(n):
        lost += _put_back(table, entries[i, 0], entries[i, 1] if two else np.int64(0), kmask)
    return lost


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _insert_end(ek, k):
    mask = ek.shape[0] - 1
    i = key_hash(k, 0) & mask
    while True:
        w = ek[i]
        if w == EMPTY_KEY:
            w = _cas(ek, i, np.int64(0), np.int64(EMPTY_KEY), k)
            if w == EMPTY_KEY:
                return 1
        if w == k:
            return 0
        i = (i + 1) & mask


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def rehash_ends(old, new, start, stop):
    """Put the keys of ``old[start:stop]`` into ``new`` (as :func:`rehash`)."""
    for i in range(start, stop):
        if old[i] != EMPTY_KEY:
            _insert_end(new, old[i])


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _encode(g, r, gw, pw):
    return (g + Z_OFF) | ((r + Z_OFF) << 7) | (gw << 14) | (pw << 15)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def horizon_value(k1, k2, params):
    """A horizon state's value: the root's Sanctuary, and whether the root won."""
    root = params[P_ROOT]
    z = ((k1 >> (SEAT_BITS * root + Z_SHIFT)) & 63) - Z_OFF
    won = np.int64(((k2 >> (params[P_HB] * params[P_N])) & 7) == root + 1)
    return _encode(z, z, won, won)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _seat(ls, z, count):
    return ls | (z << Z_SHIFT) | (count << COUNT_SHIFT)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _lose(z, points, params):
    """Sanctuary ``z`` (offset) after the Monks penalty of ``points`` (the model's ``_penalty``)."""
    z -= points
    if params[P_FLOOR] == 1 and z < Z_OFF:
        z = Z_OFF
    return z


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def may_raise(ls, raise_luck, params):
    """Whether a face-down play may raise Luck (else Shilling) of a seat with Luck and
    Shilling ``ls`` (the model's ``may_raise``: face-down-at-zero)."""
    if params[P_FDZ] == 0:
        return True
    luck = ls & 7
    shilling = ls >> 3
    lowered = shilling if raise_luck else luck
    return lowered > 0 or luck + shilling == 0


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def child(k1, k2, p, t, ep, et, params, scores):
    """The words after the active player ``p`` plays on ``t`` (``k2``: ``p``'s hand already
    without the card), with changes ``ep`` for ``p`` and ``et`` for ``t`` (columns of the
    score table); and whether the child is a horizon state. Mirrors the model's ``play``.
    """
    hb = params[P_HB]
    n = params[P_N]
    win_shift = hb * n
    sp = SEAT_BITS * p
    fp = (k1 >> sp) & SEAT_MASK
    x = scores[fp & 63, ep]
    # Scoring Sanctuary: the active player's token moves first.
    zp = ((fp >> Z_SHIFT) & 63) + ((x >> 6) & 3)
    if zp > LAST + Z_OFF:
        zp = LAST + Z_OFF
    countp = fp >> COUNT_SHIFT
    winner = -1
    if t == p:
        if params[P_SPC] == 1:
            countp += 1
        k1 = (k1 & ~(SEAT_MASK << sp)) | (_seat(x & 63, zp, countp) << sp)
        if zp >= LAST + Z_OFF:
            winner = p
    else:
        st = SEAT_BITS * t
        ft = (k1 >> st) & SEAT_MASK
        y = scores[ft & 63, et]
        zt = (ft >> Z_SHIFT) & 63
        countt = (ft >> COUNT_SHIFT) + 1
        lst = y & 63
        if params[P_AF] == 1 and zp >= LAST + Z_OFF:
            # "the game immediately ends": the target's token never moves.
            winner = p
            lst = (y >> 8) & 63
        else:
            pts = (y >> 6) & 3
            zt += pts
            if zt > LAST + Z_OFF:
                zt = LAST + Z_OFF
            penalty = 0
            gain = pts if params[P_WHO] == 0 else (x >> 6) & 3
            if t == params[P_MONKS] and gain > 0:
                penalty = gain if params[P_PSIZE] == 1 else 1
            if params[P_PFIRST] == 1:
                zp = _lose(zp, penalty, params)
                penalty = 0
            fpz = zp >= LAST + Z_OFF
            ftz = zt >= LAST + Z_OFF
            if fpz and ftz and t == params[P_MONKS] and params[P_MFT] > 0:
                winner = p if params[P_MFT] == 1 else t
            elif fpz and ftz:
                # the tie rule's "remaining" values: after the reset, or before it
                shift = 8 if params[P_TIE] == 1 else 0
                lsp = (x >> shift) & 63
                ltt = (y >> shift) & 63
                vp = (lsp & 7) + (lsp >> 3)
                vt = (ltt & 7) + (ltt >> 3)
                winner = t if vt > vp else p
            elif fpz:
                winner = p
            elif ftz:
                winner = t
            else:  # the game goes on: the penalty (game-ends-first) follows
                zp = _lose(zp, penalty, params)
        k1 &= ~((SEAT_MASK << sp) | (SEAT_MASK << st))
        k1 |= (_seat(x & 63, zp, countp) << sp) | (_seat(lst, zt, countt) << st)
    if winner >= 0:
        return k1, k2 | ((winner + 1) << win_shift), True
    hmask = (1 << hb) - 1
    empty = params[P_EMPTY]
    for k in range(1, n + 1):
        q = p + k
        if q >= n:
            q -= n
        if (k2 >> (hb * q)) & hmask != empty:
            return (k1 & ~(np.int64(3) << ACT_SHIFT)) | (q << ACT_SHIFT), k2, False
    return k1, k2, True


# A frame per depth of the search: the node's words, its number of children and the
# next one to visit, and its value so far (guaranteed, reachable, guaranteed win,
# possible win; and whether the root's player moves there).
# The node's packed state (with the marker bit) is its key in the tables.
# F_SLOT: where a probe for the node may start (see :func:`run_start`)
F_K1, F_K2, F_N, F_NEXT, F_G, F_R, F_GW, F_PW, F_MAX, F_CUR, F_W, F_SLOT = range(12)
FRAME = 12
# A child in the list of its node: its words, its packed state with the marker bit
# (NOT_PACKED if a field is out of the layout's range), that word's hash, and
# move << 17 | is-leaf << 16 | value; and, for a child the main table did not have
# when the node was opened, where a later probe for it may start (:func:`run_start`).
KID = 6
K_W, K_H, K_INFO, K_SLOT = 2, 3, 4, 5
LEAF_BIT = 1 << 16


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _combine(frame, d, val):
    g = (val & 127) - Z_OFF
    r = ((val >> 7) & 127) - Z_OFF
    gw = (val >> 14) & 1
    pw = (val >> 15) & 1
    if frame[d, F_MAX] == 1:
        if g > frame[d, F_G]:
            frame[d, F_G] = g
        frame[d, F_GW] |= gw
    else:
        if g < frame[d, F_G]:
            frame[d, F_G] = g
        frame[d, F_GW] &= gw
    if r > frame[d, F_R]:
        frame[d, F_R] = r
    frame[d, F_PW] |= pw


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _seat_parts(parts, s, seat):
    """A seat's Luck-and-Shilling and Sanctuary parts of the packed word (see
    :func:`pack_by`), XORed, and the two ORed (negative if either is out of range)."""
    b = s * SEAT_PARTS
    a = parts[b + (seat & 63)]
    z = parts[b + 64 + ((seat >> Z_SHIFT) & 63)]
    return a ^ z, a | z


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _emit(kid, d, j, c1, c2, kw, leaf, m, params, main, leaves):
    """Write child ``j`` of the node at depth ``d`` (``kw``: its packed state, or
    :data:`NOT_PACKED`); prefetch its slot (in the leaf table if it is a horizon state,
    else also the next cache line if the slot is near its line's end)."""
    b = j * KID
    if kw != NOT_PACKED:
        kw |= params[P_MARK]
    h = slot_hash(kw)
    kid[d, b] = c1
    kid[d, b + 1] = c2
    kid[d, b + K_W] = kw
    kid[d, b + K_H] = h
    if leaf:
        kid[d, b + K_INFO] = (m << 17) | LEAF_BIT | horizon_value(c1, c2, params)
        _prefetch(leaves, h & home_mask(leaves))
    else:
        kid[d, b + K_INFO] = m << 17
        i = h & home_mask(main)
        _prefetch(main, i)
        # a probe runs on from the home slot: from the last few of a cache line's slots
        # it often reads the next line too (a full table's runs are a few slots long)
        if (i * main.shape[1]) & 7 >= NEAR_LINE_END:
            _prefetch(main, i + 8 // main.shape[1])


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _open(
    frame, kid, d, params, remove, cards, sides, scores, columns, after, main, leaves,
    parts, head,
):  # fmt: skip
    """List the node's children in move order, packed (see :func:`pack_by`: ``parts``
    and ``head`` are the layout's), and prefetch their table slots.

    A play on another seat that brings nobody to the last Sanctuary card and is not
    on the Monks changes only the two seats' fields, the hand and the player to
    move: that common case is written here directly, and packed from the node's
    packed word by replacing those fields' parts (each field's part is XORed out
    and the new one in: fields never share bits); every other play goes through
    :func:`child` and :func:`pack_by`.
    """
    k1 = frame[d, F_K1]
    k2 = frame[d, F_K2]
    n_s = params[P_S]
    n = params[P_N]
    p = (k1 >> ACT_SHIFT) & 3
    hb = params[P_HB]
    hmask = (1 << hb) - 1
    empty = params[P_EMPTY]
    hand = (k2 >> (hb * p)) & hmask
    targets = 0
    for t in range(n_s):
        if t != p and (k1 >> (SEAT_BITS * t + COUNT_SHIFT)) & 7 < LIMIT:
            targets |= 1 << t
    if targets == 0 and (k1 >> (SEAT_BITS * p + COUNT_SHIFT)) & 7 < LIMIT:
        targets = 1 << p
    self_variants = 4 if params[P_SFD] == 1 else 2
    sp = SEAT_BITS * p
    fp = (k1 >> sp) & SEAT_MASK
    lsp = fp & 63
    zp = (fp >> Z_SHIFT) & 63
    highp = fp & ~63
    monks = params[P_MONKS]
    # the node's packed word (every field in range: a node is only opened if it
    # packed) and the part table's offsets of p's hand and of the player to move
    kw0 = pack_by(k1, k2, parts, head)
    hands_at = head[0] * SEAT_PARTS + p * head[3]
    act_at = head[0] * SEAT_PARTS + head[1] * head[3]
    p_old, _ = _seat_parts(parts, p, fp)
    # np.int64(0), not 0: a literal would compile a callee again for it (a first run)
    j = np.int64(0)
    for i in range(cards.shape[1]):
        c = cards[hand, i]
        if c < 0:
            break
        k2c = k2 + ((remove[hand, c] - hand) << (hb * p))
        # the next player with a card in hand (p again if only p has any)
        act = p
        over = True
        for k in range(1, n + 1):
            q = p + k
            if q >= n:
                q -= n
            if (k2c >> (hb * q)) & hmask != empty:
                act = q
                over = False
                break
        new_hand = parts[hands_at + remove[hand, c]]
        new_act = parts[act_at + act]
        kw_c = kw0 ^ parts[hands_at + hand] ^ new_hand ^ parts[act_at + p] ^ new_act
        bad_c = kw0 | new_hand | new_act
        for t in range(n_s):
            if (targets >> t) & 1 == 0:
                continue
            base = (c * n_s + t) * VARIANTS
            if t == p:
                for v in range(self_variants):
                    if v >= 2 and not may_raise(lsp, v == 2, params):
                        continue
                    if v < 2:
                        ep = sides[c, v]
                    elif v == 2:
                        ep = RAISE_LUCK
                    else:
                        ep = RAISE_SHILLING
                    c1, c2, leaf = child(k1, k2c, p, t, ep, np.int64(0), params, scores)
                    kw = pack_by(c1, c2, parts, head)
                    _emit(kid, d, j, c1, c2, kw, leaf, base + v, params, main, leaves)
                    j += 1
                continue
            st = SEAT_BITS * t
            ft = (k1 >> st) & SEAT_MASK
            lst = ft & 63
            zt = (ft >> Z_SHIFT) & 63
            hight = (ft & ~63) + (1 << COUNT_SHIFT)
            clear = (SEAT_MASK << sp) | (SEAT_MASK << st) | (np.int64(3) << ACT_SHIFT)
            rest = (k1 & ~clear) | (act << ACT_SHIFT)
            # no score can finish the game: every variant takes the short way
            safe = zp + MOST_POINTS < LAST + Z_OFF and zt + MOST_POINTS < LAST + Z_OFF
            safe = safe and t != monks
            # the child's word but for the two seats' Luck-and-Shilling and Sanctuary
            t_old, _ = _seat_parts(parts, t, ft)
            count_at = t * SEAT_PARTS + 128 + (ft >> COUNT_SHIFT)
            new_count = parts[count_at + 1]
            kw_t = kw_c ^ p_old ^ t_old ^ parts[count_at] ^ new_count
            bad_t = bad_c | new_count
            for v in range(VARIANTS):
                if v >= 2 and not (
                    may_raise(lsp, v < 4, params) and may_raise(lst, v % 2 == 0, params)
                ):
                    continue
                x = after[lsp, c, v, 0]
                y = after[lst, c, v, 1]
                if safe or (
                    zp + ((x >> 6) & 3) < LAST + Z_OFF
                    and zt + ((y >> 6) & 3) < LAST + Z_OFF
                    and t != monks
                ):
                    # bits 0-5 the seat's Luck and Shilling, 6-7 the points it scored
                    new_p = highp + (x & 255)
                    new_t = hight + (y & 255)
                    c1 = rest | (new_p << sp) | (new_t << st)
                    c2 = k2c
                    leaf = over
                    xp, op = _seat_parts(parts, p, new_p)
                    xt, ot = _seat_parts(parts, t, new_t)
                    kw = kw_t ^ xp ^ xt if (bad_t | op | ot) >= 0 else np.int64(NOT_PACKED)
                else:
                    ep = np.int64(columns[c, v, 0])
                    et = np.int64(columns[c, v, 1])
                    c1, c2, leaf = child(k1, k2c, p, t, ep, et, params, scores)
                    kw = pack_by(c1, c2, parts, head)
                _emit(kid, d, j, c1, c2, kw, leaf, base + v, params, main, leaves)
                j += 1
    frame[d, F_N] = j
    frame[d, F_NEXT] = 0
    if p == params[P_ROOT]:
        frame[d, F_MAX] = 1
        frame[d, F_G] = LOW
        frame[d, F_GW] = 0
    else:
        frame[d, F_MAX] = 0
        frame[d, F_G] = HIGH
        frame[d, F_GW] = 1
    frame[d, F_R] = LOW
    frame[d, F_PW] = 0
    if j == 0:  # no move at all: the node is valued as a horizon state
        frame[d, F_MAX] = -1


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def store_leaf(leaves, ends, kid, d, b, kw, kmask, endmask):
    """Put the horizon state of the child at ``b`` in the list of depth ``d`` (packed
    ``kw``) in the leaf table and, if it is new there, its projection in the end-state
    set: (1 if this call added it, 0 if it was there, or :data:`OVERFLOW`; end-set
    entries added)."""
    added = insert(leaves, kw, kw, np.int64(0), kid[d, b + K_H], kmask)
    if added != 1:
        return added, np.int64(0)
    return added, _insert_end(ends, kid[d, b] & endmask)


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def keep_child(kid, d, keep, b):
    """Move the child at ``b`` in the list of depth ``d`` to place ``keep`` (not after it)."""
    c = keep * KID
    if c != b:
        for x in range(KID):
            kid[d, c + x] = kid[d, b + x]


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def _settle(frame, kid, d, main, leaves, ends, root_val, params):
    """Value each child of the node at depth ``d`` that needs no search: a horizon
    state (put in the leaf table and its projection in the end-state set), or a
    state already in the table. Keep the others, in order, as the node's list of
    children to visit; return how many leaf-table and end-set entries were added,
    and a status: 0, :data:`STATUS_OVERFLOW` or :data:`STATUS_UNPACKABLE`.

    The children's slots were prefetched when they were listed, so these probes
    mostly find their cache lines on the way in.
    """
    n = frame[d, F_N]
    endmask = params[P_ENDMASK]
    is_max = frame[d, F_MAX] == 1
    g = frame[d, F_G]
    r = frame[d, F_R]
    gw = frame[d, F_GW]
    pw = frame[d, F_PW]
    keep = np.int64(0)  # not 0: see _open
    n_leaves = 0
    n_ends = 0
    status = 0
    kmask = params[P_KMASK]
    for j in range(n):
        b = j * KID
        kw = kid[d, b + K_W]
        info = kid[d, b + K_INFO]
        if kw == NOT_PACKED:
            status = STATUS_UNPACKABLE
            continue
        if info & LEAF_BIT:
            val = info & 0xFFFF
            added, new_ends = store_leaf(leaves, ends, kid, d, b, kw, kmask, endmask)
            if added == 1:
                n_leaves += 1
                n_ends += new_ends
            elif added == OVERFLOW:
                status = STATUS_OVERFLOW
        else:
            i, found = locate(main, kw, kmask, kid[d, b + K_H] & home_mask(main))
            if not found:
                kid[d, b + K_SLOT] = run_mark(main, i)
                keep_child(kid, d, keep, b)
                keep += 1
                continue
            val = slot_value(main, i, params)
        vg = (val & 127) - Z_OFF
        if is_max:
            if vg > g:
                g = vg
            gw |= (val >> 14) & 1
        else:
            if vg < g:
                g = vg
            gw &= (val >> 14) & 1
        vr = ((val >> 7) & 127) - Z_OFF
        if vr > r:
            r = vr
        pw |= (val >> 15) & 1
        if d == 0:
            root_val[info >> 17] = val
    frame[d, F_G] = g
    frame[d, F_R] = r
    frame[d, F_GW] = gw
    frame[d, F_PW] = pw
    frame[d, F_N] = keep
    return n_leaves, n_ends, status


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def turned(frame, d, j, n, turn):
    """The place in the list of depth ``d`` (``n`` children) of the ``j``-th child to
    visit, starting ``turn`` along the list (see :func:`search`); noted in ``F_CUR``."""
    j += np.int64(turn * n)
    if j >= n:
        j -= n
    frame[d, F_CUR] = j
    return j


@njit(cache=True, forceinline=True, error_model="numpy", _nrt=False)
def enter(frame, kid, d, b):
    """Make the child at ``b`` in the list of depth ``d`` the node at depth ``d + 1``,
    not yet opened."""
    frame[d + 1, F_K1] = kid[d, b]
    frame[d + 1, F_K2] = kid[d, b + 1]
    frame[d + 1, F_W] = kid[d, b + K_W]
    frame[d + 1, F_SLOT] = kid[d, b + K_SLOT]
    frame[d + 1, F_N] = -1


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def search(
    frame,
    kid,
    counters,
    main,
    leaves,
    ends,
    root_val,
    params,
    remove,
    cards,
    sides,
    scores,
    columns,
    after,
    parts,
    head,
    max_steps,
    room,
    stop,
    turn,
):
    """Run the depth-first search for up to ``max_steps`` moves; return a status.

    Internal nodes go to ``main``, keyed by their packed state (``parts`` and ``head``
    are the layout's, see :func:`pack_by`) with their value in the slot;
    horizon states to the small ``leaves`` table, and
    their (Luck, Shilling, Sanctuary) projections to the ``ends`` set. A slice may
    stop with nodes open: their children lists stay in ``kid`` and the search
    resumes where it was. ``room`` says how many more states, main-table, leaf-table
    and end-set entries this slice may add.

    A slice also ends when ``stop[0, 0]`` is not 0, and sets it as it ends.

    Several searches (threads) may run at once over the same tables, each from the
    root with its own stack: a state's value depends only on the state, so whichever
    finishes a node first stores it and the others use it. ``turn`` (between 0 and
    1) spreads them out: each visits a node's children starting that far along
    the list. Every count is of entries this search itself added.
    """
    endmask = params[P_ENDMASK]
    d = counters[C_DEPTH]
    states = 0
    n_main = 0
    n_leaves = 0
    n_ends = 0
    expanded = 0
    status = STATUS_SLICE
    steps = 0
    while True:
        if steps >= max_steps or _load(stop, np.int64(0), np.int64(0)) != 0:
            break
        if states >= room[0]:
            status = STATUS_BUDGET
            break
        if n_main >= room[1]:
            status = STATUS_FULL_MAIN
            break
        if n_leaves >= room[2]:
            status = STATUS_FULL_LEAVES
            break
        if n_ends >= room[3]:
            status = STATUS_FULL_ENDS
            break
        n = frame[d, F_N]
        if n < 0:
            # a node just entered: list its children, value those that need no search
            _open(
                frame, kid, d, params, remove, cards, sides, scores, columns, after, main,
                leaves, parts, head,
            )  # fmt: skip
            steps += frame[d, F_N]
            added_leaves, added_ends, bad = _settle(
                frame, kid, d, main, leaves, ends, root_val, params
            )
            states += added_leaves
            n_leaves += added_leaves
            n_ends += added_ends
            if bad != 0:
                status = bad
                break
            continue
        j = frame[d, F_NEXT]
        if j < n:
            frame[d, F_NEXT] = j + 1
            steps += 1
            b = turned(frame, d, j, n, turn) * KID
            # not known when the node was entered; maybe since, by another search thread
            # (not in a sibling's subtree: every play takes a card, so the nodes at one
            # depth all hold as many cards, and a subtree holds only deeper nodes)
            start = run_start(main, kid[d, b + K_SLOT], kid[d, b + K_H])
            i, found = locate(main, kid[d, b + K_W], params[P_KMASK], start)
            if not found:
                kid[d, b + K_SLOT] = run_mark(main, i)
                enter(frame, kid, d, b)
                d += 1
                continue
            val = slot_value(main, i, params)
            _combine(frame, d, val)
            if d == 0:
                root_val[kid[d, b + K_INFO] >> 17] = val
            continue
        # every move of the node at depth d is done
        k1 = frame[d, F_K1]
        k2 = frame[d, F_K2]
        if frame[d, F_MAX] < 0:  # no move at all
            val = horizon_value(k1, k2, params)
            n_ends += _insert_end(ends, k1 & endmask)
        else:
            val = _encode(frame[d, F_G], frame[d, F_R], frame[d, F_GW], frame[d, F_PW])
        expanded += 1
        kw = frame[d, F_W]
        w0, w1 = slot_words(kw, val, params, main.shape[1])
        start = run_start(main, frame[d, F_SLOT], slot_hash(kw))
        added = insert_from(main, kw, w0, w1, start, params[P_KMASK])
        if added == OVERFLOW:
            status = STATUS_OVERFLOW
            break
        if added == 1:
            states += 1
            n_main += 1
        if d == 0:
            counters[C_DONE] = 1
            status = STATUS_DONE
            break
        d -= 1
        _combine(frame, d, val)
        if d == 0:
            root_val[kid[0, frame[0, F_CUR] * KID + K_INFO] >> 17] = val
    # the other searches end their slices too (a slice ends for all at about the
    # same time, and a full table or the answer stops them all at once)
    _store_release(stop, np.int64(0), np.int64(0), np.int64(1))
    counters[C_DEPTH] = d
    counters[C_STATES] += states
    counters[C_MAIN] += n_main
    counters[C_LEAVES] += n_leaves
    counters[C_ENDS] += n_ends
    counters[C_EXPANDED] += expanded
    return status
