"""The continuation table: its shape, its figures stated as sampled, and a replay of its
first games (they must come out the same, game for game, from the command that made it)."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from importlib import resources

import pytest

from ruleslawyer.solvers.cunning_folk.goes_on import continuation
from ruleslawyer.solvers.cunning_folk.goes_on.continuation import (
    check_rows,
    shipped,
    state_text,
    states,
)
from ruleslawyer.solvers.cunning_folk.goes_on.selfplay import (
    estimate,
    games_text,
    head,
    parse_games,
)


def test_every_state_is_there_and_adds_up() -> None:
    table = shipped()
    assert table.sampled
    assert sorted(r.marks for r in table.rows) == sorted(states())
    for row in table.rows:
        assert sum(row.wins) + row.unended == row.games
        for k in range(len(row.marks)):
            low, high = row.interval(k)
            assert -1 <= low <= float(row.value(k)) <= high <= 1
    for row in (r for r in table.rows if len(r.marks) == 2):
        assert row.value(0) + row.value(1) == 0  # two players: one wins what the other loses


def test_values_by_seat() -> None:
    # Three seats, seat 1 ostracised: the two left play a two-player game, seat 2 to move.
    table = shipped()
    values = table.values((0, 2, 1), mover=2)
    row = table.row((1, 0))
    assert values == (row.value(1), Fraction(-1), row.value(0))
    # one player left: the game is over
    assert table.values((2, 0, 2), mover=0) == (Fraction(-1), Fraction(1), Fraction(-1))
    assert state_text((0, 1)) == "2 players in: to move, then 2 (suspected)"


def test_the_first_games_replay_exactly() -> None:
    # A cheap part re-estimated: the first games of a two-player state, played again by
    # the agents the table was made with, give the shipped counts.
    marks = (0, 1)
    shipped_check = check_rows()[marks]
    replayed = estimate(marks, shipped_check["check_games"])
    assert list(replayed.wins) == shipped_check["check_wins"]
    assert replayed.unended == shipped_check["check_unended"]


@pytest.mark.slow
@pytest.mark.parametrize("marks", states())
def test_every_states_first_games_replay_exactly(marks: tuple[int, ...]) -> None:
    shipped_check = check_rows()[marks]
    replayed = estimate(marks, shipped_check["check_games"])
    assert list(replayed.wins) == shipped_check["check_wins"]
    assert replayed.unended == shipped_check["check_unended"]


def test_a_stated_or_constant_table_says_so() -> None:
    assert not continuation.zero().sampled
    assert continuation.zero().values((0, 1), 0) == (0, 0)


def test_the_shipped_header_is_the_commands() -> None:
    # The file is the regeneration command's output, header included: the header names
    # the game count (one per number of players in) and seed every state was sampled with.
    text = resources.files("ruleslawyer.data").joinpath(continuation.DATA).read_text("utf-8")
    data = tomllib.loads(text)
    games: dict[int, int] = {}
    for r in data["state"]:
        assert games.setdefault(len(r["marks"]), r["games"]) == r["games"]
    assert text.startswith(head(games, data["seed"]))


def test_games_a_state_one_count_or_per_players_in() -> None:
    assert parse_games("300") == {2: 300, 3: 300, 4: 300}
    assert parse_games("2:200,3:200,4:30") == {2: 200, 3: 200, 4: 30}
    assert games_text({2: 300, 3: 300, 4: 300}) == "300"
    assert games_text({4: 30, 2: 200, 3: 200}) == "2:200,3:200,4:30"
    for bad in ("2:200,2:100", "5:10", "2:0", "2-200", "x"):
        with pytest.raises(ValueError):
            parse_games(bad)
