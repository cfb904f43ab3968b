"""``kaelyfos advise``: the crew's best free actions before the next behaviour card.

Model (printed with every answer): the crew may take free actions now, before the
next trigger. Traps: "If you are on a node with an empty build site, you may build a
trap as a free action by spending 1 material and placing an available trap token onto
that build site." FAQ: "You may destroy a trap on your node (and any bloodsuckers on
it) as a free action." Each option (a set of such actions, at most one per explorer,
at most ``material`` builds) is scored by the total distress the crew gains over the
next ``triggers`` behaviour cards. Bloodsuckers: "When the time marker reaches a
bloodsucker (triangle) trigger token: reveal and resolve a bloodsucker behavior card."
Setup: "Shuffle and stack the waking nightmare and bloodsucker behavior cards
face-down" -- so each card is drawn uniformly
without replacement from the cards left in the deck (the board's cards less the ones
spent). The expectation is exact (a rational over every draw sequence); the worst case
is the largest total over the sequences that can occur. Between triggers the explorers
stay where they are and take no further actions; ties the rules leave open take their
first option (as ``kaelyfos step`` shows it); how the crew splits a node's distress
does not change the total.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.errors import InputError
from ruleslawyer.models.kaelyfos import Action, Card, Position, free_actions, resolve
from ruleslawyer.models.kaelyfos_points import EXHAUSTED_DECK, POINTS_BY_ID, in_force
from ruleslawyer.models.kaelyfos_state import Readings, Result, Table

Deck = tuple[tuple[str, int], ...]  # card name and copies, sorted by name, no zeros

MODEL = (
    "options: every set of free actions now, at most one per explorer and one build per "
    "material, ranked by exact expectation over the cards left in the behaviour deck, "
    "each drawn uniformly "
    "without replacement; horizon {triggers} trigger(s), one card each; utility: total "
    "distress the crew gains (lower is better); worst case: the largest total over the "
    "draw sequences; between triggers the explorers stay put and take no further free "
    "actions; ties the rules leave open take their first option; the crew's split of a "
    "node's distress does not change the total"
)


class OutOfTime(Exception):
    """The budget ran out mid-evaluation."""


@dataclass(frozen=True)
class Option:
    """One set of free actions and its score."""

    actions: tuple[Action, ...]
    label: str
    expected: Fraction
    worst: int

    def to_json(self) -> dict[str, Any]:
        return {
            "option": self.label,
            "actions": [{"action": a.kind, "by": a.explorer} for a in self.actions],
            "expected_distress": str(self.expected),
            "expected_distress_float": round(float(self.expected), 6),
            "worst_distress": self.worst,
        }


@dataclass(frozen=True)
class Ranking:
    options: tuple[Option, ...]
    finished: bool
    consulted: frozenset[str]
    ties: frozenset[str] = frozenset()  # open points whose tie a card met (first option taken)


def deck_of(names: list[str] | tuple[str, ...]) -> Deck:
    return tuple(sorted(Counter(names).items()))


def _take(deck: Deck, name: str) -> Deck:
    return tuple((n, c - (n == name)) for n, c in deck if c - (n == name))


def _add(deck: Deck, name: str) -> Deck:
    return deck_of([n for n, c in deck for _ in range(c)] + [name])


def label(actions: tuple[Action, ...], position: Position) -> str:
    where = dict(position.explorers)
    if not actions:
        return "nothing"
    return ", ".join(f"{a.explorer} {a.kind}s on {where[a.explorer]}" for a in actions)


def candidates(
    position: Position, material: int, chosen: Mapping[str, str]
) -> list[tuple[Action, ...]]:
    """Every set of free actions (at most one per explorer, at most ``material`` builds).

    Sets that leave the table the same under the readings ``chosen`` are merged into the
    first (fewest actions, then in explorer order); an action that cannot apply (no build
    site, no trap on the node) is not offered.
    """
    board = position.board
    trap_nodes = {t.node for t in position.traps}
    per_explorer: list[list[Action | None]] = []
    for name, node in position.explorers:
        mine: list[Action | None] = [None]
        if node != board.scarab and board.node(node).build_sites:
            mine.append(Action("build", name))
        if node in trap_nodes:
            mine.append(Action("destroy", name))
        per_explorer.append(mine)
    combos = [
        tuple(a for a in combo if a is not None) for combo in itertools.product(*per_explorer)
    ]
    combos.sort(key=len)
    seen: set[Any] = set()
    out: list[tuple[Action, ...]] = []
    for actions in combos:
        if sum(a.kind == "build" for a in actions) > material:
            continue
        # destroys before builds: a crew destroying and rebuilding on one node gets a fresh trap
        ordered = tuple(sorted(actions, key=lambda a: a.kind != "destroy"))
        key = _after_actions(replace(position, actions=ordered), chosen)
        if key not in seen:
            seen.add(key)
            out.append(ordered)
    return out


def _after_actions(position: Position, chosen: Mapping[str, str]) -> Any:
    """The table once the free actions are taken, before the card."""
    table = Table.of(position)
    free_actions(table, position, Readings(chosen))
    return table.key()


def next_position(position: Position, result: Result) -> Position:
    """The position after a card: its result, the same explorers, no actions pending."""
    return replace(
        position,
        bloodsuckers=result.bloodsuckers,
        traps=result.traps,
        supply=result.supply,
        removed_from_play=result.removed_from_play,
        trap_tokens=result.trap_tokens,
        actions=(),
        had_nightmare=(),
    )


class Evaluator:
    """Expected and worst total distress over ``triggers`` draws (memoised by state)."""

    def __init__(self, chosen: Mapping[str, str], cards: Mapping[str, Card], budget: Budget):
        self.chosen, self.cards, self.budget = dict(chosen), cards, budget
        self.memo: dict[Any, tuple[Fraction, int]] = {}
        self.consulted: set[str] = set()
        self.ties: set[str] = set()
        self.calls = 0
        self.progress = Progress("kaelyfos advise: states")

    def value(
        self, position: Position, deck: Deck, revealed: Deck, triggers: int
    ) -> tuple[Fraction, int]:
        if triggers == 0:
            return Fraction(0), 0
        if not deck and revealed:
            self.consulted.add(EXHAUSTED_DECK)
            if self.chosen[EXHAUSTED_DECK] == "reshuffle":
                deck, revealed = revealed, ()
        if not deck:
            return Fraction(0), 0  # no card to reveal (or no deck at all)
        key = (position, deck, revealed, triggers)
        if key in self.memo:
            return self.memo[key]
        self.calls += 1
        self.progress.update(self.calls)
        if self.calls % 64 == 0 and self.budget.spent():
            raise OutOfTime
        total = sum(c for _, c in deck)
        expected, worst = Fraction(0), 0
        for name, copies in deck:
            out = resolve(replace(position, card=self.cards[name]), self.chosen)
            self.consulted |= out.consulted
            self.ties |= {d.point for d in out.decisions if d.point is not None}
            now = sum(n for _, n in out.result.distress)
            later_e, later_w = self.value(
                next_position(position, out.result),
                _take(deck, name),
                _add(revealed, name),
                triggers - 1,
            )
            expected += Fraction(copies, total) * (now + later_e)
            worst = max(worst, now + later_w)
        self.memo[key] = (expected, worst)
        return expected, worst


def rank(
    position: Position,
    material: int,
    spent: tuple[str, ...],
    triggers: int,
    chosen: Mapping[str, str],
    budget: Budget,
) -> Ranking:
    """Every candidate set of free actions, best (least expected distress) first."""
    board = position.board
    cards = {b.name: Card(b.spawn, b.move) for b in board.behaviors}
    deck = _remaining(board, spent)
    evaluator = Evaluator(chosen, cards, budget)
    scored: list[Option] = []
    finished = True
    for actions in candidates(position, material, chosen):
        start = replace(position, actions=actions)
        try:
            expected, worst = _first(evaluator, start, deck, deck_of(spent), triggers)
        except OutOfTime:
            finished = False
            break
        scored.append(Option(actions, label(actions, position), expected, worst))
    evaluator.progress.close()
    scored.sort(key=lambda o: (o.expected, o.worst, len(o.actions)))
    return Ranking(
        tuple(scored), finished, frozenset(evaluator.consulted), frozenset(evaluator.ties)
    )


def _first(
    evaluator: Evaluator, start: Position, deck: Deck, revealed: Deck, triggers: int
) -> tuple[Fraction, int]:
    """The value with the free actions taken before the first card (not memoised with them)."""
    if triggers == 0 or (not deck and not revealed):
        return Fraction(0), 0
    return evaluator.value(start, deck, revealed, triggers)


MAX_DRAW_SEQUENCES = 5000  # about 7 ms each on a 20-card board: half a minute at most


def refuse_oversized(board: Any, triggers: int, source: str) -> None:
    """Refuse, before searching, a horizon whose draws the search cannot go through in
    reasonable time: at most :data:`MAX_DRAW_SEQUENCES` sequences of ``triggers`` card
    names (the board's distinct behaviour cards to the power ``triggers``, a bound)."""
    names = len({b.name for b in board.behaviors})
    if names**triggers > MAX_DRAW_SEQUENCES:
        raise InputError(
            source, "board.behavior", f"{names} behaviour cards drawn {triggers} times "
            f"({names}**{triggers} draw sequences)",
            f"at most {MAX_DRAW_SEQUENCES} draw sequences to the horizon (fewer --triggers, "
            "or a smaller deck)",
        )  # fmt: skip


def _remaining(board: Any, spent: tuple[str, ...]) -> Deck:
    printed = Counter(b.name for b in board.behaviors)
    printed.subtract(Counter(spent))
    return tuple(sorted((n, c) for n, c in printed.items() if c > 0))


@dataclass(frozen=True)
class Advice:
    position: Position
    material: int
    spent: tuple[str, ...]
    triggers: int
    rulings: Mapping[str, str]
    ranking: Ranking
    divergences: tuple[tuple[str, str, Ranking], ...]
    finished: bool

    def model(self) -> str:
        return MODEL.format(triggers=self.triggers)

    def to_json(self) -> dict[str, Any]:
        board = self.position.board
        return {
            "model": self.model(),
            "behaviour_cards": (
                f"{board.name} (provenance: {board.provenance}"
                + (
                    "; placeholder cards, not the printed ones)"
                    if board.provenance != "printed"
                    else ")"
                )
            ),
            "deck_left": dict(_remaining(board, self.spent)),
            "spent": list(self.spent),
            "material": self.material,
            "triggers": self.triggers,
            "rulings": dict(self.rulings),
            "finished": self.finished,
            "ties_at_first_option": sorted(self.ranking.ties),
            "options": [o.to_json() for o in self.ranking.options],
            "open_rule_points_changing_the_ranking": [
                {
                    "point": p,
                    "reading": r,
                    "title": POINTS_BY_ID[p].title,
                    "finished": other.finished,
                    "options": [o.to_json() for o in other.options],
                }
                for p, r, other in self.divergences
            ],
        }


def advise(
    position: Position,
    material: int,
    spent: tuple[str, ...],
    triggers: int,
    rulings: Mapping[str, str],
    budget: Budget | None = None,
) -> Advice:
    """Rank the crew's free actions; show each open rule point whose readings re-rank them."""
    budget = budget or Budget()
    chosen = in_force(dict(rulings))
    base = rank(position, material, spent, triggers, chosen, budget)
    finished = base.finished
    divergences = []
    for point in sorted(base.consulted):
        if point in rulings or point not in POINTS_BY_ID:
            continue
        for reading in POINTS_BY_ID[point].reading_names:
            if reading == chosen[point] or not finished:
                continue
            other = rank(position, material, spent, triggers, {**chosen, point: reading}, budget)
            finished = finished and other.finished
            if _order(other) != _order(base):
                divergences.append((point, reading, other))
    return Advice(position, material, spent, triggers, chosen, base, tuple(divergences), finished)


def _order(ranking: Ranking) -> tuple[str, ...]:
    return tuple(o.label for o in ranking.options)
