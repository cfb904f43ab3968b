"""Plain reference for Twisted Cryptids ``advise``: every world played on its own, one game
state per world, no memo, no arrays, nothing shared between worlds.

A world is every player's full arrangement of their unrevealed Sightings (each a distinct
arrangement by kind) and, in the last round, every player's Hidden Trait (no two alike).
The worlds are all of them (the public ones); each player weighs them from what they know
(:mod:`ruleslawyer.models.twisted_cryptids.knowledge`): their own Stacks and Hidden Trait
are theirs to see (a player's information state: the play so far and their own cards), every
other world weighs 1, except for the actor, who gives 0 to a world that contradicts a
Sighting they know in another player's Stack or gives another player a Hidden Trait they know
is out of play (or, sampled, weighs each world by how often the sample holds it).

Lines (a world and its state) go down the tree of public play together; at a reveal they part
by the card turned over. At a choice of player ``p`` the lines are grouped by ``p``'s own cards;
in each group every legal move is tried on every line, and the group takes the move with the
most for ``p`` over the group's lines by ``p``'s weights: in the last round their share of
the win (the engine's :func:`~ruleslawyer.models.twisted_cryptids.play.winners` with the
world's Hidden Traits: 1 alone, 1/k shared by k), then their score; before it their Myth;
then the least Myth/score for their leader; moves tied within the tolerance share the group
(an equal chance each). Another player's Day turn passes. The worst case: another player's
move the worst for the actor on each line (win, then score), the actor's their best by the
same rule. Figures: the means over the lines by the actor's weights at the position (their
own cards as they are).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ruleslawyer.models.twisted_cryptids.knowledge import (
    Hidden,
    kind_of,
    public_slots,
    trait_candidates,
)
from ruleslawyer.models.twisted_cryptids.play import (
    State,
    final_scores,
    legal_moves,
    step,
    tie_break_humans,
    winners,
)
from ruleslawyer.solvers.twisted_cryptids.advise import (
    World,
    _by_kind,
    _kinds,
    hidden_of_state,
    label,
    stacks_of,
)
from ruleslawyer.solvers.twisted_cryptids.search import (
    TOLERANCE,
    final_score,
    frame_of,
    leader_of,
)
from ruleslawyer.solvers.twisted_cryptids.stacks import distinct_permutations

Line = tuple[int, State]  # (world index, that world's state)
Rows = tuple[float, ...]  # per player (score, win); then the actor's worst (score, win)


class Reference:
    """One advice, played world by world."""

    def __init__(
        self,
        state: State,
        *,
        hidden: Sequence[Hidden] | None = None,
        trait_known: bool = True,
        excluded: Sequence[int] | None = None,
        later_turns: int | None = None,
        sample: Sequence[World] | None = None,
    ):
        actor = state.actor()
        assert actor is not None
        self.root, self.actor, self.n = state, actor, state.n
        hidden = hidden_of_state(state, actor) if hidden is None else hidden
        self.frame = frame_of(
            state, trait_known=trait_known, excluded=excluded, later_turns=later_turns
        )
        self.excluded = set(self.frame.excluded)
        self.final = self.frame.scoring == "final"
        self.deals = self.frame.weighs_traits
        self.leaders = [leader_of(state, p) for p in range(self.n)]
        per_player = [self._arrangements(q) for q in range(self.n)]
        traits = (
            list(itertools.permutations(trait_candidates(state), self.n)) if self.deals else [()]
        )
        self.worlds = [
            (stacks, deal) for stacks in itertools.product(*per_player) for deal in traits
        ]
        known = {h.player: h for h in hidden}
        counted = None if sample is None else self._sampled(sample)
        self.actor_weight = [
            self._actor_weight(stacks, deal, known, counted) for stacks, deal in self.worlds
        ]

    def _arrangements(self, q: int) -> list[tuple[tuple[int, ...], ...]]:
        """Every distinct arrangement (by kind) of ``q``'s unrevealed Sightings."""
        h = public_slots(self.root, q)
        kinds = _kinds(self.root, q, h.free)
        return [
            stacks_of(h, _by_kind(self.root, q, h.free, order))
            for order in distinct_permutations(kinds, len(h.free))
        ]

    def _kinds_of(self, q: int, stacks: tuple[tuple[int, ...], ...]) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(kind_of(self.root, q, s) for s in st) for st in stacks)

    def _sampled(self, sample: Sequence[World]) -> dict[tuple[Any, ...], int]:
        out: dict[tuple[Any, ...], int] = {}
        for world in sample:
            key = tuple(self._kinds_of(q, world[q]) for q in range(self.n) if q != self.actor)
            out[key] = out.get(key, 0) + 1
        return out

    def _actor_weight(
        self,
        stacks: tuple[tuple[tuple[int, ...], ...], ...],
        deal: tuple[int, ...],
        known: dict[int, Hidden],
        counted: dict[tuple[Any, ...], int] | None,
    ) -> float:
        """The actor's weight of a world (their own cards not looked at)."""
        if any(t in self.excluded for q, t in enumerate(deal) if q != self.actor):
            return 0.0
        if counted is not None:
            key = tuple(self._kinds_of(q, stacks[q]) for q in range(self.n) if q != self.actor)
            return float(counted.get(key, 0))
        for q, h in known.items():
            flat = [s for st in stacks[q] for s in st]
            for slot, fixed in zip(flat, h.fixed, strict=True):
                if fixed is not None and kind_of(self.root, q, slot) != kind_of(
                    self.root, q, fixed
                ):
                    return 0.0
        return 1.0

    def weight(self, viewer: int, world: int) -> float:
        return self.actor_weight[world] if viewer == self.actor else 1.0

    def own(self, viewer: int, world: int) -> tuple[Any, ...]:
        """What ``viewer`` sees of a world: their own Stacks (kinds) and Hidden Trait."""
        stacks, deal = self.worlds[world]
        return (self._kinds_of(viewer, stacks[viewer]), deal[viewer] if deal else None)

    # --- play ----------------------------------------------------------------------------

    def rows(self, world: int, state: State) -> Rows:
        """Per player their counted change and (last round) win; then the actor's again."""
        root = self.root
        if not self.final:
            mine: list[float] = [float(state.myth[p] - root.myth[p]) for p in range(self.n)]
            return (*mine, mine[self.actor])
        deal = self.worlds[world][1]
        if self.deals:
            end = final_scores(replace(state, traits=deal))
            start = final_scores(replace(root, traits=deal))
            won = winners(replace(state, traits=deal))
        else:  # only the actor's Hidden Trait counts
            end = [final_score(state, p, self.frame.trait_of(p)) for p in range(self.n)]
            start = [final_score(root, p, self.frame.trait_of(p)) for p in range(self.n)]
            best = [p for p in range(self.n) if end[p] == max(end)]
            most = max(tie_break_humans(state, p) for p in best)
            won = tuple(p for p in best if tie_break_humans(state, p) == most)
        out: list[float] = []
        for p in range(self.n):
            out += [float(end[p] - start[p]), (p in won) / len(won)]
        return (*out, *out[2 * self.actor : 2 * self.actor + 2])

    def play(self, lines: Sequence[Line]) -> list[Rows]:
        first = lines[0][1]
        if self.frame.done(first):
            return [self.rows(w, s) for w, s in lines]
        if first.phase == "reveal":
            parts: dict[str, list[int]] = {}
            for i, (_, s) in enumerate(lines):
                q = s.actor()
                assert q is not None and s.encounter is not None
                top = s.stacks[q][s.spots[q].index(s.encounter)][0]
                parts.setdefault(kind_of(s, q, top), []).append(i)
            out: list[Rows] = [()] * len(lines)
            for members in parts.values():
                for i, v in zip(members, self.choose([lines[i] for i in members]), strict=True):
                    out[i] = v
            return out
        return self.choose(lines)

    def choose(self, lines: Sequence[Line]) -> list[Rows]:
        """The player to act chooses, per group of lines they cannot tell apart."""
        state = lines[0][1]
        p = state.actor()
        assert p is not None
        moves = self.frame.moves(state, p)
        tried = [self.play([(w, step(s, m)) for w, s in lines]) for m in moves]  # tried[m][line]
        groups: dict[tuple[Any, ...], list[int]] = {}
        for i, (w, _) in enumerate(lines):
            groups.setdefault(self.own(p, w), []).append(i)
        out: list[Rows] = [()] * len(lines)
        width = len(tried[0][0])
        n2 = width - (2 if self.final else 1)
        for members in groups.values():
            weights = [self.weight(p, lines[i][0]) for i in members]
            model = self._criteria(p)
            keep = self._best(tried, members, weights, model)
            worst_cols = list(range(n2, width))
            if p == self.actor:
                worst_keep = self._best(
                    tried, members, weights, [(c, 1.0) for c in self._worst_order(n2)]
                )
            for i in members:
                row = [sum(tried[m][i][c] for m in keep) / len(keep) for c in range(n2)]
                if p == self.actor:
                    row += [
                        sum(tried[m][i][c] for m in worst_keep) / len(worst_keep)
                        for c in worst_cols
                    ]
                else:
                    row += self._least([tried[m][i] for m in range(len(moves))], n2)
                out[i] = tuple(row)
        return out

    def _criteria(self, p: int) -> list[tuple[int, float]]:
        if self.final:
            leader = self.leaders[p]
            return [(2 * p + 1, 1.0), (2 * p, 1.0), (2 * leader, -1.0)]
        return [(p, 1.0), (self.leaders[p], -1.0)]

    def _worst_order(self, n2: int) -> list[int]:
        """The actor's worst-case columns, the first to compare first (win, then score)."""
        return [n2 + 1, n2] if self.final else [n2]

    def _best(
        self,
        tried: Sequence[Sequence[Rows]],
        members: Sequence[int],
        weights: Sequence[float],
        criteria: Sequence[tuple[int, float]],
    ) -> list[int]:
        """The moves best by ``criteria`` over the group (means by ``weights``), ties kept."""
        total = sum(weights)
        alive = list(range(len(tried)))
        for col, sign in criteria:
            if total > 0:
                means = {
                    m: sign
                    * sum(w * tried[m][i][col] for i, w in zip(members, weights, strict=True))
                    / total
                    for m in alive
                }
            else:
                means = dict.fromkeys(alive, 0.0)
            best = max(means.values())
            alive = [m for m in alive if means[m] >= best - TOLERANCE * (1 + abs(best))]
        return alive

    def _least(self, options: Sequence[Rows], n2: int) -> list[float]:
        """The actor's worst case over another player's moves on one line."""
        cols = self._worst_order(n2)
        alive = list(options)
        found: dict[int, float] = {}
        for c in cols:
            low = min(r[c] for r in alive)
            found[c] = low
            alive = [r for r in alive if r[c] <= low + TOLERANCE * (1 + abs(low))]
        return [found[c] for c in range(n2, n2 + len(cols))]

    # --- figures -----------------------------------------------------------------------

    def figures(self) -> dict[str, dict[str, float]]:
        """Per move (as advise words it): the actor's mean figures at the position."""
        root, a = self.root, self.actor
        mine = tuple(tuple(kind_of(root, a, s) for s in st) for st in root.stacks[a])
        at_root = []
        for w, (stacks, deal) in enumerate(self.worlds):
            weight = self.actor_weight[w]
            if self._kinds_of(a, stacks[a]) != mine:
                weight = 0.0
            if self.deals:
                own = deal[a]
                if self.frame.trait is not None and own != self.frame.trait:
                    weight = 0.0
                if self.frame.trait is None and own in self.excluded:
                    weight = 0.0
            at_root.append(weight)
        # every world is played (the others weigh the ones the actor rules out), the
        # figures weigh them as the actor does; a reveal at the position turns the actor's
        # card face up: the worlds with another card there are no longer anyone's
        live: list[int] = list(range(len(self.worlds)))
        if root.phase == "reveal":
            assert root.encounter is not None
            j = root.spots[a].index(root.encounter)
            top = mine[j][0]
            live = [w for w in live if self._kinds_of(a, self.worlds[w][0][a])[j][0] == top]
        total = sum(at_root)
        out = {}
        n2 = 2 * self.n if self.final else self.n
        for move in legal_moves(root):
            lines = [(w, step(replace(root, stacks=self.worlds[w][0]), move)) for w in live]
            res = self.play(lines)

            weights = [at_root[w] for w, _ in lines]

            def mean(col: int, res: list[Rows] = res, weights: list[float] = weights) -> float:
                return sum(x * r[col] for x, r in zip(weights, res, strict=True)) / total

            leader = self.leaders[a]
            fig = {
                "score": mean(2 * a if self.final else a),
                "leader": mean(2 * leader if self.final else leader),
                "worst_score": mean(n2),
            }
            if self.final:
                fig["win"] = mean(2 * a + 1)
                fig["worst_win"] = mean(n2 + 1)
            out[label(root, move)] = fig
        return out


def plain_means(
    state: State,
    worlds: Sequence[World] | None = None,
    *,
    hidden: Sequence[Hidden] | None = None,
    trait_known: bool = True,
    excluded: Sequence[int] | None = None,
    later_turns: int | None = None,
) -> dict[str, dict[str, float]]:
    """Per move (described): the actor's mean figures (``score``, ``leader``, ``worst_score``;
    in the last round ``win`` and ``worst_win`` too), every world played on its own; the
    actor's weights from ``hidden`` (default: nothing known of the others' cards), or, given
    ``worlds`` (a sample of the others' Stacks), how often each appears there."""
    return Reference(
        state,
        hidden=hidden,
        trait_known=trait_known,
        excluded=excluded,
        later_turns=later_turns,
        sample=worlds,
    ).figures()


def brute_force(state: State, later_turns: int | None = None) -> dict[str, dict[str, float]]:
    """Reference: :func:`plain_means` over every world (nothing known of the others' cards)."""
    return plain_means(state, later_turns=later_turns)
