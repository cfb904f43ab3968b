"""Twisted Cryptids advice: every legal choice of the player to act, ranked by expected Myth.

The hidden information averaged over is the Sighting Stacks: the player to act
knows their own Stacks and every reveal so far (the record :func:`record_from_state`
writes from their seat); every other player's unrevealed slots may hold any
arrangement of that player's unrevealed cards (the ``stacks`` worlds). The prior
is uniform over those arrangements (a fair shuffle). Hands, decks and the Event
deck are taken as they are in the position (not averaged over).

For each legal move and each world: play the move, then play every later
choice by the stated policy (the first legal move in the model's fixed order:
Pass on a Day turn, the first target listed) up to the horizon (the end of this
round's Dusk reveals), and measure the change of the actor's Myth and of the
leader's (the other player with the most Myth now, first in seat order on a tie).
Exact over the worlds when they are at most ``exact_limit``; otherwise a seeded
uniform sample of worlds (the same worlds for every move), each mean with a 95%
normal interval.

:func:`brute_force` is the plain reference: every distinct ordering of each
player's unrevealed Sighting ids, one by one.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from math import prod, sqrt
from typing import Any

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.models.twisted_cryptids.play import (
    GameMove,
    Power,
    State,
    describe,
    legal_moves,
    step,
)
from ruleslawyer.solvers.twisted_cryptids.stacks import distinct_permutations, multinomial

# per player: the Stacks, each a tuple of Sighting ids top first (unrevealed cards only)
World = tuple[tuple[tuple[int, ...], ...], ...]

HORIZON = "to the end of this round's Dusk reveals"
POLICY = "every later choice (all players): the first legal move in the model's order"
PRIOR = (
    "uniform over the arrangements of each other player's unrevealed Sightings that fit "
    "the reveals and the Sightings the actor knows"
)
NOT_AVERAGED = "hands, decks and the Event deck are as in the position"
HORIZON_PHASES = frozenset({"night-move", "night-place", "refill", "over"})


@dataclass(frozen=True)
class Hidden:
    """One other player's unrevealed Stack slots, Stacks in order and each top first: a known
    Sighting id where the actor knows it (``fixed``), else ``None``; ``free`` holds the ids
    the ``None`` slots share out (every arrangement equally likely)."""

    player: int
    sizes: tuple[int, ...]
    fixed: tuple[int | None, ...]
    free: tuple[int, ...]


def hidden_of_state(state: State, actor: int) -> tuple[Hidden, ...]:
    """The hidden slots of a game state: every other player's unrevealed cards, none known."""
    out = []
    for p in range(state.n):
        if p == actor:
            continue
        ids = tuple(sorted(s for stack in state.stacks[p] for s in stack))
        if ids:
            sizes = tuple(len(stack) for stack in state.stacks[p])
            out.append(Hidden(p, sizes, (None,) * len(ids), ids))
    return tuple(out)


def _kinds(state: State, p: int, ids: Sequence[int]) -> Counter[str]:
    sightings = state.game.cryptids[state.cryptids[p]].sightings
    return Counter(sightings[s].kind for s in ids)


def world_count(state: State, actor: int, hidden: Sequence[Hidden] | None = None) -> int:
    """Distinct arrangements (by Sighting kind) of the hidden Stacks the actor cannot see."""
    hidden = hidden_of_state(state, actor) if hidden is None else hidden
    return prod(multinomial(_kinds(state, h.player, h.free).values()) for h in hidden)


def stacks_of(h: Hidden, order: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """``h``'s Stacks with ``order`` dealt into its free slots."""
    free = iter(order)
    flat = [next(free) if s is None else s for s in h.fixed]
    out, at = [], 0
    for size in h.sizes:
        out.append(tuple(flat[at : at + size]))
        at += size
    return tuple(out)


def _by_kind(state: State, p: int, ids: Sequence[int], kinds: Sequence[str]) -> list[int]:
    """Sighting ids for a sequence of kinds (same-kind cards taken in id order)."""
    sightings = state.game.cryptids[state.cryptids[p]].sightings
    pools: dict[str, list[int]] = {}
    for s in ids:
        pools.setdefault(sightings[s].kind, []).append(s)
    taken: Counter[str] = Counter()
    out = []
    for k in kinds:
        out.append(pools[k][taken[k]])
        taken[k] += 1
    return out


def all_worlds(state: State, actor: int, hidden: Sequence[Hidden] | None = None) -> Iterator[World]:
    """Every world, each arrangement of kinds once (cards of one kind are alike)."""
    hidden = hidden_of_state(state, actor) if hidden is None else hidden
    per_player = [
        [
            (h.player, stacks_of(h, _by_kind(state, h.player, h.free, kinds)))
            for kinds in distinct_permutations(_kinds(state, h.player, h.free), len(h.free))
        ]
        for h in hidden
    ]
    for combo in itertools.product(*per_player):
        yield _world(state, dict(combo))


def sampled_worlds(
    state: State, actor: int, count: int, seed: int, hidden: Sequence[Hidden] | None = None
) -> Iterator[World]:
    """``count`` worlds drawn uniformly (a fair shuffle of each player's free cards)."""
    rng = random.Random(seed)
    hidden = hidden_of_state(state, actor) if hidden is None else hidden
    for _ in range(count):
        chosen = {}
        for h in hidden:
            order = list(h.free)
            rng.shuffle(order)
            chosen[h.player] = stacks_of(h, order)
        yield _world(state, chosen)


def _world(state: State, chosen: dict[int, tuple[tuple[int, ...], ...]]) -> World:
    return tuple(chosen.get(p, state.stacks[p]) for p in range(state.n))


def label(state: State, move: GameMove) -> str:
    """The move as :func:`describe` words it, naming the card a Power discards."""
    text = describe(state, move)
    if isinstance(move, Power):
        card = state.hands[state.actor() or 0][move.card]
        text += f" (discarding {state.game.actions[card].name})"
    return text


def leader_of(state: State, actor: int) -> int:
    others = [p for p in range(state.n) if p != actor]
    return max(others, key=lambda p: (state.myth[p], -p))


def _play_until(state: State, rnd: int, stop: frozenset[str]) -> State:
    while state.phase not in stop and state.round == rnd:
        state = step(state, legal_moves(state)[0])
    return state


def outcome(state: State, move: GameMove, actor: int, leader: int) -> tuple[int, int]:
    """(actor's, leader's) Myth change after ``move`` and the policy's play to the horizon."""
    after = _play_until(step(state, move), state.round, HORIZON_PHASES)
    return after.myth[actor] - state.myth[actor], after.myth[leader] - state.myth[leader]


def outcomes(
    state: State, move: GameMove, worlds: Sequence[World], actor: int, leader: int
) -> list[tuple[int, int]]:
    """:func:`outcome` in every world, sharing the play up to the first reveal: nothing
    before Dusk's reveals reads a hidden Stack, so that part is the same in every world."""
    common = _play_until(step(state, move), state.round, HORIZON_PHASES | {"reveal"})
    out = []
    for w in worlds:
        stacks = tuple(common.stacks[p] if p == actor else w[p] for p in range(state.n))
        after = _play_until(replace(common, stacks=stacks), state.round, HORIZON_PHASES)
        out.append((after.myth[actor] - state.myth[actor], after.myth[leader] - state.myth[leader]))
    return out


def _stat(values: Sequence[int], exact: bool) -> dict[str, Any]:
    n = len(values)
    mean = sum(values) / n
    out: dict[str, Any] = {"mean": round(mean, 4)}
    if not exact:
        var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        half = 1.96 * sqrt(var / n)
        out["interval95"] = [round(mean - half, 4), round(mean + half, 4)]
    return out


def advise(
    state: State,
    *,
    exact_limit: int = 200,
    samples: int = 200,
    seed: int = 0,
    budget: Budget | None = None,
    hidden: Sequence[Hidden] | None = None,
    not_averaged: str = NOT_AVERAGED,
) -> dict[str, Any]:
    """The advice JSON for the player to act in ``state``; ``hidden``: what the actor does not
    see (default: every other player's unrevealed cards, as in :func:`hidden_of_state`)."""
    actor = state.actor()
    if actor is None:
        raise ValueError("the game is over: nobody is to act")
    leader = leader_of(state, actor)
    moves = legal_moves(state)
    hidden = hidden_of_state(state, actor) if hidden is None else hidden
    count = world_count(state, actor, hidden)
    exact = count <= exact_limit
    worlds = list(
        all_worlds(state, actor, hidden)
        if exact
        else sampled_worlds(state, actor, samples, seed, hidden)
    )
    progress = Progress("advise: moves", len(moves))
    rows = []
    finished = True
    for i, move in enumerate(moves):
        if budget is not None and budget.spent():
            finished = False
            break
        results = outcomes(state, move, worlds, actor, leader)
        rows.append(
            {
                "move": label(state, move),
                "myth_change": _stat([a for a, _ in results], exact),
                "leader_myth_change": _stat([b for _, b in results], exact),
            }
        )
        progress.update(i + 1)
    progress.close()
    rows.sort(key=lambda r: (-r["myth_change"]["mean"], r["leader_myth_change"]["mean"]))
    return {
        "actor": state.players[actor],
        "leader": state.players[leader],
        "round": state.round,
        "phase": state.phase,
        "prior": PRIOR,
        "horizon": HORIZON,
        "policy": POLICY,
        "not_averaged": not_averaged,
        "worlds": count,
        "mode": "exact" if exact else "sampled",
        "samples": None if exact else len(worlds),
        "seed": None if exact else seed,
        "moves_legal": len(moves),
        "moves_ranked": len(rows),
        "finished": finished,
        "choices": rows,
    }


def brute_force(state: State) -> dict[str, tuple[float, float]]:
    """Reference: per move (described), the mean (actor, leader) Myth change over every
    distinct ordering of every other player's unrevealed Sighting ids."""
    actor = state.actor()
    assert actor is not None
    per_player = [
        [(h.player, stacks_of(h, order)) for order in set(itertools.permutations(h.free))]
        for h in hidden_of_state(state, actor)
    ]
    worlds = [_world(state, dict(combo)) for combo in itertools.product(*per_player)]
    return plain_means(state, worlds)


def plain_means(state: State, worlds: Sequence[World]) -> dict[str, tuple[float, float]]:
    """Per move (described): the mean (actor, leader) Myth change of :func:`outcome`, each
    world played from the move on its own (the references' shared last step)."""
    actor = state.actor()
    assert actor is not None
    leader = leader_of(state, actor)
    out = {}
    for move in legal_moves(state):
        res = [outcome(replace(state, stacks=w), move, actor, leader) for w in worlds]
        out[label(state, move)] = (
            sum(a for a, _ in res) / len(res),
            sum(b for _, b in res) / len(res),
        )
    return out
