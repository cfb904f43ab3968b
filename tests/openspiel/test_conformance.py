"""Every registered game passes the generic conformance check (tests/openspiel/conformance.py).

Each game's :class:`~tests.openspiel.conformance.Case` says what its model accepts and
what returns it gives, from the model's own state and functions.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ruleslawyer.models.kaelyfos.setup import deck_cards, illegal
from ruleslawyer.models.twist_of_fate.play import LAST, LIMIT, TOP, count_toward_limit, legal_moves
from ruleslawyer.openspiel import GAMES
from ruleslawyer.openspiel.kaelyfos import Crew
from ruleslawyer.openspiel.twist_of_fate import Undealt
from ruleslawyer.solvers.kaelyfos.options import legal_actions
from tests.openspiel.conformance import Case, check
from tests.openspiel.test_cunning_folk import FAST as CUNNING_FOLK

TOF = "ruleslawyer_twist_of_fate"
KAELYFOS = "ruleslawyer_kaelyfos"


def tof_accepts(machine: Any, state: Any) -> list[str]:
    """Twist of Fate's structural rules: values 0..4 ("can never drop below '0' or go
    above '4'"), at most six cards in front (Card Limit), Sanctuary at most 8 (below 0
    only under monks-penalty-floor=negative), a winner on the last Sanctuary card, and
    a player to move holding a card."""
    if isinstance(state, Undealt):
        return []
    out = []
    for i, seat in enumerate(state.seats):
        if not (0 <= seat.luck <= TOP and 0 <= seat.shilling <= TOP):
            out.append(f"seat {i}: luck {seat.luck}, shilling {seat.shilling}")
        if count_toward_limit(seat, machine.rules) > LIMIT:
            out.append(f"seat {i}: {count_toward_limit(seat, machine.rules)} cards in front")
        floor = 0 if machine.rules.monks_penalty_floor == "floor-at-zero" else -LAST
        if not floor <= seat.sanctuary <= LAST:
            out.append(f"seat {i}: sanctuary {seat.sanctuary}")
        cards = seat.hand + seat.in_front + seat.self_played
        out += [
            f"seat {i}: {c}, not a card of the deck" for c in cards if c not in machine.deck.names
        ]
    if state.winner is not None and state.seats[state.winner].sanctuary != LAST:
        out.append(f"winner {state.winner} on Sanctuary {state.seats[state.winner].sanctuary}")
    if not state.over and not state.round_over and not state.seats[state.active].hand:
        out.append(f"seat {state.active} to move with no card")
    return out


def tof_returns(machine: Any, state: Any) -> list[int]:
    # Game End: "that player wins": +1 the winner, -1 every other player (the Monks'
    # win is both players' loss); no winner (the round limit, a gap): 0 each.
    players = range(machine.num_players)
    if state.winner is None:
        return [0 for _ in players]
    return [1 if p == state.winner else -1 for p in players]


def tof_legal(machine: Any, state: Any) -> Any:
    return legal_moves(state, machine.deck, machine.rules)


def kaelyfos_accepts(machine: Any, crew: Crew) -> list[str]:
    """What :func:`~ruleslawyer.models.kaelyfos.setup.illegal` finds (no legal setup and
    play reaches the position; outside a card's resolution any deck card stands in for
    the card), every black marker kept, the counts in range.
    """
    position = crew.position
    if crew.phase != "resolve":
        position = replace(position, card=deck_cards(machine.board)[0])
    out = illegal(position, machine.chosen)
    first = machine.initial().position
    if position.markers() != first.markers():
        out.append(f"{position.markers()} black markers, {first.markers()} at the start")
    if crew.material < 0 or not 0 <= crew.triggers <= machine.triggers:
        out.append(f"material {crew.material}, triggers {crew.triggers}")
    if crew.distress < 0 or crew.nightmares > crew.distress:
        out.append(f"distress {crew.distress}, nightmares {crew.nightmares}")
    return out


def kaelyfos_returns(machine: Any, crew: Crew) -> list[int]:
    # the crew's return: minus its total distress over the horizon
    return [-crew.distress]


def kaelyfos_legal(machine: Any, crew: Crew) -> list[Any]:
    if crew.phase == "act":  # reveal the card, or a free action (advise's legal_actions)
        return ["reveal", *legal_actions(crew.position, crew.material, machine.readings)]
    decision = machine._decision(crew)
    return [(decision.key, i) for i in range(len(decision.labels))]


def tof(name: str, sims: int = 4, **params: Any) -> Case:
    return Case(name, TOF, params, tof_accepts, tof_legal, tof_returns, sims)


def kaelyfos(name: str, sims: int = 6, **params: Any) -> Case:
    return Case(name, KAELYFOS, params, kaelyfos_accepts, kaelyfos_legal, kaelyfos_returns, sims)


CASES = [
    tof("3 players, the standard start"),
    tof("2 players, 3 rounds", players=2, max_rounds=3),
    tof(
        "4 players, opponents-only pickup, own cards not counted",
        players=4,
        max_rounds=4,
        rulings="twist-of-fate/self-played-pickup=opponents-only,"
        "twist-of-fate/self-play-count=does-not-count",
    ),
    tof(
        "2 players, set-aside leftovers, penalty below 0",
        players=2,
        max_rounds=4,
        rulings="twist-of-fate/leftover-cards=set-aside;twist-of-fate/monks-penalty-floor:negative",
    ),
    tof(
        "a position file across rounds",
        players=2,
        max_rounds=3,
        position="examples/twist-of-fate/across-rounds.toml",
    ),
    kaelyfos("the crew on the Scarab"),
    kaelyfos(
        "two explorers, material, 2 triggers",
        explorers="ada=bony-protrusion,ben=exterior-orifice",
        material=2,
        triggers=2,
    ),
    kaelyfos(
        "an advice file, 5 triggers, the deck reshuffled",
        triggers=5,
        position="examples/kaelyfos/advise.toml",
        rulings="kaelyfos/exhausted-deck=reshuffle",
    ),
    kaelyfos(
        "choices the rules leave open",
        triggers=2,
        position="tests/openspiel/open-choices.toml",
        rulings="kaelyfos/nightmare-limit=per-crew",
    ),
    kaelyfos(
        "a designer's board, open trap ties, one nightmare a crew",
        board="examples/kaelyfos/tiny-board.toml",
        explorers="ada=glowing-fold,ben=glowing-fold,cat=vesicle-cluster",
        material=2,
        triggers=3,
        rulings="kaelyfos/trap-tie=open,kaelyfos/nightmare-limit=per-crew,"
        "kaelyfos/attack-removal=removed-from-play",
    ),
]


def test_every_registered_game_has_a_case() -> None:
    assert sorted({c.game for c in (*CASES, *CUNNING_FOLK)}) == sorted(GAMES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_conformance(case: Case) -> None:
    check(case)
    # the simulations reached every kind of node the game has
    assert -4 in case.seen and 0 in case.seen  # terminal, a player
    if case.game == KAELYFOS or case.params.get("players") == 2:
        assert -1 in case.seen  # chance


def test_the_model_moves_a_bloodsucker_where_illegal_says_one_stands() -> None:
    # A bloodsucker on the glowing fold, one explorer on the exterior orifice, move 1: the
    # way there goes through exterior-facedown-2 (kaelyfos/unrevealed-passable=yes, the
    # default: "face-down cards are nodes like any other"), so the model's move ends it on
    # that face-down card, and setup.illegal accepts the position it reached (found by
    # the conformance check above, when the two disagreed).
    from ruleslawyer.models.kaelyfos.files import load_board
    from ruleslawyer.models.kaelyfos.points import in_force
    from ruleslawyer.models.kaelyfos.resolve import Card, Position, resolve
    from ruleslawyer.models.kaelyfos.setup import nest_deals
    from ruleslawyer.solvers.kaelyfos.options import next_position

    board, _ = load_board("kaelyfos")
    card = deck_cards(board)[0]
    start = Position(board, nest_deals(board)[0], 5, Card((), 1),
                     (("ada", "exterior-orifice"),), (("glowing-fold", 1),))  # fmt: skip
    after = next_position(start, resolve(start, in_force({})).result)
    assert after.bloodsuckers == (("exterior-facedown-2", 1),)
    assert illegal(replace(after, card=card)) == []
