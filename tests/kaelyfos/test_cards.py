"""The designer's table of behaviour cards in the Kaelyfos report."""

from __future__ import annotations

from dataclasses import replace

from ruleslawyer.graphs.board import Behavior
from ruleslawyer.solvers.kaelyfos.cards import card_table, markdown
from tests.kaelyfos.helpers import board


def _rows(max_pieces: int, b=None) -> dict[str, object]:
    return {r.names[0]: r for r in card_table(b or board(), {}, max_pieces)}


def test_empty_table_no_card_attacks_or_moves() -> None:
    # No pieces: no explorer, so no attack; FAQ: "If all explorers are on the Scarab and no
    # traps are built, the bloodsucks will not move" (with none at all, nothing to chase).
    # One position per deal of the nests on the three nest sites: 3! = 6.
    for row in _rows(0).values():
        assert row.positions == 6
        assert row.distress == ((0, 6),)
        assert not row.attacks and not row.moves


def test_one_piece_hand_worked() -> None:
    # At most one piece: the 6 empty deals, and 96 with one explorer, one free
    # bloodsucker or one trap. Swarm (spawn C, B, A; move 1) spawns one bloodsucker on
    # each nest site, and only an explorer can be attacked: one standing on a nest site
    # (3 sites x 6 deals = 18) takes the spawn there (it starts on the explorer's node and
    # stops); one on the exterior orifice or the interior orifice (2 x 6 = 12) is one step
    # from the bony protrusion or the vesicle cluster and that bloodsucker's move of 1
    # reaches it. Every other position deals nothing (the Scarab is ignored; the other
    # nests are more than one step away). 1 distress in 30 positions, 0 in 72.
    rows = _rows(1)
    assert rows["Swarm"].positions == 102
    assert rows["Swarm"].distress == ((0, 72), (1, 30))
    # Prowl spawns nothing: with one piece no bloodsucker ever shares a table with an
    # explorer, so at this size it never attacks and never moves (a dead card here).
    assert not rows["Prowl"].attacks and not rows["Prowl"].moves


def test_a_card_of_move_zero_never_moves_and_the_table_says_so() -> None:
    b = replace(board(), behaviors=(*board().behaviors, Behavior("Still", ("A",), 0)))
    rows = card_table(b, {}, 2)
    by_name = {r.names[0]: r for r in rows}
    assert not by_name["Still"].moves
    assert by_name["Still"].attacks  # an explorer on nest A takes its spawn's distress
    assert by_name["Swarm"].moves and by_name["Swarm"].attacks
    assert len({r.positions for r in rows}) == 1  # every card on the same positions
    for r in rows:
        assert sum(n for _, n in r.distress) == r.positions
    text = "\n".join(markdown(rows, {}, 2))
    assert "Dead cards: Still (never moves)." in text
    assert "| Still | A | 0 |" in text


def test_open_choices_are_equally_likely_never_the_file_order() -> None:
    # Frenzy (spawn A, C; move 3) meets choices the rules leave open (pheromone ties on
    # the orifices' exits, move order) in some positions with 3 pieces: each option is
    # equally likely, so some positions deal 1/2, and the table is the same whatever the
    # order of the board file's [[node]] and [[edge]] blocks.
    from fractions import Fraction

    from tests.kaelyfos.test_advise import _permuted

    def table(b) -> dict[str, object]:
        frenzy = replace(b, behaviors=tuple(x for x in b.behaviors if x.name == "Frenzy"))
        return {r.names[0]: (r.distress, r.moves) for r in card_table(frenzy, {}, 3)}

    here = table(board())
    assert Fraction(1, 2) in dict(here["Frenzy"][0])
    assert table(_permuted(1)) == here
