"""Benchmark: OpenSpiel's ISMCTS against the advise agent, Twisted Cryptids head to head, one run.

Run from the repository root:
``python benchmarks/twisted_cryptids_ismcts.py [--games 10] [--simulations 20]``.

Two-player games of the built-in (placeholder) data, dealt and played by the balance loop
(:func:`~ruleslawyer.solvers.twisted_cryptids.simulate.agent_game`, game ``i`` with seed
``i``): one seat ``ismcts`` (``balance --policy ismcts``: OpenSpiel's ISMCTSBot over
``ruleslawyer_twisted_cryptids`` from the seat's information state, random rollouts to the
game's end, UCT constant 2, the most visited move), the other ``advise`` (``balance --policy
advise``: the move ``advise`` ranks first from the seat's view, its default averaging);
``--games`` games with ISMCTS in seat 1 and as many in seat 2, on the same seeds. The
reference in the same run: a uniformly random seat against the same advise agent, on the
same seeds and seats. Each row: the first agent's wins with the 95% Wilson interval (a
shared win counts for both; an agent as strong as advise wins about half), and each agent's
CPU seconds per game and per move (``time.process_time`` around its own decisions).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from dataclasses import dataclass
from typing import Any

from ruleslawyer.models.twisted_cryptids.game import builtin_game
from ruleslawyer.models.twisted_cryptids.play import GameMove, State, winners
from ruleslawyer.openspiel import twisted_cryptids
from ruleslawyer.openspiel.agents import Agent as OpenSpielAgent
from ruleslawyer.openspiel.agents import OnModel
from ruleslawyer.solvers.balance_stats import wilson
from ruleslawyer.solvers.twisted_cryptids.balance import Agent
from ruleslawyer.solvers.twisted_cryptids.simulate import agent_game

GAME = builtin_game()


@dataclass
class Timed:
    """A seat's agent with the CPU time of its decisions counted."""

    agent: Agent
    cpu: float = 0.0
    moves: int = 0

    def choose(self, state: State, rng: random.Random, seed: int) -> GameMove:
        began = time.process_time()
        move = self.agent.choose(state, rng, seed)
        self.cpu += time.process_time() - began
        self.moves += 1
        return move


def match(first: Timed, other: Timed, games: int) -> dict[str, Any]:
    """``games`` games with ``first`` in seat 1, then as many with it in seat 2."""
    wins = shared = played = 0
    for seat in (0, 1):
        for seed in range(games):
            seats = (first, other) if seat == 0 else (other, first)

            def choose(
                state: State, rng: random.Random, seed: int = seed, seats: Any = seats
            ) -> GameMove:
                return seats[state.actor() or 0].choose(state, rng, seed)

            best = winners(agent_game(GAME, 2, seed, choose))
            wins += seat in best
            shared += len(best) > 1
            played += 1
    return {"wins": wins, "shared": shared, "games": played, "interval": wilson(wins, played)}


def row(name: str, first: Timed, other: Timed, result: dict[str, Any], games: int) -> str:
    low, high = result["interval"]
    per = [
        f"{t.cpu / games:.2f} / {t.cpu / max(t.moves, 1):.4f} ({t.moves})" for t in (first, other)
    ]
    return (
        f"| {name} | {result['wins']} | {result['games']} | [{low:.3f}, {high:.3f}] | "
        f"{result['shared']} | {per[0]} | {per[1]} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per seat arrangement")
    parser.add_argument("--simulations", type=int, default=20)
    args = parser.parse_args()
    searcher = OnModel(
        OpenSpielAgent("ismcts", simulations=args.simulations),
        lambda players: twisted_cryptids.game_of(GAME, players, {}),
    )
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    print("| first agent | its wins | of | 95% interval | shared wins | first agent CPU s "
          "per game / per move (moves) | advise CPU s per game / per move (moves) |")  # fmt: skip
    print("|---|---:|---:|---|---:|---:|---:|")
    games = 2 * args.games
    ismcts, advise = Timed(Agent("ismcts", searcher=searcher)), Timed(Agent("advise"))
    result = match(ismcts, advise, args.games)
    print(row(f"ismcts ({args.simulations} simulations)", ismcts, advise, result, games))
    randomly, advise = Timed(Agent("random")), Timed(Agent("advise"))
    result = match(randomly, advise, args.games)
    print(row("random (reference)", randomly, advise, result, games))
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
