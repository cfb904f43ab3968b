"""``ruleslawyer cunning-folk``: deduce where the townsfolk are from a log of play."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ruleslawyer.cli.common import (
    emit,
    format_option,
    one_line_errors,
    output_option,
    progress,
    ruling_option,
)


@click.group(name="cunning-folk")
def group() -> None:
    """Cunning Folk: deduction from a log of play."""


@group.command()
@click.argument("log_file", metavar="LOG.toml", type=click.Path(dir_okay=False, path_type=Path))
@format_option(("text", "json"))
@output_option
@ruling_option
@one_line_errors
def deduce(log_file: Path, fmt: str, output: Path | None, rulings: tuple[str, ...]) -> None:
    """Where each townsfolk can be now, with exact world counts, and each elder's best run.

    Only the ruling on cunning-folk/elder-face-up-picks changes the result.

    \b
    LOG.toml: `setup`, `players`, `perspective`, then one [[event]] per thing that player saw
    (peek, claim, swap, reveal, ...). Examples: examples/cunning-folk/*.toml.
    """
    from ruleslawyer.findings import parse_ruling_options, reading_in_force, resolve_rulings
    from ruleslawyer.gamefiles import read_toml
    from ruleslawyer.models.cunning_folk import POINTS, RULE_POINTS
    from ruleslawyer.models.cunning_folk_log import parse_log
    from ruleslawyer.solvers.cunning_folk_deduce import deduce as run
    from ruleslawyer.solvers.cunning_folk_deduce import render_text

    chosen = resolve_rulings(RULE_POINTS, {}, parse_ruling_options(rulings), source=str(log_file))
    _, document = read_toml(log_file, display=str(log_file))
    log = parse_log(document, str(log_file))
    picks = reading_in_force(POINTS["cunning-folk/elder-face-up-picks"], chosen)
    progress(f"counting the worlds that fit {log_file} ...")
    result = run(log, face_down_only=picks == "face-down-only")
    text = json.dumps(result, indent=2) + "\n" if fmt == "json" else render_text(result, log)
    emit(text, output)
