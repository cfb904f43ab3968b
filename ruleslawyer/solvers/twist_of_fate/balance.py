"""Twist of Fate balance: seat win rates and card use from whole games of strong agents.

Every game starts from the standard start (Set-Up for 3-4 players: every value 0,
one full set in hand, seat 1 first; the 2-player variant's random three cards and
random starting player drawn with their exact weights) and is played to its end by
one agent at every seat, or one per seat. The project's own agent (:class:`Agent`,
``uct``) looks to the end of the current round and picks under max^n, exactly (the
compiled max^n solver of :mod:`~ruleslawyer.solvers.twist_of_fate.maxn`) once at most
``exact_plies`` plies are left in the round, by UCT
(:mod:`~ruleslawyer.solvers.twist_of_fate.mcts`) before that; ``random`` plays a
uniformly random legal move; an agent of another implementation (OpenSpiel's
``mcts``, :class:`ruleslawyer.openspiel.agents.OnModel`) is any object with a
``policy``, ``describe()`` and ``move(state, players, rng)``. Between rounds the hands
are picked up as the rules say (:func:`~ruleslawyer.models.twist_of_fate.play.chance_outcomes`,
drawn by weight).

Every exactly solved position is also a sample for dominance: a card (or a side of
it, or playing it face down) is worth playing there if one of its moves gives the
player to move the best max^n utility of all its moves. One never worth playing in
any sampled position where it was legal is reported, with the number of positions.

Game ``i`` with ``p`` players draws from ``random.Random(f"{seed}/{p}/{i}")``, so a run
is reproducible and a longer run extends a shorter one. Figures are sampled: each
comes with its sample size, win rates with a 95% Wilson interval.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.models.twist_of_fate.files import Position
from ruleslawyer.models.twist_of_fate.play import (
    FACE_DOWN,
    HAND_3_4,
    MONKS,
    Deck,
    Move,
    Rules,
    State,
    chance_outcomes,
    legal_moves,
    play,
    start,
    start_two_player,
)
from ruleslawyer.solvers.balance_stats import rate
from ruleslawyer.solvers.twist_of_fate.common import TIE_BREAK, UTILITY
from ruleslawyer.solvers.twist_of_fate.mcts import ROLLOUT, SCALE, search

MODES = ("side 1", "side 2", "face-down")
HORIZON = "each move looks to the end of the current round (or of the game, if it ends first)"


@dataclass(frozen=True)
class Agent:
    """A seat's policy: ``uct``, UCT until ``exact_plies`` plies are left in the
    round, then the exact max^n move; or ``random`` (the reference point for a benchmark),
    a uniformly random legal move at every choice."""

    iterations: int = 30
    exploration: float = 0.1
    exact_plies: int = 5
    policy: str = "uct"

    def describe(self) -> dict[str, Any]:
        if self.policy == "random":
            return {
                "name": "random",
                "text": "random: a uniformly random legal move at every choice "
                "(a reference point, not a strong agent); no position is solved exactly",
            }
        return {
            "name": "uct",
            "text": (
                f"uct: the project's own UCT with {self.iterations} iterations per move and "
                f"exploration constant {self.exploration} (reward: the max^n utility "
                f"without tempo as (81 (outcome + 1) + 9 Sanctuary + Luck + Shilling) / "
                f"{SCALE}, each seat maximising its own; the most visited move is played); "
                f"once at most {self.exact_plies} plies are left in the round, the exact max^n move"
            ),
            "iterations": self.iterations,
            "exploration": self.exploration,
            "exact_plies": self.exact_plies,
            "rollout": ROLLOUT,
            "horizon": HORIZON,
            "utility": UTILITY,
            "tie_break": TIE_BREAK,
        }


def mode(move: Move) -> str:
    """How a card was played: the side facing its target (deck order), or face down."""
    return FACE_DOWN if move.play == FACE_DOWN else MODES[move.side]


def plies_left(state: State) -> int:
    """Plies left in the round: the cards in the players' hands."""
    return sum(len(state.seats[p].hand) for p in range(state.players))


@dataclass
class Tally:
    """What one player count's games add up to."""

    players: int
    games: int = 0
    wins: Counter[int] = field(default_factory=Counter)  # winner seat (the Monks' too)
    unended: int = 0
    rounds: int = 0
    plies: int = 0
    played: Counter[tuple[str, str]] = field(default_factory=Counter)  # (card, mode)
    positions: int = 0
    legal: Counter[tuple[str, str | None]] = field(default_factory=Counter)  # mode None: any
    best: Counter[tuple[str, str | None]] = field(default_factory=Counter)

    def sample(self, state: State, scored: Sequence[tuple[Move, Any]]) -> None:
        """One exactly solved position: which cards and modes reach the mover's best."""
        mover = state.active
        top = max(v[mover] for _, v in scored)
        self.positions += 1
        legal = {(m.card, k) for m, _ in scored for k in (None, mode(m))}
        best = {(m.card, k) for m, v in scored if v[mover] == top for k in (None, mode(m))}
        self.legal.update(legal)
        self.best.update(best)


def decide(
    state: State,
    position: Position,
    rules: Rules,
    agent: Any,
    rng: random.Random,
    tally: Tally,
) -> Move:
    """The agent's move in ``state`` (a player to move, the round not over)."""
    if agent.policy == "random":
        return rng.choice(legal_moves(state, position.deck, rules))
    if agent.policy != "uct":  # another implementation's agent (OpenSpiel's mcts)
        return agent.move(state, state.players, rng)
    if plies_left(state) > agent.exact_plies:
        move, _ = search(state, position.deck, rules, agent.iterations, agent.exploration, rng)
        return move
    from ruleslawyer.solvers.twist_of_fate.maxn import analyse

    found = analyse(Position(state, position.names, position.deck, position.rulings), rules)
    if not found.finished:  # no budget is given: cannot happen short of the table limit
        raise RuntimeError("the exact max^n solve of a round's last plies did not finish")
    tally.sample(state, found.scored)
    return found.line[0][0]


def _draw(outcomes: Sequence[tuple[int, State]], rng: random.Random) -> State:
    """One chance outcome, drawn with its exact weight."""
    if len(outcomes) == 1:
        return outcomes[0][1]
    [state] = rng.choices([s for _, s in outcomes], weights=[w for w, _ in outcomes])
    return state


def deck_problem(deck: Deck, counts: Sequence[int]) -> tuple[str, str] | None:
    """Why the standard start cannot be played with ``deck`` at these player counts, as
    (found, expected); None when it can."""
    found = f"{len(deck.characters)} characters"
    if len(deck.characters) > HAND_3_4:
        # "A player may have a maximum of six cards played in front of them": a hand of
        # seven can never be played out, so no round from the standard start ends
        return found, "at most 6, the hand the rules deal each player"
    if 2 in counts and len(deck.characters) != HAND_3_4:
        # Two-Player Variant: "takes three random cards from the six unused cards"
        return found, "6 for the 2-player variant (or 3-4 players)"
    return None


def first_state(players: int, deck: Deck, rng: random.Random) -> State:
    """The standard start: Set-Up for 3-4 players, the variant's random draw for 2."""
    if players == 2:
        return _draw(start_two_player(deck), rng)
    return start(players, deck)


def play_game(
    players: int,
    deck: Deck,
    rules: Rules,
    rulings: dict[str, str],
    agents: Sequence[Any],
    rng: random.Random,
    max_rounds: int,
    tally: Tally,
) -> State:
    """One whole game from the standard start; stops unended after ``max_rounds`` rounds
    or where the rules give no way on: a round end with no next round (the variant's draws
    need six-card sets), or a player with cards and no legal move."""
    names = tuple(f"seat {p + 1}" for p in range(players))
    position = Position(first_state(players, deck, rng), names, deck, rulings)
    state = position.state
    plies = 0
    while not state.over:
        if state.round_over:
            if state.round >= max_rounds:
                break
            outcomes = chance_outcomes(state, deck, rules)
            if not outcomes:  # no next round the rules can deal: the game stays unended
                break
            state = _draw(outcomes, rng)
            continue
        if not legal_moves(state, deck, rules):  # a gap: cards in hand, nowhere to play
            break
        agent = agents[state.active] if len(agents) > 1 else agents[0]
        move = decide(state, position, rules, agent, rng, tally)
        tally.played[(move.card, mode(move))] += 1
        state = play(state, move, deck, rules)
        plies += 1
    tally.games += 1
    tally.rounds += state.round
    tally.plies += plies
    if state.winner is None:
        tally.unended += 1
    else:
        tally.wins[state.winner] += 1
    return state


def balance(
    deck: Deck,
    rules: Rules,
    rulings: dict[str, str],
    counts: Sequence[int],
    games: int,
    seed: int,
    agents: Sequence[Any],
    max_rounds: int,
    budget: Budget | None = None,
) -> dict[str, Any]:
    """Play ``games`` games at each player count (interleaved: game ``i`` at every count
    before game ``i + 1``), until done or the budget is spent between games. ``agents``:
    one for every seat, or one per seat (with one player count)."""
    budget = budget or Budget()
    tallies = {n: Tally(n) for n in counts}
    progress = Progress("twist-of-fate balance: games", games * len(counts))
    done = 0
    finished = True
    for i in range(games):
        for n in counts:
            if budget.spent():
                finished = False
                break
            rng = random.Random(f"{seed}/{n}/{i}")
            play_game(n, deck, rules, rulings, agents, rng, max_rounds, tallies[n])
            done += 1
            progress.update(done)
        if not finished:
            break
    progress.close()
    return {
        "finished": finished,
        "player_counts": [summary(tallies[n], games, deck) for n in counts],
    }


def summary(t: Tally, asked: int, deck: Deck) -> dict[str, Any]:
    """One player count's figures, each labelled with its sample size."""
    seats = [{"seat": p + 1, **rate(t.wins[p], t.games)} for p in range(t.players)]
    out: dict[str, Any] = {
        "players": t.players,
        "games_asked": asked,
        "games": t.games,
        "sampled": f"sampled: {t.games} games",
        "seats": seats,
    }
    if t.players == 2:
        both_lost = f"the {MONKS} won: both players lost"
        out["monks"] = {"outcome": both_lost, **rate(t.wins[2], t.games)}
    out["unended"] = t.unended
    out["mean_rounds"] = round(t.rounds / t.games, 2) if t.games else None
    out["mean_plies"] = round(t.plies / t.games, 2) if t.games else None
    total = sum(t.played.values())
    out["plays"] = total
    cards = []
    for c in deck.names:
        modes = {k: t.played[(c, k)] for k in MODES}
        n = sum(modes.values())
        cards.append(
            {
                "card": c,
                "played": n,
                "share": round(n / total, 4) if total else None,
                "modes": {
                    k: {"played": v, "share_of_card": round(v / n, 4) if n else None}
                    for k, v in modes.items()
                },
            }
        )
    out["cards"] = cards
    out["positions_sampled"] = t.positions
    out["dominance"] = [
        {
            "card": c,
            "mode": k or "any",
            "legal_in": t.legal[(c, k)],
            "best_in": t.best[(c, k)],
            "never_worth_playing": t.legal[(c, k)] > 0 and t.best[(c, k)] == 0,
        }
        for c in deck.names
        for k in (None, *MODES)
    ]
    out["never_worth_playing"] = [
        f"{d['card']} ({d['mode']}; legal in {d['legal_in']})"
        for d in out["dominance"]
        if d["never_worth_playing"]
    ]
    return out
