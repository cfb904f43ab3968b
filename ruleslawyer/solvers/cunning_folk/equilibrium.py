"""``ruleslawyer cunning-folk equilibrium``: a two-player claim stage solved exactly
(three or four players: :mod:`.cfr`, approximately).

The stage: the claimant looks at one cell; its role (the claimant's private *type*) is
drawn from the perspective's worlds (the weights ``deduce`` counts). The claimant then
passes or claims a role (any role the setup holds but the liar; having seen the liar they
must claim), and the challenger, who sees the claim but not the card, challenges or
accepts. Each outcome is valued for the challenger by the game utility of
:mod:`.stakes` (+1 win, -1 loss, 0 the game goes on), the claimant getting the
opposite: a zero-sum game of incomplete information.

It is solved as two linear programs (SciPy's HiGHS, imported only here): the challenger
picks a challenge probability per claim maximising the expected value against the
claimant's best reply per type; the claimant picks a claim mix per type (the sequence
form: realisation weights summing to each type's probability) minimising the
challenger's best reply per claim. The float answers are then turned into fractions
and checked exactly: the pair is an equilibrium when each side's exact best-response
value against the other equals the same number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.errors import BudgetExceeded, InputError
from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.models.cunning_folk.village import CELLS, ELDERS, LIAR, VILLAGER
from ruleslawyer.solvers.cunning_folk.advise import (
    ACTIONS,
    Claim,
    check_in_game,
    given_face_up,
    run_failure_penalty,
)
from ruleslawyer.solvers.cunning_folk.deduce import (
    DEFAULT_MAX_SECONDS,
    assumptions,
    consistent_worlds,
    elder_plans,
)
from ruleslawyer.solvers.cunning_folk.stakes import GAME_UTILITY, Table, claim_branches, summary
from ruleslawyer.solvers.cunning_folk.worlds import ROLE_CODE, Odds, Worlds

PASS = "pass"
TOLERANCE = 1e-9
DENOMINATORS = (10**3, 10**6, 10**9, 10**12)

STAGE = (
    "one claim stage: the claimant looks at the cell and passes or claims (any role the "
    "setup holds but the liar; seeing the liar forces a claim), each other player still in "
    "challenges or accepts; what follows is valued by the game utility and later turns are "
    "not searched; the pass and a non-elder action count 0"
)
KNOWLEDGE = (
    "common prior: the claimant's card is drawn from the perspective's worlds, and every "
    "player knows those weights; the claimant knows only the card they look at, beyond "
    "what the perspective knows; an elder run is valued by the elder planner over the "
    "perspective's worlds given that card (given it face up after a true claim is "
    "challenged)"
)
SOLUTION = (
    "zero-sum (the claimant's utility is minus the challenger's); two linear programs "
    "(SciPy HiGHS), the answer then checked exactly with fractions by best responses; "
    "where several equilibria exist one is shown (the value is the same for all)"
)


@dataclass(frozen=True)
class Multi:
    """The solver for three or four players still in (given by :mod:`.cfr`, which
    imports this module): its figures and what they assume."""

    solve: Callable[[Worlds, Log, str, int, Budget], dict[str, Any]]
    assumptions: Mapping[str, str]
    render: Callable[[dict[str, Any]], list[str]]


@dataclass(frozen=True)
class StageGame:
    """The claim stage: the challenger's payoffs, the claimant getting the opposite.

    ``challenge[i][j]`` and ``accept[i][j]``: the challenger's utility when the claimant
    of type ``types[i]`` claims ``claims[j]`` and is challenged or accepted; a pass is 0.
    """

    claimant: str
    challenger: str
    cell: int
    types: tuple[str, ...]
    prior: tuple[Fraction, ...]
    claims: tuple[str, ...]
    may_pass: tuple[bool, ...]  # per type: False where the liar forces a claim
    challenge: tuple[tuple[Fraction, ...], ...]
    accept: tuple[tuple[Fraction, ...], ...]

    def actions(self, i: int) -> tuple[str, ...]:
        return ((PASS,) if self.may_pass[i] else ()) + self.claims

    def utility(self, i: int, action: str, y: Sequence[Fraction | float]) -> Any:
        """The challenger's expected utility against type ``i`` playing ``action`` when
        claim ``j`` is challenged with probability ``y[j]``."""
        if action == PASS:
            return Fraction(0)
        j = self.claims.index(action)
        return y[j] * self.challenge[i][j] + (1 - y[j]) * self.accept[i][j]


@dataclass(frozen=True)
class Equilibrium:
    """Both strategies and the challenger's value; ``exact`` when checked in fractions."""

    claim_mix: tuple[tuple[Fraction | float, ...], ...]  # per type, over game.actions(i)
    challenge: tuple[Fraction | float, ...]  # per claim
    value: Fraction | float  # for the challenger
    exact: bool
    gap: float  # the larger side's best-response gain (0 when exact)


def build_stage(
    worlds: Worlds, log: Log, claimant: str, cell: int, budget: Budget | None = None
) -> StageGame:
    """The stage game at ``cell`` from ``worlds``, with the perspective as challenger."""
    challenger = log.perspective or ""
    marks = dict(zip(log.players, log.marks_now(), strict=True))
    types, prior, claims, may_pass, accept_wins, true_wins = stage_types(worlds, log, cell, budget)
    challenge: list[tuple[Fraction, ...]] = []
    accept: list[tuple[Fraction, ...]] = []
    for t in types:
        row_c, row_a = [], []
        for r in claims:
            penalised = r != VILLAGER or log.rules.villager_challenge == "penalty-applies"
            table = Table(
                me=challenger,
                claimant=claimant,
                my_marks=marks[challenger],
                claimant_marks=marks[claimant],
                players_left=2,
                role=r,
                action=ACTIONS.get(r, "no action"),
                penalised=penalised,
                elder=r in ELDERS,
                run_penalty=run_failure_penalty(log),
            )
            won = accept_wins[t][r] if r in ELDERS else Fraction(0)
            true_won = true_wins.get(r, Fraction(0))
            game = claim_branches(table, Fraction(int(t == r)), won, true_won)
            row_c.append(summary(game["challenge"])["utility"])
            row_a.append(summary(game["accept"])["utility"])
        challenge.append(tuple(row_c))
        accept.append(tuple(row_a))
    return StageGame(
        claimant, challenger, cell, types, prior, claims, may_pass, tuple(challenge), tuple(accept)
    )


def stage_types(
    worlds: Worlds, log: Log, cell: int, budget: Budget | None = None
) -> tuple[
    tuple[str, ...],
    tuple[Fraction, ...],
    tuple[str, ...],
    tuple[bool, ...],
    dict[str, dict[str, Fraction]],
    dict[str, Fraction],
]:
    """The claimant's types at ``cell`` with their probabilities, the claims, who may
    pass, and the elder runs' chances: unchallenged given each type (the card known to
    the runner, left as it is), and true and challenged (the card face up)."""
    seen = worlds.village[:, cell]
    codes = {int(c) for c in seen}
    types = tuple(sorted((r for r in ROLE_CODE if ROLE_CODE[r] in codes), key=ROLE_CODE.get))
    total = worlds.total
    prior = tuple(Fraction(int(worlds.weight[seen == ROLE_CODE[t]].sum()), total) for t in types)
    claims = tuple(r for r in log.setup.roles if r != LIAR)
    face_up = worlds.face_up[cell]
    may_pass = tuple(
        not (t == LIAR and (not face_up or log.rules.liar_face_up == "must-claim")) for t in types
    )
    elders = tuple(e for e in claims if e in ELDERS)
    accept_wins = {
        t: {
            e: plan.win_probability
            for e, plan in (
                elder_plans(_where(worlds, cell, t), log, elders, budget) if elders else {}
            ).items()
        }
        for t in types
    }
    true_wins = {
        e: elder_plans(given_face_up(worlds, cell, e), log, (e,), budget)[e].win_probability
        for e in elders
        if e in types
    }
    return types, prior, claims, may_pass, accept_wins, true_wins


def _where(worlds: Worlds, cell: int, role: str) -> Worlds:
    """The worlds where ``cell`` holds ``role`` (the card stays as it is, face down or up)."""
    keep = worlds.village[:, cell] == ROLE_CODE[role]
    return Worlds(worlds.village[keep], worlds.weight[keep], worlds.face_up, None)


def challenger_value(game: StageGame, y: Sequence[Fraction]) -> Fraction:
    """The challenger's value when the claimant best-responds to challenge mix ``y``."""
    return sum(
        (p * min(game.utility(i, a, y) for a in game.actions(i)) for i, p in enumerate(game.prior)),
        Fraction(0),
    )


def claimant_value(game: StageGame, x: Sequence[Sequence[Fraction]]) -> Fraction:
    """The challenger's value when it best-responds, claim by claim, to claim mix ``x``."""
    total = Fraction(0)
    for j, claim in enumerate(game.claims):
        on_c = on_a = Fraction(0)
        for i, p in enumerate(game.prior):
            mass = p * x[i][game.actions(i).index(claim)]
            on_c += mass * game.challenge[i][j]
            on_a += mass * game.accept[i][j]
        total += max(on_c, on_a)
    return total


def _linprog(c: np.ndarray, a_ub: np.ndarray, b_ub: np.ndarray, **kw: Any) -> np.ndarray:
    from scipy.optimize import linprog  # heavy: only the equilibrium imports SciPy

    res = linprog(c, A_ub=a_ub, b_ub=b_ub, method="highs", **kw)
    if res.status != 0:
        raise RuntimeError(f"the stage LP did not solve: {res.message}")
    return np.asarray(res.x)


def solve_floats(game: StageGame) -> tuple[list[list[float]], list[float]]:
    """Both LPs in floats: the claim mix per type and the challenge probability per claim."""
    n_t, n_r = len(game.types), len(game.claims)
    prior = [float(p) for p in game.prior]
    c_mat = np.array([[float(v) for v in row] for row in game.challenge])
    a_mat = np.array([[float(v) for v in row] for row in game.accept])
    # Challenger: variables y (n_r) then z (n_t); maximise sum p_t z_t, z_t <= U_t(a, y).
    rows, rhs = [], []
    for i in range(n_t):
        for a in game.actions(i):
            row = np.zeros(n_r + n_t)
            row[n_r + i] = 1.0
            if a == PASS:
                rhs.append(0.0)
            else:
                j = game.claims.index(a)
                row[j] = -(c_mat[i, j] - a_mat[i, j])
                rhs.append(a_mat[i, j])
            rows.append(row)
    cost = np.r_[np.zeros(n_r), -np.array(prior)]
    bounds = [(0.0, 1.0)] * n_r + [(None, None)] * n_t
    sol = _linprog(cost, np.array(rows), np.array(rhs), bounds=bounds)
    y = [min(1.0, max(0.0, v)) for v in sol[:n_r]]
    # Claimant: realisation weights q (per type and action) then w (n_r); minimise sum w.
    slots = [(i, a) for i in range(n_t) for a in game.actions(i)]
    n_q = len(slots)
    rows, rhs = [], []
    for j, claim in enumerate(game.claims):
        for mat in (c_mat, a_mat):
            row = np.zeros(n_q + n_r)
            for k, (i, a) in enumerate(slots):
                if a == claim:
                    row[k] = mat[i, j]
            row[n_q + j] = -1.0
            rows.append(row)
            rhs.append(0.0)
    eq = np.zeros((n_t, n_q + n_r))
    for k, (i, _) in enumerate(slots):
        eq[i, k] = 1.0
    cost = np.r_[np.zeros(n_q), np.ones(n_r)]
    bounds = [(0.0, None)] * n_q + [(None, None)] * n_r
    sol = _linprog(
        cost, np.array(rows), np.array(rhs), A_eq=eq, b_eq=np.array(prior), bounds=bounds
    )
    x: list[list[float]] = [[] for _ in range(n_t)]
    for k, (i, _) in enumerate(slots):
        x[i].append(max(0.0, sol[k]) / prior[i])
    return [[v / sum(row) for v in row] for row in x], y


def _rational(values: Sequence[float], bound: int, normalise: bool) -> list[Fraction]:
    out = [Fraction(v).limit_denominator(bound) if v > 1e-12 else Fraction(0) for v in values]
    out = [min(Fraction(1), max(Fraction(0), v)) for v in out]
    if normalise:
        total = sum(out, Fraction(0))
        out = [v / total for v in out]
    return out


def solve(game: StageGame) -> Equilibrium:
    """The equilibrium: exact fractions where a rational reading of the LP's answer passes
    the best-response check, else the floats, whose best-response gap is reported."""
    x, y = solve_floats(game)
    for bound in DENOMINATORS:
        xq = [_rational(row, bound, True) for row in x]
        yq = _rational(y, bound, False)
        low, high = challenger_value(game, yq), claimant_value(game, xq)
        if low == high:
            return Equilibrium(tuple(map(tuple, xq)), tuple(yq), low, True, 0.0)
    xf = [[Fraction(v) for v in row] for row in x]
    yf = [Fraction(v) for v in y]
    low, high = challenger_value(game, yf), claimant_value(game, xf)
    return Equilibrium(
        tuple(map(tuple, x)), tuple(y), float((low + high) / 2), False, float(high - low)
    )


def stage_json(game: StageGame) -> dict[str, Any]:
    """The stage game itself: types and prior, each player's actions, every payoff."""
    return {
        "players": {"claimant": game.claimant, "challenger": game.challenger},
        "cell": CELLS[game.cell],
        "types": [
            {"role": t, "probability": str(p), "actions": list(game.actions(i))}
            for i, (t, p) in enumerate(zip(game.types, game.prior, strict=True))
        ],
        "challenger_actions": ["challenge", "accept"],
        "payoffs_to": game.challenger,
        "payoffs_note": "the challenger's utility; the claimant's is its negative; a pass is 0",
        "payoffs": [
            {
                "type": t,
                "claim": r,
                "challenge": str(game.challenge[i][j]),
                "accept": str(game.accept[i][j]),
            }
            for i, t in enumerate(game.types)
            for j, r in enumerate(game.claims)
        ],
    }


def _num(v: Fraction | float) -> str:
    return str(v) if isinstance(v, Fraction) else repr(float(v))


def result_json(game: StageGame, eq: Equilibrium) -> dict[str, Any]:
    """The strategies and values as JSON-able figures (fractions as strings when exact)."""
    on_path = {
        r: any(
            eq.claim_mix[i][game.actions(i).index(r)] > 0 and p > 0
            for i, p in enumerate(game.prior)
        )
        for r in game.claims
    }
    return {
        "exact": eq.exact,
        "best_response_gap": eq.gap,
        "claim_strategy": {
            t: {a: _num(v) for a, v in zip(game.actions(i), eq.claim_mix[i], strict=True)}
            for i, t in enumerate(game.types)
        },
        "challenge_probability": {
            r: {"probability": _num(v), "value": float(v), "on_path": on_path[r]}
            for r, v in zip(game.claims, eq.challenge, strict=True)
        },
        "value": {
            game.challenger: _num(eq.value),
            game.claimant: _num(-eq.value),
        },
        "value_float": {
            game.challenger: float(eq.value),
            game.claimant: 0.0 - float(eq.value) + 0.0,
        },
    }


def stage_assumptions(log: Log, odds: Odds) -> dict[str, str]:
    return {
        **assumptions(log, odds),
        "utility": GAME_UTILITY,
        "stage": STAGE,
        "knowledge": KNOWLEDGE,
        "who_may_challenge": "two players: the perspective is the challenger, the other the "
        "claimant",
        "solution": SOLUTION,
    }


def claimant_of(log: Log, pending: Claim | None) -> str:
    """The claimant: the pending claim's player, else (two players) the other player."""
    if log.perspective is None:
        raise InputError(log.source, "perspective", "nothing", "the challenger's name")
    if pending is not None:
        return pending.player
    if len(log.players) != 2:
        raise InputError(
            log.source,
            "event",
            "no pending claim",
            f"a pending claim with {len(log.players)} players (its player is the claimant)",
        )
    return next(p for p in log.players if p != log.perspective)


def equilibrium(
    log: Log,
    cell: int,
    pending: Claim | None = None,
    *,
    odds: Odds = (1, 1),
    max_seconds: float = DEFAULT_MAX_SECONDS,
    multi: Multi | None = None,
) -> dict[str, Any]:
    """The equilibrium of the claim stage at ``cell`` as the JSON-able dict the CLI prints:
    exact for two players; with more, ``multi`` (:mod:`.cfr`) gives the figures and its
    assumptions, else bad input."""
    claimant = claimant_of(log, pending)
    check_in_game(log, claimant, "the perspective")
    two = sum(m < 2 for m in log.marks_now()) == 2
    if not two and multi is None:
        raise InputError(log.source, "players", len(log.players), "two players still in the game")
    budget = Budget(max_seconds=max_seconds)
    head: dict[str, Any] = {
        "perspective": log.perspective,
        "claimant": claimant,
        "cell": CELLS[cell],
        "pending_claim": None if pending is None else pending.role,
        "rulings": dict(log.rulings),
        "suspected": dict(zip(log.players, log.marks_now(), strict=True)),
        "assumptions": {
            **stage_assumptions(log, odds),
            **({} if two or multi is None else multi.assumptions),
        },
    }
    worlds = consistent_worlds(log, odds, budget, "equilibrium")
    if not worlds.finished:
        reason = "the time budget ended before every event was filtered"
        return {"finished": False, "worlds": None, **head, "unfinished": reason}
    try:
        if not two and multi is not None:
            figures = multi.solve(worlds, log, claimant, cell, budget)
            # CFR cut by the budget sets finished false itself, its figures kept.
            return {"finished": True, "worlds": worlds.total, **head, **figures}
        game = build_stage(worlds, log, claimant, cell, budget)
    except BudgetExceeded:
        reason = "the time budget ended before the elder runs were planned"
        return {"finished": False, "worlds": worlds.total, **head, "unfinished": reason}
    eq = solve(game)
    return {
        "finished": True,
        "worlds": worlds.total,
        **head,
        **result_json(game, eq),
        "stage_game": stage_json(game),
    }


def pending_figure(worlds: Worlds, log: Log, claim: Claim, budget: Budget) -> dict[str, Any]:
    """For ``advise``: the equilibrium challenge probability of a pending two-player claim,
    and the stage's value for the advised player (the challenger)."""
    game = build_stage(worlds, log, claim.player, claim.cell, budget)
    eq = solve(game)
    figures = result_json(game, eq)
    return {
        **figures["challenge_probability"][claim.role],
        "exact": eq.exact,
        "position_value": figures["value"][log.perspective or ""],
    }


def render_text(result: dict[str, Any], log: Log, multi: Multi | None = None) -> str:
    """The strategies, values and assumptions in words."""
    notes = [f"assumes {k.replace('_', ' ')}: {v}" for k, v in result["assumptions"].items()]
    rulings = ", ".join(f"{k}={v}" for k, v in result["rulings"].items()) or "none (defaults)"
    answer = (
        f"the others answer in turn from {result['claimant']}'s left"
        if result.get("approximate")
        else f"{result['perspective']} challenges"
    )
    head = (
        f"claim stage at {result['cell']} after {len(log.events)} events: "
        f"{result['claimant']} claims, {answer}"
    )
    if not result["finished"]:
        lines = [f"finished: false ({result['unfinished']}; {head})"]
        return "\n".join([*lines, f"rulings: {rulings}", *notes]) + "\n"
    if result.get("approximate"):
        exact = "approximate"
    elif result["exact"]:
        exact = "equilibrium exact"
    else:
        exact = f"equilibrium in floats, best-response gap {result['best_response_gap']:.1e}"
    lines = [f"{head} ({log.setup.name} setup): {result['worlds']} worlds; {exact}"]
    if result["pending_claim"]:
        lines.append(f"pending claim: {result['claimant']} says {result['pending_claim']}")
    if result.get("approximate") and multi is not None:
        lines += multi.render(result)
        return "\n".join([*lines, f"rulings: {rulings}", *notes]) + "\n"
    stage = result["stage_game"]
    lines.append(f"{result['claimant']}'s claim strategy, per card seen:")
    for row in stage["types"]:
        mix = result["claim_strategy"][row["role"]]
        parts = ", ".join(f"{a} {v}" for a, v in mix.items() if v not in ("0", "0.0"))
        lines.append(f"  {row['role']:<11} (probability {row['probability']}): {parts}")
    lines.append(f"{result['perspective']}'s challenge probability, per claim:")
    for r, row in result["challenge_probability"].items():
        path = "" if row["on_path"] else " (never claimed at equilibrium)"
        lines.append(f"  {r:<11} {row['probability']}{path}")
    lines.append(
        "value (game utility): "
        + ", ".join(
            f"{p} {v} = {result['value_float'][p]:+.4f}" for p, v in result["value"].items()
        )
    )
    lines.append(f"rulings: {rulings}")
    return "\n".join([*lines, *notes]) + "\n"
