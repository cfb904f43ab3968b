"""The primitive operations a Cunning Folk log event does to the village.

Every solver reads a log as these, the same way:

- ``Is(cell, role)``: the card in ``cell`` is ``role`` at this point;
- ``IsNot(cell, role)``: it is not;
- ``Exchange(a, b, known)``: the cards in ``a`` and ``b`` changed places
  (``known=False``: a hidden evil-witch swap, swapped or not);
- ``FaceUp(cell)`` / ``FaceDown(cell)``: public flips.

An event's ``ops`` are what the log's perspective knows it did; ``public`` are what every
player knows (no one's private look, a hidden swap's outcome unknown); ``player`` and
``look`` say who acted and which card they looked at without showing it, so what any
other player knows can be built from the same event
(:mod:`ruleslawyer.models.cunning_folk.knowledge`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Is:
    cell: int
    role: str


@dataclass(frozen=True)
class IsNot:
    cell: int
    role: str


@dataclass(frozen=True)
class Exchange:
    a: int
    b: int
    known: bool


@dataclass(frozen=True)
class FaceUp:
    cell: int


@dataclass(frozen=True)
class FaceDown:
    cell: int


Op = Is | IsNot | Exchange | FaceUp | FaceDown


@dataclass(frozen=True)
class Event:
    """One logged event, its primitive operations and a one-line description."""

    index: int
    type: str
    text: str
    ops: tuple[Op, ...]  # as the log's perspective knows them
    public: tuple[Op, ...] = ()  # as every player knows them
    player: str | None = None  # who acted (None: a trade or reveal logged without one)
    look: int = -1  # the cell the acting player looked at without showing it (-1: none)
    swap: tuple[int, int] | None = None  # an evil-witch swap only its player saw done or not

    @property
    def constrains(self) -> bool:
        return any(isinstance(op, Is | IsNot) for op in self.ops)
