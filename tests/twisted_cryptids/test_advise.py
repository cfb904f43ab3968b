"""Twisted Cryptids ``advise``: exact averaging against a brute-force reference, known answers,
seeded reproducibility and the CLI."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ruleslawyer.models.twisted_cryptids.game import builtin_game
from ruleslawyer.models.twisted_cryptids.play import legal_moves, scored_humans, step
from ruleslawyer.solvers.twisted_cryptids.advise import advise, world_count
from ruleslawyer.solvers.twisted_cryptids.reference import brute_force
from ruleslawyer.solvers.twisted_cryptids.simulate import position

GAME = builtin_game()
# 2-player positions late in seeded games with few hidden cards (found by a scan of seeds):
# (seed, moves) -> a Dawn, a Reveal with one choice, a Reveal with five target choices
# (4, 61) is a last-round Dawn whose reference takes minutes: slow
SMALL = [
    (1, 58),
    (3, 67),
    pytest.param(4, 61, marks=pytest.mark.slow),
    (7, 58),
]


@pytest.mark.parametrize(("seed", "moves"), SMALL)
def test_exact_matches_brute_force(seed: int, moves: int) -> None:
    state = position(GAME, 2, seed, moves)
    actor = state.actor()
    assert actor is not None
    # a Dawn: all three of the actor's Day turns are to come; the reference plays every Day
    # line in every world on its own (with one card in hand, 14 minutes), so the actor's hand
    # is emptied: their Day turns pass (test_advise_model.py checks chosen Day turns)
    hands = tuple(() if p == actor else h for p, h in enumerate(state.hands))
    state = replace(state, hands=hands)
    fast = advise(state, exact_limit=10_000)
    assert fast["mode"] == "exact" and fast["finished"]
    ref = brute_force(state)
    assert len(fast["choices"]) == len(legal_moves(state))
    for row in fast["choices"]:
        mine, leader = ref[row["move"]]
        assert row["score_change"]["mean"] == pytest.approx(mine, abs=1e-4)
        assert row["leader_score_change"]["mean"] == pytest.approx(leader, abs=1e-4)


def test_own_reveal_known_answer() -> None:
    # At Dusk the player to act reveals the top Sighting of their own Stack at the Encounter
    # Site, which they know: "Myth per Human of each kind at the Encounter Site" of that card.
    # The next revealer is the other player or nobody; their card cannot change ours, so the
    # change is the same in every world (a spread of zero), the card's Myth for those Humans.
    # Round 4: the horizon ends at this Dusk, counting Myth.
    state = position(GAME, 2, 7, 58)
    assert state.phase == "reveal" and state.round == 4
    actor = state.actor()
    assert actor is not None
    token = state.spots[actor].index(state.encounter)
    card = GAME.cryptids[state.cryptids[actor]].sightings[state.stacks[actor][token][0]]
    # the actor has 0 Myth and the card loses 2: "floor-at-zero" (the default) keeps 0
    assert state.myth[actor] == 0 and card.myth_for(scored_humans(state)) == -2
    expected = 0
    result = advise(state, exact_limit=1, samples=30, seed=5)
    assert result["mode"] == "sampled"
    for row in result["choices"]:
        assert row["score_change"]["mean"] == expected
        assert row["score_change"]["interval95"] == [expected, expected]
    unfloored = advise(
        replace(state, rulings=(("twisted-cryptids/myth-floor", "negative"),)),
        exact_limit=1,
        samples=30,
        seed=5,
    )
    assert {r["score_change"]["mean"] for r in unfloored["choices"]} == {-2}


def test_horizon_night_is_zero() -> None:
    # The horizon ends at this round's Dusk: a Night choice changes no Myth within it.
    state = position(GAME, 2, 1, 20)
    assert state.phase == "refill"
    result = advise(state)
    assert all(r["score_change"]["mean"] == 0 for r in result["choices"])


def test_sampled_is_seeded_and_says_so() -> None:
    state = position(GAME, 2, 1, 60)
    assert world_count(state, state.actor() or 0) > 200
    a = advise(state, samples=20, seed=9, later_turns=0)
    b = advise(state, samples=20, seed=9, later_turns=0)
    assert a == b
    assert a["mode"] == "sampled" and a["samples"] == 20 and a["seed"] == 9
    assert all("interval95" in r["score_change"] for r in a["choices"])
    means = [r["score_change"]["mean"] for r in a["choices"]]
    assert means == sorted(means, reverse=True)


def test_budget_ends_early() -> None:
    from ruleslawyer.budget import Budget

    state = position(GAME, 2, 1, 60)
    result = advise(state, samples=10, budget=Budget(max_seconds=1e-9))
    assert result["finished"] is False and result["moves_ranked"] < result["moves_legal"]


def test_step_is_not_changed_by_advice() -> None:
    state = position(GAME, 2, 7, 58)
    before = legal_moves(state)
    advise(state)
    assert legal_moves(state) == before and step(state, before[0]) == step(state, before[0])
