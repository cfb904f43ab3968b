"""``ruleslawyer twist-of-fate``: solve a Twist of Fate position to the end of the round."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from ruleslawyer.budget import Budget
    from ruleslawyer.models.twist_of_fate import Rules
    from ruleslawyer.models.twist_of_fate_files import Position
    from ruleslawyer.solvers.twist_of_fate_common import SolveResult

from ruleslawyer.cli.common import (
    emit,
    format_option,
    max_seconds_option,
    one_line_errors,
    output_option,
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
    type=click.FloatRange(min=0.01),
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
    "--model",
    type=click.Choice(("maxn", "paranoid")),
    default="maxn",
    show_default=True,
    help="Opponent model: max^n (each player picks the move best for itself, ties broken "
    "against the others) or paranoid (everyone else plays against the player to move: "
    "the guaranteed bound).",
)
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
    model: str,
    solver: str,
) -> None:
    """Search every line of play from POSITION.toml to the end of the round (or game).

    Scores every legal move of the player to move under the opponent model
    (--model) and shows the line of play to the horizon. With --model paranoid it
    also reports the Sanctuary the player can guarantee, the highest reachable,
    whether a win is guaranteed or possible, and how many distinct end states there are.
    """
    from ruleslawyer.budget import Budget
    from ruleslawyer.findings import parse_ruling_options, resolve_rulings
    from ruleslawyer.gamefiles import read_toml
    from ruleslawyer.models.twist_of_fate import RULE_POINTS, Rules
    from ruleslawyer.models.twist_of_fate_files import position_from_document
    from ruleslawyer.solvers.twist_of_fate_common import render_text
    from ruleslawyer.solvers.twist_of_fate_maxn import analyse, analysis_json
    from ruleslawyer.solvers.twist_of_fate_maxn_text import describe, render_analysis

    _, doc = read_toml(position)
    file_rulings = doc.get("rulings", {}) if isinstance(doc.get("rulings", {}), dict) else {}
    merged = resolve_rulings(
        RULE_POINTS, file_rulings, parse_ruling_options(rulings), source=str(position)
    )
    rules = Rules.from_rulings(merged)
    pos = position_from_document(doc, str(position), relative_to=position.parent, rules=rules)
    budget = Budget(max_seconds=max_seconds, max_states=max_states)
    memory = int(max_memory * 2**30)
    found = analysis_json(
        pos, analyse(pos, rules, model, budget, solver=solver, max_table_bytes=memory)
    )
    if model == "maxn":
        out = found
        head = f"player: {found['player']}\n"
        if found["best_move"]:
            head += f"best_move: {describe(found['best_move'])}\n"
    else:
        result = _paranoid(pos, rules, budget, solver, memory, threads)
        out = {**result.to_json(), **found, "player": result.player}
        out["finished"] = result.finished and found["finished"]
        out["seconds"] = result.seconds + found["seconds"]
        del out["value"]
        out["best_move"] = result.best_move
        out["states"] = result.states
        head = render_text(result).split("\nstates:")[0] + "\n"
    if fmt == "json":
        emit(json.dumps(out, indent=2) + "\n", output)
    else:
        emit(head + render_analysis(out) + _tail(out), output)


def _tail(out: dict[str, Any]) -> str:
    done = "yes" if out["finished"] else "no (budget spent: no exact answer, values withheld)"
    return f"states: {out['states']}\nseconds: {out['seconds']:.3f}\nfinished: {done}\n"


def _paranoid(
    pos: Position, rules: Rules, budget: Budget, solver: str, memory: int, threads: int | None
) -> SolveResult:
    """The paranoid solvers' answer (guaranteed and reachable Sanctuary, wins, end states)."""
    if solver == "numba":
        from ruleslawyer.solvers.twist_of_fate_numba import solve as fast

        return fast(pos, rules, budget, max_table_bytes=memory, threads=threads)
    from ruleslawyer.solvers.twist_of_fate_reference import solve as slow

    return slow(pos, rules, budget)
