"""Agents over any registered game: one interface, the field's searches behind it.

An :class:`Agent` picks an action in a ``pyspiel`` state: ``mcts`` is OpenSpiel's
:class:`~open_spiel.python.algorithms.mcts.MCTSBot` (UCT over the game tree, every
player maximising its own return, chance sampled by its probabilities, random
rollouts to the game's end at the leaves); ``ismcts`` OpenSpiel's
:class:`~open_spiel.python.algorithms.ismcts.ISMCTSBot` for the games with hidden
information (one tree over the acting players' information states, each simulation in
a world drawn from the searching player's information state by the game's
``resample``, the same random rollouts); ``random`` a uniformly random legal action (a
reference point).

Two ways to use one: :func:`play` runs a whole game of a ``pyspiel`` game, chance
drawn by its probabilities; :class:`OnModel` lets an agent decide inside a game loop
that runs on the project's own model (the model's state becomes the game's state,
the action the model's move). Every decision draws its search's seed from the
caller's generator, so a seeded game is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ruleslawyer.openspiel.adapter import CHANCE, ModelGame, ModelState

POLICIES = ("mcts", "ismcts", "random")
FINAL_POLICIES = {
    "max-visit-count": ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    "normalized-visit-count": ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT,
    "max-value": ismcts.ISMCTSFinalPolicyType.MAX_VALUE,
}
FINAL_WORDS = {
    "max-visit-count": "the most visited action is played (ties drawn at random)",
    "normalized-visit-count": "an action is drawn in proportion to its visits",
    "max-value": "the action of the highest mean return is played (ties drawn at random)",
}
EVALUATOR = (
    "random rollouts: from the leaf, uniformly random legal actions (chance by its "
    "probabilities) to the game's end, the returns averaged over {rollouts} rollout(s)"
)


@dataclass(frozen=True)
class Agent:
    """A policy and its settings (``simulations``, ``uct_c``, ``rollouts``: the searches';
    ``final_policy``: ``ismcts``'s choice from its root, one of :data:`FINAL_POLICIES`)."""

    policy: str = "mcts"
    simulations: int = 100
    uct_c: float = 2.0
    rollouts: int = 1
    final_policy: str = "max-visit-count"

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise ValueError(f"{self.policy}: not one of {', '.join(POLICIES)}")
        if self.final_policy not in FINAL_POLICIES:
            raise ValueError(f"{self.final_policy}: not one of {', '.join(FINAL_POLICIES)}")

    def describe(self) -> dict[str, Any]:
        """The agent's settings, in words and as fields."""
        if self.policy == "random":
            return {
                "name": "random",
                "text": "random: a uniformly random legal action at every choice (a reference "
                "point, not a strong agent)",
            }
        evaluator = EVALUATOR.format(rollouts=self.rollouts)
        if self.policy == "ismcts":
            return {
                "name": "ismcts",
                "text": (
                    f"ismcts: OpenSpiel's information-set MCTS "
                    f"(open_spiel.python.algorithms.ismcts.ISMCTSBot) over the OpenSpiel game, "
                    f"{self.simulations} simulations per move, UCT constant {self.uct_c}; one "
                    f"tree over the players' information states, each simulation in a world "
                    f"drawn uniformly from those the searching player cannot tell apart; every "
                    f"player maximises its own return; chance sampled by its probabilities; "
                    f"final policy {self.final_policy}: {FINAL_WORDS[self.final_policy]}"
                ),
                "implementation": "OpenSpiel",
                "simulations": self.simulations,
                "uct_c": self.uct_c,
                "final_policy": self.final_policy,
                "evaluator": evaluator,
                "rollouts": self.rollouts,
                "seed": "each decision's search and worlds are seeded from the game's generator",
            }
        return {
            "name": "mcts",
            "text": (
                f"mcts: OpenSpiel's MCTS (open_spiel.python.algorithms.mcts.MCTSBot) over the "
                f"OpenSpiel game, {self.simulations} simulations per move, UCT constant "
                f"{self.uct_c}; every player maximises its own return (max^n); chance nodes "
                f"sampled by their probabilities; solved subtrees backed up (MCTS-Solver); "
                f"the most visited action is played"
            ),
            "implementation": "OpenSpiel",
            "simulations": self.simulations,
            "uct_c": self.uct_c,
            "evaluator": evaluator,
            "rollouts": self.rollouts,
            "seed": "each decision's search is seeded from the game's generator",
        }

    def step(self, game: pyspiel.Game, state: pyspiel.State, rng: random.Random) -> int:
        """The action the agent takes in ``state`` (a player to move)."""
        if self.policy == "random":
            return rng.choice(state.legal_actions())
        numbers = np.random.RandomState(rng.getrandbits(32))
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, numbers)
        if self.policy == "ismcts":
            worlds = random.Random(rng.getrandbits(32))
            searcher = ismcts.ISMCTSBot(
                game, evaluator, self.uct_c, self.simulations, random_state=numbers,
                final_policy_type=FINAL_POLICIES[self.final_policy],
            )  # fmt: skip
            searcher.set_resampler(lambda here, player: here.resample(player, worlds))
            return int(searcher.step(state))
        bot = mcts.MCTSBot(game, self.uct_c, self.simulations, evaluator, random_state=numbers)
        return int(bot.step(state))


def chance(state: pyspiel.State, rng: random.Random) -> int:
    """A chance outcome drawn by its probability."""
    outcomes = state.chance_outcomes()
    return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]


def play(game: pyspiel.Game, agents: Sequence[Agent], rng: random.Random) -> pyspiel.State:
    """One whole game from the game's first state: player ``p`` played by ``agents[p]``
    (or ``agents[0]`` for all), chance drawn by its probabilities; the terminal state."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            action = chance(state, rng)
        else:
            agent = agents[state.current_player()] if len(agents) > 1 else agents[0]
            action = agent.step(game, state, rng)
        state.apply_action(action)
    return state


@dataclass
class OnModel:
    """An agent deciding in a game loop run on the project's model.

    ``load`` builds the ``pyspiel`` game for a number of players (kept per count);
    its machine's states are the model's, so the loop's state is searched as it is.
    """

    agent: Agent
    load: Callable[[int], ModelGame]
    extra: Mapping[str, Any] = field(default_factory=dict)  # the game's words for describe()
    games: dict[int, ModelGame] = field(default_factory=dict)

    @property
    def policy(self) -> str:
        return self.agent.policy

    def describe(self) -> dict[str, Any]:
        return {**self.agent.describe(), **self.extra}

    def move(self, state: Any, players: int, rng: random.Random) -> Any:
        """The model's move the agent plays in the model's ``state``."""
        game = self.games.get(players)
        if game is None:
            game = self.games[players] = self.load(players)
        at = game.machine.with_state(state)
        action = self.agent.step(game, ModelState(game, game.machine, at), rng)
        return dict(game.machine.moves(at))[action]
