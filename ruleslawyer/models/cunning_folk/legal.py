"""Which Cunning Folk logs a legal game can produce, under the rulings in force.

:func:`public_events` walks a log's events with what every player sees (which
cards are face up and what they show, the action a claim has earned, the
elder run in progress, the suspected cards that are certain, whether the game
is over) and turns each event into primitive operations
(:mod:`ruleslawyer.models.cunning_folk.ops`). An event no legal game allows
there is an :class:`InconsistentRecord` naming the event and the rule.

A log may leave out whole turns (it need not start at the first turn, and
turn order is not checked), but not part of a turn: a claim's swap, trade or
elder run (and a scoundrels declaration's answers) follow it directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ruleslawyer.errors import InconsistentRecord
from ruleslawyer.models.cunning_folk.ops import Event, Exchange, FaceDown, FaceUp, Is, IsNot, Op
from ruleslawyer.models.cunning_folk.play import Rules
from ruleslawyer.models.cunning_folk.village import (
    CELLS,
    ELDERS,
    EVIL_WITCH,
    LIAR,
    VAGRANT,
    VILLAGER,
    Setup,
    opposes,
)


@dataclass(frozen=True)
class Record:
    """One log event as written, checked for shape (cells as indices)."""

    index: int
    type: str
    text: str
    player: str | None = None
    cell: int = -1
    cells: tuple[int, int] = (-1, -1)
    role: str = ""
    challenged: bool = False
    revealed: str = ""
    saw: str = ""
    swapped: bool | None = None
    challengers: tuple[str, ...] = ()  # who challenged, in order (empty: not logged)


@dataclass(frozen=True)
class Pending:
    """An action a claim has earned and the log has not finished: swap, trade or elder run."""

    kind: str  # "swap", "trade" or an elder role
    player: str
    claim: int  # the claim's event index
    cell: int
    picked: tuple[int, ...] = ()
    answered: tuple[str, ...] = ()  # scoundrels: opponents who answered the declaration


@dataclass
class _Table:
    """The public state while walking a log."""

    setup: Setup
    players: tuple[str, ...]
    rules: Rules
    source: str
    shown: list[str | None] = field(default_factory=lambda: [None] * len(CELLS))
    marks: dict[str, int] = field(default_factory=dict)
    pending: Pending | None = None
    over: str = ""
    hidden: tuple[int, int] | None = None  # this event's swap, when only its player saw it

    def fail(self, r: Record, expected: str) -> InconsistentRecord:
        return InconsistentRecord(self.source, f"event[{r.index}]", r.text, expected)


@dataclass(frozen=True)
class Standing:
    """Where the game stands after the log's last event."""

    over: str = ""  # why the game ended ("" while it goes on)
    ostracised: tuple[str, ...] = ()  # in the order of ``players``
    pending: Pending | None = None  # an earned action the log has not finished


def public_events(
    records: Sequence[Record],
    setup: Setup,
    players: tuple[str, ...],
    perspective: str | None,
    rules: Rules,
    source: str,
) -> tuple[Event, ...]:
    """Each record's operations, checked against the rules; see the module docstring."""
    return public_walk(records, setup, players, perspective, rules, source)[0]


def public_walk(
    records: Sequence[Record],
    setup: Setup,
    players: tuple[str, ...],
    perspective: str | None,
    rules: Rules,
    source: str,
) -> tuple[tuple[Event, ...], dict[str, int], str, Pending | None]:
    """:func:`public_events`, with the suspected cards the log makes certain for each player
    at its end (caught bluffs, failed runs, and the challengers of a true claim: as logged, or the
    other player of a two-player game), how the game ended ("" while it goes on) and the
    earned action the log ends inside (a swap, trade or elder run not finished), if any."""
    table = _Table(setup, players, rules, source)
    events = []
    for r in records:
        if table.over:
            raise table.fail(r, f"no event after the game ended ({table.over})")
        if r.player is not None and table.marks.get(r.player, 0) >= 2:
            raise table.fail(
                r, f"an event of a player still in the game ({r.player} is ostracised)"
            )
        ops: list[Op] = []
        if r.saw:
            ops.append(Is(r.cell, r.saw))
        look = r.type in ("peek", "pass", "claim")
        if look:
            _close(table, r)
        table.hidden = None
        steps = _STEPS[r.type](table, r, perspective)
        public = tuple(steps) if table.hidden is None else _unseen(table.hidden)
        ops += steps
        events.append(
            Event(
                r.index,
                r.type,
                r.text,
                tuple(ops),
                public,
                r.player,
                r.cell if look else -1,
                table.hidden,
            )
        )
    marks = {p: table.marks.get(p, 0) for p in players}
    return tuple(events), marks, table.over, table.pending


def _unseen(cells: tuple[int, int]) -> tuple[Op, ...]:
    """A hidden swap as everyone but its player knows it: swapped or not, both cards down."""
    a, b = cells
    return (Exchange(a, b, False), FaceDown(a), FaceDown(b))


def _close(table: _Table, r: Record) -> None:
    """A new turn begins: the earned action before it must be one that may end here."""
    p = table.pending
    if p is None:
        return
    table.pending = None
    if p.answered:
        raise table.fail(
            r, f"no event after the game ended ({p.player}'s declaration stood after the answers)"
        )
    if not p.picked and table.rules.optional_action == "may-decline":
        return
    earned = f"the {_kind_name(p.kind)} earned at event[{p.claim}]"
    if p.kind not in ELDERS:
        raise table.fail(r, f"{earned} first (cunning-folk/optional-action=must-act)")
    if p.picked and table.rules.elder_run_stop == "may-stop":
        return
    if not table.setup.declares and not _pickable(table, p):
        return  # nothing left to pick: the run ends without a win
    rule = (
        "cunning-folk/elder-run-stop=must-continue"
        if p.picked
        else "cunning-folk/optional-action=must-act"
    )
    raise table.fail(r, f"{earned} to go on first ({rule})")


def _kind_name(kind: str) -> str:
    return f"{kind} run" if kind in ELDERS else kind


def _pickable(table: _Table, p: Pending) -> list[int]:
    down_only = table.rules.elder_face_up_picks == "face-down-only"
    return [
        c for c in range(len(CELLS)) if c not in p.picked and not (down_only and table.shown[c])
    ]


def _peek(table: _Table, r: Record, perspective: str | None) -> list[Op]:
    return []


def _pass(table: _Table, r: Record, perspective: str | None) -> list[Op]:
    if LIAR not in table.setup.roles:
        return []
    shown = table.shown[r.cell]
    if shown is None:
        return [IsNot(r.cell, LIAR)]
    if shown == LIAR and table.rules.liar_face_up == "must-claim":
        raise table.fail(
            r,
            f"a claim: {CELLS[r.cell]} shows the liar, who forces one "
            "(cunning-folk/liar-face-up=must-claim)",
        )
    return []


def _claim(table: _Table, r: Record, perspective: str | None) -> list[Op]:
    ops: list[Op] = []
    earned = True
    if r.challenged:
        ops += [Is(r.cell, r.revealed), FaceUp(r.cell)]
        table.shown[r.cell] = r.revealed
        if r.revealed != r.role:
            earned = False
            if not (r.role == VILLAGER and table.rules.villager_challenge == "no-penalty"):
                _penalise(table, r.player or "", r.index)
        elif not (r.role == VILLAGER and table.rules.villager_challenge == "no-penalty"):
            # "The player who challenged you must take a suspected card": each challenger
            # the log names (the other player in a two-player game), or only the first.
            for name in r.challengers:
                if table.marks.get(name, 0) >= 2:
                    raise table.fail(r, f"challengers still in the game ({name} is ostracised)")
            wrong = r.challengers
            if table.rules.multiple_challengers == "first-challenger":
                wrong = wrong[:1]
            for name in wrong:
                _penalise(table, name, r.index)
            if table.over:
                return ops
    if earned and r.role in (EVIL_WITCH, VAGRANT, *ELDERS):
        kind = "swap" if r.role == EVIL_WITCH else "trade" if r.role == VAGRANT else r.role
        table.pending = Pending(kind, r.player or "", r.index, r.cell)
    return ops


def _penalise(table: _Table, player: str, index: int) -> None:
    table.marks[player] = table.marks.get(player, 0) + 1
    left = [p for p in table.players if table.marks.get(p, 0) < 2]
    if len(left) == 1:
        table.over = f"{left[0]} was the only player left after event[{index}]"


def _swap(table: _Table, r: Record, perspective: str | None) -> list[Op]:
    p = table.pending
    if p is None or p.kind != "swap" or p.player != r.player:
        raise table.fail(
            r,
            "a swap only right after the same player's unchallenged or true evil-witch claim "
            "(the evil witches let you rearrange two townsfolk)",
        )
    table.pending = None
    a, b = r.cells
    public = table.rules.swap_face_up == "only-if-swapped" and (
        table.shown[a] is not None or table.shown[b] is not None
    )
    swapped = r.swapped
    if swapped is None and public:
        raise InconsistentRecord(
            table.source,
            f"event[{r.index}].swapped",
            None,
            "whether the cards changed places: under cunning-folk/swap-face-up=only-if-swapped "
            "a face-up card stays up only when it was not swapped, so everyone sees it",
        )
    if swapped is not None and r.player != perspective and not public:
        raise InconsistentRecord(
            table.source,
            f"event[{r.index}].swapped",
            swapped,
            "swapped only on the perspective's swaps (or where the face-up cards show it)",
        )
    if not public:
        table.hidden = (a, b)
    if swapped is None:
        ops: list[Op] = [Exchange(a, b, False)]
        turn_down = True
    else:
        ops = [Exchange(a, b, True)] if swapped else []
        turn_down = swapped or table.rules.swap_face_up == "turn-down"
    if turn_down:
        table.shown[a] = table.shown[b] = None
        ops += [FaceDown(a), FaceDown(b)]
    elif swapped:
        table.shown[a], table.shown[b] = table.shown[b], table.shown[a]
    return ops


def _trade(table: _Table, r: Record, perspective: str | None) -> list[Op]:
    # (In scoundrels the vagrant may be claimed, and her trade taken, even when set aside.)
    if VAGRANT not in table.setup.roles and not table.setup.declares:
        raise table.fail(r, f"no trade: a {table.setup.name} game has no vagrant")
    p = table.pending
    if p is None or p.kind != "trade" or (r.player is not None and p.player != r.player):
        raise table.fail(
            r, "a trade only right after the same player's unchallenged or true vagrant claim"
        )
    if p.cell not in r.cells:
        raise table.fail(
            r,
            f"a trade of the vagrant's cell {CELLS[p.cell]} (claimed at event[{p.claim}]) "
            "with another cell",
        )
    table.pending = None
    a, b = r.cells
    table.shown[a] = table.shown[b] = None
    return [Exchange(a, b, True), FaceDown(a), FaceDown(b)]


def _reveal(table: _Table, r: Record, perspective: str | None) -> list[Op]:
    p = table.pending
    if p is None or p.kind not in ELDERS:
        raise table.fail(
            r,
            "a reveal only in an elder run (after an unchallenged or true elder claim) "
            "or in answer to a scoundrels declaration",
        )
    ops: list[Op] = [Is(r.cell, r.revealed), FaceUp(r.cell)]
    answer = r.player is not None and r.player != p.player
    if answer or p.answered:
        _answer(table, r, p)
    else:
        _pick(table, r, p)
    table.shown[r.cell] = r.revealed
    return ops


def _pick(table: _Table, r: Record, p: Pending) -> None:
    if r.cell not in _pickable(table, p):
        why = (
            "already picked in this run"
            if r.cell in p.picked
            else "face up (cunning-folk/elder-face-up-picks=face-down-only)"
        )
        raise table.fail(r, f"a pick the elder run allows ({CELLS[r.cell]} is {why})")
    if not opposes(p.kind, r.revealed):
        table.pending = None
        _penalise(table, p.player, r.index)
        return
    p = replace(p, picked=(*p.picked, r.cell))
    table.pending = p
    if table.setup.declares:
        return
    total = sum(1 for role in table.setup.cards if opposes(p.kind, role))
    if len(p.picked) == total:
        table.pending = None
        table.over = f"{p.player} identified every card opposing the {p.kind} at event[{r.index}]"


def _answer(table: _Table, r: Record, p: Pending) -> None:
    if not table.setup.declares:
        raise table.fail(r, f"a pick by {p.player}, whose elder run this is")
    if not p.picked and table.rules.declare_without_picks == "after-a-pick":
        raise table.fail(
            r,
            f"no answer: {p.player} picked nothing, so could not declare "
            "(cunning-folk/declare-without-picks=after-a-pick)",
        )
    order = _left_order(table, p.player)
    player = r.player or ""
    done = [order.index(q) for q in p.answered]
    if player not in order or (done and order.index(player) <= max(done)):
        raise table.fail(
            r,
            f"answers by {p.player}'s opponents still in the game, each at most once, "
            f"in turn order from {p.player}'s left ({', '.join(order)})",
        )
    if table.shown[r.cell] is not None:
        raise table.fail(r, f"an answer revealing a face-down card ({CELLS[r.cell]} is face up)")
    table.pending = replace(p, answered=(*p.answered, player))
    if opposes(p.kind, r.revealed):
        table.over = f"{player} found a card opposing the {p.kind} at event[{r.index}]"
    elif player == order[-1]:
        table.over = f"nobody found a card opposing {p.player}'s {p.kind} by event[{r.index}]"


def _left_order(table: _Table, player: str) -> list[str]:
    n = len(table.players)
    k = table.players.index(player)
    seats = [table.players[(k + j) % n] for j in range(1, n)]
    return [q for q in seats if table.marks.get(q, 0) < 2]


_STEPS = {
    "peek": _peek,
    "pass": _pass,
    "claim": _claim,
    "swap": _swap,
    "trade": _trade,
    "reveal": _reveal,
}
