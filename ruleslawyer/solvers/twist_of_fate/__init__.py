"""Twist of Fate solvers: compiled kernels, the Dask tier engine, horizons, hidden cards.

Where the compiled kernels are cached. Numba keys a cached kernel on its own file
only, yet the kernels inline each other and read each other's constants
(``maxn_kernel`` freezes ``kernel.NPARAMS``): after an update that changed
``kernel.py`` alone, the cache beside ``maxn_kernel.py`` would load code built against
the old layout. So, unless ``NUMBA_CACHE_DIR`` is set, the kernels cache in a folder
named for a hash of every kernel's source (under ``$XDG_CACHE_HOME/ruleslawyer``, else
``~/.cache/ruleslawyer``): changed sources, a fresh cache. Set as this package is
imported, before any kernel (Numba's configuration is read again if Numba was imported
first); Dask workers import this package too, so they share the folder.

A cache folder that cannot be written (a read-only home or mount, a path through a
file) is never replaced by Numba's own fallback, a cache beside the sources (the
stale-kernel hazard above; on a read-only install, a traceback): the kernels compile
into a temporary folder of this process instead, removed when it exits, and
:data:`CACHE_PROBLEM` says which folder could not be written and why (the command
line warns once, and ``twist-of-fate compile`` refuses).

No :class:`~ruleslawyer.budget.Budget` counts the time Numba spends compiling
(:func:`leave_compiles_out_of_budgets`): ``--max-seconds`` bounds the search. The
command line compiles the kernels a command needs before its search starts, and says
so on a terminal (``ruleslawyer.cli.twist_of_fate.kernels``).
"""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

KERNELS = ("kernel.py", "maxn_kernel.py", "tiers.py", "pruned/search.py")
CACHE_PROBLEM: tuple[str, str] | None = None  # the folder that cannot be written, and why
CACHE_DIR: str | None = None  # where the kernels are cached (None: nowhere)
_COUNTING: list[bool] = []  # leave_compiles_out_of_budgets() has run


def kernel_cache_dir(here: Path = Path(__file__).parent) -> Path:
    """The folder for the compiled kernels of the sources in ``here``."""
    digest = hashlib.sha256()
    for name in KERNELS:
        digest.update(name.encode() + b"\0" + (here / name).read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "ruleslawyer" / f"numba-{digest.hexdigest()[:16]}"


def unwritable(folder: Path) -> str | None:
    """Why the kernels cannot be cached in ``folder`` (None: they can). As Numba
    checks: the folder is made if missing, and a file written in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return None


def _choose_cache() -> None:
    """Point Numba at the cache folder, or at a temporary one if it cannot be written."""
    global CACHE_PROBLEM, CACHE_DIR
    wanted = os.environ.get("NUMBA_CACHE_DIR") or str(kernel_cache_dir())
    why = unwritable(Path(wanted))
    if why is None:
        CACHE_DIR = os.environ["NUMBA_CACHE_DIR"] = wanted
        return
    CACHE_PROBLEM = (wanted, why)
    try:
        temporary = tempfile.mkdtemp(prefix="ruleslawyer-numba-")
    except OSError:
        return  # nowhere: the command line refuses to compile (CACHE_DIR is None)
    atexit.register(shutil.rmtree, temporary, ignore_errors=True)
    CACHE_DIR = os.environ["NUMBA_CACHE_DIR"] = temporary


_choose_cache()
if "numba" in sys.modules:  # imported first: have it read the folder now, before any kernel
    from numba.core import config

    config.reload_config()


def leave_compiles_out_of_budgets() -> None:
    """From now on, leave the time Numba spends compiling out of every budget
    (:func:`ruleslawyer.budget.not_counted`): a first run's compile is not search time.
    Called once the kernels' module is imported, before any kernel compiles."""
    if _COUNTING:
        return
    from numba.core import event

    from ruleslawyer.budget import not_counted

    here = threading.local()  # a compile nests the compiles of the functions it calls

    class Compiles(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            depth = getattr(here, "depth", 0)
            if depth == 0:
                here.began = time.monotonic()
            here.depth = depth + 1

        def on_end(self, ev: event.Event) -> None:
            here.depth -= 1
            if here.depth == 0:
                not_counted(time.monotonic() - here.began)

    event.register("numba:compile", Compiles())
    _COUNTING.append(True)
