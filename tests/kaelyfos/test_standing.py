"""Where a bloodsucker may stand: the move and :func:`setup.illegal` agree under every reading.

``illegal`` says what no legal setup and play reaches; every position a card's move
reaches from a legal position must pass it, under the readings the move was made under
(kaelyfos/unrevealed-passable and kaelyfos/scarab-passable open nodes a move can end on).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ruleslawyer.graphs.board import Behavior, Board, Edge, Node, problems
from ruleslawyer.models.kaelyfos.points import (
    RULE_POINTS,
    SCARAB_PASSABLE,
    UNREVEALED_PASSABLE,
    in_force,
)
from ruleslawyer.models.kaelyfos.resolve import Position, Trap, step
from ruleslawyer.models.kaelyfos.setup import (
    deck_cards,
    explorer_sites,
    illegal,
    nest_deals,
    standing,
    trap_sites,
)
from ruleslawyer.solvers.kaelyfos.options import next_position
from tests.kaelyfos.helpers import board, position
from tests.kaelyfos.test_random_boards import boards

READINGS = {p.id: p.reading_names for p in RULE_POINTS if p.readings}
rulings = st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in READINGS.items()})


def _passable(scarab: str, unrevealed: str) -> dict[str, str]:
    return {SCARAB_PASSABLE: scarab, UNREVEALED_PASSABLE: unrevealed}


@pytest.mark.parametrize(
    ("scarab", "unrevealed", "end"),
    [
        ("no", "yes", "exterior-facedown-2"),
        ("yes", "yes", "exterior-facedown-2"),
        ("yes", "no", "scarab"),
        ("no", "no", "glowing-fold"),
    ],
)
def test_a_move_of_one_ends_where_illegal_accepts_it(scarab, unrevealed, end) -> None:
    # Worked by hand on the built-in board. The exterior: the Scarab joins the glowing fold,
    # the bony protrusion and exterior-facedown-1; the glowing fold joins both face-down
    # cards; exterior-facedown-2 joins the exterior orifice, as does the bony protrusion.
    # A bloodsucker on the glowing fold, ada on the exterior orifice, move 1 ("Each
    # bloodsucker moves the amount indicated, toward the nearest explorer"):
    # - face-down cards open (unrevealed-passable=yes, "nodes like any other"): the way
    #   glowing fold, exterior-facedown-2, orifice (2) is the only shortest one (through
    #   the Scarab, when open, it is 3): one step ends on exterior-facedown-2;
    # - face-down cards closed, the Scarab open: the only way left is glowing fold,
    #   Scarab, bony protrusion, orifice: one step ends on the Scarab;
    # - both closed: every exit of the glowing fold is closed, no path reaches ada (the
    #   unreachable-explorer gap: it stays).
    # Each end is where illegal lets a bloodsucker stand under those readings, and only
    # there: the face-down card not under unrevealed-passable=no, the Scarab not under
    # scarab-passable=no.
    chosen = _passable(scarab, unrevealed)
    start = position(explorers={"ada": "exterior-orifice"}, bloodsuckers={"glowing-fold": 1})
    after = replace(next_position(start, step(start, chosen).result), card=deck_cards(board())[0])
    assert after.bloodsuckers == ((end, 1),)
    assert illegal(after, chosen) == []
    for other in ("no", "yes"):
        if end == "exterior-facedown-2":
            refused = illegal(after, _passable(scarab, other))
        elif end == "scarab":
            refused = illegal(after, _passable(other, unrevealed))
        else:
            continue
        assert refused == ([] if other == "yes" else [f"free bloodsuckers on {end}"])


def test_no_move_ends_on_a_face_down_card_off_every_way() -> None:
    # The interior: the orifice joins the vesicle cluster (its only other face-up card)
    # directly; interior-facedown-1 and -2 lie only on longer ways, and
    # exterior-facedown-1 only on ways to the Scarab (never a target) or longer ones.
    # No step toward an explorer or a trap enters them, whatever the readings.
    for scarab in ("no", "yes"):
        for unrevealed in ("no", "yes"):
            nodes = standing(board(), in_force(_passable(scarab, unrevealed)))
            face_up = {"glowing-fold", "bony-protrusion", "exterior-orifice"}
            face_up |= {"interior-orifice", "vesicle-cluster"}
            opened = {"scarab"} if scarab == "yes" else set()
            opened |= {"exterior-facedown-2"} if unrevealed == "yes" else set()
            assert set(nodes) == face_up | opened


@st.composite
def legal_positions(draw, boards: st.SearchStrategy[Board]) -> tuple[Position, dict[str, str]]:
    """A position on a board drawn from ``boards`` that ``illegal`` accepts under the
    readings drawn with it: free bloodsuckers where :func:`standing` lets them stand."""
    b = draw(boards)
    chosen = in_force(draw(rulings))
    crew = draw(st.lists(st.sampled_from(explorer_sites(b)), max_size=2))
    free = draw(
        st.dictionaries(st.sampled_from(sorted(standing(b, chosen))), st.integers(1, 2), max_size=3)
    )
    sites = trap_sites(b)
    built = st.lists(st.sampled_from(sites), unique=True, max_size=2) if sites else st.just([])
    traps = tuple(Trap(n, draw(st.integers(0, 1))) for n in draw(built))
    free = {n: c for n, c in free.items() if n not in {t.node for t in traps}}
    used = sum(free.values()) + sum(t.caught for t in traps)
    assume(used <= b.supply)
    start = Position(
        board=b,
        nests=draw(st.sampled_from(nest_deals(b))),
        supply=draw(st.integers(0, b.supply - used)),
        card=draw(st.sampled_from(deck_cards(b))),
        explorers=tuple((f"e{i}", n) for i, n in enumerate(crew)),
        bloodsuckers=tuple(sorted(free.items())),
        traps=tuple(sorted(traps, key=lambda t: t.node)),
    )
    assume(illegal(start, chosen) == [])
    return start, chosen


def _every_result_is_legal(start: Position, chosen: dict[str, str]) -> None:
    s = step(start, chosen)
    results = [s.result, *(r for _, options in s.choices for r in options)]
    for result in results:
        assert illegal(next_position(start, result), chosen) == []
    # another reading of a point: legal under it, from a start legal under it too
    for point, reading, result in s.divergences:
        other = {**chosen, point: reading}
        if illegal(start, other) == []:
            assert illegal(next_position(start, result), other) == []


@settings(max_examples=150, deadline=None)
@given(legal_positions(st.just(board())))
def test_every_move_on_the_built_in_board_ends_where_illegal_accepts(drawn) -> None:
    _every_result_is_legal(*drawn)


# A small board where both closed kinds of node lie on the only shortest ways: the Scarab
# between nest-a and nest-b, a face-down card between nest-a and the exterior orifice, and
# one that is the interior's only way to nest-c (placeholder data, made for this test).
SMALL = Board(
    "small",
    "placeholder",
    4,
    (
        Node("scarab", "exterior", scarab=True),
        Node("nest-a", "exterior", nest_site=True, build_sites=1),
        Node("nest-b", "exterior", nest_site=True, build_sites=1),
        Node("hidden-1", "exterior", revealed=False),
        Node("orifice-x", "exterior", orifice=True, build_sites=1),
        Node("orifice-i", "interior", orifice=True),
        Node("hidden-2", "interior", revealed=False),
        Node("nest-c", "interior", nest_site=True, build_sites=1),
    ),
    (
        Edge("nest-a", "scarab", (1, 0)),
        Edge("scarab", "nest-b"),
        Edge("nest-a", "hidden-1", (1, 0)),
        Edge("hidden-1", "orifice-x"),
        Edge("nest-b", "orifice-x", (0, 1)),
        Edge("orifice-x", "orifice-i", (1, 1)),
        Edge("orifice-i", "hidden-2"),
        Edge("hidden-2", "nest-c"),
    ),
    (Behavior("one", ("A",), 1), Behavior("two", ("B", "C"), 2), Behavior("three", (), 3)),
)


def test_the_small_board_opens_its_closed_nodes_by_reading() -> None:
    # nest-a to nest-b: through the Scarab (2) when it is open, else through hidden-1 and
    # orifice-x (3) when that is open; nest-c reaches the interior orifice only through
    # hidden-2. Every closed node is a step toward some target when its reading opens it.
    assert problems(SMALL) == []
    face_up = {"nest-a", "nest-b", "nest-c", "orifice-x", "orifice-i"}
    assert set(standing(SMALL, in_force(_passable("no", "no")))) == face_up
    assert set(standing(SMALL, in_force(_passable("yes", "yes")))) == face_up | {
        "scarab",
        "hidden-1",
        "hidden-2",
    }


@settings(max_examples=150, deadline=None)
@given(legal_positions(st.just(SMALL)))
def test_every_move_on_a_small_board_ends_where_illegal_accepts(drawn) -> None:
    _every_result_is_legal(*drawn)


@settings(max_examples=60, deadline=None)
@given(legal_positions(boards(move=3)))
def test_every_move_on_a_random_board_ends_where_illegal_accepts(drawn) -> None:
    _every_result_is_legal(*drawn)
