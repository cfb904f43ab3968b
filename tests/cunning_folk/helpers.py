"""Shared helpers for the Cunning Folk tests: random recorded games and log parsing."""

from __future__ import annotations

import random
import tomllib
from typing import Any

from ruleslawyer.models.cunning_folk import Setup, bonus_setup, standard_setup
from ruleslawyer.models.cunning_folk_log import Log, parse_log
from ruleslawyer.models.cunning_folk_play import Table
from ruleslawyer.models.cunning_folk_record import Recording, dump_log, play_and_record

NAMES = ("me", "bea", "cal", "dan")


def random_setup(rng: random.Random) -> tuple[Setup, dict[str, Any]]:
    kind = rng.choice(["standard", "standard", "bonus"])
    if kind == "standard":
        return standard_setup(), {"setup": "standard"}
    bonus = rng.sample(["liar", "cat", "pirate", "vagrant", "good-witch"], rng.randint(1, 2))
    return bonus_setup(bonus), {"setup": "bonus", "bonus": bonus}


def random_recording(seed: int, *, max_moves: int = 40, players: int | None = None) -> Recording:
    """A random game from a random deal, logged from a random chair (or none)."""
    rng = random.Random(seed)
    setup, keys = random_setup(rng)
    n = players or rng.randint(2, 4)
    deal = list(setup.cards)
    rng.shuffle(deal)
    perspective = rng.choice([None, *range(n)])
    return play_and_record(
        Table(setup, n),
        tuple(deal),
        lambda state, moves: rng.choice(moves),
        names=NAMES[:n],
        perspective=perspective,
        max_moves=max_moves,
        setup_keys=keys,
    )


def log_of(document: dict[str, Any], source: str = "log.toml") -> Log:
    """Parse a log document the way the CLI does: through its TOML text."""
    return parse_log(tomllib.loads(dump_log(document)), source)
