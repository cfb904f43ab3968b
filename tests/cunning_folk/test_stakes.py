"""`cunning-folk advise`, win-aware: each answer's branches won, lost or open, by hand and
against the plain reference on the state machine (solvers/cunning_folk_advise_reference.py)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from ruleslawyer.cli.main import cli
from ruleslawyer.models.cunning_folk.play import (
    CHALLENGE,
    OVER,
    Rules,
    Table,
    legal_moves,
    start,
    step,
)
from ruleslawyer.models.cunning_folk.record import _rulings, dump_log, events_of
from ruleslawyer.models.cunning_folk.village import CELLS, bonus_setup, standard_setup
from ruleslawyer.solvers.cunning_folk.advise import advise, pending_claim
from ruleslawyer.solvers.cunning_folk.reference import reference_stakes
from ruleslawyer.solvers.cunning_folk.worlds import brute_force
from tests.cunning_folk.helpers import log_of, random_rules

ME_BEA = ["me", "bea"]


def doc(players: list[str], *events: dict, **keys: Any) -> dict:
    return {
        "setup": "standard",
        "players": players,
        "perspective": "me",
        **keys,
        "event": list(events),
    }


def seen(cell: str, role: str) -> dict:
    return {"type": "pass", "player": "me", "cell": cell, "saw": role}


def caught(player: str, cell: str, role: str, revealed: str) -> dict:
    """A bluff caught: ``player`` said ``role``, the card showed ``revealed``."""
    return {
        "type": "claim",
        "player": player,
        "cell": cell,
        "role": role,
        "challenged": True,
        "revealed": revealed,
    }


def claim(cell: str, role: str, player: str = "bea") -> dict:
    return {"type": "claim", "player": player, "cell": cell, "role": role}


def claim_advice(document: dict) -> dict:
    log = log_of(document)
    result = advise(log, pending_claim(document, log))
    assert result["finished"]
    return result["claim"]


def game(advice: dict, choice: str) -> tuple[str, str, str]:
    g = advice[choice]["game"]
    return g["win"], g["loss"], g["open"]


def test_a_challenge_that_ostracises_the_challenger_is_a_loss() -> None:
    # Two players; my own bluff was caught (a suspected card in front of me). I saw B2: an
    # evil witch. bea now says B2 is an evil witch: true for certain, so a challenge makes
    # me take a second suspected card, I am ostracised and bea, the only player left,
    # wins: a loss with probability 1. Accepting lets her swap: the game goes on.
    document = doc(
        ME_BEA,
        caught("me", "A1", "good-elder", "villager"),
        seen("B2", "evil-witch"),
        claim("B2", "evil-witch"),
    )
    advice = claim_advice(document)
    assert advice["suspected_now"] == {"me": 1, "bea": 0}
    assert game(advice, "challenge") == ("0", "1", "0")
    (branch,) = advice["challenge"]["game"]["branches"]
    assert branch["outcome"] == "loss" and branch["utility"] == -1
    assert "ostracised; bea is the only player left and wins" in branch["what"]
    assert game(advice, "accept") == ("0", "0", "1")
    assert advice["best"] == "accept" and advice["best_by"] == "the game utility"


def test_a_challenge_that_ostracises_the_last_opponent_is_a_win() -> None:
    # Two players; bea's earlier bluff was caught. I saw A1: a villager. bea says A1 is a
    # good witch: a bluff for certain, so a challenge gives her a second suspected card,
    # she is ostracised and I am the only player left: a win with probability 1.
    document = doc(
        ME_BEA,
        caught("bea", "C3", "evil-elder", "villager"),
        seen("A1", "villager"),
        claim("A1", "good-witch"),
    )
    advice = claim_advice(document)
    assert game(advice, "challenge") == ("1", "0", "0")
    (branch,) = advice["challenge"]["game"]["branches"]
    assert branch["what"].endswith("you are the only player left and win")
    assert game(advice, "accept") == ("0", "0", "1")
    assert advice["best"] == "challenge" and advice["best_by"] == "the game utility"
    # With a third player the same challenge only ostracises bea: the game goes on, the
    # game utility is 0 either way and the suspected-card utility (+1 against 0) decides.
    three = claim_advice({**document, "players": ["me", "bea", "cal"]})
    assert game(three, "challenge") == ("0", "0", "1")
    assert three["challenge"]["game"]["branches"][0]["what"].endswith("2 players remain")
    assert three["best"] == "challenge"
    assert three["best_by"] == "the suspected-card utility (equal game utility)"


def test_an_elder_run_that_must_win_is_a_loss_to_accept() -> None:
    # Three players; every evil card is face up (three bluffs caught, one each): bea's
    # good-elder run picks them and wins for certain, so accepting loses. Five cards are
    # unseen (2 good witches, the good elder, 3 villagers but C3 is known to be a villager
    # ... no: B3 is one of six unseen cells): B3 is the good elder 1 time in 6. Challenging:
    # 5/6 bea is caught a second time and ostracised (2 players remain), 1/6 I am (a loss).
    document = doc(
        ["me", "bea", "cal"],
        caught("bea", "A1", "good-witch", "evil-witch"),
        caught("cal", "B1", "good-witch", "evil-witch"),
        caught("me", "C1", "good-witch", "evil-elder"),
        claim("B3", "good-elder"),
    )
    advice = claim_advice(document)
    assert advice["true_fraction"] == "1/6"
    assert game(advice, "accept") == ("0", "1", "0")
    assert game(advice, "challenge") == ("0", "1/6", "5/6")
    assert advice["challenge"]["game"]["expected_game_utility"] == "-1/6"
    assert advice["best"] == "challenge"


def test_the_suspected_table_counts_what_the_log_cannot() -> None:
    # A true claim's challenger is not logged: the table says bea holds a card already.
    document = doc(ME_BEA, seen("A1", "villager"), claim("A1", "good-witch"), suspected={"bea": 1})
    advice = claim_advice(document)
    assert advice["suspected_now"] == {"me": 0, "bea": 1}
    assert game(advice, "challenge") == ("1", "0", "0")


@pytest.mark.parametrize(
    ("suspected", "place", "expected"),
    [
        ({"zed": 1}, "suspected.zed", "one of me, bea"),
        ({"bea": 3}, "suspected.bea", "0, 1 or 2"),
        ({"me": 0}, "suspected.me", "at least 1"),
        ({"me": 2}, "suspected.me", "at most 1: me is the advised player"),
    ],
)
def test_a_bad_suspected_table_is_one_line_and_exit_2(
    tmp_path: Path, suspected: dict, place: str, expected: str
) -> None:
    players = ["me", "bea", "cal"]
    document = doc(players, caught("me", "A1", "good-elder", "villager"), claim("B2", "good-witch"))
    path = tmp_path / "log.toml"
    path.write_text(dump_log({**document, "suspected": suspected}))
    result = CliRunner().invoke(cli, ["cunning-folk", "advise", str(path)])
    assert result.exit_code == 2, result.output
    assert place in result.stderr and expected in result.stderr
    assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1


def test_cli_prints_the_model_beside_the_figures(tmp_path: Path) -> None:
    document = doc(
        ME_BEA,
        caught("me", "A1", "good-elder", "villager"),
        seen("B2", "evil-witch"),
        claim("B2", "evil-witch"),
    )
    path = tmp_path / "log.toml"
    path.write_text(dump_log(document))
    text = CliRunner().invoke(cli, ["cunning-folk", "advise", str(path)]).output
    assert "challenge: game utility -1.0000 (win 0, loss 1, goes on 0)" in text
    assert "assumes utility: +1 you win" in text and "suspected-card utility" in text
    out = json.loads(
        CliRunner().invoke(cli, ["cunning-folk", "advise", str(path), "--format", "json"]).output
    )
    assert out["assumptions"]["utility"].startswith("+1 you win")
    assert out["suspected"] == {"me": 1, "bea": 0}
    assert out["claim"]["game_utility"] == out["assumptions"]["utility"]


# --- against the plain reference, on logs of random games cut at a pending claim ---------


def pending_log(seed: int, any_rules: bool) -> dict | None:
    """A random game played until another player's claim waits for the perspective's
    answer (nobody has challenged it), logged from the perspective with the suspected
    cards in front of each player then; None when the game ends first."""
    rng = random.Random(seed)
    rules = random_rules(random.Random(seed + 1)) if any_rules else Rules()
    n = rng.randint(2, 4)
    if rng.random() < 0.7:
        setup, keys = standard_setup(), {"setup": "standard"}
    else:
        bonus = rng.sample(["liar", "cat", "pirate", "vagrant", "good-witch"], rng.randint(1, 2))
        setup, keys = bonus_setup(bonus), {"setup": "bonus", "bonus": bonus}
    table = Table(setup, n, rules)
    names = ["me", "bea", "cal", "dan"][:n]
    me = rng.randrange(n)
    cards = list(setup.cards)
    rng.shuffle(cards)
    state = start(table, tuple(cards))
    events: list[dict] = []
    skip = rng.randrange(4)  # pass over a few chances to stop
    for _ in range(200):
        if state.phase == OVER:
            return None
        if state.phase == CHALLENGE and state.responder == me and not state.challengers:
            if skip == 0:
                pending = claim(CELLS[state.cell], state.claim, names[state.player])
                document = {**keys, "players": names, "perspective": names[me]}
                if _rulings(rules):
                    document["rulings"] = _rulings(rules)
                marks = dict(zip(names, state.marks, strict=True))
                return {**document, "suspected": marks, "event": [*events, pending]}
            skip -= 1
        move = rng.choice(legal_moves(table, state))
        after = step(table, state, move)
        events += events_of(state, move, after, names, me, table.rules)
        state = after
    return None


def _check_against_reference(seed: int, any_rules: bool, max_worlds: int) -> None:
    document = pending_log(seed, any_rules)
    assume(document is not None)
    log = log_of(document)
    assume(log.unknown_swaps <= 2)
    assume(len(brute_force(log)) <= max_worlds)
    result = advise(log, pending_claim(document, log))
    assert result["finished"]
    event(f"{len(log.players)} players, claim {result['claim']['role']}")
    expected = reference_stakes(log, pending_claim(document, log))
    for choice in ("challenge", "accept"):
        g = result["claim"][choice]["game"]
        got = {k: Fraction(g[k]) for k in ("win", "loss", "open")}
        assert got == {k: expected[choice][k] for k in got}, choice
        assert Fraction(g["expected_game_utility"]) == expected[choice]["utility"]
        event(f"{choice}: " + ", ".join(k for k in ("win", "loss") if got[k]))
        branches = g["branches"]
        assert sum(Fraction(b["probability"]) for b in branches) == 1
        for k in got:
            assert sum(Fraction(b["probability"]) for b in branches if b["outcome"] == k) == got[k]


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(0, 100_000), any_rules=st.booleans())
def test_matches_the_plain_reference_on_generated_logs(seed: int, any_rules: bool) -> None:
    _check_against_reference(seed, any_rules, max_worlds=400)


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(0, 1_000_000), any_rules=st.booleans())
def test_matches_the_plain_reference_on_many_generated_logs(seed: int, any_rules: bool) -> None:
    _check_against_reference(seed, any_rules, max_worlds=3000)
