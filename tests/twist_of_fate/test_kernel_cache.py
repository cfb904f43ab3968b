"""The compiled kernels' cache follows every kernel's source, not only its own file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import ruleslawyer.solvers.twist_of_fate as package
from ruleslawyer.solvers.twist_of_fate import KERNELS, kernel_cache_dir

HERE = Path(package.__file__).parent


def test_a_change_to_one_kernel_moves_every_kernel_to_a_fresh_cache(tmp_path: Path) -> None:
    for name in KERNELS:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(HERE / name, tmp_path / name)
    before = kernel_cache_dir(tmp_path)
    assert before == kernel_cache_dir(HERE)
    # maxn_kernel freezes kernel.NPARAMS when compiled: a new parameter in kernel.py
    # alone must not load the old maxn_kernel code
    with (tmp_path / "kernel.py").open("a") as f:
        f.write("\n# one more parameter\n")
    assert kernel_cache_dir(tmp_path) != before


def _cache_seen(code: str, tmp_path: Path, **env: str) -> list[str]:
    """What ``code`` prints in a fresh process whose cache home is ``tmp_path`` (no
    NUMBA_CACHE_DIR unless given)."""
    base = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**base, "XDG_CACHE_HOME": str(tmp_path), **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split()


def _hashed(tmp_path: Path) -> str:
    """The kernels' folder under the cache home ``tmp_path``."""
    return str(kernel_cache_dir(HERE)).replace(str(Path.home() / ".cache"), str(tmp_path))


def test_importing_the_solvers_points_numba_at_that_cache(tmp_path: Path) -> None:
    code = (
        "import ruleslawyer.solvers.twist_of_fate.kernel, numba, os;"
        "print(os.environ['NUMBA_CACHE_DIR']); print(numba.config.CACHE_DIR)"
    )
    assert _cache_seen(code, tmp_path) == [_hashed(tmp_path)] * 2
    # a cache the user names is theirs
    mine = str(tmp_path / "mine")
    assert _cache_seen(code, tmp_path, NUMBA_CACHE_DIR=mine) == [mine] * 2


def test_numba_imported_first_still_caches_in_that_folder(tmp_path: Path) -> None:
    # Numba reads NUMBA_CACHE_DIR as it is imported: imported first (a test module, a
    # notebook), it would cache beside the sources but for the package reading it again
    code = "import numba, ruleslawyer.solvers.twist_of_fate.kernel; print(numba.config.CACHE_DIR)"
    assert _cache_seen(code, tmp_path) == [_hashed(tmp_path)]
