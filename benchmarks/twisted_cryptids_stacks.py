"""Benchmark: ``ruleslawyer twisted-cryptids stacks`` against the brute-force reference.

Run from the repository root: ``python benchmarks/twisted_cryptids_stacks.py``.

Rows: the committed 6-player end-of-game record (examples/twisted-cryptids/), a
6-player record before any reveal (every slot hidden: the most arrangements), and
a smaller 3-player record. For each: the solver (combinatorial counts + Z3
bounds), the brute-force enumerator (every distinct permutation, one by one) and,
on the 2-player record only, counting by enumerating Z3 models. ``stacks s`` is the
whole analysis (counts, Z3 consistency and bounds, winners); ``counts s`` the
combinatorial counts alone, the like-for-like figure beside ``brute s``. The last line is
the wall time of the whole CLI command in a fresh process (the < 2 s target).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruleslawyer.solvers.twisted_cryptids.record import load_record  # noqa: E402
from ruleslawyer.solvers.twisted_cryptids.simulate import simulated_record  # noqa: E402
from ruleslawyer.solvers.twisted_cryptids.stacks import (  # noqa: E402
    analyse,
    arrangements,
    brute_force,
    slot_counts,
    views,
    z3_enumerate_counts,
)

EXAMPLE = ROOT / "examples" / "twisted-cryptids" / "six-player-end.toml"


def timed(func, *args):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    out = func(*args)
    return out, time.perf_counter() - start


def main() -> None:
    from ruleslawyer.models.twisted_cryptids.game import builtin_game

    game = builtin_game()
    example, _ = load_record(EXAMPLE)
    records = [
        ("6 players, end of game (example)", example),
        ("6 players, before any reveal", simulated_record(6, 1, rounds=0)),
        ("3 players, after round 3", simulated_record(3, 5, rounds=3)),
        ("2 players, end of game", simulated_record(2, 4)),
    ]
    import z3  # noqa: F401  (import once so the first row is not charged for it)

    print(
        f"{'record':<34} {'arrangements':>22} {'stacks s':>9} {'counts s':>9} "
        f"{'brute s':>9} {'z3-enum s':>10}"
    )
    for label, record in records:
        result, solver_s = timed(analyse, record, game)
        product = 1
        for p in result["players"].values():
            product *= p["arrangements"]
        counts_s = 0.0
        for view in views(record, game):
            _, seconds = timed(slot_counts, view)
            counts_s += seconds
        brute_s = 0.0
        for view in views(record, game):
            (total, counts, _), seconds = timed(brute_force, view)
            brute_s += seconds
            assert total == arrangements(view) and counts == slot_counts(view)
        enum = "-"
        if len(record.players) == 2:
            enum_s = 0.0
            for view in views(record, game):
                (total, _), seconds = timed(z3_enumerate_counts, view)
                enum_s += seconds
                assert total == arrangements(view)
            enum = f"{enum_s:.3f}"
        print(
            f"{label:<34} {product:>22} {solver_s:>9.3f} {counts_s:>9.4f} "
            f"{brute_s:>9.3f} {enum:>10}"
        )
    start = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "ruleslawyer",
            "twisted-cryptids",
            "stacks",
            str(EXAMPLE),
            "--format",
            "json",
        ],
        check=True,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    print(f"CLI wall time, 6-player end-of-game record, fresh process: {wall:.3f} s")


if __name__ == "__main__":
    main()
