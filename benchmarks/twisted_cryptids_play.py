"""Benchmark: ``twisted-cryptids advise`` and ``balance`` beside plain references.

Run from the repository root:
``python benchmarks/twisted_cryptids_play.py [--games 200] [--agent-games 1]``.

advise rows: positions of seeded 2-player games (players, seed, moves as the CLI takes
them), the actor's later Day turns passing (``--later-turns 0``: seed 1's position is a first
Day turn with a full hand, where choosing them is the exploding case). ``advise s`` is
the solver (the play before Dusk's reveals shared by every world);
``reference s`` plays every world from the move on its own with no sharing
(``cryptid_advise_reference.plain_means``) over the same worlds, and the means must agree.
record rows: the shipped example records and ``advise-day.toml`` one Day turn earlier with
rockslide and grant-money in hand (``later-turn``: ann's last Day turn still to come), exact,
with the actor's later Day turns chosen (``all``) or passing (``0``: ``--later-turns 0``),
beside ``plain_means`` over the same worlds.
balance rows: ``balance s`` for ``--games`` seeded games under the random policy, beside a
plain loop playing the same seeded games with ``play_random`` and nothing else (the cost of
the games themselves); then ``--agent-games`` games under ``--policy advise`` (2 and 4
players) and the seconds a game. The last line is the
CLI wall time of ``balance --games N`` over every player count in a fresh process.
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
from ruleslawyer.solvers.twisted_cryptids.simulate import deal, position  # noqa: E402


def reference_means(state, worlds):  # type: ignore[no-untyped-def]
    return {move: mine for move, (mine, _) in plain_means(state, worlds, later_turns=0).items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--agent-games", type=int, default=1)
    args = parser.parse_args()
    game = builtin_game()
    print(
        f"{'advise position':<28} {'mode':>8} {'worlds':>7} {'moves':>6} {'advise s':>9} "
        f"{'reference s':>12} agree"
    )
    for players, seed, moves, samples in ((2, 7, 58, 200), (2, 1, 60, 50)):
        state = position(game, players, seed, moves)
        start = time.perf_counter()
        result = ca.advise(state, samples=samples, seed=seed, later_turns=0)
        fast = time.perf_counter() - start
        actor = state.actor()
        if result["mode"] == "exact":
            worlds = list(ca.all_worlds(state, actor))
        else:
            worlds = list(ca.sampled_worlds(state, actor, samples, seed))
        start = time.perf_counter()
        ref = reference_means(state, worlds)
        slow = time.perf_counter() - start
        agree = all(
            abs(r["score_change"]["mean"] - ref[r["move"]]) < 1e-3 for r in result["choices"]
        )
        name = f"{players}p seed {seed} moves {moves}"
        print(
            f"{name:<28} {result['mode']:>8} {len(worlds):>7} {result['moves_legal']:>6} "
            f"{fast:>9.2f} {slow:>12.2f} {agree}"
        )
    print(
        f"\n{'advise record':<28} {'later':>6} {'worlds':>7} {'moves':>6} {'advise s':>9} "
        f"{'reference s':>12} agree"
    )
    for name, state, hidden in _records(game):
        actor = state.actor()
        for later in (None, 0):
            start = time.perf_counter()
            result = ca.advise(state, hidden=hidden, exact_limit=1000, later_turns=later)
            fast = time.perf_counter() - start
            worlds = list(ca.all_worlds(state, actor, hidden))
            start = time.perf_counter()
            ref = plain_means(state, worlds, later_turns=later)
            slow = time.perf_counter() - start
            agree = all(
                abs(r["score_change"]["mean"] - ref[r["move"]][0]) < 1e-3 for r in result["choices"]
            )
            print(
                f"{name:<28} {'all' if later is None else later:>6} {len(worlds):>7} "
                f"{result['moves_legal']:>6} {fast:>9.2f} {slow:>12.2f} {agree}"
            )
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
    for players in (2, 4):
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


def _records(game):  # type: ignore[no-untyped-def]
    import tomllib

    from ruleslawyer.solvers.twisted_cryptids.position import position_state
    from ruleslawyer.solvers.twisted_cryptids.record import parse_record

    examples = ROOT / "examples" / "twisted-cryptids"
    day = (examples / "advise-day.toml").read_text("utf-8")
    later = day.replace("day_turn = 3 ", "day_turn = 2 ").replace(
        'hand = ["grant-money"]', 'hand = ["rockslide", "grant-money"]'
    )
    texts = {
        "advise-day.toml": day,
        "advise-last-round.toml": (examples / "advise-last-round.toml").read_text("utf-8"),
        "advise-day.toml later-turn": later,
    }
    for name, text in texts.items():
        state, hidden = position_state(parse_record(tomllib.loads(text), name), game, name)
        yield name, state, hidden


if __name__ == "__main__":
    main()
