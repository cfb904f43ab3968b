"""``kaelyfos balance``: expected distress per nest deal and per behaviour card, advise crew.

Exact: every deal of the nests A, B, C onto the nest sites ("Randomly place a nest token
on the vesicle cluster, bony protrusion, and glowing fold": each deal equally likely) and
every first behaviour card (drawn with probability copies / deck: "Shuffle and stack the
waking nightmare and bloodsucker behavior cards face-down"). The start is the board's
("Place the crew on the Scarab.") or the explorer placements given: no bloodsuckers out,
no traps, the whole supply, the material given. Before the first card the crew takes the
free actions :mod:`ruleslawyer.solvers.kaelyfos.advise` ranks first (it has not seen the
card: one choice per deal); from there on it plays as ``advise`` does (expectimax over
the cards, free actions again before each later trigger). A card's figure is the
expectation over the horizon given that card comes first; a deal's is the mean over the
first cards (by copies); the per-card and overall figures are means over the deals. The
per-card figures depend on which of several equally good first options the crew takes:
it takes ``advise``'s option 1 (fewest actions, then the first found).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.graphs.board import Board
from ruleslawyer.models.kaelyfos.points import in_force
from ruleslawyer.models.kaelyfos.resolve import Action, Card, Position
from ruleslawyer.models.kaelyfos.setup import nest_deals
from ruleslawyer.solvers.kaelyfos.advise import (
    MODEL,
    OPEN_TIES,
    TIE_READINGS,
    ZERO,
    Deck,
    Evaluator,
    OutOfTime,
    Value,
    deck_provenance,
    label,
    mean,
    other_readings,
    remaining,
    title,
)

START = 'the crew on the Scarab ("Place the crew on the Scarab.")'
SETUP = (
    'every deal of the nests A, B, C onto the nest sites, each equally likely ("Randomly '
    'place a nest token"); at the start: {explorers}, no bloodsuckers out, no '
    "traps, the whole supply ({supply} black markers), material {material}; before the first "
    "card the crew takes advise's option 1 for the deal (it has not seen the card); a "
    "card's figure is the expectation over the horizon given that card is drawn first, a "
    "deal's the mean over the first cards (by copies), the per-card and overall figures "
    "the mean over the deals; exact (every deal and every card enumerated, nothing sampled)"
)


@dataclass(frozen=True)
class DealRow:
    """One deal of the nests: the crew's first free actions and the figures."""

    nests: tuple[tuple[str, str], ...]
    actions: tuple[Action, ...]
    label: str
    value: Value  # over the deck
    cards: tuple[tuple[str, Value], ...]  # given each first card, by name

    def to_json(self) -> dict[str, Any]:
        return {
            "nests": dict(self.nests),
            "crew_first": self.label,
            **value_json(self.value),
            "per_first_card": {name: value_json(v) for name, v in self.cards},
        }


def value_json(value: Value) -> dict[str, Any]:
    return {
        "expected_distress": str(value.expected),
        "expected_distress_float": round(float(value.expected), 6),
        "expected_nightmares": str(value.nightmares),
        "expected_nightmares_float": round(float(value.nightmares), 6),
        "worst_distress": value.worst,
    }


@dataclass(frozen=True)
class Balance:
    board: Board
    explorers: tuple[tuple[str, str], ...]
    stated: bool  # explorers placed by the user (else the crew on the Scarab)
    material: int
    triggers: int
    rulings: Mapping[str, str]
    ties: str
    deck: Deck
    deals: int  # how many deals there are
    rows: tuple[DealRow, ...]  # in sorted order of the deals; fewer when unfinished
    finished: bool
    consulted: frozenset[str]
    ties_met: frozenset[str]
    # open rule points (and open-tie readings) whose other reading changes the figures
    divergences: tuple[tuple[str, str, Balance], ...] = ()

    def model(self) -> str:
        where = ", ".join(f"{e} on {n}" for e, n in self.explorers)
        setup = SETUP.format(
            explorers=f"explorers {where} (stated: where they stand when the first trigger comes)"
            if self.stated
            else START,
            supply=self.board.supply,
            material=self.material,
        )
        ties = f"{OPEN_TIES}={self.ties} ({TIE_READINGS[self.ties]})"
        return setup + "; " + MODEL.format(triggers=self.triggers, ties=ties)

    def per_card(self) -> tuple[tuple[str, Value], ...]:
        """Each first card's figure, the mean over the deals (only when every deal is done)."""
        if len(self.rows) < self.deals:
            return ()
        share = Fraction(1, len(self.rows))
        return tuple(
            (name, mean([(share, dict(r.cards)[name]) for r in self.rows])) for name, _ in self.deck
        )

    def overall(self) -> Value | None:
        if len(self.rows) < self.deals:
            return None
        return mean([(Fraction(1, len(self.rows)), r.value) for r in self.rows])

    def to_json(self) -> dict[str, Any]:
        overall = self.overall()
        return {
            "model": self.model(),
            "policy": "advise",
            "behaviour_cards": deck_provenance(self.board),
            "deck": dict(self.deck),
            "explorers": dict(self.explorers),
            "explorers_stated": self.stated,
            "material": self.material,
            "triggers": self.triggers,
            "rulings": dict(self.rulings),
            "rule_points_consulted": sorted(self.consulted),
            "open_ties_met": sorted(self.ties_met),
            "exact": True,
            "finished": self.finished,
            "deals": self.deals,
            "deals_done": len(self.rows),
            "per_deal": [r.to_json() for r in self.rows],
            "per_first_card": {name: value_json(v) for name, v in self.per_card()},
            "overall": value_json(overall) if overall is not None else None,
            "open_rule_points_changing_the_figures": [
                {
                    "point": point,
                    "reading": reading,
                    "title": title(point),
                    "per_first_card": {n: value_json(v) for n, v in other.per_card()},
                    "overall": value_json(other.overall() or ZERO),
                }
                for point, reading, other in self.divergences
            ],
        }


def balance(
    board: Board,
    explorers: tuple[tuple[str, str], ...],
    material: int,
    triggers: int,
    rulings: Mapping[str, str],
    budget: Budget | None = None,
    ties: str = "uniform",
) -> Balance:
    """The figures for every deal and first card (see the module doc), and every open rule
    point (consulted, not settled by ``rulings``) whose other reading changes them.

    ``explorers`` (name, node) as stated; empty: one explorer, ``crew``, on the Scarab.
    """
    budget = budget or Budget()
    chosen = in_force(dict(rulings))
    stated = bool(explorers)
    crew = tuple(sorted(explorers)) if stated else (("crew", str(board.scarab)),)
    base = deal_figures(board, crew, stated, material, triggers, chosen, budget, ties)
    finished = base.finished
    divergences = []
    for point, reading, readings, tie_reading in other_readings(
        base.consulted, base.ties_met, rulings, chosen, ties
    ):
        if not finished:
            break
        other = deal_figures(board, crew, stated, material, triggers, readings, budget, tie_reading)
        finished = other.finished
        if other.finished and (other.per_card(), other.overall()) != (
            base.per_card(),
            base.overall(),
        ):
            divergences.append((point, reading, other))
    return replace(base, finished=finished, divergences=tuple(divergences))


class _Evaluator(Evaluator):
    """``advise``'s evaluator with the budget checked at every outcome a card's resolution
    reaches, not only every 16 draws: one draw can branch thousands of ways (20
    bloodsuckers spawned on a node four explorers share: 1,771 splits of the distress), and
    on a large board 16 draws ran minutes past ``--max-seconds``."""

    def _seen(self, out: Any) -> None:
        super()._seen(out)
        if self.budget.spent():
            raise OutOfTime


def deal_figures(
    board: Board,
    crew: tuple[tuple[str, str], ...],
    stated: bool,
    material: int,
    triggers: int,
    chosen: dict[str, str],
    budget: Budget,
    ties: str,
) -> Balance:
    """The figures under the readings ``chosen`` (no divergences)."""
    cards = {b.name: Card(b.spawn, b.move) for b in board.behaviors}
    deck = remaining(board, ())
    evaluator = _Evaluator(chosen, cards, budget, ties)
    deals = sorted(nest_deals(board))
    progress = Progress("kaelyfos balance: nest deals", len(deals))
    rows: list[DealRow] = []
    finished = True
    for done, nests in enumerate(deals):
        progress.update(done)
        start = Position(board, nests, board.supply, Card((), 0), crew)
        try:
            actions, after, left = evaluator.best(start, material, deck, (), triggers)
            value = evaluator.draw(after, left, deck, (), triggers)
            per_card = tuple(
                (name, evaluator.card(after, left, deck, (), name, triggers)) for name, _ in deck
            )
        except OutOfTime:
            finished = False
            break
        rows.append(DealRow(nests, actions, label(actions, start), value, per_card))
    progress.close()
    evaluator.progress.close()
    return Balance(
        board,
        crew,
        stated,
        material,
        triggers,
        chosen,
        ties,
        deck,
        len(deals),
        tuple(rows),
        finished,
        frozenset(evaluator.consulted | evaluator.readings.consulted),
        frozenset(evaluator.met),
    )


# -- sampled: whole games played by an agent (``--policy mcts`` or ``random``) ----------

SAMPLED = (
    'sampled: each game deals the nests at random (each deal equally likely; "Randomly '
    'place a nest token"), at the start: {explorers}, no bloodsuckers out, no traps, the '
    "whole supply ({supply} black markers), material {material}; the crew is played by the "
    "agent in the OpenSpiel game ruleslawyer_kaelyfos: before each trigger its free actions "
    "one at a time (build: 1 material and an available trap token on an empty build site on "
    "an explorer's node; destroy: a trap on an explorer's node), then the card, drawn "
    "uniformly without replacement from those left in the behaviour deck; the crew chooses "
    "who takes each distress on a shared node and whose waking nightmare it is; a choice the "
    "rules leave to nobody (pheromone tie, move order, open trap tie) is drawn, each option "
    "equally likely; horizon {triggers} trigger(s), one card each; between triggers the "
    "explorers stay put (their movement is not modelled); the agent's return: minus the "
    "crew's total distress; figures: the sample mean with its 95% Student t interval "
    "(cut at 0: distress is never negative)"
)


@dataclass(frozen=True)
class Played:
    """One sampled game: the deal, the first card drawn, the crew's distress and nightmares."""

    nests: tuple[tuple[str, str], ...]
    first: str | None
    distress: int
    nightmares: int


@dataclass(frozen=True)
class Sampled:
    """``kaelyfos balance --policy mcts`` (or ``random``): figures over sampled games."""

    board: Board
    explorers: tuple[tuple[str, str], ...]
    stated: bool
    material: int
    triggers: int
    rulings: Mapping[str, str]
    policy: str
    agent: Mapping[str, Any]  # the agent's settings, as it describes them
    seed: int
    asked: int
    games: tuple[Played, ...]
    finished: bool

    def model(self) -> str:
        where = ", ".join(f"{e} on {n}" for e, n in self.explorers)
        explorers = f"explorers {where} (stated)" if self.stated else START
        return SAMPLED.format(
            explorers=explorers,
            supply=self.board.supply,
            material=self.material,
            triggers=self.triggers,
        )

    def to_json(self) -> dict[str, Any]:
        from ruleslawyer.solvers.balance_stats import mean_interval

        names = sorted({b.name for b in self.board.behaviors})
        deals = sorted({g.nests for g in self.games})
        return {
            "model": self.model(),
            "policy": self.policy,
            "agent": dict(self.agent),
            "behaviour_cards": deck_provenance(self.board),
            "deck": dict(remaining(self.board, ())),
            "explorers": dict(self.explorers),
            "explorers_stated": self.stated,
            "material": self.material,
            "triggers": self.triggers,
            "rulings": dict(self.rulings),
            "exact": False,
            "sampled": f"sampled: {len(self.games)} games",
            "seed": self.seed,
            "games_asked": self.asked,
            "games": len(self.games),
            "finished": self.finished,
            "distress": mean_interval([g.distress for g in self.games], 0),
            "nightmares": mean_interval([g.nightmares for g in self.games], 0),
            "per_first_card": {
                name: mean_interval([g.distress for g in self.games if g.first == name], 0)
                for name in names
            },
            "per_deal": [
                {
                    "nests": dict(nests),
                    "distress": mean_interval(
                        [g.distress for g in self.games if g.nests == nests], 0
                    ),
                }
                for nests in deals
            ],
        }


def sample(
    board: Board,
    explorers: tuple[tuple[str, str], ...],
    material: int,
    triggers: int,
    rulings: Mapping[str, str],
    agent: tuple[str, Mapping[str, Any]],
    play: Callable[[random.Random], Played],
    games: int,
    seed: int,
    budget: Budget | None = None,
) -> Sampled:
    """Play ``games`` games with ``play`` (game ``i`` from ``random.Random(f"{seed}/{i}")``),
    until done or the budget is spent between games. ``agent``: its policy and settings."""
    budget = budget or Budget()
    progress = Progress("kaelyfos balance: games", games)
    played: list[Played] = []
    for i in range(games):
        if budget.spent():
            break
        played.append(play(random.Random(f"{seed}/{i}")))
        progress.update(i + 1)
    progress.close()
    stated = bool(explorers)
    crew = tuple(sorted(explorers)) if stated else (("crew", str(board.scarab)),)
    policy, settings = agent
    return Sampled(
        board, crew, stated, material, triggers, dict(rulings), policy, settings, seed,
        games, tuple(played), len(played) == games,
    )  # fmt: skip
