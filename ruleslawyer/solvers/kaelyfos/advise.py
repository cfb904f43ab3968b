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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ruleslawyer.budget import Budget, Progress, poll, watching
from ruleslawyer.errors import InputError
from ruleslawyer.models.kaelyfos.points import (
    EXHAUSTED_DECK,
    POINTS_BY_ID,
    RULE_POINTS,
    in_force,
)
from ruleslawyer.models.kaelyfos.resolve import Action, Card, Position, resolve
from ruleslawyer.models.kaelyfos.state import Readings, Result
from ruleslawyer.solvers.kaelyfos.joint import Order, Varied, vary
from ruleslawyer.solvers.kaelyfos.options import (
    OPEN_TIES,
    TIE_READINGS,
    ZERO,
    Deck,
    OutOfTime,
    Value,
    action_json,
    add_card,
    deck_of,
    label,
    mean,
    next_position,
    reachable,
    remaining,
    settled,
    take,
    take_card,
)

__all__ = [  # what balance and the tests take from here
    "MODEL",
    "OPEN_TIES",
    "TIE_READINGS",
    "ZERO",
    "Deck",
    "Evaluator",
    "OutOfTime",
    "Value",
    "advise",
    "deck_provenance",
    "follow_ups",
    "label",
    "mean",
    "next_position",
    "other_readings",
    "rank",
    "reachable",
    "remaining",
    "title",
]

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


JOINTLY = (
    "; the rule points the rulings leave open, and advise/open-ties, are varied together: "
    "every combination of their readings is ranked exactly (which re-rank the options, "
    "each option's worst case)"
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
            **_figures(self.value),
        }


@dataclass(frozen=True)
class Ranking:
    options: tuple[Option, ...]
    finished: bool
    consulted: frozenset[str]
    ties: frozenset[str] = frozenset()  # open points whose choice a card met


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
        poll()
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
        if self.budget.spent():
            raise OutOfTime("kaelyfos advise")
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
        left, shown = take_card(deck, name), add_card(revealed, name)

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
    with watching(budget):
        try:
            for actions, after, left in reachable(position, material, evaluator.readings):
                value = evaluator.draw(after, left, deck, deck_of(spent), triggers)
                scored.append(Option(actions, label(actions, position), value))
        except OutOfTime:
            finished = False
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
    budget: Budget | None = None,
) -> tuple[FollowUp, ...]:
    """The crew's best free actions before the second trigger, after ``option`` and each card
    (:data:`OutOfTime` when ``budget`` runs out)."""
    if triggers < 2:
        return ()
    board = position.board
    cards = {b.name: Card(b.spawn, b.move) for b in board.behaviors}
    evaluator = Evaluator(chosen, cards, budget or Budget(), ties)
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
            rest, shown = evaluator.drawable(take_card(deck, name), add_card(revealed, name))
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
    varied: Varied  # the open rule points, every combination of their readings
    finished: bool
    then: tuple[FollowUp, ...] = ()  # after the best option and each first card
    ties: str = "uniform"  # the advise's reading of choices the rules leave open

    @property
    def divergences(self) -> tuple[tuple[str, str, Ranking], ...]:
        """Each open point's reading that alone (the others in force) re-ranks the options."""
        return tuple(
            (point, reading, _ranking(order)) for point, reading, order in self.varied.alone
        )

    def model(self) -> str:
        ties = f"{OPEN_TIES}={self.ties} ({TIE_READINGS[self.ties]})"
        return MODEL.format(triggers=self.triggers, ties=ties) + JOINTLY

    def worst_cases(self) -> tuple[tuple[Value, tuple[tuple[str, str], ...]], ...]:
        """Each option's worst value over every combination of readings, and where."""
        return self.varied.worst if self.varied.finished else ()

    def safest(self) -> Option | None:
        """The option with the best worst case over the combinations (None: not checked)."""
        worst = self.worst_cases()
        if not worst:
            return None
        pairs = zip(self.ranking.options, worst, strict=True)
        return min(pairs, key=lambda p: (*p[1][0].key(), len(p[0].actions)))[0]

    def to_json(self) -> dict[str, Any]:
        board = self.position.board
        worst = self.worst_cases()
        options = [o.to_json() for o in self.ranking.options]
        for doc, (value, where) in zip(options, worst, strict=False):
            doc["worst_case_over_readings"] = {**_figures(value), "readings": dict(where)}
        safest = self.safest()
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
            "options": options,
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
            "open_rule_points_jointly": {
                "checked": self.varied.finished,
                "points": list(self.varied.points),
                "combinations": self.varied.combinations,
                "other_orders": [
                    {
                        "readings": dict(o.readings),
                        "combinations": o.combinations,
                        "options": [
                            _ranking(o).options[i].to_json() for i in range(len(o.options))
                        ],
                    }
                    for o in self.varied.orders
                ],
                "best_in_the_worst_case": safest.label if safest else None,
            },
        }


def _figures(value: Value) -> dict[str, Any]:
    return {
        "expected_distress": str(value.expected),
        "expected_distress_float": round(float(value.expected), 6),
        "expected_nightmares": str(value.nightmares),
        "expected_nightmares_float": round(float(value.nightmares), 6),
        "worst_distress": value.worst,
    }


def _ranking(order: Order) -> Ranking:
    options = tuple(Option(actions, label, value) for actions, label, value in order.options)
    return Ranking(options, True, frozenset())


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
    """Rank the crew's free actions, then rank them again under every combination of the
    readings of the rule points ``rulings`` does not settle and of :data:`OPEN_TIES`
    (``ties`` in force): which combinations re-rank them, and each option's worst case.
    """
    budget = budget or Budget()
    chosen = in_force(dict(rulings))
    base = rank(position, material, spent, triggers, chosen, budget, ties)
    varied = Varied(False)
    if base.finished:
        open_points = [p.id for p in RULE_POINTS if p.readings and p.id not in rulings]
        plans = [o.actions for o in base.options]
        varied = vary(position, material, spent, triggers, chosen, ties, open_points, plans, budget)
    then: tuple[FollowUp, ...] = ()
    finished = base.finished and varied.finished
    if finished and base.options:
        try:
            with watching(budget):
                then = follow_ups(
                    position, base.options[0], material, spent, triggers, chosen, ties, budget
                )
        except OutOfTime:
            finished = False
    return Advice(position, material, spent, triggers, chosen, base, varied, finished, then, ties)
