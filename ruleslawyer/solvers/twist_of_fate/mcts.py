"""UCT (Monte Carlo tree search) for Twist of Fate over the max^n utility, to the round's end.

Every seat in the tree picks for itself (max^n): a node keeps the mean reward of
every player, and selection at a node uses the mean of the seat to move there
plus the UCB1 bonus ``c * sqrt(ln N / n)``. A player's reward is its max^n utility
at the horizon (the end of the round, or of the game if it ends first;
:func:`~ruleslawyer.solvers.twist_of_fate.common.horizon_vector`) without
its tempo, turned into one number that keeps its order: ``(81 * (outcome + 1) + 9 *
Sanctuary + Luck + Shilling) / 162``, outcome 1 won, 0 open, -1 lost, Sanctuary
and Luck + Shilling counted when open (each at most 8, so no lower term outweighs
a higher one). Unvisited moves are tried first, in an order shuffled by
the seeded generator (so a budget smaller than the number of moves samples them
fairly); a playout from a new node plays :func:`random_move` to the horizon. After
the iterations the most visited move is played; on equal visits the one with the
best mean reward for the player to move, then the first in legal-move order.

The Monks (2-player variant) choose nothing: the tree only branches where a player
is to move, and their win scores 0 for both players.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from ruleslawyer.models.twist_of_fate.play import (
    FACE_DOWN,
    FACE_UP,
    LUCK,
    SHILLING,
    Deck,
    Move,
    Rules,
    State,
    legal_moves,
    may_raise,
    open_targets,
    play,
)
from ruleslawyer.solvers.twist_of_fate.common import horizon_vector

SCALE = 162  # 81 * 2, a win: the largest reward before scaling
ROLLOUT = (
    "playouts to the horizon pick a distinct card in hand uniformly at random, then an "
    "open target, then one of the ways to play it (either side face up, or a legal "
    "face-down adjustment)"
)


def rewards(state: State) -> tuple[float, ...]:
    """Every player's reward in a state where the search stops, in 0..1, order-keeping."""
    return tuple((81 * (o + 1) + 9 * z + ls) / SCALE for o, _, z, ls in horizon_vector(state))


def at_horizon(state: State) -> bool:
    return state.over or state.round_over


def random_move(state: State, deck: Deck, rules: Rules, rng: random.Random) -> Move:
    """The playout policy (:data:`ROLLOUT`): a legal move, not uniform over all moves."""
    p = state.active
    me = state.seats[p]
    card = rng.choice(tuple(dict.fromkeys(me.hand)))  # a hand is kept in deck order
    target = rng.choice(open_targets(state, rules))
    raising = [r for r in (LUCK, SHILLING) if may_raise(me, r, rules)]
    if target == p:
        downs = [(a, None) for a in raising] if rules.self_play_face_down == "allowed" else []
    else:
        them = state.seats[target]
        downs = [(a, b) for a in raising for b in (LUCK, SHILLING) if may_raise(them, b, rules)]
    way = rng.randrange(2 + len(downs))
    if way < 2:
        return Move(card, target, FACE_UP, side=way)
    a, b = downs[way - 2]
    return Move(card, target, FACE_DOWN, player_raises=a, target_raises=b)


def playout(state: State, deck: Deck, rules: Rules, rng: random.Random) -> tuple[float, ...]:
    while not at_horizon(state):
        state = play(state, random_move(state, deck, rules, rng), deck, rules)
    return rewards(state)


@dataclass
class Node:
    state: State
    moves: tuple[Move, ...]
    children: list[Node] = field(default_factory=list)
    visits: int = 0
    total: list[float] = field(default_factory=list)


def _node(state: State, deck: Deck, rules: Rules, rng: random.Random) -> Node:
    moves = [] if at_horizon(state) else list(legal_moves(state, deck, rules))
    rng.shuffle(moves)
    return Node(state, tuple(moves), total=[0.0] * state.players)


def _select(node: Node, c: float) -> int:
    mover = node.state.active
    log_n = math.log(node.visits)
    best, pick = -math.inf, 0
    for i, child in enumerate(node.children):
        score = child.total[mover] / child.visits + c * math.sqrt(log_n / child.visits)
        if score > best:
            best, pick = score, i
    return pick


def search(
    state: State,
    deck: Deck,
    rules: Rules,
    iterations: int,
    exploration: float,
    rng: random.Random,
) -> tuple[Move, tuple[tuple[Move, int], ...]]:
    """The move UCT plays from ``state`` after ``iterations`` iterations, with every root
    move's visit count (in legal-move order)."""
    root = _node(state, deck, rules, rng)
    if not root.moves:
        raise ValueError("no move to choose: the round or the game is over")
    for _ in range(iterations):
        node, path = root, [root]
        while node.moves and len(node.children) == len(node.moves):
            node = node.children[_select(node, exploration)]
            path.append(node)
        if node.moves:
            move = node.moves[len(node.children)]
            child = _node(play(node.state, move, deck, rules), deck, rules, rng)
            node.children.append(child)
            path.append(child)
            node = child
        result = playout(node.state, deck, rules, rng)
        for n in path:
            n.visits += 1
            for p, r in enumerate(result):
                n.total[p] += r
    order = legal_moves(state, deck, rules)
    mover = state.active
    stats = {
        m: (c.visits, c.total[mover] / c.visits)
        for m, c in zip(root.moves, root.children, strict=False)
    }
    visits = tuple((m, stats.get(m, (0, 0.0))[0]) for m in order)
    pick = max(order, key=lambda m: (*stats.get(m, (0, -1.0)), -order.index(m)))
    return pick, visits
