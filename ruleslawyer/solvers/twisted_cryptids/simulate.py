"""Random Twisted Cryptids games with the built-in data, and the records they leave."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from ruleslawyer.budget import Budget
from ruleslawyer.models.twisted_cryptids.game import Game, builtin_game
from ruleslawyer.models.twisted_cryptids.play import GameMove, State, legal_moves, new_game, step
from ruleslawyer.solvers.twisted_cryptids.record import Record, record_from_state

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")


def deal(game: Game, players: int, seed: int, rulings: Mapping[str, str] | None = None) -> State:
    """A seeded deal for the first ``players`` Cryptids of ``game``, seats named ann, bob, ..."""
    names = tuple(c.name for c in game.cryptids[:players])
    return new_game(game, NAMES[:players], names, seed=seed, rulings=rulings)


def random_game(
    game: Game,
    players: int,
    seed: int,
    *,
    rounds: int | None = None,
    rulings: Mapping[str, str] | None = None,
) -> State:
    """Play uniformly random legal moves from a seeded deal, up to ``rounds`` completed rounds,
    under ``rulings`` (default readings where none)."""
    state = deal(game, players, seed, rulings)
    rng = random.Random(seed)
    while state.phase != "over":
        if rounds is not None and state.phase == "dawn" and state.round > rounds:
            break
        state = step(state, rng.choice(legal_moves(state)))
    return state


def agent_game(
    game: Game,
    players: int,
    seed: int,
    choose: Callable[[State, random.Random], GameMove],
    rulings: Mapping[str, str] | None = None,
) -> State:
    """Play a seeded deal to the end, ``choose(state, rng)`` picking every move (``rng``
    seeded with ``seed``)."""
    state = deal(game, players, seed, rulings)
    rng = random.Random(seed)
    while state.phase != "over":
        state = step(state, choose(state, rng))
    return state


def simulated_record(players: int, seed: int, *, rounds: int | None = None) -> Record:
    return record_from_state(random_game(builtin_game(), players, seed, rounds=rounds), 0)


def position_record(players: int, seed: int, moves: int) -> Record:
    """The record, with its ``[position]``, of the player to act after ``moves`` seeded random
    moves (:func:`position`); :class:`InputError` when that is not a position ``advise`` reads."""
    from ruleslawyer.errors import InputError
    from ruleslawyer.solvers.twisted_cryptids.record import POSITION_PHASES

    state = position(builtin_game(), players, seed, moves)
    if state.phase not in POSITION_PHASES:
        raise InputError(
            "--moves", "value", f"{moves} (phase {state.phase})", f"a position in {POSITION_PHASES}"
        )
    return record_from_state(state, state.actor() or 0, with_position=True)


def first_hit(
    game: Game,
    players: int,
    test: Callable[[State, GameMove, State], Any],
    *,
    rulings: Mapping[str, str] | None = None,
    seeds: range = range(200),
    budget: Budget | None = None,
) -> tuple[Any, int, int, bool, int]:
    """Play seeded random games until ``test(before, move, after)`` returns something truthy.

    Returns (what the test returned or None, the seed, games played, finished, moves played
    before the hit): ``finished`` is False when the budget ran out before the seeds did
    (the budget is looked at before every move). :func:`replay` reaches the hit again.
    """
    played = 0
    for seed in seeds:
        state = deal(game, players, seed, rulings)
        rng = random.Random(seed)
        played += 1
        index = 0
        while state.phase != "over":
            if budget is not None and budget.spent():
                return None, seed, played - 1, False, 0
            move = rng.choice(legal_moves(state))
            after = step(state, move)
            hit = test(state, move, after)
            if hit:
                return hit, seed, played, True, index
            state = after
            index += 1
    return None, seeds.stop, played, True, 0


def replay(
    game: Game, players: int, seed: int, moves: int, rulings: Mapping[str, str] | None = None
) -> tuple[State, GameMove]:
    """The state after ``moves`` seeded random moves of :func:`first_hit`'s game, and the next
    move (every move checked legal by :func:`step`)."""
    state = deal(game, players, seed, rulings)
    rng = random.Random(seed)
    for _ in range(moves):
        state = step(state, rng.choice(legal_moves(state)))
    return state, rng.choice(legal_moves(state))


def position(game: Game, players: int, seed: int, moves: int) -> State:
    """The state after ``moves`` seeded random moves from the seeded deal (as
    :func:`random_game` plays them), or the final state if the game ends first."""
    state = deal(game, players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.phase == "over":
            break
        state = step(state, rng.choice(legal_moves(state)))
    return state
