"""``ruleslawyer kaelyfos``: resolve a bloodsucker behaviour card on a position."""

from __future__ import annotations

from pathlib import Path

import click

from ruleslawyer.cli.common import (
    emit,
    format_option,
    one_line_errors,
    output_option,
    ruling_option,
)


@click.group()
def group() -> None:
    """Unsettled: Kaelyfos: resolve bloodsucker behaviour cards."""


@group.command()
@click.argument("position_file", metavar="POSITION.toml", type=click.Path(path_type=Path))
@ruling_option
@format_option(("text", "json"))
@output_option
@one_line_errors
def step(position_file: Path, rulings: tuple[str, ...], fmt: str, output: Path | None) -> None:
    """Resolve the position's behaviour card: spawn, move, attack, in the rulebook's order.

    Prints the result under the readings in force, every open rule point whose other
    reading would change it, and the choices (the crew's, and ties the rules leave open).
    Rulings come from the board file, then the position file, then --ruling.

    \b
    POSITION.toml: `board` (built-in id or a path), `nests`, `supply`, `explorers`,
    `bloodsuckers`, `traps`, the `[card]` to resolve. Examples: examples/kaelyfos/*.toml.
    """
    from ruleslawyer.cli.kaelyfos_text import render
    from ruleslawyer.models.kaelyfos import step as resolve_card
    from ruleslawyer.models.kaelyfos_files import load_position

    loaded = load_position(position_file)
    chosen = _rulings(loaded.position.board.rulings, loaded.rulings, rulings, position_file)
    outcome = resolve_card(loaded.position, chosen)
    if fmt == "json":
        import json

        emit(json.dumps(outcome.to_json(), indent=2) + "\n", output)
    else:
        emit(render(outcome, chosen), output)


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
    from ruleslawyer.cli.kaelyfos_text import render_reveal
    from ruleslawyer.models.kaelyfos_files import load_timeline
    from ruleslawyer.models.kaelyfos_timeline import reveal_with_divergences

    loaded = load_timeline(timeline_file)
    chosen = _rulings(loaded.board.rulings, loaded.rulings, rulings, timeline_file)
    out = reveal_with_divergences(loaded.timeline, chosen)
    if fmt == "json":
        import json

        emit(json.dumps(out, indent=2) + "\n", output)
    else:
        emit(render_reveal(out), output)


def _rulings(
    board: tuple[tuple[str, str], ...],
    in_file: tuple[tuple[str, str], ...],
    options: tuple[str, ...],
    source: Path,
) -> dict[str, str]:
    """The board file's [rulings], then the input file's, then --ruling: the later wins."""
    from ruleslawyer.findings import parse_ruling_options, resolve_rulings
    from ruleslawyer.models.kaelyfos import RULE_POINTS

    file_rulings = {**dict(board), **dict(in_file)}
    return resolve_rulings(
        RULE_POINTS, file_rulings, parse_ruling_options(options), source=str(source)
    )
