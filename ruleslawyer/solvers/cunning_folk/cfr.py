"""The claim stage with three or four players: an approximate equilibrium by CFR, every
player deciding from what they know.

The claimant has looked at the pending claim's cell. Her type is her information state
(what she has seen alone, :mod:`.stage.views`) and the card there; every other player still in
answers, each in their own information state (the perspective in his): under
``cunning-folk/challenge-order=from-left`` in turn from her left, seeing the claim and the
earlier answers; under ``first-to-speak`` from the claim alone (nobody waits for another's
answer: one information set per class and claim), and where several challenge, each is
equally likely to have spoken first (the same tree, the earlier answers unseen). Each
player's payoff is their own value (+1 they win, -1 they lose, a game that goes on at its
continuation value: :mod:`.stage.ends`), so the game is not zero-sum; an
elder claim's run is planned over the claimant's own worlds.

Whose worlds weigh what: each player weighs the card by their own worlds (the claimant
knows it); the perspective weighs everything by his worlds; how likely the other players'
information states are, a player other than the perspective takes from the perspective's
worlds given their own state and the card (beliefs about beliefs are not modelled apart).
A claimant's run is valued by the perspective as it ends in his worlds, by everyone else
as it ends in hers (the others cannot know her plan in their worlds).

:func:`solve` runs CFR+ (regret matching with regrets floored at 0, the average strategy
weighted by iteration), vectorised over the chance outcomes, and measures the average
strategy's NashConv: the sum over players of what a best response gains, each player's
gain over their own worlds, their information states weighted by the perspective's
worlds. CFR has no guarantee of reaching an equilibrium with three or more players; the
NashConv says how far the answer is from one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.models.cunning_folk.village import CELLS, CLAIMABLE, ELDERS, LIAR
from ruleslawyer.solvers.cunning_folk.equilibrium import PASS, Multi
from ruleslawyer.solvers.cunning_folk.goes_on import continuation
from ruleslawyer.solvers.cunning_folk.stage.claim import position
from ruleslawyer.solvers.cunning_folk.stage.ends import Leaf, answered, over, run_stakes
from ruleslawyer.solvers.cunning_folk.stage.runs import Planner, play_out, where
from ruleslawyer.solvers.cunning_folk.stage.views import views
from ruleslawyer.solvers.cunning_folk.worlds import ROLE_CODE, Odds

TIME_BUDGET = "the time budget ended"
FROM_LEFT, FIRST_TO_SPEAK = "from-left", "first-to-speak"  # cunning-folk/challenge-order
ACTIONS = (PASS, *CLAIMABLE)
RANGE = 2.0  # every value lies in [-1, 1]
# A claim the average profile makes with less chance than this (over the perspective's
# worlds) is off its path: CFR's average keeps a trace of every early iteration's mix.
OFF_PATH = 1e-3


@dataclass(frozen=True)
class MultiStage:
    """The stage at ``cell``: the claimant (seat 0 here) then the answerers in order.

    Chance outcomes ``o``: her type ``kind[o]`` (an index into ``types``: her class and
    the card), each answerer's class ``cls[j, o]``. ``weight[i, o]``: player ``i``'s
    chance of ``o`` (each player's weights sum to 1 within each of their information
    states). ``utility[i, a, m, o]``: player ``i``'s value when ``ACTIONS[a]`` is made
    and the answerers in bit set ``m`` challenge.
    """

    players: tuple[str, ...]
    cell: int
    types: tuple[tuple[str, str], ...]  # (what she knows, the card)
    allowed: np.ndarray  # (types, actions) bool
    classes: tuple[tuple[str, ...], ...]  # per answerer: each class in words
    kind: np.ndarray  # (n_o,)
    cls: np.ndarray  # (answerers, n_o)
    weight: np.ndarray  # (players, n_o)
    prior: np.ndarray  # (n_o,) the perspective's chance of each outcome
    utility: np.ndarray  # (players, actions, 2**answerers, n_o)
    perspective: str = ""
    pos: Any = None  # the stage's position (its continuation table)
    # per (action, answers, outcome): the leaf, or under first-to-speak one per challenger
    # who may have spoken first (equally likely)
    leaves: dict[tuple[int, int, int], tuple[Leaf, ...]] | None = None
    order: str = FROM_LEFT  # the reading of cunning-folk/challenge-order

    @property
    def answerers(self) -> int:
        return len(self.players) - 1

    def sets(self, j: int) -> int:
        """How many sets of earlier answers answerer ``j`` tells apart: each of the ``2**j``
        from the left; one under first-to-speak (nobody answers after seeing another)."""
        return 1 if self.order == FIRST_TO_SPEAK else 2**j

    def seen(self, j: int, mask: int) -> int:
        """Answerer ``j``'s information about the earlier answers ``mask`` (an index below
        :meth:`sets`)."""
        return 0 if self.order == FIRST_TO_SPEAK else mask


def build_multi_stage(
    log: Log,
    claimant: str,
    cell: int,
    goes_on: continuation.Table,
    *,
    odds: Odds = (1, 1),
    budget: Budget | None = None,
) -> MultiStage:
    """The stage at ``cell`` after ``log`` (before her look), every player still in."""
    me = log.perspective or ""
    pos = position(log, claimant, goes_on)
    seats = (pos.claimant, *pos.answerers())
    others = tuple(log.players[s] for s in seats if log.players[s] != me)
    seen = views(log, odds=odds, budget=budget, players=others)
    planner = Planner(log.setup, log.rules, budget)
    worlds = seen.worlds
    village = worlds.village[:, cell]
    weight = worlds.weight
    her = seen.column(claimant)
    answerer_cols = [seen.column(log.players[s]) if log.players[s] != me else -1 for s in seats[1:]]
    # the perspective's rows grouped by (her class, card, each other answerer's class)
    groups: dict[tuple, int] = defaultdict(int)
    members: dict[tuple, np.ndarray] = {}
    for row in range(len(weight)):
        key = (
            int(seen.classes[row, her]),
            int(village[row]),
            *(int(seen.classes[row, j]) if j >= 0 else 0 for j in answerer_cols),
        )
        groups[key] += int(weight[row])
    for key in groups:
        mask = (seen.classes[:, her] == key[0]) & (village == key[1])
        for j, col in zip(key[2:], answerer_cols, strict=True):
            if col >= 0:
                mask &= seen.classes[:, col] == j
        members[key] = mask
    her_classes = seen.classes_of(claimant)
    own = seen.own[her]
    # her types: every card her own worlds allow in the cell, in each of her classes
    types: list[tuple[int, str]] = []
    for k in her_classes:
        column = own[k].village[:, cell]
        types += [(k, r) for r in ROLE_CODE if (column == ROLE_CODE[r]).any()]
    answer_classes = [
        seen.classes_of(log.players[s]) if log.players[s] != me else [0] for s in seats[1:]
    ]
    # chance outcomes: her type with every combination of answerer classes the
    # perspective's worlds give her class (with the card where they allow it)
    combos_of: dict[int, dict[tuple, int]] = defaultdict(lambda: defaultdict(int))
    for key, w in groups.items():
        combos_of[key[0]][key[2:]] += w
    outcomes: list[tuple[int, tuple]] = []
    for t, (k, _) in enumerate(types):
        outcomes += [(t, combo) for combo in sorted(combos_of[k])]
    n_o = len(outcomes)
    n = len(seats)
    kind = np.array([t for t, _ in outcomes], dtype=np.int64)
    cls = np.array(
        [[answer_classes[j].index(c[j]) for _, c in outcomes] for j in range(n - 1)],
        dtype=np.int64,
    ).reshape(n - 1, n_o)
    total = worlds.total
    prior = np.array(
        [
            groups.get((types[t][0], ROLE_CODE[types[t][1]], *combo), 0) / total
            for t, combo in outcomes
        ]
    )
    chance = _weights(
        seen, log, seats, types, outcomes, groups, combos_of, cell, me, answer_classes
    )
    utility = np.zeros((n, len(ACTIONS), 2 ** (n - 1), n_o))
    allowed = np.zeros((len(types), len(ACTIONS)), dtype=bool)
    for t, (k, card) in enumerate(types):
        forced = card == LIAR and (
            not own[k].face_up[cell] or log.rules.liar_face_up == "must-claim"
        )
        allowed[t] = [not (forced and a == PASS) for a in ACTIONS]
    memo: dict[tuple, tuple] = {}
    me_seat = log.players.index(me)
    order = log.rules.challenge_order
    leaves: dict[tuple[int, int, int], tuple[Leaf, ...]] = {}
    for o, (t, combo) in enumerate(outcomes):
        k, card = types[t]
        key = (k, ROLE_CODE[card], *combo)
        rows = members.get(key)
        for a, action in enumerate(ACTIONS):
            for m in range(2 ** (n - 1)):
                if action == PASS and m:
                    utility[:, a, m, o] = utility[:, a, 0, o]
                    leaves[(a, m, o)] = leaves[(a, 0, o)]
                    continue
                ways = tuple(
                    _leaf(pos, planner, seen, own[k], rows, cell, card, action, spoke, memo)
                    for spoke in _spoken(m, seats[1:], order)
                )
                leaves[(a, m, o)] = ways
                utility[:, a, m, o] = np.mean(
                    [_values(pos, leaf, seats, me_seat) for leaf in ways], axis=0
                )
    names = tuple(log.players[s] for s in seats)
    return MultiStage(
        names,
        cell,
        tuple((seen.describe(claimant, k), card) for k, card in types),
        allowed,
        tuple(
            tuple(
                "everything he has seen"
                if log.players[s] == me
                else seen.describe(log.players[s], c)
                for c in answer_classes[j]
            )
            for j, s in enumerate(seats[1:])
        ),
        kind,
        cls,
        chance,
        prior,
        utility,
        me,
        pos,
        leaves,
        order,
    )


def _spoken(mask: int, answerers: Sequence[int], order: str) -> list[tuple[int, ...]]:
    """The challengers (seats) in bit set ``mask`` of ``answerers`` in the order they spoke,
    each way equally likely: from the claimant's left (from-left); under first-to-speak each
    of them may have spoken first (the rulebook does not say who is quicker), the rest after
    (only who is first matters: :func:`.stage.ends.answered`)."""
    inside = tuple(s for b, s in enumerate(answerers) if mask >> b & 1)
    if order != FIRST_TO_SPEAK or len(inside) < 2:
        return [inside]
    return [(b, *(c for c in inside if c != b)) for b in inside]


def _weights(
    seen: Any,
    log: Log,
    seats: Sequence[int],
    types: list[tuple[int, str]],
    outcomes: list[tuple[int, tuple]],
    groups: dict[tuple, int],
    combos_of: dict[int, dict[tuple, int]],
    cell: int,
    me: str,
    answer_classes: list[list[int]],
) -> np.ndarray:
    """Each player's chance of each outcome, normalised within their information states."""
    n, n_o = len(seats), len(outcomes)
    out = np.zeros((n, n_o))
    key_of = [(types[t][0], ROLE_CODE[types[t][1]], *combo) for t, combo in outcomes]
    # the claimant: the answerers' classes as the perspective's worlds give her class and
    # card (her class alone where they do not hold that card)
    for o, (t, combo) in enumerate(outcomes):
        k, card = types[t]
        with_card = {
            c: groups[(k, ROLE_CODE[card], *c)]
            for c in combos_of[k]
            if groups.get((k, ROLE_CODE[card], *c))
        }
        pool = with_card or combos_of[k]
        out[0, o] = pool.get(combo, 0) / sum(pool.values())
    for j, s in enumerate(seats[1:], 1):
        name = log.players[s]
        if name == me:
            for o, key in enumerate(key_of):
                out[j, o] = groups.get(key, 0)
            continue
        col = seen.column(name)
        for h in answer_classes[j - 1]:
            idx = [o for o in range(n_o) if outcomes[o][1][j - 1] == h]
            # the answerer's own chance of each card, then the perspective's of the rest
            own = seen.own[col][h]
            cards = own.village[:, cell]
            belief = {
                r: int(own.weight[cards == ROLE_CODE[r]].sum()) / own.total for r in ROLE_CODE
            }
            by_card: dict[str, dict[int, float]] = defaultdict(dict)
            for o in idx:
                by_card[types[outcomes[o][0]][1]][o] = groups.get(key_of[o], 0)
            marginal = {o: 0.0 for o in idx}
            for o in idx:
                k = types[outcomes[o][0]][0]
                marginal[o] = sum(
                    groups.get((k, code, *outcomes[o][1]), 0) for code in range(len(ROLE_CODE))
                )
            for card, row in by_card.items():
                base = row if sum(row.values()) else {o: marginal[o] for o in row}
                mass = sum(base.values())
                for o, w in base.items():
                    out[j, o] = belief.get(card, 0.0) * (w / mass if mass else 0.0)
        # normalise within each class
        for h in answer_classes[j - 1]:
            idx = [o for o in range(n_o) if outcomes[o][1][j - 1] == h]
            mass = out[j, idx].sum()
            if mass:
                out[j, idx] /= mass
    if out[list(log.players[s] == me for s in seats).index(True)].sum():
        j = [log.players[s] for s in seats].index(me)
        out[j] /= out[j].sum()
    return out


def _leaf(
    pos: Any,
    planner: Planner,
    seen: Any,
    own: Any,
    rows: np.ndarray | None,
    cell: int,
    card: str,
    action: str,
    challengers: Sequence[int],
    memo: dict[tuple, tuple],
) -> Leaf:
    """What ``action`` and the ``challengers`` (seats, in the order they spoke) leave: her
    run, if any, as it ends in her worlds and in the perspective's (``rows``)."""
    if action == PASS:
        return Leaf(pos.marks, PASS, False)
    marks, acts = answered(pos, action, card == action, challengers)
    if not (acts and action in ELDERS and not over(marks)):
        return Leaf(marks, action, acts)
    key = (id(own), card, action, bool(challengers), marks)
    if key not in memo:
        mine = where(own, cell, card, face_up=bool(challengers))
        plan = planner.plan(mine, action, run_stakes(pos, marks, pos.claimant, pos.claimant))
        memo[key] = (plan, plan.play(mine.village, mine.weight))
    plan, hers = memo[key]
    his = play_out(plan, seen.worlds, rows) if rows is not None and rows.any() else hers
    return Leaf(marks, action, True, his, hers)


def _values(pos: Any, leaf: Leaf, seats: Sequence[int], me: int) -> list[float]:
    """Each player's value of ``leaf`` (in ``seats`` order): the perspective's with the
    claimant's run as it ends in his worlds, everyone else's as it ends in hers."""
    return [float(leaf.value(pos, s, s != me)) for s in seats]


# --- CFR+ ----------------------------------------------------------------------------------


@dataclass
class Profile:
    """Regrets and strategy sums: the claimant's per type, each answerer's per (class,
    action, earlier answers as he sees them: :meth:`MultiStage.seen`)."""

    game: MultiStage
    regret0: np.ndarray  # (types, actions)
    total0: np.ndarray
    regret: list[np.ndarray]  # per answerer: (classes, actions, game.sets(j), 2)
    total: list[np.ndarray]

    @classmethod
    def empty(cls, game: MultiStage) -> Profile:
        shape = [
            (len(game.classes[j]), len(ACTIONS), game.sets(j), 2) for j in range(game.answerers)
        ]
        return cls(
            game,
            np.zeros(game.allowed.shape),
            np.zeros(game.allowed.shape),
            [np.zeros(s) for s in shape],
            [np.zeros(s) for s in shape],
        )

    def claimant(self, average: bool) -> np.ndarray:
        source = self.total0 if average else np.maximum(self.regret0, 0)
        return _normalise(source, self.game.allowed)

    def answerer(self, j: int, average: bool) -> np.ndarray:
        source = self.total[j] if average else np.maximum(self.regret[j], 0)
        return _normalise(source, np.ones(source.shape, dtype=bool))


def _normalise(x: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    x = np.where(allowed, x, 0.0)
    s = x.sum(axis=-1, keepdims=True)
    uniform = allowed / allowed.sum(axis=-1, keepdims=True)
    return np.where(s > 0, x / np.where(s > 0, s, 1), uniform)


def tree(
    game: MultiStage, answers: Sequence[np.ndarray], a: int
) -> tuple[dict[tuple[int, int], np.ndarray], dict[tuple[int, int], np.ndarray]]:
    """For claim ``a``: each node's values (players, n_o) and the others' reach (n_o) to
    it, keyed (depth, earlier answers: every set of them, whether the answerer sees it or
    not)."""
    m = game.answerers
    reach: dict[tuple[int, int], np.ndarray] = {(0, 0): np.ones(len(game.kind))}
    for j in range(m):
        for mask in range(2**j):
            p = answers[j][game.cls[j], a, game.seen(j, mask), 1]
            reach[(j + 1, mask)] = reach[(j, mask)] * (1 - p)
            reach[(j + 1, mask | 1 << j)] = reach[(j, mask)] * p
    value: dict[tuple[int, int], np.ndarray] = {
        (m, mask): game.utility[:, a, mask, :] for mask in range(2**m)
    }
    for j in range(m - 1, -1, -1):
        for mask in range(2**j):
            p = answers[j][game.cls[j], a, game.seen(j, mask), 1]
            value[(j, mask)] = (1 - p) * value[(j + 1, mask)] + p * value[(j + 1, mask | 1 << j)]
    return value, reach


def iterate(profile: Profile, t: int) -> None:
    """One CFR+ iteration (``t`` from 1): regrets floored at 0, averages weighted by t."""
    game = profile.game
    sigma = profile.claimant(False)
    answers = [profile.answerer(j, False) for j in range(game.answerers)]
    root = np.zeros((len(game.players), len(ACTIONS), len(game.kind)))
    for a in range(len(ACTIONS)):
        value, reach = tree(game, answers, a)
        root[:, a, :] = value[(0, 0)]
        play = sigma[game.kind, a]
        for j in range(game.answerers):
            for mask in range(2**j):
                node = value[(j, mask)][j + 1]
                w = game.weight[j + 1] * play * reach[(j, mask)]
                for b in (0, 1):
                    gain = w * (value[(j + 1, mask | b << j)][j + 1] - node)
                    np.add.at(profile.regret[j][:, a, game.seen(j, mask), b], game.cls[j], gain)
    for j in range(game.answerers):
        np.maximum(profile.regret[j], 0, out=profile.regret[j])
        profile.total[j] += t * answers[j]
    mine = root[0]  # (actions, n_o)
    now = (sigma[game.kind] * mine.T).sum(axis=1)
    gain = game.weight[0][:, None] * (mine.T - now[:, None])
    np.add.at(profile.regret0, game.kind, gain)
    profile.regret0 = np.maximum(np.where(game.allowed, profile.regret0, 0), 0)
    profile.total0 += t * sigma


def values(profile: Profile) -> np.ndarray:
    """Each player's expected value under the average profile, over the perspective's
    worlds (the figures printed)."""
    game = profile.game
    sigma = profile.claimant(True)
    answers = [profile.answerer(j, True) for j in range(game.answerers)]
    out = np.zeros(len(game.players))
    for a in range(len(ACTIONS)):
        value, _ = tree(game, answers, a)
        out += (value[(0, 0)] * sigma[game.kind, a] * game.prior).sum(axis=1)
    return out


def nash_conv(profile: Profile) -> tuple[float, list[float], float]:
    """The average profile's NashConv (each player's best-response gain over their own
    worlds, their information states weighted by the perspective's chance of them), the
    gains, and the largest gain at any single information state."""
    game = profile.game
    sigma = profile.claimant(True)
    answers = [profile.answerer(j, True) for j in range(game.answerers)]
    roots = []
    gains = [0.0] * len(game.players)
    largest = 0.0
    class_prior = []
    for j in range(game.answerers):
        mass = np.zeros(len(game.classes[j]))
        np.add.at(mass, game.cls[j], game.prior)
        class_prior.append(mass)
    for a in range(len(ACTIONS)):
        value, reach = tree(game, answers, a)
        roots.append(value[(0, 0)][0])
        play = sigma[game.kind, a]
        for j in range(game.answerers):
            # each answer's gain at each (class, earlier answers as he sees them): he answers
            # once on any path, so his best response is the best answer at each such set
            q = np.zeros((len(game.classes[j]), game.sets(j), 2))
            for mask in range(2**j):
                node = value[(j, mask)][j + 1]
                w = game.weight[j + 1] * play * reach[(j, mask)]
                for b in (0, 1):
                    np.add.at(
                        q[:, game.seen(j, mask), b],
                        game.cls[j],
                        w * (value[(j + 1, mask | b << j)][j + 1] - node),
                    )
            gain = np.maximum(q.max(axis=2), 0)  # the best answer's gain at each set
            largest = max(largest, float(gain.max(initial=0)))
            gains[j + 1] += float((gain * class_prior[j][:, None]).sum())
    mine = np.array(roots)  # (actions, n_o)
    now = (sigma[game.kind] * mine.T).sum(axis=1)
    per_type = np.zeros(game.allowed.shape)
    np.add.at(per_type, game.kind, game.weight[0][:, None] * mine.T)
    current = np.zeros(len(game.types))
    np.add.at(current, game.kind, game.weight[0] * now)
    best = np.where(game.allowed, per_type, -np.inf).max(axis=1)
    type_gain = np.maximum(best - current, 0)
    largest = max(largest, float(type_gain.max(initial=0)))
    type_prior = np.zeros(len(game.types))
    np.add.at(type_prior, game.kind, game.prior)
    gains[0] = float((type_gain * type_prior).sum())
    return sum(gains), gains, largest


@dataclass(frozen=True)
class Approximate:
    profile: Profile
    iterations: int
    nash_conv: float
    gains: tuple[float, ...]
    largest: float
    values: tuple[float, ...]
    history: tuple[tuple[int, float], ...]
    stopped: str


def solve(
    game: MultiStage,
    *,
    iterations: int = 20000,
    target: float = 0.001,
    every: int = 100,
    budget: Budget | None = None,
) -> Approximate:
    """CFR+ until the NashConv is at most ``target`` times the payoff range (2), the
    iterations are spent, or the budget ends (checked every ``every`` iterations)."""
    profile = Profile.empty(game)
    history: list[tuple[int, float]] = []
    done, stopped = 0, f"after {iterations} iterations"
    while done < iterations:
        for _ in range(min(every, iterations - done)):
            done += 1
            iterate(profile, done)
        conv, _, _ = nash_conv(profile)
        history.append((done, conv))
        if conv <= target * RANGE:
            stopped = f"the NashConv reached {target} of the payoff range"
            break
        if budget is not None and budget.spent():
            stopped = TIME_BUDGET
            break
    conv, gains, largest = nash_conv(profile)
    return Approximate(
        profile,
        done,
        conv,
        tuple(gains),
        largest,
        tuple(float(v) for v in values(profile)),
        tuple(history),
        stopped,
    )


def goes_on_ranges(game: MultiStage, approx: Approximate, role: str) -> list[dict[str, Any]]:
    """For the pending claim: per continuation value it rests on (the perspective's, in one
    state), the range over which his best answer against the others' average strategies
    stays the same at each of his information states for that claim, the others'
    strategies and the claimant's runs held. Linear in that value, so exact."""
    pos, leaves = game.pos, game.leaves
    if pos is None or leaves is None:
        return []
    me = pos.players.index(game.perspective)
    j = game.players.index(game.perspective) - 1  # his place among the answerers
    a = ACTIONS.index(role)
    profile = approx.profile
    sigma = profile.claimant(True)
    answers = [profile.answerer(i, True) for i in range(game.answerers)]
    masks = 2**game.answerers
    shares: dict[tuple, np.ndarray] = {}
    for m in range(masks):
        for o in range(len(game.kind)):
            ways = leaves[(a, m, o)]  # equally likely (who spoke first)
            for leaf in ways:
                for key, share in leaf.terms(pos, me, False)[1].items():
                    row = shares.setdefault(key, np.zeros((masks, len(game.kind))))
                    row[m, o] += float(share) / len(ways)

    def incentive(mine: np.ndarray) -> list[float]:
        """His challenge-minus-accept value at each of his information sets for this claim
        (earlier answers as he sees them) when his values of its leaves are ``mine`` (linear
        in them)."""
        utility = game.utility.copy()
        utility[j + 1, a] = mine
        value, reach = tree(replace(game, utility=utility), answers, a)
        out = [0.0] * game.sets(j)
        for mask in range(2**j):
            w = game.weight[j + 1] * sigma[game.kind, a] * reach[(j, mask)]
            gain = value[(j + 1, mask | 1 << j)][j + 1] - value[(j + 1, mask)][j + 1]
            out[game.seen(j, mask)] += float((w * gain).sum())
        return out

    now = incentive(game.utility[j + 1, a])
    table = pos.goes_on
    rows = []
    for key in sorted(shares):
        state, k = key
        slope = incentive(shares[key])
        value = float(table.value(state, k))
        low, high = -1.0 - value, 1.0 - value
        for g, d in zip(now, slope, strict=True):
            if not d:
                continue
            if not g:  # indifferent: any move changes his best answer
                low = high = 0.0
                continue
            turn = -g / d
            if (g > 0) == (d > 0):
                low = max(low, turn)
            else:
                high = min(high, turn)
        rows.append(table.holds(state, k, value + low, value + high))
    return rows


def result_json(game: MultiStage, approx: Approximate) -> dict[str, Any]:
    """The approximate strategies, values and NashConv as JSON-able figures."""
    profile = approx.profile
    sigma = profile.claimant(True)
    # her claim mix per card, averaged over her states as the perspective's worlds weigh them
    type_prior = np.zeros(len(game.types))
    np.add.at(type_prior, game.kind, game.prior)
    strategy: dict[str, dict[str, str]] = {}
    for card in sorted({c for _, c in game.types}, key=ROLE_CODE.get):
        idx = [t for t, (_, c) in enumerate(game.types) if c == card]
        mass = type_prior[idx].sum()
        if not mass:
            continue
        mix = (sigma[idx] * type_prior[idx, None]).sum(axis=0) / mass
        strategy[card] = {
            a: f"{v:.6f}" for a, v, ok in zip(ACTIONS, mix, sigma[idx[0]] >= 0, strict=True) if ok
        }
    answers: dict[str, Any] = {}
    others = game.players[1:]
    reach_claim = (sigma[game.kind] * game.prior[:, None]).sum(axis=0)
    for j, name in enumerate(others):
        p = profile.answerer(j, True)
        rows: dict[str, str] = {}
        weights = np.zeros(len(game.classes[j]))
        np.add.at(weights, game.cls[j], game.prior)
        for a, action in enumerate(ACTIONS):
            if action == PASS or not reach_claim[a]:
                continue
            for mask in range(game.sets(j)):
                earlier = ", ".join(
                    f"{others[b]} {'challenged' if mask >> b & 1 else 'accepted'}"
                    for b in range(j)
                    if game.order == FROM_LEFT
                )
                key = action if not earlier else f"{action} ({earlier})"
                share = (p[:, a, mask, 1] * weights).sum() / weights.sum()
                rows[key] = f"{share:.6f}"
        answers[name] = rows
    return {
        "exact": False,
        "approximate": True,
        "method": f"CFR+, {approx.iterations} iterations",
        "stopped": approx.stopped,
        "nash_conv": approx.nash_conv,
        "nash_conv_of_range": approx.nash_conv / RANGE,
        "largest_gain": approx.largest,
        "best_response_gain": dict(zip(game.players, approx.gains, strict=True)),
        "best_response_gap": approx.nash_conv,
        "nash_conv_history": [{"iterations": k, "nash_conv": v} for k, v in approx.history],
        "claim_strategy": strategy,
        "challenge_probability": answers,
        "off_path_claims": [
            action
            for a, action in enumerate(ACTIONS)
            if action != PASS and reach_claim[a] < OFF_PATH
        ],
        "value": {p: f"{v:.6f}" for p, v in zip(game.players, approx.values, strict=True)},
        "value_float": {
            p: round(v, 6) + 0.0 for p, v in zip(game.players, approx.values, strict=True)
        },
    }


def stage_json(game: MultiStage) -> dict[str, Any]:
    """The stage game's size and its players' information states."""
    return {
        "players": {"claimant": game.players[0], "answerers_in_order": list(game.players[1:])},
        "challenge_order": game.order,
        "cell": CELLS[game.cell],
        "types": len(game.types),
        "answerer_classes": {name: len(game.classes[j]) for j, name in enumerate(game.players[1:])},
        "outcomes": len(game.kind),
        "answerer_actions": ["accept", "challenge"],
        "payoffs_note": "each player's value over their own worlds (see assumptions)",
    }


WHO_MAY_CHALLENGE = {
    FROM_LEFT: "every player still in answers, in turn from the claimant's left, seeing the "
    "claim and the earlier answers (cunning-folk/challenge-order=from-left)",
    FIRST_TO_SPEAK: "every player still in answers from the claim and their own knowledge "
    "alone, not seeing the others' answers (cunning-folk/challenge-order=first-to-speak: any "
    "other player may speak first); where several challenge, each of them is equally likely "
    "to have spoken first (the rulebook does not say who is quicker), which matters only "
    "under cunning-folk/multiple-challengers=first-challenger (the first challenger alone "
    "takes a suspected card for a true claim)",
}


def multi_assumptions(order: str) -> dict[str, str]:
    """What the three- or four-player stage assumes, under ``order`` (the reading of
    cunning-folk/challenge-order)."""
    return {"who_may_challenge": WHO_MAY_CHALLENGE[order], **_ASSUMPTIONS}


_ASSUMPTIONS = {
    "utility": "each player's own value: +1 they win, -1 they lose (ostracised, or another "
    "player wins), a game that goes on at its continuation value; not zero-sum",
    "knowledge": "three or four players: the claimant has looked at the pending claim's "
    "cell (her choice of cell is modelled with two players); each player weighs the card by "
    "their own worlds (the claimant knows it), the perspective weighs everything by his; "
    "how likely the other players' information states are, a player other than the "
    "perspective takes from the perspective's worlds given their own state and the card; "
    "the claimant's elder run is planned over her worlds, valued by the perspective as it "
    "ends in his worlds and by the others as it ends in hers",
    "goes_on_ranges": "three or four players: per continuation value the pending claim's "
    "answers rest on, the range over which the perspective's best answer to it (against the "
    "others' average strategies, her runs held) stays the same",
    "solution": "approximate: CFR+ (regret matching, regrets floored at 0, the average "
    "strategy weighted by iteration), stopped when the NashConv is at most 0.001 of the "
    "payoff range (2), after 20000 iterations, or at the time budget; the NashConv (the sum "
    "over players of what a best response gains, each over their own worlds, their "
    "information states weighted by the perspective's worlds) and the largest gain at any "
    "single information state are printed; with three or more players CFR is not "
    "guaranteed to reach an equilibrium",
}


def approximate(
    log: Log,
    claimant: str,
    cells: Sequence[int],
    goes_on: continuation.Table,
    odds: Odds,
    budget: Budget,
    role: str | None = None,
) -> dict[str, Any]:
    """The approximate equilibrium's figures and the stage game, as JSON-able dicts
    (``role``: the pending claim's, whose answers' ranges are given)."""
    game = build_multi_stage(log, claimant, cells[0], goes_on, odds=odds, budget=budget)
    approx = solve(game, budget=budget)
    figures = {
        **result_json(game, approx),
        "goes_on_ranges": goes_on_ranges(game, approx, role) if role else [],
        "stage_game": stage_json(game),
    }
    if approx.stopped == TIME_BUDGET:  # the figures reached are kept, marked unfinished
        figures |= {"finished": False, "unfinished": f"{TIME_BUDGET} before CFR's target"}
    return figures


def render_lines(result: dict[str, Any]) -> list[str]:
    """The approximate strategies, values and NashConv in words."""
    lines = [
        f"approximate equilibrium ({result['method']}; stopped: {result['stopped']}): NashConv "
        f"{result['nash_conv']:.6f} = {result['nash_conv_of_range']:.6f} of the payoff range; "
        f"largest gain at one information state {result['largest_gain']:.6f}"
    ]
    stage = result["stage_game"]
    claimant = stage["players"]["claimant"]
    lines.append(
        f"{claimant}'s claim strategy, per card seen ({stage['types']} types: her information "
        "state and the card, averaged as the perspective's worlds weigh them):"
    )
    for card, mix in result["claim_strategy"].items():
        parts = ", ".join(f"{a} {float(v):.4f}" for a, v in mix.items() if float(v) >= 0.00005)
        lines.append(f"  {card:<11}: {parts}")
    off = set(result["off_path_claims"])
    earlier = " (and earlier answers)" if stage["challenge_order"] == FROM_LEFT else ""
    for name, rows in result["challenge_probability"].items():
        lines.append(
            f"{name}'s challenge probability, per claim{earlier}, averaged over "
            f"{name}'s information states (a claim she makes with chance under {OFF_PATH} is "
            "off the equilibrium path: its figure is the solver's, not advice):"
        )
        lines += [
            f"  {key:<11} {float(p):.4f}"
            + (" (off the equilibrium path)" if key.split(" (")[0] in off else "")
            for key, p in rows.items()
        ]
    for row in result["goes_on_ranges"]:
        low, high = row["interval95"]
        holds = "holds" if row["holds_within_interval"] else "may change"
        lines.append(
            f"goes on ({row['state']}; you {row['you']}): {row['value_float']:+.4f} "
            f"[{low:+.4f}, {high:+.4f}]; your best answer to the pending claim stays the same "
            f"from {row['holds_from']:+.4f} to {row['holds_to']:+.4f}: {holds} within the "
            "interval"
        )
    lines.append(
        "value (approximate, over the perspective's worlds): "
        + ", ".join(f"{p} {v:+.4f}" for p, v in result["value_float"].items())
    )
    return lines


MULTI = Multi(approximate, multi_assumptions, render_lines)
