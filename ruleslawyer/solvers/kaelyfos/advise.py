"""``kaelyfos advise``: the crew's whole decision over the next behaviour cards.

Model (printed with every answer). Traps: "If you are on a node with an empty build
site, you may build a trap as a free action by spending 1 material and placing an
available trap token onto that build site." FAQ: "You may destroy a trap on your node
(and any bloodsuckers on it) as a free action." The rulebook sets no limit on free
actions, so the crew may take any sequence of them (destroy a trap and build again on
the same site, say); sequences are merged by the table they leave, so equal outcomes
are searched once (one leaving the same table with less material is dropped: unspent
material can stay unspent). Every build spends 1 material and every destroy removes a
trap, so the sequences end. Bloodsuckers: "When the time marker
reaches a bloodsucker (triangle) trigger token: reveal and resolve a bloodsucker
behavior card." Setup: "Shuffle and stack the waking nightmare and bloodsucker behavior
cards face-down" -- so each card is drawn uniformly without replacement from the cards
left in the deck. Before every trigger (the first and each later one) the crew chooses
its free actions having seen the cards revealed so far (expectimax); between triggers
the explorers stay where they are (movement is the base game's, not modelled). Attack:
"If there are multiple explorers, the explorers choose who takes the distress": the crew
chooses the split. Utility, compared in this order: expected total distress, expected
waking nightmares ("When you gain distress, it will instruct you to draw a waking
nightmare card"; at most 1 per turn, each trigger in a turn of its own), then the worst
total over the draws (lower is better for each). What a nightmare does is not in the
seed (a discovery die roll on a nightmare card): nightmares are counted, never valued.
A choice the rules leave open (a pheromone tie, the order bloodsuckers move in, an open
trap tie) is resolved under each of the readings in :data:`TIE_READINGS` (default:
each option equally likely), never by the order of the board file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.errors import InputError
from ruleslawyer.models.kaelyfos.points import (
    EXHAUSTED_DECK,
    OUT_OF_TOKENS,
    POINTS_BY_ID,
    in_force,
)
from ruleslawyer.models.kaelyfos.resolve import Action, Card, Position, free_actions, resolve
from ruleslawyer.models.kaelyfos.state import Readings, Result, Table, kinds, trap_of

Deck = tuple[tuple[str, int], ...]  # card name and copies, sorted by name, no zeros

# How a choice the rules leave open is made: the advise's own readings, default first.
OPEN_TIES = "advise/open-ties"
TIE_READINGS = {
    "uniform": "each option the rules leave open is equally likely",
    "worst": "the open option worst for the crew happens",
    "best": "the open option best for the crew happens",
}
OPEN_TIES_TITLE = (
    "A choice the rules leave open (pheromone tie, move order, open trap tie): which option"
)

MODEL = (
    "options: every distinct result of any sequence of free actions now (build: 1 material "
    "and an available trap token on an empty build site on an explorer's node; destroy: a "
    "trap on an explorer's node, with its bloodsuckers; no limit per explorer), and again "
    "before each later trigger, chosen after seeing the cards revealed (expectimax); cards "
    "drawn uniformly without replacement from those left in the behaviour deck; horizon "
    "{triggers} trigger(s), one card each; between triggers the explorers stay put (their "
    "movement is the base game's, not modelled); the crew chooses who takes each distress "
    "on a shared node; utility, in this order: expected total distress, expected waking "
    "nightmares (1 per explorer per turn at most, each trigger in a turn of its own; what a "
    "nightmare does is unknown: the discovery die and the nightmare cards are not in the "
    "seed, so they are counted, not valued), worst total distress over the draws (lower is "
    "better); open choices the rules leave to nobody: {ties}"
)


class OutOfTime(Exception):
    """The budget ran out mid-evaluation."""


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


def tie_value(ties: str, children: list[Value]) -> Value:
    """An open choice's value under the advise's reading ``ties`` (see :data:`TIE_READINGS`)."""
    if ties == "worst":
        return max(children, key=Value.key)
    if ties == "best":
        return min(children, key=Value.key)
    return mean([(Fraction(1, len(children)), v) for v in children])


@dataclass(frozen=True)
class Option:
    """One sequence of free actions before the first card and its value."""

    actions: tuple[Action, ...]
    label: str
    value: Value

    @property
    def expected(self) -> Fraction:
        return self.value.expected

    @property
    def worst(self) -> int:
        return self.value.worst

    def to_json(self) -> dict[str, Any]:
        return {
            "option": self.label,
            "actions": [action_json(a) for a in self.actions],
            "expected_distress": str(self.value.expected),
            "expected_distress_float": round(float(self.value.expected), 6),
            "expected_nightmares": str(self.value.nightmares),
            "expected_nightmares_float": round(float(self.value.nightmares), 6),
            "worst_distress": self.value.worst,
        }


@dataclass(frozen=True)
class Ranking:
    options: tuple[Option, ...]
    finished: bool
    consulted: frozenset[str]
    ties: frozenset[str] = frozenset()  # open points whose choice a card met


def action_json(action: Action) -> dict[str, Any]:
    doc: dict[str, Any] = {"action": action.kind, "by": action.explorer}
    if action.target is not None:
        doc["trap"] = action.target.to_json()
    return doc


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
        for action in legal_actions(here, left, readings):
            there = take(here, action, readings)
            spent = left - (action.kind == "build")
            if most.get(there, -1) < spent:
                most[there] = spent
                out.append(((*actions, action), there, spent))
    return [(a, p, m) for a, p, m in out if most[p] == m]


Continuation = Callable[[Result], Value]


def card_value(
    position: Position,
    chosen: Mapping[str, str],
    ties: str,
    later: Continuation,
    seen: Callable[[Any], None] = lambda _: None,
) -> Value:
    """The value of resolving ``position.card``: the crew's choices made, open ones per ``ties``.

    Every decision the card meets is branched on in resolution order: the crew's take the
    best option, the open ones are combined by :func:`tie_value`. ``later`` values a result
    (what follows the card); ``seen`` gets every outcome (for the points consulted).
    """

    def branch(picks: dict[str, int], out: Any) -> Value:
        seen(out)
        decision = next((d for d in out.decisions if d.key not in picks), None)
        if decision is None:
            now = sum(n for _, n in out.result.distress)
            rest = later(out.result)
            return Value(
                now + rest.expected, len(out.result.nightmares) + rest.nightmares, now + rest.worst
            )
        children = [branch({**picks, decision.key: 0}, out)] + [
            branch(
                {**picks, decision.key: i}, resolve(position, chosen, {**picks, decision.key: i})
            )
            for i in range(1, len(decision.labels))
        ]
        if decision.crew:
            return min(children, key=Value.key)
        return tie_value(ties, children)

    return branch({}, resolve(position, chosen))


class Evaluator:
    """The crew's expectimax value over ``triggers`` draws (memoised by state)."""

    def __init__(
        self,
        chosen: Mapping[str, str],
        cards: Mapping[str, Card],
        budget: Budget,
        ties: str = "uniform",
        between: bool = True,
    ):
        self.chosen, self.cards, self.budget = dict(chosen), cards, budget
        self.ties, self.between = ties, between
        self.readings = Readings(self.chosen)
        self.memo: dict[Any, Value] = {}
        self.consulted: set[str] = set()
        self.met: set[str] = set()
        self.calls = 0
        self.progress = Progress("kaelyfos advise: states")

    def _seen(self, out: Any) -> None:
        self.consulted |= out.consulted
        self.met |= {d.point for d in out.decisions if d.point is not None and not d.crew}

    def drawable(self, deck: Deck, revealed: Deck) -> tuple[Deck, Deck]:
        """The deck to draw from and the revealed cards (reshuffled when the deck is out)."""
        if not deck and revealed:
            self.consulted.add(EXHAUSTED_DECK)
            if self.chosen[EXHAUSTED_DECK] == "reshuffle":
                return revealed, ()
        return deck, revealed

    def value(
        self, position: Position, material: int, deck: Deck, revealed: Deck, triggers: int
    ) -> Value:
        """Before a trigger: the crew's best free actions, then the card."""
        deck, revealed = self.drawable(deck, revealed)
        if triggers == 0 or not deck:
            return ZERO
        if not self.between:
            return self.draw(position, material, deck, revealed, triggers)
        key = ("value", position, material, deck, revealed, triggers)
        if key not in self.memo:
            self.memo[key] = min(
                (
                    self.draw(after, left, deck, revealed, triggers)
                    for _, after, left in reachable(position, material, self.readings)
                ),
                key=Value.key,
            )
        return self.memo[key]

    def draw(
        self, position: Position, material: int, deck: Deck, revealed: Deck, triggers: int
    ) -> Value:
        """The free actions taken: the expectation over the next card and what follows."""
        deck, revealed = self.drawable(deck, revealed)
        if triggers == 0 or not deck:
            return ZERO
        key = ("draw", position, material, deck, revealed, triggers)
        if key in self.memo:
            return self.memo[key]
        self.calls += 1
        self.progress.update(self.calls)
        if self.calls % 16 == 0 and self.budget.spent():
            raise OutOfTime
        total = sum(c for _, c in deck)
        values = [
            (Fraction(copies, total), self.card(position, material, deck, revealed, name, triggers))
            for name, copies in deck
        ]
        self.memo[key] = result = mean(values)
        return result

    def card(
        self,
        position: Position,
        material: int,
        deck: Deck,
        revealed: Deck,
        name: str,
        triggers: int,
    ) -> Value:
        """``name`` drawn next from ``deck`` (as :meth:`drawable` leaves it), and what follows."""
        left, shown = _take(deck, name), _add(revealed, name)

        def later(result: Result) -> Value:
            after = next_position(position, result)
            return self.value(after, material, left, shown, triggers - 1)

        start = replace(position, card=self.cards[name])
        return card_value(start, self.chosen, self.ties, later, self._seen)

    def best(
        self, position: Position, material: int, deck: Deck, revealed: Deck, triggers: int
    ) -> tuple[tuple[Action, ...], Position, int]:
        """The crew's option 1 before the next trigger: the sequence, the position, material left.

        The lowest :meth:`Value.key`, then the fewest actions, then the first in
        :func:`reachable` order: the option :func:`rank` puts first.
        """
        return min(
            reachable(position, material, self.readings),
            key=lambda r: (*self.draw(r[1], r[2], deck, revealed, triggers).key(), len(r[0])),
        )


def rank(
    position: Position,
    material: int,
    spent: tuple[str, ...],
    triggers: int,
    chosen: Mapping[str, str],
    budget: Budget,
    ties: str = "uniform",
    between: bool = True,
) -> Ranking:
    """Every distinct result of free actions now, best first (see :class:`Value`).

    ``between=False`` is the narrower model: free actions only before the first card.
    """
    board = position.board
    cards = {b.name: Card(b.spawn, b.move) for b in board.behaviors}
    deck = remaining(board, spent)
    evaluator = Evaluator(chosen, cards, budget, ties, between)
    scored: list[Option] = []
    finished = True
    for actions, after, left in reachable(position, material, evaluator.readings):
        try:
            value = evaluator.draw(after, left, deck, deck_of(spent), triggers)
        except OutOfTime:
            finished = False
            break
        scored.append(Option(actions, label(actions, position), value))
    evaluator.progress.close()
    scored.sort(key=lambda o: (*o.value.key(), len(o.actions)))
    consulted = evaluator.consulted | evaluator.readings.consulted
    return Ranking(tuple(scored), finished, frozenset(consulted), frozenset(evaluator.met))


@dataclass(frozen=True)
class FollowUp:
    """After a first card (one of its results): the crew's best free actions before the next."""

    card: str
    result: int  # which of the card's distinct results (1-based, in resolution order)
    results: int  # how many distinct results the card can have (open ties, crew splits)
    label: str
    value: Value  # of what follows the card (the next triggers)

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "result": self.result,
            "of": self.results,
            "then": self.label,
            "expected_distress_after": str(self.value.expected),
        }


def follow_ups(
    position: Position,
    option: Option,
    material: int,
    spent: tuple[str, ...],
    triggers: int,
    chosen: Mapping[str, str],
    ties: str = "uniform",
) -> tuple[FollowUp, ...]:
    """The crew's best free actions before the second trigger, after ``option`` and each card."""
    if triggers < 2:
        return ()
    board = position.board
    cards = {b.name: Card(b.spawn, b.move) for b in board.behaviors}
    evaluator = Evaluator(chosen, cards, Budget(), ties)
    after = settled(position)
    for action in option.actions:
        after = take(after, action, evaluator.readings)
    left = material - sum(a.kind == "build" for a in option.actions)
    deck, revealed = evaluator.drawable(remaining(board, spent), deck_of(spent))
    out = []
    for name, _ in deck:
        seen: list[Position] = []

        def collect(result: Result, seen: list[Position] = seen) -> Value:
            nxt = next_position(after, result)
            if nxt not in seen:
                seen.append(nxt)
            return ZERO

        card_value(replace(after, card=cards[name]), chosen, ties, collect)
        for i, nxt in enumerate(seen, 1):
            rest, shown = evaluator.drawable(_take(deck, name), _add(revealed, name))
            best = evaluator.best(nxt, left, rest, shown, triggers - 1)
            value = evaluator.draw(best[1], best[2], rest, shown, triggers - 1)
            out.append(FollowUp(name, i, len(seen), label(best[0], position), value))
    return tuple(out)


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


def remaining(board: Any, spent: tuple[str, ...]) -> Deck:
    printed = Counter(b.name for b in board.behaviors)
    printed.subtract(Counter(spent))
    return tuple(sorted((n, c) for n, c in printed.items() if c > 0))


def deck_provenance(board: Any) -> str:
    """The board's name and provenance, saying when its cards are placeholders."""
    printed = board.provenance == "printed"
    tail = ")" if printed else "; placeholder cards, not the printed ones)"
    return f"{board.name} (provenance: {board.provenance}{tail}"


def title(point: str) -> str:
    return OPEN_TIES_TITLE if point == OPEN_TIES else POINTS_BY_ID[point].title


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
    then: tuple[FollowUp, ...] = ()  # after the best option and each first card
    ties: str = "uniform"  # the advise's reading of choices the rules leave open

    def model(self) -> str:
        ties = f"{OPEN_TIES}={self.ties} ({TIE_READINGS[self.ties]})"
        return MODEL.format(triggers=self.triggers, ties=ties)

    def to_json(self) -> dict[str, Any]:
        board = self.position.board
        return {
            "model": self.model(),
            "behaviour_cards": deck_provenance(board),
            "deck_left": dict(remaining(board, self.spent)),
            "spent": list(self.spent),
            "material": self.material,
            "triggers": self.triggers,
            "rulings": dict(self.rulings),
            "finished": self.finished,
            "open_ties_met": sorted(self.ranking.ties),
            "options": [o.to_json() for o in self.ranking.options],
            "then_after_the_first_card": [f.to_json() for f in self.then],
            "open_rule_points_changing_the_ranking": [
                {
                    "point": p,
                    "reading": r,
                    "title": title(p),
                    "finished": other.finished,
                    "options": [o.to_json() for o in other.options],
                }
                for p, r, other in self.divergences
            ],
        }


def other_readings(
    consulted: frozenset[str],
    met: frozenset[str],
    rulings: Mapping[str, str],
    chosen: Mapping[str, str],
    ties: str,
) -> list[tuple[str, str, dict[str, str], str]]:
    """The other readings to try: (point, reading, the readings in force, the open-tie reading).

    Every other reading of each rule point ``consulted`` that ``rulings`` does not settle,
    then the other :data:`TIE_READINGS` of :data:`OPEN_TIES` when a card ``met`` an open
    choice.
    """
    out = [
        (point, reading, {**chosen, point: reading}, ties)
        for point in sorted(consulted)
        if point not in rulings and point in POINTS_BY_ID
        for reading in POINTS_BY_ID[point].reading_names
        if reading != chosen[point]
    ]
    if met:
        out += [(OPEN_TIES, r, dict(chosen), r) for r in TIE_READINGS if r != ties]
    return out


def advise(
    position: Position,
    material: int,
    spent: tuple[str, ...],
    triggers: int,
    rulings: Mapping[str, str],
    budget: Budget | None = None,
    ties: str = "uniform",
) -> Advice:
    """Rank the crew's free actions; show each open rule point whose readings re-rank them.

    The open rule points are those the ranking consulted and ``rulings`` does not settle,
    then :data:`OPEN_TIES` (``ties`` in force) when a card met a choice the rules leave open.
    """
    budget = budget or Budget()
    chosen = in_force(dict(rulings))
    base = rank(position, material, spent, triggers, chosen, budget, ties)
    finished = base.finished
    divergences = []
    for point, reading, readings, tie_reading in other_readings(
        base.consulted, base.ties, rulings, chosen, ties
    ):
        if not finished:
            break
        other = rank(position, material, spent, triggers, readings, budget, tie_reading)
        finished = finished and other.finished
        if _order(other) != _order(base):
            divergences.append((point, reading, other))
    then = (
        follow_ups(position, base.options[0], material, spent, triggers, chosen, ties)
        if base.finished and base.options
        else ()
    )
    return Advice(
        position,
        material,
        spent,
        triggers,
        chosen,
        base,
        tuple(divergences),
        finished,
        then,
        ties,
    )


def _order(ranking: Ranking) -> tuple[str, ...]:
    return tuple(o.label for o in ranking.options)
