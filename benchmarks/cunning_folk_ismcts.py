"""Benchmark: OpenSpiel's ISMCTS against the advise agent in Cunning Folk, head to head.

Run from the repository root:
``python benchmarks/cunning_folk_ismcts.py [--games 40] [--simulations 20,100]``.

Two-player games of the standard setup, played to their end (or 400 moves) by the
balance loop of :mod:`ruleslawyer.solvers.cunning_folk.balance`: one seat ``ismcts``
(``cunning-folk balance --policy ismcts``: OpenSpiel's ISMCTSBot over the OpenSpiel game
``ruleslawyer_cunning_folk`` from the seat's own log, random rollouts, UCT constant 2),
the other ``advise`` (the balance default). The seats alternate (ISMCTS first in even
games), so who starts is even. Game ``i`` is dealt and played from
``random.Random(f"ismcts/{i}")``. Each row: ISMCTS's wins with the 95% Wilson interval
(an agent as strong as advise wins about half), and each agent's CPU seconds per game
(``time.process_time`` around its decisions), in the same run, on the same deals.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

from ruleslawyer.models.cunning_folk.play import Rules, Table
from ruleslawyer.models.cunning_folk.village import standard_setup
from ruleslawyer.openspiel.agents import Agent
from ruleslawyer.openspiel.cunning_folk import SeatAgent
from ruleslawyer.solvers.balance_stats import rate, rate_text
from ruleslawyer.solvers.cunning_folk.balance import advise_policy, play


def timed(policy, name: str, spent: dict[str, float]):
    def decide(seat, state, legal, rng):
        t = time.process_time()
        try:
            return policy(seat, state, legal, rng)
        finally:
            spent[name] += time.process_time() - t

    return decide


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--simulations", default="20,100")
    args = parser.parse_args()
    table = Table(standard_setup(), 2, Rules())
    head = {"setup": "standard", "players": ["P1", "P2"], "rulings": {}}
    print(f"2 players, standard setup, {args.games} games per row, seats alternating")
    for sims in (int(s) for s in args.simulations.split(",")):
        spent: dict[str, float] = defaultdict(float)
        ismcts = timed(SeatAgent(Agent("ismcts", simulations=sims)), "ismcts", spent)
        advise = timed(advise_policy, "advise", spent)
        wins = unended = 0
        for i in range(args.games):
            first = i % 2 == 0
            seats = [ismcts, advise] if first else [advise, ismcts]
            game = play(table, head, seats, random.Random(f"ismcts/{i}"), 400)
            wins += game.winner == (0 if first else 1)
            unended += game.winner < 0
        n = args.games
        print(
            f"ismcts {sims} simulations/move vs advise: ismcts {rate_text(rate(wins, n))}; "
            f"unended {unended}; CPU s a game: ismcts {spent['ismcts'] / n:.2f}, "
            f"advise {spent['advise'] / n:.2f}"
        )


if __name__ == "__main__":
    main()
