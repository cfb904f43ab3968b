"""Cards the player to move does not know: determinized evaluation over every assignment.

A position's ``[[hidden]]`` tables name cards of a seat (in its hand, in front of it,
played in front of itself, or saved out of round 1) that the player to move cannot
see: ``count`` of them drawn from ``candidates``. Every assignment consistent with
what the player knows (each draw equally likely, the tables independent, no seat
over the six-card limit or its hand size) is a world; each world is solved with all
cards open, and every move of the player to move gets its weighted average over the
worlds and its worst case. That is determinized evaluation ("perfect-information
Monte Carlo" done exactly): it can overrate moves whose success needs knowledge the
player does not have.
"""

from __future__ import annotations

import time
from dataclasses import replace
from itertools import product
from typing import Any

from ruleslawyer.budget import Budget
from ruleslawyer.errors import InputError
from ruleslawyer.models.twist_of_fate.files import HiddenDoc, Position
from ruleslawyer.models.twist_of_fate.play import (
    HAND_2,
    HAND_3_4,
    LIMIT,
    MONKS,
    Move,
    Rules,
    State,
    _picks,
    count_toward_limit,
    seat_names,
)
from ruleslawyer.solvers.twist_of_fate.common import EVector, choose, expectation, move_json
from ruleslawyer.solvers.twist_of_fate.horizon import NO_CHANCE
from ruleslawyer.solvers.twist_of_fate.maxn import Analysis, analysis_json, vector_json

EVALUATION = (
    "determinized: every assignment of the hidden cards consistent with what the player to "
    "move knows is solved as if every card were open, and each move is scored by its "
    "weighted average over those worlds and by its worst case; this can overrate moves "
    "that need knowledge the player does not have"
)
PRIOR = (
    "each [[hidden]] table draws its count of cards from its candidates, every draw equally "
    "likely, the tables independent; assignments that put more cards in front of a seat "
    "than the six-card limit, or in a hand than it can hold, are impossible and dropped"
)
MOST_WORLDS = 4096

World = tuple[int, State]  # weight (equally likely draws), the state with the cards placed


def _target(pos: Position, entry: HiddenDoc, source: str, place: str) -> int:
    state = pos.state
    names = seat_names(state, pos.names)
    if entry.seat not in names:
        raise InputError(source, f"{place}.seat", entry.seat, f"one of {', '.join(names)}")
    seat = names.index(entry.seat)
    if seat == state.active and entry.place != "in_front":
        raise InputError(
            source, f"{place}.place", entry.place,
            "in_front: the player to move knows their own hand, saved cards and self-played "
            "cards",
        )  # fmt: skip
    if entry.seat == MONKS and entry.place != "in_front":
        raise InputError(source, f"{place}.place", entry.place, "in_front (the Monks hold none)")
    if entry.place == "saved" and (state.monks is None or state.round != 1):
        raise InputError(source, f"{place}.place", "saved", "saved only in round 1 of 2 players")
    for i, card in enumerate(entry.candidates):
        if card not in pos.deck.names:
            expected = f"a character of the deck ({', '.join(pos.deck.names)})"
            raise InputError(source, f"{place}.candidates[{i}]", card, expected)
    if entry.count > len(entry.candidates):
        expected = f"at most {len(entry.candidates)} (the candidates)"
        raise InputError(source, f"{place}.count", entry.count, expected)
    return seat


def _place(state: State, seat: int, where: str, cards: tuple[str, ...], pos: Position) -> State:
    sort = pos.deck.sort
    if where == "saved":
        saved = list(state.saved or ((), ()))
        saved[seat] = sort(saved[seat] + cards)
        return replace(state, saved=tuple(saved))
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], **{where: sort(getattr(seats[seat], where) + cards)})
    return replace(state, seats=tuple(seats))


def _possible(state: State, rules: Rules) -> bool:
    most = HAND_2 if state.monks is not None else HAND_3_4
    return all(count_toward_limit(s, rules) <= LIMIT and len(s.hand) <= most for s in state.seats)


def worlds(pos: Position, source: str, rules: Rules | None = None) -> list[World]:
    """Every consistent assignment of the hidden cards, with its weight; InputError if the
    ``[[hidden]]`` tables are malformed or allow no world."""
    rules = rules or Rules()
    targets = [_target(pos, e, source, f"hidden[{i}]") for i, e in enumerate(pos.hidden)]
    draws = [_picks(pos.deck.sort(e.candidates), e.count) for e in pos.hidden]
    total = 1
    for d in draws:
        total *= len(d)
    if total > MOST_WORLDS:
        raise InputError(source, "hidden", f"{total} assignments", f"at most {MOST_WORLDS}")
    out: list[World] = []
    for combo in product(*draws):
        state, weight = pos.state, 1
        for entry, seat, (taken, _, w) in zip(pos.hidden, targets, combo, strict=True):
            state = _place(state, seat, entry.place, taken, pos)
            weight *= w
        if _possible(state, rules):
            out.append((weight, state))
    if not out:
        raise InputError(source, "hidden", "no possible assignment", "at least one")
    return out


def evaluate_hidden(
    pos: Position,
    found: list[World],
    rules: Rules,
    model: str,
    budget: Budget,
    *,
    rounds: int | None = None,
    solver: str = "numba",
) -> dict[str, Any]:
    """Every move's weighted average and worst case over the worlds, as JSON."""
    began = time.perf_counter()
    results: list[Analysis] = []
    for _, state in found:
        world = Position(state, pos.names, pos.deck, pos.rulings)
        results.append(_solve(world, rules, model, budget, rounds, solver))
        if not results[-1].finished:
            break
    return hidden_json(pos, found, results, time.perf_counter() - began)


def _solve(
    world: Position, rules: Rules, model: str, budget: Budget, rounds: int | None, solver: str
) -> Analysis:
    if rounds is not None:
        from ruleslawyer.solvers.twist_of_fate.horizon import analyse_rounds

        return analyse_rounds(world, rules, model, rounds, budget)
    from ruleslawyer.solvers.twist_of_fate.maxn import analyse

    return analyse(world, rules, model, budget, solver=solver)


def score_moves(
    found: list[World], per_world: list[dict[Move, EVector]], mover: int
) -> list[tuple[Move, EVector, EVector]]:
    """Each move (in legal-move order) with its weighted average vector and the vector of
    the world where the mover fares worst (of equally bad ones, the smallest vector)."""
    out = []
    for move in per_world[0]:
        vectors = [values[move] for values in per_world]
        average = expectation([(w, v) for (w, _), v in zip(found, vectors, strict=True)])
        # Worlds equally bad for the mover: the smallest vector in seat order (order-free).
        worst = min(vectors, key=lambda v: (v[mover], v))
        out.append((move, average, worst))
    return out


def hidden_json(
    pos: Position, found: list[World], results: list[Analysis], seconds: float
) -> dict[str, Any]:
    state, deck = pos.state, pos.deck
    names = seat_names(state, pos.names)
    mover = state.active
    # The assumptions of a world that met chance nodes, if any did (they all share the rest).
    shown = next((r for r in results if r.chance and r.chance != NO_CHANCE), results[0])
    head = analysis_json(pos, replace(shown, scored=(), line=()))
    out: dict[str, Any] = {
        key: head[key]
        for key in ("player", "model", "utility", "tie_break", "horizon", "chance", "chance_ties")
        if key in head
    }
    weights = sum(w for w, _ in found)
    out["hidden"] = {
        "evaluation": EVALUATION,
        "prior": PRIOR,
        "worlds": len(found),
        "equally_likely_draws": weights,
    }
    finished = len(results) == len(found) and all(r.finished for r in results)
    if finished:
        per_world = [dict(r.scored) for r in results]
        scored = score_moves(found, per_world, mover)
        model = results[0].model
        pick = choose([avg for _, avg, _ in scored], mover, model, mover)
        safest = max(range(len(scored)), key=lambda i: (scored[i][2][mover], -i))
        out["best_move"] = move_json(scored[pick][0], mover, names, deck)
        out["value"] = vector_json(names, scored[pick][1])
        out["safest_move"] = move_json(scored[safest][0], mover, names, deck)
        out["moves"] = [
            {
                "move": move_json(m, mover, names, deck),
                "average": vector_json(names, avg),
                "worst_case": vector_json(names, worst),
            }
            for m, avg, worst in scored
        ]
    else:
        out.update(best_move=None, value=None, safest_move=None, moves=None)
    out.update(states=sum(r.states for r in results), seconds=seconds, finished=finished)
    return out
