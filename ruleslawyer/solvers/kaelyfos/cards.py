"""The designer's table of Kaelyfos behaviour cards: distress per card, and dead cards.

For each behaviour card of the board, every position the check searches (see
:func:`ruleslawyer.checks.kaelyfos.positions`) with at most ``max_pieces`` pieces is
resolved under the readings in force, the crew's choices and the open ones made as
``kaelyfos advise`` makes them (:func:`ruleslawyer.solvers.kaelyfos.advise.card_value`):
a choice the rules leave open (a pheromone tie, the move order, an open trap tie) takes
each of its options equally likely, never the first in file order, so a position can
deal a fractional expected distress; the crew's split of a node's distress does not
change the total. The table gives the distribution of that expected distress over the
positions. A card *never attacks* when it deals no distress in any of them, whatever
the open choices ("Each bloodsucker gives a distress to an explorer on their node"),
and *never moves* when its move step changes no result: every position can end in
exactly the results it could with a move of 0 ("Each bloodsucker moves the amount
indicated, toward the nearest explorer."). Both are claims about the positions
searched, which the table names. For the expected distress over a game's start, with
the crew's free actions chosen, see :mod:`ruleslawyer.solvers.kaelyfos.balance`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ruleslawyer.budget import Budget
from ruleslawyer.checks.kaelyfos import pieces, positions
from ruleslawyer.graphs.board import Board
from ruleslawyer.models.kaelyfos.points import in_force
from ruleslawyer.models.kaelyfos.resolve import Card, Position
from ruleslawyer.models.kaelyfos.setup import deck_cards
from ruleslawyer.solvers.kaelyfos.advise import ZERO, card_value

MAX_PIECES = 3


@dataclass(frozen=True)
class CardRow:
    names: tuple[str, ...]  # the behaviour cards (by name) that print this card
    card: Card
    positions: int
    distress: tuple[tuple[Fraction, int], ...]  # (expected distress, positions), ascending
    moves: bool

    @property
    def attacks(self) -> bool:
        return any(d > 0 for d, _ in self.distress)

    def mean(self) -> float:
        total = sum((d * n for d, n in self.distress), Fraction(0))
        return float(total / self.positions) if self.positions else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": list(self.names),
            "spawn": list(self.card.spawn),
            "move": self.card.move,
            "positions": self.positions,
            "distress": {str(d): n for d, n in self.distress},
            "never_attacks": not self.attacks,
            "never_moves": not self.moves,
        }


def card_table(
    board: Board, rulings: Mapping[str, str], max_pieces: int = MAX_PIECES
) -> tuple[CardRow, ...]:
    """One row per distinct card of the deck, in file order (see the module doc)."""
    return card_table_within(board, rulings, Budget(), max_pieces)[0]


def card_table_within(
    board: Board, rulings: Mapping[str, str], budget: Budget, max_pieces: int = MAX_PIECES
) -> tuple[tuple[CardRow, ...], bool]:
    """:func:`card_table`, and whether it finished: it stops once ``budget`` is spent, looked
    at before each position (one takes up to about a second on a board of 200 nodes), with
    the rows of the positions done."""
    chosen = in_force(dict(rulings))
    cards = deck_cards(board)
    spread: dict[Card, Counter[Fraction]] = {c: Counter() for c in cards}
    moved: dict[Card, bool] = dict.fromkeys(cards, False)
    finished = True
    for position in positions(board):
        if pieces(position) > max_pieces:
            break  # positions come smallest first
        if budget.spent():
            finished = False
            break
        card = position.card
        value, results = _outcomes(position, chosen)
        spread[card][value] += 1
        if not moved[card] and card.move:
            _, still = _outcomes(replace(position, card=Card(card.spawn, 0)), chosen)
            moved[card] = still != results
    names: dict[Card, list[str]] = {c: [] for c in cards}
    for b in board.behaviors:
        names[Card(b.spawn, b.move)].append(b.name)
    rows = tuple(
        CardRow(
            tuple(names[c]) or ("(the rulebook's example card)",),
            c,
            sum(spread[c].values()),
            tuple(sorted(spread[c].items())),
            moved[c],
        )
        for c in cards
    )
    return rows, finished


def _outcomes(position: Position, chosen: Mapping[str, str]) -> tuple[Fraction, frozenset[Any]]:
    """The card's expected distress (open choices equally likely) and every result it can have."""
    results: set[Any] = set()
    value = card_value(position, chosen, "uniform", lambda _: ZERO, lambda o: results.add(o.result))
    return value.expected, frozenset(results)


def markdown(
    rows: tuple[CardRow, ...], rulings: Mapping[str, str], max_pieces: int, finished: bool = True
) -> list[str]:
    """The report's table, with what it assumes; unfinished, it says so and claims no dead
    card (one may yet attack or move in a position not searched)."""
    lines = [
        "## Behaviour cards: distress and dead cards",
        "",
        f"Each card resolved once on every position the check searches with at most "
        f"{max_pieces} pieces (explorers, bloodsuckers, traps and their catches, free "
        "actions), under the readings in force"
        + (" (" + ", ".join(f"`{k}={v}`" for k, v in rulings.items()) + ")" if rulings else "")
        + "; a choice the rules leave open (pheromone tie, move order, open trap tie) takes "
        "each option equally likely, as `kaelyfos advise` does by default, never the first in "
        "file order. Distress: the total the crew gains from the card, expected over those "
        "choices, as `distress: positions`; the mean counts each position "
        "once (positions are not weighted by how often a game reaches them). A card never "
        "moves when every position can end in exactly the results it could with a move of 0.",
        "",
        "| card | spawn | move | positions | distress: positions | mean | never attacks "
        "| never moves |",
        "|---|---|---|---|---|---|---|---|",
    ]
    if not finished:
        searched = sum(r.positions for r in rows)
        lines[3:3] = [
            "",
            f"**Not finished**: the budget (`--max-seconds`) ran out after {searched} "
            "positions. The counts cover those; a card not yet seen to attack or move is "
            "marked `not known`, not dead.",
        ]
    never = "yes" if finished else "not known"
    for r in rows:
        spread = ", ".join(f"{d}: {n}" for d, n in r.distress)
        lines.append(
            f"| {', '.join(r.names)} | {', '.join(r.card.spawn) or 'none'} | {r.card.move} "
            f"| {r.positions} | {spread} | {r.mean():.3f} | {never if not r.attacks else 'no'} "
            f"| {never if not r.moves else 'no'} |"
        )
    dead = [r for r in rows if not r.attacks or not r.moves]
    lines.append("")
    if not finished:
        lines.append("Dead cards: not known (the search did not finish).")
    elif dead:
        lines.append(
            "Dead cards: "
            + "; ".join(
                f"{', '.join(r.names)} ("
                + " and ".join(
                    w
                    for w, d in (("never attacks", not r.attacks), ("never moves", not r.moves))
                    if d
                )
                + ")"
                for r in dead
            )
            + "."
        )
    else:
        lines.append("No dead card: every card attacks and moves in some position searched.")
    lines.append("")
    return lines
