"""Twisted Cryptids as an OpenSpiel game: hand-worked answers from the example records, the
chance deals, the information states and their worlds, the refill's reshuffle, bad
parameters."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pyspiel
import pytest

from ruleslawyer.errors import InputError
from ruleslawyer.models.twisted_cryptids.play import Refill
from ruleslawyer.openspiel import twisted_cryptids
from ruleslawyer.openspiel.agents import chance
from tests.openspiel.test_conformance import tc_accepts

ROOT = Path(__file__).resolve().parents[2]
LAST_ROUND = str(ROOT / "examples" / "twisted-cryptids" / "last-round-win.toml")


def dealt(game: pyspiel.Game, rng: random.Random) -> pyspiel.State:
    """The game's first state with its chance drawn until a player is to act."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(chance(state, rng))
    return state


def action_named(state: pyspiel.State, text: str) -> int:
    return next(a for a in state.legal_actions() if state.action_to_string(a) == text)


def test_the_last_round_is_won_by_passing_one_time_in_five() -> None:
    # last-round-win.toml, worked by hand in its comments: ann's pass leaves the Encounter
    # on ridge, where bob reveals the top of his Stack 2; she wins exactly when that is his
    # Real Deal (1 of his 5 unrevealed cards: 1 real-deal, 2 hoax, 2 decoy), whatever bob
    # does after. Trail mix on trailhead makes trailhead the Encounter: she never wins.
    game = twisted_cryptids.load(record=LAST_ROUND)
    # bob's slots are dealt Stack 1, then Stack 2 top: the second deal is that card
    first = game.new_initial_state()
    kinds = {first.action_to_string(a): p for a, p in first.chance_outcomes()}
    assert kinds == {
        "bob's next Stack slot: real-deal": 0.2,
        "bob's next Stack slot: hoax": 0.4,
        "bob's next Stack slot: decoy": 0.4,
    }
    for seed in range(12):
        rng = random.Random(seed)
        start = dealt(game, rng)
        machine, table = game.machine, start.model
        bob_top = table.state.stacks[1][1][0]
        real = machine.game.cryptids[table.state.cryptids[1]].sightings[bob_top].kind
        for move, wins in (("ann: pass", real == "real-deal"), ("ann plays trail-mix on "
                           "trailhead (hand card 1)", False)):  # fmt: skip
            state = start.clone()
            state.apply_action(action_named(state, move))
            while not state.is_terminal():
                pick = (
                    chance if state.is_chance_node() else lambda s, r: r.choice(s.legal_actions())
                )
                state.apply_action(pick(state, rng))
            assert state.returns() == ([1.0, 0.0] if wins else [0.0, 1.0]), (seed, move)


def test_a_world_drawn_for_a_player_keeps_what_they_know() -> None:
    game = pyspiel.load_game(twisted_cryptids.NAME, {"players": 3})
    rng = random.Random(3)
    state = dealt(game, rng)
    for _ in range(40):  # into round 1
        state.apply_action(rng.choice(state.legal_actions()) if not state.is_chance_node()
                           else chance(state, rng))  # fmt: skip
    while state.is_chance_node():
        state.apply_action(chance(state, rng))
    player = state.current_player()
    others = set()
    for seed in range(8):
        world = state.resample(player, random.Random(seed))
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        assert tc_accepts(game.machine, world.model) == []
        w = world.model.state
        others.add(tuple((w.stacks[p], w.hands[p], w.traits[p]) for p in range(3) if p != player))
        assert w.stacks[player] == state.model.state.stacks[player]
    assert len(others) > 1  # what the player does not see is drawn again


def test_a_refill_past_the_deck_draws_from_the_reshuffled_discard_pile() -> None:
    # "Refill your hand up to five cards": the deck holds one card, the pile the rest; the
    # model reshuffles the pile (the cards just discarded in it) when the deck runs out.
    game = pyspiel.load_game(twisted_cryptids.NAME, {"players": 2})
    rng = random.Random(5)
    state = dealt(game, rng)
    while state.model.state.phase != "refill" or state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()) if not state.is_chance_node()
                           else chance(state, rng))  # fmt: skip
    table = state.model
    model = table.state
    deck = sorted(model.action_deck)
    short = replace(model, action_deck=tuple(deck[:1]), discard=(*model.discard, *deck[1:]))
    here = twisted_cryptids.adapter.ModelState(game, game.machine, replace(table, state=short))
    player = here.current_player()
    everything = Refill(tuple(range(len(short.hands[player]))))
    here.apply_action(game.machine.action(short, everything))
    slots = here.model.deal.slots
    assert [s.pool for s in slots] == ["action"] + ["pile"] * 4
    texts = [here.action_to_string(a) for a, _ in here.chance_outcomes()]
    assert all(t.endswith("from the Action deck") for t in texts) and len(texts) == 1
    while here.is_chance_node():
        here.apply_action(chance(here, rng))
    after = here.model.state
    assert len(after.hands[player]) == 5 and after.discard == () and after.shuffles == 5
    assert tc_accepts(game.machine, here.model) == []


def test_information_states_hide_the_other_players_cards() -> None:
    game = twisted_cryptids.load(record=LAST_ROUND)
    state = dealt(game, random.Random(0))
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    assert mine != theirs and mine.startswith("player 0\n")
    table = state.model.state
    bob_hand = repr(table.hands[1])
    assert bob_hand in theirs and bob_hand not in mine


def test_bad_parameters_are_one_line_errors() -> None:
    with pytest.raises(InputError, match="players=2, as"):
        pyspiel.load_game(twisted_cryptids.NAME, {"players": 3, "record": LAST_ROUND})
    with pytest.raises(InputError, match="2 to 6"):
        pyspiel.load_game(twisted_cryptids.NAME, {"players": 7})
    with pytest.raises(InputError, match="none with a record"):
        pyspiel.load_game(twisted_cryptids.NAME, {"record": LAST_ROUND, "game": "x.toml"})
