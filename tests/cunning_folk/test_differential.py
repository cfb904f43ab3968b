"""Z3 and forward filtering against the plain brute-force enumerator, on logs of random games.

Every log comes from playing the real state machine, so the true deal with the true
outcomes of the hidden swaps must always be among the worlds.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ruleslawyer.models.cunning_folk.log import Is, IsNot, Log
from ruleslawyer.models.cunning_folk.village import CELLS
from ruleslawyer.solvers.cunning_folk.worlds import (
    ROLE_CODE,
    brute_force,
    counts_of,
    face_up_after,
    filter_worlds,
    replay,
)
from ruleslawyer.solvers.cunning_folk.z3_model import encode
from tests.cunning_folk.helpers import log_of, random_recording

# A fast handful by default; many more behind the slow marker.
SEEDS = [*range(16), *(pytest.param(s, marks=pytest.mark.slow) for s in range(16, 200))]
WHY_SEEDS = [*range(3), *(pytest.param(s, marks=pytest.mark.slow) for s in range(3, 60))]


def _small(seed: int):
    recording = random_recording(seed, max_moves=30)
    log = log_of(recording.document)
    while log.unknown_swaps > 3:  # keep the brute force small
        recording = random_recording(seed + 1000, max_moves=20)
        seed += 1000
        log = log_of(recording.document)
    return recording, log


@pytest.mark.parametrize("seed", SEEDS)
def test_truth_is_a_world_and_counts_match_brute_force(seed: int) -> None:
    recording, log = _small(seed)
    assert replay(log, recording.deal, recording.hidden) == recording.final.village
    assert face_up_after(log) == recording.final.face_up
    ends = brute_force(log)
    assert ends[recording.final.village] >= 1
    worlds = filter_worlds(log)
    assert worlds.impossible is None
    assert worlds.total == sum(ends.values())
    assert worlds.counts() == counts_of(ends)


@pytest.mark.parametrize("seed", SEEDS)
def test_z3_possible_and_certain_match_brute_force(seed: int) -> None:
    _, log = _small(seed)
    ends = brute_force(log)
    deduction = encode(log)
    assert deduction.consistent()
    possible = deduction.possible()
    for c, cell in enumerate(CELLS):
        expected = {end[c] for end in ends}
        assert set(possible[cell]) == expected, cell
        if len(expected) == 1:
            core = deduction.why(c, next(iter(expected)))
            assert all(0 <= k < len(log.events) for k in core)


def _keeping(log: Log, kept: set[int]) -> Log:
    """The log with only ``kept`` events' constraints (every card movement stays)."""
    events = tuple(
        e
        if e.index in kept
        else replace(e, ops=tuple(o for o in e.ops if not isinstance(o, Is | IsNot)))
        for e in log.events
    )
    return replace(log, events=events)


@pytest.mark.parametrize("seed", WHY_SEEDS)
def test_why_forces_the_cell_and_is_minimal_by_brute_force(seed: int) -> None:
    _, log = _small(seed + 300)
    deduction = encode(log)
    possible = deduction.possible()
    for c, cell in enumerate(CELLS):
        if len(possible[cell]) != 1:
            continue
        core = set(deduction.why(c, possible[cell][0]))
        assert {end[c] for end in brute_force(_keeping(log, core))} == set(possible[cell])
        for k in core:
            assert len({end[c] for end in brute_force(_keeping(log, core - {k}))}) > 1


@pytest.mark.parametrize(
    "seed", [*range(4), *(pytest.param(s, marks=pytest.mark.slow) for s in range(4, 40))]
)
def test_scoundrels_z3_matches_forward_filtering(seed: int) -> None:
    # Too many deals for the brute force: Z3's possible roles must be exactly the roles
    # with a positive world count, and the true village must be among the worlds.
    recording = random_recording(seed, max_moves=30, setups=("scoundrels",))
    log = log_of(recording.document)
    worlds = filter_worlds(log)
    truth = [ROLE_CODE[r] for r in recording.final.village]
    assert (worlds.village == truth).all(axis=1).any()
    possible = encode(log).possible()
    counts = worlds.counts()
    for cell in CELLS:
        assert set(possible[cell]) == set(counts[cell])
