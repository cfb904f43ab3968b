"""Cunning Folk `equilibrium` on 30-event logs, beside the old code measured in the same run.

Run: .venv/bin/python benchmarks/cunning_folk_equilibrium.py [--logs 3] [--repeat 2] [--three 2]
     [--old DIR]

Target: a 30-event two-player log answered exactly, with the claimant's choice of cell,
within 10 s.

Two players: two-player standard games played on the state machine with the chooser of
benchmarks/cunning_folk_deduce.py (bea claims evil witches often, seldom challenged; no
elder runs), cut after 30 events, seen from "me", with a suspected card stated for each
player (a caught bluff or a wrong challenge ends the game). For each: the wall and CPU
time of the whole `ruleslawyer cunning-folk equilibrium LOG` command in a fresh process
(the claimant chooses the cell), the same with `--cell C3`, and the old code's command
with `--cell C3` (the old stage took the cell as given; the tree --old is the commit
before per-player knowledge, made by `git archive 09bf77e | tar -x -C DIR`), each the best
of --repeat; the claimant's information states and the stage's types; whether the answer
is exact (checked by exact best responses).

Three players (--three N): the first N 30-event logs of the `advise` benchmark, each ending
in bea's pending good-elder claim in C3 where the log allows one, and again with a
suspected card stated for each player: the command beside the old code's and `deduce`
(the reference), the CFR iterations and the NashConv measured (absolute and as a share of
the payoff range, 2), or why it did not finish.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.cunning_folk_advise import CLAIM, timed, with_claim  # noqa: E402
from benchmarks.cunning_folk_deduce import logs, swap_heavy_chooser  # noqa: E402
from ruleslawyer.models.cunning_folk.log import parse_log  # noqa: E402
from ruleslawyer.models.cunning_folk.play import Table  # noqa: E402
from ruleslawyer.models.cunning_folk.record import dump_log, play_and_record  # noqa: E402
from ruleslawyer.models.cunning_folk.village import standard_setup  # noqa: E402

EVENTS = 30


def make_log(seed: int) -> dict | None:
    """A 30-event two-player log with both players still in, or None for this seed."""
    rng = random.Random(seed)
    deal = list(standard_setup().cards)
    rng.shuffle(deal)
    recording = play_and_record(
        Table(standard_setup(), 2),
        tuple(deal),
        swap_heavy_chooser(rng, 0),
        names=("me", "bea"),
        perspective=0,
        max_moves=400,
    )
    events = recording.document["event"][:EVENTS]
    if len(events) < EVENTS or events[-1]["type"] == "claim":
        return None
    document = {**recording.document, "event": events, "suspected": {"me": 1, "bea": 1}}
    try:
        log = parse_log(document, f"seed {seed}")
    except Exception:  # the log makes more suspected cards certain than stated
        return None
    return document if max(log.marks_now()) < 2 and not log.standing.pending else None


def command(path: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "ruleslawyer",
        "cunning-folk",
        "equilibrium",
        str(path),
        *extra,
        "--format",
        "json",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=2, help="wall times: best of this many")
    parser.add_argument("--three", type=int, default=2, help="three-player logs")
    parser.add_argument("--old", type=Path, default=Path("/tmp/cf-old"), help="the old tree")
    args = parser.parse_args()
    tmp = ROOT / "benchmarks" / ".cunning_folk_equilibrium_log.toml"
    print(
        f"{'log':<12} {'worlds':>7} {'states':>6} {'types':>5} {'choice wall s':>13} "
        f"{'choice cpu s':>12} {'C3 wall s':>9} {'C3 cpu s':>8} {'old C3 wall s':>13} "
        f"{'old C3 cpu s':>12} {'exact':>5}"
    )
    seed, done = 2000, 0
    while done < args.logs:
        seed += 1
        document = make_log(seed)
        if document is None:
            continue
        done += 1
        tmp.write_text(dump_log(document))
        choice_wall, choice_cpu, out = timed(command(tmp), ROOT, args.repeat)
        c3_wall, c3_cpu, _ = timed(command(tmp, "--cell", "C3"), ROOT, args.repeat)
        old = ("-", "-")
        if args.old.is_dir():
            w, c, _ = timed(command(tmp, "--cell", "C3"), args.old, args.repeat)
            old = (f"{w:.2f}", f"{c:.2f}")
        result = json.loads(out)
        stage = result.get("stage_game", {})
        exact = "yes" if result.get("exact") else "no" if result["finished"] else "unfinished"
        print(
            f"seed {seed:<7} {result['worlds']:>7} {stage.get('classes', '-'):>6} "
            f"{stage.get('types', '-'):>5} {choice_wall:>13.2f} {choice_cpu:>12.2f} "
            f"{c3_wall:>9.2f} {c3_cpu:>8.2f} {old[0]:>13} {old[1]:>12} {exact:>5}"
        )
    three(args.three, tmp, args.repeat, args.old)
    tmp.unlink(missing_ok=True)


def three(count: int, tmp: Path, repeat: int, old_tree: Path) -> None:
    """The three-player rows: CFR's NashConv and the command's time beside the old code's
    and `deduce`'s."""
    print(
        f"\n{'three-player log':<54} {'wall s':>6} {'cpu s':>5} {'old wall s':>10} "
        f"{'deduce wall s':>13} {'iterations':>10} {'NashConv':>9} {'of range':>9}"
    )
    rows = []
    for name, document in logs(count):
        document = with_claim(document, name)
        if document["event"][-1] != CLAIM:
            continue
        rows.append((name, document))
        marked = {**document, "suspected": {"me": 1, "bea": 1, "cal": 1}}
        try:
            parse_log(marked, name)
            rows.append((f"{name}, 1 card each", marked))
        except Exception:  # the log makes more suspected cards certain than stated
            pass
    for name, document in rows:
        tmp.write_text(dump_log(document))
        cli_wall, cli_cpu, out = timed(command(tmp), ROOT, repeat)
        old = "-"
        if old_tree.is_dir():
            old = f"{timed(command(tmp), old_tree, repeat)[0]:.2f}"
        deduce = [sys.executable, "-m", "ruleslawyer", "cunning-folk", "deduce", str(tmp)]
        deduce_wall, _, _ = timed(deduce, ROOT, repeat)
        result = json.loads(out)
        if result["finished"]:
            figures = (
                f"{result['method'].split()[1].rstrip(','):>10} {result['nash_conv']:>9.6f} "
                f"{result['nash_conv_of_range']:>9.6f}"
            )
        else:
            figures = f"unfinished: {result['unfinished']}"
        print(
            f"{name:<54} {cli_wall:>6.2f} {cli_cpu:>5.2f} {old:>10} {deduce_wall:>13.2f} {figures}"
        )


if __name__ == "__main__":
    main()
