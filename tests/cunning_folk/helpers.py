"""Shared helpers for the Cunning Folk tests: random recorded games and log parsing."""

from __future__ import annotations

import random
import tomllib
from fractions import Fraction
from typing import Any

from ruleslawyer.models.cunning_folk.log import Log, parse_log
from ruleslawyer.models.cunning_folk.play import Rules, Table
from ruleslawyer.models.cunning_folk.record import Recording, dump_log, play_and_record
from ruleslawyer.models.cunning_folk.village import (
    POINTS,
    SCOUNDREL_CORE,
    SCOUNDREL_POOL,
    bonus_setup,
    cards_of,
    scoundrel_setup,
    standard_setup,
)

NAMES = ("me", "bea", "cal", "dan")


def random_rules(rng: random.Random) -> Rules:
    """Each rule point that changes play at a random reading (the default half the time)."""
    chosen = {}
    for name in Rules.__dataclass_fields__:
        point = POINTS[f"cunning-folk/{name.replace('_', '-')}"]
        chosen[name] = rng.choice([point.default, *point.reading_names])
    return Rules(**chosen)


def random_recording(
    seed: int,
    *,
    max_moves: int = 40,
    setups: tuple[str, ...] = ("standard", "standard", "bonus"),
    any_rules: bool = False,
) -> Recording:
    """A random game from a random deal, logged from a random chair (or none).

    With ``any_rules`` the rules are drawn by :func:`random_rules` (the log's ``rulings``).
    """
    rng = random.Random(seed)
    rules = random_rules(random.Random(seed + 7919)) if any_rules else Rules()
    kind = rng.choice(setups)
    n = 3 if kind == "scoundrels" else rng.randint(2, 4)
    perspective = rng.choice([None, *range(n)])
    if kind == "standard":
        setup, keys = standard_setup(), {"setup": "standard"}
        cards = list(setup.cards)
    elif kind == "bonus":
        bonus = rng.sample(["liar", "cat", "pirate", "vagrant", "good-witch"], rng.randint(1, 2))
        setup, keys = bonus_setup(bonus), {"setup": "bonus", "bonus": bonus}
        cards = list(setup.cards)
    else:
        pool = list(cards_of(SCOUNDREL_POOL))
        rng.shuffle(pool)
        kept = pool[:3]  # each player's kept card; the perspective also knows one it set aside
        keys = {"setup": "scoundrels"}
        if perspective is not None:
            keys |= {"kept": [kept[perspective]], "discarded": [pool[3 + perspective]]}
        setup = scoundrel_setup(3)
        cards = [*cards_of(SCOUNDREL_CORE), *kept]
    rng.shuffle(cards)
    return play_and_record(
        Table(setup, n, rules),
        tuple(cards),
        lambda state, moves: rng.choice(moves),
        names=NAMES[:n],
        perspective=perspective,
        max_moves=max_moves,
        setup_keys=keys,
    )


def log_of(
    document: dict[str, Any], source: str = "log.toml", cli_rulings: dict[str, str] | None = None
) -> Log:
    """Parse a log document the way the CLI does: through its TOML text."""
    return parse_log(tomllib.loads(dump_log(document)), source, cli_rulings)


def marks_table(mine: Fraction, theirs: Fraction, base: dict[int, Fraction] | None = None):
    """A stated continuation table: a seat's value is ``base[n]`` with ``n`` players in
    (default 2/n - 1: even chances), plus ``mine`` if it holds a suspected card, plus
    ``theirs`` for each other seat still in that holds one; the mover does not matter.
    For hand-worked answers that must not rest on sampled figures."""
    import itertools

    from ruleslawyer.solvers.cunning_folk.goes_on.continuation import stated

    values = {}
    for n in (2, 3, 4):
        for marks in itertools.product((0, 1), repeat=n):
            even = Fraction(2, n) - 1 if base is None else base[n]
            values[marks] = [
                even + (mine if m else Fraction(0)) + theirs * (sum(marks) - m) for m in marks
            ]
    return stated(values, f"stated for a test: a suspected card {mine}, another's {theirs}")
