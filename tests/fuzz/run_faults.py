"""Run many cases of one kind of tests/fuzz/faults.py, go on past failures, and count.

    python -m tests.fuzz.run_faults KIND N [LOG]

KIND is one of ``dask-options``, ``dask-workdir``, ``designer-rulebook``, ``report-dir``.
Hypothesis draws N plans (no shrinking: a failure is written to LOG, one JSON line with
the plan and what went wrong, and the run goes on), and every 25 cases a line says how
many ran, failed, and how the runs exited. The counts in tests/fuzz/README.md were made
this way; the slow test (``-m slow``) stops at the first failure and shrinks it instead.
"""

from __future__ import annotations

import collections
import json
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, reject, settings

from tests.fuzz import faults


def main(kind: str, count: int, log: Path) -> None:
    stats: collections.Counter[str] = collections.Counter()
    began = time.monotonic()
    invoke = faults.invoke

    def counted(args: Any, cwd: Path) -> Any:
        result = invoke(args, cwd)
        stats[f"exit {result.exit_code}"] += 1
        return result

    faults.invoke = counted

    @settings(
        max_examples=count,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(plan=faults.PLANS[kind])
    def run(plan: tuple[Any, ...]) -> None:
        try:
            problem = faults.problem_of(plan)
        except faults.Unavailable:
            stats["unavailable"] += 1
            reject()
        except Exception:
            problem = "the harness failed: " + traceback.format_exc()[-2000:]
        stats["cases"] += 1
        if problem:
            stats["failed"] += 1
            with open(log, "a") as out:
                out.write(json.dumps({"plan": repr(plan)[:4000], "problem": problem[-4000:]}))
                out.write("\n")
        if stats["cases"] % 25 == 0:
            print(kind, dict(stats), f"{time.monotonic() - began:.0f} s", flush=True)

    run()
    print("done:", kind, dict(stats), f"{time.monotonic() - began:.0f} s", flush=True)


if __name__ == "__main__":  # Dask's worker processes import this module again
    name, n = sys.argv[1], int(sys.argv[2])
    main(name, n, Path(sys.argv[3] if len(sys.argv) > 3 else f"fuzz-{name}.jsonl"))
