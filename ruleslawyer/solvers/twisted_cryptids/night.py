"""The last Night of the game for the advise search, one player's choices at a time.

In the last round nothing after the Dusk reads a hidden card: the end-of-game scoring counts
each player's Myth, unrevealed Real Deals and Hidden Trait, and the tie-break, and the Night
changes only where each player's own Hiding Spots end up. When no player's choice can change
what another may do (no cap that could bind at this Night), each player's choices form a tree
of their own (:func:`own_tree`), the same whatever the others chose: a player either moves a
Hiding Spot or places returned ones, never both, so under either ``night-order`` their
choices come one after another (a player met twice: the engine decides). Then every
combination of the players' ends is scored at once (one array dimension per player), and
each player's tree is decided from the last player to the first, each decision seeing the
earlier players' ends (public) as leading dimensions. The decisions are
:meth:`Search.decide`'s, so the values are the engine's
(:class:`~ruleslawyer.solvers.twisted_cryptids.search.Search` playing every move to the end
gives the same; the tests check it).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Any

import numpy as np

from ruleslawyer.models.twisted_cryptids import points as rp
from ruleslawyer.models.twisted_cryptids.play import (
    NIGHT_STEPS,
    State,
    cap_of,
    legal_moves,
    step,
    tie_break_humans,
)

# ``search`` below: the calling :class:`~ruleslawyer.solvers.twisted_cryptids.search.Search`
# (not imported: it imports this module)
Search = Any
MAX_ENDS = 20_000
# the rule points a player's own Night moves depend on (the others' rulings share its tree)
TREE_POINTS = (
    rp.SMALL_GAME_CAP,
    rp.OPTIONAL_MOVE_CONSTRAINTS,
    rp.NIGHT_PLACEMENT_LIMITS,
    rp.NIGHT_OWN_SITE,
    rp.BOXED_SPOT_MOVE,
    rp.NIGHT_ORDER,
    rp.PLAYER_COUNT,
)  # combinations of the players' ends scored at once, beyond: the engine


@dataclass(frozen=True)
class Node:
    """One choice of a player within their own Night; a child is another :class:`Node` or the
    index of one of their ends."""

    children: tuple[Node | int, ...]


def last_night_applies(search: Search, state: State) -> bool:
    """Whether :func:`last_night` may evaluate ``state`` (a Night step of the last round, the
    horizon the end of the game, no cap that could bind)."""
    if search.frame.scoring != "final" or state.round != state.game.rounds:
        return False
    cap = cap_of(state)
    free = all(
        state.reading(p.id) == "free"
        for p in (rp.OPTIONAL_MOVE_CONSTRAINTS, rp.NIGHT_PLACEMENT_LIMITS)
    )
    return cap is None or cap >= state.n or free


@dataclass(frozen=True)
class Tree:
    """A player's own Night: their choices, the Hiding Spots each way through them ends with,
    and the state after the first way (where the next player's Night starts)."""

    player: int
    root: Node
    ends: tuple[tuple[int, ...], ...]
    after: State


def own_tree(state: State) -> Tree:
    """The choices of the player to act in ``state`` until the Night passes to the next player
    (or the game ends)."""
    player = state.actor()
    assert player is not None
    ends: list[tuple[int, ...]] = []
    after: list[State] = []

    def build(s: State) -> Node | int:
        if s.phase not in NIGHT_STEPS or s.actor() != player:
            ends.append(s.spots[player])
            after.append(s)
            return len(ends) - 1
        return Node(tuple(build(step(s, m, checked=False)) for m in legal_moves(s)))

    root = build(state)
    assert isinstance(root, Node)
    return Tree(player, root, tuple(ends), after[0])


def _tree_key(state: State) -> tuple[object, ...]:
    """What a player's own Night depends on (not the Myth, not the Humans)."""
    mine = tuple(tuple((j, rnd) for j, _, rnd in own) for own in state.revealed)
    return (
        state.phase,
        state.turn,
        state.first,
        state.round,
        tuple(state.reading(p.id) for p in TREE_POINTS),
        state.spots,
        state.returned,
        state.encounter,
        mine,
    )


def last_night(search: Search, state: State) -> np.ndarray:
    """The value of ``state`` (a Night step of the last round) under the search's model."""
    trees: list[Tree] = []
    s = state
    while s.phase in NIGHT_STEPS:
        key = _tree_key(s)
        tree = search.trees.get(key)
        if tree is None:
            tree = search.trees[key] = own_tree(s)
        trees.append(tree)
        s = tree.after
    players = [t.player for t in trees]
    if len(set(players)) < len(players) or prod(len(t.ends) for t in trees) > MAX_ENDS:
        return search.by_engine(state)
    k = len(trees)
    before = state.reading(rp.TIE_BREAK_COUNT.id) == "before-final-night" and state.snapshot
    scores = [search._scores(s, p)[(None,) * k] for p in range(state.n)]
    tallies = [np.full((1,) * k, float(tie_break_humans(s, p))) for p in range(state.n)]
    for i, tree in enumerate(trees):
        p = tree.player
        shape = [1] * k
        shape[i] = len(tree.ends)
        # where the end counts the spots: after the Night, or where they stood before it
        counted = [state.snapshot[p] if before else end for end in tree.ends]
        each = np.stack([search._scores(state, p, spots) for spots in counted])
        scores[p] = each.reshape((*shape, *each.shape[1:]))
        humans = [sum(state.humans_at(x) for x in spots if x >= 0) for spots in counted]
        tallies[p] = np.array(humans, dtype=float).reshape(shape)
    values = search.outcome(scores, tallies, lead=k)
    fixed = search.fixed(state)
    for i in reversed(range(k)):
        tree = trees[i]

        def evaluate(
            node: Node, values: np.ndarray = values, i: int = i, p: int = tree.player
        ) -> np.ndarray:
            children = [
                values.take(c, axis=i) if isinstance(c, int) else evaluate(c) for c in node.children
            ]
            return search.decide(p, fixed, children, lead=i)

        values = evaluate(tree.root)
    return values
