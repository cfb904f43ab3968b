"""Cunning Folk `deduce` on 30-event standard logs with 8 hidden swaps, beside brute force.

Run: /work/venv/bin/python benchmarks/cunning_folk_deduce.py [--logs 6] [--brute 6]

Each log comes from a game played on the real state machine (3 players, seen
from "me"); the first log is examples/cunning-folk/thirty-events.toml. For
each log it prints the wall time of the whole `ruleslawyer cunning-folk
deduce` command (a fresh process: imports, Z3, forward filtering, elder
planner), the in-process time of its parts, and, for the first --brute logs,
the plain brute-force enumerator (every deal times every swap outcome) on the
same log, checking that both give the same counts.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruleslawyer.models.cunning_folk.log import parse_log  # noqa: E402
from ruleslawyer.models.cunning_folk.play import (  # noqa: E402
    ALLEGE,
    CHALLENGE,
    SWAP,
    State,
    Table,
)
from ruleslawyer.models.cunning_folk.record import dump_log, play_and_record  # noqa: E402
from ruleslawyer.models.cunning_folk.village import standard_setup  # noqa: E402

EXAMPLE = ROOT / "examples" / "cunning-folk" / "thirty-events.toml"
EVENTS, SWAPS = 30, 8


def swap_heavy_chooser(rng: random.Random, me: int):
    """Other players claim evil witches often and are seldom challenged; nobody runs an elder."""

    def choose(state: State, moves: tuple[str, ...]) -> str:
        if state.phase == ALLEGE:
            if state.player != me and rng.random() < 0.6:
                return "claim evil-witch"
            quiet = [m for m in moves if "elder" not in m]
            return rng.choice(quiet)
        if state.phase == CHALLENGE:
            return "challenge" if rng.random() < 0.1 else "accept"
        if state.phase == SWAP:
            return rng.choice(moves)
        return rng.choice(moves)

    return choose


def make_log(seed: int) -> dict | None:
    """A 30-event log with exactly 8 swaps of unknown outcome, or None for this seed."""
    rng = random.Random(seed)
    deal = list(standard_setup().cards)
    rng.shuffle(deal)
    recording = play_and_record(
        Table(standard_setup(), 3),
        tuple(deal),
        swap_heavy_chooser(rng, 0),
        names=("me", "bea", "cal"),
        perspective=0,
        max_moves=400,
    )
    events = recording.document["event"][:EVENTS]
    hidden = sum(1 for e in events if e["type"] == "swap" and e["player"] != "me")
    if len(events) < EVENTS or hidden != SWAPS:
        return None
    return {**recording.document, "event": events}


def blind(document: dict) -> dict:
    """The same log with nothing seen: no peeks, no challenges (the 8 hidden swaps stay)."""
    events = []
    for event in document["event"]:
        event = {k: v for k, v in event.items() if k not in ("saw", "revealed")}
        if event["type"] == "claim":
            event["challenged"] = False
        events.append(event)
    return {**document, "event": events}


def logs(count: int) -> list[tuple[str, dict]]:
    example = tomllib.loads(EXAMPLE.read_text())
    out = [
        (str(EXAMPLE.relative_to(ROOT)), example),
        ("the same, nothing seen (worst case)", blind(example)),
    ]
    seed = 1000
    while len(out) < count:
        seed += 1
        document = make_log(seed)
        if document is not None:
            out.append((f"generated seed {seed}", document))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=6)
    parser.add_argument("--brute", type=int, default=6, help="logs to brute-force (slow)")
    args = parser.parse_args()

    from ruleslawyer.solvers.cunning_folk.deduce import deduce
    from ruleslawyer.solvers.cunning_folk.worlds import brute_force, counts_of

    tmp = ROOT / "benchmarks" / ".cunning_folk_log.toml"
    print(f"{'log':<42} {'worlds':>8} {'CLI wall s':>10} {'deduce s':>9} {'brute s':>9}  same")
    for k, (name, document) in enumerate(logs(args.logs)):
        tmp.write_text(dump_log(document))
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "ruleslawyer", "cunning-folk", "deduce", str(tmp)],
            check=True,
            cwd=ROOT,
            capture_output=True,
        )
        wall = time.perf_counter() - started
        log = parse_log(document, name)
        started = time.perf_counter()
        result = deduce(log)
        inner = time.perf_counter() - started
        brute, same = "-", "-"
        if k < args.brute:
            started = time.perf_counter()
            ends = brute_force(log)
            brute = f"{time.perf_counter() - started:9.2f}"
            fast = {c: info["counts"] for c, info in result["cells"].items()}
            same = "yes" if fast == counts_of(ends) else "NO"
        print(f"{name:<42} {result['worlds']:>8} {wall:>10.2f} {inner:>9.2f} {brute:>9}  {same}")
    tmp.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
