"""``ruleslawyer_twist_of_fate``: its type and parameters, hand-worked answers, and OpenSpiel's
expectiminimax against the project's paranoid search (``solve --model paranoid``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyspiel
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from open_spiel.python.algorithms.minimax import expectiminimax

import ruleslawyer.openspiel  # noqa: F401 (registers the games)
from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.errors import InputError
from ruleslawyer.models.twist_of_fate.files import (
    Position,
    load_position,
    position_from_document,
)
from ruleslawyer.models.twist_of_fate.play import Rules, chance_outcomes, legal_moves, play
from ruleslawyer.openspiel.twist_of_fate import NAME, game_of, way
from ruleslawyer.solvers.twist_of_fate.pruned import driver
from tests.twist_of_fate.test_solve import positions

TOF = Path("examples/twist-of-fate")
Kind = pyspiel.GameType


def paranoid_value(game: Any) -> float:
    """OpenSpiel's expectiminimax from the first state, maximised for the player to move,
    every other player minimising it (the paranoid model)."""
    state = game.new_initial_state()
    value, _ = expectiminimax(state, 10**6, None, state.current_player())
    return value


def test_loads_with_defaults_and_says_what_game_it_is() -> None:
    game = pyspiel.load_game(NAME)
    kind = game.get_type()
    assert game.num_players() == 3 and kind.max_num_players == 4 and kind.min_num_players == 2
    assert kind.information == Kind.Information.PERFECT_INFORMATION
    assert kind.utility == Kind.Utility.GENERAL_SUM
    assert kind.chance_mode == Kind.ChanceMode.DETERMINISTIC  # 3 players: nothing random
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.num_distinct_actions() == 6 * 3 * 8  # card x target seat x way
    state = game.new_initial_state()
    assert state.current_player() == 0 and len(state.legal_actions()) == 6 * 2 * 6
    assert state.action_to_string(8) == "Mr. Brownlow on seat 2, face up, side 1 facing them"


def test_two_players_start_with_the_variants_draw() -> None:
    # Two-Player Variant: "randomly determine a starting player", each player adds three
    # random cards of their second set: 2 starters x 20 x 20 draws, equally likely.
    game = pyspiel.load_game(NAME, {"players": 2})
    assert game.get_type().chance_mode == Kind.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 800 and all(p == pytest.approx(1 / 800) for _, p in outcomes)
    state.apply_action(0)
    assert len(state.model.seats[0].hand) == 9 and state.model.monks == 2


def test_round_ends_of_the_variant_are_the_models_chance() -> None:
    # across-rounds.toml: the last play of round 2; round 3 starts with the draws (3 of
    # the 4 unused cards, 3 of the Monks' 6), chance with the model's weights.
    path = TOF / "across-rounds.toml"
    position = load_position(path)
    state, deck, rules = position.state, position.deck, Rules()
    move = next(m for m in legal_moves(state, deck, rules) if not play(state, m, deck, rules).over)
    after = play(state, move, deck, rules)
    game = pyspiel.load_game(NAME, {"players": 2, "position": str(path), "max_rounds": 2})
    here = game.new_initial_state()
    here.apply_action(game.machine.action(state, move))
    assert here.model == after and here.is_chance_node()
    weights = [w for w, _ in chance_outcomes(after, deck, rules)]
    assert [p for _, p in here.chance_outcomes()] == [w / sum(weights) for w in weights]
    assert len(weights) > 1


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"players": 5}, "players: found 5, expected 2, 3 or 4"),
        ({"max_rounds": 0}, "max_rounds: found 0"),
        ({"rulings": "twist-of-fate/carry-over=sometimes"}, "found 'sometimes'"),
        ({"rulings": "no-such-point=x"}, "found 'no-such-point'"),
        ({"rulings": "carry-over"}, "expected ID=READING (or ID:READING)"),
        ({"position": str(TOF / "brownlow.toml")}, "players=3, as"),
        ({"players": 3, "position": "no-such.toml"}, "no-such.toml"),
        ({"players": 3, "position": str(TOF / "hidden-card.toml")}, "no hidden cards"),
        ({"position": str(TOF / "win-now.toml"), "deck": "x.toml"}, "no deck with a position"),
    ],
)
def test_bad_parameters_are_one_line_input_errors(params: dict[str, Any], needle: str) -> None:
    if "position" in params and "players" not in params:
        params = {**params, "players": 2}
    with pytest.raises(InputError) as found:
        pyspiel.load_game(NAME, params)
    assert needle in str(found.value) and "\n" not in str(found.value)


def test_the_game_string_loads_the_same_game() -> None:
    # OpenSpiel's game strings split on "," and "=": rulings travel as ID:READING;...
    game = pyspiel.load_game(
        NAME, {"players": 4, "rulings": "twist-of-fate/carry-over=reset-each-round"}
    )
    assert "rulings=twist-of-fate/carry-over:reset-each-round" in str(game)
    again = pyspiel.load_game(str(game))
    assert again == game and again.machine.rules.carry_over == "reset-each-round"


def test_actions_name_card_target_and_way() -> None:
    # the id is (card * seats + target) * 8 + way, the model's legal order ascending
    game = pyspiel.load_game(NAME, {"players": 3, "position": str(TOF / "win-now.toml")})
    state = game.new_initial_state()
    machine = game.machine
    for action, move in machine.moves(state.model):
        card = machine.deck.names.index(move.card)
        assert action == (card * 3 + move.target) * 8 + way(move, state.model.active)
    assert state.legal_actions() == sorted(state.legal_actions())


def test_the_state_text_is_a_position_file_of_the_state() -> None:
    import tomllib

    game = pyspiel.load_game(NAME, {"players": 3, "position": str(TOF / "brownlow.toml")})
    state = game.new_initial_state()
    doc = {"deck": "twist-of-fate", **tomllib.loads(str(state))}
    assert position_from_document(doc, "state").state == state.model


# -- hand-worked values ----------------------------------------------------------------


def test_win_now_is_a_win_for_the_player_to_move() -> None:
    # win-now.toml: Ann (3 Luck, Sanctuary 7) plays Nancy on Bob (Cat and she are full);
    # a face-up side giving her Luck brings it to 4: her 8th Sanctuary card, "the game
    # immediately ends and that player wins". OpenSpiel's value for Ann: +1.
    game = pyspiel.load_game(NAME, {"players": 3, "position": str(TOF / "win-now.toml"),
                                    "max_rounds": 1})  # fmt: skip
    assert paranoid_value(game) == 1.0


def test_the_monks_penalty_reading_changes_the_value() -> None:
    # monks-win.toml: Ann's last card, on the Monks, brings her to the 8th Sanctuary card
    # and the Monks score too. game-ends-first (default): Ann wins, +1. penalty-first: the
    # Monks penalty takes the point back, she stays on 7 and the round ends with no
    # winner: 0 (the round is the last one the game plays here).
    path = str(TOF / "monks-win.toml")
    default = pyspiel.load_game(NAME, {"players": 2, "position": path, "max_rounds": 1})
    penalty_first = "twist-of-fate/finish-before-penalty=penalty-first"
    ruled = pyspiel.load_game(
        NAME, {"players": 2, "position": path, "max_rounds": 1, "rulings": penalty_first}
    )
    assert paranoid_value(default) == 1.0 and paranoid_value(ruled) == 0.0


# -- OpenSpiel's expectiminimax against the project's paranoid search -------------------


def agrees(position: Position, rules: Rules) -> None:
    """Paranoid within the round: +1 iff a win is guaranteed; at least 0 iff the player
    can keep every line from a loss (``guaranteed_sanctuary`` is not None)."""
    value = paranoid_value(game_of(position, rules, max_rounds=1))
    found = driver.answer_json(position, driver.solve(position, rules, Budget()))
    assert found["finished"]
    assert (value == 1.0) == found["guaranteed_win"], (value, found)
    assert (value >= 0.0) == (found["guaranteed_sanctuary"] is not None), (value, found)


@pytest.mark.parametrize("name", ["win-now", "brownlow", "monks-win", "across-rounds"])
def test_expectiminimax_agrees_with_paranoid_on_the_examples(name: str) -> None:
    position = load_position(TOF / f"{name}.toml")
    agrees(position, Rules())


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])  # fmt: skip
@given(positions(most=3))
def test_expectiminimax_agrees_with_paranoid(case: tuple[Position, Rules]) -> None:
    position, rules = case
    if position.state.over or position.state.round_over:
        return
    agrees(position, rules)


@pytest.mark.slow
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])  # fmt: skip
@given(positions(most=4))
def test_expectiminimax_agrees_with_paranoid_longer(case: tuple[Position, Rules]) -> None:
    position, rules = case
    if position.state.over or position.state.round_over:
        return
    agrees(position, rules)


def test_agrees_with_the_solve_command() -> None:
    # The same question through the CLI a user runs: solve --model paranoid.
    path = TOF / "monks-win.toml"
    out = CliRunner().invoke(cli, ["twist-of-fate", "solve", str(path), "--model", "paranoid",
                                   "--format", "json"])  # fmt: skip
    found = json.loads(out.output)
    game = pyspiel.load_game(NAME, {"players": 2, "position": str(path), "max_rounds": 1})
    assert found["guaranteed_win"] is True and paranoid_value(game) == 1.0
