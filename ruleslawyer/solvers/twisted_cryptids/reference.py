"""Plain reference for Twisted Cryptids ``advise``: one state per world from the move on, no
memo and no play shared between worlds.

Every world is played on its own from the position. The actor's information set is the
history they have seen: every move played (as :func:`describe` words it) and the kind of
every Sighting revealed. At a choice of the actor, the worlds with the same history take
the same move: the one with the largest total (actor's) counted score change over them,
then the smallest total for the leader, then the first legal move. Every other player
takes the first legal move. The horizon and the scoring are :mod:`cryptid_advise`'s
(:class:`~ruleslawyer.solvers.twisted_cryptids.advise.Frame`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

from ruleslawyer.models.twisted_cryptids.play import State, describe, legal_moves, step
from ruleslawyer.solvers.twisted_cryptids.advise import (
    Frame,
    Pair,
    World,
    _world,
    better,
    hidden_of_state,
    label,
    later_moves,
    leader_of,
    scoring_of,
    stacks_of,
)

History = tuple[str, ...]


def _seen(move_text: str, after: State) -> str:
    """What the actor sees of one move: its words and the kinds revealed so far."""
    kinds = [
        [after.game.cryptids[after.cryptids[p]].sightings[s].kind for _, s, _ in after.revealed[p]]
        for p in range(after.n)
    ]
    return f"{move_text} -> {kinds}"


def _play(frame: Frame, lines: Sequence[tuple[State, History]]) -> list[Pair]:
    """Per line (a world's state and what the actor has seen), the changes at the horizon."""
    out: list[Pair] = [(0, 0)] * len(lines)
    todo: dict[History, list[int]] = {}
    for i, (state, history) in enumerate(lines):
        if frame.done(state):
            out[i] = frame.score(state)
        else:
            todo.setdefault(history, []).append(i)
    for members in todo.values():
        states = [lines[i][0] for i in members]
        if states[0].actor() == frame.actor:
            best: list[Pair] | None = None
            for move in later_moves(states[0]):
                text = describe(states[0], move)
                nexts = [(step(s, move), lines[i][1]) for s, i in zip(states, members, strict=True)]
                values = _play(frame, [(n, (*h, _seen(text, n))) for n, h in nexts])
                if best is None or better(values, best):
                    best = values
            assert best is not None
            values = best
        else:
            nexts = []
            for s, i in zip(states, members, strict=True):
                move = legal_moves(s)[0]
                after = step(s, move)
                nexts.append((after, (*lines[i][1], _seen(describe(s, move), after))))
            values = _play(frame, nexts)
        for i, v in zip(members, values, strict=True):
            out[i] = v
    return out


def plain_means(
    state: State, worlds: Sequence[World], *, trait_known: bool = True
) -> dict[str, tuple[float, float]]:
    """Per move (described): the mean (actor, leader) counted score change, every world
    played from the position on its own (the references' shared last step)."""
    actor = state.actor()
    assert actor is not None
    frame = Frame(state, actor, leader_of(state, actor), scoring_of(state), trait_known)
    out = {}
    for move in legal_moves(state):
        text = describe(state, move)
        after = [step(replace(state, stacks=w), move) for w in worlds]
        res = _play(frame, [(n, (_seen(text, n),)) for n in after])
        out[label(state, move)] = (
            sum(a for a, _ in res) / len(res),
            sum(b for _, b in res) / len(res),
        )
    return out


def brute_force(state: State) -> dict[str, tuple[float, float]]:
    """Reference: per move (described), the mean (actor, leader) counted score change over
    every distinct ordering of every other player's unrevealed Sighting ids."""
    actor = state.actor()
    assert actor is not None
    per_player = [
        [(h.player, stacks_of(h, order)) for order in set(itertools.permutations(h.free))]
        for h in hidden_of_state(state, actor)
    ]
    worlds = [_world(state, dict(combo)) for combo in itertools.product(*per_player)]
    return plain_means(state, worlds)
