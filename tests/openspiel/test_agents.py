"""The agents over the OpenSpiel games: OpenSpiel's MCTS finds what a hand finds, games replay
from their seed, and an agent decides in a loop run on the model."""

from __future__ import annotations

import random
from pathlib import Path

import pyspiel
import pytest

import ruleslawyer.openspiel  # noqa: F401 (registers the games)
from ruleslawyer.models.twist_of_fate.files import load_position
from ruleslawyer.models.twist_of_fate.play import Rules, legal_moves
from ruleslawyer.openspiel import kaelyfos, twist_of_fate
from ruleslawyer.openspiel.agents import Agent, OnModel, chance, play

ROOT = Path(__file__).resolve().parents[2]


def test_mcts_takes_the_win_now() -> None:
    # win-now.toml: Ann wins at once with Nancy facing the side that gives her Luck (see
    # tests/openspiel/test_twist_of_fate.py); MCTS-Solver proves it with few simulations.
    path = ROOT / "examples" / "twist-of-fate" / "win-now.toml"
    game = pyspiel.load_game(twist_of_fate.NAME, {"players": 3, "position": str(path)})
    state = game.new_initial_state()
    action = Agent("mcts", simulations=50).step(game, state, random.Random(0))
    state.apply_action(action)
    assert state.is_terminal() and state.returns()[0] == 1.0


def test_mcts_builds_the_trap_on_the_tiny_board(tmp_path: Path) -> None:
    # the hand-worked tiny board (tests/openspiel/test_kaelyfos.py): building the trap
    # first gives 1 distress, revealing at once 2; the card is certain, so the search
    # proves it.
    advice = tmp_path / "advice.toml"
    board = (ROOT / "examples" / "kaelyfos" / "tiny-board.toml").as_posix()
    advice.write_text(
        f'board = "{board}"\n'
        'nests = { A = "vesicle-cluster", B = "bony-protrusion", C = "glowing-fold" }\n'
        'supply = 4\nexplorers = { ada = "bony-protrusion" }\nmaterial = 1\n',
        "utf-8",
    )
    game = pyspiel.load_game(kaelyfos.NAME, {"position": str(advice)})
    state = game.new_initial_state()
    action = Agent("mcts", simulations=100).step(game, state, random.Random(0))
    assert state.action_to_string(action) == "ada builds a trap on bony-protrusion"
    end = play(game, [Agent("mcts", simulations=100)], random.Random(1))
    assert end.returns() == [-1.0]


def test_a_seeded_game_replays_and_another_seed_differs() -> None:
    game = pyspiel.load_game(twist_of_fate.NAME, {"players": 2, "max_rounds": 2})
    agents = [Agent("mcts", simulations=4), Agent("random")]
    first = play(game, agents, random.Random("seed/0"))
    again = play(game, agents, random.Random("seed/0"))
    other = play(game, agents, random.Random("seed/1"))
    assert first.history() == again.history() != other.history()
    assert first.is_terminal() and first.returns() in ([1, -1], [-1, 1], [-1, -1], [0, 0])


def test_an_agent_moves_in_the_models_own_loop() -> None:
    # balance runs its games on the model: the agent searches the game of that state.
    position = load_position(ROOT / "examples" / "twist-of-fate" / "brownlow.toml")

    def load(players: int) -> pyspiel.Game:
        return twist_of_fate.load(players=players, max_rounds=1)

    agent = OnModel(Agent("mcts", simulations=20), load, {"horizon": "the round"})
    move = agent.move(position.state, 3, random.Random(0))
    assert move in legal_moves(position.state, position.deck, Rules())
    assert agent.describe()["horizon"] == "the round" and agent.policy == "mcts"


def test_ismcts_does_not_throw_the_last_round_away() -> None:
    # last-round-win.toml (tests/openspiel/test_twisted_cryptids.py): trail mix on trailhead
    # loses for certain, every other move wins 1 time in 5; ISMCTS, searching worlds drawn
    # from ann's information state, never plays the loss.
    from ruleslawyer.openspiel import twisted_cryptids

    game = twisted_cryptids.load(record=str(ROOT / "examples/twisted-cryptids/last-round-win.toml"))
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(chance(state, rng))
        action = Agent("ismcts", simulations=200).step(game, state, rng)
        assert state.action_to_string(action) != "ann plays trail-mix on trailhead (hand card 1)"


def test_a_seeded_ismcts_game_replays() -> None:
    from ruleslawyer.openspiel import twisted_cryptids

    game = twisted_cryptids.load(record=str(ROOT / "examples/twisted-cryptids/advise-day.toml"))
    agents = [Agent("ismcts", simulations=10), Agent("ismcts", simulations=10, uct_c=1.0)]
    first = play(game, agents, random.Random("tc/0"))
    again = play(game, agents, random.Random("tc/0"))
    assert first.history() == again.history() and first.is_terminal()


def test_agents_state_their_settings() -> None:
    mcts = Agent("mcts", simulations=7, uct_c=0.5, rollouts=3).describe()
    assert (mcts["simulations"], mcts["uct_c"], mcts["rollouts"]) == (7, 0.5, 3)
    assert "3 rollout(s)" in mcts["evaluator"] and "seeded" in mcts["seed"]
    assert Agent("random").describe()["name"] == "random"
    ismcts = Agent("ismcts", simulations=9, uct_c=1.5, final_policy="max-value").describe()
    assert (ismcts["simulations"], ismcts["uct_c"], ismcts["final_policy"]) == (9, 1.5, "max-value")
    assert "ISMCTSBot" in ismcts["text"] and "highest mean return" in ismcts["text"]
    with pytest.raises(ValueError, match="clever"):
        Agent("clever")
