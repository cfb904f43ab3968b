"""Cunning Folk as the OpenSpiel game ``ruleslawyer_cunning_folk``: conformance with the
state machine (tests/openspiel/conformance.py), information states from each player's own
knowledge, a log played on, and the stated returns."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pyspiel
import pytest

from ruleslawyer.errors import InputError
from ruleslawyer.models.cunning_folk.log import parse_log
from ruleslawyer.models.cunning_folk.play import OVER, legal_moves
from ruleslawyer.models.cunning_folk.village import SCOUNDREL_CORE, cards_of
from ruleslawyer.openspiel import cunning_folk
from ruleslawyer.openspiel.agents import chance
from tests.openspiel.conformance import Case, check

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "cunning-folk"
NAME = cunning_folk.NAME


def accepts(machine: Any, folk: Any) -> list[str]:
    """In play: the village is one the setup deals (scoundrels: the core and the kept
    cards), marks 0-2, the player to act still in, and every player's log of what they saw
    is one a legal game gives (parse_log's checks)."""
    if folk.stage != "play":
        return []
    state, out = folk.state, []
    setup = machine.table.setup
    allowed = [sorted(c) for c in setup.compositions]
    if folk.kept and sorted(cards_of(SCOUNDREL_CORE) + folk.kept) != sorted(state.village):
        out.append(f"village {state.village} is not the core and the kept {folk.kept}")
    if sorted(state.village) not in allowed:
        out.append(f"village {state.village} not of the {setup.name} setup")
    if any(not 0 <= m <= 2 for m in state.marks):
        out.append(f"marks {state.marks}")
    if state.phase != OVER and state.marks[state.actor] >= 2:
        out.append(f"an ostracised player {state.actor} to act")
    for head, log in zip(folk.heads, folk.logs, strict=True):
        try:
            parse_log({**head, "event": list(log)}, "test")
        except InputError as error:
            out.append(f"{head['perspective']}'s log: {error}")
    return out


def legal(machine: Any, folk: Any) -> Any:
    if folk.stage == "keep":
        return [m for _, m in machine.moves(folk)]
    return legal_moves(machine.table, folk.state)


def returns(machine: Any, folk: Any) -> list[int]:
    # +1 to the winner play.step names, -1 to the others; still going at the cap: 0 each
    if folk.state.phase != OVER:
        return [0] * machine.num_players
    return [1 if p == folk.state.winner else -1 for p in range(machine.num_players)]


def case(name: str, params: dict[str, Any], sims: int = 3) -> Case:
    return Case(name, NAME, params, accepts, legal, returns, sims)


FAST = [
    case("cf-2p", {"players": 2}),
    case("cf-3p-bonus", {"setup": "bonus", "max_moves": 60}),
    case("cf-scoundrels", {"setup": "scoundrels", "max_moves": 60}),
    case(
        "cf-4p-rulings",
        {
            "players": 4,
            "max_moves": 40,
            "rulings": "cunning-folk/challenge-order:first-to-speak;"
            "cunning-folk/optional-action:may-decline;cunning-folk/elder-run-stop:may-stop",
        },
    ),
    case("cf-log-claim", {"log": str(EXAMPLES / "pending-claim.toml")}),
    case("cf-log-run", {"log": str(EXAMPLES / "my-run.toml")}),
]


@pytest.mark.parametrize("game", FAST, ids=lambda c: c.name)
def test_conformance(game: Case) -> None:
    check(game)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "rulings",
    [
        "",
        "cunning-folk/swap-face-up:only-if-swapped;cunning-folk/elder-face-up-picks:face-down-only;"
        "cunning-folk/multiple-challengers:first-challenger",
    ],
)
def test_conformance_long(players: int, rulings: str) -> None:
    check(case(f"cf-long-{players}", {"players": players, "rulings": rulings}, sims=20))


def test_game_type_and_returns_stated() -> None:
    two = pyspiel.load_game(NAME, {"players": 2})
    three = pyspiel.load_game(NAME)
    kind = three.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert two.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (three.min_utility(), three.max_utility()) == (-1.0, 1.0)
    # a game cut at the horizon: nobody won, 0 each
    game = pyspiel.load_game(NAME, {"players": 2, "max_moves": 1})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[0])  # a look: the game is not over
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def _dealt(game: Any, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(chance(state, rng))
    return state


def test_a_look_is_known_to_its_player_only() -> None:
    game = pyspiel.load_game(NAME, {"players": 3})
    state = _dealt(game, 0)
    before = [state.information_state_string(p) for p in range(3)]
    state.apply_action(cunning_folk.ACTION["investigate B2"])
    card = state.model.state.village[4]
    after = [state.information_state_string(p) for p in range(3)]
    assert f"looked at B2 ({card})" in after[0]
    assert all("looked at B2" in a and f"({card})" not in a for a in after[1:])
    assert before != after
    # the others cannot tell this deal from one with another card at B2: their strings
    # are the same for every deal that agrees on what is public
    other = _dealt(game, 1)
    other.apply_action(cunning_folk.ACTION["investigate B2"])
    assert other.information_state_string(1) == after[1]


def test_scoundrels_keep_is_a_choice_and_known_to_its_player() -> None:
    game = pyspiel.load_game(NAME, {"setup": "scoundrels"})
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(chance(state, rng))
    assert state.current_player() == 0
    names = [state.action_to_string(0, a) for a in state.legal_actions()]
    assert all(n.startswith("P1 keep ") for n in names)
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[-1])
    while state.is_chance_node():
        state.apply_action(chance(state, rng))
    kept = state.model.kept
    for p in range(3):
        assert f"kept {kept[p]} set aside" in state.information_state_string(p)


def test_resample_keeps_the_information_state() -> None:
    game = pyspiel.load_game(NAME, {"log": str(EXAMPLES / "pending-claim.toml")})
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    rng = random.Random(0)
    me = state.current_player()
    key = state.information_state_string(me)
    villages = set()
    for _ in range(20):
        other = state.resample(me, rng)
        assert other.information_state_string(me) == key
        villages.add(other.model.state.village)
    assert len(villages) > 1


def test_log_start_draws_the_perspectives_worlds() -> None:
    # pending-claim.toml: 720 worlds agree with what "me" saw (`cunning-folk deduce`'s
    # count), 600 distinct villages now; the game goes on from bea's claim of C3, cal
    # (seat 3, to bea's left) answering first
    game = pyspiel.load_game(NAME, {"log": str(EXAMPLES / "pending-claim.toml")})
    assert sum(w for w, _ in game.machine.worlds) == 720
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 600 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    state.apply_action(outcomes[0][0])
    assert state.current_player() == 2
    assert [state.action_to_string(2, a) for a in state.legal_actions()] == [
        "cal: accept",
        "cal: challenge",
    ]


def test_bad_parameters_are_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="players"):
        pyspiel.load_game(NAME, {"setup": "scoundrels", "players": 4})
    with pytest.raises(InputError, match="rulings"):
        pyspiel.load_game(NAME, {"rulings": "cunning-folk/nope:x"})
    over = tmp_path / "over.toml"
    document = {"setup": "standard", "players": ["a", "b"], "suspected": {"a": 2}}
    over.write_text(
        "\n".join(f"{k} = {json.dumps(v)}" for k, v in document.items() if k != "suspected")
        + "\n[suspected]\na = 2\n"
    )
    with pytest.raises(InputError):
        pyspiel.load_game(NAME, {"log": str(over)})
