"""The compiled search kernels on the command line: compiled before a search, saying so on
a terminal, and ``ruleslawyer twist-of-fate compile``, which compiles them all ahead.

:func:`prepare` runs each solver named on a tiny position, so that every kernel it
calls is loaded from Numba's cache, or compiled (a first run), with exactly the argument
types a real search passes (a test holds it to that), before the real search starts.
The compile is not counted by ``--max-seconds`` (see
:func:`ruleslawyer.solvers.twist_of_fate.leave_compiles_out_of_budgets`).
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ruleslawyer.cli.common import MAX_SECONDS_HELP, max_seconds, one_line_errors, progress

if TYPE_CHECKING:
    from ruleslawyer.models.twist_of_fate.files import Position
    from ruleslawyer.models.twist_of_fate.play import Rules

# the solvers whose kernels prepare() compiles, and what each is, in words
SOLVERS = {
    "pruned": "the pruned paranoid search",
    "maxn": "the max^n and exhaustive paranoid search",
    "memory": "the paranoid solver of `ruleslawyer diff`",
    "tiers": "the Dask engine",
}
# --max-seconds and the compile (README, "The first run"): the budget is the search's
UNCOUNTED = "--max-seconds counts the search only"
max_seconds_option = max_seconds(
    f"{MAX_SECONDS_HELP} The search's time: a first run's compile of the search kernels "
    "is not counted (stderr then says how long it took)."
)
WRITABLE = "a writable folder for the compiled kernels (set NUMBA_CACHE_DIR to one)"
_READY: set[str] = set()  # the solvers prepared in this process
_WARNED: list[bool] = []


def prepare(
    solvers: Iterable[str] = tuple(SOLVERS), on_compile: Callable[[], None] | None = None
) -> float:
    """Load or compile every kernel the ``solvers`` (keys of :data:`SOLVERS`) call, once
    per process; ``on_compile`` is called when the first compile starts. Returns the
    seconds it took when anything was compiled (0.0 if every kernel came from the cache).

    Another process compiling into the same cache at the same time (``pytest -n 2``) is
    waited for (a lock in the cache folder), so that this one loads what it compiled.
    """
    todo = [s for s in solvers if s not in _READY]
    if not todo:
        return 0.0
    from numba.core import event

    compiled: list[bool] = []

    class Announce(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            if not compiled:
                compiled.append(True)
                if on_compile is not None:
                    on_compile()

        def on_end(self, ev: event.Event) -> None:
            pass

    began = time.monotonic()
    with _locked(), event.install_listener("numba:compile", Announce()):
        for solver in todo:
            _TINY[solver]()
            _READY.add(solver)
    return time.monotonic() - began if compiled else 0.0


def compiled_first(solvers: Sequence[str], max_seconds: float | None = None) -> float:
    """:func:`prepare` the ``solvers`` before their search starts: on a terminal, a line
    when the compile starts and one when it ends; elsewhere nothing, unless
    ``--max-seconds`` was given, when a line says how long the compile took (no budget
    counts it). A cache folder that cannot be written: a warning, once. Returns the
    seconds the compile took (0.0 when the kernels came from the cache)."""
    _check_cache(refuse=False)
    seconds = prepare(solvers, on_compile=_announcer(solvers))
    if seconds and (sys.stderr.isatty() or max_seconds is not None):
        tail = f"; {UNCOUNTED}" if max_seconds is not None else ""
        click.echo(
            f"compiled the Twist of Fate search kernels in {seconds:.1f} s (first run only{tail})",
            err=True,
        )
    return seconds


def _announcer(solvers: Sequence[str]) -> Callable[[], None]:
    """What to say on a terminal when the first kernel starts compiling."""
    names = [SOLVERS[s] for s in solvers]
    what = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def announce() -> None:
        progress(
            f"compiling the Twist of Fate search kernels for {what} (first run only: "
            "later runs load them from the cache) ..."
        )

    return announce


def _check_cache(*, refuse: bool) -> None:
    """Warn once that the cache folder cannot be written (the kernels then compile into
    a temporary folder, every run), or with ``refuse``, or when they can be compiled
    nowhere, raise the one-line error."""
    from ruleslawyer.errors import InputError
    from ruleslawyer.solvers import twist_of_fate as tof

    if tof.CACHE_PROBLEM is None:
        return
    folder, why = tof.CACHE_PROBLEM
    if refuse or tof.CACHE_DIR is None:
        raise InputError(folder, "", why, WRITABLE)
    if not _WARNED:
        _WARNED.append(True)
        click.echo(
            f"warning: {folder}: cannot cache the compiled kernels there ({why}): they "
            "compile into a temporary folder, again on every run (set NUMBA_CACHE_DIR to "
            "a writable folder)",
            err=True,
        )


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    """Hold the cache folder's lock (where the system has ``flock`` and the folder takes
    the lock file; else go on without)."""
    from numba import config

    try:
        import fcntl

        handle = open(Path(config.CACHE_DIR) / "compile.lock", "a")  # noqa: SIM115
    except (ImportError, OSError):
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _tiny() -> tuple[Position, Rules]:
    """Three players holding one card each of the built-in deck, and the default rules."""
    from ruleslawyer.models.twist_of_fate.files import position_from_document
    from ruleslawyer.models.twist_of_fate.play import Rules

    hands = {"a": "Nancy", "b": "Fagin", "c": "Bill Sikes"}
    doc = {"active": "a", "player": [{"name": n, "hand": [c]} for n, c in hands.items()]}
    return position_from_document(doc, "<the tiny position of prepare()>"), Rules()


def _grow_tables() -> None:
    """Double each kind of table once (the kernels that move entries as a table grows,
    which a tiny search never needs)."""
    from ruleslawyer.solvers.twist_of_fate.memory import Tables

    tables = Tables(1 << 4, 1 << 20)
    for which in ("main", "leaves", "ends"):
        tables.grow(which)


def _pruned() -> None:
    from ruleslawyer.solvers.twist_of_fate.pruned import driver

    driver.solve(*_tiny())


def _maxn() -> None:
    from ruleslawyer.solvers.twist_of_fate.maxn import analyse, paranoid_solve

    position, rules = _tiny()
    analyse(position, rules, "maxn")
    paranoid_solve(position, rules)
    _grow_tables()


def _memory() -> None:
    from ruleslawyer.solvers.twist_of_fate.memory import solve

    solve(*_tiny(), threads=1)
    _grow_tables()


def _tiers() -> None:
    from ruleslawyer.budget import Budget
    from ruleslawyer.solvers.twist_of_fate.dask import solve

    position, rules = _tiny()
    # partitions of 200 states: the last tier splits into several, as a large position's do
    solve(
        position, rules, Budget(), workers=0, scheduler=None, work_dir=None, resume=False,
        partition_states=200,
    )  # fmt: skip


_TINY: dict[str, Callable[[], None]] = {
    "pruned": _pruned,
    "maxn": _maxn,
    "memory": _memory,
    "tiers": _tiers,
}


@click.command(name="compile")
@one_line_errors
def compile_command() -> None:
    """Compile every Twist of Fate search kernel now, into the cache later runs load them
    from (without it, a first run compiles the kernels it needs: about ten CPU seconds
    each). Run it once after installing or updating, e.g. in a CI set-up step; when the
    kernels are cached already it only loads them. The cache: NUMBA_CACHE_DIR if set,
    else ~/.cache/ruleslawyer/numba-<hash of the kernels' sources>. Exit 2 when that
    folder cannot be written."""
    from ruleslawyer.solvers import twist_of_fate as tof

    _check_cache(refuse=True)
    began = time.monotonic()
    seconds = prepare(SOLVERS, on_compile=_announcer(list(SOLVERS)))
    if seconds:
        click.echo(f"compiled the Twist of Fate search kernels in {seconds:.1f} s")
    else:
        loaded = time.monotonic() - began
        click.echo(
            f"the Twist of Fate search kernels were compiled already (loaded in {loaded:.1f} s)"
        )
    click.echo(f"cached in {tof.CACHE_DIR}")
