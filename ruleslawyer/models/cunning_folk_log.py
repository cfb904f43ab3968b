"""Cunning Folk logs: what one player (or an onlooker) saw of a game, as TOML.

A log names the setup, the players, an optional ``perspective`` player and a
list of ``[[event]]`` tables (``peek``, ``claim``, ``pass``, ``swap``,
``trade``, ``reveal``). :func:`parse_log` checks it and turns each event into
primitive operations on the village, which every solver reads the same way:

- ``Is(cell, role)``: the card in ``cell`` is ``role`` at this point;
- ``IsNot(cell, role)``: it is not;
- ``Exchange(a, b, known)``: the cards in ``a`` and ``b`` changed places
  (``known=False``: a hidden evil-witch swap, swapped or not);
- ``FaceUp(cell)`` / ``FaceDown(cell)``: public flips.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ruleslawyer.errors import InputError
from ruleslawyer.gamefiles import validate
from ruleslawyer.models.cunning_folk import (
    CELL_INDEX,
    CELLS,
    LIAR,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROLES,
    SETUPS,
    Setup,
    bonus_setup,
    scoundrel_setup,
    standard_setup,
)
from ruleslawyer.schema import StrictModel

EVENT_TYPES = ("peek", "claim", "pass", "swap", "trade", "reveal")


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
    ops: tuple[Op, ...]

    @property
    def constrains(self) -> bool:
        return any(isinstance(op, Is | IsNot) for op in self.ops)


@dataclass(frozen=True)
class Log:
    source: str
    setup: Setup
    players: tuple[str, ...]
    perspective: str | None
    events: tuple[Event, ...]

    @property
    def unknown_swaps(self) -> int:
        return sum(
            1 for e in self.events for op in e.ops if isinstance(op, Exchange) and not op.known
        )


class _EventDoc(StrictModel):
    type: Literal["peek", "claim", "pass", "swap", "trade", "reveal"]
    player: str | None = None
    cell: str | None = None
    cells: list[str] | None = None
    saw: str | None = None
    role: str | None = None
    challenged: bool = False
    revealed: str | None = None
    swapped: bool | None = None


class _LogDoc(StrictModel):
    game: Literal["cunning-folk"] | None = None
    setup: str
    bonus: list[str] = []
    players: list[str]
    perspective: str | None = None
    kept: list[str] = []
    discarded: list[str] = []
    event: list[_EventDoc] = []


def parse_log(document: Mapping[str, Any], source: str) -> Log:
    """Check a parsed log; every problem is an :class:`InputError` naming its place."""
    doc = validate(_LogDoc, document, source)
    if doc.setup not in SETUPS:
        raise InputError(source, "setup", doc.setup, " | ".join(SETUPS))
    players = tuple(doc.players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS or len(set(players)) != len(players):
        raise InputError(source, "players", doc.players, "2 to 4 distinct player names")
    if doc.perspective is not None and doc.perspective not in players:
        raise InputError(source, "perspective", doc.perspective, f"one of {', '.join(players)}")
    setup = _setup(doc, source)
    events = tuple(_event(i, e, doc, setup, source) for i, e in enumerate(doc.event))
    return Log(source, setup, players, doc.perspective, events)


def _setup(doc: _LogDoc, source: str) -> Setup:
    if doc.setup != "bonus" and doc.bonus:
        raise InputError(source, "bonus", doc.bonus, "no bonus list outside the bonus setup")
    if doc.setup != "scoundrels" and (doc.kept or doc.discarded):
        key = "kept" if doc.kept else "discarded"
        raise InputError(source, key, getattr(doc, key), "kept/discarded only with scoundrels")
    if doc.setup == "standard":
        return standard_setup()
    if doc.setup == "bonus":
        if not doc.bonus:
            raise InputError(source, "bonus", "nothing", "the bonus characters in play")
        return bonus_setup(doc.bonus, source=source)
    if len(doc.players) != 3:
        raise InputError(
            source,
            "players",
            f"{len(doc.players)} players",
            "3 players for scoundrels (6 cards plus one per player must fill the 3x3 village)",
        )
    for key in ("kept", "discarded"):
        for i, role in enumerate(getattr(doc, key)):
            _role(role, source, f"{key}[{i}]", ROLES)
    if (
        len(doc.kept) > 1
        or len(doc.discarded) > 1
        or (doc.perspective is None and (doc.kept or doc.discarded))
    ):
        raise InputError(
            source, "kept", doc.kept, "at most one kept and one discarded card, of the perspective"
        )
    setup = scoundrel_setup(3, doc.kept, doc.discarded)
    if not setup.compositions:
        raise InputError(source, "discarded", doc.discarded, "cards the scoundrels pool can deal")
    return setup


def _role(value: str, source: str, place: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise InputError(source, place, value, f"one of {', '.join(allowed)}")
    return value


def _cell(value: str | None, source: str, place: str) -> int:
    if value is None:
        raise InputError(source, place, "nothing", "a cell A1..C3")
    if value not in CELL_INDEX:
        raise InputError(source, place, value, "a cell A1..C3 (column A-C, row 1-3)")
    return CELL_INDEX[value]


def _event(i: int, e: _EventDoc, doc: _LogDoc, setup: Setup, source: str) -> Event:
    at = f"event[{i}]"
    # Roles the table may name: for scoundrels every card that could be dealt, since what
    # the perspective knows was set aside is secret (a card seen there is then impossible).
    roles = scoundrel_setup(len(doc.players)).roles if setup.declares else setup.roles
    used = {k for k, v in e.model_dump(exclude_defaults=True).items() if k != "type"}
    allowed = {
        "peek": {"player", "cell", "saw"},
        "claim": {"player", "cell", "role", "challenged", "revealed", "saw"},
        "pass": {"player", "cell", "saw"},
        "swap": {"player", "cells", "swapped"},
        "trade": {"cells", "player"},
        "reveal": {"cell", "revealed", "player"},
    }[e.type]
    for key in sorted(used - allowed):
        raise InputError(source, f"{at}.{key}", key, f"no such key in a {e.type} event")
    if e.player is not None and e.player not in doc.players:
        raise InputError(source, f"{at}.player", e.player, f"one of {', '.join(doc.players)}")
    if e.type in ("peek", "claim", "pass", "swap") and e.player is None:
        raise InputError(source, f"{at}.player", "nothing", "the player who acted")
    ops: list[Op] = []
    if e.type in ("peek", "claim", "pass", "reveal"):
        cell = _cell(e.cell, source, f"{at}.cell")
        if e.saw is not None:
            if e.player != doc.perspective:
                raise InputError(
                    source, f"{at}.saw", e.saw, "saw only on the perspective player's events"
                )
            ops.append(Is(cell, _role(e.saw, source, f"{at}.saw", roles)))
        if e.type == "pass" and LIAR in setup.roles:
            ops.append(IsNot(cell, LIAR))
        if e.type == "claim":
            claimable = tuple(r for r in roles if r != LIAR)
            _role(e.role or "nothing", source, f"{at}.role", claimable)
            if e.challenged:
                if e.revealed is None:
                    raise InputError(source, f"{at}.revealed", "nothing", "the revealed role")
                ops += [Is(cell, _role(e.revealed, source, f"{at}.revealed", roles)), FaceUp(cell)]
            elif e.revealed is not None:
                raise InputError(source, f"{at}.revealed", e.revealed, "nothing (not challenged)")
        if e.type == "reveal":
            if e.revealed is None:
                raise InputError(source, f"{at}.revealed", "nothing", "the revealed role")
            ops += [Is(cell, _role(e.revealed, source, f"{at}.revealed", roles)), FaceUp(cell)]
        what = e.revealed if e.type == "reveal" else (e.role or "")
        text = " ".join(x for x in (e.type, e.player or "", CELLS[cell], what) if x)
    else:
        if e.cells is None or len(e.cells) != 2 or e.cells[0] == e.cells[1]:
            raise InputError(source, f"{at}.cells", e.cells or "nothing", "two different cells")
        a, b = (_cell(c, source, f"{at}.cells[{k}]") for k, c in enumerate(e.cells))
        known = e.type == "trade"
        swapped = True
        if e.type == "swap" and e.swapped is not None:
            if e.player != doc.perspective:
                raise InputError(
                    source, f"{at}.swapped", e.swapped, "swapped only on the perspective's swaps"
                )
            known, swapped = True, e.swapped
        if swapped:
            ops.append(Exchange(a, b, known))
        ops += [FaceDown(a), FaceDown(b)]
        text = f"{e.type} {CELLS[a]} {CELLS[b]}"
    return Event(i, e.type, text, tuple(ops))
