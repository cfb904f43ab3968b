"""Cunning Folk's three- and four-player claim stage: the project's CFR+ (solvers/cunning_folk/
cfr.py) beside OpenSpiel's CFR+ and external-sampling MCCFR on the same stage, in one run.

Run: .venv/bin/python benchmarks/cunning_folk_cfr.py [--json FILE]

The stages are the ones `cunning-folk equilibrium` solves for examples/cunning-folk/
pending-claim.toml (bea's pending good-elder claim in C3), with three players and with a
fourth (dan) added, each as logged and with a suspected card stated for every player. The
OpenSpiel game is the same stage written out by ruleslawyer/openspiel/cunning_folk_stage.py
(its NashConv is the project's: tests/openspiel/test_cunning_folk_stage.py). For each
solver: the NashConv of the average profile after each number of iterations, and the CPU
seconds the iterations took (the NashConv measurements are not counted). OpenSpiel's
solvers are its C++ ones (pyspiel); its Python CFR+ (open_spiel.python.algorithms.cfr) is
run to 100 iterations only.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import cfr as py_cfr  # noqa: E402
from open_spiel.python.algorithms import exploitability  # noqa: E402

from ruleslawyer.openspiel import cunning_folk_stage as stage  # noqa: E402
from ruleslawyer.solvers.cunning_folk import cfr  # noqa: E402

LOG = ROOT / "examples" / "cunning-folk" / "pending-claim.toml"
CFR_STEPS = (10, 100, 300, 1000, 3000)
MCCFR_STEPS = (1000, 10000, 100000)
PYTHON_STEPS = (10, 100)


def stages() -> list[tuple[str, dict]]:
    out = []
    for players in (3, 4):
        for suspected in (False, True):
            document = tomllib.loads(LOG.read_text())
            names = ["me", "bea", "cal", "dan"][:players]
            document["players"] = names
            if suspected:
                document["suspected"] = dict.fromkeys(names, 1)
            out.append((f"{players} players{', suspected cards' if suspected else ''}", document))
    return out


def run(steps: tuple[int, ...], step: object, measure: object) -> list[dict]:
    """Iterate with ``step(t)`` up to each count in ``steps``; the NashConv there."""
    rows, cpu, done = [], 0.0, 0
    for n in steps:
        start = time.process_time()
        while done < n:
            done += 1
            step(done)  # type: ignore[operator]
        cpu += time.process_time() - start
        rows.append({"iterations": n, "cpu_s": round(cpu, 3), "nash_conv": measure()})  # type: ignore[operator]
    return rows


def bench(name: str, document: dict) -> dict:
    start = time.process_time()
    game = stage.stage_of(document, name)
    built = time.process_time() - start
    start = time.process_time()
    efg = pyspiel.load_efg_game(stage.multi_efg(game))
    loaded = time.process_time() - start
    profile = cfr.Profile.empty(game)
    own = run(CFR_STEPS, lambda t: cfr.iterate(profile, t), lambda: cfr.nash_conv(profile)[0])
    plus = pyspiel.CFRPlusSolver(efg)
    theirs = run(
        CFR_STEPS,
        lambda t: plus.evaluate_and_update_policy(),
        lambda: pyspiel.nash_conv(efg, plus.average_policy()),
    )
    sampling = pyspiel.ExternalSamplingMCCFRSolver(efg, 1)
    mccfr = run(
        MCCFR_STEPS,
        lambda t: sampling.run_iteration(),
        lambda: pyspiel.nash_conv(efg, sampling.average_policy()),
    )
    python = py_cfr.CFRPlusSolver(efg)
    python_rows = run(
        PYTHON_STEPS,
        lambda t: python.evaluate_and_update_policy(),
        lambda: exploitability.nash_conv(efg, python.average_policy()),
    )
    return {
        "stage": name,
        "outcomes": len(game.kind),
        "types": len(game.types),
        "answerer_classes": [len(c) for c in game.classes],
        "build_cpu_s": round(built, 3),
        "efg_load_cpu_s": round(loaded, 3),
        "project_cfr_plus": own,
        "openspiel_cfr_plus_cpp": theirs,
        "openspiel_external_sampling_mccfr_cpp": mccfr,
        "openspiel_cfr_plus_python": python_rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    results = []
    for name, document in stages():
        result = bench(name, document)
        results.append(result)
        print(
            f"{name}: {result['outcomes']} chance outcomes, {result['types']} claimant types, "
            f"answerer classes {result['answerer_classes']}; stage built in "
            f"{result['build_cpu_s']} CPU s, .efg loaded in {result['efg_load_cpu_s']} s"
        )
        for key in (
            "project_cfr_plus",
            "openspiel_cfr_plus_cpp",
            "openspiel_external_sampling_mccfr_cpp",
            "openspiel_cfr_plus_python",
        ):
            cells = "  ".join(
                f"{r['iterations']}: {r['nash_conv']:.2e} ({r['cpu_s']} s)" for r in result[key]
            )
            print(f"  {key:<38} {cells}")
        sys.stdout.flush()
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
