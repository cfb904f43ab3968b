"""Twist of Fate as the OpenSpiel game ``ruleslawyer_twist_of_fate``.

Sequential, perfect information (every card in hand and in front is open in the
model), general-sum. Chance, explicit: the 2-player variant's draws (the starting
player and each player's three extra cards at the start, the cards drawn at the end
of round 2 and later) with the model's exact weights; at 3-4 players nothing is
random and the game type says ``DETERMINISTIC``. The Monks (2-player variant) choose
nothing: they are not an OpenSpiel player.

Returns, from the game's own end as the model decides it (Game End: "the game
immediately ends and that player wins"): +1 to the winner, -1 to every other
player (a Monks win is -1 to both players). A game still going when its
``max_rounds``-th round ends (counting the starting position's round as the first),
or one the rules give no way on for (a round end with no next round to deal, a
player with cards and no legal move), ends with no winner: 0 to every player.
These are the outcome components (1 won, 0 open, -1 lost) of the project's
outcome-ranked utility (:mod:`~ruleslawyer.solvers.twist_of_fate.common`).

Parameters: ``players`` (2-4; default 3; a position file's count must match),
``deck`` (a deck id or file for the standard start), ``position`` (a position file
to start from instead: any puzzle ``solve`` reads, without ``[[hidden]]`` cards),
``rulings`` (``ID=READING`` entries, comma-separated; the position file's
``[rulings]`` first, these win) and ``max_rounds`` (default 30).

Actions: ``(card * seats + target) * 8 + way``, the card's index in the deck, the
target seat, and the way it is played (0, 1: face up with that side, in deck order,
facing the target; 2-5: face down, the player raising Luck or Shilling, the target
Luck or Shilling, in that order; 6, 7: face down in front of oneself, raising Luck or
Shilling). Legal actions are :func:`~ruleslawyer.models.twist_of_fate.play.legal_moves`
in its order (ascending ids); a chance outcome's id is its index in the model's list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

import pyspiel

from ruleslawyer.errors import InputError
from ruleslawyer.gamefiles.source import read_toml
from ruleslawyer.models.twist_of_fate.files import (
    GAME_ID,
    Position,
    dumps,
    load_deck,
    position_from_document,
    state_document,
)
from ruleslawyer.models.twist_of_fate.play import (
    FACE_UP,
    LUCK,
    RULE_POINTS,
    SHILLING,
    Deck,
    Move,
    Rules,
    State,
    chance_outcomes,
    legal_moves,
    play,
    seat_names,
    start,
    start_two_player,
)
from ruleslawyer.openspiel import adapter
from ruleslawyer.solvers.twist_of_fate.balance import deck_problem
from ruleslawyer.solvers.twist_of_fate.common import horizon_vector

NAME = "ruleslawyer_twist_of_fate"
RETURNS = (
    "+1 to the winner, -1 to every other player (a Monks win: -1 to both players); 0 to "
    "every player when the game ends with no winner"
)
HORIZON = (
    "the whole game: rollouts run to the game's end, or to the end of round --max-rounds "
    "(then no winner)"
)
PARAMETERS = {"players": 3, "deck": GAME_ID, "position": "", "rulings": "", "max_rounds": 30}
WAYS = 8
RAISES = (LUCK, SHILLING)


@dataclass(frozen=True)
class Undealt:
    """The 2-player variant before its random set-up (the game's first chance node)."""


def way(move: Move, player: int) -> int:
    """How ``move`` is played, as a number 0-7 (see the module doc)."""
    if move.play == FACE_UP:
        return move.side or 0
    if move.target == player:
        return 6 + RAISES.index(move.player_raises)
    return 2 + 2 * RAISES.index(move.player_raises) + RAISES.index(move.target_raises)


class TwistOfFate(adapter.Machine):
    """The model of :mod:`ruleslawyer.models.twist_of_fate.play`, as OpenSpiel drives it:
    from ``first`` (a state, or the 2-player variant before its draws) to the end of
    the game or of round ``last_round``."""

    def __init__(
        self,
        first: State | Undealt,
        names: tuple[str, ...],
        deck: Deck,
        rules: Rules,
        rounds: int,
        players: int,
    ) -> None:
        self.first, self.names, self.deck, self.rules = first, names, deck, rules
        self.recent: dict[State | Undealt, tuple[tuple[int, State], ...]] = {}
        round_now = 1 if isinstance(first, Undealt) else first.round
        self.last_round = round_now + rounds - 1
        cards = len(deck.names)
        self.num_players = players
        self.num_distinct_actions = cards * len(names) * WAYS
        # chance: the 2-player set-up (2 starters x the draws of 3 cards per player) and,
        # at the end of round 2 and later, 3 of the 6 unused cards x 3 of the Monks' 6
        draws_between = players == 2 and self.last_round - 1 >= max(round_now, 2)
        self.stochastic = isinstance(first, Undealt) or draws_between
        setup = 2 * comb(cards, 3) ** 2 if isinstance(first, Undealt) else 0
        self.max_chance_outcomes = max(setup, comb(6, 3) ** 2 if draws_between else 0)
        self.min_utility, self.max_utility = -1.0, 1.0
        # each card in the game is played at most once a round
        self.max_game_length = _cards_in_game(first, cards) * rounds

    @classmethod
    def from_parameters(cls, params: Mapping[str, Any]) -> TwistOfFate:
        """The machine the OpenSpiel parameters describe (see the module doc)."""
        players, rounds = params["players"], params["max_rounds"]
        if not 2 <= players <= 4:
            raise InputError("OpenSpiel parameter", "players", players, "2, 3 or 4")
        if rounds < 1:
            raise InputError("OpenSpiel parameter", "max_rounds", rounds, "1 or more")
        if params["position"]:
            position, rules = _position(params)
            if position.state.players != players:
                found = f"players={players}"
                expected = f"players={position.state.players}, as {params['position']} has"
                raise InputError("OpenSpiel parameter", "players", found, expected)
            names = seat_names(position.state, position.names)
            return cls(position.state, names, position.deck, rules, rounds, players)
        rules = Rules.from_rulings(adapter.rulings(RULE_POINTS, {}, params["rulings"], ""))
        deck = load_deck(params["deck"])
        problem = deck_problem(deck, (players,))
        if problem is not None:
            raise InputError(params["deck"], "character", *problem)
        first = Undealt() if players == 2 else start(players, deck)
        names = tuple(f"seat {p + 1}" for p in range(players))
        return cls(
            first, names + (("Monks",) if players == 2 else ()), deck, rules, rounds, players
        )

    def initial(self) -> State | Undealt:
        return self.first if isinstance(self.first, Undealt) else self._settled(self.first)

    def _settled(self, state: State) -> State:
        """A round end with one way on (3-4 players: no chance) goes straight on."""
        while state.round_over and not state.over and state.round < self.last_round:
            outcomes = self._outcomes(state)
            if len(outcomes) != 1:
                break
            state = outcomes[0][1]
        return state

    def player(self, state: State | Undealt) -> int:
        if isinstance(state, Undealt):
            return adapter.CHANCE
        if state.over:
            return adapter.TERMINAL
        if state.round_over:
            if state.round >= self.last_round or not self._outcomes(state):
                return adapter.TERMINAL
            return adapter.CHANCE
        if not legal_moves(state, self.deck, self.rules):  # a gap: cards, nowhere to play
            return adapter.TERMINAL
        return state.active

    def _outcomes(self, state: State | Undealt) -> tuple[tuple[int, State], ...]:
        """The model's random outcomes (weight, state) here; the last few kept, since who
        is to act and what the outcomes are both ask."""
        if state not in self.recent:
            if len(self.recent) > 16:
                self.recent.clear()
            self.recent[state] = (
                start_two_player(self.deck)
                if isinstance(state, Undealt)
                else chance_outcomes(state, self.deck, self.rules)
            )
        return self.recent[state]

    def action(self, state: State, move: Move) -> int:
        card = self.deck.names.index(move.card)
        return (card * len(self.names) + move.target) * WAYS + way(move, state.active)

    def moves(self, state: State) -> list[tuple[int, Move]]:
        return [(self.action(state, m), m) for m in legal_moves(state, self.deck, self.rules)]

    def play(self, state: State, move: Move) -> State:
        return self._settled(play(state, move, self.deck, self.rules))

    def chances(self, state: State | Undealt) -> list[tuple[int, float, State]]:
        outcomes = self._outcomes(state)
        total = sum(w for w, _ in outcomes)
        return [(i, w / total, self._settled(s)) for i, (w, s) in enumerate(outcomes)]

    def returns(self, state: State) -> tuple[int, ...]:
        return tuple(u[0] for u in horizon_vector(state))

    def move_text(self, state: State, move: Move) -> str:
        head = f"{move.card} on {self.names[move.target]}"
        if move.play == FACE_UP:
            return f"{head}, face up, side {move.side + 1} facing them"
        raises = f"{self.names[state.active]} raises {move.player_raises}"
        if move.target_raises is not None:
            raises += f", {self.names[move.target]} raises {move.target_raises}"
        return f"{head}, face down ({raises})"

    def chance_text(self, state: State | Undealt, outcome: int, after: State) -> str:
        hands = "; ".join(
            f"{self.names[p]} holds {', '.join(after.seats[p].hand)}" for p in range(after.players)
        )
        return f"round {after.round}: {self.names[after.starter]} starts; {hands}"

    def text(self, state: State | Undealt) -> str:
        if isinstance(state, Undealt):
            return "the 2-player variant before its set-up draws\n"
        doc = state_document(state, self.names[: state.players])
        body = dumps(doc)
        if state.over:
            body += f"# {self.names[state.winner]} won\n"
        return body

    def move_of(self, state: State, action: int) -> Move:
        """The model's move for an action id legal in ``state``."""
        return dict(self.moves(state))[action]


def _cards_in_game(state: State | Undealt, cards: int) -> int:
    """Every character card in the game: the 2-player variant deals two sets a player."""
    if isinstance(state, Undealt):
        return 2 * 2 * cards
    held = (len(s.hand) + len(s.in_front) + len(s.self_played) for s in state.seats)
    return sum(held) + sum(len(s) for s in state.saved) + len(state.unused)


def _position(params: Mapping[str, Any]) -> tuple[Position, Rules]:
    """The position file and the rules in force (the file's rulings, then the parameter's)."""
    if params["deck"] != GAME_ID:
        found = f"deck={params['deck']}"
        raise InputError("OpenSpiel parameter", "deck", found, "no deck with a position (its own)")
    path = Path(params["position"])
    _, doc = read_toml(path)
    in_file = doc.get("rulings", {})
    chosen = adapter.rulings(RULE_POINTS, in_file if isinstance(in_file, dict) else {},
                             params["rulings"], str(path))  # fmt: skip
    rules = Rules.from_rulings(chosen)
    position = position_from_document(doc, str(path), relative_to=path.parent, rules=rules)
    if position.hidden:
        raise InputError(
            str(path), "hidden", f"{len(position.hidden)} [[hidden]] table(s)",
            "no hidden cards: this OpenSpiel game is perfect information",
        )  # fmt: skip
    return position, rules


def load(
    *,
    players: int,
    deck: str = GAME_ID,
    position: str = "",
    rulings: Mapping[str, str] | None = None,
    max_rounds: int = PARAMETERS["max_rounds"],
) -> adapter.ModelGame:
    """The registered game with these parameters (``pyspiel.load_game`` under its name)."""
    params = {"players": players, "deck": deck, "position": position, "max_rounds": max_rounds,
              "rulings": adapter.pair_text(rulings or {})}  # fmt: skip
    return pyspiel.load_game(NAME, params)


def game_of(position: Position, rules: Rules, max_rounds: int = 1) -> adapter.ModelGame:
    """The game from a position in memory (a file's, or one built by a program): the same
    game ``load_game`` gives for its file, to the end of the game or of its
    ``max_rounds``-th round."""
    names = seat_names(position.state, position.names)
    players = position.state.players
    machine = TwistOfFate(position.state, names, position.deck, rules, max_rounds, players)
    params = {**PARAMETERS, "players": players, "position": "(in memory)", "max_rounds": max_rounds}
    return adapter.game_of(NAME, machine, params)


adapter.register(
    NAME, "ruleslawyer: Twist of Fate", PARAMETERS, TwistOfFate.from_parameters, players=(2, 4)
)
