"""Twisted Cryptids ``advise``: exact averaging against a brute-force reference, known answers,
seeded reproducibility and the CLI."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ruleslawyer.models.twisted_cryptids.game import builtin_game
from ruleslawyer.models.twisted_cryptids.play import legal_moves, scored_humans, step
from ruleslawyer.solvers.twisted_cryptids.advise import advise, inert_points, world_count
from ruleslawyer.solvers.twisted_cryptids.reference import brute_force
from ruleslawyer.solvers.twisted_cryptids.simulate import deal, position
from tests.twisted_cryptids.small import assert_matches, late_position, small_game

GAME = builtin_game()
SMALL = small_game()
# Positions of seeded 2-player games of the small game (two Sighting kinds, 5 Sites, 3 Hidden
# Traits: few worlds for the reference, which plays every one on its own), found by a scan
# of seeds: (last round, seed, first move looked at, cards left in the actor's hand, the
# second Sighting kind). Mid rounds: Day turns with one card, reveals; last round: the
# actor's Day turn with no card (their pass), then the Dusk, the Night's moves and placements
# of both, the end scoring with every deal of Hidden Traits. With decoys (a Site for the
# hunter chosen by the revealer) the other player's reveal targets are choices too.
FAST = [
    (False, 0, 40, 1, "hoax"),
    (False, 1, 40, 1, "hoax"),
    (False, 3, 40, 1, "hoax"),
    (False, 6, 40, 1, "hoax"),
    (True, 7, 40, 0, "hoax"),
    (True, 6, 40, 0, "hoax"),
    (True, 8, 40, 0, "hoax"),
    (False, 2, 40, 1, "decoy"),
    (False, 3, 40, 1, "decoy"),
    (True, 2, 40, 0, "decoy"),
    (True, 7, 40, 0, "decoy"),
]
# the last round with a card in hand on four Sites: the reference takes 10-35 s each
SLOW = [(True, 4, 40, 1, "hoax"), (True, 0, 40, 1, "hoax")]


@pytest.mark.parametrize(
    ("last", "seed", "start", "cards", "other"),
    [*FAST, *(pytest.param(*p, marks=pytest.mark.slow) for p in SLOW)],
)
def test_exact_matches_brute_force(
    last: bool, seed: int, start: int, cards: int, other: str
) -> None:
    game = small_game(sites=4 if (last and cards) else 5, other=other)
    state = late_position(game, seed, start, cards, ("day", "choose", "reveal"), last)
    assert state is not None and (state.round == game.rounds) == last
    fast = advise(state, exact_limit=10_000)
    assert fast["mode"] == "exact" and fast["finished"]
    assert len(fast["choices"]) == len(legal_moves(state))
    assert_matches(fast, brute_force(state))


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
    # best first: in the last round by the chance to win, then the expected score
    assert a["scoring"] == "final" and all("interval95" in r["win_chance"] for r in a["choices"])
    keys = [(-r["win_chance"]["mean"], -r["score_change"]["mean"]) for r in a["choices"]]
    assert keys == sorted(keys)


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


@pytest.mark.parametrize("seed", [0, 3])
def test_three_players_last_round_matches_brute_force(seed: int) -> None:
    # 8 Hidden Trait cards among 3 players: 512 deals, more than advise weighs (TRAIT_DEALS):
    # only the actor's own counts, stated; the other choices and the win as always
    game = small_game(traits=8, real_deals=1)
    state = deal(game, 3, seed)
    rng = random.Random(seed)
    moves = 0
    while not (state.round == game.rounds and state.phase in ("day", "choose", "reveal")):
        state = step(state, rng.choice(legal_moves(state)))
        moves += 1
    actor = state.actor()
    state = replace(state, hands=tuple(() if p == actor else h for p, h in enumerate(state.hands)))
    fast = advise(state, exact_limit=10_000)
    assert "not counted, by them or by anyone" in fast["hidden_traits"]
    assert_matches(fast, brute_force(state))


def test_inert_rule_points_are_not_ranked_again() -> None:
    # With 2 or 3 players no cap binds under any reading of small-game-cap: its readings,
    # and whether the cap binds the Night, cannot part (legal_sites)
    two = position(GAME, 2, 7, 58)
    assert inert_points(two) == {
        "twisted-cryptids/small-game-cap",
        "twisted-cryptids/optional-move-constraints",
        "twisted-cryptids/night-placement-limits",
    }
    assert inert_points(position(GAME, 4, 0, 40)) == frozenset()


def test_event_sites_chosen_by_their_resolver_match_brute_force() -> None:
    # Under event-chooser=player-order the flipped Event's second effect is resolved by the
    # next player in order: bob picks its Sites for himself (a seeded round-4 Dawn of the
    # small game with decoys, hunting-season: attract 2 hunters, then move 1 hiker)
    game = small_game(other="decoy")
    rulings = {"twisted-cryptids/event-chooser": "player-order"}
    state = deal(game, 2, 7, rulings)
    rng = random.Random(7)
    while not (
        state.phase == "dawn"
        and state.round >= 3
        and state.dawn_step == 0
        and len(game.events[state.event_deck[0]].effect) == 2
    ):
        state = step(state, rng.choice(legal_moves(state)))
    actor = state.actor()
    assert actor is not None and state.round == 4
    state = replace(state, hands=tuple(() if p == actor else h for p, h in enumerate(state.hands)))
    after = step(state, legal_moves(state)[0])
    assert after.phase == "dawn" and after.actor() != actor  # the other player resolves next
    assert_matches(advise(state, exact_limit=10_000), brute_force(state))
