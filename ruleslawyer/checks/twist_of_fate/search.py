"""The seeded playout search behind Twist of Fate's checks, and how its witnesses are written.

Playouts start from the real set-up of a game (3 players, or the 2-player variant's
random deal) and take round ends and the variant's random draws from the model's
chance outcomes. The record of a playout names every move and every round's start
with the hands dealt, so that a witness can be replayed from the start
(:func:`describe`, :func:`describe_round`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ruleslawyer.findings import Finding, RulePoint, Witness, point_finding
from ruleslawyer.models.twist_of_fate.files import state_document
from ruleslawyer.models.twist_of_fate.play import (
    FACE_DOWN,
    MONKS,
    Deck,
    Move,
    Rules,
    State,
    chance_outcomes,
    legal_moves,
    play,
    start,
    start_two_player,
)

GAME = "twist-of-fate"
SEED = 20161
MAX_PLIES = 600
MAX_QUIET_ROUNDS = 200
NAMES_3 = ("ann", "bob", "cat")
NAMES_2 = ("ann", "bob")

# A goal looks at a turn and a move; it returns each reading's result when the move
# makes the situation happen (and the readings part, where that is asked), else None.
Goal = Callable[[State, Move, Deck, Rules], dict[str, Any] | None]


# A steering policy picks the playout's move (uniformly at random when there is none).
Steer = Callable[[random.Random, State, tuple[Move, ...], Deck, Rules], Move]


def race(
    rng: random.Random, state: State, moves: tuple[Move, ...], deck: Deck, rules: Rules
) -> Move:
    """Mostly a move that makes someone score: drives the game toward its end."""
    if rng.random() < 0.8:
        scoring = [
            m
            for m in moves
            if sum(s.sanctuary for s in play(state, m, deck, rules).seats)
            > sum(s.sanctuary for s in state.seats)
        ]
        if scoring:
            return rng.choice(scoring)
    return rng.choice(moves)


def neck_and_neck(
    rng: random.Random, state: State, moves: tuple[Move, ...], deck: Deck, rules: Rules
) -> Move:
    """Half the time the move that best lifts the Monks and the leading player together."""
    if rng.random() < 0.5:
        return rng.choice(moves)

    def level(m: Move) -> tuple[int, int, float]:
        seats = play(state, m, deck, rules).seats
        lead = max(s.sanctuary for s in seats[:-1])
        monks = seats[-1].sanctuary
        return monks - 2 * max(0, lead - monks - 1), lead + monks, rng.random()

    return max(moves, key=level)


def primed(
    rng: random.Random, state: State, moves: tuple[Move, ...], deck: Deck, rules: Rules
) -> Move:
    """Half the time :func:`race`; otherwise mostly a move that leaves the seat it is played
    on (the Monks first) at 3 Luck and 3 Shilling, one play from scoring both at once."""
    if rng.random() < 0.5:
        return race(rng, state, moves, deck, rules)
    if rng.random() < 0.2:
        return rng.choice(moves)

    def level(m: Move) -> tuple[int, int, float]:
        seat = play(state, m, deck, rules).seats[m.target]
        near = -abs(3 - seat.luck) - abs(3 - seat.shilling)
        return near, int(m.target == state.monks), rng.random()

    return max(moves, key=level)


def paired(
    rng: random.Random, state: State, moves: tuple[Move, ...], deck: Deck, rules: Rules
) -> Move:
    """Now and then :func:`race` or a random move; otherwise mostly the move that keeps the
    two leading players' Sanctuary level, then leaves the seat it is played on nearest 3 Luck
    and 3 Shilling (one play from scoring both at once)."""
    if rng.random() < 0.3:
        return race(rng, state, moves, deck, rules)
    if rng.random() < 0.2:
        return rng.choice(moves)

    def level(m: Move) -> tuple[int, int, float]:
        seats = play(state, m, deck, rules).seats
        first, second = sorted((s.sanctuary for s in seats[: state.players]), reverse=True)[:2]
        seat = seats[m.target]
        near = -abs(3 - seat.luck) - abs(3 - seat.shilling)
        return second - 2 * max(0, first - second - 1), near, rng.random()

    return max(moves, key=level)


@dataclass(frozen=True)
class Hit:
    before: State
    move: Move
    record: tuple[str, ...]
    results: dict[str, Any]
    playouts: int


@dataclass(frozen=True)
class Miss:
    playouts: int
    finished: bool = False


# --- the search ---------------------------------------------------------------------


def pick(rng: random.Random, outcomes: tuple[tuple[int, State], ...]) -> State:
    weights = [w for w, _ in outcomes]
    return rng.choices([s for _, s in outcomes], weights=weights)[0]


def describe(move: Move, state: State, names: tuple[str, ...]) -> str:
    seats = names + ((MONKS,) if state.monks is not None else ())
    who, to = seats[state.active], seats[move.target]
    if move.play == FACE_DOWN:
        how = f"face-down ({who} raises {move.player_raises}"
        how += f", {to} raises {move.target_raises})" if move.target_raises else ")"
    else:
        how = f"face-up, side {move.side} facing {to}"
    return f"{who} plays {move.card} on {to}, {how}"


def describe_round(state: State, names: tuple[str, ...]) -> str:
    """A round's start as the record shows it: who starts, and every hand dealt."""
    hands = "; ".join(
        f"{names[p]} holds {', '.join(state.seats[p].hand) or 'nothing'}"
        for p in range(state.players)
    )
    return f"round {state.round} begins; {names[state.active]} starts; {hands}"


def seat_results(
    point: RulePoint, state: State, move: Move, deck: Deck, rules: Rules, names: tuple[str, ...]
) -> dict[str, Any]:
    """Every seat's Luck, Shilling and Sanctuary (and the winner) after ``move`` under each
    reading of ``point``."""
    return {
        r.name: seat_json(under(state, move, deck, rules, **{field(point): r.name}), names)
        for r in point.readings
    }


def field(point: RulePoint) -> str:
    """The :class:`Rules` field that holds ``point``'s reading."""
    return point.id.split("/", 1)[1].replace("-", "_")


def parted(results: Mapping[str, Any]) -> bool:
    """Whether the readings' results differ."""
    return len({repr(v) for v in results.values()}) > 1


def search(
    starts: Callable[[random.Random], State],
    goal: Goal,
    deck: Deck,
    rules: Rules,
    names: tuple[str, ...],
    seconds: float,
    *,
    max_playouts: int = 400,
    steer: Steer | None = None,
    probe: Rules | None = None,
) -> Hit | Miss:
    """Seeded playouts from the start; the first turn where ``goal`` fires is the witness.

    Play follows ``rules``; the goal is tried on the moves legal under ``probe`` (by
    default ``rules``: a reading that forbids a move can still be shown the move)."""
    rng = random.Random(SEED)
    deadline = time.monotonic() + seconds
    for n in range(1, max_playouts + 1):
        state = starts(rng)
        record: list[str] = [describe_round(state, names)]
        for _ in range(MAX_PLIES):
            if state.over:
                break
            if state.round_over:
                outcomes = chance_outcomes(state, deck, rules)
                if not outcomes:  # no next round the rules can deal (a pile under three)
                    break
                state = pick(rng, outcomes)
                record.append(describe_round(state, names))
                continue
            moves = legal_moves(state, deck, rules)
            if not moves:  # cards in hand and nowhere to play: the playout cannot go on
                break
            tried = moves if probe is None else legal_moves(state, deck, probe)
            for move in tried:
                results = goal(state, move, deck, rules)
                if results is not None:
                    record.append(describe(move, state, names))
                    return Hit(state, move, tuple(record), results, n)
            move = rng.choice(moves) if steer is None else steer(rng, state, moves, deck, rules)
            record.append(describe(move, state, names))
            state = play(state, move, deck, rules)
            if time.monotonic() > deadline:
                return Miss(n)
    return Miss(max_playouts)


def three_player(deck: Deck) -> Callable[[random.Random], State]:
    return lambda rng: start(3, deck)


def two_player(deck: Deck) -> Callable[[random.Random], State]:
    outcomes = start_two_player(deck)
    return lambda rng: pick(rng, outcomes)


def position_json(state: State, names: tuple[str, ...]) -> dict[str, Any]:
    """A state as the position file's fields, with the round."""
    return {"round": state.round, **state_document(state, names)}


def seat_json(state: State, names: tuple[str, ...]) -> dict[str, Any]:
    seats = names + ((MONKS,) if state.monks is not None else ())
    out: dict[str, Any] = {
        seats[i]: {"luck": s.luck, "shilling": s.shilling, "sanctuary": s.sanctuary}
        for i, s in enumerate(state.seats)
    }
    if state.winner is not None:
        out["winner"] = seats[state.winner]
    return out


def under(state: State, move: Move, deck: Deck, rules: Rules, **reading: str) -> State:
    return play(state, move, deck, replace(rules, **reading))


def finding(
    point: Any,
    rulings: Mapping[str, str],
    found: Hit | Miss,
    names: tuple[str, ...],
    *,
    hit_message: str,
    miss_message: str,
    description: str,
    parted: bool = True,
) -> Finding:
    if isinstance(found, Miss):
        return point_finding(
            point,
            rulings=rulings,
            parted=False,
            finished=False,
            searched=found.playouts,
            message=miss_message + f" (searched {found.playouts} seeded playouts).",
        )
    witness = Witness(
        description=description,
        position=position_json(found.before, names),
        results=found.results,
        moves=found.record,
    )
    return point_finding(
        point,
        rulings=rulings,
        parted=parted,
        witness=witness,
        searched=found.playouts,
        message=hit_message,
    )
