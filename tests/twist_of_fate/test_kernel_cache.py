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


def test_importing_the_solvers_points_numba_at_that_cache(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    code = (
        "import ruleslawyer.solvers.twist_of_fate.kernel, numba, os;"
        "print(os.environ['NUMBA_CACHE_DIR']); print(numba.config.CACHE_DIR)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert (
        out[0]
        == out[1]
        == str(kernel_cache_dir(HERE)).replace(str(Path.home() / ".cache"), str(tmp_path))
    )
    # a cache the user names is theirs
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "mine")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [str(tmp_path / "mine")] * 2


def test_numba_imported_first_still_caches_in_that_folder(tmp_path: Path) -> None:
    # Numba reads NUMBA_CACHE_DIR as it is imported: imported first (a test module, a
    # notebook), it would cache beside the sources but for the package reading it again
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    code = (
        "import numba; import ruleslawyer.solvers.twist_of_fate.kernel;"
        "print(numba.config.CACHE_DIR)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == str(kernel_cache_dir(HERE)).replace(str(Path.home() / ".cache"), str(tmp_path))
