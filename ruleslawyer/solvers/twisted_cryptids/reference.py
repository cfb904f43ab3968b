"""Plain reference for Twisted Cryptids ``advise``: one state per world from the move on, no
memo and no play shared between worlds.

Every world is played on its own from the position. The actor's information set is the
history they have seen: every move played (as :func:`describe` words it) and the kind of
every Sighting revealed. At every choice of the actor within the horizon (a later Day turn
of theirs with every card, target and Power, a tied Site, a reveal's targets, the last
Night), the worlds with the same history take the same move, tried in turn among all their
legal moves: the one with the largest total (actor's) counted score change over them, then
the smallest total for the leader, then the first legal move. With ``later_turns`` set, the
actor's later Day turns after that many (counted from the position, its own move not one of
them) pass. Every other player takes the first legal move. The horizon and the scoring are
:mod:`~ruleslawyer.solvers.twisted_cryptids.advise`'s
(:class:`~ruleslawyer.solvers.twisted_cryptids.advise.Frame`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

from ruleslawyer.models.twisted_cryptids.play import (
    GameMove,
    Pass,
    State,
    describe,
    legal_moves,
    step,
)
from ruleslawyer.solvers.twisted_cryptids.advise import (
    Frame,
    Pair,
    World,
    _world,
    hidden_of_state,
    label,
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


def _options(frame: Frame, state: State) -> tuple[GameMove, ...]:
    """The actor's moves at a later choice: every legal one, or Pass on a Day turn that comes
    after the first ``frame.later_turns`` of their Day turns after the position."""
    if frame.later_turns is None or state.phase != "day":
        return legal_moves(state)
    root, n = frame.root, state.n
    # the Day turns (0 .. 3n - 1) the actor had after the position, up to this one
    first = root.turn + 1 if root.phase == "day" else 0
    mine = [t for t in range(first, state.turn + 1) if (root.first + t) % n == frame.actor]
    return legal_moves(state) if len(mine) <= frame.later_turns else (Pass(),)


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
            tried = []
            for move in _options(frame, states[0]):
                text = describe(states[0], move)
                nexts = [(step(s, move), lines[i][1]) for s, i in zip(states, members, strict=True)]
                tried.append(_play(frame, [(n, (*h, _seen(text, n))) for n, h in nexts]))
            # the most for the actor, then the least for the leader, then the first listed
            _, values = max(
                enumerate(tried),
                key=lambda iv: (sum(a for a, _ in iv[1]), -sum(b for _, b in iv[1]), -iv[0]),
            )
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
    state: State,
    worlds: Sequence[World],
    *,
    trait_known: bool = True,
    later_turns: int | None = None,
) -> dict[str, tuple[float, float]]:
    """Per move (described): the mean (actor, leader) counted score change, every world
    played from the position on its own (the references' shared last step)."""
    actor = state.actor()
    assert actor is not None
    frame = Frame(
        state, actor, leader_of(state, actor), scoring_of(state), trait_known, later_turns
    )
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


def brute_force(state: State, later_turns: int | None = None) -> dict[str, tuple[float, float]]:
    """Reference: per move (described), the mean (actor, leader) counted score change over
    every distinct ordering of every other player's unrevealed Sighting ids."""
    actor = state.actor()
    assert actor is not None
    per_player = [
        [(h.player, stacks_of(h, order)) for order in set(itertools.permutations(h.free))]
        for h in hidden_of_state(state, actor)
    ]
    worlds = [_world(state, dict(combo)) for combo in itertools.product(*per_player)]
    return plain_means(state, worlds, later_turns=later_turns)
