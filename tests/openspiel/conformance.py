"""What every registered OpenSpiel game of the project must answer; a game adds its :class:`Case`.

:func:`check` runs OpenSpiel's own random-simulation test on the game
(``pyspiel.random_sim_test``: legal actions sorted and in range, chance probabilities
that sum to 1, returns within the game's bounds, its length, states rebuilt from the
game string and the history), then seeded random games of its own. At every state of
both it asks the game's model:

- the state is one the model accepts (``Case.accepts``: the problems the model finds;
  none expected);
- at a player's turn, the legal actions are the model's own legal moves in the model's
  order (``Case.legal``), with ascending ids, each named differently;
- at a terminal state, the returns are the ones the model gives (``Case.returns``,
  worked out from the model's state, not through the adapter).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyspiel

import ruleslawyer.openspiel  # noqa: F401 (registers the games)
from ruleslawyer.openspiel.agents import chance

Machine = Any
ModelState = Any


@dataclass(frozen=True)
class Case:
    """One game with parameters, and what its model says about a state."""

    name: str  # the test's id
    game: str
    params: Mapping[str, Any]
    accepts: Callable[[Machine, ModelState], list[str]]
    legal: Callable[[Machine, ModelState], Sequence[Any]]
    returns: Callable[[Machine, ModelState], Sequence[float]]
    sims: int = 4
    seen: dict[int, int] = field(default_factory=dict, compare=False)  # states per player


def problems_at(case: Case, game: Any, state: Any) -> list[str]:
    """What is wrong with ``state`` (a pyspiel state of ``game``) by the case's model."""
    machine, model = game.machine, state.model
    found = [f"not accepted: {p}" for p in case.accepts(machine, model)]
    player = state.current_player()
    case.seen[player] = case.seen.get(player, 0) + 1
    if state.is_terminal():
        given, expected = state.returns(), [float(r) for r in case.returns(machine, model)]
        if given != expected:
            found.append(f"returns {given}, the model gives {expected}")
        return found
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        if abs(sum(p for _, p in outcomes) - 1) > 1e-9 or not outcomes:
            found.append(f"chance outcomes {outcomes}")
        return found
    actions = state.legal_actions()
    if actions != sorted(set(actions)):
        found.append(f"legal actions not ascending: {actions}")
    moves = [move for _, move in machine.moves(model)]
    if [a for a, _ in machine.moves(model)] != actions or moves != list(case.legal(machine, model)):
        found.append("the legal actions are not the model's legal moves in its order")
    names = [state.action_to_string(player, a) for a in actions]
    if len(set(names)) != len(names):
        found.append(f"two actions named alike: {names}")
    state.information_state_string(player)
    state.observation_string(player)
    return found


def check(case: Case) -> None:
    """Run the game through OpenSpiel's test and seeded random games; assert no problem."""
    game = pyspiel.load_game(case.game, dict(case.params))
    assert pyspiel.load_game(str(game)) == game, str(game)  # the game string loads it
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    found: list[str] = []

    def checker(state: Any) -> None:
        found.extend(problems_at(case, game, state))

    pyspiel.random_sim_test(
        game, num_sims=case.sims, serialize=True, verbose=False, state_checker_fn=checker
    )
    for seed in range(case.sims):
        rng = random.Random(f"conformance/{case.name}/{seed}")
        state = game.new_initial_state()
        while True:
            found.extend(problems_at(case, game, state))
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert found == [], found[:5]
    if kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC:
        assert int(pyspiel.PlayerId.CHANCE) not in case.seen
