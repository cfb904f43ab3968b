"""``ruleslawyer cunning-folk equilibrium``: the claim stage as a game in which every
player decides from what they know (three or four players: :mod:`.cfr`).

The stage, two players. The claimant is in one of her information states (what she has
seen alone: her looks, her swaps; :mod:`.stage.views`), each weighted by the perspective's
worlds. She chooses the cell to look at (or is given it: ``--cell``), sees its card, and
passes or claims (every claim a log may hold: any character but the liar; having seen the
liar she must claim). The perspective, who sees the cell and the claim, challenges or
accepts. What follows is valued as in :mod:`.stage.ends` (a game that goes on at the
continuation table's value), an elder run planned over the claimant's own worlds.

Each side best-responds from its own knowledge: she weighs the card she may see and her
run's chance by her own worlds, he weighs her information states, the card and how her
run ends by his. The two value an elder run differently, so the stage is not zero-sum
once each player's own knowledge counts, and no single linear program solves it. It is
solved as a mixed-integer program (SciPy's HiGHS): each player's best-response
conditions with a binary per action saying whether it may be played. The supports found
are then fixed and each side's indifference equations solved exactly in fractions
(:mod:`.exact`), and the pair is checked by exact best responses: her best cell and claim
in each information state over her worlds, his best answer to each claim over his. Where
no exact pair passes, the floats are shown with the best-response gains measured.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.errors import BudgetExceeded, InputError
from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.models.cunning_folk.village import CELLS, CLAIMABLE, ELDERS, LIAR
from ruleslawyer.solvers.cunning_folk.advise import check_in_game, goes_on_text
from ruleslawyer.solvers.cunning_folk.deduce import (
    DEFAULT_MAX_SECONDS,
    assumptions,
    consistent_worlds,
)
from ruleslawyer.solvers.cunning_folk.exact import rational
from ruleslawyer.solvers.cunning_folk.exact import solve as solve_exact
from ruleslawyer.solvers.cunning_folk.goes_on import continuation
from ruleslawyer.solvers.cunning_folk.goes_on.holds import ranges
from ruleslawyer.solvers.cunning_folk.stage.claim import Claim, position
from ruleslawyer.solvers.cunning_folk.stage.ends import (
    Leaf,
    Position,
    answered,
    over,
    run_stakes,
)
from ruleslawyer.solvers.cunning_folk.stage.runs import Planner, play_out, twins, where
from ruleslawyer.solvers.cunning_folk.stage.views import TooMany, Views, views
from ruleslawyer.solvers.cunning_folk.worlds import ROLE_CODE, Odds, Worlds

PASS = "pass"
TOLERANCE = 1e-7
BIG = 4.0  # bounds every utility difference (values lie in [-1, 1])

STAGE = (
    "one claim stage: the claimant chooses the cell to look at (or is given it: --cell), "
    "sees its card, and passes or claims any character but the liar (having seen the liar "
    "she must claim); each other player still in challenges or accepts; what follows is "
    "valued by each seat's value (+1 win, -1 loss, a game that goes on at its continuation "
    "value)"
)
KNOWLEDGE = (
    "every player decides from their own worlds: the claimant's information state is what "
    "she has seen alone (her looks and swaps, weighted by the perspective's worlds), her "
    "type what she knows and the card she then sees; she weighs the card she may see and "
    "her elder run's chance by her own worlds, and plans the run over them; the challenger "
    "weighs her information states, the card and how her run ends by his own worlds; each "
    "knows the other's strategy (not the other's cards); scoundrels: her own kept and "
    "set-aside cards are not in the log, so her worlds start from the public deal"
)
SOLUTION = (
    "a Nash equilibrium of the stage with each player's payoffs over their own worlds (not "
    "zero-sum when the two value an elder run differently): a mixed-integer program "
    "(SciPy HiGHS) on both players' best-response conditions, then each side's indifference "
    "equations solved exactly in fractions and the pair checked by exact best responses "
    "(exact: true); where several equilibria exist one is shown"
)


@dataclass(frozen=True)
class Multi:
    """The solver for three or four players still in (given by :mod:`.cfr`, which
    imports this module): its figures and what they assume."""

    solve: Callable[..., dict[str, Any]]
    assumptions: Callable[[str], Mapping[str, str]]  # per reading of challenge-order
    render: Callable[[dict[str, Any]], list[str]]


@dataclass(frozen=True)
class Info:
    """One decision of the claimant after looking: her class, the cell, the card."""

    cls: int  # index into StageGame.classes
    cell: int
    card: str
    belief: Fraction  # her chance of this card in this cell, over her worlds
    chance: Fraction  # the perspective's chance of it, given her class
    actions: tuple[str, ...]
    mine: tuple[tuple[Fraction, Fraction], ...]  # per action: challenger's (challenged, accepted)
    hers: tuple[tuple[Fraction, Fraction], ...]  # per action: claimant's (challenged, accepted)
    leaves: tuple[tuple[Leaf, Leaf], ...] = ()  # per action: what is left (challenged, accepted)


@dataclass(frozen=True)
class StageGame:
    claimant: str
    challenger: str
    classes: tuple[str, ...]  # each information state of the claimant, in words
    prior: tuple[Fraction, ...]  # the perspective's chance of each
    cells: tuple[int, ...]
    claims: tuple[str, ...]
    infos: tuple[Info, ...]

    def at(self, k: int, cell: int) -> list[int]:
        """The infos of class ``k`` at ``cell``."""
        return self._index.get((k, cell), [])

    @functools.cached_property
    def _index(self) -> dict[tuple[int, int], list[int]]:
        out: dict[tuple[int, int], list[int]] = {}
        for i, x in enumerate(self.infos):
            out.setdefault((x.cls, x.cell), []).append(i)
        return out


def stage_log(log: Log, pending: Claim | None) -> Log:
    """The log before the claimant looks: without the pending claim, if there is one."""
    if pending is None:
        return log
    return replace(log, events=log.events[: pending.event])


def build_stage(
    log: Log,
    claimant: str,
    cells: Sequence[int],
    goes_on: continuation.Table,
    *,
    odds: Odds = (1, 1),
    budget: Budget | None = None,
    seen: Views | None = None,
) -> StageGame:
    """The stage after ``log`` (the claimant has not looked yet), the perspective answering."""
    me = log.players.index(log.perspective or "")
    seen = seen or views(log, odds=odds, budget=budget, players=(claimant,))
    pos = position(log, claimant, goes_on)
    planner = Planner(log.setup, log.rules, budget)
    classes = seen.classes_of(claimant)
    column = seen.classes[:, seen.column(claimant)]
    total = seen.worlds.total
    infos: list[Info] = []
    for k, cls in enumerate(classes):
        rows = column == cls
        own = seen.own[seen.column(claimant)][cls]
        mass = int(seen.worlds.weight[rows].sum())
        mine = Worlds(seen.worlds.village[rows], seen.worlds.weight[rows], own.face_up, None)
        twin = twins(own)  # cells alike in her worlds: one plan serves them all
        alike = twins(own, mine)  # alike in his worlds too: the same figures
        done: dict[int, list[Info]] = {}
        for cell in cells:
            if alike[cell] in done:
                done[cell] = [replace(x, cell=cell) for x in done[alike[cell]]]
                infos += done[cell]
                continue
            here_infos = []
            for role, weight in _cards(own, cell).items():
                here = rows & (seen.worlds.village[:, cell] == ROLE_CODE[role])
                chance = Fraction(int(seen.worlds.weight[here].sum()), mass)
                forced = role == LIAR and (
                    not own.face_up[cell] or log.rules.liar_face_up == "must-claim"
                )
                actions = (() if forced else (PASS,)) + CLAIMABLE
                leaves = [
                    _leaves(pos, planner, seen, here, own, (twin[cell], cell), role, a, me)
                    for a in actions
                ]
                payoffs = [_payoff(pos, pair, me) for pair in leaves]
                here_infos.append(
                    Info(
                        k,
                        cell,
                        role,
                        Fraction(weight, own.total),
                        chance,
                        actions,
                        tuple(m for m, _ in payoffs),
                        tuple(h for _, h in payoffs),
                        tuple(leaves),
                    )
                )
            done[cell] = here_infos
            infos += here_infos
    prior = tuple(Fraction(seen.weight_of(claimant, c), total) for c in classes)
    return StageGame(
        claimant,
        log.perspective or "",
        tuple(seen.describe(claimant, c) for c in classes),
        prior,
        tuple(cells),
        CLAIMABLE,
        tuple(infos),
    )


def _cards(worlds: Any, cell: int) -> dict[str, int]:
    column = worlds.village[:, cell]
    return {
        role: n
        for role, code in ROLE_CODE.items()
        if (n := int(worlds.weight[column == code].sum()))
    }


def _leaves(
    pos: Position,
    planner: Planner,
    seen: Views,
    here: np.ndarray,
    own: Any,
    cells: tuple[int, int],
    card: str,
    action: str,
    me: int,
) -> tuple[Leaf, Leaf]:
    """What ``action`` leaves when challenged and when accepted (``cells``: the cell her
    run is planned at, a twin of the cell she looked at, and that cell)."""
    claimant = pos.claimant
    if action == PASS:
        leaf = Leaf(pos.marks, PASS, False)
        return leaf, leaf
    out = []
    for challengers in ((me,), ()):
        marks, acts = answered(pos, action, card == action, challengers)
        if acts and action in ELDERS and not over(marks):
            mine_worlds = where(own, cells[0], card, face_up=bool(challengers))
            plan = planner.plan(mine_worlds, action, run_stakes(pos, marks, claimant, claimant))
            ended = {"exhausted": 1}  # no world of his has this card: never reached
            his = play_out(plan, seen.worlds, here, cells) if here.any() else ended
            out.append(Leaf(marks, action, True, his, planner.own_ends(plan, mine_worlds)))
        else:
            out.append(Leaf(marks, action, acts))
    return out[0], out[1]


def _payoff(
    pos: Position, leaves: tuple[Leaf, Leaf], me: int
) -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]:
    """The challenger's and the claimant's values (challenged, accepted) of two leaves."""
    mine = tuple(leaf.value(pos, me, False) for leaf in leaves)
    hers = tuple(leaf.value(pos, pos.claimant, True) for leaf in leaves)
    return (mine[0], mine[1]), (hers[0], hers[1])


# --- the solution ------------------------------------------------------------------------


@dataclass(frozen=True)
class Equilibrium:
    """Both strategies and the values; ``exact`` when checked in fractions."""

    cell_mix: tuple[tuple[Fraction | float, ...], ...]  # per class, over game.cells
    claim_mix: tuple[tuple[Fraction | float, ...], ...]  # per info, over its actions
    challenge: dict[tuple[int, str], Fraction | float]  # per (cell, claim)
    exact: bool
    gains: tuple[float, float]  # best-response gains: the claimant's (largest), the challenger's


def _value(info: Info, a: int, y: Fraction | float, side: str) -> Any:
    ch, acc = (info.mine if side == "mine" else info.hers)[a]
    if info.actions[a] == PASS:
        return acc
    return y * ch + (1 - y) * acc


def her_values(game: StageGame, y: Mapping[tuple[int, str], Any]) -> tuple[list, list]:
    """Her best value at each info and at each (class, cell), against challenge mix ``y``."""
    best = [
        max(_value(x, a, y.get((x.cell, x.actions[a]), 0), "hers") for a in range(len(x.actions)))
        for x in game.infos
    ]
    cells = []
    for k in range(len(game.classes)):
        cells.append(
            [sum(game.infos[i].belief * best[i] for i in game.at(k, c)) for c in game.cells]
        )
    return best, cells


def challenger_incentive(
    game: StageGame, x: Sequence[Sequence[Any]], r: Sequence[Sequence[Any]]
) -> dict[tuple[int, str], Any]:
    """For each (cell, claim): his value of challenging minus accepting, against her
    strategy (cell mix ``x`` per class, claim mix ``r`` per info)."""
    g: dict[tuple[int, str], Any] = {(c, a): 0 for c in game.cells for a in game.claims}
    for i, info in enumerate(game.infos):
        reach = game.prior[info.cls] * info.chance * x[info.cls][game.cells.index(info.cell)]
        if not reach:
            continue
        for a, action in enumerate(info.actions):
            if action != PASS and r[i][a]:
                ch, acc = info.mine[a]
                g[(info.cell, action)] += reach * r[i][a] * (ch - acc)
    return g


def challenger_value(game: StageGame, x: Sequence, r: Sequence, y: Mapping) -> Any:
    total: Any = 0
    for i, info in enumerate(game.infos):
        reach = game.prior[info.cls] * info.chance * x[info.cls][game.cells.index(info.cell)]
        for a in range(len(info.actions)):
            if reach and r[i][a]:
                total += (
                    reach
                    * r[i][a]
                    * _value(info, a, y.get((info.cell, info.actions[a]), 0), "mine")
                )
    return total


def gains(game: StageGame, x: Sequence, r: Sequence, y: Mapping) -> tuple[Any, Any]:
    """What each side gains by its best response: hers (the largest over her classes, in
    her own worlds' values), his (over his worlds)."""
    _, cells = her_values(game, y)
    hers: Any = 0
    for k in range(len(game.classes)):
        now = 0
        for j, c in enumerate(game.cells):
            if x[k][j]:
                inside = sum(
                    game.infos[i].belief
                    * sum(
                        r[i][a]
                        * _value(game.infos[i], a, y.get((c, game.infos[i].actions[a]), 0), "hers")
                        for a in range(len(game.infos[i].actions))
                    )
                    for i in game.at(k, c)
                )
                now += x[k][j] * inside
        hers = max(hers, max(cells[k]) - now)
    g = challenger_incentive(game, x, r)
    his: Any = 0
    for key, inc in g.items():
        yv = y.get(key, 0)
        his += max(inc, 0) - yv * inc  # the best answer against what he plays now
    return hers, his


def solve(game: StageGame, budget: Budget | None = None) -> Equilibrium:
    """The equilibrium: supports from the mixed-integer program, then exact fractions
    where each side's indifference equations give a pair passing the exact check."""
    x, r, y = _milp(game, budget)
    exact = _exact(game, x, r, y)
    if exact is not None:
        xq, rq, yq = exact
        return Equilibrium(tuple(map(tuple, xq)), tuple(map(tuple, rq)), yq, True, (0.0, 0.0))
    hers, his = gains(game, x, r, y)
    return Equilibrium(
        tuple(map(tuple, x)), tuple(map(tuple, r)), y, False, (float(hers), float(his))
    )


def _milp(game: StageGame, budget: Budget | None) -> tuple[list, list, dict]:
    """Both players' best-response conditions as a mixed-integer program (HiGHS)."""
    from scipy.optimize import Bounds, LinearConstraint, milp  # heavy: only here
    from scipy.sparse import coo_matrix

    names: list[tuple] = []
    index: dict[tuple, int] = {}

    def var(name: tuple) -> int:
        index[name] = len(names)
        names.append(name)
        return index[name]

    n_classes, infos, cells = len(game.classes), game.infos, game.cells
    for i, info in enumerate(infos):
        for a in range(len(info.actions)):
            var(("r", i, a))
            var(("s", i, a))
        var(("V", i))
    for k in range(n_classes):
        for c in cells:
            var(("x", k, c))
            var(("t", k, c))
            var(("W", k, c))
        var(("U", k))
    for c in cells:
        for a in game.claims:
            var(("y", c, a))
            var(("zc", c, a))
            var(("za", c, a))
    n = len(names)
    low = np.zeros(n)
    high = np.ones(n)
    integral = np.zeros(n)
    for name, j in index.items():
        if name[0] in ("V", "W", "U"):
            low[j], high[j] = -np.inf, np.inf
        if name[0] in ("s", "t", "zc", "za"):
            integral[j] = 1
    rows: list[dict[int, float]] = []
    lo: list[float] = []
    hi: list[float] = []

    def add(coefs: dict[int, float], a: float, b: float) -> None:
        rows.append(coefs)
        lo.append(a)
        hi.append(b)

    for k in range(n_classes):
        add({index[("x", k, c)]: 1.0 for c in cells}, 1.0, 1.0)
    for i, info in enumerate(infos):
        coefs = {index[("r", i, a)]: 1.0 for a in range(len(info.actions))}
        coefs[index[("x", info.cls, info.cell)]] = -1.0
        add(coefs, 0.0, 0.0)
        for a, action in enumerate(info.actions):
            add({index[("r", i, a)]: 1.0, index[("s", i, a)]: -1.0}, -np.inf, 0.0)
            ch, acc = (float(v) for v in info.hers[a])
            coefs = {index[("V", i)]: 1.0}
            if action != PASS:
                coefs[index[("y", info.cell, action)]] = -(ch - acc)
            add(dict(coefs), acc, np.inf)  # V >= w
            coefs[index[("s", i, a)]] = BIG
            add(coefs, -np.inf, acc + BIG)  # V - w <= BIG (1 - s)
    for k in range(n_classes):
        for c in cells:
            coefs = {index[("W", k, c)]: 1.0}
            for i in game.at(k, c):
                coefs[index[("V", i)]] = -float(infos[i].belief)
            add(coefs, 0.0, 0.0)
            add({index[("U", k)]: 1.0, index[("W", k, c)]: -1.0}, 0.0, np.inf)
            add(
                {index[("U", k)]: 1.0, index[("W", k, c)]: -1.0, index[("t", k, c)]: BIG},
                -np.inf,
                BIG,
            )
            add({index[("x", k, c)]: 1.0, index[("t", k, c)]: -1.0}, -np.inf, 0.0)
    incentive: dict[tuple[int, str], dict[int, float]] = {
        (c, a): {} for c in cells for a in game.claims
    }
    for i, info in enumerate(infos):
        reach = float(game.prior[info.cls] * info.chance)
        for a, action in enumerate(info.actions):
            if action != PASS and reach:
                ch, acc = info.mine[a]
                incentive[(info.cell, action)][index[("r", i, a)]] = reach * float(ch - acc)
    for (c, a), g in incentive.items():
        y, zc, za = index[("y", c, a)], index[("zc", c, a)], index[("za", c, a)]
        add({y: 1.0, zc: -1.0}, -np.inf, 0.0)  # y > 0 only if challenging may be best
        add({**{j: -v for j, v in g.items()}, zc: BIG}, -np.inf, BIG)
        add({y: -1.0, za: -1.0}, -np.inf, -1.0)  # y < 1 only if accepting may be best
        add({**g, za: BIG}, -np.inf, BIG)
    at = [(k, j, v) for k, coefs in enumerate(rows) for j, v in coefs.items()]
    matrix = coo_matrix(
        ([v for _, _, v in at], ([k for k, _, _ in at], [j for _, j, _ in at])),
        shape=(len(rows), n),
    )
    options: dict[str, Any] = {"disp": False}
    if budget is not None and (left := budget.remaining_seconds()) is not None:
        if left <= 0:
            raise BudgetExceeded("the equilibrium program")
        options["time_limit"] = left
    res = milp(
        np.zeros(n),
        constraints=LinearConstraint(matrix.tocsr(), np.array(lo), np.array(hi)),
        integrality=integral,
        bounds=Bounds(low, high),
        options=options,
    )
    if res.x is None:
        if budget is not None and budget.spent():
            raise BudgetExceeded("the equilibrium program")
        raise RuntimeError(f"the stage's equilibrium program did not solve: {res.message}")
    sol = res.x
    x = [[max(0.0, sol[index[("x", k, c)]]) for c in cells] for k in range(n_classes)]
    r = [
        [max(0.0, sol[index[("r", i, a)]]) for a in range(len(info.actions))]
        for i, info in enumerate(infos)
    ]
    # behaviour: the claim mix given the cell (uniform where the cell is never chosen)
    for i, info in enumerate(infos):
        reach = x[info.cls][cells.index(info.cell)]
        if reach > TOLERANCE:
            r[i] = [v / reach for v in r[i]]
        else:
            r[i] = _best_reply(info, sol, index)
    y = {(c, a): min(1.0, max(0.0, sol[index[("y", c, a)]])) for c in cells for a in game.claims}
    return x, r, y


def _best_reply(info: Info, sol: np.ndarray, index: dict) -> list[float]:
    """At a cell never chosen: her best action there (the first best), as a pure mix."""
    values = []
    for a, action in enumerate(info.actions):
        ch, acc = (float(v) for v in info.hers[a])
        y = sol[index[("y", info.cell, action)]] if action != PASS else 0.0
        values.append(y * ch + (1 - y) * acc)
    best = max(range(len(values)), key=lambda a: values[a] - 1e-9 * a)
    return [1.0 if a == best else 0.0 for a in range(len(values))]


def _exact(game: StageGame, x: list, r: list, y: dict) -> tuple[list, list, dict] | None:
    """Exact fractions with the floats' supports: her indifference equations fix his mixed
    challenges, his fix her mix; free variables take the floats' simplest fractions."""
    cells = game.cells
    mixed = [key for key, v in y.items() if TOLERANCE < v < 1 - TOLERANCE]
    fixed = {key: Fraction(round(v)) for key, v in y.items() if key not in mixed}
    support = [[a for a, v in enumerate(row) if v > TOLERANCE] for row in r]
    chosen = [[j for j, v in enumerate(row) if v > TOLERANCE] for row in x]

    def w(i: int, a: int) -> tuple[dict, Fraction]:
        """Her value of action a at info i as coefficients over the mixed y, and a constant."""
        info = game.infos[i]
        ch, acc = info.hers[a]
        key = (info.cell, info.actions[a])
        if info.actions[a] == PASS:
            return {}, acc
        if key in fixed:
            return {}, fixed[key] * ch + (1 - fixed[key]) * acc
        return {key: ch - acc}, acc

    equations = []
    for i, info in enumerate(game.infos):
        if not support[i] or not x[info.cls][cells.index(info.cell)] > TOLERANCE:
            continue
        c0, k0 = w(i, support[i][0])
        for a in support[i][1:]:
            c1, k1 = w(i, a)
            coefs = dict(c1)
            for key, v in c0.items():
                coefs[key] = coefs.get(key, 0) - v
            equations.append((coefs, k0 - k1))
    for k in range(len(game.classes)):
        if len(chosen[k]) < 2:
            continue

        def cell_value(j: int, k: int = k) -> tuple[dict, Fraction]:
            coefs: dict = {}
            const = Fraction(0)
            for i in game.at(k, cells[j]):
                a = support[i][0] if support[i] else 0
                ci, ki = w(i, a)
                for key, v in ci.items():
                    coefs[key] = coefs.get(key, 0) + game.infos[i].belief * v
                const += game.infos[i].belief * ki
            return coefs, const

        c0, k0 = cell_value(chosen[k][0])
        for j in chosen[k][1:]:
            c1, k1 = cell_value(j)
            coefs = dict(c1)
            for key, v in c0.items():
                coefs[key] = coefs.get(key, 0) - v
            equations.append((coefs, k0 - k1))
    ys = solve_exact(mixed, equations, {key: rational(y[key]) for key in mixed})
    if ys is None:
        return None
    yq = {**fixed, **ys}
    # his side: the mixed challenges' indifference, over her support variables
    xvars = [("x", k, j) for k in range(len(game.classes)) for j in chosen[k]]
    rvars = [
        ("r", i, a)
        for i, info in enumerate(game.infos)
        if x[info.cls][cells.index(info.cell)] > TOLERANCE
        for a in support[i]
    ]
    eqs = []
    for k in range(len(game.classes)):
        eqs.append(({("x", k, j): Fraction(1) for j in chosen[k]}, Fraction(1)))
    for i, info in enumerate(game.infos):
        j = cells.index(info.cell)
        if x[info.cls][j] > TOLERANCE:
            coefs = {("r", i, a): Fraction(1) for a in support[i]}
            eqs.append((coefs, Fraction(1)))
    # realisation weights are products (x * r): fix x first, then r is linear given x
    guess = {v: rational(x[v[1]][v[2]]) for v in xvars}
    guess.update({v: rational(r[v[1]][v[2]]) for v in rvars})
    xs = solve_exact(xvars, eqs[: len(game.classes)], guess)
    if xs is None:
        return None
    reqs = list(eqs[len(game.classes) :])
    for key in mixed:
        coefs: dict = {}
        for i, info in enumerate(game.infos):
            if info.cell != key[0] or key[1] not in info.actions:
                continue
            a = info.actions.index(key[1])
            if ("r", i, a) not in guess:
                continue
            ch, acc = info.mine[a]
            reach = game.prior[info.cls] * info.chance * xs[("x", info.cls, cells.index(info.cell))]
            if reach:
                coefs[("r", i, a)] = coefs.get(("r", i, a), 0) + reach * (ch - acc)
        reqs.append((coefs, Fraction(0)))
    rs = solve_exact(rvars, reqs, guess)
    if rs is None:
        return None
    xq = [
        [xs.get(("x", k, j), Fraction(0)) for j in range(len(cells))]
        for k in range(len(game.classes))
    ]
    rq = []
    for i, info in enumerate(game.infos):
        j = cells.index(info.cell)
        if x[info.cls][j] > TOLERANCE:
            rq.append([rs.get(("r", i, a), Fraction(0)) for a in range(len(info.actions))])
        else:
            rq.append([Fraction(round(v)) for v in r[i]])
    if not _check(game, xq, rq, yq):
        return None
    return xq, rq, yq


def _check(game: StageGame, x: list, r: list, y: dict) -> bool:
    """Exact best responses: no class of hers and no answer of his gains anything."""
    if any(v < 0 or v > 1 for v in y.values()):
        return False
    if any(v < 0 for row in x for v in row) or any(v < 0 for row in r for v in row):
        return False
    if any(sum(row) != 1 for row in x) or any(sum(row) != 1 for row in r):
        return False
    hers, his = gains(game, x, r, y)
    return hers == 0 and his == 0


# --- the command -------------------------------------------------------------------------


def claimant_of(log: Log, pending: Claim | None) -> str:
    """The claimant: the pending claim's player, else (two players) the other player."""
    if log.perspective is None:
        raise InputError(log.source, "perspective", "nothing", "the challenger's name")
    if pending is not None:
        return pending.player
    if sum(m < 2 for m in log.marks_now()) != 2:
        raise InputError(
            log.source,
            "event",
            "no pending claim",
            f"a pending claim with {len(log.players)} players (its player is the claimant)",
        )
    marks = dict(zip(log.players, log.marks_now(), strict=True))
    return next(p for p in log.players if p != log.perspective and marks[p] < 2)


def stage_assumptions(log: Log, odds: Odds, goes_on: continuation.Table) -> dict[str, str]:
    return {
        **assumptions(log, odds),
        "utility": "each seat's value: +1 it wins, -1 it loses (ostracised, or another "
        "player wins), a game that goes on at its continuation value (see goes on)",
        "goes_on": goes_on_text(goes_on),
        "stage": STAGE,
        "knowledge": KNOWLEDGE,
        "who_may_challenge": "two players: the perspective is the challenger, the other the "
        "claimant",
        "solution": SOLUTION,
    }


def _num(v: Fraction | float) -> str:
    return str(v) if isinstance(v, Fraction) else repr(float(v))


def result_json(game: StageGame, eq: Equilibrium) -> dict[str, Any]:
    """The strategies and values as JSON-able figures (fractions as strings when exact)."""
    x, r, y = eq.cell_mix, eq.claim_mix, eq.challenge
    cells = game.cells
    # What the challenger sees: her cell choice and, per (cell, card), her claim mix,
    # averaged over her information states with his chance of each.
    looks: dict[str, Any] = {}
    claims: dict[str, dict[str, dict[str, Any]]] = {}
    reach: dict[tuple[int, str], Any] = {}
    for j, c in enumerate(cells):
        share = sum((game.prior[k] * x[k][j] for k in range(len(game.classes))), 0 * x[0][0])
        looks[CELLS[c]] = _num(share)
    for i, info in enumerate(game.infos):
        mass = game.prior[info.cls] * info.chance * x[info.cls][cells.index(info.cell)]
        if not mass:
            continue
        row = claims.setdefault(CELLS[info.cell], {}).setdefault(info.card, {})
        row["_mass"] = row.get("_mass", 0 * mass) + mass
        for a, action in enumerate(info.actions):
            row[action] = row.get(action, 0 * mass) + mass * r[i][a]
            if action != PASS:
                reach[(info.cell, action)] = (
                    reach.get((info.cell, action), 0 * mass) + mass * r[i][a]
                )
    strategy = {
        cell: {
            card: {a: _num(v / row["_mass"]) for a, v in row.items() if a != "_mass"}
            for card, row in sorted(by_card.items(), key=lambda kv: ROLE_CODE[kv[0]])
        }
        for cell, by_card in claims.items()
    }
    challenge = {
        CELLS[c]: {a: _answer(y[(c, a)], bool(reach.get((c, a), 0))) for a in game.claims}
        for c in cells
    }
    mine = challenger_value(game, x, r, y)
    _, her_cells = her_values(game, y)
    hers = sum((game.prior[k] * max(her_cells[k]) for k in range(len(game.classes))), 0 * mine)
    return {
        "exact": eq.exact,
        "best_response_gain": {game.claimant: eq.gains[0], game.challenger: eq.gains[1]},
        "cell_strategy": looks,
        "claim_strategy": strategy,
        "challenge_probability": challenge,
        "value": {game.challenger: _num(mine), game.claimant: _num(hers)},
        "value_float": {game.challenger: float(mine), game.claimant: float(hers)},
        "classes": [
            {
                "knows": text,
                "probability": str(p),
                "cells": {CELLS[c]: _num(x[k][j]) for j, c in enumerate(cells) if x[k][j]},
            }
            for k, (text, p) in enumerate(zip(game.classes, game.prior, strict=True))
        ],
    }


OFF_PATH = (
    "off the equilibrium path: she never makes this claim at equilibrium, so no challenge "
    "probability is advised; any answer that leaves her no gain from making it fits, the "
    "solver's is given as deterring_probability"
)


def _answer(y: Fraction | float, on_path: bool) -> dict[str, Any]:
    """The challenge probability of one claim, or, off the path, the solver's deterring one."""
    if on_path:
        return {"probability": _num(y), "value": float(y), "on_path": True}
    return {
        "probability": None,
        "value": None,
        "on_path": False,
        "off_path": OFF_PATH,
        "deterring_probability": _num(y),
    }


def off_path_text(figure: Mapping[str, Any]) -> str:
    """An off-path claim's answer in words (the solver's deterring answer beside)."""
    return (
        "off the equilibrium path (she never makes this claim at equilibrium: no challenge "
        "probability is advised; the solver's answer there, one that leaves her no gain from "
        f"it: challenge with probability {figure['deterring_probability']})"
    )


def stage_json(game: StageGame, limit: int = 400) -> dict[str, Any]:
    """The stage game itself: her information states, the types, every payoff (both
    players'), so the strategies can be checked; the payoffs are left out of a large stage."""
    payoffs = [
        {
            "class": x.cls,
            "cell": CELLS[x.cell],
            "card": x.card,
            "her_chance": str(x.belief),
            "his_chance": str(x.chance),
            "action": a,
            "challenger": {"challenge": str(m[0]), "accept": str(m[1])},
            "claimant": {"challenge": str(h[0]), "accept": str(h[1])},
        }
        for x in game.infos
        for a, m, h in zip(x.actions, x.mine, x.hers, strict=True)
    ]
    return {
        "players": {"claimant": game.claimant, "challenger": game.challenger},
        "cells": [CELLS[c] for c in game.cells],
        "classes": len(game.classes),
        "types": len(game.infos),
        "challenger_actions": ["challenge", "accept"],
        "payoffs_note": "each player's value over their own worlds; a pass is not answered",
        "payoffs": payoffs if len(payoffs) <= limit else None,
    }


def equilibrium(
    log: Log,
    cell: int | None,
    pending: Claim | None = None,
    *,
    odds: Odds = (1, 1),
    max_seconds: float = DEFAULT_MAX_SECONDS,
    multi: Multi | None = None,
    goes_on: continuation.Table | None = None,
) -> dict[str, Any]:
    """The equilibrium of the claim stage as the JSON-able dict the CLI prints: the
    claimant chooses the cell (``cell`` None) or looks at ``cell``; with three or four
    players ``multi`` (:mod:`.cfr`) gives the figures, else bad input."""
    goes_on = goes_on or continuation.shipped()
    claimant = claimant_of(log, pending)
    check_in_game(log, claimant, "the perspective")
    two = sum(m < 2 for m in log.marks_now()) == 2
    if not two and multi is None:
        raise InputError(log.source, "players", len(log.players), "two players still in the game")
    budget = Budget(max_seconds=max_seconds)
    if cell is not None:
        cells: tuple[int, ...] = (cell,)
    elif not two and pending is not None:  # three or four players: the claim's cell
        cells = (pending.cell,)
    else:
        cells = tuple(range(len(CELLS)))
    head: dict[str, Any] = {
        "perspective": log.perspective,
        "claimant": claimant,
        "cells": [CELLS[c] for c in cells],
        "pending_claim": None
        if pending is None
        else {"cell": CELLS[pending.cell], "role": pending.role, "event": pending.event},
        "rulings": dict(log.rulings),
        "suspected": dict(zip(log.players, log.marks_now(), strict=True)),
        "assumptions": {
            **stage_assumptions(log, odds, goes_on),
            **({} if two or multi is None else multi.assumptions(log.rules.challenge_order)),
        },
    }
    worlds = consistent_worlds(log, odds, budget, "equilibrium")
    if not worlds.finished:
        reason = "the time budget ended before every event was filtered"
        return {"finished": False, "worlds": None, **head, "unfinished": reason}
    base = stage_log(log, pending)
    try:
        if not two and multi is not None:
            role = pending.role if pending is not None else None
            figures = multi.solve(base, claimant, cells, goes_on, odds, budget, role)
            return {"finished": True, "worlds": worlds.total, **head, **figures}
        game = build_stage(base, claimant, cells, goes_on, odds=odds, budget=budget)
        eq = solve(game, budget)
    except BudgetExceeded as e:
        cause = str(e) if isinstance(e, TooMany) else "the time budget ended"
        reason = f"{cause} before the stage was solved"
        return {"finished": False, "worlds": worlds.total, **head, "unfinished": reason}
    pos = position(base, claimant, goes_on)
    me = base.players.index(base.perspective or "")
    out = {
        "finished": True,
        "worlds": worlds.total,
        **head,
        **result_json(game, eq),
        "goes_on_ranges": ranges(game, pos, me, eq, gains),
        "stage_game": stage_json(game),
    }
    if pending is not None:
        out["pending"] = out["challenge_probability"][CELLS[pending.cell]][pending.role]
    return out


def pending_figure(
    log: Log, claim: Claim, odds: Odds, goes_on: continuation.Table, budget: Budget
) -> dict[str, Any]:
    """For ``advise``: the equilibrium challenge probability of a pending two-player claim
    (the stage with the cell choice, the same as ``equilibrium`` computes), and the stage's
    value for the advised player (the challenger)."""
    left = budget.remaining_seconds()
    result = equilibrium(
        log,
        None,
        claim,
        odds=odds,
        max_seconds=DEFAULT_MAX_SECONDS if left is None else max(left, 1e-9),
        goes_on=goes_on,
    )
    if not result["finished"]:
        raise BudgetExceeded("the equilibrium figure")
    return {
        **result["pending"],
        **(
            {}
            if result["pending"]["on_path"]
            else {"off_path_text": off_path_text(result["pending"])}
        ),
        "exact": result["exact"],
        "position_value": result["value"][log.perspective or ""],
    }


def render_text(result: dict[str, Any], log: Log, multi: Multi | None = None) -> str:
    """The strategies, values and assumptions in words."""
    notes = [f"assumes {k.replace('_', ' ')}: {v}" for k, v in result["assumptions"].items()]
    rulings = ", ".join(f"{k}={v}" for k, v in result["rulings"].items()) or "none (defaults)"
    if not result.get("approximate"):
        answer = f"{result['perspective']} challenges"
    elif log.rules.challenge_order == "first-to-speak":
        answer = "the others answer, none seeing another's answer (first to speak)"
    else:
        answer = f"the others answer in turn from {result['claimant']}'s left"
    where_ = (
        f"at {result['cells'][0]}" if len(result["cells"]) == 1 else "with the cell of her choice"
    )
    head = (
        f"claim stage {where_} after {len(log.events)} events: "
        f"{result['claimant']} claims, {answer}"
    )
    if not result["finished"]:
        lines = [f"finished: false ({result['unfinished']}; {head})"]
        return "\n".join([*lines, f"rulings: {rulings}", *notes]) + "\n"
    if result.get("approximate"):
        exact = "approximate"
    elif result["exact"]:
        exact = "equilibrium exact (checked by exact best responses)"
    else:
        gain = result["best_response_gain"]
        exact = "equilibrium in floats, best-response gains " + ", ".join(
            f"{p} {v:.1e}" for p, v in gain.items()
        )
    lines = [f"{head} ({log.setup.name} setup): {result['worlds']} worlds; {exact}"]
    pending = result["pending_claim"]
    if pending:
        lines.append(
            f"pending claim: {result['claimant']} says {pending['cell']} is {pending['role']}"
        )
    if result.get("approximate") and multi is not None:
        lines += multi.render(result)
        return "\n".join([*lines, f"rulings: {rulings}", *notes]) + "\n"
    lines += strategy_lines(result)
    lines.append(f"rulings: {rulings}")
    return "\n".join([*lines, *notes]) + "\n"


def strategy_lines(result: dict[str, Any]) -> list[str]:
    claimant, me = result["claimant"], result["perspective"]
    lines = [f"{claimant}'s information states ({len(result['classes'])}):"]
    for row in result["classes"][:12]:
        looks = ", ".join(f"{c} {v}" for c, v in row["cells"].items())
        lines.append(f"  {row['probability']:>7}  knows {row['knows']}: looks at {looks}")
    if len(result["classes"]) > 12:
        lines.append(f"  ... {len(result['classes']) - 12} more (--format json lists them)")
    looked = ", ".join(
        f"{c} {v}" for c, v in result["cell_strategy"].items() if v not in ("0", "0.0")
    )
    lines.append(f"{claimant} looks at (as {me}'s worlds weigh her states): {looked}")
    lines.append(f"{claimant}'s claim strategy, per cell and card seen (averaged the same way):")
    for cell, by_card in result["claim_strategy"].items():
        for card, mix in by_card.items():
            parts = ", ".join(f"{a} {v}" for a, v in mix.items() if v not in ("0", "0.0"))
            lines.append(f"  {cell} {card:<11}: {parts}")
    pending = result.get("pending")
    if pending is not None:
        answer = (
            f"challenge with probability {pending['probability']}"
            if pending["on_path"]
            else off_path_text(pending)
        )
        claim = result["pending_claim"]
        lines.append(
            f"{me}'s answer to the pending claim ({claim['cell']} {claim['role']}): {answer}"
        )
    lines.append(f"{me}'s challenge probability, per cell and claim (claims made):")
    for cell, rows in result["challenge_probability"].items():
        made = [f"{a} {row['probability']}" for a, row in rows.items() if row["on_path"]]
        if made:
            lines.append(f"  {cell}: " + ", ".join(made))
    for row in result["goes_on_ranges"]:
        low, high = row["interval95"]
        holds = "holds" if row["holds_within_interval"] else "may change"
        where_ = (
            f"only at {row['holds_from']:+.4f} (a mix that moves with it)"
            if row["holds_from"] == row["holds_to"]
            else f"from {row['holds_from']:+.4f} to {row['holds_to']:+.4f}"
        )
        lines.append(
            f"goes on ({row['state']}; {me} {row['you']}): {row['value_float']:+.4f} "
            f"[{low:+.4f}, {high:+.4f}]; this equilibrium stays one {where_}: {holds} within "
            "the interval"
        )
    lines.append(
        "value: "
        + ", ".join(
            f"{p} {v} = {result['value_float'][p]:+.4f}" for p, v in result["value"].items()
        )
        + f" ({me} over his worlds; {claimant} over hers, averaged as {me}'s worlds weigh "
        "her states)"
    )
    return lines
