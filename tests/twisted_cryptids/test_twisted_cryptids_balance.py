"""Twisted Cryptids ``balance``: Wilson intervals by hand, seeded reproducibility, budgets, CLI."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.models.twisted_cryptids_game import builtin_game
from ruleslawyer.models.twisted_cryptids_play import winners
from ruleslawyer.solvers.balance_stats import wilson
from ruleslawyer.solvers.cryptid_balance import balance
from ruleslawyer.solvers.cryptid_simulate import random_game

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


def test_advise_agent_plays_advise_first_choice() -> None:
    # The advise agent's move is the one `advise` ranks first from the seat's own view
    # (exact here: 10 worlds), with its sample seeded by the game's seed.
    import random

    from ruleslawyer.models.twisted_cryptids_play import legal_moves
    from ruleslawyer.solvers.cryptid_advise import advise, label
    from ruleslawyer.solvers.cryptid_balance import Agent
    from ruleslawyer.solvers.cryptid_simulate import position

    for seed, moves in ((7, 58), (1, 58)):
        state = position(GAME, 2, seed, moves)
        agent = Agent("advise", exact_limit=24, samples=24)
        move = agent.choose(state, random.Random(0), seed)
        first = advise(state, exact_limit=24, samples=24, seed=seed)["choices"][0]["move"]
        assert label(state, move) == first and move in legal_moves(state)


def test_advise_agent_setup_is_random_and_stated() -> None:
    import random

    from ruleslawyer.solvers.cryptid_balance import Agent
    from ruleslawyer.solvers.cryptid_simulate import deal

    state = deal(GAME, 3, 5)
    assert state.round == 0
    a = Agent("advise").choose(state, random.Random(5), 5)
    b = Agent("random").choose(state, random.Random(5), 5)
    assert a == b
    text = Agent("advise", 7, 9).text()
    assert text.startswith("advise:") and "at most 7" in text and "over 9 worlds" in text
    assert "uniformly random" in text


def test_cli_advise_agent_budget_exits_3() -> None:
    args = ["twisted-cryptids", "balance", "--players", "2", "--games", "3", "--policy", "advise"]
    out = CliRunner().invoke(cli, [*args, "--max-seconds", "0.01", "--format", "json"])
    assert out.exit_code == 3, out.output
    doc = json.loads(out.output)
    assert doc["finished"] is False and doc["policy"].startswith("advise:")
    assert doc["counts"][0]["games"] < 3


def test_cli_balance_ruling_is_stated() -> None:
    args = ["twisted-cryptids", "balance", "--players", "2", "--games", "2", "--format", "json"]
    out = CliRunner().invoke(cli, [*args, "--ruling", "twisted-cryptids/myth-floor=negative"])
    assert out.exit_code == 0, out.output
    assert "twisted-cryptids/myth-floor=negative" in json.loads(out.output)["model"]
    bad = CliRunner().invoke(cli, [*args, "--ruling", "twisted-cryptids/myth-floor=up"])
    assert bad.exit_code == 2 and "found 'up'" in bad.output


@pytest.mark.slow
def test_advise_agent_games_are_seeded_and_counted() -> None:
    from ruleslawyer.solvers.cryptid_balance import Agent, play

    agent = Agent("advise")
    result = balance(GAME, 2, 2, 3, agent=agent)
    wins = [0, 0]
    for i in range(2):  # plain reference: the same seeded games, counted
        for p in winners(play(GAME, 2, 3 + i, agent, None)):
            wins[p] += 1
    assert [s["wins"] for s in result["seats"]] == wins and result["finished"]
