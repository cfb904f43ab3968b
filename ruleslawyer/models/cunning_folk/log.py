"""Cunning Folk logs: what one player (or an onlooker) saw of a game, as TOML.

A log names the setup, the players, an optional ``perspective`` player, an
optional ``[rulings]`` table and a list of ``[[event]]`` tables (``peek``,
``claim``, ``pass``, ``swap``, ``trade``, ``reveal``). :func:`parse_log`
checks each event's shape, then checks that a legal game under the rulings in
force can produce the events (:mod:`.cunning_folk_legal`) and turns each into
primitive operations on the village (:mod:`.cunning_folk_ops`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ruleslawyer.errors import InputError
from ruleslawyer.findings import resolve_rulings
from ruleslawyer.gamefiles.kinds import require_kind
from ruleslawyer.gamefiles.schema import StrictModel
from ruleslawyer.gamefiles.source import validate
from ruleslawyer.models.cunning_folk.legal import Record, Standing, public_walk
from ruleslawyer.models.cunning_folk.ops import (
    Event,
    Exchange,
    FaceDown,
    FaceUp,
    Is,
    IsNot,
    Op,
)
from ruleslawyer.models.cunning_folk.play import Rules
from ruleslawyer.models.cunning_folk.village import (
    CELL_INDEX,
    CELLS,
    CLAIMABLE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROLES,
    RULE_POINTS,
    SETUPS,
    Setup,
    bonus_setup,
    scoundrel_setup,
    standard_setup,
)

__all__ = ["Event", "Exchange", "FaceDown", "FaceUp", "Is", "IsNot", "Log", "Op", "parse_log"]

EVENT_TYPES = ("peek", "claim", "pass", "swap", "trade", "reveal")


@dataclass(frozen=True)
class Log:
    source: str
    setup: Setup
    players: tuple[str, ...]
    perspective: str | None
    events: tuple[Event, ...]
    rules: Rules = field(default_factory=Rules)
    rulings: Mapping[str, str] = field(default_factory=dict)
    # Suspected cards in front of each player now (players' order; 2: ostracised), and
    # whether the log's ``suspected`` table gave them (else: what the log makes certain).
    marks: tuple[int, ...] = ()
    marks_stated: bool = False
    standing: Standing = field(default_factory=Standing)
    # Scoundrels: the perspective's own kept and set-aside cards ("Each player knows one
    # townsfolk that's in the game, and one that's not.")
    kept: tuple[str, ...] = ()
    discarded: tuple[str, ...] = ()

    def marks_now(self) -> tuple[int, ...]:
        """The suspected cards in front of each player at the log's end (0 where unknown)."""
        return self.marks or (0,) * len(self.players)

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
    challengers: list[str] | None = None


class _LogDoc(StrictModel):
    game: Literal["cunning-folk"] | None = None
    setup: str
    bonus: list[str] = []
    players: list[str]
    perspective: str | None = None
    kept: list[str] = []
    discarded: list[str] = []
    rulings: dict[str, str] = {}
    suspected: dict[str, int] = {}
    event: list[_EventDoc] = []


def parse_log(
    document: Mapping[str, Any], source: str, cli_rulings: Mapping[str, str] | None = None
) -> Log:
    """Check a parsed log; every problem is an :class:`InputError` naming its place.

    The rulings in force are the log's ``[rulings]`` table with ``cli_rulings``
    (``--ruling``) over it.
    """
    require_kind(document, source, "a Cunning Folk log of play")
    doc = validate(_LogDoc, document, source)
    rulings = resolve_rulings(RULE_POINTS, doc.rulings, cli_rulings or {}, source=source)
    if doc.setup not in SETUPS:
        raise InputError(source, "setup", doc.setup, " | ".join(SETUPS))
    players = tuple(doc.players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS or len(set(players)) != len(players):
        raise InputError(source, "players", doc.players, "2 to 4 distinct player names")
    if doc.perspective is not None and doc.perspective not in players:
        raise InputError(source, "perspective", doc.perspective, f"one of {', '.join(players)}")
    setup = _setup(doc, source)
    records = [_record(i, e, doc, setup, source) for i, e in enumerate(doc.event)]
    rules = Rules.from_rulings(rulings)
    events, certain, over, pending = public_walk(
        records, setup, players, doc.perspective, rules, source
    )
    marks = _marks(doc, certain, over, source)
    out = tuple(p for p, m in zip(players, marks, strict=True) if m >= 2)
    return Log(
        source,
        setup,
        players,
        doc.perspective,
        events,
        rules,
        rulings,
        marks,
        bool(doc.suspected),
        Standing(over, out, pending),
        tuple(doc.kept),
        tuple(doc.discarded),
    )


def _marks(doc: _LogDoc, certain: Mapping[str, int], over: str, source: str) -> tuple[int, ...]:
    """The ``suspected`` table (cards in front of each player now) checked against what the
    log makes certain, with the certain count for each player it leaves out."""
    for name, count in doc.suspected.items():
        place = f"suspected.{name}"
        if name not in certain:
            raise InputError(source, place, name, f"one of {', '.join(doc.players)}")
        if not 0 <= count <= 2:
            raise InputError(source, place, count, "0, 1 or 2 suspected cards (2: ostracised)")
        if count < certain[name]:
            raise InputError(
                source,
                place,
                count,
                f"at least {certain[name]}: the suspected cards the log's caught bluffs and "
                f"failed runs give {name}",
            )
    marks = tuple(doc.suspected.get(p, certain[p]) for p in doc.players)
    if not over and sum(m < 2 for m in marks) < 2:
        raise InputError(
            source,
            "suspected",
            doc.suspected,
            "at least two players not ostracised while the game goes on",
        )
    return marks


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


def _record(i: int, e: _EventDoc, doc: _LogDoc, setup: Setup, source: str) -> Record:
    """One event's shape: keys allowed for its type, known players, cells and roles."""
    at = f"event[{i}]"
    # Roles the table may name: for scoundrels every card that could be dealt, since what
    # the perspective knows was set aside is secret (a card seen there is then impossible).
    roles = scoundrel_setup(len(doc.players)).roles if setup.declares else setup.roles
    used = {k for k, v in e.model_dump(exclude_defaults=True).items() if k != "type"}
    allowed = {
        "peek": {"player", "cell", "saw"},
        "claim": {"player", "cell", "role", "challenged", "revealed", "saw", "challengers"},
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
    if e.type in ("swap", "trade"):
        if e.cells is None or len(e.cells) != 2 or e.cells[0] == e.cells[1]:
            raise InputError(source, f"{at}.cells", e.cells or "nothing", "two different cells")
        a, b = (_cell(c, source, f"{at}.cells[{k}]") for k, c in enumerate(e.cells))
        return Record(
            i, e.type, f"{e.type} {CELLS[a]} {CELLS[b]}", e.player, cells=(a, b), swapped=e.swapped
        )
    cell = _cell(e.cell, source, f"{at}.cell")
    saw = ""
    if e.saw is not None:
        if doc.perspective is None:  # an onlooker's log sees no card: the key is missing
            expected = f"the player who saw the cards ({at}.saw is what {e.player!r} saw)"
            raise InputError(source, "perspective", None, expected)
        if e.player != doc.perspective:
            raise InputError(
                source, f"{at}.saw", e.saw, "saw only on the perspective player's events"
            )
        saw = _role(e.saw, source, f"{at}.saw", roles)
    role = revealed = ""
    challengers: tuple[str, ...] = ()
    if e.type == "claim":
        # "You can declare that you've found a villager if you like" and "You can lie
        # about which character is on the card": any character may be claimed, in the
        # game or not (a bluff everyone can see through is still a claim).
        role = _role(e.role or "nothing", source, f"{at}.role", CLAIMABLE)
        if e.challenged and e.revealed is None:
            raise InputError(source, f"{at}.revealed", "nothing", "the revealed role")
        if not e.challenged and e.revealed is not None:
            raise InputError(source, f"{at}.revealed", e.revealed, "nothing (not challenged)")
        challengers = _challengers(e, doc, source, at)
    if e.type == "reveal" and e.revealed is None:
        raise InputError(source, f"{at}.revealed", "nothing", "the revealed role")
    if e.revealed is not None:
        revealed = _role(e.revealed, source, f"{at}.revealed", roles)
    what = revealed if e.type == "reveal" else role
    text = " ".join(x for x in (e.type, e.player or "", CELLS[cell], what) if x)
    return Record(
        i,
        e.type,
        text,
        e.player,
        cell,
        role=role,
        challenged=e.challenged,
        revealed=revealed,
        saw=saw,
        challengers=challengers,
    )


def _challengers(e: _EventDoc, doc: _LogDoc, source: str, at: str) -> tuple[str, ...]:
    """Who challenged a claim, in order: as logged, or the other player of a two-player game."""
    if e.challengers is None:
        others = [p for p in doc.players if p != e.player]
        return tuple(others) if e.challenged and len(others) == 1 else ()
    others = [p for p in doc.players if p != e.player]
    if (
        not e.challenged
        or not e.challengers
        or len(set(e.challengers)) != len(e.challengers)
        or any(p not in others for p in e.challengers)
    ):
        raise InputError(
            source,
            f"{at}.challengers",
            e.challengers,
            f"on a challenged claim, distinct players other than the claimant "
            f"({', '.join(others)}), in the order they challenged",
        )
    return tuple(e.challengers)
