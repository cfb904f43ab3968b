"""``cunning-folk balance --policy ismcts``: OpenSpiel's information-set MCTS as a seat's
policy, its settings stated, the same bytes for the same seed, and stronger than random."""

from __future__ import annotations

import json

from click.testing import CliRunner

from ruleslawyer.cli.main import cli

BASE = ["cunning-folk", "balance", "--setup", "standard", "--players", "2", "--games", "6"]


def run(*extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [*BASE, *extra])
    return result.exit_code, result.output


def test_ismcts_settings_printed_and_deterministic() -> None:
    args = ("--policy", "ismcts,random", "--simulations", "10", "--uct-c", "1.5", "--seed", "4")
    code, text = run(*args)
    assert code == 0, text
    assert "agent ismcts: simulations 10, uct_c 1.5, rollouts 1" in text
    assert "seat 1 (ismcts)" in text and "seat 2 (random)" in text
    assert run(*args)[1] == text  # the same seed: the same bytes
    code, out = run(*args, "--format", "json")
    result = json.loads(out)
    agent = result["agent"]
    assert (agent["name"], agent["simulations"], agent["uct_c"]) == ("ismcts", 10, 1.5)
    assert "seeded from the game's generator" in agent["seed"]
    assert "ISMCTSBot" in result["policies"]["ismcts"]
    seats = result["setups"][0]["seats"]
    assert sum(s["wins"] for s in seats) + result["setups"][0]["outcomes"]["unended"]["wins"] == 6


def test_search_settings_need_a_search_policy() -> None:
    code, text = run("--policy", "random", "--simulations", "10")
    assert code == 2 and "need --policy mcts or ismcts" in text


def test_ismcts_beats_random_seats() -> None:
    # 20 simulations a move against uniformly random play, 2 players, 12 games: a random
    # opponent challenges and bluffs at random and is caught; ISMCTS wins most games (the
    # seeded run below wins at least 9 of 12; a policy no better than random would win
    # about half)
    result = CliRunner().invoke(
        cli,
        [*BASE[:-1], "12", "--policy", "ismcts,random", "--simulations", "20",
         "--format", "json"],
    )  # fmt: skip
    seats = json.loads(result.output)["setups"][0]["seats"]
    assert seats[0]["wins"] >= 9, seats
