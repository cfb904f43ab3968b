"""Shared figures for the balance commands: win rates with 95% Wilson score intervals."""

from __future__ import annotations

from math import sqrt
from typing import Any


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` out of ``games`` (0..1 when no games)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(wins: int, games: int) -> dict[str, Any]:
    """``wins`` of ``games`` as a sampled rate: the count, the rate (None without games), the
    95% Wilson interval, all rounded to 4 places."""
    low, high = wilson(wins, games)
    return {
        "wins": wins,
        "win_rate": round(wins / games, 4) if games else None,
        "interval95": [round(low, 4), round(high, 4)],
    }


def rate_text(s: dict[str, Any]) -> str:
    """A :func:`rate` in words: wins, the rate and its 95% interval."""
    low, high = s["interval95"]
    share = "n/a" if s["win_rate"] is None else f"{s['win_rate']:.3f}"
    return f"{s['wins']:>4} wins, {share} [{low:.3f}, {high:.3f}]"


def mean_text(value: float | None, unit: str) -> str:
    """A mean of the games played, in words: ``mean 41.5 moves``; with no game played (the
    budget ran out before the first), what happened instead of ``mean None moves``."""
    if value is None:
        return f"no mean {unit}: no game played"
    return f"mean {value} {unit}"


def mean_interval(values: list[int] | list[float], least: float | None = None) -> dict[str, Any]:
    """The sample mean of ``values`` with its 95% Student t interval (None with fewer than
    two values; not below ``least``, the smallest value there can be), rounded to 4
    places; the sample size and the largest value beside them."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "interval95": None, "most": None}
    mean = sum(values) / n
    interval = None
    if n > 1:
        from scipy.stats import t

        spread = sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
        half = float(t.ppf(0.975, n - 1)) * spread
        low = mean - half if least is None else max(least, mean - half)
        interval = [round(low, 4), round(mean + half, 4)]
    return {"n": n, "mean": round(mean, 4), "interval95": interval, "most": max(values)}


def mean_interval_text(m: dict[str, Any]) -> str:
    """A :func:`mean_interval` in words: ``1.25 [0.98, 1.52] (n 200, most 4)``."""
    if m["mean"] is None:
        return "no games"
    if m["interval95"] is None:
        return f"{m['mean']:.3f}, interval n/a (n {m['n']}, most {m['most']})"
    low, high = m["interval95"]
    return f"{m['mean']:.3f} [{low:.3f}, {high:.3f}] (n {m['n']}, most {m['most']})"
