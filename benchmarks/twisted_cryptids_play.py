"""Benchmark: ``twisted-cryptids advise`` and ``balance``, each beside a reference measured in the
same run.

Run from the repository root:
``python benchmarks/twisted_cryptids_play.py [--games 200] [--agent-games 1] [--base REV]
[--agent-players 2 ...]``.

CLI rows: ``ruleslawyer twisted-cryptids advise`` on each shipped example record (every open
rule point ranked again, as shipped), in a fresh process, with this tree's code and with the
code of commit ``--base`` (default 09bf77e, before the other players chose for themselves;
``git archive`` into a temporary folder), alternating, three runs each: the median CPU
seconds (user + system of the child). advise rows: positions of seeded 2-player games of the
small test game (two Sighting kinds: few worlds, so that the plain reference, which plays
every world of every player's cards and Hidden Traits on its own, finishes), ``advise``
beside ``reference.plain_means``; every figure must agree. balance rows: ``balance s`` for
``--games`` seeded games under the random policy, beside a plain loop playing the same seeded
games with ``play_random`` and nothing else; then ``--agent-games`` games under ``--policy
advise`` (``--agent-players``, default 2) and the seconds a game. The last line is the CLI
wall time of ``balance --games N`` over every player count in a fresh process.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruleslawyer.models.twisted_cryptids.game import builtin_game  # noqa: E402
from ruleslawyer.models.twisted_cryptids.play import play_random  # noqa: E402
from ruleslawyer.solvers.twisted_cryptids import advise as ca  # noqa: E402
from ruleslawyer.solvers.twisted_cryptids.balance import Agent, balance  # noqa: E402
from ruleslawyer.solvers.twisted_cryptids.reference import plain_means  # noqa: E402
from ruleslawyer.solvers.twisted_cryptids.simulate import deal  # noqa: E402

EXAMPLES = ("advise-day", "advise-last-round", "tie-break", "last-round-win")


def _cpu(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """CPU seconds (user + system) of one child process running ``command``."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, capture_output=True, cwd=cwd, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cli_rows(base: str) -> None:
    import os
    import statistics
    import tempfile

    print(f"{'CLI advise':<28} {'base s':>8} {'now s':>8} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", base], check=True, capture_output=True
        )
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
        env = {**os.environ, "PYTHONPATH": str(old)}
        code = (
            "import sys; from ruleslawyer.cli.main import main; sys.argv[0] = 'ruleslawyer'; main()"
        )
        run = [sys.executable, "-c", code, "twisted-cryptids", "advise"]
        for name in EXAMPLES:
            record = str(ROOT / "examples" / "twisted-cryptids" / f"{name}.toml")
            then, now = [], []
            for _ in range(3):
                then.append(_cpu([*run, record], old, env))
                now.append(_cpu([*run, record], ROOT))
            a, b = statistics.median(then), statistics.median(now)
            print(f"{name:<28} {a:>8.2f} {b:>8.2f} {b / a:>6.2f}")


def advise_rows() -> None:
    from tests.twisted_cryptids.small import late_position, small_game

    print(
        f"\n{'advise position (small game)':<28} {'round':>6} {'moves':>6} {'advise s':>9} "
        f"{'reference s':>12} agree"
    )
    game = small_game()
    for last, seed, cards in ((False, 0, 1), (False, 6, 1), (True, 7, 0), (True, 8, 0)):
        state = late_position(game, seed, 40, cards, ("day", "choose", "reveal"), last)
        assert state is not None
        start = time.perf_counter()
        result = ca.advise(state, exact_limit=100_000)
        fast = time.perf_counter() - start
        start = time.perf_counter()
        ref = plain_means(state)
        slow = time.perf_counter() - start
        agree = all(
            abs(r["score_change"]["mean"] - ref[r["move"]]["score"]) < 1e-3
            and abs(r.get("win_chance", {"mean": 0})["mean"] - ref[r["move"]].get("win", 0)) < 1e-3
            for r in result["choices"]
        )
        name = f"seed {seed}, {cards} card{'s' * (cards != 1)}"
        print(
            f"{name:<28} {state.round:>6} {result['moves_legal']:>6} {fast:>9.2f} "
            f"{slow:>12.2f} {agree}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--agent-games", type=int, default=1)
    parser.add_argument("--base", default="09bf77e")
    parser.add_argument(
        "--agent-players", type=int, nargs="+", default=[2], help="player counts of the agent rows"
    )
    args = parser.parse_args()
    game = builtin_game()
    cli_rows(args.base)
    advise_rows()
    print(f"\n{'balance':<28} {'games':>6} {'balance s':>10} {'plain loop s':>13}")
    for players in (2, 4, 6):
        start = time.perf_counter()
        balance(game, players, args.games, 0)
        fast = time.perf_counter() - start
        start = time.perf_counter()
        for i in range(args.games):
            play_random(deal(game, players, i), random.Random(i))
        slow = time.perf_counter() - start
        print(f"{players} players{'':<20} {args.games:>6} {fast:>10.1f} {slow:>13.1f}")
    print(f"\n{'balance --policy advise':<28} {'games':>6} {'balance s':>10} {'s a game':>9}")
    for players in args.agent_players:
        start = time.perf_counter()
        balance(game, players, args.agent_games, 0, agent=Agent("advise"))
        fast = time.perf_counter() - start
        each = fast / args.agent_games
        print(f"{players} players{'':<20} {args.agent_games:>6} {fast:>10.1f} {each:>9.1f}")
    start = time.perf_counter()
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "ruleslawyer"),
            "twisted-cryptids",
            "balance",
            "--games",
            str(args.games),
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    seconds = time.perf_counter() - start
    finished = done.stdout.rstrip().endswith("finished: true")
    print(f"\nCLI balance --games {args.games}, 2..6 players: {seconds:.1f} s, finished {finished}")


if __name__ == "__main__":
    main()
