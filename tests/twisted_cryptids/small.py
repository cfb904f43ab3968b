"""A small Twisted Cryptids game for differential tests against the plain reference, which
plays every world (every player's arrangement of their unrevealed Sightings, and in the last
round every deal of Hidden Traits) on its own: two Sighting kinds, fewer Sites and Hidden
Traits than the built-in data, so a position late in a game has few worlds."""

from __future__ import annotations

import random
from dataclasses import replace

from ruleslawyer.models.twisted_cryptids.game import Game, builtin_game
from ruleslawyer.models.twisted_cryptids.play import State, legal_moves, step
from ruleslawyer.solvers.twisted_cryptids.simulate import deal

GAME = builtin_game()


def small_game(sites: int = 5, traits: int = 3, real_deals: int = 2, other: str = "hoax") -> Game:
    """The built-in game with each Cryptid's nine Sightings ``real_deals`` real-deal and the
    rest of kind ``other`` (hoax: its effect at the Encounter Site; decoy: a Site for its
    hunter chosen by the revealer), the first ``sites`` Sites and the first ``traits`` Hidden
    Traits (the Rest Areas as they are)."""
    first = GAME.cryptids[0].sightings
    deal_card = next(s for s in first if s.kind == "real-deal")
    rest = next(s for s in first if s.kind == other)
    sightings = (deal_card,) * real_deals + (rest,) * (9 - real_deals)
    return replace(
        GAME,
        sites=GAME.sites[:sites],
        traits=GAME.traits[:traits],
        cryptids=tuple(replace(c, sightings=sightings) for c in GAME.cryptids),
    )


def late_position(
    game: Game, seed: int, start: int, cards: int, phases: tuple[str, ...], last: bool
) -> State | None:
    """The first position from move ``start`` of seeded 2-player game ``seed`` (random moves)
    in one of ``phases`` (in the last round when ``last``), the actor holding only the first
    ``cards`` cards of their hand."""
    state = deal(game, 2, seed)
    rng = random.Random(seed)
    moves = 0
    while state.phase != "over":
        in_round = state.round == game.rounds if last else 0 < state.round < game.rounds
        if moves >= start and state.phase in phases and in_round:
            actor = state.actor()
            hands = tuple(h[:cards] if p == actor else h for p, h in enumerate(state.hands))
            return replace(state, hands=hands)
        state = step(state, rng.choice(legal_moves(state)))
        moves += 1
    return None


def assert_matches(fast: dict, ref: dict) -> None:
    """Every figure of an ``advise`` result equals the plain reference's for the same move."""
    import pytest

    assert {r["move"] for r in fast["choices"]} == set(ref)
    for row in fast["choices"]:
        want = ref[row["move"]]
        got = {
            "score": row["score_change"]["mean"],
            "leader": row["leader_score_change"]["mean"],
            "worst_score": row["worst_case"]["score_change"],
        }
        if "win_chance" in row:
            got["win"] = row["win_chance"]["mean"]
            got["worst_win"] = row["worst_case"]["win_chance"]
        assert got == pytest.approx(want, abs=1e-4), row["move"]
