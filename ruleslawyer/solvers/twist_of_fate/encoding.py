"""A Twist of Fate position as the compiled kernels see it: two words and a few small tables.

Shared by the memory solver, the max^n search and the tiered engine; moves come back
as model :class:`Move` objects through :func:`decode_move`.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import NamedTuple

import numpy as np

from ruleslawyer.errors import InputError
from ruleslawyer.models.twist_of_fate.files import Position
from ruleslawyer.models.twist_of_fate.play import (
    FACE_DOWN,
    FACE_UP,
    LUCK,
    SHILLING,
    Deck,
    Move,
    Rules,
    Seat,
    count_toward_limit,
    twist_side,
)

DOUBLE_THRESHOLD = {"two-points": 0, "one-point-reset-both": 1, "one-point-reset-one": 2}


@cache
def multisets(kinds: int, most: int) -> tuple[tuple[tuple[int, ...], ...], np.ndarray]:
    """Every hand of at most ``most`` cards over ``kinds`` characters, and its removal table."""
    vectors = tuple(v for v in product(range(most + 1), repeat=kinds) if sum(v) <= most)
    index = {v: i for i, v in enumerate(vectors)}
    remove = np.full((len(vectors), kinds), -1, dtype=np.int32)
    for i, v in enumerate(vectors):
        for c in range(kinds):
            if v[c]:
                remove[i, c] = index[(*v[:c], v[c] - 1, *v[c + 1 :])]
    return vectors, remove


class Encoded(NamedTuple):
    """A position as the kernel sees it."""

    root: tuple[int, int]  # the root's two words
    params: np.ndarray
    # small integer types keep these tables, read for every child, in the L1 cache
    remove: np.ndarray  # hand index, card -> the hand without it (-1: not held)
    cards: np.ndarray  # hand index -> its distinct cards in deck order, then -1
    sides: np.ndarray  # card, side -> the score table's column for that side's change
    scores: np.ndarray  # see kernel.score_entry
    columns: np.ndarray  # card, variant, player/target -> score-table column
    after: np.ndarray  # Luck/Shilling, card, variant, player/target -> score entry


def encode(position: Position, rules: Rules) -> Encoded:
    """The root words, parameters and tables of a position under ``rules``."""
    from ruleslawyer.solvers.twist_of_fate import kernel as k

    state, deck = position.state, position.deck
    kinds = len(deck.characters)
    most = max(len(s.hand) for s in state.seats)
    vectors, remove = multisets(kinds, most)
    hand_bits = max(1, (len(vectors) - 1).bit_length())
    if hand_bits * state.players + 3 > k.MARK2_SHIFT:
        raise InputError(
            "position", "deck", f"{kinds} characters", "a deck small enough for the solver's keys"
        )
    index = {v: i for i, v in enumerate(vectors)}
    k1 = k.MARK1 | (state.active << k.ACT_SHIFT)
    for s, seat in enumerate(state.seats):
        count = count_toward_limit(seat, rules)
        k1 |= (
            seat.luck | (seat.shilling << 3) | ((seat.sanctuary + k.Z_OFF) << k.Z_SHIFT)
            | (count << k.COUNT_SHIFT)
        ) << (k.SEAT_BITS * s)  # fmt: skip
    k2 = 1 << k.MARK2_SHIFT
    k2 |= (0 if state.winner is None else state.winner + 1) << (hand_bits * state.players)
    for p in range(state.players):
        hand = state.seats[p].hand
        k2 |= index[tuple(hand.count(name) for name in deck.names)] << (hand_bits * p)
    params = np.zeros(k.NPARAMS, dtype=np.int64)
    params[k.P_K] = kinds
    params[k.P_S] = len(state.seats)
    params[k.P_N] = state.players
    params[k.P_MONKS] = -1 if state.monks is None else state.monks
    params[k.P_ROOT] = state.active
    params[k.P_AF] = rules.simultaneous_finish == "active-first"
    params[k.P_SPC] = rules.self_play_count == "counts-toward-six"
    params[k.P_SFD] = rules.self_play_face_down == "allowed"
    params[k.P_FLOOR] = rules.monks_penalty_floor == "floor-at-zero"
    params[k.P_PFIRST] = rules.finish_before_penalty == "penalty-first"
    params[k.P_PSIZE] = rules.monks_penalty_size == "per-point"
    params[k.P_FDZ] = rules.face_down_at_zero == "must-decrease"
    params[k.P_TIE] = rules.tie_remaining == "before-reset"
    params[k.P_MFT] = ("tie-rule", "active-player", "monks").index(rules.monks_finish_tie)
    params[k.P_WHO] = rules.monks_pronoun == "the-player"
    params[k.P_HB] = hand_bits
    params[k.P_EMPTY] = index[(0,) * kinds]
    params[k.P_ENDMASK] = k.MARK1 | sum(
        k.END_SEAT_MASK << (k.SEAT_BITS * s) for s in range(len(state.seats))
    )
    cards = np.full((len(vectors), kinds), -1, dtype=np.int16)
    for i, v in enumerate(vectors):
        held = [c for c in range(kinds) if v[c]]
        cards[i, : len(held)] = held
    # each side has its own column after the net changes' (see score_table)
    sides = np.array([[k.EFFECTS + 2 * c + s for s in (0, 1)] for c in range(kinds)], np.int16)
    columns = np.array([k.variant_columns(tuple(row)) for row in sides.tolist()], dtype=np.int16)
    scores = score_table(rules, deck)
    after = np.ascontiguousarray(scores[:, columns])
    return Encoded((k1, k2), params, remove, cards, sides, scores, columns, after)


@cache
def _score_table(double_threshold: int) -> np.ndarray:
    from ruleslawyer.solvers.twist_of_fate import kernel as k

    table = np.zeros((64, k.EFFECTS), dtype=np.int16)
    changes = range(-k.TOP, k.TOP + 1)
    for luck, shilling in product(range(k.TOP + 1), repeat=2):
        for dl, ds in product(changes, repeat=2):
            table[luck | (shilling << 3), k.effect(dl, ds)] = k.score_entry(
                luck, shilling, (dl, ds), double_threshold
            )
    table.setflags(write=False)
    return table


def score_table(rules: Rules, deck: Deck | None = None) -> np.ndarray:
    """Each Luck and Shilling, each change: the seat after the change and after scoring.

    The columns are the net changes
    (:func:`~ruleslawyer.solvers.twist_of_fate.kernel.effect`), then, with a
    ``deck``, one per card side (card ``c`` side ``s`` at ``EFFECTS + 2 * c + s``): that
    side's Gives and Takes applied in the gives-takes-order in force (the model's
    ``twist_side``), then scored.
    """
    from ruleslawyer.solvers.twist_of_fate import kernel as k

    dt = DOUBLE_THRESHOLD[rules.double_threshold]
    base = _score_table(dt)
    if deck is None:
        return base
    extra = np.zeros((64, 2 * len(deck.characters)), dtype=np.int16)
    for luck, shilling in product(range(k.TOP + 1), repeat=2):
        seat = Seat(luck=luck, shilling=shilling)
        for c, character in enumerate(deck.characters):
            for s, side in enumerate(character.sides):
                twisted = twist_side(seat, side, rules)
                extra[luck | (shilling << 3), 2 * c + s] = k.score_entry(
                    twisted.luck, twisted.shilling, (0, 0), dt
                )
    return np.concatenate([base, extra], axis=1)


def decode_move(m: int, position: Position) -> Move:
    """Move index ``m`` (card, target seat, variant) as a model :class:`Move`."""
    seats = len(position.state.seats)
    card = position.deck.names[m // (seats * 6)]
    target, variant = (m // 6) % seats, m % 6
    if variant < 2:
        return Move(card, target, FACE_UP, side=variant)
    if target == position.state.active:
        return Move(card, target, FACE_DOWN, player_raises=LUCK if variant == 2 else SHILLING)
    mine, theirs = divmod(variant - 2, 2)
    return Move(
        card,
        target,
        FACE_DOWN,
        player_raises=(LUCK, SHILLING)[mine],
        target_raises=(LUCK, SHILLING)[theirs],
    )
