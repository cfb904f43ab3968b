"""twist-of-fate balance: UCT held to max^n, dominance to brute force, the CLI end to end."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, assume, given, settings

from ruleslawyer.cli.main import cli
from ruleslawyer.models.twist_of_fate.files import Position, position_from_document
from ruleslawyer.models.twist_of_fate.play import Deck, Rules, State, legal_moves, play
from ruleslawyer.solvers.twist_of_fate.balance import MODES, Tally, mode
from ruleslawyer.solvers.twist_of_fate.maxn import analyse
from ruleslawyer.solvers.twist_of_fate.mcts import playout, random_move, rewards, search
from ruleslawyer.solvers.twist_of_fate.reference.maxn import MaxnSearch, solve_moves
from tests.twist_of_fate.test_solve import EXAMPLE, positions

SMALL = dict(
    max_examples=25,
    deadline=None,
    derandomize=True,
    phases=(Phase.explicit, Phase.generate),  # shrinking a UCT run takes minutes
)
SMALL_CHECKS = [HealthCheck.too_slow, HealthCheck.filter_too_much]
CHECKED: list[int] = []  # root move counts of the positions UCT was held to


def test_rulebook_example_by_hand() -> None:
    # Eliza (3/0) plays her last card, Mr. Brownlow, on Zach (Ann is full): one ply.
    # Face up side 0 facing Zach: Eliza takes side 1 (+1/+1), 4/1, scores: (0, 1, 1).
    # Face up side 1: Eliza takes side 0 (-2 Luck, +2 Shilling): 1/2: (0, 0, 3).
    # Face down, Eliza raising Luck: 4/0 scores: (0, 1, 0); raising Shilling: (0, 0, 3).
    # So Eliza's best is side 0 (the rulebook's play); "side 1" in the report's words.
    position = position_from_document(EXAMPLE, "example")
    state = position.state
    move, visits = search(state, position.deck, Rules(), 60, 0.4, random.Random(0))
    assert (move.card, move.target, mode(move)) == ("Mr. Brownlow", 1, "side 1")
    assert sum(v for _, v in visits) == 60 and len(visits) == 6
    tally = Tally(3)
    tally.sample(state, analyse(position, Rules()).scored)
    assert tally.positions == 1
    assert tally.best[("Mr. Brownlow", "side 1")] == 1
    assert tally.best[("Mr. Brownlow", "side 2")] == 0
    assert tally.best[("Mr. Brownlow", "face-down")] == 0
    assert tally.legal[("Mr. Brownlow", "face-down")] == 1


def _to_move(case: tuple[Position, Rules]) -> tuple[Position, Rules, State, Deck]:
    """A generated position's parts, with a player to move (others are discarded)."""
    position, rules = case
    assume(not position.state.over and not position.state.round_over)
    return position, rules, position.state, position.deck


def _tie_free(search_: MaxnSearch, state: State) -> bool:
    """Whether every seat's best moves give the same value vector everywhere below: then
    max^n's spiteful tie-break never decides and averaging players agree with it."""
    kids = search_.children(state)
    if not kids:
        return True
    vectors = [search_.value(s) for _, s in kids]
    top = max(v[state.active] for v in vectors)
    if len({v for v in vectors if v[state.active] == top}) > 1:
        return False
    return all(_tie_free(search_, s) for _, s in kids)


@settings(**SMALL, suppress_health_check=SMALL_CHECKS)
@given(positions(most=2))
def test_uct_finds_the_maxn_move(case: tuple[Position, Rules]) -> None:
    # Two plies at most, so the tree has at most a few hundred leaves: with 2000
    # iterations and an exploration constant well below the smallest reward step (1/161
    # for one point of Luck + Shilling is about 0.006; the constant scales a bonus that
    # shrinks with visits), UCT's most visited move gives the mover the max^n utility of
    # the reference solver's best move.
    _, rules, state, deck = _to_move(case)
    assume(_tie_free(MaxnSearch(deck, rules, "maxn", state.active), state))
    scored, _, _ = solve_moves(state, deck, rules)
    # UCT's reward keeps the utility's order without its tempo (the module says so):
    # compare outcome, Sanctuary and Luck + Shilling
    best = max(_untimed(v[state.active]) for _, v in scored)
    CHECKED.append(len(scored))
    move, _ = search(state, deck, rules, 2000, 0.01, random.Random(1))
    assert _untimed(dict(scored)[move][state.active]) == best


def _untimed(u: tuple[int, int, int, int]) -> tuple[int, int, int]:
    outcome, _, sanctuary, luck_shilling = u
    return outcome, sanctuary, luck_shilling


def test_uct_was_held_to_real_choices() -> None:
    # the filter above must leave positions with a choice to make, or the test holds nothing
    if not CHECKED:
        test_uct_finds_the_maxn_move()
    assert sum(n > 1 for n in CHECKED) >= 5


@settings(**SMALL, suppress_health_check=SMALL_CHECKS)
@given(positions(most=3))
def test_playouts_are_legal_and_end_at_the_horizon(case: tuple[Position, Rules]) -> None:
    _, rules, state, deck = _to_move(case)
    rng = random.Random(0)
    at = state
    while not (at.over or at.round_over):
        move = random_move(at, deck, rules, rng)
        assert move in legal_moves(at, deck, rules)
        at = play(at, move, deck, rules)
    assert playout(state, deck, rules, random.Random(0)) == rewards(at)


@settings(**SMALL, suppress_health_check=SMALL_CHECKS)
@given(positions(most=6))
def test_uct_is_seeded_and_accounts_for_every_iteration(case: tuple[Position, Rules]) -> None:
    _, rules, state, deck = _to_move(case)
    move, visits = search(state, deck, rules, 40, 0.1, random.Random(5))
    assert move in legal_moves(state, deck, rules)
    assert [m for m, _ in visits] == list(legal_moves(state, deck, rules))
    assert sum(v for _, v in visits) == 40
    assert search(state, deck, rules, 40, 0.1, random.Random(5)) == (move, visits)


@settings(**SMALL, suppress_health_check=SMALL_CHECKS)
@given(positions(most=4))
def test_dominance_against_brute_force(case: tuple[Position, Rules]) -> None:
    # Brute force: play every legal move, value it with the reference max^n search, and
    # call a (card, way) worth playing if one of its moves reaches the mover's best.
    position, rules, state, deck = _to_move(case)
    ref = MaxnSearch(deck, rules, "maxn", state.active)
    values = {m: ref.value(play(state, m, deck, rules)) for m in legal_moves(state, deck, rules)}
    top = max(v[state.active] for v in values.values())
    tally = Tally(state.players)
    tally.sample(state, analyse(position, rules).scored)
    for card in deck.names:
        for way in (None, *MODES):
            mine = [v for m, v in values.items() if m.card == card and way in (None, mode(m))]
            assert tally.legal[(card, way)] == (1 if mine else 0)
            worth = any(v[state.active] == top for v in mine)
            assert tally.best[(card, way)] == (1 if worth else 0)


def _run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["twist-of-fate", "balance", *args], catch_exceptions=False)


FAST = ("--games", "2", "--iterations", "4", "--exact-plies", "3")


def test_cli_json_adds_up_and_is_deterministic() -> None:
    first = _run(*FAST, "--players", "2,3", "--seed", "7", "--format", "json")
    again = _run(*FAST, "--players", "3,2", "--seed", "7", "--format", "json")
    assert first.exit_code == 0 and first.output == again.output
    out = json.loads(first.output)
    assert out["finished"] is True and out["seed"] == 7
    assert out["agents"]["uct"]["iterations"] == 4 and out["agents"]["uct"]["exact_plies"] == 3
    assert out["seat_agents"] == "every seat: uct"
    assert out["deck_provenance"] == "placeholder" and out["warning"]
    for t in out["player_counts"]:
        assert t["games"] == 2 and t["sampled"] == "sampled: 2 games"
        wins = sum(s["wins"] for s in t["seats"]) + t.get("monks", {"wins": 0})["wins"]
        assert wins + t["unended"] == 2
        assert ("monks" in t) == (t["players"] == 2)
        assert sum(c["played"] for c in t["cards"]) == t["plays"]
        for c in t["cards"]:
            assert sum(m["played"] for m in c["modes"].values()) == c["played"]
        for d in t["dominance"]:
            assert d["best_in"] <= d["legal_in"] <= t["positions_sampled"]
    text = _run(*FAST, "--players", "2,3", "--seed", "7")
    assert text.exit_code == 0
    assert "sampled: 2 games" in text.output and "UCT with 4 iterations" in text.output
    assert "seed: 7" in text.output and text.output.endswith("finished: true\n")


def test_cli_rulings_change_the_games() -> None:
    # reset-each-round puts Luck and Shilling at 0 for every new round: the games part.
    base = _run(*FAST, "--players", "3", "--format", "json")
    ruled = _run(*FAST, "--players", "3", "--format", "json", "--ruling",
                 "twist-of-fate/carry-over=reset-each-round")  # fmt: skip
    assert json.loads(ruled.output)["rulings"] == {"twist-of-fate/carry-over": "reset-each-round"}
    assert json.loads(base.output)["player_counts"] != json.loads(ruled.output)["player_counts"]


def test_cli_agents_per_seat() -> None:
    # One policy per seat with one player count; seat 2 and 3 random solve nothing, so
    # every sampled position is one where seat 1 (uct) was to move.
    out = _run(*FAST, "--players", "3", "--policy", "uct,random,random", "--format", "json")
    found = json.loads(out.output)
    assert found["seat_agents"] == {"seat 1": "uct", "seat 2": "random", "seat 3": "random"}
    assert set(found["agents"]) == {"uct", "random"}
    for args, needle in (
        (("--players", "2,3", "--policy", "uct,random"), "expected 1, or one per seat"),
        (("--players", "3", "--policy", "uct,random"), "found 2 policies"),
        (("--policy", "clever"), "expected a comma-separated list of uct | mcts | random"),
        (("--policy", "random", "--iterations", "5"), "need --policy uct"),
        (("--policy", "uct", "--simulations", "5"), "need --policy mcts"),
        (("--policy", "mcts", "--uct-c", "nan"), "--uct-c"),
    ):
        result = CliRunner().invoke(cli, ["twist-of-fate", "balance", *args])
        assert result.exit_code == 2 and needle in result.output, result.output


def test_cli_openspiel_mcts_at_a_seat() -> None:
    # OpenSpiel's MCTS at seat 1 (3 simulations a move; games cut after round 2): its
    # settings are stated, no position is solved exactly (no uct seat), the games add up,
    # and the same seed gives the same bytes.
    args = ("--games", "2", "--players", "3", "--policy", "mcts,random,random",
            "--simulations", "3", "--max-rounds", "2", "--format", "json")  # fmt: skip
    first, again = _run(*args), _run(*args)
    assert first.exit_code == 0 and first.output == again.output
    out = json.loads(first.output)
    mcts = out["agents"]["mcts"]
    assert (mcts["simulations"], mcts["uct_c"], mcts["rollouts"]) == (3, 2.0, 1)
    assert "OpenSpiel" in mcts["text"] and "random rollouts" in mcts["evaluator"]
    assert "-1 to every other player" in mcts["returns"]
    assert out["dominance"].startswith("none sampled") and out["max_rounds"] == 2
    [t] = out["player_counts"]
    assert sum(s["wins"] for s in t["seats"]) + t["unended"] == 2 and t["positions_sampled"] == 0
    text = _run(*args[:-2])
    assert "agent mcts: OpenSpiel's MCTS" in text.output and "  evaluator: random" in text.output


def test_cli_budget_cut_says_unfinished() -> None:
    out = _run(*FAST, "--games", "50", "--players", "3", "--max-seconds", "0.5",
               "--format", "json")  # fmt: skip
    assert out.exit_code == 3
    found = json.loads(out.output)
    assert found["finished"] is False
    assert found["player_counts"][0]["games"] < 50


def test_cli_bad_input_is_one_line() -> None:
    for args, needle in (
        (("no-such-deck.toml",), "no-such-deck.toml"),
        (("--players", "5"), "expected a comma-separated list of 2, 3 and 4"),
        (("--ruling", "twist-of-fate/carry-over=sometimes"), "sometimes"),
    ):
        result = CliRunner().invoke(cli, ["twist-of-fate", "balance", *args])
        assert result.exit_code == 2, result.output
        assert needle in result.output and "Traceback" not in result.output


@pytest.mark.slow
def test_default_agent_every_count() -> None:
    # The default agent at 2, 3 and 4 players: every game ends with a winner (or unended),
    # and the same seed gives the same bytes.
    args = ("--games", "3", "--format", "json")
    first, again = _run(*args), _run(*args)
    assert first.exit_code == 0 and first.output == again.output
    out = json.loads(first.output)
    assert [t["players"] for t in out["player_counts"]] == [2, 3, 4]
    for t in out["player_counts"]:
        wins = sum(s["wins"] for s in t["seats"]) + t.get("monks", {"wins": 0})["wins"]
        assert wins + t["unended"] == t["games"] == 3
        assert t["positions_sampled"] > 0


TINY_DECK = """
name = "Tiny"
provenance = "assumed"
[[character]]
name = "Up"
sides = [ { luck = 2, shilling = 0 }, { luck = 0, shilling = 1 } ]
[[character]]
name = "Down"
sides = [ { luck = -1, shilling = -1 }, { luck = 1, shilling = 2 } ]
[[character]]
name = "Swap"
sides = [ { gives = { luck = 1 }, takes = { shilling = 1 } }, { luck = 0, shilling = 0 } ]
"""


def test_cli_reads_a_deck_file(tmp_path: Path) -> None:
    # A three-card deck: hands of three, every card reported, the provenance carried
    # through. The 2-player variant draws three of six unused cards: it needs six.
    deck = tmp_path / "tiny.toml"
    deck.write_text(TINY_DECK, "utf-8")
    two = CliRunner().invoke(cli, ["twist-of-fate", "balance", str(deck), "--players", "2,3"])
    assert two.exit_code == 2 and "found '3 characters', expected 6" in two.output
    result = _run(str(deck), *FAST, "--players", "3,4", "--format", "json")
    assert result.exit_code == 0
    out = json.loads(result.output)
    assert out["deck"] == "Tiny" and out["deck_provenance"] == "assumed"
    assert "assumed" in out["warning"] and out["placeholder_cards"] == ["Up", "Down", "Swap"]
    for t in out["player_counts"]:
        assert [c["card"] for c in t["cards"]] == ["Up", "Down", "Swap"]
        assert t["plays"] == t["mean_plies"] * t["games"]


def test_cli_bad_deck_file_is_one_line(tmp_path: Path) -> None:
    deck = tmp_path / "bad.toml"
    deck.write_text(TINY_DECK.replace("luck = 2,", "luck = 9,"), "utf-8")
    result = CliRunner().invoke(cli, ["twist-of-fate", "balance", str(deck)])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert "bad.toml" in result.output and "character[0].sides[0]" in result.output


def test_a_deck_of_seven_characters_is_refused_at_load(tmp_path: Path) -> None:
    # seven cards in hand and at most six in front of each player: no round can end (the
    # default agent's playout found no move and raised IndexError)
    extra = "".join(
        f'[[character]]\nname = "E{i}"\nsides = [{{ luck = 1, shilling = -1 }}, '
        "{ luck = 0, shilling = 1 }]\n"
        for i in range(4)
    )
    deck = tmp_path / "seven.toml"
    deck.write_text(TINY_DECK + extra, "utf-8")
    result = CliRunner().invoke(cli, ["twist-of-fate", "balance", str(deck), "--players", "3"])
    assert result.exit_code == 2 and result.stderr == (
        f"error: {deck}: character: found '7 characters', expected at most 6, the hand the "
        "rules deal each player\n"
    )
