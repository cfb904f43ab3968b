"""The claim stage with three or four players: an approximate equilibrium by CFR.

The stage is that of :mod:`.equilibrium` with every other player still in the game
answering in turn from the claimant's left, each seeing the claim and the earlier
answers (``cunning-folk/challenge-order=from-left``). Each player's utility is the
game utility (+1 they win, -1 they lose: ostracised, or another player wins, 0 the game
goes on), so the game is not zero-sum. Penalties follow the state machine of
:mod:`ruleslawyer.models.cunning_folk.play`: a caught bluff costs the claimant a
suspected card; a true claim costs each challenger one (only the first under
``multiple-challengers=first-challenger``); a second card ostracises; a lone survivor
wins; the claimed action follows an unchallenged or true claim (an elder run wins with
the planner's chance over the perspective's worlds, else costs the runner a card).

:func:`solve` runs counterfactual regret minimisation (regret matching, the average
strategy kept) and measures the average strategy's NashConv: the sum over players of
what a best response gains. With three or more players CFR has no guarantee of reaching
an equilibrium; the NashConv says how far the answer is from one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ruleslawyer.budget import Budget
from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.models.cunning_folk.village import CELLS, ELDERS, VILLAGER
from ruleslawyer.solvers.cunning_folk.advise import run_failure_penalty
from ruleslawyer.solvers.cunning_folk.equilibrium import PASS, Multi, stage_types
from ruleslawyer.solvers.cunning_folk.worlds import Worlds

Vector = tuple[float, ...]
TIME_BUDGET = "the time budget ended"


@dataclass(frozen=True)
class MultiStage:
    """The stage for ``players`` (the claimant first, then the answerers in order).

    ``payoff[i][j][m]``: each player's utility when type ``types[i]`` claims
    ``claims[j]`` and the answerers in bit set ``m`` (bit k: answerer k) challenge.
    """

    players: tuple[str, ...]
    cell: int
    types: tuple[str, ...]
    prior: tuple[Fraction, ...]
    claims: tuple[str, ...]
    may_pass: tuple[bool, ...]
    payoff: tuple[tuple[tuple[Vector, ...], ...], ...]

    def actions(self, i: int) -> tuple[str, ...]:
        return ((PASS,) if self.may_pass[i] else ()) + self.claims

    @property
    def answerers(self) -> int:
        return len(self.players) - 1


def _ends(marks: Sequence[int], winner: int | None = None) -> list[float]:
    """Each player's utility where the stage leaves ``marks`` (and ``winner``, if any)."""
    left = [p for p, m in enumerate(marks) if m < 2]
    if winner is None and len(left) == 1:
        winner = left[0]
    if winner is not None:
        return [1.0 if p == winner else -1.0 for p in range(len(marks))]
    return [-1.0 if m >= 2 else 0.0 for m in marks]


def _hit(marks: Sequence[int], who: Sequence[int]) -> list[int]:
    return [min(2, m + (p in who)) for p, m in enumerate(marks)]


def _act(marks: list[int], elder: bool, wins: float, run_penalty: bool) -> list[float]:
    """The claimant's (player 0) action after ``marks``: an elder run or nothing valued."""
    if sum(m < 2 for m in marks) == 1:
        return _ends(marks)
    if not elder:
        return _ends(marks)
    won = _ends(marks, winner=0)
    failed = _ends(_hit(marks, (0,)) if run_penalty else marks)
    return [wins * w + (1 - wins) * f for w, f in zip(won, failed, strict=True)]


def build_multi_stage(
    worlds: Worlds, log: Log, claimant: str, cell: int, budget: Budget | None = None
) -> MultiStage:
    """The stage at ``cell``: every player still in answers, from the claimant's left."""
    marks_now = dict(zip(log.players, log.marks_now(), strict=True))
    k = log.players.index(claimant)
    order = [log.players[(k + d) % len(log.players)] for d in range(len(log.players))]
    players = tuple(p for p in order if marks_now[p] < 2)
    marks = [marks_now[p] for p in players]
    types, prior, claims, may_pass, accept_wins, true_wins = stage_types(worlds, log, cell, budget)
    first_only = log.rules.multiple_challengers == "first-challenger"
    run_penalty = run_failure_penalty(log) is None
    n = len(players) - 1
    payoff = []
    for t in types:
        rows = []
        for r in claims:
            elder = r in ELDERS
            penalised = r != VILLAGER or log.rules.villager_challenge == "penalty-applies"
            row = []
            for m in range(2**n):
                challengers = [1 + b for b in range(n) if m >> b & 1]
                if not challengers:
                    won = float(accept_wins[t][r]) if elder else 0.0
                    u = _act(marks, elder, won, run_penalty)
                elif not penalised:
                    u = _ends(marks)
                elif t != r:
                    u = _ends(_hit(marks, (0,)))
                else:
                    after = _hit(marks, challengers[:1] if first_only else challengers)
                    won = float(true_wins[r]) if elder else 0.0
                    u = _act(after, elder, won, run_penalty)
                row.append(tuple(u))
            rows.append(tuple(row))
        payoff.append(tuple(rows))
    return MultiStage(players, cell, types, prior, claims, may_pass, tuple(payoff))


class _Regrets:
    """Regret sums and strategy sums per information set."""

    def __init__(self) -> None:
        self.regret: dict[Any, list[float]] = {}
        self.total: dict[Any, list[float]] = {}

    def current(self, key: Any, size: int) -> list[float]:
        r = self.regret.setdefault(key, [0.0] * size)
        positive = [max(0.0, v) for v in r]
        s = sum(positive)
        return [v / s for v in positive] if s > 0 else [1.0 / size] * size

    def average(self, key: Any, size: int) -> list[float]:
        t = self.total.get(key)
        s = sum(t) if t else 0.0
        return [v / s for v in t] if t and s > 0 else [1.0 / size] * size


def _walk(
    game: MultiStage,
    i: int,
    j: int,
    c: int,
    mask: int,
    reach: list[float],
    table: _Regrets,
    policy: str,
) -> list[float]:
    """Utilities below answerer ``c`` after claim ``j`` by type ``i`` and answers ``mask``;
    with ``policy == "learn"`` the regrets and strategy sums are updated."""
    if c > game.answerers:
        return list(game.payoff[i][j][mask])
    key = (c, j, mask)
    s = table.current(key, 2) if policy == "learn" else table.average(key, 2)
    children = []
    for a in (0, 1):
        step = reach.copy()
        step[c] *= s[a]
        children.append(_walk(game, i, j, c + 1, mask | a << (c - 1), step, table, policy))
    value = [s[0] * x + s[1] * y for x, y in zip(*children, strict=True)]
    if policy == "learn":
        others = 1.0
        for p, r in enumerate(reach):
            others *= r if p != c else 1.0
        regret = table.regret[key]
        total = table.total.setdefault(key, [0.0, 0.0])
        for a in (0, 1):
            regret[a] += others * (children[a][c] - value[c])
            total[a] += reach[c] * s[a]
    return value


def _claimant_values(game: MultiStage, i: int, table: _Regrets, policy: str) -> list[list[float]]:
    """Each action's utilities for type ``i``, the answerers playing ``policy``."""
    n = len(game.players)
    out = []
    for a in game.actions(i):
        if a == PASS:
            out.append([0.0] * n)
        else:
            j = game.claims.index(a)
            out.append(_walk(game, i, j, 1, 0, [1.0] * n, table, policy))
    return out


def iterate(game: MultiStage, table: _Regrets) -> None:
    """One CFR iteration over the whole stage."""
    n = len(game.players)
    for i, p in enumerate(game.prior):
        acts = game.actions(i)
        s = table.current(("claimant", i), len(acts))
        children = []
        for a, sa in zip(acts, s, strict=True):
            if a == PASS:
                children.append([0.0] * n)
                continue
            reach = [float(p) * sa, *[1.0] * (n - 1)]  # chance folded into the claimant's
            j = game.claims.index(a)
            children.append(_walk(game, i, j, 1, 0, reach, table, "learn"))
        value0 = sum(sa * ch[0] for sa, ch in zip(s, children, strict=True))
        regret = table.regret[("claimant", i)]
        total = table.total.setdefault(("claimant", i), [0.0] * len(acts))
        for a in range(len(acts)):
            regret[a] += float(p) * (children[a][0] - value0)
            total[a] += s[a]


def _q_values(game: MultiStage, table: _Regrets, c: int) -> dict[Any, list[float]]:
    """For answerer ``c``, each information set's action values (weighted by the others'
    reach under the average profile): what a best response compares."""
    q: dict[Any, list[float]] = {}
    n = len(game.players)
    for i, p in enumerate(game.prior):
        acts = game.actions(i)
        s0 = table.average(("claimant", i), len(acts))
        for a, sa in zip(acts, s0, strict=True):
            if a == PASS or sa == 0:
                continue
            j = game.claims.index(a)
            _collect(game, i, j, 1, 0, float(p) * sa, c, table, q, n)
    return q


def _collect(
    game: MultiStage,
    i: int,
    j: int,
    d: int,
    mask: int,
    weight: float,
    c: int,
    table: _Regrets,
    q: dict[Any, list[float]],
    n: int,
) -> None:
    """Walk down to answerer ``c``'s decision, then add each action's value there."""
    if d == c:
        row = q.setdefault((c, j, mask), [0.0, 0.0])
        for a in (0, 1):
            below = _walk(game, i, j, c + 1, mask | a << (c - 1), [1.0] * n, table, "average")
            row[a] += weight * below[c]
        return
    s = table.average((d, j, mask), 2)
    for a in (0, 1):
        if s[a]:
            _collect(game, i, j, d + 1, mask | a << (d - 1), weight * s[a], c, table, q, n)


def values(game: MultiStage, table: _Regrets) -> list[float]:
    """Each player's expected utility under the average profile."""
    total = [0.0] * len(game.players)
    for i, p in enumerate(game.prior):
        acts = game.actions(i)
        s0 = table.average(("claimant", i), len(acts))
        for sa, v in zip(s0, _claimant_values(game, i, table, "average"), strict=True):
            total = [t + float(p) * sa * x for t, x in zip(total, v, strict=True)]
    return total


def nash_conv(game: MultiStage, table: _Regrets) -> tuple[float, list[float]]:
    """The average profile's NashConv and each player's best-response gain."""
    now = values(game, table)
    best = [
        sum(
            float(p) * max(v[0] for v in _claimant_values(game, i, table, "average"))
            for i, p in enumerate(game.prior)
        )
    ]
    for c in range(1, len(game.players)):
        best.append(sum(max(row) for row in _q_values(game, table, c).values()))
    gains = [max(0.0, b - v) for b, v in zip(best, now, strict=True)]
    return sum(gains), gains


@dataclass(frozen=True)
class Approximate:
    """CFR's average profile with its measured NashConv."""

    table: _Regrets
    iterations: int
    nash_conv: float
    gains: tuple[float, ...]
    values: tuple[float, ...]
    history: tuple[tuple[int, float], ...]  # (iterations, NashConv) as measured
    stopped: str  # why CFR stopped: the NashConv target, the iterations, the time budget


def solve(
    game: MultiStage,
    *,
    iterations: int = 20000,
    target: float = 0.001,
    every: int = 500,
    budget: Budget | None = None,
) -> Approximate:
    """CFR until the NashConv is at most ``target`` times the payoff range (2), the
    iterations are spent, or the budget ends (checked every ``every`` iterations)."""
    table = _Regrets()
    history: list[tuple[int, float]] = []
    done, stopped = 0, f"after {iterations} iterations"
    while done < iterations:
        for _ in range(min(every, iterations - done)):
            iterate(game, table)
        done = min(iterations, done + every)
        conv, gains = nash_conv(game, table)
        history.append((done, conv))
        if conv <= target * 2:
            stopped = f"the NashConv reached {target} of the payoff range"
            break
        if budget is not None and budget.spent():
            stopped = TIME_BUDGET
            break
    conv, gains = nash_conv(game, table)
    return Approximate(
        table, done, conv, tuple(gains), tuple(values(game, table)), tuple(history), stopped
    )


def result_json(game: MultiStage, approx: Approximate) -> dict[str, Any]:
    """The approximate strategies, values and NashConv as JSON-able figures."""
    others = game.players[1:]
    answers = {}
    for c, name in enumerate(others, 1):
        rows = {}
        for j, r in enumerate(game.claims):
            for mask in range(2 ** (c - 1)):
                earlier = ", ".join(
                    f"{others[b]} {'challenged' if mask >> b & 1 else 'accepted'}"
                    for b in range(c - 1)
                )
                key = r if not earlier else f"{r} ({earlier})"
                rows[key] = round(approx.table.average((c, j, mask), 2)[1], 6)
        answers[name] = rows
    return {
        "exact": False,
        "approximate": True,
        "method": f"CFR, {approx.iterations} iterations",
        "stopped": approx.stopped,
        "nash_conv": approx.nash_conv,
        "nash_conv_of_range": approx.nash_conv / 2,
        "best_response_gain": dict(zip(game.players, approx.gains, strict=True)),
        "nash_conv_history": [{"iterations": k, "nash_conv": v} for k, v in approx.history],
        "claim_strategy": {
            t: {
                a: round(v, 6)
                for a, v in zip(
                    game.actions(i),
                    approx.table.average(("claimant", i), len(game.actions(i))),
                    strict=True,
                )
            }
            for i, t in enumerate(game.types)
        },
        "challenge_probability": answers,
        "value_float": {
            p: round(v, 6) + 0.0 for p, v in zip(game.players, approx.values, strict=True)
        },
    }


def stage_json(game: MultiStage) -> dict[str, Any]:
    """The stage game itself: types, actions, every payoff for every player."""
    _, *others = game.players
    return {
        "players": {"claimant": game.players[0], "answerers_in_order": others},
        "cell": CELLS[game.cell],
        "types": [
            {"role": t, "probability": str(p), "actions": list(game.actions(i))}
            for i, (t, p) in enumerate(zip(game.types, game.prior, strict=True))
        ],
        "answerer_actions": ["accept", "challenge"],
        "payoffs_note": "each player's game utility; a pass is 0 for everyone",
        "payoffs": [
            {
                "type": t,
                "claim": r,
                "challengers": [others[b] for b in range(len(others)) if m >> b & 1],
                "utility": dict(zip(game.players, game.payoff[i][j][m], strict=True)),
            }
            for i, t in enumerate(game.types)
            for j, r in enumerate(game.claims)
            for m in range(2 ** len(others))
        ],
    }


MULTI_ASSUMPTIONS = {
    "who_may_challenge": "every player still in answers, in turn from the claimant's left, "
    "seeing the claim and the earlier answers (cunning-folk/challenge-order=from-left)",
    "utility": "each player's game utility: +1 they win (every other ostracised, or their "
    "elder run succeeds), -1 they lose (ostracised, or another player wins), 0 the game "
    "goes on; not zero-sum",
    "solution": "approximate: counterfactual regret minimisation (regret matching, the "
    "average strategy), stopped when the NashConv is at most 0.001 of the payoff range (2), "
    "after 20000 iterations, or at the time budget; the NashConv (the sum over players of "
    "what a best response gains against the others' average strategies) is measured and "
    "printed; with three or more players CFR is not guaranteed to reach an equilibrium",
}


def approximate(
    worlds: Worlds, log: Log, claimant: str, cell: int, budget: Budget
) -> dict[str, Any]:
    """The approximate equilibrium's figures and the stage game, as JSON-able dicts."""
    game = build_multi_stage(worlds, log, claimant, cell, budget)
    approx = solve(game, budget=budget)
    figures = {**result_json(game, approx), "stage_game": stage_json(game)}
    if approx.stopped == TIME_BUDGET:  # the figures reached are kept, marked unfinished
        figures |= {"finished": False, "unfinished": f"{TIME_BUDGET} before CFR's target"}
    return figures


def render_lines(result: dict[str, Any]) -> list[str]:
    """The approximate strategies, values and NashConv in words."""
    lines = [
        f"approximate equilibrium ({result['method']}; stopped: {result['stopped']}): NashConv "
        f"{result['nash_conv']:.6f} = {result['nash_conv_of_range']:.6f} of the payoff range"
    ]
    stage = result["stage_game"]
    claimant = stage["players"]["claimant"]
    lines.append(f"{claimant}'s claim strategy, per card seen:")
    for row in stage["types"]:
        mix = result["claim_strategy"][row["role"]]
        parts = ", ".join(f"{a} {v:.4f}" for a, v in mix.items() if v >= 0.00005)
        lines.append(f"  {row['role']:<11} (probability {row['probability']}): {parts}")
    for name, rows in result["challenge_probability"].items():
        lines.append(f"{name}'s challenge probability, per claim (and earlier answers):")
        lines += [f"  {key:<11} {p:.4f}" for key, p in rows.items()]
    lines.append(
        "value (game utility, approximate): "
        + ", ".join(f"{p} {v:+.4f}" for p, v in result["value_float"].items())
    )
    return lines


MULTI = Multi(approximate, MULTI_ASSUMPTIONS, render_lines)
