"""``ruleslawyer cunning-folk``: deduce where the townsfolk are from a log of play."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ruleslawyer.cli.common import (
    EXIT_UNFINISHED,
    INPUT_FILE,
    Number,
    ascii_number,
    emit,
    format_option,
    one_line_errors,
    output_option,
    progress,
    ruling_option,
)
from ruleslawyer.cli.cunning_folk.balance import balance
from ruleslawyer.cli.cunning_folk.options import SECONDS
from ruleslawyer.models.cunning_folk.village import CELLS
from ruleslawyer.schemas import dumps as json_text

F = TypeVar("F", bound=Callable[..., Any])


@click.group(name="cunning-folk")
def group() -> None:
    """Cunning Folk: deduction from a log of play."""


ODDS_PART = Number("", whole=True, least=0, most=10**9)


def _odds(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, int]:
    swapped, sep, kept = value.partition(":")
    odds = tuple(
        ascii_number(part, whole=True) if part.isascii() and part.isdigit() else None
        for part in (swapped, kept)
    )
    if sep and all(n is not None and ODDS_PART.in_range(n) for n in odds) and any(odds):
        return int(odds[0] or 0), int(odds[1] or 0)
    raise click.BadParameter(
        f"found {value!r}, expected SWAPPED:KEPT, two whole numbers from 0 to 10^9 (ASCII "
        "digits), not both 0"
    )


def _log_command(func: F) -> F:
    """The options every command reading a log shares: the log, its format, rulings, odds."""
    for option in reversed(
        (
            click.argument("log_file", metavar="LOG.toml", type=INPUT_FILE),
            format_option(("text", "json")),
            output_option,
            ruling_option,
            click.option(
                "--swap-odds",
                default="1:1",
                show_default=True,
                callback=_odds,
                metavar="SWAPPED:KEPT",
                help="How a hidden evil-witch swap is weighted: swapped against kept as they were.",
            ),
            click.option(
                "--max-seconds",
                type=SECONDS,
                default=60.0,
                show_default=True,
                help="Stop after this many seconds and report finished: false.",
            ),
        )
    ):
        func = option(func)
    return func


def _read_log(log_file: Path, rulings: tuple[str, ...]) -> tuple[dict[str, Any], Any]:
    """The log file's document and the log parsed under its rulings and ``--ruling``."""
    from ruleslawyer.findings import parse_ruling_options
    from ruleslawyer.gamefiles.source import read_toml
    from ruleslawyer.models.cunning_folk.log import parse_log

    _, document = read_toml(log_file, display=str(log_file))
    return document, parse_log(document, str(log_file), parse_ruling_options(rulings))


@group.command()
@_log_command
@one_line_errors
def deduce(
    log_file: Path,
    fmt: str,
    output: Path | None,
    rulings: tuple[str, ...],
    swap_odds: tuple[int, int],
    max_seconds: float,
) -> None:
    """Where each townsfolk can be now, with exact world counts, and each elder's best run.

    The log must be one a legal game produces under the rulings in force (the log's
    [rulings] table, then --ruling); a log none does exits 2 naming the event and rule.

    \b
    LOG.toml: `setup`, `players`, `perspective`, then one [[event]] per thing that player saw
    (peek, claim, swap, reveal, ...). Examples: examples/cunning-folk/*.toml.
    """
    from ruleslawyer.solvers.cunning_folk.deduce import deduce as run
    from ruleslawyer.solvers.cunning_folk.deduce import render_text

    _, log = _read_log(log_file, rulings)
    progress(f"counting the worlds that fit {log_file} ...")
    result = run(log, odds=swap_odds, max_seconds=max_seconds)
    text = json_text(result) if fmt == "json" else render_text(result, log)
    emit(text, output)
    if not result["finished"]:
        raise SystemExit(EXIT_UNFINISHED)


@group.command()
@_log_command
@one_line_errors
def advise(
    log_file: Path,
    fmt: str,
    output: Path | None,
    rulings: tuple[str, ...],
    swap_odds: tuple[int, int],
    max_seconds: float,
) -> None:
    """Advice for the log's perspective player: challenge or accept, where to look, elder runs.

    A log ending in another player's unchallenged claim has that claim pending: its exact
    chance of being true, and challenging against accepting under the penalties. Every
    cell is ranked by the expected bits that investigating it gives about the village's
    allegiances; each elder run's chance is that of a run started now, unchallenged.

    \b
    LOG.toml: a log as for `deduce`, with a `perspective` player (the one advised).
    Examples: examples/cunning-folk/*.toml.
    """
    from ruleslawyer.solvers.cunning_folk.advise import advise as run
    from ruleslawyer.solvers.cunning_folk.advise import pending_claim, render_text
    from ruleslawyer.solvers.cunning_folk.answers import answerers_text, others_answer
    from ruleslawyer.solvers.cunning_folk.equilibrium import pending_figure

    document, log = _read_log(log_file, rulings)
    _still_playing(log, str(log_file))
    progress(f"advising from {log_file} ...")
    claim = pending_claim(document, log)
    result = run(
        log,
        claim,
        odds=swap_odds,
        max_seconds=max_seconds,
        equilibrium=pending_figure,
        answerers=(others_answer, answerers_text(log.rules.challenge_order)),
    )
    text = json_text(result) if fmt == "json" else render_text(result, log)
    emit(text, output)
    if not result["finished"]:
        raise SystemExit(EXIT_UNFINISHED)


def _still_playing(log: Any, shown: str) -> None:
    """Refuse a log whose game is over, or whose perspective player is out: no move to advise."""
    from ruleslawyer.errors import InputError
    from ruleslawyer.solvers.cunning_folk.advise import check_in_game

    if log.marks_stated:
        check_in_game(log, None)  # a stated table is refused at its own place
    if log.standing.over:
        place = f"event[{len(log.events) - 1}]"
        raise InputError(
            shown, place, f"the game over ({log.standing.over})", "a game still going to advise on"
        )
    if log.perspective in log.standing.ostracised:
        raise InputError(
            shown, "perspective", f"{log.perspective} (ostracised)", "a player still in the game"
        )


@group.command()
@_log_command
@click.option(
    "--cell",
    type=click.Choice(CELLS),
    default=None,
    help="The cell the claimant looks at (default: she chooses it; three or four players: "
    "the pending claim's cell).",
)
@one_line_errors
def equilibrium(
    log_file: Path,
    fmt: str,
    output: Path | None,
    rulings: tuple[str, ...],
    swap_odds: tuple[int, int],
    max_seconds: float,
    cell: str | None,
) -> None:
    """The claim stage at equilibrium: where to look, how often to bluff, how often to challenge.

    Two players: the other player (the claimant), in each information state she may be in
    (what she has seen alone), chooses a cell to look at (or looks at --cell), sees the card
    and passes or claims; the perspective challenges or accepts. Each decides from their own
    worlds; payoffs are each seat's value (+1 win, -1 loss, a game that goes on at its
    sampled continuation value). Exact, checked by exact best responses. With three or four
    players still in, the pending claim's player claims at its cell and every other player
    answers in turn, each from their own knowledge: an approximate equilibrium by CFR+,
    with its measured NashConv.

    \b
    LOG.toml: a log as for `deduce`, with a `perspective` player (the challenger).
    Example: examples/cunning-folk/bluff-or-not.toml.
    """
    from ruleslawyer.errors import InputError
    from ruleslawyer.models.cunning_folk.village import CELL_INDEX
    from ruleslawyer.solvers.cunning_folk.advise import pending_claim
    from ruleslawyer.solvers.cunning_folk.cfr import MULTI
    from ruleslawyer.solvers.cunning_folk.equilibrium import equilibrium as run
    from ruleslawyer.solvers.cunning_folk.equilibrium import render_text

    document, log = _read_log(log_file, rulings)
    _still_playing(log, str(log_file))
    claim = pending_claim(document, log)
    if cell is not None and claim is not None and CELL_INDEX[cell] != claim.cell:
        raise InputError(
            str(log_file),
            "--cell",
            cell,
            f"the pending claim's cell {CELLS[claim.cell]} (or no --cell)",
        )
    where = CELL_INDEX[cell] if cell is not None else None
    progress(f"solving the claim stage of {log_file} ...")
    result = run(log, where, claim, odds=swap_odds, max_seconds=max_seconds, multi=MULTI)
    text = json_text(result) if fmt == "json" else render_text(result, log, MULTI)
    emit(text, output)
    if not result["finished"]:
        raise SystemExit(EXIT_UNFINISHED)


group.add_command(balance)
