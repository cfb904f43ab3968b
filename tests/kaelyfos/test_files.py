"""Board and position files: round trips, structural rules as data errors, bad input."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.budget import Budget
from ruleslawyer.checks.kaelyfos import check
from ruleslawyer.cli.main import cli
from ruleslawyer.findings import Kind
from ruleslawyer.gamefiles.source import load_source
from ruleslawyer.graphs.board import Edge, Node, dump_board, parse_board, problems
from ruleslawyer.models.kaelyfos.files import (
    PositionFile,
    dump_position,
    load_position,
    parse_position,
)
from tests.kaelyfos.helpers import board
from tests.kaelyfos.test_properties import positions

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = ROOT / "ruleslawyer" / "data" / "kaelyfos.toml"


def test_built_in_board_is_sound_and_assumed() -> None:
    text = BUILT_IN.read_text("utf-8")
    assert problems(board()) == []
    assert board().provenance == "assumed"
    assert "NOT public" in text and "FACTS.md" in text


@settings(max_examples=50, deadline=None)
@given(
    dots=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=12, max_size=12),
    supply=st.integers(0, 20),
    revealed=st.lists(st.booleans(), min_size=10, max_size=10),
)
def test_board_round_trip(dots, supply, revealed) -> None:
    b = board()
    changed = dataclasses.replace(
        b,
        supply=supply,
        edges=tuple(dataclasses.replace(e, dots=d) for e, d in zip(b.edges, dots, strict=True)),
        nodes=tuple(
            dataclasses.replace(n, revealed=r) for n, r in zip(b.nodes, revealed, strict=True)
        ),
        rulings=(("kaelyfos/attack-removal", "supply"),),
    )
    assert parse_board(tomllib.loads(dump_board(changed)), "x") == changed


@settings(max_examples=80, deadline=None)
@given(
    # Explorers on face-up cards: a file with one on a face-down card is refused.
    positions(explorers=st.sampled_from([n.id for n in board().nodes if n.revealed])),
    st.dictionaries(st.just("kaelyfos/attack-removal"), st.just("supply")),
)
def test_position_round_trip(tmp_path_factory, position, rulings) -> None:
    folder = tmp_path_factory.mktemp("pos")
    written = PositionFile(position, "kaelyfos", tuple(rulings.items()))
    path = folder / "p.toml"
    path.write_text(dump_position(written), "utf-8")
    assert load_position(path) == written
    assert parse_position(tomllib.loads(dump_position(written)), "x", folder) == written


def test_board_path_is_relative_to_the_position_file(tmp_path) -> None:
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "mine.toml").write_text(dump_board(board()), "utf-8")
    example = (ROOT / "examples" / "kaelyfos" / "swarm.toml").read_text("utf-8")
    (tmp_path / "p.toml").write_text(
        example.replace('board = "kaelyfos"', 'board = "boards/mine.toml"'), "utf-8"
    )
    loaded = load_position(tmp_path / "p.toml")
    assert loaded.board_ref == "boards/mine.toml" and loaded.position.board == board()


# -- structural rules: each mutation of the built-in board breaks exactly one --------------


def _node(i: int, **change) -> tuple[Node, ...]:
    nodes = list(board().nodes)
    nodes[i] = dataclasses.replace(nodes[i], **change)
    return tuple(nodes)


def _edges(*extra: Edge, drop: int | None = None) -> tuple[Edge, ...]:
    kept = [e for i, e in enumerate(board().edges) if i != drop]
    return (*kept, *extra)


MUTATIONS = {
    "one-scarab": ({"nodes": _node(1, scarab=True)}, "node[1].scarab"),
    "duplicate-id": ({"nodes": (*board().nodes, Node("scarab", "exterior"))}, "node[10].id"),
    "nest-sites": ({"nodes": _node(3, nest_site=True)}, "node[7].nest_site"),
    "unknown-node": ({"edges": _edges(Edge("scarab", "lung"))}, "edge[12].between"),
    "negative-dots": (
        {"edges": _edges(Edge("scarab", "exterior-orifice", (-1, 0)))},
        "edge[12].dots",
    ),
    "halves": ({"edges": _edges(Edge("glowing-fold", "vesicle-cluster"))}, "edge[12].between"),
    "orifices": ({"nodes": _node(5, orifice=True)}, "node[5].orifice"),
    "duplicate-edge": ({"edges": _edges(Edge("glowing-fold", "scarab"))}, "edge[12].between"),
}


@pytest.mark.parametrize("rule", sorted(MUTATIONS))
def test_each_structural_rule_is_a_data_error(rule: str, tmp_path) -> None:
    change, place = MUTATIONS[rule]
    path = tmp_path / "board.toml"
    path.write_text(dump_board(dataclasses.replace(board(), **change)), "utf-8")
    findings = check(load_source(str(path)), {}, Budget())
    errors = [f for f in findings if f.kind == Kind.DATA_ERROR]
    assert [f.id for f in errors] == [f"kaelyfos/data/{rule}"]
    (error,) = errors
    assert error.location.place == place and error.location.file == str(path)
    assert error.location.line is not None
    assert all(not f.finished for f in findings if f.kind != Kind.DATA_ERROR)


def test_whole_table_problem_points_at_its_first_entry(tmp_path) -> None:
    no_scarab = dataclasses.replace(board(), nodes=_node(0, scarab=False))
    path = tmp_path / "board.toml"
    path.write_text(dump_board(no_scarab), "utf-8")
    (error,) = [f for f in check(load_source(str(path)), {}, Budget()) if f.kind == Kind.DATA_ERROR]
    assert error.location.place == "node"
    assert path.read_text("utf-8").splitlines()[error.location.line - 1] == "[[node]]"


def test_unreachable_node_is_a_data_error() -> None:
    # Drop the only edge into interior-facedown-2's corner: vesicle-cluster <-> if-2 and
    # if-1 <-> if-2 (edges 10 and 11) leaves interior-facedown-2 alone.
    b = dataclasses.replace(board(), edges=board().edges[:10])
    assert [(p.check, p.place) for p in problems(b)] == [("reachable", "node[9].id")]


def test_crossing_edges_must_be_exactly_one() -> None:
    b = dataclasses.replace(board(), edges=_edges(drop=7))  # the orifice-to-orifice edge
    assert "halves" in {p.check for p in problems(b)}


# -- malformed and inconsistent input: exit 2, one line -------------------------------------

EXAMPLE = (ROOT / "examples" / "kaelyfos" / "swarm.toml").read_text("utf-8")

BAD_POSITIONS = {
    "supply = 4": ('supply = "four"', "supply: found 'four', expected a valid integer"),
    "[card]": ("[card]\ncolour = 1", "card.colour: found 'colour', expected no such key here"),
    'ben = "scarab"': ('ben = "lung"', "explorers.ben: found 'lung', expected a node of"),
    'B = "bony-protrusion"': ('B = "scarab"', "nests.B: found 'scarab', expected a nest site"),
    'board = "kaelyfos"': ('board = "kaelyfo"', "board: found 'kaelyfo' (no such file)"),
    "caught = 1": ("caught = 2", "traps[0].caught: found 2, expected less than or equal to 1"),
    "supply = 4\n": ("supply = 6\n", "supply: found '8 black markers"),
    "move = 1": ("move = -1", "card.move: found -1, expected greater than or equal to 0"),
    # Unreachable: the crew starts on the Scarab and the environment cards are placed
    # "face-down as shown"; no rule puts an explorer on a face-down card.
    'ada = "bony-protrusion"': (
        'ada = "exterior-facedown-1"',
        "explorers.ada: found 'exterior-facedown-1', expected a face-up card",
    ),
}


@pytest.mark.parametrize("old", sorted(BAD_POSITIONS))
def test_bad_position_is_one_line_exit_2(old: str, tmp_path) -> None:
    new, expected = BAD_POSITIONS[old]
    path = tmp_path / "p.toml"
    path.write_text(EXAMPLE.replace(old, new, 1), "utf-8")
    result = CliRunner().invoke(cli, ["kaelyfos", "step", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1
    assert expected in result.stderr


def test_position_on_a_broken_board_is_one_line_exit_2(tmp_path) -> None:
    (tmp_path / "b.toml").write_text(
        dump_board(dataclasses.replace(board(), nodes=_node(1, scarab=True))), "utf-8"
    )
    (tmp_path / "p.toml").write_text(EXAMPLE.replace('"kaelyfos"', '"b.toml"', 1), "utf-8")
    result = CliRunner().invoke(cli, ["kaelyfos", "step", str(tmp_path / "p.toml")])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {tmp_path / 'b.toml'}: node[1].scarab: found 'a second Scarab "
        "(glowing-fold)', expected one node with scarab = true\n"
    )


def test_malformed_board_is_one_line_exit_2(tmp_path) -> None:
    path = tmp_path / "b.toml"
    path.write_text(BUILT_IN.read_text("utf-8").replace('side = "interior"', 'side = "inside"', 1))
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "node[6].side: found 'inside', expected 'exterior' or 'interior'" in result.stderr
