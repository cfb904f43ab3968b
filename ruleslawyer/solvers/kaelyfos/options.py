"""The crew's options in Kaelyfos and what they are worth: values, decks, free actions.

Shared by :mod:`ruleslawyer.solvers.kaelyfos.advise` (one set of readings) and
:mod:`ruleslawyer.solvers.kaelyfos.joint` (every combination of the open rule points'
readings). Traps: "If you are on a node with an empty build site, you may build a trap
as a free action by spending 1 material and placing an available trap token onto that
build site." FAQ: "You may destroy a trap on your node (and any bloodsuckers on it) as
a free action."
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ruleslawyer.budget import poll
from ruleslawyer.errors import BudgetExceeded
from ruleslawyer.models.kaelyfos.points import OUT_OF_TOKENS
from ruleslawyer.models.kaelyfos.resolve import Action, Position, free_actions
from ruleslawyer.models.kaelyfos.state import Readings, Result, Table, kinds, trap_of

Deck = tuple[tuple[str, int], ...]  # card name and copies, sorted by name, no zeros

# How a choice the rules leave open is made: the advise's own readings, default first.
OPEN_TIES = "advise/open-ties"
TIE_READINGS = {
    "uniform": "each option the rules leave open is equally likely",
    "worst": "the open option worst for the crew happens",
    "best": "the open option best for the crew happens",
}


# The budget ran out mid-evaluation (raised by the searches' own checks and by poll()).
OutOfTime = BudgetExceeded


@dataclass(frozen=True)
class Value:
    """What a line is worth to the crew: lower is better, compared by :meth:`key`."""

    expected: Fraction  # expected total distress
    nightmares: Fraction  # expected waking nightmares
    worst: int  # the largest total distress that can occur

    def key(self) -> tuple[Fraction, Fraction, int]:
        return self.expected, self.nightmares, self.worst


ZERO = Value(Fraction(0), Fraction(0), 0)


def mean(values: list[tuple[Fraction, Value]]) -> Value:
    """The expectation of ``values`` (probability, value); the worst of any that can occur."""
    return Value(
        sum((p * v.expected for p, v in values), Fraction(0)),
        sum((p * v.nightmares for p, v in values), Fraction(0)),
        max(v.worst for _, v in values),
    )


def action_json(action: Action) -> dict[str, Any]:
    doc: dict[str, Any] = {"action": action.kind, "by": action.explorer}
    if action.target is not None:
        doc["trap"] = action.target.to_json()
    return doc


def deck_of(names: list[str] | tuple[str, ...]) -> Deck:
    return tuple(sorted(Counter(names).items()))


def take_card(deck: Deck, name: str) -> Deck:
    return tuple((n, c - (n == name)) for n, c in deck if c - (n == name))


def add_card(deck: Deck, name: str) -> Deck:
    return deck_of([n for n, c in deck for _ in range(c)] + [name])


def label(actions: tuple[Action, ...], position: Position) -> str:
    where = dict(position.explorers)
    if not actions:
        return "nothing"
    return ", then ".join(
        f"{a.explorer} {a.kind}s on {where[a.explorer]}"
        + (f" ({a.target.words()})" if a.target is not None else "")
        for a in actions
    )


def next_position(position: Position, result: Result) -> Position:
    """The position after a card: its result, the same explorers, no actions pending.

    The next trigger is taken to fall in a turn of its own: nobody has had a waking
    nightmare in it yet.
    """
    return replace(_table_as(position, result), had_nightmare=())


def _table_as(position: Position, result: Result) -> Position:
    """``position`` with the pieces of ``result`` (the same turn), no actions pending.

    Traps are listed by node id (a stable sort: traps sharing a node keep their order, the
    only order a card can feel), so the order actions were taken in does not show.
    """
    return replace(
        position,
        bloodsuckers=result.bloodsuckers,
        traps=tuple(sorted(result.traps, key=lambda t: t.node)),
        supply=result.supply,
        removed_from_play=result.removed_from_play,
        trap_tokens=result.trap_tokens,
        actions=(),
    )


def settled(position: Position) -> Position:
    """``position`` in the normal form :func:`next_position` gives (tokens counted)."""
    return _table_as(position, Table.of(position).result({}, ()))


def legal_actions(position: Position, material: int, readings: Readings) -> list[Action]:
    """The free actions open now, by explorer (by name), destroy before build.

    FAQ: "You may destroy a trap on your node": on a node holding traps of different
    kinds (how many they have caught, which token), destroying each kind is an action of
    its own, named by its target.
    """
    board = position.board
    table = Table.of(position)
    out = []
    for name, node in position.explorers:
        out += destroy_actions(name, table.traps_at(node))
        if material < 1 or node == board.scarab:
            continue
        if sum(t[0] == node for t in table.traps) >= board.node(node).build_sites:
            continue  # no empty build site
        doppelganger = table.doppelganger_tokens and readings(OUT_OF_TOKENS) == "doppelganger-token"
        if table.tokens or doppelganger:
            out.append(Action("build", name))
    return out


def destroy_actions(explorer: str, traps: list[list[Any]]) -> list[Action]:
    """The ways ``explorer`` can destroy one of ``traps`` (on their node): one per kind of
    trap, targeted when there is more than one kind."""
    options = kinds(traps)
    if len(options) == 1:
        return [Action("destroy", explorer)]
    return [Action("destroy", explorer, trap_of(t)) for t in options]


def take(position: Position, action: Action, readings: Readings) -> Position:
    """The position after one free action."""
    table = Table.of(position)
    free_actions(table, replace(position, actions=(action,)), readings)
    return _table_as(position, table.result({}, ()))


def reachable(
    position: Position, material: int, readings: Readings
) -> list[tuple[tuple[Action, ...], Position, int]]:
    """Every distinct position free actions reach from ``position``, with the material left.

    Breadth first, so each is labelled with its first shortest sequence; the actions are
    tried in :func:`legal_actions` order, which depends on explorer names, not the board.
    A position reached with less material than another way is dropped: unspent material
    can always stay unspent, so it never does worse.
    """
    start = settled(position)
    out = [((), start, material)]
    most = {start: material}
    for actions, here, left in out:  # grows while it is read
        poll()  # a large board can have very many
        for action in legal_actions(here, left, readings):
            there = take(here, action, readings)
            spent = left - (action.kind == "build")
            if most.get(there, -1) < spent:
                most[there] = spent
                out.append(((*actions, action), there, spent))
    return [(a, p, m) for a, p, m in out if most[p] == m]


def remaining(board: Any, spent: tuple[str, ...]) -> Deck:
    printed = Counter(b.name for b in board.behaviors)
    printed.subtract(Counter(spent))
    return tuple(sorted((n, c) for n, c in printed.items() if c > 0))
