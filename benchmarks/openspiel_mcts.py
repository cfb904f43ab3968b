"""Benchmark: OpenSpiel's MCTS beside the project's own UCT agent for Twist of Fate, one run.

Run from the repository root:
``python benchmarks/openspiel_mcts.py [--games 30] [--simulations 30,100] [--lone both]``.

Three-player games from the standard start, played to their end (at most 30 rounds) by
the balance loop of :mod:`ruleslawyer.solvers.twist_of_fate.balance`. For each setting
of OpenSpiel's MCTS (``--policy mcts``: MCTSBot over the OpenSpiel game, random rollouts
to the game's end, UCT constant 2) two arrangements: one ``mcts`` seat against two
``uct`` seats (the project's UCT, 30 iterations a move, exact max^n for each round's last
5 plies, the balance default), and one ``uct`` seat against two ``mcts`` seats; the lone
seat rotates over the three seats, the games split evenly. Each row: the lone agent's
wins with the 95% Wilson interval (a third is what an equal agent wins), and each
agent's CPU seconds per move (``time.process_time`` around its decisions), in the same
run, on the same games.

First, the same work side by side: from the same positions (every player's turn of
three random 3-player games, each round's last 5 plies left out), 30 iterations of the
project's UCT (:func:`~ruleslawyer.solvers.twist_of_fate.mcts.search`) and 30
simulations of OpenSpiel's MCTSBot on the OpenSpiel game of the position cut at the end
of its round (random rollouts to the round's end: the horizon the project's UCT looks
to): CPU seconds per move of each, and how often they pick the same move.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from dataclasses import dataclass
from typing import Any

from ruleslawyer.models.twist_of_fate.files import Position, load_deck
from ruleslawyer.models.twist_of_fate.play import Rules, State
from ruleslawyer.openspiel.agents import Agent as OpenSpielAgent
from ruleslawyer.openspiel.agents import OnModel
from ruleslawyer.openspiel.twist_of_fate import load
from ruleslawyer.solvers.balance_stats import wilson
from ruleslawyer.solvers.twist_of_fate.balance import Agent, Tally, decide, play_game

DECK = load_deck("twist-of-fate")
RULES = Rules()
NAMES = ("seat 1", "seat 2", "seat 3")


@dataclass
class Timed:
    """A seat's agent with the CPU time of its decisions counted."""

    label: str
    inner: Any
    cpu: float = 0.0
    moves: int = 0
    policy: str = "timed"

    def move(self, state: State, players: int, rng: random.Random) -> Any:
        began = time.process_time()
        if isinstance(self.inner, OnModel):
            chosen = self.inner.move(state, players, rng)
        else:
            position = Position(state, NAMES, DECK, {})
            chosen = decide(state, position, RULES, self.inner, rng, Tally(players))
        self.cpu += time.process_time() - began
        self.moves += 1
        return chosen


def same_work(iterations: int = 30) -> dict[str, Any]:
    """Both searches with the same iterations and horizon, from the same positions."""
    import numpy as np
    from open_spiel.python.algorithms import mcts as openspiel_mcts

    from ruleslawyer.models.twist_of_fate.play import legal_moves, play, start
    from ruleslawyer.openspiel.twist_of_fate import game_of
    from ruleslawyer.solvers.twist_of_fate.balance import plies_left
    from ruleslawyer.solvers.twist_of_fate.mcts import search

    cpu = {"uct": 0.0, "mcts": 0.0}
    moves = same = 0
    for g in range(3):
        rng = random.Random(f"same-work/{g}")
        state = start(3, DECK)
        while not state.over and not state.round_over:
            if plies_left(state) > 5:
                began = time.process_time()
                ours, _ = search(state, DECK, RULES, iterations, 0.1, rng)
                cpu["uct"] += time.process_time() - began
                game = game_of(Position(state, NAMES, DECK, {}), RULES, max_rounds=1)
                numbers = np.random.RandomState(rng.getrandbits(32))
                began = time.process_time()
                evaluator = openspiel_mcts.RandomRolloutEvaluator(1, numbers)
                bot = openspiel_mcts.MCTSBot(game, 2.0, iterations, evaluator, random_state=numbers)
                action = bot.step(game.new_initial_state())
                cpu["mcts"] += time.process_time() - began
                theirs = game.machine.move_of(state, action)
                moves += 1
                same += theirs == ours
            state = play(state, rng.choice(legal_moves(state, DECK, RULES)), DECK, RULES)
    return {"moves": moves, "same": same, **{k: v / moves for k, v in cpu.items()}}


def arrangement(lone: str, others: str, simulations: int, games: int) -> dict[str, Any]:
    mcts = OnModel(OpenSpielAgent("mcts", simulations=simulations),
                   lambda players: load(players=players, max_rounds=30))  # fmt: skip
    agents = {"uct": Agent(), "mcts": mcts}
    timed = {name: Timed(name, agents[name]) for name in (lone, others)}
    wins = played = 0
    for seat in range(3):
        seats = [timed[lone] if s == seat else timed[others] for s in range(3)]
        for i in range(games // 3):
            tally = Tally(3)
            rng = random.Random(f"openspiel-mcts/{lone}/{simulations}/{seat}/{i}")
            play_game(3, DECK, RULES, {}, seats, rng, 30, tally)
            wins += tally.wins[seat]
            played += 1
    low, high = wilson(wins, played)
    return {"wins": wins, "games": played, "interval": (low, high), "timed": timed}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=30, help="games per arrangement")
    parser.add_argument("--simulations", default="30,100", help="MCTS settings to try")
    parser.add_argument(
        "--lone", choices=("mcts", "uct", "both"), default="both", help="the lone seat's agent"
    )
    args = parser.parse_args()
    pairs = [("mcts", "uct"), ("uct", "mcts")]
    pairs = [p for p in pairs if args.lone in (p[0], "both")]
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}")
    work = same_work()
    print("| the same work (30 iterations, to the round's end) | uct | OpenSpiel MCTS |")
    print("|---|---:|---:|")
    print(f"| CPU s per move, {work['moves']} positions | {work['uct']:.4f} | {work['mcts']:.4f} |")
    print(f"| the same move picked | {work['same']} of {work['moves']} | |")
    print()
    print("| lone seat | against | lone wins | of | 95% interval | "
          "mcts CPU s/move (moves) | uct CPU s/move (moves) |")  # fmt: skip
    print("|---|---|---:|---:|---|---:|---:|")
    for simulations in (int(s) for s in args.simulations.split(",")):
        for lone, others in pairs:
            row = arrangement(lone, others, simulations, args.games)
            low, high = row["interval"]
            per = {
                name: f"{t.cpu / t.moves:.4f} ({t.moves})" if t.moves else "-"
                for name, t in row["timed"].items()
            }
            name = {"mcts": f"mcts ({simulations} simulations)", "uct": "uct (default)"}
            cells = (name[lone], f"2 x {name[others]}", row["wins"], row["games"],
                     f"[{low:.3f}, {high:.3f}]", per["mcts"], per["uct"])  # fmt: skip
            print("| " + " | ".join(map(str, cells)) + " |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
