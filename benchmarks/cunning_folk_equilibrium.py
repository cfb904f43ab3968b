"""Cunning Folk `equilibrium` on 30-event two-player logs, beside a plain normal-form LP.

Run: .venv/bin/python benchmarks/cunning_folk_equilibrium.py [--logs 3] [--repeat 3]

Target: a 30-event two-player log answered exactly within 10 s.

The logs: two-player standard games played on the state machine with the chooser of
benchmarks/cunning_folk_deduce.py (bea claims evil witches often, seldom challenged; no
elder runs), cut after 30 events, seen from "me", with a suspected card stated for each
player (a caught bluff or a wrong challenge ends the game: the stakes where mixing
appears). For each, the stage at C3 (bea looks there next): the wall time of the whole
`ruleslawyer cunning-folk equilibrium LOG --cell C3` command in a fresh process (best
of --repeat; its CPU time beside it, the machine being shared), the in-process times of
building the stage (worlds and elder plans) and of solving it (the two sequence-form LPs
and the exact check), and the plain reference in the same run: the stage as a matrix
game over every pure strategy of both players (one action per card for the claimant,
challenge-or-accept per claim for the challenger), solved by one LP. `same` is yes when
its value equals the exact value to 1e-9.

Three players (--three N): the first N 30-event logs of the `advise` benchmark (the
first examples/cunning-folk/thirty-events.toml), each ending in bea's pending good-elder
claim in C3 where the log allows one, and again with a suspected card stated for each
player. Target: NashConv under 0.01 of the payoff range within 60 s. Columns: wall time
of the whole `equilibrium` command in a fresh process beside `deduce` on the same log
(the reference, same run), the CFR iterations, and the NashConv measured (absolute and
as a share of the range, 2).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.cunning_folk_deduce import blind, swap_heavy_chooser  # noqa: E402
from ruleslawyer.models.cunning_folk.log import parse_log  # noqa: E402
from ruleslawyer.models.cunning_folk.play import Table  # noqa: E402
from ruleslawyer.models.cunning_folk.record import dump_log, play_and_record  # noqa: E402
from ruleslawyer.models.cunning_folk.village import CELLS, standard_setup  # noqa: E402

EVENTS = 30
CELL = "C3"
COMMAND = (sys.executable, "-m", "ruleslawyer", "cunning-folk", "equilibrium")


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
    return document if max(log.marks_now()) < 2 else None


def legal(document: dict) -> bool:
    try:
        parse_log(document, "log")
    except Exception:  # an unchallenged claim's action missing, say
        return False
    return True


def normal_form_value(game) -> float:
    """The plain reference: the stage as a matrix game over pure strategies, one LP."""
    import numpy as np
    from scipy.optimize import linprog

    rows = list(itertools.product(*(game.actions(i) for i in range(len(game.types)))))
    cols = list(itertools.product((0, 1), repeat=len(game.claims)))
    matrix = np.zeros((len(rows), len(cols)))
    for r, picks in enumerate(rows):
        for c, answers in enumerate(cols):
            total = 0.0
            for i, (p, a) in enumerate(zip(game.prior, picks, strict=True)):
                if a != "pass":
                    j = game.claims.index(a)
                    mat = game.challenge if answers[j] else game.accept
                    total += float(p) * float(mat[i][j])
            matrix[r, c] = total
    # The challenger mixes over columns maximising v with v <= row payoff for every row.
    n = len(cols)
    res = linprog(
        np.r_[np.zeros(n), -1.0],
        A_ub=np.c_[-matrix, np.ones(len(rows))],
        b_ub=np.zeros(len(rows)),
        A_eq=np.r_[np.ones(n), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * n + [(None, None)],
        method="highs",
    )
    return float(res.x[-1])


def wall(
    path: Path, repeat: int, cell: tuple[str, ...] = ("--cell", CELL), command: str = ""
) -> tuple[float, float]:
    """The best wall and CPU times of the command (``equilibrium`` unless ``command``)."""
    best, cpu = math.inf, math.inf
    argv = [*COMMAND[:-1], command] if command else list(COMMAND)
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(
            [*argv, str(path), *cell],
            check=True,
            cwd=ROOT,
            capture_output=True,
        )
        best = min(best, time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3, help="wall times: best of this many")
    parser.add_argument("--three", type=int, default=2, help="three-player logs")
    args = parser.parse_args()

    tmp = ROOT / "benchmarks" / ".cunning_folk_equilibrium_log.toml"
    print(
        f"{'log':<20} {'worlds':>7} {'types':>5} {'CLI wall s':>10} {'CLI cpu s':>9} "
        f"{'stage s':>7} {'solve s':>7} {'exact':>5} {'value':>9} {'matrix s':>8}  same"
    )
    seed, done = 2000, 0
    while done < args.logs:
        seed += 1
        document = make_log(seed)
        if document is None:
            continue
        done += 1
        run(f"seed {seed}", document, tmp, args.repeat)
        if legal(blind(document)):  # nothing seen: the most worlds (when still legal)
            run(f"seed {seed} blind", blind(document), tmp, args.repeat)
    three(args.three, tmp, args.repeat)
    tmp.unlink(missing_ok=True)


def three(count: int, tmp: Path, repeat: int) -> None:
    """The three-player rows: CFR's NashConv and the command's time beside `deduce`."""
    import json

    from benchmarks.cunning_folk_advise import CLAIM, with_claim
    from benchmarks.cunning_folk_deduce import logs

    print(
        f"\n{'three-player log':<54} {'CLI wall s':>10} {'deduce wall s':>13} "
        f"{'iterations':>10} {'NashConv':>9} {'of range':>9}"
    )
    rows = []
    for name, document in logs(count):
        document = with_claim(document, name)
        if document["event"][-1] != CLAIM:
            continue
        rows.append((name, document))
        marked = {**document, "suspected": {"me": 1, "bea": 1, "cal": 1}}
        if legal(marked):  # everyone one card from ostracism: the stakes are higher
            rows.append((f"{name}, 1 card each", marked))
    for name, document in rows:
        tmp.write_text(dump_log(document))
        cli_wall, _ = wall(tmp, repeat, ())
        deduce_wall, _ = wall(tmp, repeat, (), "deduce")
        done = subprocess.run(
            [*COMMAND, str(tmp), "--format", "json"],
            check=True,
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        out = json.loads(done.stdout)
        iterations = out["method"].split()[1]
        print(
            f"{name:<54} {cli_wall:>10.2f} {deduce_wall:>13.2f} {iterations:>10} "
            f"{out['nash_conv']:>9.6f} {out['nash_conv_of_range']:>9.6f}"
        )


def run(name: str, document: dict, tmp: Path, repeat: int) -> None:
    """One log's row: the CLI, the stage, the solve and the plain reference."""
    from ruleslawyer.solvers.cunning_folk.equilibrium import build_stage, solve
    from ruleslawyer.solvers.cunning_folk.worlds import filter_worlds

    tmp.write_text(dump_log(document))
    cli_wall, cli_cpu = wall(tmp, repeat)
    log = parse_log(document, name)
    started = time.perf_counter()
    worlds = filter_worlds(log)
    game = build_stage(worlds, log, "bea", CELLS.index(CELL))
    staged = time.perf_counter() - started
    started = time.perf_counter()
    eq = solve(game)
    solved = time.perf_counter() - started
    started = time.perf_counter()
    reference = normal_form_value(game)
    plain = time.perf_counter() - started
    same = "yes" if abs(reference - float(eq.value)) <= 1e-9 else "NO"
    print(
        f"{name:<20} {worlds.total:>7} {len(game.types):>5} "
        f"{cli_wall:>10.2f} {cli_cpu:>9.2f} {staged:>7.2f} {solved:>7.3f} "
        f"{'yes' if eq.exact else 'no':>5} {eq.value!s:>9} {plain:>8.3f}  {same}"
    )


if __name__ == "__main__":
    main()
