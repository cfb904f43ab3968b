"""``ruleslawyer_kaelyfos``: the crew against chance; its type and parameters, a hand-worked
value, and OpenSpiel's expectiminimax over the crew's choices against ``kaelyfos advise``."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms.minimax import expectiminimax

import ruleslawyer.openspiel  # noqa: F401 (registers the games)
from ruleslawyer.budget import Budget
from ruleslawyer.errors import InputError
from ruleslawyer.models.kaelyfos.advice_file import load_advice
from ruleslawyer.models.kaelyfos.points import in_force
from ruleslawyer.models.kaelyfos.resolve import Position
from ruleslawyer.openspiel.kaelyfos import NAME, game_of
from ruleslawyer.solvers.kaelyfos.advise import rank
from tests.kaelyfos.test_properties import positions, rulings

ROOT = Path(__file__).resolve().parents[2]
K = ROOT / "examples" / "kaelyfos"
Kind = pyspiel.GameType


def best_distress(game: Any) -> float:
    """The crew's expected distress under its best play (expectiminimax over its choices)."""
    state = game.new_initial_state()
    value, _ = expectiminimax(state, 10**6, None, 0)
    return -value


def advised(position: Position, material: int, spent: tuple[str, ...], triggers: int,
            chosen: dict[str, str]) -> Fraction:  # fmt: skip
    """``kaelyfos advise``'s expected distress of its option 1 (open ties: uniform)."""
    ranking = rank(position, material, spent, triggers, in_force(chosen), Budget())
    assert ranking.finished
    return ranking.options[0].expected


def test_loads_with_defaults_and_says_what_game_it_is() -> None:
    # The board's start: the nests dealt at random (6 deals, equally likely), the crew on
    # the Scarab. "Bloodsuckers completely ignore the Scarab and any explorers on it": no
    # line of play gives any distress, so the value is 0.
    game = pyspiel.load_game(NAME)
    kind = game.get_type()
    assert game.num_players() == 1 and kind.min_num_players == kind.max_num_players == 1
    assert kind.information == Kind.Information.PERFECT_INFORMATION
    assert kind.chance_mode == Kind.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == Kind.Utility.GENERAL_SUM and game.max_utility() == 0.0
    state = game.new_initial_state()
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 6] * 6)
    assert best_distress(game) == 0.0


def write_advice(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "advice.toml"
    path.write_text(body, "utf-8")
    return path


TINY_START = f"""
board = "{(K / "tiny-board.toml").as_posix()}"
nests = {{ A = "vesicle-cluster", B = "bony-protrusion", C = "glowing-fold" }}
supply = 4
explorers = {{ ada = "bony-protrusion" }}
material = MATERIAL
"""


@pytest.mark.parametrize(("material", "distress"), [(0, 2.0), (1, 1.0)])
def test_hand_worked_tiny_board(tmp_path: Path, material: int, distress: float) -> None:
    # The tiny board is a line: scarab - glowing-fold - bony-protrusion - exterior-orifice
    # - interior-orifice - vesicle-cluster; its one card spawns C, B, A and moves 1. Ada
    # stands on the bony protrusion (nest B). The card spawns on the glowing fold (C),
    # under Ada (B) and on the vesicle cluster (A); each moves 1 "toward the nearest
    # explorer": C's onto Ada's node, B's stays, A's to the interior orifice. Attack: 2
    # distress. With 1 material Ada builds a trap on her node first ("you may build a trap
    # as a free action by spending 1 material"): B's spawns free beside it
    # (spawn-into-trap=not-caught), C's "moves onto a node with a trap" and "is instantly
    # trapped", and a trapped one does not attack (trapped-attack=no): 1 distress.
    path = write_advice(tmp_path, TINY_START.replace("MATERIAL", str(material)))
    game = pyspiel.load_game(NAME, {"position": str(path)})
    assert best_distress(game) == distress
    loaded = load_advice(path)
    assert advised(loaded.position, material, (), 1, {}) == distress
    state = game.new_initial_state()
    _, first = expectiminimax(state, 10**6, None, 0)
    assert state.action_to_string(first) == (
        "ada builds a trap on bony-protrusion" if material else "reveal the next behaviour card"
    )


@pytest.mark.parametrize("triggers", [1, 2, 3])
def test_agrees_with_advise_on_the_example(triggers: int) -> None:
    path = K / "advise.toml"
    game = pyspiel.load_game(NAME, {"position": str(path), "triggers": triggers})
    loaded = load_advice(path)
    expected = advised(loaded.position, loaded.material, loaded.spent, triggers, {})
    assert best_distress(game) == pytest.approx(float(expected))


@pytest.mark.parametrize("triggers", [1, 2])
def test_open_choices_are_chance_and_agree_with_advise(triggers: int) -> None:
    # open-choices.toml: a bloodsucker between ada and ben whose two exits carry 1
    # pheromone dot each: "The bloodsucker will move toward the tied option that takes
    # them over the most pheromone dots" leaves it open, so the game draws it (each way
    # equally likely), as advise's default open-ties=uniform weighs it.
    path = ROOT / "tests" / "openspiel" / "open-choices.toml"
    game = pyspiel.load_game(NAME, {"position": str(path), "triggers": triggers})
    state = game.new_initial_state()
    state.apply_action(0)  # reveal
    state.apply_action(state.chance_outcomes()[0][0])  # the first card
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert state.model.phase == "resolve" and state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert "left open by the rules" in state.action_to_string(-1, 0)
    loaded = load_advice(path)
    expected = advised(loaded.position, loaded.material, (), triggers, {})
    assert best_distress(game) == pytest.approx(float(expected))


SHARED = """
board = "kaelyfos"
nests = { A = "vesicle-cluster", B = "bony-protrusion", C = "glowing-fold" }
supply = 4
explorers = { ada = "glowing-fold", ben = "glowing-fold", cat = "interior-orifice" }
bloodsuckers = { "exterior-orifice" = 1, "bony-protrusion" = 1 }
material = 1
"""


@pytest.mark.parametrize(
    "chosen",
    [
        {},
        {"kaelyfos/nightmare-limit": "per-crew", "kaelyfos/trap-tie": "open"},
        {"kaelyfos/stop-at-explorer": "onward", "kaelyfos/unrevealed-passable": "no"},
    ],
    ids=["defaults", "per-crew nightmares, open trap ties", "onward, closed face-down cards"],
)
def test_agrees_with_advise_where_the_crew_splits_distress(
    tmp_path: Path, chosen: dict[str, str]
) -> None:
    # Two explorers share the glowing fold: "the explorers choose who takes the distress"
    # (a crew's choice in the game), with ties the rules leave open (chance).
    path = write_advice(tmp_path, SHARED)
    text = ",".join(f"{k}={v}" for k, v in chosen.items())
    game = pyspiel.load_game(NAME, {"position": str(path), "triggers": 2, "rulings": text})
    loaded = load_advice(path)
    expected = advised(loaded.position, 1, (), 2, chosen)
    assert best_distress(game) == pytest.approx(float(expected))


def agrees(start: Position, chosen: dict[str, str], material: int, triggers: int) -> None:
    expected = advised(start, material, (), triggers, chosen)
    assert best_distress(game_of(start, material, (), triggers, chosen)) == pytest.approx(expected)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(positions(spawn=False), rulings, st.integers(0, 1), st.integers(1, 2))
def test_agrees_with_advise(start: Position, chosen: dict[str, str], material: int,
                            triggers: int) -> None:  # fmt: skip
    game = game_of(start, material, (), triggers, chosen)
    assert best_distress(game) == pytest.approx(
        float(advised(start, material, (), triggers, chosen))
    )


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(spawn=False), rulings, st.integers(0, 2), st.integers(1, 3))
def test_agrees_with_advise_longer(start: Position, chosen: dict[str, str], material: int,
                                   triggers: int) -> None:  # fmt: skip
    game = game_of(start, material, (), triggers, chosen)
    assert best_distress(game) == pytest.approx(
        float(advised(start, material, (), triggers, chosen))
    )


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"triggers": 0}, "triggers: found 0"),
        ({"material": 101}, "material: found 101"),
        ({"explorers": "ada=nowhere"}, "explorers.ada: found 'nowhere', expected a face-up node"),
        ({"explorers": "ada"}, "expected ID=READING (or ID:READING)"),
        ({"rulings": "kaelyfos/attack-removal=never"}, "found 'never'"),
        ({"board": "no-such-board.toml"}, "no-such-board.toml"),
        ({"position": str(K / "advise.toml"), "material": 2}, "none with a position"),
        ({"position": str(K / "swarm.toml")}, "card"),  # a step position: it has a [card]
    ],
)
def test_bad_parameters_are_one_line_input_errors(params: dict[str, Any], needle: str) -> None:
    with pytest.raises(InputError) as found:
        pyspiel.load_game(NAME, params)
    assert needle in str(found.value) and "\n" not in str(found.value)


def test_the_game_string_loads_the_same_game() -> None:
    removed = "kaelyfos/attack-removal=removed-from-play"
    crew = "ada=glowing-fold,ben=bony-protrusion"
    game = pyspiel.load_game(NAME, {"explorers": crew, "rulings": removed})
    assert "explorers=ada:glowing-fold;ben:bony-protrusion" in str(game)
    assert pyspiel.load_game(str(game)) == game
