"""The first run: the kernels compiled before the search (and said so on a terminal), the
compile left out of every budget, and a cache folder that cannot be written."""

from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer import budget as budgets
from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.cli.twist_of_fate import kernels
from ruleslawyer.models.twist_of_fate.files import load_position
from ruleslawyer.models.twist_of_fate.play import Rules

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "twist-of-fate" / "monks-win.toml"
SOLVE = ["twist-of-fate", "solve", str(EXAMPLE), "--model", "paranoid", "--format", "json"]
COMPILING = (
    "compiling the Twist of Fate search kernels for the pruned paranoid search "
    "(first run only: later runs load them from the cache) ..."
)


def _console(args: list[str], env: dict[str, str], *, terminal: bool, cwd: Path = ROOT):
    """Run ``ruleslawyer ARGS`` in a fresh process, its stderr a terminal (a pty) or a
    pipe: (exit code, stdout, stderr)."""
    command = [sys.executable, "-c", "from ruleslawyer.cli import main; main()", *args]
    if not terminal:
        done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
        return done.returncode, done.stdout, done.stderr
    parent, child = pty.openpty()
    with subprocess.Popen(
        command, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=child, text=True
    ) as run:
        os.close(child)
        err = b""
        while True:
            try:
                chunk = os.read(parent, 1 << 16)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            err += chunk
        out = run.stdout.read() if run.stdout else ""
    os.close(parent)
    return run.returncode, out, err.decode().replace("\r\n", "\n")


def _answer(out: str) -> dict:
    doc = json.loads(out)
    for key in ("seconds", "nodes"):
        doc.pop(key)
    return doc


# ---- what prepare() compiles is what a search calls ----


def _overloads() -> set[tuple[str, str, tuple]]:
    from numba.core.registry import CPUDispatcher

    from ruleslawyer.solvers.twist_of_fate import kernel, maxn_kernel, tiers
    from ruleslawyer.solvers.twist_of_fate.pruned import search

    return {
        (module.__name__, name, signature)
        for module in (kernel, maxn_kernel, tiers, search)
        for name, f in vars(module).items()
        if isinstance(f, CPUDispatcher)
        for signature in f.overloads
    }


def test_after_prepare_no_search_needs_another_kernel(monkeypatch, tmp_path: Path) -> None:
    # Every kernel a search calls, with the argument types it passes, was compiled (or
    # loaded) by prepare(): a real search, tables growing, several threads, the Dask
    # engine's partitions, compiles and loads nothing more. (A search that did would
    # compile inside its budget, silently.)
    from ruleslawyer.solvers.twist_of_fate import dask, maxn, memory
    from ruleslawyer.solvers.twist_of_fate.pruned import driver

    kernels.prepare()
    before = _overloads()
    monkeypatch.setattr(memory, "FIRST_CAPACITY", 1 << 6)  # the tables grow
    monkeypatch.setattr(maxn, "FIRST_CAPACITY", 1 << 6)
    position = load_position(ROOT / "ruleslawyer/data/positions/twist-of-fate-3p-6.toml")
    rules = Rules()
    assert memory.solve(position, rules, threads=2).finished
    assert maxn.analyse(position, rules, "maxn", threads=2).finished
    assert maxn.paranoid_solve(position, rules, threads=2)[1].finished
    assert driver.solve(position, rules, every_move=True).finished
    options = {"workers": 0, "scheduler": None, "resume": False, "partition_states": 20000}
    assert dask.solve(position, rules, Budget(), work_dir=tmp_path / "w", **options)["finished"]
    assert [entry[:2] for entry in _overloads() - before] == []


# ---- the budget: the search's time, not the compile's ----


def test_a_budget_leaves_out_set_up_spent_while_it_runs() -> None:
    budget = Budget(max_seconds=10)
    budget.started -= 12  # twelve seconds have gone by
    assert budget.spent()
    budgets.not_counted(5)  # five of them compiling
    assert not budget.spent() and 6.9 < budget.elapsed() < 8
    assert Budget().elapsed() < 1  # set-up before a budget starts is not its own


def test_a_kernel_compile_is_left_out_of_budgets() -> None:
    from numba import njit

    import ruleslawyer.solvers.twist_of_fate.kernel  # noqa: F401 (it starts the counting)

    @njit
    def fresh(x):  # not cached: compiled here
        return x * 2 + 1

    before = budgets._NOT_COUNTED[0]
    budget = Budget(max_seconds=1000)
    assert fresh(20) == 41  # the first call compiles
    compiled = budgets._NOT_COUNTED[0] - before
    raw = time.monotonic() - budget.started
    assert compiled > 0
    assert budget.elapsed() == pytest.approx(raw - compiled, abs=0.05)
    assert fresh(21) == 43 and budgets._NOT_COUNTED[0] - before == compiled  # compiled once


def test_off_a_terminal_a_compile_is_reported_only_with_a_budget(monkeypatch, capsys) -> None:
    monkeypatch.setattr(kernels, "prepare", lambda solvers, on_compile: 12.34)
    assert kernels.compiled_first(["pruned"], max_seconds=5) == 12.34
    assert capsys.readouterr().err == (
        "compiled the Twist of Fate search kernels in 12.3 s (first run only; "
        "--max-seconds counts the search only)\n"
    )
    kernels.compiled_first(["pruned"])
    assert capsys.readouterr().err == ""  # no budget, not a terminal: output unchanged
    monkeypatch.setattr(kernels, "prepare", lambda solvers, on_compile: 0.0)
    kernels.compiled_first(["pruned"], max_seconds=5)
    assert capsys.readouterr().err == ""  # loaded from the cache: nothing to say


def test_the_first_solve_on_a_terminal_says_it_compiles(tmp_path: Path) -> None:
    # An empty cache: the kernels compile (minutes on a busy machine, against a budget of
    # one second), the terminal says so; the answer is finished and the same as a warm
    # run's, which says nothing.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONHASHSEED": "0"}
    code, out, err = _console([*SOLVE, "--max-seconds", "1"], env, terminal=True)
    assert code == 0, err
    lines = err.splitlines()
    assert lines[0] == COMPILING, err
    assert lines[1].startswith("compiled the Twist of Fate search kernels in "), err
    assert lines[1].endswith(" s (first run only; --max-seconds counts the search only)")
    assert "Traceback" not in err
    first = _answer(out)
    assert first["finished"] is True and first["guaranteed_win"] is True
    code, out, err = _console(SOLVE, env, terminal=False)
    assert (code, err) == (0, "") and _answer(out) == first
    code, _, err = _console(SOLVE, env, terminal=True)
    assert code == 0 and "compil" not in err, err


def test_compile_command_loads_what_is_cached() -> None:
    result = CliRunner().invoke(cli, ["twist-of-fate", "compile"])
    assert result.exit_code == 0, result.output
    first, cached = result.stdout.splitlines()
    assert first.startswith("the Twist of Fate search kernels were compiled already (loaded in ")
    from ruleslawyer.solvers import twist_of_fate

    assert cached == f"cached in {twist_of_fate.CACHE_DIR}"


# ---- a cache folder that cannot be written ----


def _through_a_file(tmp_path: Path) -> Path:
    """A cache path no one can make (not even root): a folder inside a regular file."""
    (tmp_path / "a-file").write_text("")
    return tmp_path / "a-file" / "cache"


def _copy_package(into: Path) -> Path:
    shutil.copytree(
        ROOT / "ruleslawyer", into / "ruleslawyer", ignore=shutil.ignore_patterns("__pycache__")
    )
    return into


def _compiled_files(tree: Path) -> list[Path]:
    return [p for p in tree.rglob("*") if p.suffix in (".nbi", ".nbc")]


def test_an_unwritable_cache_compiles_aside_with_one_warning(tmp_path: Path) -> None:
    # A writable install: Numba's own fallback would cache beside the sources (where an
    # update's kernels would load stale code); the kernels go to a temporary folder.
    source = _copy_package(tmp_path / "src")
    cache = _through_a_file(tmp_path)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(source)}
    env["TMPDIR"] = str(scratch)
    code, out, err = _console(SOLVE, env, terminal=False, cwd=tmp_path)
    assert code == 0, err
    assert err.splitlines() == [
        f"warning: {cache}: cannot cache the compiled kernels there (Not a directory): they "
        "compile into a temporary folder, again on every run (set NUMBA_CACHE_DIR to a "
        "writable folder)"
    ]
    assert json.loads(out)["guaranteed_win"] is True
    assert _compiled_files(source) == []  # nothing beside the sources
    assert list(scratch.iterdir()) == []  # the temporary folder went with the process
    code, _, err = _console(["twist-of-fate", "compile"], env, terminal=False, cwd=tmp_path)
    assert code == 2 and err == (
        f"error: {cache}: found 'Not a directory', expected a writable folder for the "
        "compiled kernels (set NUMBA_CACHE_DIR to one)\n"
    )


def test_a_read_only_install_with_a_read_only_cache_still_answers(tmp_path: Path) -> None:
    # The package on a read-only file system, and the cache on it too: no traceback (the
    # finding), one warning line, the answer.
    mount = tmp_path / "ro"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(mount)], capture_output=True
    )
    if made.returncode != 0:
        pytest.skip("mounting a tmpfs needs root")
    try:
        source = _copy_package(mount)
        (mount / "cache").mkdir()
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        env = {**os.environ, "NUMBA_CACHE_DIR": str(mount / "cache"), "PYTHONPATH": str(source)}
        code, out, err = _console(SOLVE, env, terminal=False, cwd=tmp_path)
        assert code == 0, err
        assert len(err.splitlines()) == 1 and "Read-only file system" in err, err
        assert json.loads(out)["guaranteed_win"] is True
        assert _compiled_files(mount) == []
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def test_diff_of_two_decks_compiles_the_memory_solver_first(monkeypatch, capsys) -> None:
    from ruleslawyer.cli import designer

    asked: list[list[str]] = []
    monkeypatch.setattr(
        kernels, "prepare", lambda solvers, on_compile: asked.append(solvers) or 4.5
    )
    designer._compile_if_twist_of_fate("kaelyfos", "kaelyfos", None)
    assert asked == []  # a board is checked, not solved: nothing to compile
    designer._compile_if_twist_of_fate("kaelyfos", "twist-of-fate", 10.0)
    assert asked == [["memory"]]
    assert capsys.readouterr().err == (
        "compiled the Twist of Fate search kernels in 4.5 s (first run only; "
        "--max-seconds counts the search only)\n"
    )
