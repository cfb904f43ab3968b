"""A plain reference for ``kaelyfos advise``: brute force over every order of the deck.

Every order of the whole remaining deck is equally likely (a shuffled deck); the first
``triggers`` cards are resolved one after another and their distress summed. Past the
end of the deck the reading ``exhausted-deck=no-card`` applies (no card, no distress).
Slow (factorial in the deck's size) and obviously right: the fast evaluator in
:mod:`ruleslawyer.solvers.kaelyfos.advise` is tested against it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

from ruleslawyer.models.kaelyfos.resolve import Card, Position, resolve
from ruleslawyer.solvers.kaelyfos.advise import next_position


def reference(
    start: Position, spent: tuple[str, ...], triggers: int, chosen: Mapping[str, str]
) -> tuple[Fraction, int]:
    """(exact expected total distress, worst total) of ``start`` (its actions taken first)."""
    board = start.board
    cards = {b.name: Card(b.spawn, b.move) for b in board.behaviors}
    deck = [b.name for b in board.behaviors]
    for name in spent:
        deck.remove(name)
    totals = []
    for order in itertools.permutations(deck):
        now, total = start, 0
        for name in order[:triggers]:
            result = resolve(replace(now, card=cards[name]), chosen).result
            total += sum(n for _, n in result.distress)
            now = next_position(now, result)
        totals.append(total)
    if not deck or triggers == 0:
        return Fraction(0), 0
    return Fraction(sum(totals), len(totals)), max(totals)
