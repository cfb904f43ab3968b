"""The tiered engine's time budget ends a run inside a tier, not only between tiers."""

from __future__ import annotations

from pathlib import Path

from ruleslawyer.budget import Budget
from ruleslawyer.models.twist_of_fate.files import load_position
from ruleslawyer.models.twist_of_fate.play import Rules
from ruleslawyer.solvers.twist_of_fate.dask import Engine, InProcess
from tests.twist_of_fate.test_dask import engine_answer, memory_answer

POSITIONS = Path(__file__).resolve().parents[2] / "ruleslawyer" / "data" / "positions"


class SpentAfter(Budget):
    """A time budget that runs out after ``checks`` questions (no clock involved)."""

    def __init__(self, checks: int) -> None:
        super().__init__()
        self.left = checks

    def spent(self, states: int = 0) -> bool:
        self.left -= 1
        return self.left < 0


def test_a_budget_spent_inside_a_tier_stops_there_and_resume_finishes(tmp_path: Path) -> None:
    position = load_position(POSITIONS / "twist-of-fate-3p-6.toml")
    work = tmp_path / "work"
    # 3p-6 in partitions of 2,000 states: its larger tiers have many tasks each, so a
    # budget spent after 40 checks runs out while a tier's tasks run
    engine = Engine(
        position, Rules(), InProcess(), work, budget=SpentAfter(40), partition_states=2_000
    )
    cut = engine.solve()
    assert not cut.finished and cut.guaranteed_sanctuary is None
    recorded = [t["tier"] for t in engine.run.tiers]
    assert recorded == list(range(len(recorded))) and 1 < len(recorded) < 7
    assert any(t["partitions"] > 1 for t in engine.run.tiers)
    again = Engine(position, Rules(), InProcess(), work, resume=True, partition_states=2_000)
    assert again.resumed_from == len(recorded)
    assert engine_answer(again) == memory_answer(position, Rules())
