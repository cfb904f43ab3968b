"""Random Twisted Cryptids games with the built-in data, and the records they leave."""

from __future__ import annotations

import random

from ruleslawyer.models.twisted_cryptids_game import Game, builtin_game
from ruleslawyer.models.twisted_cryptids_play import State, legal_moves, new_game, step
from ruleslawyer.solvers.cryptid_record import Record, record_from_state

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")


def random_game(game: Game, players: int, seed: int, *, rounds: int | None = None) -> State:
    """Play uniformly random legal moves from a seeded deal, up to ``rounds`` completed rounds."""
    state = new_game(
        game, NAMES[:players], tuple(c.name for c in game.cryptids[:players]), seed=seed
    )
    rng = random.Random(seed)
    while state.phase != "over":
        if rounds is not None and state.phase == "dawn" and state.round > rounds:
            break
        state = step(state, rng.choice(legal_moves(state)))
    return state


def simulated_record(players: int, seed: int, *, rounds: int | None = None) -> Record:
    return record_from_state(random_game(builtin_game(), players, seed, rounds=rounds), 0)
