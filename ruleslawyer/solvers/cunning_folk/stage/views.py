"""Each player's own worlds beside the perspective's: who knows what, exactly.

A player's information state (:mod:`ruleslawyer.models.cunning_folk.knowledge`) is the
public events and what they saw alone: the card at each of their looks, whether each of
their unseen swaps changed the cards over. The log's perspective does not know another
player's looks, but each of its worlds (a deal and an outcome for every swap it did not
see, :mod:`.worlds`) fixes them. So the perspective's worlds are filtered here with a
*class* per other player beside each village: the sequence of what that player saw,
numbered in a trie (worlds alike in village and in every class are merged, weights
added). Each class is one information state the other player may be in, with the
perspective's weight for it.

For each class, that player's own worlds: a second forward filter from the setup's
public prior (scoundrels: the public deal, without the perspective's kept and set-aside
cards; the other player's own kept card is not in the log and not used), over the public
events and the player's own observations only, never the perspective's. Hidden swaps are
weighted ``swapped:kept`` as for the perspective. Weights are exact integers.

This is what keeps every player deciding from their own knowledge: a claimant's elder run
is planned over her class's worlds and scored over the perspective's worlds with that
class (:mod:`.runs`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.errors import BudgetExceeded
from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.models.cunning_folk.ops import Event, Exchange, Is, IsNot, Op
from ruleslawyer.models.cunning_folk.village import CELLS, ROLES, Setup, scoundrel_setup
from ruleslawyer.solvers.cunning_folk.worlds import (
    ROLE_CODE,
    Odds,
    Worlds,
    _exact,
    _initial_village,
    face_up_after,
)

KEPT, SWAPPED = len(ROLES), len(ROLES) + 1  # trie symbols of a swap's outcome
# More rows than this (villages times what another player may have seen) is a log where
# the perspective knows too little of what another player saw to weigh it exactly here.
MAX_ROWS = 1_500_000
SYMBOLS = len(ROLES) + 2
_PLACE = np.array([len(ROLES) ** k for k in range(9)], dtype=np.int64)


class TooMany(BudgetExceeded):
    """Too many (village, information state) pairs to weigh exactly: its message says why."""


class Trie:
    """Observation sequences numbered: 0 is the empty one, a child is (parent, symbol)."""

    def __init__(self) -> None:
        self.ids: dict[int, int] = {}

    def path(self, node: int) -> list[int]:
        """The symbols from the root to ``node``."""
        parent = {child: key for key, child in self.ids.items()}
        out = []
        while node:
            key = parent[node]
            node, symbol = divmod(key, SYMBOLS)
            out.append(symbol)
        return out[::-1]

    def child(self, parent: np.ndarray, symbol: np.ndarray, create: bool) -> np.ndarray:
        """Each row's (parent, symbol) child id; without ``create``, -1 where it is new."""
        keys = parent.astype(np.int64) * SYMBOLS + symbol.astype(np.int64)
        unique, inverse = np.unique(keys, return_inverse=True)
        out = np.empty(len(unique), dtype=np.int64)
        for k, key in enumerate(unique.tolist()):
            found = self.ids.get(key)
            if found is None and create:
                found = self.ids[key] = len(self.ids) + 1
            out[k] = -1 if found is None else found
        return out[inverse.ravel()]


@dataclass
class _Rows:
    village: np.ndarray  # (n, 9) role codes now
    weight: np.ndarray  # (n,) exact weights
    hist: np.ndarray  # (n, k) class ids, one column per tracked player

    def keep(self, mask: np.ndarray) -> None:
        self.village, self.weight, self.hist = (
            self.village[mask],
            self.weight[mask],
            self.hist[mask],
        )

    def merge(self) -> None:
        if not len(self.weight):
            return
        keys = self.village.astype(np.int64) @ _PLACE
        bits = float(np.log2(len(ROLES) ** 9))
        for column in self.hist.T:
            top = int(column.max()) + 1
            bits += float(np.log2(top))
            keys = keys * top + column
        if bits >= 62:  # too wide for one integer: compare the columns
            keys = np.column_stack([self.village.astype(np.int64) @ _PLACE, self.hist])
            _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        else:
            _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        merged = np.zeros(len(first), dtype=self.weight.dtype)
        np.add.at(merged, inverse.ravel(), self.weight)
        keep = merged != 0
        self.village = self.village[first][keep]
        self.hist = self.hist[first][keep]
        self.weight = merged[keep]


def _apply(rows: _Rows, op: Op, odds: Odds, column: int, trie: Trie | None, create: bool) -> None:
    """One operation; an unknown exchange splits every row in two (``column``: the tracked
    player who knows the outcome, whose class takes it, or -1)."""
    if isinstance(op, Is | IsNot):
        rows.keep((rows.village[:, op.cell] == ROLE_CODE[op.role]) == isinstance(op, Is))
        return
    if not isinstance(op, Exchange):
        return
    twin = rows.village.copy()
    twin[:, [op.a, op.b]] = twin[:, [op.b, op.a]]
    if op.known:
        rows.village = twin
        return
    weight = _exact(rows.weight, sum(odds))
    hist = np.concatenate([rows.hist, rows.hist])
    if column >= 0 and trie is not None:
        n = len(rows.weight)
        symbol = np.r_[np.full(n, KEPT), np.full(n, SWAPPED)]
        hist[:, column] = trie.child(hist[:, column], symbol, create)
    rows.village = np.concatenate([rows.village, twin])
    rows.weight = np.concatenate([weight * odds[1], weight * odds[0]])
    rows.hist = hist
    keep = rows.weight != 0
    if column >= 0:
        keep &= rows.hist[:, column] >= 0
    rows.keep(keep)
    rows.merge()


def _look(rows: _Rows, cell: int, column: int, trie: Trie, create: bool) -> None:
    """A tracked player looks at ``cell``: their class takes the card there."""
    rows.hist[:, column] = trie.child(rows.hist[:, column], rows.village[:, cell], create)
    rows.keep(rows.hist[:, column] >= 0)


@dataclass(frozen=True)
class Views:
    """The perspective's worlds with every other player's class beside each, and each
    class's own worlds."""

    worlds: Worlds  # the perspective's: current villages and weights
    players: tuple[str, ...]  # the other players, in the log's order
    classes: np.ndarray  # (n, len(players)): each world's class of each other player
    own: tuple[dict[int, Worlds], ...]  # per other player: class -> that player's worlds
    tries: tuple[Trie, ...] = ()
    events: tuple[Event, ...] = ()

    def column(self, player: str) -> int:
        return self.players.index(player)

    def classes_of(self, player: str) -> list[int]:
        """The player's classes present in the perspective's worlds, in a fixed order."""
        return sorted(set(self.classes[:, self.column(player)].tolist()))

    def describe(self, player: str, cls: int) -> str:
        """What ``player`` saw alone in class ``cls``, in words (their looks and swaps)."""
        symbols = iter(self.tries[self.column(player)].path(cls))
        parts = []
        for event in self.events:
            if event.player != player:
                continue
            if event.look >= 0:
                parts.append(f"{CELLS[event.look]} {ROLES[next(symbols)]}")
            if event.swap is not None and any(
                isinstance(op, Exchange) and not op.known for op in event.public
            ):
                how = "swapped" if next(symbols) == SWAPPED else "kept"
                parts.append(f"swap {CELLS[event.swap[0]]}-{CELLS[event.swap[1]]} {how}")
        return ", ".join(parts) or "nothing alone"

    def weight_of(self, player: str, cls: int) -> int:
        """The perspective's weight of the worlds where ``player`` is in class ``cls``."""
        return int(self.worlds.weight[self.classes[:, self.column(player)] == cls].sum())


def public_setup(log: Log) -> Setup:
    """The setup as every player knows it: scoundrels without the perspective's own cards."""
    if log.setup.declares:
        return scoundrel_setup(len(log.players))
    return log.setup


def views(
    log: Log,
    *,
    odds: Odds = (1, 1),
    budget: Budget | None = None,
    players: tuple[str, ...] | None = None,
    extra: tuple[Event, ...] = (),
) -> Views:
    """The perspective's worlds with the classes of ``players`` (default: every other
    player), and their own worlds; ``extra`` events are walked after the log's (a look
    the stage adds). :class:`BudgetExceeded` when ``budget`` ends it."""
    me = log.perspective
    tracked = players if players is not None else tuple(p for p in log.players if p != me)
    events = (*log.events, *extra)
    tries = [Trie() for _ in tracked]
    village, weight = _initial_village(log.setup)
    rows = _Rows(village.copy(), weight.copy(), np.zeros((len(weight), len(tracked)), np.int64))
    for event in events:
        _spent(budget, rows)
        actor = tracked.index(event.player) if event.player in tracked else -1
        if actor >= 0 and event.look >= 0:
            _look(rows, event.look, actor, tries[actor], True)
        for op in event.ops:
            hidden = isinstance(op, Exchange) and not op.known
            _apply(
                rows, op, odds, actor if hidden else -1, tries[actor] if actor >= 0 else None, True
            )
        if not len(rows.weight):
            break
    worlds = Worlds(rows.village, rows.weight, face_up_after(log, extra), None)
    own = tuple(
        _own_worlds(
            log, events, worlds.face_up, p, tries[k], set(rows.hist[:, k].tolist()), odds, budget
        )
        for k, p in enumerate(tracked)
    )
    return Views(worlds, tracked, rows.hist, own, tuple(tries), events)


def _own_worlds(
    log: Log,
    events: tuple[Event, ...],
    face_up: tuple[bool, ...],
    player: str,
    trie: Trie,
    wanted: set[int],
    odds: Odds,
    budget: Budget | None,
) -> dict[int, Worlds]:
    """Each wanted class's own worlds: the public events and this player's observations."""
    village, weight = _initial_village(public_setup(log))
    rows = _Rows(village.copy(), weight.copy(), np.zeros((len(weight), 1), np.int64))
    for event in events:
        _spent(budget, rows)
        mine = event.player == player
        if mine and event.look >= 0:
            _look(rows, event.look, 0, trie, False)
        for op in event.public:
            hidden = isinstance(op, Exchange) and not op.known
            _apply(rows, op, odds, 0 if (mine and hidden) else -1, trie, False)
    out: dict[int, Worlds] = {}
    for cls in sorted(wanted):
        keep = rows.hist[:, 0] == cls
        out[cls] = Worlds(rows.village[keep], rows.weight[keep], face_up, None)
    return out


def _spent(budget: Budget | None, rows: _Rows | None = None) -> None:
    if budget is not None and budget.spent():
        raise BudgetExceeded("the players' worlds")
    if rows is not None and len(rows.weight) > MAX_ROWS:
        raise TooMany(
            f"more than {MAX_ROWS:,} (village, what another player saw alone) pairs to weigh "
            "exactly (the perspective knows too little of what that player saw)"
        )
