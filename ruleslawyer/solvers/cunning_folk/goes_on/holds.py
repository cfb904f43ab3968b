"""How far each continuation value may move before a two-player equilibrium stops being one.

The stage's payoffs rest on the sampled continuation values (:mod:`.continuation`). Every
leaf (:class:`.stage.ends.Leaf`) is linear in them, the runs' plans held: so, for each value
the stage reaches (a state of the table and the perspective's place in it; the
claimant's value there is its negative, two players being zero-sum there), the payoffs
move along a line as it does. The equilibrium printed stays an equilibrium (each side's
strategy still a best response over its own worlds) over an interval of that value; it
is found by bisection to 4 places, with the exact best-response test (floats, 1e-12
tolerance) at each step. A mix that one side keeps only because it is indifferent holds
at its value alone: the interval is then that point, and the output says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ruleslawyer.solvers.cunning_folk.stage.ends import Position

STEPS = 20  # bisection steps: 2 / 2**20 is under 1e-5
# Every (state, the perspective's place) a two-player stage can reach.
KEYS = [((a, b), k) for a in (0, 1) for b in (0, 1) for k in (0, 1)]
EPSILON = 1e-12


def ranges(
    game: Any,
    pos: Position,
    me: int,
    eq: Any,
    gains: Callable[[Any, Sequence, Sequence, Any], tuple[Any, Any]],
) -> list[dict[str, Any]]:
    """Per continuation value the stage reaches: its value, 95% interval, and the range
    over which ``eq`` stays an equilibrium of ``game`` (the others held)."""
    table = pos.goes_on
    her = pos.claimant
    shares = [
        [
            [(leaf.terms(pos, me, False)[1], leaf.terms(pos, her, True)[1]) for leaf in pair]
            for pair in info.leaves
        ]
        for info in game.infos
    ]
    out = []
    for state, k in KEYS:
        d_mine, d_hers = _derivative(shares, state, k)
        if not any(any(v for pair in row for v in pair) for row in d_mine + d_hers):
            continue
        value = table.value(state, k)

        def holds(t: float, d_mine=d_mine, d_hers=d_hers) -> bool:
            shifted = _shift(game, d_mine, d_hers, t)
            hers, his = gains(shifted, eq.cell_mix, eq.claim_mix, eq.challenge)
            return float(hers) <= EPSILON and float(his) <= EPSILON

        low = _edge(holds, -1 - float(value))
        high = _edge(holds, 1 - float(value))
        out.append(table.holds(state, k, float(value) + low, float(value) + high))
    return out


def _derivative(shares: list, state: tuple[int, ...], k: int) -> tuple[list, list]:
    """How every payoff moves per unit of the perspective's value at (``state``, place
    ``k``), the claimant's at the other place moving the other way (two players: zero-sum
    there): each leaf is a constant plus shares of continuation values (``shares``: per
    leaf, the perspective's and hers, from :meth:`.Leaf.terms`)."""
    mine, other = (state, k), (state, 1 - k)

    def slope(share: dict) -> Fraction:
        return share.get(mine, Fraction(0)) - share.get(other, Fraction(0))

    d_mine = [tuple(tuple(slope(m) for m, _ in pair) for pair in info) for info in shares]
    d_hers = [tuple(tuple(slope(h) for _, h in pair) for pair in info) for info in shares]
    return d_mine, d_hers


def _shift(game: Any, d_mine: list, d_hers: list, t: float) -> Any:
    def moved(rows: Sequence, d: Sequence) -> tuple:
        return tuple(
            tuple(float(v) + t * float(dv) for v, dv in zip(pair, dpair, strict=True))
            for pair, dpair in zip(rows, d, strict=True)
        )

    infos = tuple(
        replace(x, mine=moved(x.mine, dm), hers=moved(x.hers, dh))
        for x, dm, dh in zip(game.infos, d_mine, d_hers, strict=True)
    )
    return replace(game, infos=infos)


def _edge(holds: Callable[[float], bool], limit: float) -> float:
    """The furthest shift towards ``limit`` (from 0) at which ``holds`` is still true."""
    if holds(limit):
        return limit
    inside, outside = 0.0, limit
    for _ in range(STEPS):
        middle = (inside + outside) / 2
        if holds(middle):
            inside = middle
        else:
            outside = middle
    return inside
