"""``ruleslawyer kaelyfos``: resolve a bloodsucker behaviour card on a position."""

from __future__ import annotations

from pathlib import Path

import click

from ruleslawyer.cli.common import (
    EXIT_UNFINISHED,
    emit,
    format_option,
    max_seconds_option,
    one_line_errors,
    output_option,
    ruling_option,
    whole,
)
from ruleslawyer.schemas import dumps as json_text


@click.group()
def group() -> None:
    """Unsettled: Kaelyfos: resolve bloodsucker behaviour cards."""


@group.command()
@click.argument("position_file", metavar="POSITION.toml", type=click.Path(path_type=Path))
@ruling_option
@max_seconds_option
@format_option(("text", "json"))
@output_option
@one_line_errors
def step(
    position_file: Path,
    rulings: tuple[str, ...],
    max_seconds: float | None,
    fmt: str,
    output: Path | None,
) -> None:
    """Resolve the position's behaviour card: spawn, move, attack, in the rulebook's order.

    Prints the result under the readings in force, every open rule point whose other
    reading would change it, and the choices (the crew's, and ties the rules leave open).
    Rulings come from the board file, then the position file, then --ruling.

    \b
    POSITION.toml: `board` (built-in id or a path), `nests`, `supply`, `explorers`,
    `bloodsuckers`, `traps`, the `[card]` to resolve. Examples: examples/kaelyfos/*.toml.

    With --max-seconds, the result under the readings in force is always resolved; the
    other readings and options left when the budget runs out are cut: finished: false, exit 3.
    """
    from ruleslawyer.budget import Budget
    from ruleslawyer.cli.kaelyfos.text import render
    from ruleslawyer.models.kaelyfos.files import load_position
    from ruleslawyer.models.kaelyfos.resolve import step as resolve_card

    loaded = load_position(position_file)
    chosen = _rulings(loaded.position.board.rulings, loaded.rulings, rulings, position_file)
    outcome = resolve_card(loaded.position, chosen, Budget(max_seconds))
    if fmt == "json":
        emit(json_text(outcome.to_json()), output)
    else:
        emit(render(outcome, chosen), output)
    if not outcome.finished:
        raise SystemExit(EXIT_UNFINISHED)


@group.command()
@click.argument("timeline_file", metavar="TIMELINE.toml", type=click.Path(path_type=Path))
@ruling_option
@format_option(("text", "json"))
@output_option
@one_line_errors
def advance(timeline_file: Path, rulings: tuple[str, ...], fmt: str, output: Path | None) -> None:
    """Advance the time marker: which behaviour cards the triggers it reaches reveal.

    Prints the cards revealed under the readings in force (each as the cards it could
    be) and every open timeline rule point whose other reading would change them.
    """
    from ruleslawyer.cli.kaelyfos.text import render_reveal
    from ruleslawyer.models.kaelyfos.files import load_timeline
    from ruleslawyer.models.kaelyfos.timeline import reveal_with_divergences

    loaded = load_timeline(timeline_file)
    chosen = _rulings(loaded.board.rulings, loaded.rulings, rulings, timeline_file)
    out = reveal_with_divergences(loaded.timeline, chosen)
    if fmt == "json":
        emit(json_text(out), output)
    else:
        emit(render_reveal(out), output)


@group.command()
@click.argument("advice_file", metavar="POSITION.toml", type=click.Path(path_type=Path))
@click.option(
    "--triggers",
    type=whole("triggers", most=6),
    default=1,
    show_default=True,
    help="Horizon: how many timeline triggers (behaviour cards) to score over.",
)
@click.option(
    "--open-ties",
    "open_ties",
    type=click.Choice(["uniform", "worst", "best"]),
    default="uniform",
    show_default=True,
    help="A choice the rules leave open (pheromone tie, move order): each option equally "
    "likely, the worst for the crew, or the best. The others are shown where they re-rank.",
)
@ruling_option
@max_seconds_option
@format_option(("text", "json"))
@output_option
@one_line_errors
def advise(
    advice_file: Path,
    triggers: int,
    open_ties: str,
    rulings: tuple[str, ...],
    max_seconds: float | None,
    fmt: str,
    output: Path | None,
) -> None:
    """The crew's best free actions before the next behaviour card.

    Ranks every sequence of free actions (build a trap on an empty build site,
    spending material; destroy a trap; any number, merged by the position they
    leave) by the exact expected distress over the next --triggers behaviour cards,
    drawn uniformly without replacement from the board's deck less the spent cards,
    the crew acting again before each later trigger once it has seen the cards
    (explorers stay put); then expected waking nightmares, then the worst case.
    Shows every open rule point (and open-tie reading) that re-ranks the options.

    \b
    POSITION.toml: a position file without [card] or actions, plus `material`
    (an integer) and `spent` (behaviour card names already revealed).
    Example: examples/kaelyfos/advise.toml.
    """
    from ruleslawyer.budget import Budget
    from ruleslawyer.cli.kaelyfos.advise_text import render_advice
    from ruleslawyer.models.kaelyfos.advice_file import load_advice
    from ruleslawyer.solvers.kaelyfos.advise import advise as rank_actions
    from ruleslawyer.solvers.kaelyfos.advise import refuse_oversized

    loaded = load_advice(advice_file)
    refuse_oversized(loaded.position.board, triggers, str(advice_file))
    chosen = _rulings(loaded.position.board.rulings, loaded.rulings, rulings, advice_file)
    advice = rank_actions(
        loaded.position,
        loaded.material,
        loaded.spent,
        triggers,
        chosen,
        Budget(max_seconds),
        open_ties,
    )
    if fmt == "json":
        emit(json_text(advice.to_json()), output)
    else:
        emit(render_advice(advice), output)
    if not advice.finished:
        raise SystemExit(EXIT_UNFINISHED)


def _rulings(
    board: tuple[tuple[str, str], ...],
    in_file: tuple[tuple[str, str], ...],
    options: tuple[str, ...],
    source: Path,
) -> dict[str, str]:
    """The board file's [rulings], then the input file's, then --ruling: the later wins."""
    from ruleslawyer.findings import parse_ruling_options, resolve_rulings
    from ruleslawyer.models.kaelyfos.resolve import RULE_POINTS

    file_rulings = {**dict(board), **dict(in_file)}
    return resolve_rulings(
        RULE_POINTS, file_rulings, parse_ruling_options(options), source=str(source)
    )
