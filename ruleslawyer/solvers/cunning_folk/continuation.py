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
regenerated, game for game, by::

    .venv/bin/python -m ruleslawyer.solvers.cunning_folk.continuation --games 1000

Each state's first :data:`CHECK_GAMES` games are kept apart (``check_wins``) so a test
can replay them exactly.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
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


def play_state(marks: tuple[int, ...], game: int, seed: int = SEED) -> tuple[int, int]:
    """One game of ``marks``'s state: the winning position (-1: unended) and its moves."""
    from ruleslawyer.models.cunning_folk.play import Table as Rules
    from ruleslawyer.models.cunning_folk.village import standard_setup
    from ruleslawyer.solvers.cunning_folk.balance import advise_policy, play

    k = len(marks)
    names = ["me", "bea", "cal", "dan"][:k]
    table = Rules(standard_setup(), k)
    rng = random.Random(f"{seed}/continuation/{''.join(map(str, marks))}/{game}")
    head = {"setup": "standard", "players": names}
    done = play(table, head, [advise_policy] * k, rng, MAX_MOVES, marks=marks, goes_on=zero())
    return done.winner, len(done.moves)


def estimate(marks: tuple[int, ...], games: int, seed: int = SEED, first: int = 0) -> Row:
    """Games ``first`` .. ``first + games - 1`` of ``marks``'s state, counted."""
    wins = [0] * len(marks)
    unended = 0
    for g in range(first, first + games):
        winner, _ = play_state(marks, g, seed)
        if winner < 0:
            unended += 1
        else:
            wins[winner] += 1
    return Row(marks, games, tuple(wins), unended)


def states(players: Sequence[int] = (2, 3, 4)) -> list[tuple[int, ...]]:
    """Every state: 2 to 4 players in (``players``), each clear or suspected."""
    return [m for k in players for m in itertools.product((0, 1), repeat=k)]


def head(command: str, seed: int) -> str:
    """The table file's opening lines: what it is and the command that makes it."""
    lines = [
        "# Cunning Folk: what a game that goes on is worth to each seat (sampled).",
        f"# Regenerate (each --players part, then the parts one after another): {command}",
        "# marks: the players still in, from the one to move next (1: holds a suspected card);",
        "# wins: games won by each of them; unended: games with no winner after 400 moves;",
        f"# check_*: the first {CHECK_GAMES} of those games (replayed by the tests).",
        'provenance = "sampled"',
        f"method = {_toml(METHOD)}",
        f"seed = {seed}",
    ]
    return "\n".join(lines) + "\n"


def block(row: Row, check: Row) -> str:
    """One state's sample as TOML."""
    lines = [
        "",
        "[[state]]",
        f"marks = {list(row.marks)}",
        f"games = {row.games}",
        f"wins = {list(row.wins)}",
        f"unended = {row.unended}",
        f"check_games = {check.games}",
        f"check_wins = {list(check.wins)}",
        f"check_unended = {check.unended}",
    ]
    return "\n".join(lines) + "\n"


def _toml(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def check_rows() -> dict[tuple[int, ...], dict[str, Any]]:
    """The shipped table's check samples, by state."""
    text = resources.files("ruleslawyer.data").joinpath(DATA).read_text("utf-8")
    return {tuple(r["marks"]): r for r in tomllib.loads(text)["state"]}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Regenerate the Cunning Folk continuation table.")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--players", default="2,3,4", help="players in: the states to sample")
    parser.add_argument("--no-head", action="store_true", help="the states only (a later part)")
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args(argv)
    players = [int(p) for p in args.players.split(",")]
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")  # noqa: SIM115
    if not args.no_head:
        command = ".venv/bin/python -m ruleslawyer.solvers.cunning_folk.continuation"
        out.write(head(f"{command} --games N --players K --seed {args.seed}", args.seed))
    for marks in states(players):
        check = estimate(marks, min(CHECK_GAMES, args.games), args.seed)
        rest = estimate(marks, args.games - check.games, args.seed, check.games)
        whole = Row(
            marks,
            args.games,
            tuple(a + b for a, b in zip(check.wins, rest.wins, strict=True)),
            check.unended + rest.unended,
        )
        out.write(block(whole, check))
        out.flush()
        print(f"{marks}: {whole.wins} unended {whole.unended}", file=sys.stderr)
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
