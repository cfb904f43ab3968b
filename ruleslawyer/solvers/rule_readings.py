"""Open rule points that change an answer: rank again under each other reading of each point
the user did not settle, and keep the readings whose ranking differs (shared by the advise
commands)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from ruleslawyer.findings import RulePoint

R = TypeVar("R")


def in_force(points: Iterable[RulePoint], rulings: Mapping[str, str]) -> dict[str, str]:
    """Every point with readings mapped to its ruling, else its default."""
    return {p.id: rulings.get(p.id, p.default or "") for p in points if p.readings}


@dataclass(frozen=True)
class Divergence(Generic[R]):
    """The ranking under ``point`` = ``reading`` (every other point as in force)."""

    point: str
    reading: str
    title: str
    result: R


def divergences(
    points: Iterable[RulePoint],
    chosen: Mapping[str, str],
    settled: Iterable[str],
    rank: Callable[[dict[str, str]], R],
    order: Callable[[R], tuple[str, ...]],
    base: R,
    *,
    candidates: Iterable[str] | None = None,
    out_of_time: Callable[[], bool] = lambda: False,
) -> tuple[tuple[Divergence[R], ...], bool]:
    """Each other reading of each open point (in ``candidates``, default every point with
    readings; not ``settled`` by the user) whose ranking ``order`` differs from ``base``'s,
    in point then reading order; and whether every reading was tried (``out_of_time`` is
    asked before each)."""
    by_id = {p.id: p for p in points if p.readings}
    wanted = sorted(by_id if candidates is None else set(candidates) & set(by_id))
    skip = set(settled)
    out: list[Divergence[R]] = []
    for point in wanted:
        if point in skip:
            continue
        for reading in by_id[point].reading_names:
            if reading == chosen[point]:
                continue
            if out_of_time():
                return tuple(out), False
            other = rank({**chosen, point: reading})
            if order(other) != order(base):
                out.append(Divergence(point, reading, by_id[point].title, other))
    return tuple(out), True
