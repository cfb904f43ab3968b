"""``ruleslawyer twist-of-fate``: solve a Twist of Fate position to the end of the round."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ruleslawyer.cli.common import (
    EXIT_UNFINISHED,
    FiniteFloat,
    emit,
    format_option,
    max_seconds_option,
    one_line_errors,
    output_option,
    progress,
    ruling_option,
)


@click.group(name="twist-of-fate")
def group() -> None:
    """Twist of Fate: exhaustive search of a round's end states."""


@group.command()
@click.argument("position", type=click.Path(dir_okay=False, path_type=Path))
@format_option(("text", "json"))
@output_option
@max_seconds_option
@click.option(
    "--max-states",
    type=click.IntRange(min=1),
    default=None,
    help="Stop after this many distinct states and report finished: false.",
)
@click.option(
    "--max-memory",
    type=FiniteFloat(least=0.01),
    default=5.0,
    show_default=True,
    metavar="GIB",
    help="Largest size of the Numba solver's tables, in GiB (growing one briefly needs "
    "the old and new table both); a search that needs more reports finished: false.",
)
@click.option(
    "--threads",
    type=click.IntRange(min=1, max=64),
    default=None,
    help="Search threads of the Numba solver (sharing its tables); default one per "
    "usable processor, at most 4. The answer does not depend on it.",
)
@ruling_option
@click.option(
    "--solver",
    type=click.Choice(("numba", "reference")),
    default="numba",
    show_default=True,
    help="The compiled solver, or the plain-Python reference it is tested against.",
)
@one_line_errors
def solve(
    position: Path,
    fmt: str,
    output: Path | None,
    max_seconds: float | None,
    max_states: int | None,
    max_memory: float,
    threads: int | None,
    rulings: tuple[str, ...],
    solver: str,
) -> None:
    """Search every line of play from POSITION.toml to the end of the round (or game).

    Reports the Sanctuary the player to move can guarantee (paranoid minimax),
    the best move, the highest reachable, whether a win is guaranteed or possible,
    and how many distinct end states there are.

    \b
    POSITION.toml: `deck`, `active`, one [[player]] each (`luck`, `shilling`, `sanctuary`,
    `hand`, `in_front`). Example: examples/twist-of-fate/brownlow.toml.
    """
    from ruleslawyer.budget import Budget
    from ruleslawyer.findings import parse_ruling_options, resolve_rulings
    from ruleslawyer.gamefiles import read_toml
    from ruleslawyer.models.twist_of_fate import RULE_POINTS, Rules
    from ruleslawyer.models.twist_of_fate_files import position_from_document
    from ruleslawyer.solvers.twist_of_fate_common import render_text

    _, doc = read_toml(position)
    file_rulings = doc.get("rulings", {}) if isinstance(doc.get("rulings", {}), dict) else {}
    merged = resolve_rulings(
        RULE_POINTS, file_rulings, parse_ruling_options(rulings), source=str(position)
    )
    rules = Rules.from_rulings(merged)
    pos = position_from_document(doc, str(position), relative_to=position.parent, rules=rules)
    budget = Budget(max_seconds=max_seconds, max_states=max_states)
    progress(f"searching every line of play from {position} ({solver} solver) ...")
    if solver == "numba":
        from ruleslawyer.solvers.twist_of_fate_numba import solve as fast

        memory = int(max_memory * 2**30)
        result = fast(pos, rules, budget, max_table_bytes=memory, threads=threads)
    else:
        from ruleslawyer.solvers.twist_of_fate_reference import solve as slow

        result = slow(pos, rules, budget)
    if fmt == "json":
        emit(json.dumps(result.to_json(), indent=2) + "\n", output)
    else:
        emit(render_text(result), output)
    if not result.finished:
        raise SystemExit(EXIT_UNFINISHED)
