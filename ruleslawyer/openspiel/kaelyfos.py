"""Unsettled: Kaelyfos as the OpenSpiel game ``ruleslawyer_kaelyfos``: the crew against
the next behaviour cards.

Kaelyfos is cooperative: the explorers win or lose together, so the game has **one
player, the crew**, against chance. Its return is minus the crew's total distress over
the horizon (``triggers`` behaviour cards; 0 is the best), so maximising it is what
``kaelyfos advise`` minimises first (expected total distress). Waking nightmares are
not in the return (what one does is not in the seed; ``advise`` counts them).

The game is ``advise``'s model of the crew's decision, driven by its functions: from
the position, before each trigger the crew takes free actions one at a time
(:func:`~ruleslawyer.solvers.kaelyfos.advise.legal_actions`: build a trap, destroy
one) or reveals the card; the card is drawn by chance from the deck left (by copies;
the deck reshuffled when out, as ``kaelyfos/exhausted-deck`` reads); the card
resolves (:func:`~ruleslawyer.models.kaelyfos.resolve.resolve`), and each choice it
meets is the crew's (who takes a distress, whose waking nightmare) or, where the
rules leave it to nobody (a pheromone tie, the order bloodsuckers move in, an open
trap tie), chance with each option equally likely (``advise/open-ties=uniform``).
Between triggers the explorers stay put (their movement is not modelled). Perfect
information, sequential, explicit chance.

Parameters: ``position`` (a file ``kaelyfos advise`` reads: the position, the crew's
material and the cards spent), or the board's start: ``board`` (an id or a board
file), the nests dealt by chance ("Randomly place a nest token"), ``explorers``
(``NAME=NODE`` entries, comma-separated; default the crew on the Scarab, "Place the
crew on the Scarab.", where no bloodsucker attacks), ``material`` (default 0), no
bloodsuckers, no traps, the whole supply. Both: ``triggers`` (default 1) and
``rulings`` (``ID=READING`` entries; the board's and the file's ``[rulings]``
first, these win).

Actions: 0 reveals the next card; ``1 + 2 i`` and ``2 + 2 i`` are explorer ``i``
(by name) destroying the trap on their node and building one; from ``1 + 2 E`` on
(``E`` explorers) the options of a choice the crew makes while a card resolves, in
the model's order. Chance outcomes: the deal's index in
:func:`~ruleslawyer.models.kaelyfos.setup.nest_deals`, the card's index among the
board's distinct behaviour cards (by name), an open choice's option.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from math import comb, factorial
from typing import Any

import pyspiel

from ruleslawyer.budget import Budget
from ruleslawyer.errors import InputError
from ruleslawyer.models.kaelyfos.advice_file import MAX_MATERIAL, load_advice
from ruleslawyer.models.kaelyfos.files import BUILT_IN, load_board
from ruleslawyer.models.kaelyfos.points import in_force
from ruleslawyer.models.kaelyfos.resolve import RULE_POINTS, Action, Card, Position, resolve
from ruleslawyer.models.kaelyfos.setup import explorer_sites, nest_deals
from ruleslawyer.models.kaelyfos.state import Readings
from ruleslawyer.openspiel import adapter
from ruleslawyer.solvers.kaelyfos.advise import Evaluator
from ruleslawyer.solvers.kaelyfos.options import (
    Deck,
    add_card,
    deck_of,
    legal_actions,
    next_position,
    remaining,
    settled,
    take,
    take_card,
)

NAME = "ruleslawyer_kaelyfos"
PARAMETERS = {
    "board": BUILT_IN,
    "position": "",
    "explorers": "",
    "material": 0,
    "triggers": 1,
    "rulings": "",
}
REVEAL = 0
MOST_ORDERS = 1 << 20  # a bound on the distinct ends of the bloodsuckers' move orders


@dataclass(frozen=True)
class Crew:
    """Where the crew's game stands.

    ``phase``: ``deal`` (the nests, by chance), ``act`` (the crew's free actions or the
    reveal), ``draw`` (the card, by chance), ``resolve`` (the card resolving: ``picks``
    are the options taken so far), ``end``. ``deck`` and ``revealed`` are the behaviour
    cards left and shown; ``first`` the first card drawn.
    """

    phase: str
    position: Position
    material: int
    deck: Deck
    revealed: Deck
    triggers: int
    distress: int = 0
    nightmares: int = 0
    card: str | None = None
    picks: tuple[tuple[str, int], ...] = ()
    first: str | None = None


class Kaelyfos(adapter.Machine):
    """``advise``'s model of the crew's decision (see the module doc), as OpenSpiel drives
    it: from ``position`` (its nests dealt by chance first when ``deal``), the crew with
    ``material``, the behaviour cards ``spent`` out of the deck, over ``triggers`` cards."""

    def __init__(
        self,
        position: Position,
        material: int,
        spent: tuple[str, ...],
        triggers: int,
        rulings: Mapping[str, str],
        deal: bool = False,
    ) -> None:
        self.board, self.triggers, self.rulings = position.board, triggers, dict(rulings)
        self.deals = tuple(sorted(nest_deals(self.board))) if deal else ()
        self.cards = {b.name: Card(b.spawn, b.move) for b in self.board.behaviors}
        self.names = tuple(sorted(self.cards))
        self.chosen = in_force(self.rulings)  # every point's reading, the defaults too
        self.evaluator = Evaluator(self.chosen, self.cards, Budget())
        self.readings = Readings(self.chosen)
        self.explorers = tuple(name for name, _ in position.explorers)
        deck = remaining(self.board, spent)
        start = Crew("deal", position, material, deck, deck_of(spent), triggers)
        self.first_state = start if deal else self._before_trigger(start, position)
        crew_size = len(self.explorers)
        markers = self.board.supply
        self.num_players = 1
        self.option_base = 1 + 2 * crew_size
        # the crew's options: a split of a node's attackers among the explorers there, or
        # whose waking nightmare it is
        splits = comb(markers + crew_size - 1, max(0, crew_size - 1))
        self.num_distinct_actions = self.option_base + max(splits, crew_size, 1)
        degree = max(Counter(n for e in self.board.edges for n in (e.a, e.b)).values(), default=1)
        orders = min(factorial(markers), MOST_ORDERS)
        self.max_chance_outcomes = max(len(self.deals), len(self.names), degree, orders)
        self.stochastic = True
        self.min_utility, self.max_utility = -float(markers * triggers), 0.0
        tokens = self.board.trap_tokens + self.board.doppelganger_trap_tokens
        per_trigger = 2 * material + tokens + 1 + len(self.board.node_ids) + 1
        self.max_game_length = per_trigger * triggers

    @classmethod
    def from_parameters(cls, params: Mapping[str, Any]) -> Kaelyfos:
        """The machine the OpenSpiel parameters describe (see the module doc)."""
        triggers = params["triggers"]
        if triggers < 1:
            raise InputError("OpenSpiel parameter", "triggers", triggers, "1 or more")
        if params["position"]:
            position, material, spent, in_files = _advice_file(params)
        else:
            board, source = load_board(params["board"])
            if not board.behaviors:
                raise InputError(source, "behavior", "no [[behavior]] cards", "a deck to draw")
            material, spent, in_files = params["material"], (), dict(board.rulings)
            if not 0 <= material <= MAX_MATERIAL:
                expected = f"0 to {MAX_MATERIAL}"
                raise InputError("OpenSpiel parameter", "material", material, expected)
            crew = _explorers(params["explorers"], board)
            nests = nest_deals(board)[0]  # dealt by chance: this one is never played
            position = Position(board, nests, board.supply, Card((), 0), crew)
        rulings = adapter.rulings(RULE_POINTS, in_files, params["rulings"], "rulings")
        return cls(position, material, spent, triggers, rulings, deal=not params["position"])

    def initial(self) -> Crew:
        return self.first_state

    def _before_trigger(self, crew: Crew, position: Position) -> Crew:
        """The crew before a trigger (or the end: no trigger or no card left)."""
        deck, revealed = self.evaluator.drawable(crew.deck, crew.revealed)
        phase = "end" if crew.triggers == 0 or not deck else "act"
        return replace(crew, phase=phase, position=settled(position), deck=deck, revealed=revealed)

    def _outcome(self, crew: Crew) -> Any:
        return resolve(crew.position, self.chosen, dict(crew.picks))

    def _decision(self, crew: Crew) -> Any:
        """The next choice the card resolving meets, or None when it has resolved."""
        taken = dict(crew.picks)
        return next((d for d in self._outcome(crew).decisions if d.key not in taken), None)

    def player(self, crew: Crew) -> int:
        if crew.phase == "end":
            return adapter.TERMINAL
        if crew.phase == "act":
            return 0
        if crew.phase == "resolve":
            decision = self._decision(crew)
            return 0 if decision is not None and decision.crew else adapter.CHANCE
        return adapter.CHANCE

    def moves(self, crew: Crew) -> list[tuple[int, Any]]:
        if crew.phase == "act":
            actions = legal_actions(crew.position, crew.material, self.readings)
            return [(REVEAL, "reveal"), *((self._action_id(a), a) for a in actions)]
        decision = self._decision(crew)
        return [(self.option_base + i, (decision.key, i)) for i in range(len(decision.labels))]

    def _action_id(self, action: Action) -> int:
        return 1 + 2 * self.explorers.index(action.explorer) + (action.kind == "build")

    def play(self, crew: Crew, move: Any) -> Crew:
        if crew.phase == "resolve":
            return self._pick(crew, move)
        if move == "reveal":
            return replace(crew, phase="draw")
        spent = move.kind == "build"
        after = take(crew.position, move, self.readings)
        return replace(crew, position=after, material=crew.material - spent)

    def _pick(self, crew: Crew, pick: tuple[str, int]) -> Crew:
        return self._resolving(replace(crew, picks=(*crew.picks, pick)))

    def _resolving(self, crew: Crew) -> Crew:
        """The card resolving with the options taken: it meets its next choice, or it has
        resolved (then the crew is before the next trigger)."""
        if self._decision(crew) is not None:
            return crew
        result = self._outcome(crew).result
        after = replace(
            crew,
            distress=crew.distress + sum(n for _, n in result.distress),
            nightmares=crew.nightmares + len(result.nightmares),
            triggers=crew.triggers - 1,
            card=None,
            picks=(),
        )
        return self._before_trigger(after, next_position(crew.position, result))

    def chances(self, crew: Crew) -> list[tuple[int, float, Crew]]:
        if crew.phase == "deal":
            share = 1 / len(self.deals)
            return [
                (i, share, self._before_trigger(crew, replace(crew.position, nests=nests)))
                for i, nests in enumerate(self.deals)
            ]
        if crew.phase == "draw":
            total = sum(c for _, c in crew.deck)
            return [(self.names.index(name), copies / total, self._drawn(crew, name))
                    for name, copies in crew.deck]  # fmt: skip
        decision = self._decision(crew)
        share = 1 / len(decision.labels)
        options = range(len(decision.labels))
        return [(i, share, self._pick(crew, (decision.key, i))) for i in options]

    def _drawn(self, crew: Crew, name: str) -> Crew:
        drawn = replace(
            crew,
            phase="resolve",
            card=name,
            position=replace(crew.position, card=self.cards[name]),
            deck=take_card(crew.deck, name),
            revealed=add_card(crew.revealed, name),
            first=crew.first or name,
        )
        return self._resolving(drawn)

    def returns(self, crew: Crew) -> tuple[int]:
        return (-crew.distress,)

    def move_text(self, crew: Crew, move: Any) -> str:
        if crew.phase == "resolve":
            return self._option_text(crew, move[1])
        if move == "reveal":
            return "reveal the next behaviour card"
        node = dict(crew.position.explorers)[move.explorer]
        return f"{move.explorer} {move.kind}s a trap on {node}"

    def _option_text(self, crew: Crew, option: int) -> str:
        decision = self._decision(crew)
        if decision is None or not 0 <= option < len(decision.labels):
            return f"option {option}"
        return f"{decision.description}: {decision.labels[option]}"

    def chance_text(self, crew: Crew, outcome: int, after: Crew) -> str:
        if crew.phase == "deal":
            return "nests " + ", ".join(f"{k}={v}" for k, v in after.position.nests)
        if crew.phase == "draw":
            return f"{self.names[outcome]} is revealed"
        return self._option_text(crew, outcome) + " (left open by the rules: equally likely)"

    def text(self, crew: Crew) -> str:
        p = crew.position
        lines = [
            f"phase: {crew.phase}",
            f"nests: {', '.join(f'{k}={v}' for k, v in p.nests)}",
            f"explorers: {', '.join(f'{k} on {v}' for k, v in p.explorers)}",
            f"bloodsuckers: {', '.join(f'{n} on {k}' for k, n in p.bloodsuckers) or 'none'}",
            f"traps: {', '.join(f'{t.node} ({t.caught} caught)' for t in p.traps) or 'none'}",
            f"supply: {p.supply}; removed from play: {p.removed_from_play}",
            f"material: {crew.material}; triggers left: {crew.triggers}",
            f"deck: {', '.join(f'{n} x{c}' for n, c in crew.deck) or 'empty'}",
            f"distress: {crew.distress}; waking nightmares: {crew.nightmares}",
        ]
        if crew.card is not None:
            lines.append(f"resolving: {crew.card}")
        return "\n".join(lines) + "\n"


def _advice_file(params: Mapping[str, Any]) -> tuple[Position, int, tuple[str, ...], dict]:
    """The ``position`` parameter's file: position, material, cards spent, its rulings."""
    for key in ("explorers", "material"):
        if params[key] != PARAMETERS[key]:
            found = f"{key}={params[key]}"
            raise InputError("OpenSpiel parameter", key, found, "none with a position (its own)")
    if params["board"] != BUILT_IN:
        found = f"board={params['board']}"
        raise InputError("OpenSpiel parameter", "board", found, "none with a position (its own)")
    loaded = load_advice(params["position"])
    in_files = {**dict(loaded.position.board.rulings), **dict(loaded.rulings)}
    return loaded.position, loaded.material, loaded.spent, in_files


def _explorers(text: str, board: Any) -> tuple[tuple[str, str], ...]:
    """The ``explorers`` parameter: names on face-up nodes; none: the crew on the Scarab."""
    placed = adapter.pairs(text, "explorers")
    sites = explorer_sites(board)
    for name, node in placed.items():
        if node not in sites:
            place = f"explorers.{name}"
            raise InputError(
                "OpenSpiel parameter", place, node, f"a face-up node ({', '.join(sites)})"
            )
    return tuple(sorted(placed.items())) or (("crew", str(board.scarab)),)


def load(
    *,
    board: str = BUILT_IN,
    position: str = "",
    explorers: tuple[tuple[str, str], ...] = (),
    material: int = 0,
    triggers: int = 1,
    rulings: Mapping[str, str] | None = None,
) -> adapter.ModelGame:
    """The registered game with these parameters (``pyspiel.load_game`` under its name)."""
    return pyspiel.load_game(
        NAME,
        {
            "board": board,
            "position": position,
            "explorers": adapter.pair_text(dict(explorers)),
            "material": material,
            "triggers": triggers,
            "rulings": adapter.pair_text(rulings or {}),
        },
    )


def game_of(
    position: Position,
    material: int,
    spent: tuple[str, ...],
    triggers: int,
    rulings: Mapping[str, str],
) -> adapter.ModelGame:
    """The game from a position in memory (a file's, or one built by a program): the same
    game ``load_game`` gives for an advice file holding it."""
    machine = Kaelyfos(position, material, spent, triggers, rulings)
    params = {**PARAMETERS, "position": "(in memory)", "triggers": triggers}
    return adapter.game_of(NAME, machine, params)


adapter.register(
    NAME,
    "ruleslawyer: Unsettled: Kaelyfos (the crew)",
    PARAMETERS,
    Kaelyfos.from_parameters,
    players=(1, 1),
    pair_parameters=("rulings", "explorers"),
)
