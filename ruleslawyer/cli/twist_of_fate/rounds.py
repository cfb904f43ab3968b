"""``twist-of-fate solve`` across round ends (``--horizon game``) and with hidden cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ruleslawyer.cli.common import progress
from ruleslawyer.errors import InputError
from ruleslawyer.models.twist_of_fate.play import ShortPile

if TYPE_CHECKING:
    from ruleslawyer.budget import Budget
    from ruleslawyer.models.twist_of_fate.files import Position
    from ruleslawyer.models.twist_of_fate.play import Rules

DEFAULT_ROUNDS = 1


def check_crossable(pos: Position, source: str) -> None:
    """The 2-player variant needs its cards out of play to cross a round end."""
    state = pos.state
    if state.monks is None:
        return
    if state.round == 1 and not state.saved:
        raise InputError(
            source,
            "player[0].saved",
            "nothing",
            "each player's saved cards (their second set's cards not drawn), to cross the "
            "2-player variant's first round end",
        )
    if state.round > 1 and len(state.unused) < 3:
        raise InputError(
            source,
            "unused",
            list(state.unused),
            "the cards set aside from earlier rounds (at least 3), to cross a 2-player "
            "variant's round end",
        )
    monks = state.seats[state.monks]
    most = len(monks.in_front) + len(monks.self_played) + sum(len(s.hand) for s in state.seats)
    if state.round > 1 and most < 3:
        found = f"at most {most} card(s) in front of the Monks"
        raise short_pile_error(
            source, ShortPile("monks.in_front", found, state.round), "on every line of play"
        )


def short_pile_error(
    source: str, short: ShortPile, where: str = "on some line of play within the horizon"
) -> InputError:
    """The one line for a round end that would draw from a pile of fewer than three cards."""
    return InputError(
        source,
        short.place,
        f"{short.found} at the end of round {short.round} {where}",
        "at least 3 (the Two-Player Variant draws three random cards from the unused cards "
        "and three from those in front of the Monks at each round end from round 2 on, and "
        "says nothing of fewer; a real game always has six): fewer --rounds, or a position "
        "with the cards a game has",
    )


def solve_rounds(
    pos: Position,
    source: str,
    rules: Rules,
    model: str,
    horizon: str,
    rounds: int | None,
    solver: str,
    budget: Budget,
) -> dict[str, Any]:
    """The analysis of ``pos`` as JSON, across round ends and/or over hidden cards."""
    if horizon == "round" and rounds is not None:
        raise click.UsageError("--rounds needs --horizon game")
    if horizon == "game" and solver != "numba":
        raise click.UsageError(
            "--horizon game has one solver (a memoised Python search, tested against a "
            "brute-force reference): drop --solver reference"
        )
    crossing = DEFAULT_ROUNDS if rounds is None else rounds
    if horizon == "game" and crossing > 0:
        check_crossable(pos, source)
    if pos.hidden:
        from ruleslawyer.solvers.twist_of_fate.hidden import evaluate_hidden, worlds

        found = worlds(pos, source, rules)
        progress(f"solving {len(found)} assignments of the hidden cards of {source} ...")
        try:
            return evaluate_hidden(
                pos, found, rules, model, budget,
                rounds=crossing if horizon == "game" else None, solver=solver,
            )  # fmt: skip
        except ShortPile as short:
            raise short_pile_error(source, short) from None
    from ruleslawyer.solvers.twist_of_fate.horizon import analyse_rounds
    from ruleslawyer.solvers.twist_of_fate.maxn import analysis_json

    progress(f"searching every line of play from {source} across {crossing} round end(s) ...")
    try:
        return analysis_json(pos, analyse_rounds(pos, rules, model, crossing, budget))
    except ShortPile as short:
        raise short_pile_error(source, short) from None
