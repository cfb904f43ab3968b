"""Cunning Folk ``balance``: a game traced by hand, seeded reproducibility, counts that add
up, a replay through the model's legal moves, and the CLI's assumptions, budget and errors."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.models.cunning_folk.play import OVER, State, Table, legal_moves, start, step
from ruleslawyer.models.cunning_folk.village import bonus_setup, scoundrel_setup, standard_setup
from ruleslawyer.solvers.cunning_folk.balance import (
    ADVISE_POLICY,
    DEDUCE_POLICY,
    OUTCOMES,
    Seat,
    advise_policy,
    balance,
    deal,
    deal_scoundrels,
    deduce_policy,
    play,
    random_policy,
)
from tests.cunning_folk.helpers import marks_table

STANDARD = Table(standard_setup(), 2)
HEAD2 = {"setup": "standard", "players": ["P1", "P2"]}


def test_a_deduce_game_traced_by_hand() -> None:
    # Both seats deduce. Every cell starts with the same expected information gain about
    # the allegiances (the cells are alike), so P1 looks at A1 (first on ties): the good
    # elder. Given that, a good-elder run must find 3 evil cards among 8 unknown ones:
    # 3/8 * 2/7 * 1/6 = 1/56 < 1/2, so P1 passes.
    # P2 saw nothing (the pass shows no card), looks at A1 too and passes. P1 now knows A1
    # (entropy 0) and looks at A2, a good witch, and claims it. P2 knows A1 is the good elder,
    # so A2 is a good witch in 2/8 of its worlds: challenging is worth 6/8 - 2/8 > 0 to P2
    # (+1 per suspected card the claimant takes, -1 per one P2 takes): P2 challenges, is
    # wrong and is suspected; P1 plays again. A3 (villager) for P1, then for P2 (A2 is face up, A1
    # certain): both pass. P1 looks at B1, an evil witch, and claims it; for P2 that is 2 of
    # the 6 unknown cells, so 4/6 - 2/6 > 0: P2 challenges again, takes a second suspected card
    # and is ostracised: P1 wins.
    village = (
        *("good-elder", "good-witch", "villager"),
        *("evil-witch", "villager", "evil-elder"),
        *("good-witch", "evil-witch", "villager"),
    )
    game = play(STANDARD, HEAD2, [deduce_policy] * 2, random.Random(0), 100, village)
    assert game.moves == (
        *("investigate A1", "pass", "investigate A1", "pass"),
        *("investigate A2", "claim good-witch", "challenge"),
        *("investigate A3", "pass", "investigate A3", "pass"),
        *("investigate B1", "claim evil-witch", "challenge"),
    )
    assert (game.winner, game.outcome) == (0, "ostracism")


def test_a_played_game_replays_step_by_step_through_the_legal_moves() -> None:
    table = Table(bonus_setup(["liar", "vagrant"]), 3)
    head = {"setup": "bonus", "bonus": ["liar", "vagrant"], "players": ["P1", "P2", "P3"]}
    policies = [deduce_policy, random_policy, deduce_policy]
    game = play(table, head, policies, random.Random("replay"), 300)
    state = start(table, game.deal)
    for move in game.moves:
        assert move in legal_moves(table, state)
        state = step(table, state, move)
    assert state.phase == OVER and state.winner == game.winner >= 0


def test_seeded_runs_repeat_and_a_longer_run_extends_a_shorter_one() -> None:
    first = balance(STANDARD, HEAD2, ["deduce", "random"], 6, 7)
    assert balance(STANDARD, HEAD2, ["deduce", "random"], 6, 7) == first
    longer = balance(STANDARD, HEAD2, ["deduce", "random"], 8, 7)
    shorter_wins = [s["wins"] for s in first["seats"]]
    assert all(
        a <= b for a, b in zip(shorter_wins, [s["wins"] for s in longer["seats"]], strict=True)
    )


def test_counts_match_a_plain_replay_of_the_same_seeded_games() -> None:
    result = balance(STANDARD, HEAD2, ["random", "deduce"], 5, 3)
    wins, outcomes = [0, 0], dict.fromkeys(OUTCOMES, 0)
    for i in range(5):  # plain reference: the same games, counted by hand
        game = play(
            STANDARD, HEAD2, [random_policy, deduce_policy], random.Random(f"3/standard/{i}"), 400
        )
        outcomes[game.outcome] += 1
        if game.winner >= 0:
            wins[game.winner] += 1
    assert [s["wins"] for s in result["seats"]] == wins
    assert {k: v["wins"] for k, v in result["outcomes"].items()} == outcomes


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    games=st.integers(1, 12),
    players=st.integers(2, 4),
    max_moves=st.integers(1, 60),
)
def test_rates_and_counts_are_consistent(
    seed: int, games: int, players: int, max_moves: int
) -> None:
    table = Table(standard_setup(), players)
    head = {"setup": "standard", "players": [f"P{p + 1}" for p in range(players)]}
    r = balance(table, head, ["random"] * players, games, seed, max_moves=max_moves)
    assert r["games"] == games and r["finished"]
    assert sum(o["wins"] for o in r["outcomes"].values()) == games
    seats = sum(s["wins"] for s in r["seats"])
    assert seats == games - r["outcomes"]["unended"]["wins"]
    assert r["outcomes"]["good"]["wins"] + r["outcomes"]["evil"]["wins"] <= seats
    for row in [*r["outcomes"].values(), *r["seats"]]:
        low, high = row["interval95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1


def test_the_deal_follows_the_setup_and_the_seed() -> None:
    setup = bonus_setup(["pirate"])
    village = deal(setup, random.Random(5))
    assert sorted(village) == sorted(setup.cards)
    assert deal(setup, random.Random(5)) == village


def test_a_spent_budget_plays_nothing_and_says_so() -> None:
    budget = Budget(max_seconds=1e-9)
    r = balance(STANDARD, HEAD2, ["random", "random"], 4, 0, budget=budget)
    assert r["games"] == 0 and not r["finished"]
    assert r["seats"][0]["win_rate"] is None


def run(*args: str) -> object:
    return CliRunner().invoke(cli, ["cunning-folk", "balance", *args])


def test_cli_states_its_assumptions_and_is_deterministic() -> None:
    args = ("--games", "3", "--players", "2", "--policies", "deduce,random", "--format", "json")
    out = run(*args)
    assert out.exit_code == 0, out.output
    r = json.loads(out.output)
    assert r["policies"]["deduce"] == DEDUCE_POLICY and "random" in r["policies"]
    assert [t["setup"] for t in r["setups"]] == ["standard", "bonus"]
    assert r["finished"] and "sampled: 3 seeded games" in r["setups"][0]["sampled"]
    assert {"rulings", "horizon", "outcomes"} <= set(r)
    assert all("equally likely" in t["prior"] for t in r["setups"])
    assert run(*args).output == out.output
    text = run(
        "--games",
        "2",
        "--setup",
        "standard",
        "--ruling",
        "cunning-folk/villager-challenge=no-penalty",
    )
    assert text.exit_code == 0, text.output
    assert "cunning-folk/villager-challenge=no-penalty" in text.output
    assert "policy advise: as deduce, except" in text.output  # the default
    assert "finished: true" in text.output
    assert ADVISE_POLICY in text.output


def test_cli_budget_ends_with_finished_false_and_exit_3() -> None:
    out = run("--games", "100000", "--setup", "standard", "--max-seconds", "0.2")
    assert out.exit_code == 3, out.output
    assert "finished: false" in out.output


def test_cli_bad_input_is_one_line_and_exit_2() -> None:
    for args in (
        ("--policies", "clever"),
        ("--policies", "random,random", "--players", "3"),
        ("--setup", "bonus", "--bonus", "dragon"),
        ("--ruling", "cunning-folk/nope=x"),
    ):
        out = run("--games", "1", *args)
        assert out.exit_code == 2, (args, out.output)
        assert "Traceback" not in out.output


def scripted(moves: list[str]):  # type: ignore[no-untyped-def]
    """A policy that plays ``moves`` in order, whoever is to act (shared by every seat)."""
    left = iter(moves)
    return lambda seat, state, legal, rng: next(left)


SCOUNDRELS = Table(scoundrel_setup(3), 3)
HEAD3 = {"setup": "scoundrels", "players": ["P1", "P2", "P3"]}
# core six, then the kept liar, cat and pirate
VILLAGE3 = (
    *("good-elder", "good-witch", "good-witch"),
    *("evil-witch", "evil-witch", "evil-elder"),
    *("liar", "cat", "pirate"),
)


def test_a_declaration_answered_with_an_opposing_card_wins_for_the_answerer() -> None:
    # "If one of them reveals a townsfolk that opposes the elder you declared, that player
    # wins the game instead of you": P1 claims the good elder unchallenged and declares at
    # once; P2 (on P1's left) reveals B1, an evil witch, and wins.
    moves = ["investigate A1", "claim good-elder", "accept", "accept", "declare", "reveal B1"]
    game = play(SCOUNDRELS, HEAD3, [scripted(moves)] * 3, random.Random(0), 50, VILLAGE3)
    assert (game.winner, game.outcome) == (1, "refuted")


def test_a_declaration_nobody_answers_stands_even_when_it_is_wrong() -> None:
    # Both opponents decline to reveal: the declaration stands and P1 wins for the good
    # elder, though three evil cards and the pirate were never identified.
    moves = ["investigate A1", "claim good-elder", "accept", "accept", "declare"]
    moves += ["no-reveal", "no-reveal"]
    game = play(SCOUNDRELS, HEAD3, [scripted(moves)] * 3, random.Random(0), 50, VILLAGE3)
    assert (game.winner, game.outcome) == (0, "good")


def test_an_evil_elder_run_that_finds_its_opposition_is_an_evil_win() -> None:
    # Standard village, 2 players: P1 claims the evil elder at B3 unchallenged and picks the
    # two good witches and the good elder: "you must identify the townsfolk that oppose him
    # instead- two good witches and the good elder".
    village = (
        *("good-elder", "good-witch", "good-witch"),
        *("evil-witch", "evil-witch", "evil-elder"),
        *("villager", "villager", "villager"),
    )
    moves = ["investigate B3", "claim evil-elder", "accept", "pick A2", "pick A1", "pick A3"]
    game = play(STANDARD, HEAD2, [scripted(moves)] * 2, random.Random(0), 50, village)
    assert (game.winner, game.outcome) == (0, "evil")


def test_scoundrel_games_replay_and_give_each_seat_its_own_knowledge() -> None:
    rng = random.Random("scoundrels")
    game = play(SCOUNDRELS, HEAD3, [deduce_policy, random_policy, deduce_policy], rng, 300)
    state = start(SCOUNDRELS, game.deal)
    for move in game.moves:
        state = step(SCOUNDRELS, state, move)
    assert state.phase == OVER and state.winner == game.winner
    village, known = deal_scoundrels(3, random.Random(1))
    assert sorted(village) == sorted([*VILLAGE3[:6], *(k["kept"][0] for k in known)])
    assert all(k["kept"] != k["discarded"] or k["kept"] == ["villager"] for k in known)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), games=st.integers(1, 8))
def test_scoundrel_outcomes_add_up(seed: int, games: int) -> None:
    r = balance(SCOUNDRELS, HEAD3, ["random"] * 3, games, seed, max_moves=80)
    assert sum(o["wins"] for o in r["outcomes"].values()) == games
    assert sum(s["wins"] for s in r["seats"]) == games - r["outcomes"]["unended"]["wins"]


def test_the_policy_follows_the_advise_figures() -> None:
    # Differential: at every decision of a deducing seat that `cunning-folk advise` speaks
    # to, the policy's move is what advise's output on that seat's log says: the top of the
    # investigation ranking (one of the cells tied there), the better of challenge and
    # accept (accept on "either"), and at the start of an elder run the planner's first
    # pick (or declaring where it has none).
    # The deduce policy answers a claim by the suspected-card utility alone.
    bonus = Table(bonus_setup(["vagrant", "liar"]), 3)
    head = {"setup": "bonus", "bonus": ["vagrant", "liar"], "players": ["P1", "P2", "P3"]}
    checked = _policy_against_advise([(bonus, head), (STANDARD, HEAD2)], range(3))
    assert all(n > 0 for n in checked.values()), checked


def test_the_advise_policy_answers_claims_as_advise_ranks_them() -> None:
    # The advise policy: advise's better answer on the seat's log with the suspected cards
    # in front of each player (game utility first), everything else as deduce.
    checked = _policy_against_advise([(STANDARD, HEAD2)], range(4), advise_policy)
    assert checked["investigate"] > 0 and checked["challenge"] > 0, checked


@pytest.mark.slow
def test_the_scoundrels_policy_follows_the_advise_figures() -> None:
    checked = _policy_against_advise([(SCOUNDRELS, HEAD3)], range(2))
    assert checked["investigate"] > 0 and checked["challenge"] > 0, checked


def _policy_against_advise(cases: list, seeds: range, policy=None) -> dict[str, int]:  # type: ignore[no-untyped-def]
    from ruleslawyer.models.cunning_folk.log import parse_log
    from ruleslawyer.models.cunning_folk.village import CELLS
    from ruleslawyer.solvers.cunning_folk.advise import advise, pending_claim

    checked = {"investigate": 0, "challenge": 0, "elder": 0}
    for table, head in cases:
        for seed in seeds:
            seen: list[tuple[Seat, State, str]] = []

            def spy(seat, state, legal, rng, seen=seen):  # type: ignore[no-untyped-def]
                move = (policy or deduce_policy)(seat, state, legal, rng)
                seen.append((seat, state, move))
                return move

            play(table, head, [spy] * table.players, random.Random(seed), 60)
            kinds: Counter[str] = Counter()
            for seat, state, move in seen:
                kinds[state.phase] += 1
                if kinds[state.phase] > 3:  # three of each kind a game keep the test quick
                    continue
                document = {**seat.head, "event": list(seat.events)}
                log = seat.log()
                if state.phase == "investigate":
                    out = advise(log, None, max_seconds=60)
                    bits = {row["cell"]: row["bits"] for row in out["investigate"]}
                    # one of the cells advise ranks first (ties broken by elder chance)
                    assert bits[move.split()[-1]] == out["investigate"][0]["bits"]
                    checked["investigate"] += 1
                elif state.phase == "challenge":
                    # the claim is logged once answered: as advise reads it, it is pending
                    claim = {
                        "type": "claim",
                        "player": head["players"][state.player],
                        "cell": CELLS[state.cell],
                        "role": state.claim,
                    }
                    document["event"].append(claim)
                    if policy is not None:  # advise: with the suspected cards on the table
                        document["suspected"] = dict(zip(head["players"], state.marks, strict=True))
                    log = parse_log(document, "t")
                    out = advise(log, pending_claim(document, log), max_seconds=60)["claim"]
                    if policy is None:  # deduce: the suspected-card utility alone
                        old = [out[c]["expected_utility_value"] for c in ("challenge", "accept")]
                        best = "challenge" if old[0] > old[1] else "accept"
                    else:
                        best = out["best"]
                    assert move == ("challenge" if best == "challenge" else "accept")
                    checked["challenge"] += 1
                elif state.phase == "elder" and not state.picked and move != "decline":
                    first = advise(log, None, max_seconds=60)["elder"][state.claim]["first_pick"]
                    assert move == (f"pick {first}" if first else "declare")
                    checked["elder"] += 1
    return checked


def test_each_scoundrel_seat_decides_knowing_its_kept_and_set_aside_card() -> None:
    # "Each player knows one townsfolk that's in the game, and one that's not."
    heads: list[dict] = []

    def spy(seat, state, legal, rng):  # type: ignore[no-untyped-def]
        heads.append(seat.head)
        return random_policy(seat, state, legal, rng)

    game = play(SCOUNDRELS, HEAD3, [spy] * 3, random.Random(2), 30)
    assert heads and all(len(h["kept"]) == len(h["discarded"]) == 1 for h in heads)
    for h in heads:
        assert h["kept"][0] in game.deal
    kept = sorted({(h["perspective"], h["kept"][0]) for h in heads})
    assert len({p for p, _ in kept}) == len(kept)  # one kept card per seat, fixed all game


def test_the_advise_policy_accepts_where_a_challenge_can_lose_the_game() -> None:
    # Two players, P1 holds a suspected card (its bluff in A1 was caught) and saw an evil
    # witch in B2. P2 says A3 is an evil witch: true 1 time in 7. Challenging wins a
    # suspected card off P2 6 times in 7 (deduce, by suspected cards: challenge) but the
    # seventh time P1 is ostracised and P2 wins. Advise weighs the game going on: where a
    # suspected card is worth -1/10 to its holder (+1/10 to the other), challenging is
    # 6/7 x 0 + 1/7 x (-1) = -1/7 against accepting -1/10: accept. Where it is worth
    # -1/2, accepting leaves P1 at -1/2 and challenging is better.
    events = (
        {
            "type": "claim",
            "player": "P1",
            "cell": "A1",
            "role": "good-elder",
            "saw": "villager",
            "challenged": True,
            "revealed": "villager",
        },
        {"type": "pass", "player": "P1", "cell": "B2", "saw": "evil-witch"},
    )
    cheap = marks_table(Fraction(-1, 10), Fraction(1, 10))
    seat = Seat(0, STANDARD, {**HEAD2, "perspective": "P1"}, events, cheap)
    village = (
        *("villager", "good-witch", "evil-witch"),  # A1 A2 A3
        *("good-witch", "evil-witch", "good-elder"),  # B1 B2 B3
        *("evil-elder", "villager", "villager"),  # C1 C2 C3
    )
    state = State(
        village=village,
        face_up=(True,) + (False,) * 8,
        marks=(1, 0),
        player=1,
        phase="challenge",
        cell=2,
        claim="evil-witch",
        responder=0,
    )
    legal = legal_moves(STANDARD, state)
    assert deduce_policy(seat, state, legal, random.Random(0)) == "challenge"
    assert advise_policy(seat, state, legal, random.Random(0)) == "accept"
    dear = replace(seat, goes_on=marks_table(Fraction(-1, 2), Fraction(1, 2)))
    assert advise_policy(dear, state, legal, random.Random(0)) == "challenge"


def game_file(tmp_path, old: str = "", new: str = "", rulings: str = "") -> str:
    from ruleslawyer.gamefiles.source import builtin_path

    text = builtin_path("cunning-folk.toml").read_text("utf-8")
    assert old in text
    path = tmp_path / "my-folk.toml"
    path.write_text(text.replace(old, new, 1) + rulings, "utf-8")
    return str(path)


def test_cli_balance_deals_the_game_files_villages(tmp_path) -> None:
    # One evil witch fewer, one villager more; the bonus characters replace the file's
    # villagers; scoundrels deal the file's core (the printed one) plus one card a player.
    path = game_file(
        tmp_path,
        "evil-witch = 2\nevil-elder = 1\nvillager = 3",
        "evil-witch = 1\nevil-elder = 1\nvillager = 4",
    )
    args = ("--games", "1", "--setup", "standard", "--setup", "bonus", "--bonus", "cat")
    # the deduce and advise policies read logs, which name only the printed setups
    refused = run(path, *args)
    assert refused.exit_code == 2 and "--policies random plays any" in refused.output
    args += ("--policies", "random")
    out = run(path, *args, "--format", "json")
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["game"] == path
    standard, bonus = doc["setups"]
    assert Counter(standard["cards"]) == Counter(
        {"good-witch": 2, "good-elder": 1, "evil-witch": 1, "evil-elder": 1, "villager": 4}
    )
    assert Counter(bonus["cards"]) == Counter(standard["cards"]) - Counter(["villager"]) + Counter(
        ["cat"]
    )


def test_cli_balance_plays_the_game_files_rulings_and_ruling_wins(tmp_path) -> None:
    ruled = '\n[rulings]\n"cunning-folk/villager-challenge" = "no-penalty"\n'
    path = game_file(tmp_path, rulings=ruled)
    args = ("--games", "3", "--players", "2", "--setup", "standard", "--format", "json")
    from_file = json.loads(run(path, *args).output)
    from_option = json.loads(
        run("cunning-folk", *args, "--ruling", "cunning-folk/villager-challenge=no-penalty").output
    )
    assert from_file["rulings"] == {"cunning-folk/villager-challenge": "no-penalty"}
    assert from_file["setups"] == from_option["setups"]
    back = run(path, *args, "--ruling", "cunning-folk/villager-challenge=penalty-applies")
    assert json.loads(back.output)["setups"] == json.loads(run(*args).output)["setups"]


def test_cli_balance_refuses_a_broken_file_and_another_game(tmp_path) -> None:
    path = game_file(tmp_path, "columns = 3", "columns = 4")
    out = run(path, "--games", "1")
    assert out.exit_code == 2 and len(out.output.splitlines()) == 1, out.output
    assert out.output.startswith(f"error: {path}:") and ": grid: found" in out.output
    other = run("kaelyfos", "--games", "1")
    assert other.exit_code == 2 and "expected a cunning-folk game file" in other.output
