"""Cunning Folk `advise` on 30-event logs with 8 hidden swaps, beside the old code and `deduce`.

Run: .venv/bin/python benchmarks/cunning_folk_advise.py [--logs 4] [--repeat 3] [--old DIR]

Target: advise on a 30-event log (examples/cunning-folk/thirty-events.toml) under 2 s.

The logs are those of benchmarks/cunning_folk_deduce.py (the first is
examples/cunning-folk/thirty-events.toml, the second the same with nothing seen), each with
a pending claim added at the end where the log allows one (bea says C3 is the good elder).
For each it prints the wall and CPU time of the whole `ruleslawyer cunning-folk advise`
command in a fresh process, the same for the old code (the tree --old: the commit before
per-player knowledge, made by `git archive 09bf77e | tar -x -C DIR`; its command run from
that folder imports it), and of `ruleslawyer cunning-folk deduce` (the reference), all in
the same run, each the best of --repeat; the claimant's information states in "me"'s
worlds; and how advise ended (finished, or why not).
"""

from __future__ import annotations

import argparse
import json
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


def timed(argv: list[str], cwd: Path, repeat: int) -> tuple[float, float, str]:
    """The best of ``repeat`` wall times and CPU times of a command in a fresh process,
    and its stdout."""
    best, cpu, out = math.inf, math.inf, ""
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
        best = min(best, time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        out = done.stdout
    return best, cpu, out


def command(name: str, path: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "ruleslawyer",
        "cunning-folk",
        name,
        str(path),
        "--format",
        "json",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3, help="wall times: best of this many")
    parser.add_argument("--old", type=Path, default=Path("/tmp/cf-old"), help="the old tree")
    args = parser.parse_args()
    tmp = ROOT / "benchmarks" / ".cunning_folk_advise_log.toml"
    print(
        f"{'log':<42} {'claim':>5} {'worlds':>9} {'states':>6} {'advise wall s':>13} "
        f"{'advise cpu s':>12} {'old wall s':>10} {'old cpu s':>9} {'deduce wall s':>13}  ended"
    )
    for name, document in logs(args.logs):
        document = with_claim(document, name)
        tmp.write_text(dump_log(document))
        new_wall, new_cpu, out = timed(command("advise", tmp), ROOT, args.repeat)
        old = ("-", "-")
        if args.old.is_dir():
            w, c, _ = timed(command("advise", tmp), args.old, args.repeat)
            old = (f"{w:.2f}", f"{c:.2f}")
        deduce_wall, _, _ = timed(command("deduce", tmp), ROOT, args.repeat)
        result = json.loads(out)
        claim = result.get("claim")
        states = claim["claimant_classes"] if claim else "-"
        ended = "finished" if result["finished"] else result["unfinished"]
        worlds = result["worlds"] if result["worlds"] is not None else "-"
        print(
            f"{name:<42} {'yes' if CLAIM in document['event'] else 'no':>5} {worlds:>9} "
            f"{states:>6} {new_wall:>13.2f} {new_cpu:>12.2f} {old[0]:>10} {old[1]:>9} "
            f"{deduce_wall:>13.2f}  {ended}"
        )
    tmp.unlink(missing_ok=True)
    floor, _, _ = timed([sys.executable, "-m", "ruleslawyer", "--help"], ROOT, args.repeat)
    print(f"floor, same run: `ruleslawyer --help` in a fresh process {floor:.2f} s")


if __name__ == "__main__":
    main()
