"""Turning played games into logs: what one player saw, as a log document and as TOML.

:func:`events_of` maps one move of the state machine to the log events it
produces from a player's chair; :func:`play_and_record` plays a whole game
with a chooser and returns the log document with the truth beside it (the
deal and the outcomes of the swaps the perspective player did not make), so
tests can check the truth is always among the deduced worlds.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ruleslawyer.models.cunning_folk.play import (
    ALLEGE,
    CHALLENGE,
    OVER,
    Rules,
    State,
    Table,
    legal_moves,
    start,
    step,
)
from ruleslawyer.models.cunning_folk.village import CELLS, Setup

Chooser = Callable[[State, tuple[str, ...]], str]


@dataclass(frozen=True)
class Recording:
    document: dict[str, Any]  # the log, as parsed TOML would give it
    deal: tuple[str, ...]
    hidden: tuple[bool, ...]  # outcomes of the swaps the perspective did not make
    final: State
    moves: tuple[str, ...]


def events_of(
    before: State,
    move: str,
    after: State,
    names: Sequence[str],
    perspective: int | None,
    rules: Rules | None = None,
) -> list[dict[str, Any]]:
    """The log events ``move`` produces, as seen from ``perspective``'s chair."""
    word, *args = move.split()
    player = names[before.player]
    mine = before.player == perspective
    if before.phase == ALLEGE and word == "pass":
        event = {"type": "pass", "player": player, "cell": CELLS[before.cell]}
        return [{**event, "saw": before.village[before.cell]} if mine else event]
    if before.phase == CHALLENGE and (after.phase != CHALLENGE):
        challenged = bool(before.challengers) or word != "accept"
        event = {
            "type": "claim",
            "player": player,
            "cell": CELLS[before.cell],
            "role": before.claim,
            "challenged": challenged,
        }
        if challenged:
            event["revealed"] = before.village[before.cell]
            late = (before.responder,) if word == "challenge" else ()
            event["challengers"] = [names[p] for p in (*before.challengers, *late)]
        if mine:
            event["saw"] = before.village[before.cell]
        return [event]
    if word == "swap":
        event = {"type": "swap", "player": player, "cells": [args[0], args[1]]}
        # Under only-if-swapped a face-up card stays up only when not swapped: all see it.
        public = (
            rules is not None
            and rules.swap_face_up == "only-if-swapped"
            and any(before.face_up[CELLS.index(c)] for c in args[:2])
        )
        return [{**event, "swapped": args[2] == "swapped"} if mine or public else event]
    if word == "trade":
        return [{"type": "trade", "player": player, "cells": [CELLS[before.cell], args[0]]}]
    if word in ("pick", "reveal"):
        cell = args[0]
        who = names[before.actor]
        return [
            {
                "type": "reveal",
                "player": who,
                "cell": cell,
                "revealed": before.village[CELLS.index(cell)],
            }
        ]
    return []


def play_and_record(
    table: Table,
    deal: tuple[str, ...],
    choose: Chooser,
    *,
    names: Sequence[str],
    perspective: int | None,
    max_moves: int,
    setup_keys: dict[str, Any] | None = None,
) -> Recording:
    """Play from ``deal`` with ``choose`` for at most ``max_moves`` moves, logging every event."""
    state = start(table, deal)
    events: list[dict[str, Any]] = []
    hidden: list[bool] = []
    moves: list[str] = []
    while state.phase != OVER and len(moves) < max_moves:
        move = choose(state, legal_moves(table, state))
        after = step(table, state, move)
        if move.startswith("swap") and state.player != perspective:
            hidden.append(move.endswith("swapped"))
        events += events_of(state, move, after, names, perspective, table.rules)
        moves.append(move)
        state = after
    document: dict[str, Any] = {**_setup_keys(table.setup, setup_keys), "players": list(names)}
    rulings = _rulings(table.rules)
    if rulings:
        document["rulings"] = rulings
    if perspective is not None:
        document["perspective"] = names[perspective]
    document["event"] = events
    return Recording(document, deal, tuple(hidden), state, tuple(moves))


def _rulings(rules: Rules) -> dict[str, str]:
    """The readings of ``rules`` that are not the default, as a log's ``rulings`` table."""
    default = Rules()
    return {
        f"cunning-folk/{name.replace('_', '-')}": getattr(rules, name)
        for name in Rules.__dataclass_fields__
        if getattr(rules, name) != getattr(default, name)
    }


def _setup_keys(setup: Setup, given: dict[str, Any] | None) -> dict[str, Any]:
    return dict(given) if given else {"setup": setup.name}


def dump_log(document: dict[str, Any]) -> str:
    """A log document as TOML (top-level keys, then one ``[[event]]`` table per event)."""
    lines = [f"{key} = {_value(value)}" for key, value in document.items() if key != "event"]
    for event in document.get("event", []):
        lines += ["", "[[event]]"]
        lines += [f"{key} = {_value(value)}" for key, value in event.items()]
    return "\n".join(lines) + "\n"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_value(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} to a log")
