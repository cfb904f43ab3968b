"""`cunning-folk advise` on a pending claim: each branch won, lost or going on, every player
deciding from what they know; hand-worked cases from the rulebook and the plain reference
(solvers/cunning_folk/reference.py) on generated logs."""

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
from ruleslawyer.solvers.cunning_folk.advise import advise, claim_outcomes, pending_claim
from ruleslawyer.solvers.cunning_folk.goes_on import continuation
from ruleslawyer.solvers.cunning_folk.reference import reference_claim, worlds
from tests.cunning_folk.helpers import log_of, marks_table, random_rules

F = Fraction
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


def claim_advice(document: dict, table: continuation.Table | None = None) -> dict:
    log = log_of(document)
    return claim_outcomes(log, pending_claim(document, log), goes_on=table)


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
    advice = claim_advice(document, marks_table(F(-1, 2), F(1, 2)))
    assert advice["suspected_now"] == {"me": 1, "bea": 0}
    assert game(advice, "challenge") == ("0", "1", "0")
    (branch,) = advice["challenge"]["game"]["branches"]
    assert branch["outcome"] == "loss" and branch["value"] == "-1"
    assert "ostracised; bea is the only player left and wins" in branch["what"]
    assert game(advice, "accept") == ("0", "0", "1")
    # accepting: the game goes on with my suspected card, -1/2
    assert advice["accept"]["game"]["expected_value"] == "-1/2"
    assert advice["best"] == "accept"


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
    table = marks_table(F(-1, 2), F(1, 2))
    advice = claim_advice(document, table)
    assert game(advice, "challenge") == ("1", "0", "0")
    (branch,) = advice["challenge"]["game"]["branches"]
    assert branch["what"].endswith("you are the only player left and win")
    assert game(advice, "accept") == ("0", "0", "1")
    assert advice["best"] == "challenge"
    # With a third player the same challenge only ostracises bea: the game goes on between
    # me and cal (even chances: 0 with this table), against accepting with bea still in
    # holding her card (three in: -1/3 + 1/2 = 1/6 to me): accepting is better here.
    three = claim_advice({**document, "players": ["me", "bea", "cal"]}, table)
    assert game(three, "challenge") == ("0", "0", "1")
    assert three["challenge"]["game"]["expected_value"] == "0"
    assert three["accept"]["game"]["expected_value"] == "1/6"
    assert three["best"] == "accept"


def test_an_elder_run_that_must_win_is_a_loss_to_accept() -> None:
    # Three players; every evil card is face up (three bluffs caught, one each): bea's
    # good-elder run picks them and wins for certain, from her worlds as from mine, so
    # accepting loses. Six cards are unseen (2 good witches, the good elder, 3 villagers):
    # B3 is the good elder 1 time in 6. Challenging: 5/6 bea is caught a second time and
    # ostracised (me and cal go on: 0 with this table), 1/6 I am (a loss): -1/6.
    document = doc(
        ["me", "bea", "cal"],
        caught("bea", "A1", "good-witch", "evil-witch"),
        caught("cal", "B1", "good-witch", "evil-witch"),
        caught("me", "C1", "good-witch", "evil-elder"),
        claim("B3", "good-elder"),
    )
    advice = claim_advice(document, marks_table(F(-1, 4), F(1, 4)))
    assert advice["true_fraction"] == "1/6"
    assert game(advice, "accept") == ("0", "1", "0")
    assert game(advice, "challenge") == ("0", "1/6", "5/6")
    assert advice["challenge"]["game"]["expected_value"] == "-1/6"
    assert advice["best"] == "challenge"


def test_her_run_is_planned_over_her_worlds_not_mine() -> None:
    # Issue 34's knowledge case. Two players. My bluff in C3 was caught (a villager, face
    # up: my suspected card), and I have looked at A1, B1 and C1: the three evil cards.
    # bea has looked at nothing but A2, and says it is the good elder.
    # Over my worlds A2 is one of the five cards I have not seen (2 good witches, the good
    # elder, 2 villagers): true 1 time in 5. Challenging: 4/5 she is caught (a suspected
    # card each: 0 with this table), 1/5 I am ostracised and she wins: -1/5.
    # Accepted, her run is hers: she does not know where the evil cards are; from her
    # side they are three among the seven cells she knows nothing of (A2 is hers, C3 is
    # face up), every order alike, so she finds them 1 time in C(7,3) = 35, in my worlds
    # as in hers. A failed run costs her a suspected card (0 with this table). Accepting:
    # -1/35. Accept is right (the planner run over my worlds would win for sure: -1).
    document = doc(
        ME_BEA,
        caught("me", "C3", "good-witch", "villager"),
        seen("A1", "evil-witch"),
        seen("B1", "evil-witch"),
        seen("C1", "evil-elder"),
        claim("A2", "good-elder"),
    )
    advice = claim_advice(document, marks_table(F(-1, 2), F(1, 2)))
    assert advice["true_fraction"] == "1/5"
    assert advice["claimant_run"] == {"failed": "34/35", "won": "1/35"}
    assert advice["challenge"]["game"]["expected_value"] == "-1/5"
    assert advice["accept"]["game"]["expected_value"] == "-1/35"
    assert advice["best"] == "accept"
    log = log_of(document)
    assert reference_claim(log, 1, "good-elder", "bea", fill=None)["accept"]["loss"] == F(1, 35)


def test_a_good_witch_and_a_suspected_card_are_valued_not_zero() -> None:
    # Issue 34: a game that goes on was worth 0, so another turn, a swap and a suspected
    # card that does not ostracise all counted nothing. Two players, nothing seen, bea says
    # A1 is a good witch (2 of 9 cards). With a table where a suspected card costs its
    # holder 1/2 (and is worth 1/2 to the other): challenging, 7/9 she is caught (+1/2 to
    # me), 2/9 I take one (-1/2): 5/18. Accepting: another turn for her, no card: 0.
    document = doc(ME_BEA, claim("A1", "good-witch"))
    advice = claim_advice(document, marks_table(F(-1, 2), F(1, 2)))
    assert advice["challenge"]["game"]["expected_value"] == "5/18"
    assert advice["best"] == "challenge"
    # The range over which the answer holds, per value it rests on, is exact: challenging
    # is 7/9 x v(bea suspected, me to move) + 2/9 x v(me suspected, bea to move again),
    # accepting v(nobody suspected, bea to move again): three values. The first holds the
    # answer down to where 7/9 v + 2/9 (-1/2) = 0: v = 1/7.
    rows = {(r["state"], r["you"]): r for r in advice["sensitivity"]}
    assert len(rows) == 3
    for row in rows.values():
        assert row["holds_from"] < row["value_float"] < row["holds_to"]
    caught_row = rows[("2 players in: to move, then 2 (suspected)", 1)]
    assert caught_row["holds_from"] == round(1 / 7, 4) and caught_row["holds_to"] == 1
    # every value at 0 (the old model): both answers worth 0, either
    zero = claim_advice(document, continuation.zero())
    assert zero["best"] == "either"


def test_the_suspected_table_counts_what_the_log_cannot() -> None:
    # A true claim's challenger is not logged: the table says bea holds a card already.
    document = doc(ME_BEA, seen("A1", "villager"), claim("A1", "good-witch"), suspected={"bea": 1})
    advice = claim_advice(document)
    assert advice["suspected_now"] == {"me": 0, "bea": 1}
    assert game(advice, "challenge") == ("1", "0", "0")


def test_a_villager_claim_in_a_village_without_villagers_is_answered(tmp_path: Path) -> None:
    # Issue 34's crash: "You can declare that you've found a villager if you like", in a
    # bonus village whose three villagers were all replaced: a certain bluff, every claim
    # the log may hold is in the stage's claim set.
    document = {
        "setup": "bonus",
        "bonus": ["liar", "cat", "pirate"],
        "players": ME_BEA,
        "perspective": "me",
        "event": [claim("A1", "villager")],
    }
    path = tmp_path / "log.toml"
    path.write_text(dump_log(document))
    for command in ("advise", "equilibrium"):
        done = CliRunner().invoke(cli, ["cunning-folk", command, str(path), "--format", "json"])
        assert done.exit_code == 0, done.output
        out = json.loads(done.stdout)
        if command == "advise":
            assert out["claim"]["true_fraction"] == "0"
            assert out["claim"]["equilibrium"] is not None
        else:
            assert "villager" in out["challenge_probability"]["A1"]


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
    assert "challenge: value -1.0000 = -1 (win 0, loss 1, goes on 0)" in text
    assert "assumes utility: each seat's value" in text and "assumes goes on: " in text
    assert "assumes knowledge: every player decides from their own worlds" in text
    assert "the answer stays the same from" in text
    out = json.loads(
        CliRunner().invoke(cli, ["cunning-folk", "advise", str(path), "--format", "json"]).output
    )
    assert "sampled" in out["assumptions"]["goes_on"]
    assert out["suspected"] == {"me": 1, "bea": 0}


# --- against the plain reference, on logs of random games cut at a pending claim ---------


def pending_log(seed: int, any_rules: bool, players: int | None = None) -> dict | None:
    """A random game played until another player's claim waits for the perspective's
    answer (nobody has challenged it), logged from the perspective with the suspected
    cards in front of each player then; None when the game ends first."""
    rng = random.Random(seed)
    rules = random_rules(random.Random(seed + 1)) if any_rules else Rules()
    n = players or rng.randint(2, 4)
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


def _check_against_reference(
    seed: int, any_rules: bool, max_worlds: int, players: int | None = None
) -> None:
    document = pending_log(seed, any_rules, players)
    assume(document is not None)
    log = log_of(document)
    assume(log.unknown_swaps <= 1 and sum(e.swap is not None for e in log.events) <= 2)
    assume(len(worlds(log, log.perspective)) <= max_worlds)
    assume(len(worlds(log, None)) <= 4 * max_worlds)
    claim = pending_claim(document, log)
    result = advise(log, claim)
    assert result["finished"]
    event(f"{len(log.players)} players, claim {result['claim']['role']}")
    expected = reference_claim(log, claim.cell, claim.role, claim.player)
    for choice in ("challenge", "accept"):
        g = result["claim"][choice]["game"]
        got = {k: Fraction(g[k]) for k in ("win", "loss", "open")}
        assert got == {k: expected[choice][k] for k in got}, choice
        assert Fraction(g["expected_value"]) == expected[choice]["utility"], choice
        event(f"{choice}: " + ", ".join(k for k in ("win", "loss") if got[k]))
        branches = g["branches"]
        assert sum(Fraction(b["probability"]) for b in branches) == 1
        for k in got:
            assert sum(Fraction(b["probability"]) for b in branches if b["outcome"] == k) == got[k]


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 100_000), any_rules=st.booleans(), players=st.sampled_from([2, 3, 4]))
def test_matches_the_plain_reference_on_generated_logs(
    seed: int, any_rules: bool, players: int
) -> None:
    _check_against_reference(seed, any_rules, max_worlds=300, players=players)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 1_000_000), any_rules=st.booleans(), players=st.sampled_from([2, 3, 4]))
def test_matches_the_plain_reference_on_many_generated_logs(
    seed: int, any_rules: bool, players: int
) -> None:
    _check_against_reference(seed, any_rules, max_worlds=2000, players=players)


def test_the_knowledge_example_through_the_cli() -> None:
    # examples/cunning-folk/her-knowledge.toml (the case above, with the shipped table):
    # her run ends 34 times in 35 on a card that does not oppose; accepting is better
    # whatever the sampled values, within their intervals.
    path = Path(__file__).resolve().parents[2] / "examples" / "cunning-folk" / "her-knowledge.toml"
    done = CliRunner().invoke(cli, ["cunning-folk", "advise", str(path), "--format", "json"])
    assert done.exit_code == 0, done.output
    found = json.loads(done.stdout)["claim"]
    assert found["true_fraction"] == "1/5"
    assert found["claimant_run"] == {"failed": "34/35", "won": "1/35"}
    assert found["best"] == "accept"
    assert all(row["holds_within_interval"] for row in found["sensitivity"])
