"""Cunning Folk `advise` on 30-event logs with 8 hidden swaps, beside `deduce` and brute force.

Run: .venv/bin/python benchmarks/cunning_folk_advise.py [--logs 4] [--brute 1] [--repeat 3]

Target: advise on a 30-event log under 2 s.

The logs are those of benchmarks/cunning_folk_deduce.py (the first is
examples/cunning-folk/thirty-events.toml, the second the same with nothing
seen), each with a pending claim added at the end where the log allows one
(bea says C3 is the good elder). For each it prints the wall time of the whole
`ruleslawyer cunning-folk advise` command in a fresh process, beside the wall
time of `ruleslawyer cunning-folk deduce` on the same log in the same run (the
reference; both the best of --repeat runs), the CPU time (user + system) of the advise
process (the machine is shared: wall time also counts waiting), the in-process time of
advise, and, for the first --brute logs, the plain references (every deal times every
swap outcome replayed, then the information gain and the claim's chance from plain
dictionaries; and the claim's game stakes played on the state machine,
solvers/cunning_folk_advise_reference.py), checking they agree: `same` is yes when the
information gain, the claim's chance and each answer's P(win), P(loss), P(open) all do.
"""

from __future__ import annotations

import argparse
import math
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.cunning_folk_deduce import logs  # noqa: E402
from ruleslawyer.errors import RulesLawyerError  # noqa: E402
from ruleslawyer.models.cunning_folk.log import parse_log  # noqa: E402
from ruleslawyer.models.cunning_folk.record import dump_log  # noqa: E402

CLAIM = {"type": "claim", "player": "bea", "cell": "C3", "role": "good-elder"}


def with_claim(document: dict, name: str) -> dict:
    """The log with bea's claim pending at the end, when a legal game allows it there."""
    claimed = {**document, "event": [*document["event"], CLAIM]}
    try:
        parse_log(claimed, name)
    except RulesLawyerError:
        return document
    return claimed


def wall(command: str, path: Path, repeat: int) -> tuple[float, float]:
    """The best of ``repeat`` wall times, and of CPU times, of the command in a fresh
    process."""
    best, cpu = math.inf, math.inf
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "ruleslawyer", "cunning-folk", command, str(path)],
            check=True,
            cwd=ROOT,
            capture_output=True,
        )
        best = min(best, time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        cpu = min(cpu, used)
    return best, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=4)
    parser.add_argument("--brute", type=int, default=1, help="logs to brute-force (slow)")
    parser.add_argument("--repeat", type=int, default=3, help="wall times: best of this many")
    args = parser.parse_args()

    from ruleslawyer.models.cunning_folk.village import CELLS
    from ruleslawyer.solvers.cunning_folk.advise import advise, pending_claim
    from ruleslawyer.solvers.cunning_folk.reference import reference_stakes
    from ruleslawyer.solvers.cunning_folk.worlds import brute_force
    from tests.cunning_folk.test_advise import reference_gain, reference_probability

    tmp = ROOT / "benchmarks" / ".cunning_folk_advise_log.toml"
    print(
        f"{'log':<42} {'claim':>5} {'worlds':>9} {'advise wall s':>13} {'deduce wall s':>13} "
        f"{'advise cpu s':>12} {'advise s':>8} {'brute s':>8}  same"
    )
    for k, (name, document) in enumerate(logs(args.logs)):
        document = with_claim(document, name)
        tmp.write_text(dump_log(document))
        advise_wall, advise_cpu = wall("advise", tmp, args.repeat)
        deduce_wall, _ = wall("deduce", tmp, args.repeat)
        log = parse_log(document, name)
        claim = pending_claim(document, log)
        started = time.perf_counter()
        result = advise(log, claim)
        inner = time.perf_counter() - started
        brute, same = "-", "-"
        if k < args.brute:
            started = time.perf_counter()
            ends = brute_force(log)
            gains = {cell: reference_gain(ends, c) for c, cell in enumerate(CELLS)}
            chance = claim and reference_probability(ends, claim.cell, claim.role)
            stakes = claim and reference_stakes(log, claim, ends=ends)
            brute = f"{time.perf_counter() - started:8.2f}"
            fast = {row["cell"]: row["bits"] for row in result["investigate"]}
            agree = all(math.isclose(fast[c], gains[c], abs_tol=1e-6) for c in CELLS)
            agree &= claim is None or result["claim"]["true_fraction"] == str(chance)
            agree &= not stakes or all(
                result["claim"][answer]["game"][k] == str(stakes[answer][k])
                for answer in ("challenge", "accept")
                for k in ("win", "loss", "open")
            )
            same = "yes" if agree else "NO"
        print(
            f"{name:<42} {'yes' if claim else 'no':>5} {result['worlds']:>9} {advise_wall:>13.2f} "
            f"{deduce_wall:>13.2f} {advise_cpu:>12.2f} {inner:>8.2f} {brute:>8}  {same}"
        )
    tmp.unlink(missing_ok=True)
    floor = math.inf
    for _ in range(args.repeat):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "ruleslawyer", "--help"],
            check=True,
            cwd=ROOT,
            capture_output=True,
        )
        floor = min(floor, time.perf_counter() - started)
    print(f"floor, same run: `ruleslawyer --help` in a fresh process {floor:.2f} s")


if __name__ == "__main__":
    main()
