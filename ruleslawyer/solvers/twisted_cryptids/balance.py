"""Twisted Cryptids balance: seat win rates from seeded games under a stated agent policy.

Every seat plays the ``random`` policy: a uniformly random legal move at every choice
(Hidden Trait, placements, Events, Day turns, Encounter ties, reveal targets, Night,
refills), from a seeded ``random.Random``. Game ``i`` of a run with seed ``s`` is dealt
and played with seed ``s + i``, so a run is reproducible and a longer run extends a
shorter one. A shared win (still tied after the tie-break) counts as a win for every
tied seat. Intervals: Wilson score, 95%.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.models.twisted_cryptids.game import Game
from ruleslawyer.models.twisted_cryptids.play import final_scores, winners
from ruleslawyer.solvers.balance_stats import rate
from ruleslawyer.solvers.twisted_cryptids.simulate import random_game

POLICY = "random: a uniformly random legal move at every choice, every seat"


def balance(
    game: Game,
    players: int,
    games: int,
    seed: int,
    budget: Budget | None = None,
    rulings: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    wins = [0] * players
    shared = 0
    myth_total = [0] * players
    played = 0
    progress = Progress(f"balance {players} players: games", games)
    for i in range(games):
        if budget is not None and budget.spent():
            break
        state = random_game(game, players, seed + i, rulings=rulings)
        best = winners(state)
        shared += len(best) > 1
        for p in best:
            wins[p] += 1
        for p, score in enumerate(final_scores(state)):
            myth_total[p] += score
        played += 1
        progress.update(played)
    progress.close()
    seats = []
    for p in range(players):
        seats.append(
            {
                "seat": p + 1,
                "cryptid": game.cryptids[p].name,
                **rate(wins[p], played),
                "mean_final_myth": round(myth_total[p] / played, 3) if played else None,
            }
        )
    return {
        "players": players,
        "games": played,
        "games_asked": games,
        "seed": seed,
        "finished": played == games,
        "shared_wins": shared,
        "seats": seats,
    }
