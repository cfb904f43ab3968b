"""Any sound board, not just the built-in one: random boards keep the invariants."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.budget import Budget
from ruleslawyer.checks import kaelyfos as checks
from ruleslawyer.checks.kaelyfos import check
from ruleslawyer.gamefiles.source import GameSource
from ruleslawyer.graphs.board import Behavior, Board, Edge, Node, dump_board, problems
from ruleslawyer.models.kaelyfos.resolve import RULE_POINTS, Card, Position, step


@st.composite
def boards(draw, move: int = 1) -> Board:
    sides = ("exterior", "interior")
    nodes = [Node("scarab", "exterior", scarab=True)]
    nodes += [
        Node(f"{s}-orifice", s, orifice=True, build_sites=draw(st.integers(0, 1))) for s in sides
    ]
    for i in range(3):
        nodes.append(
            Node(
                f"nest-{i}",
                draw(st.sampled_from(sides)),
                nest_site=True,
                build_sites=draw(st.integers(0, 1)),
            )
        )
    for i in range(draw(st.integers(0, 3))):
        nodes.append(Node(f"card-{i}", draw(st.sampled_from(sides)), revealed=draw(st.booleans())))
    dots = st.tuples(st.integers(0, 2), st.integers(0, 2))
    edges = [Edge("exterior-orifice", "interior-orifice", draw(dots))]
    for side in sides:
        members = [n.id for n in nodes if n.side == side]
        for i, node in enumerate(members[1:], start=1):  # a random spanning tree per half
            edges.append(Edge(draw(st.sampled_from(members[:i])), node, draw(dots)))
        pairs = [(a, b) for i, a in enumerate(members) for b in members[i + 1 :]]
        taken = {frozenset((e.a, e.b)) for e in edges}
        extra = draw(st.lists(st.sampled_from(pairs), max_size=2, unique=True)) if pairs else []
        edges += [Edge(a, b, draw(dots)) for a, b in extra if frozenset((a, b)) not in taken]
    spawn = tuple(draw(st.lists(st.sampled_from("ABC"), max_size=3)))
    behaviors = (Behavior("card", spawn, draw(st.integers(1, move))),)
    return Board(
        "random", "placeholder", draw(st.integers(1, 6)), tuple(nodes), tuple(edges), behaviors
    )


@settings(max_examples=15, deadline=None)
@given(boards())
def test_random_boards_check_without_error(board: Board) -> None:
    assert problems(board) == []
    text = dump_board(board)
    source = GameSource(
        "kaelyfos", Path("random.toml"), "random.toml", False, text, tomllib.loads(text)
    )
    findings = check(source, {}, Budget(max_states=1000))
    assert sorted(f.id for f in findings) == sorted(p.id for p in RULE_POINTS)
    for f in findings:
        if f.kind.value == "info":  # "never parts" only from a finished search or a proof
            assert f.finished and f.witness is None
        if f.witness is not None and f.readings:
            assert len({repr(r) for r in f.witness.results.values()}) > 1


@settings(max_examples=60, deadline=None)
@given(boards(), st.data())
def test_random_boards_conserve_markers(board: Board, data) -> None:
    nodes = board.node_ids
    crew = data.draw(st.lists(st.sampled_from(nodes), max_size=2))
    free_at = data.draw(st.lists(st.sampled_from([n for n in nodes if n != "scarab"]), max_size=2))
    supply = board.supply - min(len(free_at), board.supply)
    position = Position(
        board=board,
        nests=tuple(zip("ABC", board.nest_sites, strict=True)),
        supply=supply,
        card=Card(board.behaviors[0].spawn, data.draw(st.integers(0, 3))),
        explorers=tuple((f"e{i}", n) for i, n in enumerate(crew)),
        bloodsuckers=tuple((n, free_at.count(n)) for n in nodes if n in free_at[: board.supply]),
    )
    s = step(position)
    assert s.result.markers() == position.markers()


@settings(max_examples=20, deadline=None)
@given(boards(move=3))
def test_tie_proofs_hold_where_the_search_looks(board: Board) -> None:
    # The structural arguments that settle pheromone-tie and trap-tie without a search
    # must never rule out a tie that the position search finds.
    search = checks._Search(board, {}, "random.toml")
    pheromone = checks._equal_dots_tie_possible(search)
    trap = checks._trap_tie_possible(search)
    checks._run(search, Budget(max_states=3_000))
    if not pheromone:
        assert search.found["kaelyfos/pheromone-tie"].witness is None
    if not trap:
        assert search.found["kaelyfos/trap-tie"].witness is None
