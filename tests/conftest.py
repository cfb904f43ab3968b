"""Shared fixtures: a small synthetic game result for testing the writers."""

from __future__ import annotations

import pytest

from ruleslawyer.designer.checking import GameResult
from ruleslawyer.findings import (
    Finding,
    Kind,
    Location,
    Reading,
    RulePoint,
    Sentence,
    Witness,
    data_error,
    point_finding,
)

ATTACK = Sentence(
    "unsettled-kaelyfos-rulebook.txt",
    "Attack",
    "Each bloodsucker gives a distress to an explorer on their node and is returned to the supply.",
)
EXAMPLE = Sentence(
    "unsettled-kaelyfos-rulebook.txt",
    "Bloodsuckers",
    "is then removed from play",
)

SAMPLE_POINT = RulePoint(
    id="kaelyfos/sample",
    title="Where an attacking bloodsucker goes",
    kind=Kind.CONTRADICTION,
    sentences=(ATTACK, EXAMPLE),
    readings=(Reading("supply", "back to the supply"), Reading("removed", "out of the game")),
    default="supply",
)


def sample_findings(rulings: dict[str, str] | None = None) -> tuple[Finding, ...]:
    witness = Witness(
        description="one bloodsucker on an explorer's node",
        position={"explorers": {"ada": "fold"}, "bloodsuckers": {"fold": 1}},
        results={"supply": {"supply": 1}, "removed": {"supply": 0}},
    )
    return (
        data_error(
            "kaelyfos",
            "scarab-count",
            "Exactly one Scarab",
            Location("board.toml", "node[2].scarab", 12),
            "two nodes are marked scarab",
        ),
        point_finding(
            SAMPLE_POINT,
            rulings=rulings or {},
            parted=True,
            message="readings part",
            witness=witness,
            searched=10,
        ),
        point_finding(
            SAMPLE_POINT, rulings={}, parted=False, message="never parts", finished=False
        ),
    )


@pytest.fixture
def sample_result() -> GameResult:
    return GameResult(
        game="kaelyfos",
        title="Unsettled: Kaelyfos",
        source="board.toml",
        provenance="assumed",
        rulings={},
        findings=sample_findings(),
        rulebook="unsettled-kaelyfos-rulebook.txt",
    )


@pytest.fixture(scope="session")
def builtin_results() -> dict[str, GameResult]:
    """Every built-in game checked once per test session (shared by the contract tests)."""
    from ruleslawyer.budget import Budget
    from ruleslawyer.designer.checking import check_all

    return {r.game: r for r in check_all([], {}, Budget())}


@pytest.fixture(scope="session")
def compiled_kernels() -> None:
    """The Twist of Fate search kernels compiled (or loaded from Numba's cache) once per test
    process, before any test that times a command that runs them: a first compile takes
    minutes on a busy machine, and no test's clock may include it. Test processes that
    start together (``-n 2``) compile once: the others wait for the first, then load
    (see ``ruleslawyer.cli.twist_of_fate.kernels.prepare``)."""
    from ruleslawyer.cli.twist_of_fate.kernels import prepare

    prepare()
