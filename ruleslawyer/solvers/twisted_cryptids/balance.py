"""Twisted Cryptids balance: seat win rates from seeded games under a stated agent policy.

Every seat plays one policy (:func:`policy_text` states it):

- ``random``: a uniformly random legal move at every choice (Hidden Trait, placements,
  Events, Day turns, Encounter ties, reveal targets, Night, refills);
- ``advise``: the move ``advise`` ranks first from the seat's own view
  (:func:`ruleslawyer.solvers.twisted_cryptids.advise.best_move`: its own Stacks and Hidden
  Trait known, every other unrevealed card averaged, the horizon, ranking and model of the
  other players ``advise`` states); before round 1
  (Hidden Trait, setup placements) that horizon counts nothing, so those are uniformly
  random;
- ``ismcts``: OpenSpiel's information-set MCTS over the OpenSpiel game
  (:mod:`ruleslawyer.openspiel.twisted_cryptids`) from the seat's information state, at
  every choice, the Hidden Trait and setup included (``searcher``: the
  :class:`~ruleslawyer.openspiel.agents.OnModel` agent; its search seeded from the game's
  generator).

Random choices come from a seeded ``random.Random``. Game ``i`` of a run with seed ``s`` is
dealt and played with seed ``s + i``, so a run is reproducible and a longer run extends a
shorter one. A shared win (still tied after the tie-break) counts as a win for every tied
seat. Intervals: Wilson score, 95%.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.models.twisted_cryptids.game import Game
from ruleslawyer.models.twisted_cryptids.play import (
    GameMove,
    State,
    final_scores,
    legal_moves,
    winners,
)
from ruleslawyer.solvers.balance_stats import rate
from ruleslawyer.solvers.twisted_cryptids.advise import best_move
from ruleslawyer.solvers.twisted_cryptids.simulate import agent_game, random_game

POLICY = "random: a uniformly random legal move at every choice, every seat"
POLICIES = ("random", "advise", "ismcts")


@dataclass(frozen=True)
class Agent:
    """A seat's policy; for ``advise``, how it averages (as ``advise`` --exact-limit,
    --samples; the sample seeded with the game's seed); for ``ismcts``, the searcher
    (an :class:`~ruleslawyer.openspiel.agents.OnModel`)."""

    policy: str = "random"
    exact_limit: int = 24
    samples: int = 24
    searcher: Any = None

    def settings(self) -> dict[str, Any]:
        """The agent's name and settings (``ismcts``: the search's, in words and as fields)."""
        if self.policy == "ismcts":
            return self.searcher.describe()
        if self.policy == "advise":
            return {"name": "advise", "exact_limit": self.exact_limit, "samples": self.samples}
        return {"name": "random"}

    def text(self) -> str:
        if self.policy == "random":
            return POLICY
        if self.policy == "ismcts":
            return (
                f"{self.searcher.describe()['text']}; every seat, at every choice (Hidden Trait "
                f"and setup included), from its own information state; returns: "
                f"{self.searcher.describe()['returns']}"
            )
        return (
            "advise: every seat, at every choice from round 1 on, the move `advise` ranks "
            "first from the seat's own view (its own Stacks and Hidden Trait known, the one it "
            "returned to the box out of play; every other unrevealed card averaged, exactly "
            f"over the worlds when at most {self.exact_limit}, else over {self.samples} worlds "
            "sampled with the game's seed; horizon: this round's Dusk reveals counting Myth, "
            "ranked by expected Myth; in the last round the end of the game, ranked by the "
            "chance to win, then the expected score (the others' Hidden Traits any they "
            "cannot rule out); every choice within the horizon made by its own player for "
            "their own goal, from what they know, except the seat's own later Day turns of "
            "the round, which pass (advise --later-turns 0), and the other seats' Day turns, "
            "which pass in its model (their hands unknown); ties: the least for the leader, "
            "then the move's words); Hidden Trait and setup placements (nothing counted "
            "before round 1): uniformly random"
        )

    def choose(self, state: State, rng: random.Random, seed: int) -> GameMove:
        if self.policy == "ismcts":
            return self.searcher.move(state, state.n, rng)
        moves = legal_moves(state)
        if self.policy == "random" or state.round == 0:
            return rng.choice(moves)
        return best_move(
            state, exact_limit=self.exact_limit, samples=self.samples, seed=seed, later_turns=0
        )


class _OutOfTime(Exception):
    pass


def play(
    game: Game,
    players: int,
    seed: int,
    agent: Agent,
    budget: Budget | None,
    rulings: Mapping[str, str] | None = None,
) -> State:
    """One seeded game under ``agent`` (:class:`_OutOfTime` when the budget runs out)."""
    if agent.policy == "random" and not rulings:
        return random_game(game, players, seed)

    def choose(state: State, rng: random.Random) -> GameMove:
        if budget is not None and budget.spent():
            raise _OutOfTime
        return agent.choose(state, rng, seed)

    return agent_game(game, players, seed, choose, rulings)


def balance(
    game: Game,
    players: int,
    games: int,
    seed: int,
    budget: Budget | None = None,
    agent: Agent = Agent(),
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
        try:
            state = play(game, players, seed + i, agent, budget, rulings)
        except _OutOfTime:
            break
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
