"""Twisted Cryptids ``balance``: Wilson intervals by hand, seeded reproducibility, budgets, CLI."""

from __future__ import annotations

import json
from pathlib import Path

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


def test_rulings_reach_the_simulated_games() -> None:
    # The plain count under a ruling, and the ruling changes the games (seeds 0..5, 3 players:
    # mean final scores 14.333, 18.167, 19.833 by default, 13.5, 18.167, 19.833 with negatives).
    ruling = {"twisted-cryptids/myth-floor": "negative"}
    ruled = balance(GAME, 3, 6, 0, rulings=ruling)
    wins = [0, 0, 0]
    for i in range(6):
        for p in winners(random_game(GAME, 3, i, rulings=ruling)):
            wins[p] += 1
    assert [s["wins"] for s in ruled["seats"]] == wins
    assert ruled["seats"] != balance(GAME, 3, 6, 0)["seats"]


def board_with(tmp_path, rulings: str) -> str:
    from ruleslawyer.gamefiles.source import builtin_path

    text = builtin_path("twisted-cryptids.toml").read_text("utf-8")
    path = tmp_path / "my-cryptids.toml"
    path.write_text(text.replace('provenance = "placeholder"', 'provenance = "assumed"') + rulings)
    return str(path)


def test_cli_balance_plays_a_game_file_and_its_rulings(tmp_path) -> None:
    runner = CliRunner()
    path = board_with(tmp_path, '\n[rulings]\n"twisted-cryptids/myth-floor" = "negative"\n')
    args = ["--players", "3", "--games", "6", "--format", "json"]
    out = runner.invoke(cli, ["twisted-cryptids", "balance", path, *args])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert (doc["game"], doc["provenance"]) == (path, "assumed")
    assert doc["rulings"] == {"twisted-cryptids/myth-floor": "negative"}
    assert doc["counts"][0]["seats"] == balance(GAME, 3, 6, 0, rulings=doc["rulings"])["seats"]
    # --ruling wins over the file's [rulings], as everywhere
    back = ["--ruling", "twisted-cryptids/myth-floor=floor-at-zero"]
    over = json.loads(
        runner.invoke(cli, ["twisted-cryptids", "balance", path, *args, *back]).output
    )
    assert over["counts"][0]["seats"] == balance(GAME, 3, 6, 0)["seats"]


def test_cli_balance_counts_follow_the_player_count_reading(tmp_path) -> None:
    runner = CliRunner()
    path = board_with(tmp_path, '\n[rulings]\n"twisted-cryptids/player-count" = "four-to-six"\n')
    out = runner.invoke(cli, ["twisted-cryptids", "balance", path, "--players", "3"])
    assert out.exit_code == 2 and len(out.output.splitlines()) == 1
    assert "found 3, expected one of 4, 5, 6" in out.output
    two = ["--ruling", "twisted-cryptids/player-count=two-to-six", "--players", "3", "--games", "1"]
    assert runner.invoke(cli, ["twisted-cryptids", "balance", path, *two]).exit_code == 0


def test_cli_balance_refuses_another_game_and_a_broken_file(tmp_path) -> None:
    runner = CliRunner()
    other = runner.invoke(cli, ["twisted-cryptids", "balance", "cunning-folk"])
    assert other.exit_code == 2 and "expected a twisted-cryptids game file" in other.output
    path = board_with(tmp_path, "")
    text = Path(path).read_text("utf-8")
    broken = text.replace('symbols = ["hikers", "hunters"]', 'symbols = ["hikers", "hikers"]', 1)
    Path(path).write_text(broken, "utf-8")
    out = runner.invoke(cli, ["twisted-cryptids", "balance", path, "--games", "1"])
    assert out.exit_code == 2 and len(out.output.splitlines()) == 1, out.output
    assert out.output.startswith(f"error: {path}:") and "site[0].symbols" in out.output


def test_cli_balance_budget_exits_3() -> None:
    out = CliRunner().invoke(
        cli, ["twisted-cryptids", "balance", "--games", "100000", "--max-seconds", "0.05"]
    )
    assert out.exit_code == 3 and "finished: false" in out.output


def test_advise_agent_plays_advise_first_choice() -> None:
    # The advise agent's move is the one `advise --later-turns 0` ranks first from the seat's
    # own view (exact here: 10 worlds), with its sample seeded by the game's seed.
    import random

    from ruleslawyer.models.twisted_cryptids.play import legal_moves
    from ruleslawyer.solvers.twisted_cryptids.advise import advise, label
    from ruleslawyer.solvers.twisted_cryptids.balance import Agent
    from ruleslawyer.solvers.twisted_cryptids.simulate import position

    for seed, moves in ((7, 58), (1, 58)):
        state = position(GAME, 2, seed, moves)
        agent = Agent("advise", exact_limit=24, samples=24)
        move = agent.choose(state, random.Random(0), seed)
        first = advise(state, exact_limit=24, samples=24, seed=seed, later_turns=0)
        assert label(state, move) == first["choices"][0]["move"] and move in legal_moves(state)


def test_advise_agent_setup_is_random_and_stated() -> None:
    import random

    from ruleslawyer.solvers.twisted_cryptids.balance import Agent
    from ruleslawyer.solvers.twisted_cryptids.simulate import deal

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
    from ruleslawyer.solvers.twisted_cryptids.balance import Agent, play

    agent = Agent("advise")
    result = balance(GAME, 2, 2, 3, agent=agent)
    wins = [0, 0]
    for i in range(2):  # plain reference: the same seeded games, counted
        for p in winners(play(GAME, 2, 3 + i, agent, None)):
            wins[p] += 1
    assert [s["wins"] for s in result["seats"]] == wins and result["finished"]


def test_cli_balance_ismcts_is_seeded_and_states_its_settings() -> None:
    # every seat OpenSpiel's ISMCTS (ruleslawyer/openspiel/twisted_cryptids.py); two
    # simulations a move keep a whole 2-player game to about a second
    runner = CliRunner()
    args = ["twisted-cryptids", "balance", "--players", "2", "--games", "2", "--policy",
            "ismcts", "--simulations", "2", "--uct-c", "1.5", "--final-policy", "max-value",
            "--seed", "7", "--format", "json"]  # fmt: skip
    first = runner.invoke(cli, args)
    assert first.exit_code == 0, first.output
    doc = json.loads(first.output)
    agent = doc["agent"]
    assert (agent["name"], agent["simulations"], agent["uct_c"]) == ("ismcts", 2, 1.5)
    assert agent["final_policy"] == "max-value" and "seeded" in agent["seed"]
    assert "ISMCTSBot" in doc["policy"] and "1 to each" in doc["policy"]
    table = doc["counts"][0]
    assert table["games"] == 2 and table["seed"] == 7
    wins = sum(s["wins"] for s in table["seats"])
    assert 2 <= wins <= 2 + table["shared_wins"]  # every game has a winner
    assert runner.invoke(cli, args).output == first.output  # deterministic for --seed
    text = runner.invoke(cli, args[:-2])
    assert "agent: ismcts, simulations 2, uct_c 1.5, rollouts 1, final policy max-value" in (
        text.output
    )
    assert "seat 1 (bigfoot)" in text.output


def test_cli_balance_ismcts_options_need_the_policy() -> None:
    out = CliRunner().invoke(cli, ["twisted-cryptids", "balance", "--simulations", "3"])
    assert out.exit_code == 2 and "need --policy ismcts" in out.output
