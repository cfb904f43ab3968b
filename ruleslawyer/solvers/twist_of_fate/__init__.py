"""Twist of Fate solvers: compiled kernels, the Dask tier engine, horizons, hidden cards.

Numba keys a cached kernel on its own file only, yet the kernels inline each other
and read each other's constants (``maxn_kernel`` freezes ``kernel.NPARAMS``): after
an update that changed ``kernel.py`` alone, the cache beside ``maxn_kernel.py`` would
load code built against the old layout. So, unless ``NUMBA_CACHE_DIR`` is set, the
kernels cache in a folder named for a hash of every kernel's source (under
``$XDG_CACHE_HOME/ruleslawyer``, else ``~/.cache/ruleslawyer``): changed sources, a
fresh cache. Set before Numba is imported (its configuration reads the variable
then); Dask workers import this package too, so they share the folder.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

KERNELS = ("kernel.py", "maxn_kernel.py", "tiers.py", "pruned/search.py")


def kernel_cache_dir(here: Path = Path(__file__).parent) -> Path:
    """The folder for the compiled kernels of the sources in ``here``."""
    digest = hashlib.sha256()
    for name in KERNELS:
        digest.update(name.encode() + b"\0" + (here / name).read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "ruleslawyer" / f"numba-{digest.hexdigest()[:16]}"


if "NUMBA_CACHE_DIR" not in os.environ and "numba" not in sys.modules:
    os.environ["NUMBA_CACHE_DIR"] = str(kernel_cache_dir())
