"""Twist of Fate: the pruned paranoid solver beside the exhaustive one, in the same run.

Run from the repository root:

    .venv/bin/python benchmarks/twist_of_fate_pruned.py [--positions 3p-9 3p-12 18]
        [--exhaustive 3p-9] [--every 3p-12] [--deal 12 13 14 15] [--before | --levers]
        [--max-seconds 600]

For each position (``3p-6``, ``3p-9``, ``3p-12``, ``2p-10``: the shipped
ruleslawyer/data/positions/twist-of-fate-<name>.toml; the opening rounds ``18``
(3 players, benchmarks/twist-of-fate-3p-18-start.toml), ``4p-24`` and ``2p-18``
(benchmarks/twist-of-fate-4p-24-start.toml, -2p-18-start.toml); a number from
``--deal``: the 3-player opening round dealt down, see :func:`dealt`), each solve in
a fresh process (after one untimed run that loads the compiled code): wall and CPU
seconds, nodes or states, and the answer (best move, value of the player to move,
guaranteed Sanctuary and win). The solves:

- ``pruned``: ``solve --model paranoid`` as the command line runs it (best move and
  guarantees, :func:`ruleslawyer.solvers.twist_of_fate.pruned.driver.solve`); the
  whole command is also timed (``pruned cli``: process start, reading the file,
  loading the compiled code);
- ``pruned, <levers>``: the same search with the levers of :data:`LEVERS`
  (``--levers``: each; ``--before``: none of them, the search before them);
- ``pruned every``: every root move scored exactly (``--every-move``), for the
  positions of ``--every`` (and before the levers, with ``--before`` or ``--levers``);
- ``exhaustive``: ``solve --model paranoid --exhaustive`` (every state, one thread),
  for the positions of ``--exhaustive`` only (3p-12 does not fit in this machine's
  memory: 528 M states).

The answers of all the solves of one position that finished are checked identical
(the run stops otherwise), and so is a recorded answer where
``tests/twist_of_fate/recorded/`` holds one (3p-12: an exhaustive run of the Dask
engine; the 3-player opening round: the pruned search's, with every opening scored;
the command in each file). The ``cli floor`` row is the same command with
``--max-states 1``: process start, imports, reading the file and loading the
compiled code, with no search. ``--max-seconds`` bounds each solve (unfinished:
noted).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POSITIONS = ROOT / "ruleslawyer" / "data" / "positions"
OPENING = ROOT / "benchmarks" / "twist-of-fate-3p-18-start.toml"
# the opening rounds: 3 players (``18``), 4 players, 2 players (the Monks; one deal)
OPENINGS = {
    "18": OPENING,
    "4p-24": ROOT / "benchmarks" / "twist-of-fate-4p-24-start.toml",
    "2p-18": ROOT / "benchmarks" / "twist-of-fate-2p-18-start.toml",
}
RECORDED = ROOT / "tests" / "twist_of_fate" / "recorded"  # exhaustive answers out of reach here
BIN = Path(sys.executable).parent / "ruleslawyer"
CHARACTERS = ["Mr. Brownlow", "Nancy", "Fagin", "Bill Sikes", "Mr. Bumble", "The Artful Dodger"]

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
from ruleslawyer.budget import Budget
from ruleslawyer.models.twist_of_fate.files import load_position
from ruleslawyer.models.twist_of_fate.play import Rules
kind, path, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
levers = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {{}}
position = load_position(path)
rules = Rules.from_rulings(dict(position.rulings))
me = position.names[position.state.active]
if kind.startswith("pruned"):
    from ruleslawyer.solvers.twist_of_fate.pruned import driver
    driver.solve(position, rules, Budget(max_states=1))  # load the compiled code
    cpu = time.process_time(); wall = time.perf_counter()
    found = driver.solve(position, rules, Budget(max_seconds=seconds),
                         every_move=kind == "pruned every", levers=driver.Levers(**levers),
                         table_bytes=driver.table_bytes_for(position, 5 << 30))
    wall = time.perf_counter() - wall; cpu = time.process_time() - cpu
    out = driver.answer_json(position, found)
    count = {{"nodes": found.nodes, "expanded": found.expanded}}
else:
    from ruleslawyer.solvers.twist_of_fate.maxn import paranoid_json, paranoid_solve
    cpu = time.process_time(); wall = time.perf_counter()
    analysis, result = paranoid_solve(position, rules, Budget(max_seconds=seconds), threads=1,
                                      max_table_bytes=8 << 30)
    wall = time.perf_counter() - wall; cpu = time.process_time() - cpu
    out = paranoid_json(position, analysis, result)
    count = {{"states": analysis.states}}
answer = {{k: out.get(k) for k in ("best_move", "guaranteed_sanctuary", "guaranteed_win")}}
answer["value"] = out["value"][me] if out.get("value") else None
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({{"wall": wall, "cpu": cpu, "finished": out["finished"], "answer": answer,
                  "peak": peak, **count}}))
"""


def dealt(cards: int, where: Path) -> Path:
    """The 3-player opening round dealt down to ``cards`` cards in all: each player's
    hand the first characters of their colour in the order ``CHARACTERS`` (the deck's
    order), Ann's first, then Bob's, then Cat's (13: Ann 5, Bob 4, Cat 4); the seats
    as at the start (Luck, Shilling, Sanctuary 0, nothing in front), Ann to move."""
    per = [cards // 3 + (1 if s < cards % 3 else 0) for s in range(3)]
    lines = ['deck = "twist-of-fate"', 'active = "ann"']
    for name, n in zip(("ann", "bob", "cat"), per, strict=True):
        hand = ", ".join(f'"{c}"' for c in CHARACTERS[:n])
        lines += [
            "[[player]]", f'name = "{name}"', "luck = 0", "shilling = 0", "sanctuary = 0",
            f"hand = [{hand}]", "in_front = []",
        ]  # fmt: skip
    path = where / f"twist-of-fate-3p-{cards}-dealt.toml"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def run(kind: str, path: Path, seconds: float, levers: dict | None = None) -> dict:
    code = CHILD.format(root=str(ROOT))
    env = dict(os.environ)
    out = subprocess.run(
        [sys.executable, "-c", code, kind, str(path), str(seconds), json.dumps(levers or {})],
        check=True, capture_output=True, text=True, env=env,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_cli(path: Path, seconds: float, *extra: str) -> dict:
    """``ruleslawyer twist-of-fate solve PATH --model paranoid`` timed whole."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    args = [str(BIN), "twist-of-fate", "solve", str(path), "--model", "paranoid", *extra]
    done = subprocess.run(
        [*args, "--format", "json", "--max-seconds", str(seconds)], capture_output=True, text=True
    )
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out = json.loads(done.stdout)
    return {"wall": wall, "cpu": cpu, "finished": out["finished"], "nodes": out.get("nodes")}


def _move(m: dict | None) -> str:
    if m is None:
        return "-"
    how = f"side {m['side']}" if m["play"] == "face-up" else "face down"
    return f"{m['card']} on {m['target']}, {how}"


def _yes(flag: bool | None) -> str:
    return "-" if flag is None else "yes" if flag else "no"


def _value(v: dict | None) -> str:
    if v is None:
        return "-"
    if v["outcome"] == "open":
        return f"open {v['sanctuary']} / {v['luck_plus_shilling']}"
    return f"{v['outcome']} ply {v['ply']}"


# the levers of the pruned search (driver.Levers), side by side: "pruned" runs the defaults
# (the rise bound and the others out of the keys); BEFORE is the search before them. (The
# coarse-first levers were measured at commit 3454e56 and dropped: benchmarks/README.md.)
BEFORE = {"rise": False, "others_out": False}
LEVERS = {
    "before: no lever": BEFORE,
    "rise bound": {"rise": True, "others_out": False},
    "others out": {"rise": False, "others_out": True},
}


def _row(name: str, kind: str, r: dict) -> str:
    count = f"{r['nodes']:,} ({r['expanded']:,})" if "nodes" in r else f"{r['states']:,}"
    a = r["answer"]
    return (
        f"| {name} | {kind} | {'yes' if r['finished'] else 'no'} | {count} | "
        f"{r['wall']:.3f} | {r['cpu']:.3f} | {_move(a['best_move'])} | "
        f"{_value(a['value'])} | {a['guaranteed_sanctuary']} | {_yes(a['guaranteed_win'])} |"
    )


def _recorded(name: str, path: Path, answers: dict) -> None:
    """Print and add to ``answers`` the recorded answer of ``path``, if there is one."""
    record = RECORDED / f"{path.stem}-paranoid.json"
    if not record.is_file():
        return
    a = json.loads(record.read_text("utf-8"))["answer"]
    answers["recorded"] = {
        "best_move": a["best_move"],
        "guaranteed_sanctuary": a["guaranteed_sanctuary"],
        "guaranteed_win": a["guaranteed_win"],
        "value": a["value"][a["player"]],
    }
    states = f"{a['end_states']:,} end states" if a.get("end_states") else "-"
    print(
        f"| {name} | recorded ({record.name}) | yes | {states} | | | {_move(a['best_move'])} "
        f"| {_value(a['value'][a['player']])} | {a['guaranteed_sanctuary']} "
        f"| {_yes(a['guaranteed_win'])} |",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", nargs="*", default=["3p-9", "3p-12"])
    parser.add_argument("--exhaustive", nargs="*", default=["3p-9"])
    parser.add_argument("--every", nargs="*", default=[])
    parser.add_argument("--deal", nargs="*", type=int, default=[])
    parser.add_argument("--before", action="store_true", help="also the search before the levers")
    parser.add_argument("--levers", action="store_true", help="every lever combination")
    parser.add_argument("--max-seconds", type=float, default=600.0)
    args = parser.parse_args()
    where = Path(os.environ.get("TMPDIR", "/tmp")) / "twist_of_fate_pruned"
    where.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name in args.positions:
        paths[name] = OPENINGS.get(name, POSITIONS / f"twist-of-fate-{name}.toml")
    for cards in args.deal:
        paths[f"dealt-{cards}"] = dealt(cards, where)
    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(
        "| position | solve | finished | nodes (expanded) / states | wall s | CPU s | "
        "best move | value | guaranteed Sanctuary | guaranteed win |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, path in paths.items():
        solves: list[tuple[str, str, dict | None]] = [("pruned", "pruned", None)]
        if args.levers:
            solves += [(f"pruned, {label}", "pruned", v) for label, v in LEVERS.items()]
        elif args.before:
            solves.append(("pruned, before: no lever", "pruned", BEFORE))
        if name in args.every:
            solves.append(("pruned every", "pruned every", None))
            if args.before or args.levers:
                solves.append(("pruned every, before: no lever", "pruned every", BEFORE))
        if name in args.exhaustive:
            solves.append(("exhaustive (1 thread)", "exhaustive", None))
        answers = {}
        for label, kind, levers in solves:
            r = run(kind, path, args.max_seconds, levers)
            print(_row(name, label, r), flush=True)
            if r["finished"]:
                answers[label] = r["answer"]
            if label == "pruned" and not name.startswith("dealt"):
                for cli_label, extra in (("pruned cli", ()), ("cli floor", ("--max-states", "1"))):
                    c = run_cli(path, args.max_seconds, *extra)
                    print(
                        f"| {name} | {cli_label} | {'yes' if c['finished'] else 'no'} | "
                        f"{c['nodes']:,} | {c['wall']:.3f} | {c['cpu']:.3f} | | | | |",
                        flush=True,
                    )
        _recorded(name, path, answers)
        if len(answers) > 1:
            first = next(iter(answers.values()))
            if any(a != first for a in answers.values()):
                sys.exit(f"{name}: the answers differ: {answers}")
            print(f"| {name} | answers identical | | | | | | | | |", flush=True)
    load = os.getloadavg()
    print(f"load average at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
