"""Twist of Fate: the first run's compile, cold and warm, beside a reference tree.

Run from the repository root:

    .venv/bin/python benchmarks/cold_compile.py [--reference REV|DIR] [--repeat 1]
        [--commands paranoid maxn exhaustive warm]

Each command runs as ``ruleslawyer ...`` in a fresh process, twice: first with a
fresh, empty ``NUMBA_CACHE_DIR`` (cold: every kernel the command needs is compiled),
then again with the cache that run left (warm: the compiled code is loaded). The
figure is the child's CPU seconds, user + system (``os.wait4``'s resource usage), which
the other jobs on a shared machine inflate far less than wall time; wall seconds are
printed beside them. With ``--reference`` the same commands run from a second source
tree, in the same run and alternating with this one: a git revision of this
repository (extracted to a temporary folder) or a folder holding a ``ruleslawyer``
package. A command the reference does not have (``warm``) is left out for it.

The commands (a shipped example; each answers in well under a second once compiled):

- ``paranoid``: ``twist-of-fate solve examples/twist-of-fate/monks-win.toml --model paranoid``
  (the pruned paranoid search: the documentation test that timed out);
- ``maxn``: ``twist-of-fate solve examples/twist-of-fate/monks-win.toml`` (max^n, the default);
- ``exhaustive``: the same with ``--model paranoid --exhaustive``;
- ``warm``: ``twist-of-fate compile`` (every kernel the solve commands use, compiled
  once; the cold figure is the whole compile, the warm one is loading it).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = "examples/twist-of-fate/monks-win.toml"
COMMANDS = {
    "paranoid": ["twist-of-fate", "solve", EXAMPLE, "--model", "paranoid"],
    "maxn": ["twist-of-fate", "solve", EXAMPLE],
    "exhaustive": ["twist-of-fate", "solve", EXAMPLE, "--model", "paranoid", "--exhaustive"],
    "warm": ["twist-of-fate", "compile"],
}
# the console script, run from a given tree (PYTHONPATH first: before the editable install)
CHILD = (
    "import sys, ruleslawyer; assert ruleslawyer.__file__.startswith(sys.argv[1]), "
    "ruleslawyer.__file__; sys.argv = ['ruleslawyer', *sys.argv[2:]]; "
    "from ruleslawyer.cli import main; main()"
)


def run(tree: Path, args: list[str], cache: Path) -> tuple[float, float, int]:
    """CPU seconds (user + system) and wall seconds of one ``ruleslawyer`` process, and
    its exit code."""
    env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": str(cache)}
    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tree), *args],
        cwd=tree,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert child.stderr is not None
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - began
    if child.returncode not in (0, 3):
        sys.exit(f"{' '.join(args)} in {tree}: exit {child.returncode}\n{err.decode()}")
    return usage.ru_utime + usage.ru_stime, wall, child.returncode


def reference_tree(spec: str, scratch: Path) -> Path:
    """A folder holding the reference's ``ruleslawyer``: ``spec`` itself, or the git
    revision ``spec`` of this repository extracted into ``scratch``."""
    if Path(spec, "ruleslawyer").is_dir():
        return Path(spec).resolve()
    out = scratch / "reference"
    out.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", spec], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", default=None, help="a git revision or a source folder")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--commands", nargs="+", default=list(COMMANDS), choices=list(COMMANDS))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cold-compile-") as scratch:
        trees = [("this tree", ROOT)]
        if args.reference is not None:
            trees.append(
                (f"reference {args.reference}", reference_tree(args.reference, Path(scratch)))
            )
        print(f"load average at start: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
        print("| command | tree | cold CPU s (user+sys) | cold wall s | warm CPU s | warm wall s |")
        print("|---|---|---|---|---|---|")
        for name in args.commands:
            for label, tree in trees:
                if name == "warm" and label != "this tree":
                    continue
                for r in range(args.repeat):
                    cache = Path(scratch, f"numba-{name}-{label.split()[0]}-{r}")
                    cold, cold_wall, _ = run(tree, COMMANDS[name], cache)
                    warm, warm_wall, _ = run(tree, COMMANDS[name], cache)
                    print(
                        f"| {name} | {label} | {cold:.1f} | {cold_wall:.1f} | {warm:.1f} | "
                        f"{warm_wall:.1f} |",
                        flush=True,
                    )
        print(f"load average at end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
