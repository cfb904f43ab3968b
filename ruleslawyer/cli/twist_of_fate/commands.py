"""``ruleslawyer twist-of-fate``: solve a Twist of Fate position to the end of the round."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from ruleslawyer.budget import Budget
    from ruleslawyer.models.twist_of_fate.files import Position
    from ruleslawyer.models.twist_of_fate.play import Rules

from ruleslawyer.cli.common import (
    EXIT_UNFINISHED,
    INPUT_FILE,
    Directory,
    Number,
    emit,
    format_option,
    one_line_errors,
    output_option,
    progress,
    ruling_option,
    whole,
)
from ruleslawyer.cli.twist_of_fate.kernels import (
    compile_command,
    compiled_first,
    max_seconds_option,
)
from ruleslawyer.schemas import dumps as json_text

MAX_DISK = Number("GiB", least=0.001, most=2**20)  # up to 1 PiB
# a worker process holds about 0.2 GiB before any task; one peaked at 0.73 GiB on
# 3p-9 in partitions of the default size (README: --engine dask)
WORKER_MEMORY = Number("GiB", least=1, most=4096)


@click.group(name="twist-of-fate")
def group() -> None:
    """Twist of Fate: exhaustive search of a round's end states."""


@group.command()
@click.argument("position", type=INPUT_FILE)
@format_option(("text", "json"))
@output_option
@max_seconds_option
@click.option(
    "--max-states",
    type=whole("states"),
    default=None,
    help="Stop after this many distinct states and report finished: false.",
)
@click.option(
    "--max-memory",
    type=Number("GiB", least=0.01, most=2**20),
    default=5.0,
    show_default=True,
    metavar="GIB",
    help="Largest size of the Numba solver's tables, in GiB (growing one briefly needs "
    "the old and new table both); a search that needs more reports finished: false.",
)
@click.option(
    "--threads",
    type=whole("threads", most=64),
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
    "--horizon",
    type=click.Choice(("round", "game")),
    default="round",
    show_default=True,
    help="round: search to the end of the current round. game: across round ends (hands "
    "picked up as the rules and rulings say; the 2-player variant's draws as chance nodes, "
    "exact expectation) to the end of the game or of the last round --rounds allows.",
)
@click.option(
    "--rounds",
    type=whole("rounds", least=0),
    default=None,
    help="With --horizon game: how many round ends to cross at most (default 1).",
)
@click.option(
    "--exhaustive",
    is_flag=True,
    help="--model paranoid: enumerate every state (today's search) instead of the pruned "
    "one: adds end_states, reachable_max_sanctuary, possible_win, every move scored and "
    "the line.",
)
@click.option(
    "--every-move",
    is_flag=True,
    help="--model paranoid: score every root move exactly, each by its own pruned search, "
    "one table shared by all (on 3p-12 about 25 times the nodes of the best move alone).",
)
@click.option(
    "--seat",
    metavar="NAME",
    default=None,
    help="--model paranoid: what this player can guarantee (every other player against it) "
    "when it is not the one to move; with --every-move, after each move of the player to "
    "move. Default: the player to move.",
)
@click.option(
    "--solver",
    type=click.Choice(("numba", "reference")),
    default="numba",
    show_default=True,
    help="The compiled solver, or the plain-Python reference it is tested against.",
)
@click.option(
    "--engine",
    type=click.Choice(("memory", "dask")),
    default="memory",
    show_default=True,
    help="memory: one table in this process's memory. dask: tiers of states on disk, "
    "partitions run by Dask worker processes (same answer, bounded by disk).",
)
@click.option(
    "--workers",
    type=whole("workers", least=0, most=256),
    default=None,
    help="dask: a local cluster of N worker processes (default 2, at most one per usable "
    "processor); 0 runs the partitions one after another in this process. With the pruned "
    "paranoid search (no --engine dask): its root moves as tasks on N workers.",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="dask: the scheduler of a running cluster (also for the pruned search's tasks).",
)
@click.option(
    "--work-dir",
    type=Directory(),
    default=None,
    help="dask: where the tier files go (every worker must see it); default a temporary "
    "directory, removed after a finished run.",
)
@click.option(
    "--resume", is_flag=True, help="dask: continue the run in --work-dir from its last whole tier."
)
@click.option(
    "--max-disk",
    type=MAX_DISK,
    default=None,
    metavar="GIB",
    help="dask: stop with finished: false (files kept for --resume) once the work dir holds "
    "this (0.001 to 1048576).",
)
@click.option(
    "--worker-memory",
    type=WORKER_MEMORY,
    default=4.0,
    show_default=True,
    metavar="GIB",
    help="dask: the memory limit of each local worker process (1 to 4096; Dask lowers it "
    "to the machine's memory).",
)
@click.option(
    "--partition-states",
    type=whole("states", least=100),
    default=None,
    help="dask: the states a partition aims at (default 2097152, at least 100: smaller "
    "ones make many times more file reads than states); the answer does not depend on it.",
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
    horizon: str,
    rounds: int | None,
    exhaustive: bool,
    every_move: bool,
    seat: str | None,
    solver: str,
    engine: str,
    workers: int | None,
    scheduler: str | None,
    work_dir: Path | None,
    resume: bool,
    max_disk: float | None,
    worker_memory: float,
    partition_states: int | None,
) -> None:
    """Search every line of play from POSITION.toml to the end of the round (or game).

    Scores every legal move of the player to move under the opponent model
    (--model) and shows the line of play to the horizon. --model paranoid answers
    the best move, the Sanctuary the player can guarantee and whether a win is
    guaranteed by a pruned search (alpha-beta, transposition table); --exhaustive
    enumerates every state instead and adds the highest reachable Sanctuary, whether
    a win is possible, how many distinct end states there are, every move and the line.
    --horizon game goes on across round ends (the 2-player variant's draws valued by
    exact expectation); [[hidden]] tables in the position mark cards the player to move
    does not know, and every move is then scored over every assignment of them
    (determinized: average and worst case).

    \b
    POSITION.toml: `deck`, `active`, one [[player]] each (`luck`, `shilling`, `sanctuary`,
    `hand`, `in_front`). Example: examples/twist-of-fate/brownlow.toml.
    """
    from ruleslawyer.budget import Budget
    from ruleslawyer.cli.twist_of_fate.text import render_analysis
    from ruleslawyer.findings import parse_ruling_options, resolve_rulings
    from ruleslawyer.gamefiles.source import read_toml
    from ruleslawyer.models.twist_of_fate.files import position_from_document
    from ruleslawyer.models.twist_of_fate.play import RULE_POINTS, Rules
    from ruleslawyer.solvers.twist_of_fate.maxn import analyse, analysis_json
    from ruleslawyer.solvers.twist_of_fate.memory import default_threads

    _, doc = read_toml(position)
    file_rulings = doc.get("rulings", {}) if isinstance(doc.get("rulings", {}), dict) else {}
    merged = resolve_rulings(
        RULE_POINTS, file_rulings, parse_ruling_options(rulings), source=str(position)
    )
    rules = Rules.from_rulings(merged)
    pos = position_from_document(doc, str(position), relative_to=position.parent, rules=rules)
    budget = Budget(max_seconds=max_seconds, max_states=max_states)
    dask_only = {
        "--workers": workers is not None,
        "--scheduler": scheduler is not None,
        "--work-dir": work_dir is not None,
        "--resume": resume,
        "--max-disk": max_disk is not None,
        "--partition-states": partition_states is not None,
    }
    if engine == "dask":
        if horizon == "game" or pos.hidden:
            raise click.UsageError(
                "--engine dask solves one round with open cards: drop --horizon game and "
                "[[hidden]] cards, or use --engine memory"
            )
        if model != "paranoid":
            raise click.UsageError(
                "--engine dask computes paranoid values only: add --model paranoid"
            )
        if solver != "numba":
            raise click.UsageError("--engine dask runs the Numba kernels: drop --solver reference")
        if seat is not None:
            raise click.UsageError("--seat is answered by the pruned search: drop --engine dask")
        if workers is not None and scheduler is not None:
            raise click.UsageError(
                "--workers and --scheduler: give one (a local or a running cluster)"
            )
        _check_workers(workers)
        compiled_first(["tiers"], max_seconds)
        _solve_on_dask(
            pos, rules, budget, fmt, output,
            workers=2 if workers is None and scheduler is None else workers,
            scheduler=scheduler, work_dir=work_dir, resume=resume,
            max_disk=None if max_disk is None else int(max_disk * 2**30),
            worker_memory=int(worker_memory * 2**30), partition_states=partition_states,
        )  # fmt: skip
        return
    # the pruned paranoid search splits its root moves over Dask workers when asked
    pruned = model == "paranoid" and not exhaustive and solver == "numba"
    pruned = pruned and horizon == "round" and rounds is None and not pos.hidden
    split = ("--workers", "--scheduler") if pruned else ()
    given = [name for name, is_given in dask_only.items() if is_given and name not in split]
    if given:
        raise click.UsageError(
            f"{given[0]} needs --engine dask"
            + (" (or, for --workers and --scheduler, the pruned paranoid search)" * (not pruned))
        )
    if model != "paranoid" and (exhaustive or every_move):
        raise click.UsageError(
            f"{'--exhaustive' if exhaustive else '--every-move'} is for --model paranoid "
            "(max^n is always exhaustive)"
        )
    if exhaustive and every_move:
        raise click.UsageError("--exhaustive scores every move already: drop --every-move")
    seat_index = None
    if seat is not None:
        if model != "paranoid" or exhaustive or solver != "numba" or horizon == "game":
            raise click.UsageError(
                "--seat is answered by the pruned paranoid search: --model paranoid, one "
                "round, without --exhaustive or --solver reference"
            )
        if seat not in pos.names:
            raise click.UsageError(
                f"--seat: found {seat!r}, expected one of {', '.join(pos.names)}"
            )
        seat_index = pos.names.index(seat)
    if horizon == "game" or rounds is not None or pos.hidden:
        if seat is not None:
            raise click.UsageError("--seat is answered by the pruned search: one round, open cards")
        from ruleslawyer.cli.twist_of_fate.rounds import solve_rounds

        if horizon == "round" and rounds is None and solver == "numba":
            compiled_first(["maxn"], max_seconds)  # each assignment of the hidden cards
        found = solve_rounds(pos, str(position), rules, model, horizon, rounds, solver, budget)
        if model == "paranoid":
            uncovered = "--horizon game" if horizon == "game" or rounds else "[[hidden]] cards"
            found["search"] = f"exhaustive (pruned search does not cover {uncovered})"
        emit_analysis(found, fmt, output)
        return
    memory = int(max_memory * 2**30)
    if pruned:
        compiled_first(["pruned"], max_seconds)
        progress(f"searching {position} (pruned paranoid search) ...")
        found = _pruned(
            pos, rules, budget, every_move, seat_index, memory, workers, scheduler, worker_memory
        )
        from ruleslawyer.cli.twist_of_fate.text import render_pruned

        emit(json_text(found) if fmt == "json" else render_pruned(found), output)
        if not found["finished"]:
            raise SystemExit(EXIT_UNFINISHED)
        return
    if solver == "numba":
        compiled_first(["maxn"], max_seconds)
    progress(f"searching every line of play from {position} ({solver} solver) ...")
    if model == "maxn":
        found = analysis_json(
            pos,
            analyse(
                pos, rules, model, budget, solver=solver, max_table_bytes=memory,
                threads=threads or default_threads(),
            ),
        )  # fmt: skip
        emit_analysis(found, fmt, output)
        return
    out = _paranoid(pos, rules, budget, solver, memory, threads or default_threads())
    if solver != "numba":
        out["search"] = "exhaustive (--solver reference enumerates)"
    if fmt == "json":
        emit(json_text(out), output)
    else:
        emit(_head(out) + render_analysis(out) + _tail(out), output)
    if not out["finished"]:
        raise SystemExit(EXIT_UNFINISHED)


NONE_KEPT = "none (every line can be made a loss)"


def _head(out: dict[str, Any]) -> str:
    """The paranoid solver's fields of an exhaustive answer, as text, and its search."""
    from ruleslawyer.solvers.twist_of_fate.common import SolveResult
    from ruleslawyer.solvers.twist_of_fate.common import render_text as solver_text

    fields = {name: out[name] for name in SolveResult.__dataclass_fields__}
    head = solver_text(SolveResult(**fields)).split("\nstates:")[0] + "\n"
    head = head.replace("guaranteed_sanctuary: unknown", f"guaranteed_sanctuary: {NONE_KEPT}")
    return head + f"search: {out['search']}\n"


def emit_analysis(out: dict[str, Any], fmt: str, output: Path | None) -> None:
    """Write an analysis (JSON or the text tables); exit 3 when it did not finish."""
    from ruleslawyer.cli.twist_of_fate.text import (
        describe,
        render_analysis,
        render_hidden,
    )

    if fmt == "json":
        emit(json_text(out), output)
    else:
        head = f"player: {out['player']}\n"
        if "search" in out:
            head += f"search: {out['search']}\n"
        if out["best_move"]:
            head += f"best_move: {describe(out['best_move'])}\n"
        body = render_hidden(out) if "hidden" in out else render_analysis(out)
        emit(head + body + _tail(out), output)
    if not out["finished"]:
        raise SystemExit(EXIT_UNFINISHED)


def _tail(out: dict[str, Any]) -> str:
    done = "yes" if out["finished"] else "no (budget spent: no exact answer, values withheld)"
    return f"states: {out['states']}\nseconds: {out['seconds']:.3f}\nfinished: {done}\n"


def _paranoid(
    pos: Position, rules: Rules, budget: Budget, solver: str, memory: int, threads: int
) -> dict[str, Any]:
    """The exhaustive paranoid answer as JSON (every move scored, the line, the
    enumeration's fields: reachable Sanctuary, possible win, end states): from one
    compiled search, or from the two plain references."""
    from ruleslawyer.solvers.twist_of_fate.maxn import analyse, paranoid_json, paranoid_solve

    if solver == "numba":
        analysis, result = paranoid_solve(
            pos, rules, budget, max_table_bytes=memory, threads=threads
        )
        return paranoid_json(pos, analysis, result)
    from ruleslawyer.solvers.twist_of_fate.reference.solve import solve as slow

    analysis = analyse(pos, rules, "paranoid", budget, solver=solver)
    result = slow(pos, rules, budget)
    out = paranoid_json(pos, analysis, result)
    out["seconds"] = result.seconds + analysis.seconds
    return out


def _pruned(
    pos: Position,
    rules: Rules,
    budget: Budget,
    every_move: bool,
    seat: int | None,
    memory: int,
    workers: int | None,
    scheduler: str | None,
    worker_memory: float,
) -> dict[str, Any]:
    """The pruned paranoid answer as JSON: in this process, or with ``workers`` (a local
    cluster; 0: this process) or ``scheduler``, its root moves split over Dask workers."""
    from ruleslawyer.solvers.twist_of_fate.pruned import driver

    table_bytes = driver.table_bytes_for(pos, memory)
    if scheduler is None and not workers:
        found = driver.solve(
            pos, rules, budget, every_move=every_move, seat=seat, table_bytes=table_bytes
        )
        return driver.answer_json(pos, found)
    from ruleslawyer.solvers.twist_of_fate import dask as engine
    from ruleslawyer.solvers.twist_of_fate.pruned import split

    _check_workers(workers)
    runner, closing = engine.connect(workers, scheduler, int(worker_memory * 2**30))
    try:
        client = runner.client
        count = workers or len(client.scheduler_info()["workers"])
        found, cpu = split.solve(
            pos, rules, budget, client, workers=count, every_move=every_move, seat=seat,
            table_bytes=table_bytes,
        )  # fmt: skip
    finally:
        (closing or runner.client).close()
    out = driver.answer_json(pos, found)
    out["search"] += f", its root moves as tasks on the {runner.name}"
    out["task_cpu_seconds"] = round(cpu, 3)
    return out


def _solve_on_dask(
    pos: Position,
    rules: Rules,
    budget: Budget,
    fmt: str,
    output: Path | None,
    **options: Any,
) -> None:
    from ruleslawyer.solvers.twist_of_fate import dask as engine

    if options["partition_states"] is None:
        options["partition_states"] = engine.PARTITION_STATES
    try:
        report = engine.solve(pos, rules, budget, **options)
    except KeyboardInterrupt:
        where = options["work_dir"]
        if where:
            click.echo(f"interrupted: tier files kept in {where} for --resume", err=True)
        raise  # one_line_errors: exit 130, and nothing Dask says while it shuts down
    if fmt == "json":
        emit(json_text(report), output)
    else:
        from ruleslawyer.cli.twist_of_fate.text import render_analysis

        body = render_analysis(report) + _tail(report)
        emit(_head(report) + body + engine.render_text(report), output)
    if not report["finished"]:
        raise SystemExit(EXIT_UNFINISHED)


def _check_workers(workers: int | None) -> None:
    """Refuse a local cluster of more worker processes than usable processors: they
    would only wait on each other, and starting them can outlast any patience."""
    from ruleslawyer.errors import InputError
    from ruleslawyer.solvers.twist_of_fate.memory import usable_processors

    most = usable_processors()
    if workers is not None and workers > most:
        raise InputError(
            "--workers",
            "",
            workers,
            f"at most {most} (the processors this process may use)",
        )


from ruleslawyer.cli.twist_of_fate.balance import balance  # noqa: E402 (after the group)

group.add_command(balance)
group.add_command(compile_command)

# `advise` (the word the other games use for "what should I play here") is `solve`, listed as
# its alias in `ruleslawyer twist-of-fate --help`.
advise = copy.copy(solve)
advise.name = "advise"
advise.short_help = "Alias of solve: score every legal move of the player to move."
advise.help = f"Alias of `ruleslawyer twist-of-fate solve`.\n\n{solve.help}"
group.add_command(advise)
