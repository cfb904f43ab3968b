"""The Cunning Folk state machine: known positions from the rulebook, and random play."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from ruleslawyer.errors import IllegalMove
from ruleslawyer.models.cunning_folk.play import (
    OSTRACISED,
    OVER,
    Rules,
    State,
    Table,
    legal_moves,
    start,
    step,
)
from ruleslawyer.models.cunning_folk.record import events_of
from ruleslawyer.models.cunning_folk.village import (
    CELLS,
    RULE_POINTS,
    SCOUNDREL_CORE,
    SCOUNDREL_POOL,
    bonus_setup,
    cards_of,
    scoundrel_setup,
    standard_setup,
)

# The deal used below: cards in role order, A1..C3.
# A1 good-witch, A2 good-witch, A3 good-elder, B1 evil-witch, B2 evil-witch, B3 evil-elder,
# C1..C3 villagers.
STANDARD = standard_setup()
DEAL = STANDARD.cards


def play(table: Table, moves: list[str], state: State | None = None) -> State:
    state = state or start(table, DEAL)
    for move in moves:
        state = step(table, state, move)
    return state


def test_true_claim_challenged_twice_ostracises_the_challenger_and_the_other_wins() -> None:
    # "If you were telling the truth ... The player who challenged you must take a suspected
    # card ... If they already have a suspected card, then ... she or she is out of the game."
    # "The game also ends when only one player remains".
    table = Table(STANDARD, 2)
    state = play(table, ["investigate A1", "claim good-witch", "challenge"])
    assert state.marks == (0, 1) and state.face_up[0]
    assert state.player == 0 and state.phase == "investigate"  # the good witch's extra turn
    state = play(table, ["investigate A2", "claim good-witch", "challenge"], state)
    assert state.marks == (0, OSTRACISED) and state.phase == OVER and state.winner == 0


def test_bluff_challenged_suspects_the_bluffer_and_ends_the_turn() -> None:
    table = Table(STANDARD, 3)
    state = play(table, ["investigate C1", "claim evil-elder", "accept", "challenge"])
    assert state.marks == (1, 0, 0) and state.player == 1 and state.face_up[CELLS.index("C1")]


def test_good_elder_run_identifies_the_three_evil_cards_and_wins() -> None:
    table = Table(STANDARD, 2)
    state = play(table, ["investigate A3", "claim good-elder", "accept", "pick B1", "pick B3"])
    assert state.phase == "elder" and state.winner == -1
    state = step(table, state, "pick B2")
    assert state.winner == 0 and state.phase == OVER


def test_elder_run_on_a_wrong_card_ends_with_a_suspected_card() -> None:
    table = Table(STANDARD, 2)
    state = play(table, ["investigate A3", "claim good-elder", "accept", "pick B1", "pick C1"])
    assert state.marks == (1, 0) and state.player == 1 and state.winner == -1


def test_pirate_must_also_be_found() -> None:
    setup = bonus_setup(["pirate"])
    deal = setup.cards  # ... B3 evil-elder, C1 villager, C2 villager, C3 pirate
    table = Table(setup, 2)
    state = play(
        table,
        ["investigate A3", "claim good-elder", "accept", "pick B1", "pick B2", "pick B3"],
        start(table, deal),
    )
    assert state.winner == -1 and state.phase == "elder"
    assert step(table, state, "pick C3").winner == 0


def test_liar_forces_a_claim_other_than_the_liar() -> None:
    setup = bonus_setup(["liar"])
    table = Table(setup, 2)
    state = play(table, ["investigate C3"], start(table, setup.cards))
    moves = legal_moves(table, state)
    assert "pass" not in moves and "claim liar" not in moves and "claim villager" in moves
    with pytest.raises(IllegalMove):
        step(table, state, "pass")


def test_vagrant_trade_is_public_and_turns_cards_down() -> None:
    setup = bonus_setup(["vagrant"])
    table = Table(setup, 2)
    state = play(
        table,
        ["investigate C3", "claim vagrant", "challenge", "trade A1"],
        start(table, setup.cards),
    )
    assert state.village[0] == "vagrant" and state.village[CELLS.index("C3")] == "good-witch"
    assert not any(state.face_up) and state.marks == (0, 1)


def test_evil_witch_swap_turns_face_up_cards_down_even_when_not_swapped() -> None:
    table = Table(STANDARD, 2)
    state = play(table, ["investigate B1", "claim evil-witch", "challenge", "swap B1 C1 same"])
    assert state.village == DEAL and not any(state.face_up)
    kept = Table(STANDARD, 2, Rules(swap_face_up="only-if-swapped"))
    state = play(kept, ["investigate B1", "claim evil-witch", "challenge", "swap B1 C1 same"])
    assert state.face_up[CELLS.index("B1")]


def test_every_reading_field_names_a_rule_point() -> None:
    ids = {p.id for p in RULE_POINTS}
    for name in Rules.__dataclass_fields__:
        assert f"cunning-folk/{name.replace('_', '-')}" in ids
    assert Rules.from_rulings({}) == Rules()


class RandomGames(RuleBasedStateMachine):
    """Random games under random readings; the rulebook's invariants hold after every move."""

    @initialize(
        players=st.integers(2, 4),
        scoundrels=st.booleans(),
        bonus=st.lists(
            st.sampled_from(["liar", "cat", "pirate", "vagrant", "good-witch"]),
            max_size=3,
            unique=True,
        ),
        order=st.randoms(use_true_random=False),
        readings=st.tuples(*(st.sampled_from(p.reading_names) for p in RULE_POINTS if p.readings)),
    )
    def deal(self, players, scoundrels, bonus, order, readings) -> None:
        names = [p.id for p in RULE_POINTS if p.readings]
        rules = Rules.from_rulings(dict(zip(names, readings, strict=True)))
        if scoundrels:  # 3 players each add one card of the pool, secretly
            pool = list(cards_of(SCOUNDREL_POOL))
            order.shuffle(pool)
            self.table = Table(scoundrel_setup(3), 3, rules)
            cards = [*cards_of(SCOUNDREL_CORE), *pool[:3]]
        else:
            setup = bonus_setup(bonus) if bonus else STANDARD
            self.table = Table(setup, players, rules)
            cards = list(setup.cards)
        order.shuffle(cards)
        self.cards = sorted(cards)
        self.state = start(self.table, tuple(cards))
        self.public: dict[int, str] = {}  # what everyone has seen on each face-up card

    @precondition(lambda self: self.state.phase != OVER)
    @rule(choice=st.integers(0, 10_000))
    def move(self, choice: int) -> None:
        moves = legal_moves(self.table, self.state)
        assert moves, "an open game always has a legal move"
        before = self.state
        assert before.marks[before.actor] < OSTRACISED, "an ostracised player never acts"
        move = moves[choice % len(moves)]
        self.state = step(self.table, before, move)
        for event in events_of(before, move, self.state, ["p0", "p1", "p2", "p3"], None):
            if "revealed" in event:
                self.public[CELLS.index(event["cell"])] = event["revealed"]
            for cell in event.get("cells", []):  # swapped or traded cards turn face down
                if not self.state.face_up[CELLS.index(cell)]:
                    self.public.pop(CELLS.index(cell), None)
        assert all(a <= b for a, b in zip(before.marks, self.state.marks, strict=True))

    @precondition(lambda self: self.state.phase == OVER)
    @rule(move=st.sampled_from(["investigate A1", "pass", "accept", "pick B2", "declare"]))
    def nothing_moves_after_the_end(self, move: str) -> None:
        with pytest.raises(IllegalMove):
            step(self.table, self.state, move)

    @invariant()
    def village_holds_the_setup_cards(self) -> None:
        assert sorted(self.state.village) == self.cards

    @invariant()
    def at_most_one_winner(self) -> None:
        over = self.state.phase == OVER
        assert over == (self.state.winner >= 0)
        if over:
            assert self.state.marks[self.state.winner] < OSTRACISED
            assert self.state.actor == -1 and legal_moves(self.table, self.state) == ()

    @invariant()
    def face_up_roles_are_public(self) -> None:
        for cell, up in enumerate(self.state.face_up):
            if up:
                assert self.public.get(cell) == self.state.village[cell]


RandomGames.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestRandomGames = RandomGames.TestCase
