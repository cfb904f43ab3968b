"""What a Cunning Folk game that goes on is worth to each seat: a sampled table.

A claim stage can end the game (an elder run wins; the last opponent is ostracised) or
leave it going: someone holds a new suspected card, the claimant takes another turn, a
swap is made. A game that goes on is valued here, not counted 0: each seat's **value**
is P(it wins) - P(another wins) from that point, estimated by self-play.

The state is who is still in, in turn order from the player who moves next, and which
of them holds a suspected card ("If they already have a suspected card, then the card
is flipped to the ostracized side"). Ostracised players are skipped, so a state with
``k`` players in is a ``k``-player game. For each state the table holds games played on
the state machine from a fresh standard deal with those suspected cards, every seat
under the ``balance`` ``advise`` agent (:mod:`.balance`) valuing a game that goes on at
0 (one step from the zero valuation), at most :data:`MAX_MOVES` moves (unended: no
winner). What players know of the village is not carried over: the table does not
depend on the cards. Each figure is sampled: its games, and a 95% Wilson interval on
each seat's win rate (the value's interval is ``2 x`` that, shifted by the unended share).

``ruleslawyer/data/cunning-folk-continuation.toml`` is the shipped table; it is
regenerated, game for game, by :mod:`.selfplay` (the command is in the file's header).
Each state's first :data:`CHECK_GAMES` games are kept apart (``check_wins``) so a test
can replay them exactly.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

from ruleslawyer.solvers.balance_stats import wilson

DATA = "cunning-folk-continuation.toml"
MAX_MOVES = 400
CHECK_GAMES = 40
SEED = 0
ZERO = Fraction(0)

METHOD = (
    "self-play: for each state (the players still in, from the one to move next, and who "
    "of them holds a suspected card), games on the state machine from a fresh standard deal "
    "with those suspected cards, every seat under the `balance` `advise` agent valuing a "
    "game that goes on at 0, at most 400 moves (unended: no winner); what players know of "
    "the village is not carried over"
)


@dataclass(frozen=True)
class Row:
    """One state's sample: games, wins per position (0 moves next), unended games."""

    marks: tuple[int, ...]
    games: int
    wins: tuple[int, ...]
    unended: int

    def value(self, k: int) -> Fraction:
        """Position ``k``'s value, P(win) - P(another wins), as the sample's exact mean."""
        decided = self.games - self.unended
        return Fraction(2 * self.wins[k] - decided, self.games)

    def interval(self, k: int) -> tuple[float, float]:
        """A 95% interval on the value: Wilson on the win rate, shifted by the unended share."""
        low, high = wilson(self.wins[k], self.games)
        shift = self.unended / self.games
        return (max(-1.0, 2 * low - 1 + shift), min(1.0, 2 * high - 1 + shift))


@dataclass(frozen=True)
class Table:
    """The shipped continuation values, a constant (every goes-on state ``fill``), or values
    stated state by state (``stated``: per position, from the one to move next)."""

    rows: tuple[Row, ...] = ()
    fill: Fraction | None = None
    method: str = METHOD
    stated: Mapping[tuple[int, ...], tuple[Fraction, ...]] | None = None

    @property
    def sampled(self) -> bool:
        return self.fill is None and self.stated is None

    def value(self, state: tuple[int, ...], k: int) -> Fraction:
        """Position ``k``'s value in ``state``."""
        if self.fill is not None:
            return self.fill
        if self.stated is not None:
            return self.stated[state][k]
        row = self.row(state)
        if row is None:
            raise KeyError(f"no continuation value for {state}")
        return row.value(k)

    def interval(self, state: tuple[int, ...], k: int) -> tuple[float, float]:
        """A 95% interval on position ``k``'s value (a stated value: itself)."""
        row = self.row(state) if self.sampled else None
        if row is None:
            v = float(self.value(state, k))
            return (v, v)
        return row.interval(k)

    def row(self, marks: tuple[int, ...]) -> Row | None:
        return next((r for r in self.rows if r.marks == marks), None)

    def values(self, marks: Sequence[int], mover: int) -> tuple[Fraction, ...]:
        """Each seat's value with these suspected cards (2: ostracised) and ``mover`` to play:
        +1/-1 where one player is left, -1 for an ostracised seat, else the table's."""
        seats = len(marks)
        left = [p for p in range(seats) if marks[p] < 2]
        if len(left) == 1:
            return tuple(Fraction(1 if p == left[0] else -1) for p in range(seats))
        order = _order(marks, mover)
        state = tuple(marks[p] for p in order)
        out = [Fraction(-1)] * seats
        for k, p in enumerate(order):
            out[p] = self.value(state, k)
        return tuple(out)

    def holds(self, state: tuple[int, ...], k: int, low: float, high: float) -> dict[str, Any]:
        """Position ``k``'s value in ``state`` with its 95% interval and the range
        ``low``..``high`` over which an answer resting on it stays the same."""
        value = float(self.value(state, k))
        interval = self.interval(state, k)
        return {
            "state": state_text(state),
            "marks": list(state),
            "you": k + 1,
            "value": str(self.value(state, k)),
            "value_float": value,
            "interval95": [round(interval[0], 4), round(interval[1], 4)],
            "holds_from": round(low, 4) + 0.0,
            "holds_to": round(high, 4) + 0.0,
            "holds_within_interval": low <= interval[0] + 1e-9 and interval[1] <= high + 1e-9,
        }

    def state(self, marks: Sequence[int], mover: int) -> tuple[int, ...] | None:
        """The table state these suspected cards and mover stand for (None: one player left)."""
        order = _order(marks, mover)
        return tuple(marks[p] for p in order) if len(order) > 1 else None


def _order(marks: Sequence[int], mover: int) -> list[int]:
    """The seats still in, in turn order from ``mover`` (or the next one in after it)."""
    seats = len(marks)
    return [p for k in range(seats) if marks[p := (mover + k) % seats] < 2]


def state_text(state: tuple[int, ...]) -> str:
    """A table state in words."""
    marks = ", ".join(
        ("to move" if k == 0 else f"then {k + 1}") + (" (suspected)" if m else "")
        for k, m in enumerate(state)
    )
    return f"{len(state)} players in: {marks}"


@cache
def shipped() -> Table:
    """The table shipped with the package."""
    text = resources.files("ruleslawyer.data").joinpath(DATA).read_text("utf-8")
    doc = tomllib.loads(text)
    rows = tuple(
        Row(tuple(r["marks"]), r["games"], tuple(r["wins"]), r["unended"]) for r in doc["state"]
    )
    return Table(rows, None, doc.get("method", METHOD))


def zero() -> Table:
    """Every game that goes on valued at 0 (the old model; the agents the table is made with)."""
    return Table((), ZERO, "a game that goes on counts 0")


def stated(values: Mapping[tuple[int, ...], Sequence[Fraction]], method: str) -> Table:
    """A table of given values (per state, per position from the one to move next)."""
    return Table((), None, method, {k: tuple(v) for k, v in values.items()})


def states(players: Sequence[int] = (2, 3, 4)) -> list[tuple[int, ...]]:
    """Every state: 2 to 4 players in (``players``), each clear or suspected."""
    return [m for k in players for m in itertools.product((0, 1), repeat=k)]


def check_rows() -> dict[tuple[int, ...], dict[str, Any]]:
    """The shipped table's check samples, by state."""
    text = resources.files("ruleslawyer.data").joinpath(DATA).read_text("utf-8")
    return {tuple(r["marks"]): r for r in tomllib.loads(text)["state"]}
