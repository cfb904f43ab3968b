"""`cunning-folk advise` with three or four players: the other answerers answer as in the
claim stage's approximate equilibrium (:mod:`ruleslawyer.solvers.cunning_folk.answers`)."""

from __future__ import annotations

import itertools
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ruleslawyer.budget import Budget
from ruleslawyer.solvers.cunning_folk import cfr
from ruleslawyer.solvers.cunning_folk.advise import advise, claim_outcomes, pending_claim
from ruleslawyer.solvers.cunning_folk.answers import (
    OFF_PATH,
    answer_values,
    answerers_text,
    others_answer,
)
from ruleslawyer.solvers.cunning_folk.equilibrium import pending_figure, stage_log
from tests.cunning_folk.helpers import log_of, marks_table

ROOT = Path(__file__).resolve().parents[2]
CF = ROOT / "examples" / "cunning-folk"
F = Fraction


def _doc(claimant: str, role: str, looker: str = "cal", cell: str = "C3") -> dict[str, Any]:
    """Three players; ``looker`` looked at ``cell`` (the card unknown to the log), I looked
    at A1 (a villager), then ``claimant`` says ``cell`` holds ``role``."""
    events = [{"type": "pass", "player": looker, "cell": cell}]
    events.append({"type": "pass", "player": "me", "cell": "A1", "saw": "villager"})
    events.append({"type": "claim", "player": claimant, "cell": cell, "role": role})
    return {
        "setup": "standard",
        "players": ["me", "bea", "cal"],
        "perspective": "me",
        "event": events,
    }


def test_an_earlier_answerer_who_knows_the_card_turns_challenge_into_accept() -> None:
    # cal looked at C3 (I do not know what she saw); bea now says C3 is the good witch.
    # bea's left is cal, then me: cal answers first. The stated table (3 players in: a
    # seat is worth -1/3, -1/2 more with a suspected card, +1/4 for each other seat that
    # holds one; the mover does not matter, so the good witch's extra turn is worth 0).
    # In my worlds the claim is true with chance 1/4.
    #   Only challenger: challenge = 3/4 (-1/3 + 1/4) + 1/4 (-1/3 - 1/2) = -13/48,
    #   accept = -1/3 = -16/48: challenge.
    #   cal knows the card: challenging a bluff gives her +1/4, a true claim -1/2, so she
    #   challenges exactly the bluffs. My turn comes only when she accepted, so the claim
    #   is true: challenge = -1/3 - 1/2 = -5/6, accept = -1/3: accept.
    document = _doc("bea", "good-witch")
    log = log_of(document)
    claim = pending_claim(document, log)
    assert claim is not None
    table = marks_table(F(-1, 2), F(1, 4))
    old = claim_outcomes(log, claim, goes_on=table)
    assert old["true_fraction"] == "1/4"
    assert old["challenge"]["game"]["expected_value"] == "-13/48"
    assert old["accept"]["game"]["expected_value"] == "-1/3"
    assert old["best"] == "challenge"
    new = others_answer(log, claim, (1, 1), table, Budget(max_seconds=60))
    assert [(o["player"], o["answers"]) for o in new["others"]] == [("cal", "before you")]
    assert new["best"] == "accept"
    assert new["accept"] == pytest.approx(-1 / 3, abs=1e-9)
    assert new["challenge"] == pytest.approx(-5 / 6, abs=new["nash_conv"] + 1e-3)
    assert new["margin"] > new["nash_conv"]
    # cal's challenge (given the claim) is about the chance it is a bluff in the profile
    assert 0 < new["your_turn_probability"] < 1


def _brute(game: cfr.MultiStage, approx: cfr.Approximate, role: str) -> tuple[float, float]:
    """A plain reference: every outcome and every answer of every other answerer, one at a
    time; my value of each answer given that every answerer before me accepted."""
    profile = approx.profile
    a = cfr.ACTIONS.index(role)
    j = game.players.index(game.perspective) - 1
    sigma = profile.claimant(True)
    answers = [profile.answerer(i, True) for i in range(game.answerers)]
    made = sum(game.prior[o] * sigma[game.kind[o], a] for o in range(len(game.kind)))
    totals = {0: 0.0, 1: 0.0}
    mass = 0.0
    for o in range(len(game.kind)):
        w = game.weight[j + 1][o] * (sigma[game.kind[o], a] if made >= OFF_PATH else 1.0)
        for i in range(j):  # every earlier answerer accepted
            w *= 1 - answers[i][game.cls[i][o], a, 0, 1]
        mass += w
        for mine in (0, 1):
            later = range(j + 1, game.answerers)
            for bits in itertools.product((0, 1), repeat=len(later)):
                mask, p = mine << j, 1.0
                for i, b in zip(later, bits, strict=True):
                    q = answers[i][game.cls[i][o], a, mask & ((1 << i) - 1), 1]
                    p *= q if b else 1 - q
                    mask |= b << i
                totals[mine] += w * p * game.utility[j + 1, a, mask, o]
    return totals[1] / mass, totals[0] / mass


@pytest.mark.parametrize(
    ("claimant", "role", "looker", "cell"),
    [
        ("bea", "good-witch", "cal", "C3"),  # I answer last
        ("cal", "evil-witch", "bea", "B2"),  # I answer first, bea after me
        ("bea", "villager", "bea", "A2"),  # she looked twice; cal before me
        ("cal", "good-elder", "cal", "B1"),  # an elder run; bea after me
    ],
)
def test_values_equal_a_brute_force_over_the_profile(
    claimant: str, role: str, looker: str, cell: str
) -> None:
    document = _doc(claimant, role, looker, cell)
    log = log_of(document)
    claim = pending_claim(document, log)
    assert claim is not None
    table = marks_table(F(-1, 2), F(1, 4))
    game = cfr.build_multi_stage(stage_log(log, claim), claimant, claim.cell, table)
    approx = cfr.solve(game, iterations=300)
    figure = answer_values(game, approx, role)
    challenge, accept = _brute(game, approx, role)
    assert figure["challenge"] == pytest.approx(challenge, abs=1e-12)
    assert figure["accept"] == pytest.approx(accept, abs=1e-12)
    assert figure["best"] == ("challenge" if challenge > accept else "accept")
    assert np.isfinite(figure["nash_conv"])


def test_two_players_answer_is_unchanged() -> None:
    # Nobody else can answer: the figure is not asked for and the advice is the same.
    document = tomllib.loads((CF / "two-players.toml").read_text())
    log = log_of(document)
    claim = pending_claim(document, log)
    assert claim is not None

    def refuse(*_: Any) -> dict[str, Any]:
        raise AssertionError("asked for the other answerers with two players")

    before = advise(log, claim, equilibrium=pending_figure)
    after = advise(
        log, claim, equilibrium=pending_figure, answerers=(refuse, answerers_text("from-left"))
    )
    assert after == before
    assert "answerers" not in after["claim"] and "answerers" not in after["assumptions"]


def test_three_player_advice_says_what_it_assumes_and_keeps_the_comparison() -> None:
    from ruleslawyer.solvers.cunning_folk.advise import render_text

    document = tomllib.loads((CF / "pending-claim.toml").read_text())
    log = log_of(document)
    claim = pending_claim(document, log)
    result = advise(log, claim, answerers=(others_answer, answerers_text("from-left")))
    figure = result["claim"]["answerers"]
    assert result["claim"]["best"] == figure["best"]
    assert result["claim"]["only_challenger_best"] in ("challenge", "accept", "either")
    assert result["assumptions"]["answerers"] == answerers_text("from-left")
    assert "only challenger" not in result["assumptions"]["utility"]
    text = render_text(result, log)
    assert f"NashConv {figure['nash_conv']:.6f}" in text
    assert "for comparison, if you were the only challenger" in text
