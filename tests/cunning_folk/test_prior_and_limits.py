"""The scoundrels prior against a brute-force deal, hidden-swap odds, exact counts, budgets
and the game file's limits."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.gamefiles.source import builtin_path
from ruleslawyer.models.cunning_folk.record import dump_log
from ruleslawyer.models.cunning_folk.village import (
    CELLS,
    ROLES,
    SCOUNDREL_CORE,
    SCOUNDREL_POOL,
    cards_of,
)
from ruleslawyer.solvers.cunning_folk.deduce import assumptions, deduce
from ruleslawyer.solvers.cunning_folk.worlds import brute_force, counts_of, filter_worlds
from tests.cunning_folk.helpers import log_of

PLAYERS = ["me", "bea", "cal"]


def brute_force_deal(
    kept: str | None = None, discarded: str | None = None, shown: str | None = None
) -> dict[str, Fraction]:
    """P(a cell holds each role), by dealing the physical scoundrels pool every way.

    "Deal two of them to each player face-down. Choose one of the cards you're dealt and
    add it secretly to the pile": every order of the 8 pool cards deals the first six in
    pairs; each player keeps either card of their pair (equally likely). The village is
    then shuffled, so a cell holds role r of village V with chance count_V(r)/9. With
    ``kept``/``discarded``, only deals where "me" (first pair) kept and set aside those;
    with ``shown``, A1 was seen to hold that role (every other cell: (count - 1)/8).
    """
    pool = cards_of(SCOUNDREL_POOL)
    deals: Counter[tuple[str, ...]] = Counter()  # kept cards (sorted) -> number of deals
    for order in itertools.permutations(range(len(pool)), 6):
        for keep in itertools.product((0, 1), repeat=3):
            pairs = [(pool[order[2 * p]], pool[order[2 * p + 1]]) for p in range(3)]
            mine = (pairs[0][keep[0]], pairs[0][1 - keep[0]])
            if kept is None or mine == (kept, discarded):
                deals[tuple(sorted(pairs[p][keep[p]] for p in range(3)))] += 1
    tally: Counter[str] = Counter()
    mass = Fraction(0)
    for added, n in deals.items():
        village = Counter(SCOUNDREL_CORE) + Counter(added)
        weight = Fraction(n)
        if shown is not None:
            weight *= Fraction(village[shown], 9)
            village[shown] -= 1
        mass += weight
        for role, k in village.items():
            tally[role] += weight * Fraction(k, 9 if shown is None else 8)
    return {role: tally[role] / mass for role in ROLES if tally[role]}


def deduced(document: dict) -> dict[str, dict[str, Fraction]]:
    """Per cell, the chance of each role by exact forward filtering (what deduce counts)."""
    worlds = filter_worlds(log_of(document))
    return {
        cell: {r: Fraction(n, worlds.total) for r, n in counts.items()}
        for cell, counts in worlds.counts().items()
    }


RANDOM_SCOUNDRELS = {"setup": "scoundrels", "players": PLAYERS, "event": []}


@pytest.fixture(scope="module")
def random_village() -> dict[str, dict[str, Fraction]]:
    return deduced(RANDOM_SCOUNDRELS)


def test_pirate_is_in_a_random_scoundrels_village_with_chance_3_8(random_village) -> None:
    # He is dealt to one of the 3 players with chance 6/8 and kept with chance 1/2: 3/8.
    # (Every arrangement of every possible village weighing the same gave 1/2.)
    assert sum(cell.get("pirate", 0) for cell in random_village.values()) == Fraction(3, 8)
    prior = assumptions(log_of(RANDOM_SCOUNDRELS), (1, 1))["prior"]
    assert "keeps either card with equal chance" in prior


def test_random_scoundrels_village_matches_a_brute_force_deal(random_village) -> None:
    expected = brute_force_deal()
    assert all(random_village[cell] == expected for cell in CELLS)


@pytest.mark.parametrize(
    ("kept", "discarded", "shown"),
    [("pirate", "liar", None), ("villager", "villager", "good-witch")],
)
def test_scoundrels_prior_matches_a_brute_force_deal(
    kept: str, discarded: str, shown: str | None
) -> None:
    document: dict = {"setup": "scoundrels", "players": PLAYERS, "event": []}
    document |= {"perspective": "me", "kept": [kept], "discarded": [discarded]}
    if shown is not None:
        document["event"] = [
            {
                "type": "claim",
                "player": "bea",
                "cell": "A1",
                "role": "evil-elder",
                "challenged": True,
                "revealed": shown,
            }
        ]
    expected = brute_force_deal(kept, discarded, shown)
    found = deduced(document)
    for cell in CELLS[1:]:
        assert found[cell] == expected, cell


def test_swap_odds_weigh_the_hidden_swap(tmp_path: Path) -> None:
    # A1 is shown to be the evil elder; bea then swaps A1 with B1 unseen. With odds 3:1
    # (swapped:kept) the evil elder is still in A1 with chance 1/4, in B1 with 3/4.
    events = [
        {"type": "claim", "player": "cal", "cell": "A1", "role": "good-witch"},
        {"type": "claim", "player": "bea", "cell": "C1", "role": "evil-witch"},
        {"type": "swap", "player": "bea", "cells": ["A1", "B1"]},
    ]
    events[0] |= {"challenged": True, "revealed": "evil-elder"}
    path = tmp_path / "log.toml"
    path.write_text(dump_log({"setup": "standard", "players": PLAYERS, "event": events}))
    args = ["cunning-folk", "deduce", str(path), "--format", "json", "--swap-odds", "3:1"]
    out = json.loads(CliRunner().invoke(cli, args).output)
    total = out["worlds"]
    assert Fraction(out["cells"]["A1"]["counts"]["evil-elder"], total) == Fraction(1, 4)
    assert Fraction(out["cells"]["B1"]["counts"]["evil-elder"], total) == Fraction(3, 4)
    assert out["assumptions"]["hidden_swaps"].startswith("swapped:kept = 3:1")
    log = log_of({"setup": "standard", "players": PLAYERS, "event": events})
    assert counts_of(brute_force(log, (3, 1))) == filter_worlds(log, odds=(3, 1)).counts()


@pytest.mark.parametrize("odds", ["0:0", "1", "a:b", "-1:2", "1:1:1", "99999999999999999999:1"])
def test_bad_swap_odds_exit_2(tmp_path: Path, odds: str) -> None:
    path = tmp_path / "log.toml"
    path.write_text(dump_log({"setup": "standard", "players": PLAYERS, "event": []}))
    result = CliRunner().invoke(cli, ["cunning-folk", "deduce", str(path), "--swap-odds", odds])
    assert result.exit_code == 2 and "--swap-odds" in result.output


def sixty_swaps() -> dict:
    events: list[dict] = []
    for _ in range(60):
        events.append({"type": "claim", "player": "bea", "cell": "C3", "role": "evil-witch"})
        events.append({"type": "swap", "player": "bea", "cells": ["A1", "B1"]})
    return {"setup": "standard", "players": PLAYERS, "event": events}


def test_sixty_hidden_swaps_count_exactly() -> None:
    # Every hidden swap doubles the worlds: 15120 deals times 2**60 outcomes (64-bit
    # integers overflowed here and reported 0 worlds as finished). A villager is in C3
    # (never swapped) in 3 of the 9 cells' worth: 5040 · 2**60.
    result = deduce(log_of(sixty_swaps()))
    assert result["worlds"] == 15120 * 2**60 and result["finished"] is True
    assert result["cells"]["C3"]["counts"]["villager"] == 5040 * 2**60


def test_a_spent_budget_says_finished_false() -> None:
    result = deduce(log_of(sixty_swaps()), max_seconds=1e-9)
    assert result["finished"] is False and result["worlds"] is None


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "1e9"])
def test_max_seconds_must_be_finite_and_positive(tmp_path: Path, value: str) -> None:
    path = tmp_path / "log.toml"
    path.write_text(dump_log(sixty_swaps()))
    result = CliRunner().invoke(cli, ["cunning-folk", "deduce", str(path), "--max-seconds", value])
    assert result.exit_code == 2 and "--max-seconds" in result.output


@pytest.mark.parametrize(
    ("old", "new", "place"),
    [
        ("dealt_per_player = 2", "dealt_per_player = -1", "scoundrels.dealt_per_player: found -1"),
        ("kept_per_player = 1", "kept_per_player = 5", "scoundrels.kept_per_player: found 5"),
        (
            '"vagrant", "good-witch"]',
            '"vagrant", "good-witch", "cat"]',
            "bonus.characters[5]: found 'cat', expected each bonus character once",
        ),
        ("core = { good-witch = 2,", "core = { good-witch = 0,", "scoundrels.core.good-witch"),
        ("good-witch = 2\n", "good-witch = 2147483648\n", "composition.standard.good-witch"),
        ("villager = 3 }", "villager = 1000000000000000000 }", "scoundrels.pool.villager"),
        ("grid = { columns = 3,", "grid = { columns = 0,", "grid.columns: found 0"),
    ],
)
def test_game_file_limits_are_one_line_exit_2(
    tmp_path: Path, old: str, new: str, place: str
) -> None:
    text = builtin_path("cunning-folk.toml").read_text()
    assert old in text
    path = tmp_path / "game.toml"
    path.write_text(text.replace(old, new, 1))
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and place in lines[0], lines
