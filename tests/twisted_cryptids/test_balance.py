"""Twisted Cryptids ``balance``: Wilson intervals by hand, seeded reproducibility, budgets, CLI."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.models.twisted_cryptids.game import builtin_game
from ruleslawyer.models.twisted_cryptids.play import winners
from ruleslawyer.solvers.balance_stats import wilson
from ruleslawyer.solvers.twisted_cryptids.balance import balance
from ruleslawyer.solvers.twisted_cryptids.simulate import random_game

GAME = builtin_game()


def test_wilson_known_answers() -> None:
    # By hand, z = 1.96: 0 of 10 -> upper z^2/(n+z^2) = 3.8416/13.8416 = 0.27755;
    # 5 of 10 -> centre 0.5, half = 1.96*sqrt(0.025 + 0.0096040)/1.38416 = 0.26335.
    assert wilson(0, 10) == pytest.approx((0.0, 0.27755), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.23659, 0.76341), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_matches_plain_count_and_is_seeded() -> None:
    result = balance(GAME, 3, 12, 4)
    wins = [0, 0, 0]
    for i in range(12):  # plain reference: play the same seeded games and count
        for p in winners(random_game(GAME, 3, 4 + i)):
            wins[p] += 1
    assert [s["wins"] for s in result["seats"]] == wins
    assert result["finished"] and result["games"] == 12
    assert sum(wins) >= 12 + result["shared_wins"]
    assert balance(GAME, 3, 12, 4) == result
    for s in result["seats"]:
        low, high = s["interval95"]
        assert low <= s["win_rate"] <= high


def test_budget_ends_it() -> None:
    result = balance(GAME, 4, 50, 0, Budget(max_seconds=1e-9))
    assert result["finished"] is False and result["games"] < 50


def test_cli_balance() -> None:
    runner = CliRunner()
    out = runner.invoke(
        cli,
        ["twisted-cryptids", "balance", "--players", "2", "--games", "5", "--format", "json"],
    )
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["policy"].startswith("random") and doc["finished"] is True
    assert [t["players"] for t in doc["counts"]] == [2]
    bad = runner.invoke(cli, ["twisted-cryptids", "balance", "--games", "0"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output
