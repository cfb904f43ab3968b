"""The plain reference for hidden-card evaluation: every draw of card positions, one by one.

Each ``[[hidden]]`` table's ``count`` cards are drawn as positions in its candidate
list (every combination of positions once, equally likely), each world is solved by
the brute force of :mod:`~ruleslawyer.solvers.twist_of_fate.reference.horizon` (zero
round ends to cross is the round horizon), and every move of the player to move gets
its mean vector and the vector of its worst world for the mover.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import combinations, product

from ruleslawyer.models.twist_of_fate.files import Position
from ruleslawyer.models.twist_of_fate.play import (
    HAND_2,
    HAND_3_4,
    LIMIT,
    Move,
    Rules,
    State,
    count_toward_limit,
    legal_moves,
    play,
)
from ruleslawyer.solvers.twist_of_fate.common import EVector
from ruleslawyer.solvers.twist_of_fate.reference.horizon import value


def _add(state: State, seat: int, place: str, cards: tuple[str, ...]) -> State:
    if place == "saved":
        saved = [list(s) for s in (state.saved or ((), ()))]
        saved[seat] += cards
        return replace(state, saved=tuple(tuple(s) for s in saved))
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], **{place: getattr(seats[seat], place) + cards})
    return replace(state, seats=tuple(seats))


def evaluate(
    pos: Position, rules: Rules, model: str = "maxn", rounds: int = 0
) -> list[tuple[Move, EVector, EVector]]:
    """Each move with its mean vector over the worlds and its worst world's vector."""
    names = (*pos.names, "Monks")
    states = []
    choices = [list(combinations(range(len(h.candidates)), h.count)) for h in pos.hidden]
    for picks in product(*choices):
        state = pos.state
        for h, idx in zip(pos.hidden, picks, strict=True):
            cards = tuple(h.candidates[i] for i in idx)
            state = _add(state, names.index(h.seat), h.place, cards)
        state = replace(
            state,
            seats=tuple(
                replace(s, hand=pos.deck.sort(s.hand), in_front=pos.deck.sort(s.in_front))
                for s in state.seats
            ),
        )
        most = HAND_2 if state.monks is not None else HAND_3_4
        if all(count_toward_limit(s, rules) <= LIMIT and len(s.hand) <= most for s in state.seats):
            states.append(state)
    mover = pos.state.active
    out = []
    for move in legal_moves(states[0], pos.deck, rules):
        # plies counted from the position: the move is ply 1, one before its state's plies
        vectors = [
            tuple(
                (o, t - o, z, ls)
                for o, t, z, ls in value(
                    play(s, move, pos.deck, rules), pos.deck, rules, rounds, model, mover
                )
            )
            for s in states
        ]
        players = len(vectors[0])
        mean = tuple(
            tuple(Fraction(sum(v[p][i] for v in vectors), len(vectors)) for i in range(4))
            for p in range(players)
        )
        if len(vectors) == 1:  # one world: certain, not an expectation
            mean = vectors[0]
        out.append((move, mean, min(vectors, key=lambda v: (v[mover], v))))
    return out
