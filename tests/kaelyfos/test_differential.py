"""The fast search against a plain reference: same verdicts, same results.

The check skips work three ways: a relevance filter (`_may_part`) skips positions,
readings a resolution never consulted are not tried, and walks are memoised. The
plain reference does none of that: it resolves every reading of every point.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.checks import kaelyfos as checks
from ruleslawyer.models.kaelyfos import move
from ruleslawyer.models.kaelyfos import resolve as model
from ruleslawyer.models.kaelyfos.points import RULE_POINTS, in_force
from tests.kaelyfos.helpers import board
from tests.kaelyfos.test_properties import positions

READING_POINTS = [p for p in RULE_POINTS if p.readings]


def plain_parts(position: model.Position, point_id: str) -> bool:
    """Whether the readings of ``point_id`` give different results (others at default)."""
    chosen = in_force()
    names = next(p.reading_names for p in READING_POINTS if p.id == point_id)
    return len({model.resolve(position, {**chosen, point_id: r}).result for r in names}) > 1


def fast_parts(position: model.Position, point_id: str) -> bool:
    search = checks._Search(board(), {}, "kaelyfos")
    search.visit(position)
    return search.found[point_id].witness is not None


@settings(max_examples=120, deadline=None)
@given(positions(), st.sampled_from([p.id for p in READING_POINTS]))
def test_search_verdict_matches_plain_reference(position, point_id) -> None:
    assert fast_parts(position, point_id) == plain_parts(position, point_id)


@settings(max_examples=80, deadline=None)
@given(positions(), st.dictionaries(st.sampled_from([p.id for p in READING_POINTS]), st.just("x")))
def test_memoised_walks_match_plain_walks(position, flip) -> None:
    # Flip each chosen point to its non-default reading.
    chosen = in_force()
    for p in READING_POINTS:
        if p.id in flip:
            chosen[p.id] = p.reading_names[1]
    fresh = model.resolve(position, chosen)
    saved = move.WALK_MEMO
    move.WALK_MEMO = -1
    try:
        plain = model.resolve(position, chosen)
    finally:
        move.WALK_MEMO = saved
    assert (fresh.result, fresh.decisions, fresh.consulted) == (
        plain.result,
        plain.decisions,
        plain.consulted,
    )
    assert model.resolve(position, chosen) == fresh  # and again from the memo


def _first_witnesses_match(limit: int | None) -> None:
    # Scan positions in search order with the plain reference until each reading point
    # parts; the check must report the same first position. (Timeline points are not
    # parted by positions; points found after ``limit`` positions are left out.)
    from ruleslawyer.budget import Budget
    from ruleslawyer.gamefiles.source import load_source
    from ruleslawyer.models.kaelyfos.points import TIMELINE_POINTS

    findings = {f.id: f for f in checks.check(load_source("kaelyfos"), {}, Budget())}
    # (kaelyfos/which-trap's readings say who picks a trap, never part a result; the
    # built-in board never holds two traps on a node anyway)
    wanted = {
        p.id
        for p in READING_POINTS
        if p.id not in (*TIMELINE_POINTS, "kaelyfos/which-trap")
        and (limit is None or findings[p.id].searched <= limit)
    }
    assert wanted
    for index, position in enumerate(checks.positions(board()), start=1):
        for point_id in sorted(wanted):
            if plain_parts(position, point_id):
                assert findings[point_id].searched == index, point_id
                wanted.discard(point_id)
        if not wanted:
            break
    assert not wanted


def test_first_witnesses_match_a_plain_scan() -> None:
    _first_witnesses_match(3000)


@pytest.mark.slow
def test_every_first_witness_matches_a_plain_scan() -> None:
    _first_witnesses_match(None)


@pytest.mark.slow
def test_pheromone_proof_agrees_with_exhaustive_search() -> None:
    # On the designer example's board no node a bloodsucker reaches has two exits with
    # equal dots toward equally near targets: the check settles pheromone-tie by that
    # argument. Search every position anyway: no tie may turn up.
    import tomllib
    from pathlib import Path

    from ruleslawyer.budget import Budget
    from ruleslawyer.gamefiles.source import DESIGNER_KEYS
    from ruleslawyer.graphs.board import parse_board

    path = Path(__file__).resolve().parents[2] / "examples" / "designer-repo" / "board.toml"
    document = tomllib.loads(path.read_text("utf-8"))
    rulings = document.pop("rulings")
    for key in DESIGNER_KEYS:  # the rulebook, its [coverage]: not the board's
        document.pop(key, None)
    designer = parse_board(document, str(path))
    search = checks._Search(designer, rulings, "board.toml")
    checks._prove_quiet(search)
    assert search.found["kaelyfos/pheromone-tie"].proof is not None
    for point_id, found in search.found.items():
        found.proof = "skip" if point_id != "kaelyfos/pheromone-tie" else None
    assert checks._run(search, Budget())
    assert search.found["kaelyfos/pheromone-tie"].witness is None
    assert search.found["kaelyfos/pheromone-tie"].searched == sum(
        1 for _ in checks.positions(designer)
    )
