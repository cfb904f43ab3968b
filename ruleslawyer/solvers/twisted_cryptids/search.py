"""Twisted Cryptids ``advise`` search: every player's choices within the horizon, each made by
that player from what they know, for their own goal.

The play from a position to the horizon (:class:`Frame`) reads the hidden cards in two places
only: the Sighting a reveal turns over (the top of the revealer's Stack at the Encounter Site:
one a Stack a round) and, at the end of the game, each player's Hidden Trait. So a world is
given by the kinds on top of the Stacks whose Hiding Spots stand on Sites, and the Hidden
Traits in the last round: one numpy axis each (:class:`Axis`). A value is an array over those
axes (broadcast where it does not depend on one) holding, per player, their counted score
change and (last round) whether they win; plus the actor's figures when every other player's
choice goes against them (the worst case).

Who decides, and how (:meth:`Search.decide`):

- a player choosing (the First Player at a tie, a revealer's targets, an Event's Sites at
  Dawn, a Night move or placement, the actor's own later Day turns) takes, for each of their
  information states (the public play so far and their own axes: their own Stack tops and
  Hidden Trait), the move with the most for them over the worlds they cannot tell apart: in
  the last round their chance to win, then their expected score; before it their expected
  Myth; then the least for their leader (the other player with the most Myth at the position,
  the first clockwise from them on a tie). Moves still tied (within 1e-9) are taken with
  equal chance. Their worlds: their own cards known, every other player's arranged by the
  reveals only (a fair shuffle; nobody reads cards from choices), the others' Hidden Traits
  any of the cards (no two alike); the actor's worlds add what the record says they know.
- another player's Day turn passes: their hand is not known to the actor.
- the worst case: every other player's choice the worst for the actor in each world
  (the least chance to win, then the least score), the actor's choices their best against it:
  a figure the actor's play guarantees whatever the others choose.

Nothing depends on the order of entries in a file: moves are compared by value, ties shared.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.models.twisted_cryptids.knowledge import (
    Hidden,
    kind_of,
    public_slots,
    top_counts,
    trait_candidates,
)
from ruleslawyer.models.twisted_cryptids.play import (
    NIGHT_STEPS,
    GameMove,
    Pass,
    State,
    end_spots,
    legal_moves,
    step,
    tie_break_humans,
    unrevealed,
)
from ruleslawyer.solvers.twisted_cryptids.night import last_night, last_night_applies

HORIZON_PHASES = frozenset({"night-move", "night-place", "refill", "over"})
TOLERANCE = 1e-9
TRAIT_DEALS = 400  # Hidden Trait deals (cards ** players) the last round weighs at most
MAX_CELLS = 16_000_000  # entries of one value array beyond which the search stops unfinished

SCORE, WIN = 0, 1


class OutOfTime(Exception):
    """The budget ran out mid-evaluation."""


class TooManyWorlds(Exception):
    """A value array would exceed :data:`MAX_CELLS` entries."""


def own_day_turns(state: State, actor: int) -> int:
    """The ``actor``'s Day turns of this round still to come after the move to be made in
    ``state`` (all three from before the Day, none after it)."""
    if state.phase in ("dawn", "traits", "setup"):
        return 3 if state.phase == "dawn" else 0
    if state.phase != "day":
        return 0
    return 2 - state.turn // state.n


def leader_of(state: State, player: int) -> int:
    """The other player with the most Myth; on a tie the first of them clockwise from
    ``player``."""
    clockwise = [(player + i) % state.n for i in range(1, state.n)]
    return max(clockwise, key=lambda p: (state.myth[p], -clockwise.index(p)))


def scoring_of(state: State) -> str:
    """``final`` when ``state`` is in the last round (the horizon reaches the end-of-game
    scoring), else ``myth``."""
    return "final" if state.round == state.game.rounds else "myth"


def final_score(state: State, player: int, trait: int | None) -> int:
    """``player``'s printed end-of-game score if the game ended in ``state``: Myth + the bonus
    per unrevealed Real Deal + the bonus of Hidden Trait ``trait`` (none when ``None``)."""
    g = state.game
    sightings = g.cryptids[state.cryptids[player]].sightings
    deals = sum(1 for s in unrevealed(state, player) if sightings[s].kind == g.real_deal)
    total = state.myth[player] + g.real_deal_bonus * deals
    return total if trait is None else total + g.traits[trait].score(_amount(state, player, trait))


def _amount(state: State, player: int, trait: int) -> int:
    """How far ``player`` got on the objective of Hidden Trait ``trait``."""
    return amounts(state, player, (state.game.traits[trait].objective,))[0]


def amounts(
    state: State, player: int, objectives: Sequence[str], spots: Sequence[int] | None = None
) -> tuple[int, ...]:
    """How far ``player`` got on each Hidden Trait objective, their Hiding Spots at the end
    ``spots`` (default :func:`end_spots`)."""
    from collections import Counter

    from ruleslawyer.models.twisted_cryptids.game import HUMANS

    seen = Counter(kind_of(state, player, s) for _, s, _ in state.revealed[player])
    kept = Counter(kind_of(state, player, s) for s in unrevealed(state, player))
    own = [s for s in (end_spots(state, player) if spots is None else spots) if s >= 0]
    humans = [sum(state.sites[s][h] for s in own) for h in range(len(HUMANS))]
    out = []
    for objective in objectives:
        what, _, arg = objective.partition(":")
        if what == "revealed":
            out.append(seen[arg])
        elif what == "hidden":
            out.append(kept[arg])
        elif what == "humans":
            out.append(humans[HUMANS.index(arg)])
        else:
            out.append(len(own))
    return tuple(out)


@dataclass(frozen=True)
class Frame:
    """What one advice measures from ``root``: the ``actor``'s choices, play stopping at the
    horizon. ``later_turns``: how many of the actor's later Day turns are chosen (their
    best); the ones after pass (``None``: all). ``trait``: the actor's Hidden Trait when
    known; ``excluded``: Hidden Traits the actor knows nobody else holds."""

    root: State
    actor: int
    scoring: str
    trait: int | None = None
    excluded: tuple[int, ...] = ()
    later_turns: int | None = None

    def moves(self, state: State, player: int) -> tuple[GameMove, ...]:
        """``player``'s options in ``state``: another player's Day turn passes (their hand is
        not known); on the actor's later Day turns past ``later_turns`` they pass."""
        if state.phase == "day":
            if player != self.actor:
                return (Pass(),)
            if self.later_turns is not None:
                ahead = own_day_turns(self.root, self.actor) - own_day_turns(state, self.actor)
                if ahead > self.later_turns:
                    return (Pass(),)
        return legal_moves(state)

    @property
    def weighs_traits(self) -> bool:
        """Whether every player's Hidden Trait is a world axis (the last round, while the
        deals of them stay few: ``TRAIT_DEALS`` at most; beyond, only the actor's counts)."""
        deals = len(self.root.game.traits) ** self.root.n
        return self.scoring == "final" and deals <= TRAIT_DEALS

    def trait_of(self, player: int) -> int | None:
        """The Hidden Trait counted for ``player`` when the traits are not world axes: the
        actor's own as known; nobody else's."""
        return self.trait if player == self.actor else None

    def done(self, state: State) -> bool:
        if state.round != self.root.round or state.phase == "over":
            return True
        return self.scoring == "myth" and state.phase in HORIZON_PHASES


def frame_of(
    state: State,
    *,
    trait_known: bool = True,
    excluded: Sequence[int] | None = None,
    later_turns: int | None = None,
) -> Frame:
    """The :class:`Frame` of an advice to the player to act in ``state``: their Hidden Trait
    from ``state`` when ``trait_known``; ``excluded`` by default the one they returned to the
    box."""
    actor = state.actor()
    assert actor is not None
    if excluded is None:
        gone = state.discarded_traits[actor]
        excluded = () if gone is None else (gone,)
    trait = state.traits[actor] if trait_known else None
    return Frame(state, actor, scoring_of(state), trait, tuple(excluded), later_turns)


@dataclass(frozen=True)
class Axis:
    """One hidden fact the play within the horizon reads: the kind on top of ``owner``'s
    Stack ``stack``, or (``stack`` = -1) ``owner``'s Hidden Trait; ``values`` in name order."""

    owner: int
    stack: int
    values: tuple[Any, ...]


def _tops_axes(state: State) -> list[Axis]:
    """A top-kind axis for every Stack whose Hiding Spot stands on a Site."""
    out = []
    for q in range(state.n):
        kinds = tuple(sorted({kind_of(state, q, s) for s in unrevealed(state, q)}))
        for j, site in enumerate(state.spots[q]):
            if site >= 0 and state.stacks[q][j]:
                out.append(Axis(q, j, kinds))
    return out


class Worlds:
    """The axes of a :class:`Frame` and each player's weights over them (unnormalised)."""

    def __init__(
        self,
        frame: Frame,
        hidden: Sequence[Hidden],
        sampled: Sequence[tuple[tuple[tuple[int, ...], ...], ...]] | None = None,
    ):
        root, actor = frame.root, frame.actor
        self.frame, self.n = frame, root.n
        self.axes = _tops_axes(root)
        if frame.weighs_traits:
            every = trait_candidates(root)
            self.axes += [Axis(q, -1, every) for q in range(root.n)]
        self.dims = len(self.axes)
        self.index = {(a.owner, a.stack): i for i, a in enumerate(self.axes)}
        self.own = [
            tuple(i for i, a in enumerate(self.axes) if a.owner == p) for p in range(self.n)
        ]
        by_player = {h.player: h for h in hidden}
        public = [self._tops(root, q, public_slots(root, q)) for q in range(self.n)]
        actor_tops = np.ones((1,) * self.dims)
        if sampled is None:
            for q in range(self.n):
                if q != actor:
                    h = by_player.get(q)
                    tops = self._tops(root, q, h) if h else self._point(root, q)
                    actor_tops = actor_tops * tops
        else:
            actor_tops = actor_tops * self._histogram(root, actor, sampled)
        self.actor_tops = actor_tops  # the actor's weights over the other players' tops
        self.actor_point = self._point(root, actor)  # the actor's own tops
        # the actor's own axes and their values as the actor knows them: (axis, value index)
        self.actor_known = [
            (i, self.axes[i].values.index(kind_of(root, actor, root.stacks[actor][a.stack][0])))
            for i, a in enumerate(self.axes)
            if a.owner == actor and a.stack >= 0
        ]
        if frame.weighs_traits and frame.trait is not None:
            i = self.index[(actor, -1)]
            self.actor_known.append((i, self.axes[i].values.index(frame.trait)))
        self.public = public
        self.traits = self._traits()
        self.leaders = [leader_of(root, p) for p in range(self.n)]
        self._weights: dict[tuple[Any, ...], np.ndarray] = {}

    # --- priors ---------------------------------------------------------------------------

    def _shape(self, sizes: Mapping[int, int]) -> tuple[int, ...]:
        return tuple(sizes.get(i, 1) for i in range(self.dims))

    def _tops(self, state: State, q: int, h: Hidden) -> np.ndarray:
        """``q``'s tops weighted by arrangement counts of ``h`` (a viewer's knowledge)."""
        mine = [i for i in self.own[q] if self.axes[i].stack >= 0]
        out = np.zeros(self._shape({i: len(self.axes[i].values) for i in mine}))
        if not mine:
            return out + 1.0
        counts = top_counts(state, h, [self.axes[i].stack for i in mine])
        for kinds, count in counts.items():
            at = [0] * self.dims
            for i, k in zip(mine, kinds, strict=True):
                at[i] = self.axes[i].values.index(k)
            out[tuple(at)] = count
        return out

    def _point(self, state: State, q: int) -> np.ndarray:
        """``q``'s tops as they lie in ``state`` (known)."""
        mine = [i for i in self.own[q] if self.axes[i].stack >= 0]
        out = np.zeros(self._shape({i: len(self.axes[i].values) for i in mine}))
        at = [0] * self.dims
        for i in mine:
            a = self.axes[i]
            at[i] = a.values.index(kind_of(state, q, state.stacks[q][a.stack][0]))
        out[tuple(at)] = 1.0
        return out

    def _histogram(self, state: State, actor: int, worlds: Sequence[Any]) -> np.ndarray:
        """The other players' tops over sampled worlds: how many samples put each there."""
        mine = [i for i, a in enumerate(self.axes) if a.stack >= 0 and a.owner != actor]
        out = np.zeros(self._shape({i: len(self.axes[i].values) for i in mine}))
        for world in worlds:
            at = [0] * self.dims
            for i in mine:
                a = self.axes[i]
                at[i] = a.values.index(kind_of(state, a.owner, world[a.owner][a.stack][0]))
            out[tuple(at)] += 1.0
        return out

    def _traits(self) -> np.ndarray:
        """1 where no two players hold the same Hidden Trait (0 elsewhere)."""
        idx = [i for i, a in enumerate(self.axes) if a.stack < 0]
        if not idx:
            return np.ones((1,) * self.dims)
        size = len(self.axes[idx[0]].values)
        sub = np.ones((size,) * len(idx))
        for x, y in itertools.combinations(range(len(idx)), 2):
            sub = sub * (1 - _pair(size, len(idx), x, y))
        return sub.reshape(self._shape({i: size for i in idx}))

    def _trait_mask(self, q: int, allowed: Sequence[int]) -> np.ndarray:
        i = self.index[(q, -1)]
        values = self.axes[i].values
        flat = np.array([1.0 if v in allowed else 0.0 for v in values])
        return flat.reshape(self._shape({i: len(values)}))

    def weights(self, viewer: int, fixed: tuple[tuple[int, int], ...]) -> Factors:
        """``viewer``'s weights over the worlds, conditioned on the axes ``fixed`` (axis,
        value index) by reveals since the position; their own axes are theirs to see (not
        weighted)."""
        key = (viewer, fixed)
        hit = self._weights.get(key)
        if hit is not None:
            return hit
        f = self.frame
        if viewer == f.actor:
            traits = self.traits
            if self.frame.weighs_traits:
                allowed = [t for t in self.axes[-1].values if t not in f.excluded]
                for q in range(self.n):
                    if q != viewer:
                        traits = traits * self._trait_mask(q, allowed)
            factors = [self.actor_tops, traits]
        else:
            factors = [self.traits, *(self.public[q] for q in range(self.n) if q != viewer)]
        for axis, value in fixed:
            if self.axes[axis].owner != viewer:
                factors = [
                    np.take(x, [value], axis=axis) if x.shape[axis] > 1 else x for x in factors
                ]
        out = self._weights[key] = tuple(factors)
        return out

    def root_weights(self) -> Factors:
        """The actor's weights at the position: their own tops and Hidden Trait as they are
        (the trait any card they cannot rule out when the record does not name it)."""
        f = self.frame
        tops, traits = self.weights(f.actor, ())
        if f.weighs_traits:
            allowed = (
                [f.trait]
                if f.trait is not None
                else [t for t in self.axes[-1].values if t not in f.excluded]
            )
            traits = traits * self._trait_mask(f.actor, allowed)
        return (self.actor_point, tops, traits)


Factors = tuple[np.ndarray, ...]  # weights as a product of arrays over disjoint axes


def contract(
    factors: Factors, values: np.ndarray, summed: Sequence[int], lead: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """The weighted sum of ``values`` (``lead`` leading dimensions, then the axes) over the
    axes ``summed`` (kept as size 1), and the total weight: each factor summed on its own
    over the axes ``values`` does not vary along first."""
    shape = values.shape[lead:]
    varying = tuple(i for i in summed if shape[i] > 1)
    flat = tuple(i for i in summed if shape[i] == 1)
    weight: np.ndarray | None = None
    for x in factors:
        part = x.sum(axis=flat, keepdims=True) if flat else x
        weight = part if weight is None else weight * part
    assert weight is not None
    total = weight.sum(axis=varying, keepdims=True) if varying else weight
    num = values * weight
    if varying:
        num = num.sum(axis=tuple(lead + i for i in varying), keepdims=True)
    return num, total


def _pair(size: int, dims: int, x: int, y: int) -> np.ndarray:
    """1 where axes ``x`` and ``y`` of a ``dims``-axis array of side ``size`` are equal."""
    shape = [1] * dims
    shape[x] = shape[y] = size
    return np.eye(size).reshape(shape)


_DECKS = frozenset({"game", "stacks", "discard", "action_deck", "event_deck", "current_events"})
_AFTER_DAY_SKIP = _DECKS | {"hands", "power_used"}
_SKIP = frozenset({"game", "stacks"})
_FIELDS = tuple(f.name for f in fields(State))


def memo_key(state: State) -> tuple[Any, ...]:
    """``state`` for the memo. The Stacks are left out: every player's unrevealed cards are
    their cards less the reveals (in the key), and where they lie is read at a reveal only,
    through the axes. Nobody draws before the horizon (no refill in it), so from the Day on
    the decks and the discard pile are left out, and a hand is a set of cards (its order
    names the moves, not what they do); after the Day the hands and the Powers cannot matter
    either; at the end of the game a player's Hiding Spots are a set of Sites."""
    if state.phase == "dawn":
        return tuple(getattr(state, f) for f in _FIELDS if f not in _SKIP)
    if state.phase == "day":
        return tuple(
            tuple(tuple(sorted(h)) for h in state.hands) if f == "hands" else getattr(state, f)
            for f in _FIELDS
            if f not in _DECKS
        )
    if state.phase == "over":
        return (
            "over",
            state.myth,
            state.revealed,
            state.sites,
            tuple(tuple(sorted(s)) for s in state.spots),
            tuple(tuple(sorted(s)) for s in state.snapshot),
        )
    return tuple(getattr(state, f) for f in _FIELDS if f not in _AFTER_DAY_SKIP)


def with_top(state: State, player: int, stack: int, kind: str) -> State | None:
    """``state`` with a Sighting of ``kind`` on top of ``player``'s Stack ``stack`` (swapped
    with another of their unrevealed cards); ``None`` when they have none left."""
    from dataclasses import replace

    stacks = [list(st) for st in state.stacks[player]]
    if kind_of(state, player, stacks[stack][0]) == kind:
        return state
    places = [(j, d) for j, st in enumerate(stacks) for d in range(len(st)) if d > 0]
    places += [(j, 0) for j, st in enumerate(stacks) if st and j != stack]
    for j, d in places:
        if kind_of(state, player, stacks[j][d]) == kind:
            stacks[j][d], stacks[stack][0] = stacks[stack][0], stacks[j][d]
            new = tuple(tuple(st) for st in stacks)
            return replace(
                state, stacks=tuple(new if p == player else s for p, s in enumerate(state.stacks))
            )
    return None


class Search:
    """Values (arrays over the :class:`Worlds` axes) of the states within a :class:`Frame`'s
    horizon, memoised. Rows: per player ``p``, ``p * F + SCORE`` (their counted score change)
    and, in the last round, ``p * F + WIN`` (their share of the win: 1 alone, 1/k when k tie
    after the tie-break, else 0); then the actor's worst-case rows ``n * F + SCORE`` /
    ``+ WIN``."""

    def __init__(
        self,
        frame: Frame,
        worlds: Worlds,
        budget: Budget | None = None,
        trees: dict[tuple[Any, ...], Any] | None = None,
    ):
        self.frame, self.worlds, self.budget = frame, worlds, budget
        self.n = frame.root.n
        self.F = 2 if frame.scoring == "final" else 1
        self.rows = (self.n + 1) * self.F
        self.memo: dict[tuple[Any, ...], np.ndarray] = {}
        # each player's own last Night (night.py), shareable between rulings
        self.trees: dict[tuple[Any, ...], Any] = {} if trees is None else trees
        self.calls = 0
        # one Hidden Trait per objective, to measure each objective once per state
        self._objectives = tuple(sorted({t.objective for t in frame.root.game.traits}))
        self._scored: dict[tuple[Any, ...], np.ndarray] = {}
        self._base = [self._scores(frame.root, p) for p in range(self.n)]

    def _tick(self) -> None:
        self.calls += 1
        if self.budget is not None and self.calls % 256 == 0 and self.budget.spent():
            raise OutOfTime

    # --- the horizon -------------------------------------------------------------------

    def _scores(self, state: State, p: int, spots: Sequence[int] | None = None) -> np.ndarray:
        """``p``'s counted score in ``state``: Myth, or (last round) the end-of-game score
        along their Hidden Trait axis (their Hiding Spots at the end ``spots``, default
        :func:`end_spots`)."""
        if self.frame.scoring == "myth":
            return np.full((1,) * self.worlds.dims, float(state.myth[p]))
        own = tuple(s for s in (end_spots(state, p) if spots is None else spots) if s >= 0)
        # all the end-of-game score reads: Myth, the reveals (so the unrevealed cards too),
        # the Humans on the Sites of the Hiding Spots
        key = (p, state.myth[p], state.revealed[p], tuple(state.sites[s] for s in own))
        hit = self._scored.get(key)
        if hit is None:
            reached = amounts(state, p, self._objectives, own)
            plain = final_score(state, p, None)
            if self.frame.weighs_traits:
                hit = self._bonus_along(p, reached) + plain
            else:
                trait = self.frame.trait_of(p)
                bonus = 0 if trait is None else self._bonus_of(trait, reached)
                hit = np.full((1,) * self.worlds.dims, float(plain + bonus))
            self._scored[key] = hit
        return hit

    def _bonus_of(self, trait: int, reached: tuple[int, ...]) -> int:
        """The bonus of Hidden Trait ``trait`` with the objectives at ``reached``."""
        t = self.frame.root.game.traits[trait]
        return t.score(dict(zip(self._objectives, reached, strict=True))[t.objective])

    def _bonus_along(self, p: int, amounts: tuple[int, ...]) -> np.ndarray:
        """The Hidden Trait bonus along ``p``'s trait axis, the objectives at ``amounts``."""
        w, g = self.worlds, self.frame.root.game
        i = w.index[(p, -1)]
        reached = dict(zip(self._objectives, amounts, strict=True))
        shape = [1] * w.dims
        shape[i] = len(w.axes[i].values)
        out = [float(g.traits[t].score(reached[g.traits[t].objective])) for t in w.axes[i].values]
        return np.array(out).reshape(shape)

    def terminal(self, state: State) -> np.ndarray:
        scores = [self._scores(state, p) for p in range(self.n)]
        tallies = [np.array(tie_break_humans(state, p)) for p in range(self.n)]
        return self.outcome(scores, tallies)

    def outcome(
        self, scores: Sequence[np.ndarray], tallies: Sequence[np.ndarray], lead: int = 0
    ) -> np.ndarray:
        """The rows at the horizon from each player's counted score (``lead`` leading
        dimensions, then the axes) and tie-break tally (the leading dimensions only)."""
        n, F, a = self.n, self.F, self.frame.actor
        ones = (1,) * self.worlds.dims
        humans = [np.reshape(t, (*np.shape(t), *ones)) for t in tallies]
        parts: list[np.ndarray] = [np.zeros(())] * self.rows
        for p in range(n):
            parts[p * F + SCORE] = scores[p] - self._base[p]
        if F == 2:
            among: list[np.ndarray] = []  # 1 where the player is among the winners
            for p in range(n):
                win: np.ndarray = np.ones(ones)
                for q in range(n):
                    if q != p:
                        tied = humans[q] <= humans[p]
                        win = win * ((scores[q] < scores[p]) | ((scores[q] == scores[p]) & tied))
                among.append(win)
            winners = sum(among)  # a shared win: each tied legend's share of it
            for p in range(n):
                parts[p * F + WIN] = among[p] / winners
        for f in range(F):
            parts[n * F + f] = parts[a * F + f]
        shape = np.broadcast_shapes(*(x.shape for x in parts))
        return np.stack([np.broadcast_to(x, shape) for x in parts], axis=lead)

    # --- the play ----------------------------------------------------------------------

    def value(self, state: State, full: bool = False) -> np.ndarray:
        """The value of ``state``. ``full``: for every value of the actor's own axes (another
        player's choice above weighs them: that player does not see the actor's cards);
        otherwise only at the actor's own (the others dimension 1), which is all the actor's
        figures and choices read."""
        key = (memo_key(state), full)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if self.frame.done(state):
            out = self.terminal(state)
        else:
            self._tick()
            if state.phase == "reveal":
                out = self.reveal(state, full)
            elif state.phase in NIGHT_STEPS and last_night_applies(self, state):
                out = last_night(self, state)
            else:
                out = self.by_engine(state, full)
        if not full:
            out = self._narrow(out)
        if out.size > MAX_CELLS:
            raise TooManyWorlds
        self.memo[key] = out
        return out

    def _narrow(self, values: np.ndarray) -> np.ndarray:
        """``values`` at the actor's own Stack tops (and Hidden Trait, when known) only."""
        for axis, at in self.worlds.actor_known:
            if values.shape[1 + axis] > 1:
                values = values.take([at], axis=1 + axis)
        return values

    def _needs_full(self, player: int, options: int, full: bool) -> bool:
        """Whether the values after a choice of ``player`` among ``options`` moves must hold
        every value of the actor's axes: another player chooses, weighing them."""
        return full or (player != self.frame.actor and options > 1)

    def by_engine(self, state: State, full: bool = False) -> np.ndarray:
        """The value of ``state`` (not a reveal): its player's choice over the value after
        each of their moves."""
        player = state.actor()
        assert player is not None
        moves = self.frame.moves(state, player)
        wide = self._needs_full(player, len(moves), full)
        children = [self.value(step(state, m, checked=False), wide) for m in moves]
        return self.decide(player, self.fixed(state), children)

    def fixed(self, state: State) -> tuple[tuple[int, int], ...]:
        """The axes the reveals since the position have settled: (axis, value index)."""
        root, w = self.frame.root, self.worlds
        out = []
        for q in range(state.n):
            for stack, s, rnd in state.revealed[q][len(root.revealed[q]) :]:
                i = w.index.get((q, stack))
                if i is not None and rnd == root.round:
                    out.append((i, w.axes[i].values.index(kind_of(state, q, s))))
        return tuple(sorted(out))

    def reveal(self, state: State, full: bool = False) -> np.ndarray:
        """The revealer's top card, each kind it may be (one slice of its axis each; the
        actor's own only as it is unless ``full``), then their choice of targets for its
        effect (the card face up)."""
        q = state.actor()
        assert q is not None and state.encounter is not None
        stack = state.spots[q].index(state.encounter)
        axis = self.worlds.index[(q, stack)]
        if q == self.frame.actor and not full:
            return self._targets(state, q, full)
        slices: list[np.ndarray | None] = []
        for kind in self.worlds.axes[axis].values:
            there = with_top(state, q, stack, kind)
            slices.append(None if there is None else self._targets(there, q, full))
        real = [s for s in slices if s is not None]
        shape = list(np.broadcast_shapes(*(s.shape for s in real)))
        shape[1 + axis] = 1
        zero = np.zeros(shape)
        return np.concatenate(
            [zero if s is None else np.broadcast_to(s, shape) for s in slices], axis=1 + axis
        )

    def _targets(self, state: State, player: int, full: bool) -> np.ndarray:
        """The revealer's choice of Sites for their Sighting's effect."""
        moves = legal_moves(state)
        after = [step(state, m, checked=False) for m in moves]
        wide = self._needs_full(player, len(moves), full)
        children = [self.value(s, wide) for s in after]
        return self.decide(player, self.fixed(after[0]), children)

    def decide(
        self,
        player: int,
        fixed: tuple[tuple[int, int], ...],
        children: Sequence[np.ndarray],
        lead: int = 0,
    ) -> np.ndarray:
        """``player``'s choice among ``children`` (the values after each of their moves; each
        with ``lead`` leading dimensions of public facts they see, then the rows and the axes),
        for each of their information states; the worst-case rows: the actor's best against
        the others' worst."""
        if len(children) == 1:
            return children[0]
        n, F, actor = self.n, self.F, self.frame.actor
        shape = np.broadcast_shapes(*(c.shape for c in children))
        values = np.stack([np.broadcast_to(c, shape) for c in children])
        weights = self.worlds.weights(player, fixed)
        own = self.worlds.own[player]
        leader = self.worlds.leaders[player]
        model = [(player * F + WIN, 1.0)] if F == 2 else []
        model += [(player * F + SCORE, 1.0), (leader * F + SCORE, -1.0)]
        alive = self._best(values, weights, own, model, lead)
        rows = 1 + lead  # the rows' dimension in ``values``
        out = (values * np.expand_dims(alive, rows)).sum(0) / np.expand_dims(alive.sum(0), lead)
        worst_rows = ([n * F + WIN] if F == 2 else []) + [n * F + SCORE]  # in priority order
        worst = values.take(worst_rows, axis=rows)
        if player == actor:
            keep = self._best(values, weights, own, [(r, 1.0) for r in worst_rows], lead)
            mean = (worst * np.expand_dims(keep, rows)).sum(0) / np.expand_dims(keep.sum(0), lead)
        else:
            mean = _lexicographic_min(worst, lead)
        tail = np.broadcast_shapes(out.shape[lead + 1 :], mean.shape[lead + 1 :])
        batch = np.broadcast_shapes(out.shape[:lead], mean.shape[:lead])
        out = np.array(np.broadcast_to(out, (*batch, self.rows, *tail)))
        index = (slice(None),) * lead + (worst_rows,)
        out[index] = np.broadcast_to(mean, (*batch, len(worst_rows), *tail))
        return out

    def _best(
        self,
        values: np.ndarray,
        weights: Factors,
        own: Sequence[int],
        criteria: Sequence[tuple[int, float]],
        lead: int = 0,
    ) -> np.ndarray:
        """Per information state (the ``lead`` public dimensions and the own axes), which moves
        (dimension 0 of ``values``) are best by ``criteria`` (rows, signs; each in turn, ties
        within the tolerance kept), expected over the others' axes."""
        others = tuple(i for i in range(self.worlds.dims) if i not in own)
        alive: np.ndarray | None = None
        for row, sign in criteria:
            num, total = contract(weights, values.take(row, axis=1 + lead), others, lead=1 + lead)
            expect = sign * np.divide(num, total, out=np.zeros(num.shape), where=total > 0)
            if alive is not None:
                expect = np.where(alive, expect, -np.inf)
            best = expect.max(axis=0, keepdims=True)
            now = expect >= best - TOLERANCE * (1 + np.abs(best))
            alive = now if alive is None else alive & now
        assert alive is not None
        return alive


def _lexicographic_min(values: np.ndarray, lead: int = 0) -> np.ndarray:
    """Per world, the least of the first row (dimension ``1 + lead``) over the moves
    (dimension 0), then the least of the next row among the moves that reach it."""
    alive: np.ndarray | bool = True
    out = []
    for r in range(values.shape[1 + lead]):
        row = np.where(alive, values.take(r, axis=1 + lead), np.inf)
        low = row.min(axis=0, keepdims=True)
        alive = alive & (row <= low + TOLERANCE * (1 + np.abs(low)))
        out.append(low[0])
    shape = np.broadcast_shapes(*(x.shape for x in out))
    return np.stack([np.broadcast_to(x, shape) for x in out], axis=lead)
