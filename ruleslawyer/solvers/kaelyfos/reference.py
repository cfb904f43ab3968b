"""A plain reference for ``kaelyfos advise``: brute force over every sequence and every copy.

Nothing is merged or memoised. Every sequence of free actions is tried, in every order
(an action is legal when it changes the table: a build that finds no empty site, no
token or no material does nothing), before every trigger (or only before the first,
``between=False``). Every copy of every card left is an equally likely next card.
Every decision a card meets is branched on: the crew's (who takes a distress, who has
the crew's one nightmare) take the lowest value, the open ones (the rules leave them to
nobody) are combined under ``ties``: their mean (``uniform``), the highest (``worst``) or
the lowest (``best``). Values are (expected distress, expected nightmares, worst
distress), compared in that order. Slow and obviously right: the fast evaluator in
:mod:`ruleslawyer.solvers.kaelyfos.advise` is tested against it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import permutations, product

from ruleslawyer.models.kaelyfos.points import EXHAUSTED_DECK
from ruleslawyer.models.kaelyfos.resolve import Action, Card, Position, free_actions, resolve
from ruleslawyer.models.kaelyfos.state import Readings, Result, Table
from ruleslawyer.solvers.kaelyfos.advise import next_position

Triple = tuple[Fraction, Fraction, int]
NONE: Triple = (Fraction(0), Fraction(0), 0)


@dataclass(frozen=True)
class _Game:
    chosen: Mapping[str, str]
    cards: Mapping[str, Card]
    ties: str
    between: bool


def sequences(
    position: Position, material: int, chosen: Mapping[str, str]
) -> Iterator[tuple[tuple[Action, ...], Position, int]]:
    """Every legal sequence of free actions, the position it leaves and the material left."""
    yield (), position, material
    for name, node in position.explorers:
        # every trap on the explorer's node may be the one destroyed (named when the
        # node's traps differ, as advise names them)
        here = [t for t in position.traps if t.node == node]
        named = len(set(here)) > 1
        actions = [Action("destroy", name, t if named else None) for t in here]
        for action in actions + ([Action("build", name)] if material else []):
            kind = action.kind
            table = Table.of(position)
            before = table.key()
            free_actions(table, replace(position, actions=(action,)), Readings(chosen))
            if table.key() == before:
                continue
            after = replace(
                next_position(position, table.result({}, ())),
                had_nightmare=position.had_nightmare,
            )
            left = material - (kind == "build")
            for rest, end, final in sequences(after, left, chosen):
                yield (action, *rest), end, final


def _card(
    position: Position, game: _Game, later: Callable[[Result], Triple], picks: dict[str, int]
) -> Triple:
    out = resolve(position, game.chosen, picks)
    for d in out.decisions:
        if d.key in picks:
            continue
        kids = [_card(position, game, later, {**picks, d.key: i}) for i in range(len(d.labels))]
        if d.crew:
            return min(kids)
        if game.ties == "worst":
            return max(kids)
        if game.ties == "best":
            return min(kids)
        return (
            sum((k[0] for k in kids), Fraction(0)) / len(kids),
            sum((k[1] for k in kids), Fraction(0)) / len(kids),
            max(k[2] for k in kids),
        )
    now = sum(n for _, n in out.result.distress)
    e, n, w = later(out.result)
    return now + e, len(out.result.nightmares) + n, now + w


def _firsts(
    position: Position, material: int, deck: list[str], shown: list[str], left: int, game: _Game
) -> list[tuple[str, Triple]]:
    """Each copy of each card drawn next, with its value and what follows (none: no draw)."""
    if not deck and shown and game.chosen[EXHAUSTED_DECK] == "reshuffle":
        deck, shown = shown, []
    if left == 0 or not deck:
        return []
    values = []
    for i, name in enumerate(deck):
        rest, seen = deck[:i] + deck[i + 1 :], [*shown, name]

        def later(result: Result, rest: list[str] = rest, seen: list[str] = seen) -> Triple:
            after = next_position(position, result)
            return _turn(after, material, rest, seen, left - 1, game)

        values.append((name, _card(replace(position, card=game.cards[name]), game, later, {})))
    return values


def _mean(values: list[Triple]) -> Triple:
    if not values:
        return NONE
    return (
        sum((v[0] for v in values), Fraction(0)) / len(values),
        sum((v[1] for v in values), Fraction(0)) / len(values),
        max(v[2] for v in values),
    )


def _draws(
    position: Position, material: int, deck: list[str], shown: list[str], left: int, game: _Game
) -> Triple:
    return _mean([v for _, v in _firsts(position, material, deck, shown, left, game)])


def _turn(
    position: Position, material: int, deck: list[str], shown: list[str], left: int, game: _Game
) -> Triple:
    if not game.between:
        return _draws(position, material, deck, shown, left, game)
    return min(
        _draws(after, rest, deck, shown, left, game)
        for _, after, rest in sequences(position, material, game.chosen)
    )


def reference_options(
    start: Position,
    material: int,
    spent: tuple[str, ...],
    triggers: int,
    chosen: Mapping[str, str],
    ties: str = "uniform",
    between: bool = True,
) -> dict[tuple[Action, ...], Triple]:
    """The value of every legal sequence of free actions before the first card."""
    board = start.board
    game = _Game(chosen, {b.name: Card(b.spawn, b.move) for b in board.behaviors}, ties, between)
    deck = [b.name for b in board.behaviors]
    for name in spent:
        deck.remove(name)
    return {
        actions: _draws(after, left, deck, list(spent), triggers, game)
        for actions, after, left in sequences(start, material, chosen)
    }


def reference_balance(
    start: Position,
    material: int,
    triggers: int,
    chosen: Mapping[str, str],
    ties: str = "uniform",
) -> dict[tuple[tuple[str, str], ...], dict[tuple[Action, ...], tuple[Triple, dict[str, Triple]]]]:
    """For every deal of the nests: every sequence of free actions before the first card,
    its value over the whole deck and its value given each first card (by name).

    Deals are every permutation of the board's nest sites given to A, B, C; the crew's
    free actions are tried before every trigger.
    """
    board = start.board
    game = _Game(chosen, {b.name: Card(b.spawn, b.move) for b in board.behaviors}, ties, True)
    deck = [b.name for b in board.behaviors]
    out = {}
    for sites in permutations(board.nest_sites):
        nests = tuple(sorted(zip("ABC", sites, strict=True)))
        here = replace(start, nests=nests)
        out[nests] = {}
        for actions, after, left in sequences(here, material, chosen):
            firsts = _firsts(after, left, deck, [], triggers, game)
            per_card = {name: _mean([v for n, v in firsts if n == name]) for name in dict(firsts)}
            out[nests][actions] = (_mean([v for _, v in firsts]), per_card)
    return out


def reference_jointly(
    start: Position,
    material: int,
    spent: tuple[str, ...],
    triggers: int,
    chosen: Mapping[str, str],
    points: tuple[str, ...],
) -> dict[tuple[tuple[str, str], ...], dict[tuple[Action, ...], Triple]]:
    """Every combination of the readings of ``points`` and of the three ways to take a
    choice the rules leave open (``uniform``, ``worst``, ``best``; keyed as
    ``advise/open-ties``): the value of every legal sequence of free actions under it."""
    from ruleslawyer.models.kaelyfos.points import POINTS_BY_ID

    names = [POINTS_BY_ID[p].reading_names for p in points]
    out = {}
    for combo in product(*names, ("uniform", "worst", "best")):
        readings = dict(zip(points, combo[:-1], strict=True))
        key = tuple(sorted({**readings, "advise/open-ties": combo[-1]}.items()))
        out[key] = reference_options(
            start, material, spent, triggers, {**chosen, **readings}, combo[-1]
        )
    return out
