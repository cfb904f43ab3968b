"""Known answers for rulebook sentences the coverage map traces here (data/coverage/).

Each test quotes its sentence and works the position out by hand. The deal is the
standard village in role order (see test_play.py): A1 good-witch, A2 good-witch,
A3 good-elder, B1 evil-witch, B2 evil-witch, B3 evil-elder, C1..C3 villagers.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.cunning_folk.play import Table, legal_moves, start, step
from ruleslawyer.models.cunning_folk.record import dump_log
from ruleslawyer.models.cunning_folk.village import CELLS, bonus_setup, standard_setup

STANDARD = standard_setup()
DEAL = STANDARD.cards


def _play(table: Table, moves: list[str], deal: tuple[str, ...] = DEAL):
    state = start(table, deal)
    for move in moves:
        state = step(table, state, move)
    return state


@pytest.mark.parametrize("players", [1, 5])
def test_a_game_is_for_two_to_four_players(tmp_path: Path, players: int) -> None:
    # "A micro-bluffing game for 2-4 players": a table of 1 or 5 is refused, and so is a
    # log naming 1 or 5 players (one line, exit 2); 2 and 4 are accepted.
    with pytest.raises(ValueError, match="2-4 players"):
        Table(STANDARD, players)
    assert Table(STANDARD, 2).players == 2 and Table(STANDARD, 4).players == 4
    names = ["me", "bea", "cal", "dan", "eve"][:players]
    path = tmp_path / "log.toml"
    path.write_text(dump_log({"setup": "standard", "players": names, "event": []}))
    result = CliRunner().invoke(cli, ["cunning-folk", "deduce", str(path)])
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "players" in line and "2 to 4 distinct player names" in line


def test_the_owner_takes_the_first_turn_and_investigates_any_card() -> None:
    # "The owner of the game takes the first turn." The owner is the first seat.
    # "Investigate: choose one of the cards in the village.": any of the nine cells,
    # named column A-C then row 1-3 ("Each column should be denoted as A, B, or C and
    # each row by 1, 2, or 3").
    table = Table(STANDARD, 3)
    state = start(table, DEAL)
    assert state.player == 0 and state.actor == 0
    assert legal_moves(table, state) == tuple(f"investigate {c}" for c in CELLS)
    assert CELLS == ("A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3")


def test_a_looked_at_card_goes_back_where_it_was_and_stays_face_down() -> None:
    # "If it's face-down, pick it up and look at it without showing any other players.
    # Then put it back in the location it came from." Looking changes nothing anyone can
    # see: after P1 looks at B2 and passes ("Allege (optional)"), the village is as dealt,
    # B2 face down, and it is P2's turn.
    table = Table(STANDARD, 3)
    looked = _play(table, ["investigate B2"])
    assert "pass" in legal_moves(table, looked)  # the claim is optional
    state = step(table, looked, "pass")
    assert state.village == DEAL and not any(state.face_up)
    assert state.player == 1 and state.phase == "investigate"


def test_a_challenged_card_stays_face_up_until_an_ability_turns_it() -> None:
    # "If anyone challenges, flip the townsfolk you looked at face-up. This card will stay
    # face up until an ability is used to flip it back over." P1 bluffs the evil elder on
    # C1 (a villager), P2 challenges: C1 is face up and P1 suspected. Two more turns pass
    # without an ability: C1 is still face up. Then P2 truly claims the evil witch on B1,
    # unchallenged, and swaps C1 with A1 (left as they were): the swap turns C1 down.
    table = Table(STANDARD, 2)
    state = _play(table, ["investigate C1", "claim evil-elder", "challenge"])
    c1 = CELLS.index("C1")
    assert state.face_up[c1] and state.marks == (1, 0) and state.player == 1
    for move in ("investigate A1", "pass", "investigate A2", "pass"):
        state = step(table, state, move)
    assert state.face_up[c1] and state.player == 1
    for move in ("investigate B1", "claim evil-witch", "accept", "swap A1 C1 same"):
        state = step(table, state, move)
    assert not state.face_up[c1] and state.village == DEAL


@pytest.mark.parametrize(
    ("bonus", "cell", "claim"), [((), "C1", "villager"), (("cat",), "C3", "cat")]
)
def test_a_villager_or_the_cat_earns_no_action(
    bonus: tuple[str, ...], cell: str, claim: str
) -> None:
    # "The three villagers have no ability." "The cat meows. When you take the cat's
    # action, meow." A true claim, unchallenged, changes nothing but whose turn it is.
    # (bonus ["cat"]: the cat replaces the last villager, C3.)
    setup = bonus_setup(list(bonus)) if bonus else STANDARD
    table = Table(setup, 2)
    state = _play(table, [f"investigate {cell}", f"claim {claim}", "accept"], setup.cards)
    assert state.village == setup.cards and not any(state.face_up)
    assert state.marks == (0, 0) and state.player == 1 and state.phase == "investigate"


def test_an_elder_pick_turns_a_face_down_card_face_up() -> None:
    # "One at a time, choose a townsfok. If it's face-down turn it face-up. If it's evil,
    # continue." P1 truly claims the good elder (A3), unchallenged, picks B1 (evil witch):
    # B1 is face up and the run goes on.
    table = Table(STANDARD, 2)
    state = _play(table, ["investigate A3", "claim good-elder", "accept", "pick B1"])
    assert state.face_up[CELLS.index("B1")] and state.phase == "elder" and state.player == 0


def test_the_third_good_witch_works_like_the_others() -> None:
    # "There's a third good witch. She works just like the other good witches." and "a
    # player can't win with the evil elder without identifying the good witches (and the
    # good elder)". bonus ["good-witch"] replaces a villager: in role order A1, A2, A3 are
    # good witches, B1 the good elder, B2, B3 evil witches, C1 the evil elder, C2, C3
    # villagers. A true claim of the third witch (A3) gives another turn; an evil-elder run
    # that has found A1, A2 and B1 goes on, and wins only with A3.
    setup = bonus_setup(["good-witch"])
    deal = setup.cards
    assert deal.count("good-witch") == 3 and deal.count("villager") == 2
    table = Table(setup, 2)
    state = _play(table, ["investigate A3", "claim good-witch", "accept"], deal)
    assert state.player == 0 and state.phase == "investigate"  # another turn
    run = ["investigate C1", "claim evil-elder", "accept", "pick A1", "pick A2", "pick B1"]
    state = _play(table, run, deal)
    assert state.phase == "elder" and state.winner == -1
    assert step(table, state, "pick A3").winner == 0
