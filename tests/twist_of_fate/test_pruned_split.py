"""The pruned search split over Dask workers: the same answers as in one process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.models.twist_of_fate.files import Position, load_position
from ruleslawyer.models.twist_of_fate.play import Rules, legal_moves
from ruleslawyer.solvers.twist_of_fate.encoding import decode_move
from ruleslawyer.solvers.twist_of_fate.pruned import driver, split
from tests.twist_of_fate.test_pruned import SMALL, varied

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = ROOT / "ruleslawyer/data/positions"


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    # two worker threads in this process (the compiled search releases the GIL): the
    # tasks, the bounds they share and the order they finish in, without the start of
    # worker processes (the command line's --workers is exercised below)
    from distributed import Client

    with Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as c:
        yield c


def same(position: Position, rules: Rules, client: Any, seat: int | None) -> None:
    """The split answer (best move, value; every move's value) is the one-process one."""
    for every in (False, True):
        one = driver.solve(position, rules, every_move=every, seat=seat, table_bytes=SMALL)
        found, cpu = split.solve(
            position, rules, Budget(), client, workers=2, every_move=every, seat=seat,
            table_bytes=SMALL,
        )  # fmt: skip
        assert one.finished and found.finished and cpu >= 0
        assert (found.value, found.best, found.seat) == (one.value, one.best, one.seat)
        if every:
            assert found.exact and found.moves == one.moves


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(varied(most=6), st.booleans())
def test_split_answers_as_one_process(
    client: Any, case: tuple[Position, Rules], other: bool
) -> None:
    position, rules = case
    state = position.state
    seat = (state.active + 1) % state.players if other else None
    same(position, rules, client, seat)


@pytest.mark.parametrize("name", ["twist-of-fate-3p-6", "twist-of-fate-3p-9"])
def test_split_answers_the_shipped_positions(name: str, client: Any) -> None:
    position = load_position(str(POSITIONS / f"{name}.toml"))
    rules = Rules.from_rulings(dict(position.rulings))
    same(position, rules, client, None)
    same(position, rules, client, (position.state.active + 2) % position.state.players)


def test_move_index_inverts_decode_move() -> None:
    for name in ("twist-of-fate-3p-6", "twist-of-fate-2p-10"):
        position = load_position(str(POSITIONS / f"{name}.toml"))
        rules = Rules.from_rulings(dict(position.rulings))
        for move in legal_moves(position.state, position.deck, rules):
            assert decode_move(driver.move_index(move, position), position) == move


def test_a_spent_budget_leaves_the_split_search_unfinished(client: Any) -> None:
    position = load_position(str(POSITIONS / "twist-of-fate-3p-12.toml"))
    rules = Rules.from_rulings(dict(position.rulings))
    found, _ = split.solve(position, rules, Budget(max_seconds=0), client, workers=2)
    assert not found.finished and found.value is None and found.best is None


def test_cli_splits_on_a_running_scheduler(client: Any) -> None:
    path = str(POSITIONS / "twist-of-fate-3p-9.toml")
    args = ["twist-of-fate", "solve", path, "--model", "paranoid", "--format", "json"]
    alone = json.loads(CliRunner().invoke(cli, args).output)
    result = CliRunner().invoke(cli, [*args, "--scheduler", client.scheduler.address])
    assert result.exit_code == 0, result.output
    shared = json.loads(result.output)
    assert shared["search"].endswith(
        "its root moves as tasks on the scheduler " + client.scheduler.address
    )
    assert shared["task_cpu_seconds"] > 0
    for name in ("best_move", "value", "guaranteed_sanctuary", "guaranteed_win"):
        assert shared[name] == alone[name], name


def test_cli_workers_is_for_the_pruned_search_or_the_dask_engine() -> None:
    path = str(POSITIONS / "twist-of-fate-3p-6.toml")
    result = CliRunner().invoke(cli, ["twist-of-fate", "solve", path, "--workers", "2"])
    assert result.exit_code == 2 and "the pruned paranoid search" in result.output
