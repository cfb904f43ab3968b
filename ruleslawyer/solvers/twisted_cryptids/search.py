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

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.models.twisted_cryptids.knowledge import kind_of
from ruleslawyer.models.twisted_cryptids.play import (
    NIGHT_STEPS,
    State,
    end_spots,
    legal_moves,
    step,
    tie_break_humans,
)
from ruleslawyer.solvers.twisted_cryptids.frame import (
    TRAIT_DEALS,
    Frame,
    amounts,
    final_score,
    frame_of,
    leader_of,
    own_day_turns,
    scoring_of,
)
from ruleslawyer.solvers.twisted_cryptids.night import last_night, last_night_applies
from ruleslawyer.solvers.twisted_cryptids.worlds import Factors, Worlds, contract

__all__ = [
    "TRAIT_DEALS",
    "Frame",
    "Search",
    "Worlds",
    "contract",
    "final_score",
    "frame_of",
    "leader_of",
    "own_day_turns",
    "scoring_of",
]

TOLERANCE = 1e-9
MAX_CELLS = 16_000_000  # entries of one value array beyond which the search stops unfinished

SCORE, WIN = 0, 1


class OutOfTime(Exception):
    """The budget ran out mid-evaluation."""


class TooManyWorlds(Exception):
    """A value array would exceed :data:`MAX_CELLS` entries."""


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
