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
from ruleslawyer.models.twisted_cryptids import play as tc_play
from ruleslawyer.openspiel import GAMES
from ruleslawyer.openspiel.kaelyfos import Crew
from ruleslawyer.openspiel.twist_of_fate import Undealt
from ruleslawyer.solvers.kaelyfos.options import legal_actions
from tests.openspiel.conformance import Case, check
from tests.openspiel.test_cunning_folk import FAST as CUNNING_FOLK

TOF = "ruleslawyer_twist_of_fate"
KAELYFOS = "ruleslawyer_kaelyfos"
CRYPTIDS = "ruleslawyer_twisted_cryptids"


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


def tc_accepts(machine: Any, table: Any) -> list[str]:
    """Every card and Human in the box once (Humans on the Sites and in the Rest Areas; each
    Action card in a hand, the deck or the discard pile; each Event in the deck or flipped;
    each Sighting in its owner's Stacks or revealed), the Hidden Traits dealt all different,
    no hand above the hand size (a record's own hand may be larger)."""
    if table.deal is not None:
        return []
    state = table.state
    g = state.game
    out = []
    on_board = tuple(state.rest[h] + sum(s[h] for s in state.sites) for h in range(3))
    if on_board != g.total_humans():
        out.append(f"Humans {on_board}, the box holds {g.total_humans()}")
    actions = sorted([*state.action_deck, *state.discard, *(c for h in state.hands for c in h)])
    if actions != list(range(len(g.actions))):
        out.append(f"Action cards {actions}")
    if sorted([*state.event_deck, *state.current_events]) != list(range(len(g.events))):
        out.append(f"Events {state.event_deck} and {state.current_events}")
    for p in range(state.n):
        ids = [s for st in state.stacks[p] for s in st] + [s for _, s, _ in state.revealed[p]]
        if sorted(ids) != list(range(len(g.cryptids[state.cryptids[p]].sightings))):
            out.append(f"player {p}: Sightings {state.stacks[p]}, revealed {state.revealed[p]}")
        if len(state.hands[p]) > machine.hand:
            out.append(f"player {p}: {len(state.hands[p])} cards in hand")
    dealt = [t for t in (*state.traits, *state.discarded_traits) if t is not None]
    if len(set(dealt)) != len(dealt):
        out.append(f"Hidden Traits dealt twice: {dealt}")
    return out


def tc_returns(machine: Any, table: Any) -> list[int]:
    # "The player with the greatest total Myth wins the game", the tie-break, "both
    # legends": 1 to each winner, 0 to the others
    best = tc_play.winners(table.state)
    return [int(p in best) for p in range(table.state.n)]


def tc_legal(machine: Any, table: Any) -> Any:
    return tc_play.legal_moves(table.state)


def cryptids(name: str, sims: int = 2, **params: Any) -> Case:
    return Case(name, CRYPTIDS, params, tc_accepts, tc_legal, tc_returns, sims)


def tof(name: str, sims: int = 4, **params: Any) -> Case:
    return Case(name, TOF, params, tof_accepts, tof_legal, tof_returns, sims)


def kaelyfos(name: str, sims: int = 6, **params: Any) -> Case:
    return Case(name, KAELYFOS, params, kaelyfos_accepts, kaelyfos_legal, kaelyfos_returns, sims)


CASES = [
    cryptids("2 players, a whole game from the deal"),
    cryptids("a record's last round", record="examples/twisted-cryptids/last-round-win.toml"),
    cryptids(
        "a record in round 3, the Events' effects chosen in player order",
        record="examples/twisted-cryptids/advise-day.toml",
        rulings="twisted-cryptids/event-chooser:player-order",
    ),
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


SLOW_CASES = [
    cryptids("2 players, a whole game from the deal"),
    cryptids("6 players, whole games", sims=6, players=6),
    cryptids(
        "4 players, each Night step by every player, Myth below 0",
        sims=6,
        players=4,
        rulings="twisted-cryptids/night-order:each-step;twisted-cryptids/myth-floor:negative",
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW_CASES, ids=lambda c: c.name)
def test_conformance_of_whole_games(case: Case) -> None:
    test_conformance(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_conformance(case: Case) -> None:
    check(case)
    # the simulations reached every kind of node the game has
    assert -4 in case.seen and 0 in case.seen  # terminal, a player
    if case.game in (KAELYFOS, CRYPTIDS) or case.params.get("players") == 2:
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
