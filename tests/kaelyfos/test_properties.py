"""Properties every resolved behaviour card keeps, on random positions of the built-in board."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.graphs.pathing import INF
from ruleslawyer.models.kaelyfos import move
from ruleslawyer.models.kaelyfos.points import RULE_POINTS, in_force
from ruleslawyer.models.kaelyfos.resolve import Card, Position, Trap, geometry, resolve, step
from tests.kaelyfos.helpers import NESTS, board

NODES = board().node_ids
OFF_SCARAB = [n for n in NODES if n != board().scarab]
TRAP_SITES = [n for n in OFF_SCARAB if board().node(n).build_sites]
ANY_NODE = st.sampled_from(NODES)
READINGS = {p.id: p.reading_names for p in RULE_POINTS if p.readings}


@st.composite
def positions(draw, *, explorers=ANY_NODE, spawn=True) -> Position:
    b = board()
    crew = draw(st.lists(explorers, max_size=3))
    free = draw(st.dictionaries(st.sampled_from(OFF_SCARAB), st.integers(1, 2), max_size=3))
    sites = draw(st.lists(st.sampled_from(TRAP_SITES), unique=True, max_size=2))
    traps = tuple(Trap(n, draw(st.integers(0, 1))) for n in sites)
    used = sum(free.values()) + sum(t.caught for t in traps)
    if used > b.supply:
        free = {}
        used = sum(t.caught for t in traps)
    supply = draw(st.integers(0, b.supply - used))
    letters = st.lists(st.sampled_from("ABC"), max_size=3) if spawn else st.just([])
    return Position(
        board=b,
        nests=NESTS,
        supply=supply,
        card=Card(tuple(draw(letters)), draw(st.integers(0, 3))),
        explorers=tuple((f"e{i}", n) for i, n in enumerate(crew)),
        bloodsuckers=tuple(sorted(free.items())),  # by node id, as files give them
        traps=traps,
    )


rulings = st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in READINGS.items()})


@settings(max_examples=150, deadline=None)
@given(positions(), rulings)
def test_bloodsuckers_are_conserved(position: Position, chosen: dict[str, str]) -> None:
    # Every black marker is on the board, on a trap, in the supply or out of play.
    s = step(position, chosen)
    assert s.result.markers() == position.markers()
    for _, results in s.choices:
        assert all(r.markers() == position.markers() for r in results)
    assert all(r.markers() == position.markers() for _, _, r in s.divergences)


@settings(max_examples=200, deadline=None)
@given(
    positions(spawn=False),
    st.sampled_from(OFF_SCARAB),
    st.one_of(st.none(), st.sampled_from(TRAP_SITES)),
)
def test_no_step_takes_a_bloodsucker_farther_from_its_target(position, start, trap) -> None:
    # One bloodsucker, at most one empty trap, no spawn. Its target is the nearest explorer
    # off the Scarab, or the trap when that is strictly nearer (default readings): either
    # way the nearest of them. It ends exactly min(move, distance) steps nearer to it, or
    # is gone (it attacked on an explorer's node, or was caught) having reached it.
    b = board()
    traps = (Trap(trap, 0),) if trap else ()
    position = Position(
        board=b,
        nests=NESTS,
        supply=b.supply - 1,
        card=position.card,
        explorers=position.explorers,
        bloodsuckers=((start, 1),),
        traps=traps,
    )
    table = geometry(b).tables["no", "yes"]  # the default readings
    targets = [n for _, n in position.explorers if n != b.scarab] + [t.node for t in traps]
    before = min((table.dist[start][n] for n in targets), default=INF)
    result = resolve(position, in_force()).result
    if not result.bloodsuckers:
        assert before <= position.card.move  # it reached its target: attacked or caught
        return
    ((end, _),) = result.bloodsuckers
    after = min((table.dist[end][n] for n in targets), default=INF)
    if before >= INF:
        assert end == start
    else:
        assert after == max(0, before - position.card.move)


@settings(max_examples=100, deadline=None)
@given(positions(explorers=st.just("scarab")), rulings)
def test_all_on_the_scarab_and_no_trap_moves_nothing(position: Position, chosen) -> None:
    position = Position(
        board=position.board,
        nests=position.nests,
        supply=position.supply + sum(t.caught for t in position.traps),
        card=position.card,
        explorers=position.explorers,
        bloodsuckers=position.bloodsuckers,
    )
    spawned = step(Position(**{**position.__dict__, "card": Card(position.card.spawn, 0)}), chosen)
    moved = step(position, chosen)
    assert moved.result == spawned.result
    assert moved.result.nightmares == ()


@settings(max_examples=100, deadline=None)
@given(positions(), rulings)
def test_unconsulted_points_never_change_the_result(position: Position, chosen) -> None:
    # The checks rely on this: a point resolution did not consult cannot part readings.
    full = in_force(chosen)
    base = resolve(position, full)
    for point, names in READINGS.items():
        if point in base.consulted:
            continue
        for name in names:
            assert resolve(position, {**full, point: name}).result == base.result


@settings(max_examples=150, deadline=None)
@given(positions(), rulings, st.data())
def test_a_move_reused_under_other_readings_is_the_move_run_afresh(
    position: Position, chosen: dict[str, str], data: st.DataObject
) -> None:
    # move_all reuses a move recorded under other readings when the points it read outside
    # the walks read the same and every walk it took ends the same (move._replayed): after
    # resolving under one set of readings, resolving under another (one point changed)
    # must give what that other gives with nothing remembered.
    first = in_force(chosen)
    point = data.draw(st.sampled_from(sorted(READINGS)))
    second = {**first, point: data.draw(st.sampled_from(READINGS[point]))}
    _forget_moves(position)
    fresh = resolve(position, second)
    _forget_moves(position)
    resolve(position, first)
    again = resolve(position, second)
    assert again == fresh


def _forget_moves(position: Position) -> None:
    move._MOVES.clear()
    geometry(position.board).walks.clear()
