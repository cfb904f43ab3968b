"""Self-play that makes the continuation table (:mod:`.continuation`), state by state.

Run (the shipped table is this command's output; its header names the ``--games`` and
``--seed`` it was made with; ``--players`` and ``--no-head`` make it in parts, to be
joined one after another)::

    .venv/bin/python -m ruleslawyer.solvers.cunning_folk.goes_on.selfplay \\
        --games 4 --seed 0 -o ruleslawyer/data/cunning-folk-continuation.toml

Game ``g`` of a state is dealt and played from ``random.Random(f"{seed}/continuation/
{marks}/{g}")``, every seat the ``balance`` ``advise`` agent valuing a game that goes on at
0, so a state's games come out the same on every run.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from ruleslawyer.models.cunning_folk.play import Table as Rules
from ruleslawyer.models.cunning_folk.village import standard_setup
from ruleslawyer.solvers.cunning_folk.balance import advise_policy, play
from ruleslawyer.solvers.cunning_folk.goes_on.continuation import (
    CHECK_GAMES,
    MAX_MOVES,
    METHOD,
    SEED,
    Row,
    states,
    zero,
)

COMMAND = ".venv/bin/python -m ruleslawyer.solvers.cunning_folk.goes_on.selfplay"


def play_state(marks: tuple[int, ...], game: int, seed: int = SEED) -> tuple[int, int]:
    """One game of ``marks``'s state: the winning position (-1: unended) and its moves."""
    k = len(marks)
    names = ["me", "bea", "cal", "dan"][:k]
    table = Rules(standard_setup(), k)
    rng = random.Random(f"{seed}/continuation/{''.join(map(str, marks))}/{game}")
    head = {"setup": "standard", "players": names}
    done = play(table, head, [advise_policy] * k, rng, MAX_MOVES, marks=marks, goes_on=zero())
    return done.winner, len(done.moves)


def estimate(marks: tuple[int, ...], games: int, seed: int = SEED, first: int = 0) -> Row:
    """Games ``first`` .. ``first + games - 1`` of ``marks``'s state, counted."""
    wins = [0] * len(marks)
    unended = 0
    for g in range(first, first + games):
        winner, _ = play_state(marks, g, seed)
        if winner < 0:
            unended += 1
        else:
            wins[winner] += 1
    return Row(marks, games, tuple(wins), unended)


def head(games: int, seed: int) -> str:
    """The table file's opening lines: what it is and the command that makes it."""
    lines = [
        "# Cunning Folk: what a game that goes on is worth to each seat (sampled).",
        f"# Regenerate: {COMMAND} --games {games} --seed {seed}",
        "# marks: the players still in, from the one to move next (1: holds a suspected card);",
        f"# wins: games won by each of them; unended: games with no winner after {MAX_MOVES}"
        " moves;",
        f"# check_*: the first {min(CHECK_GAMES, games)} of those games (replayed by the tests).",
        'provenance = "sampled"',
        f"method = {_toml(METHOD)}",
        f"seed = {seed}",
    ]
    return "\n".join(lines) + "\n"


def block(row: Row, check: Row) -> str:
    """One state's sample as TOML."""
    lines = [
        "",
        "[[state]]",
        f"marks = {list(row.marks)}",
        f"games = {row.games}",
        f"wins = {list(row.wins)}",
        f"unended = {row.unended}",
        f"check_games = {check.games}",
        f"check_wins = {list(check.wins)}",
        f"check_unended = {check.unended}",
    ]
    return "\n".join(lines) + "\n"


def _toml(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Regenerate the Cunning Folk continuation table.")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--players", default="2,3,4", help="players in: the states to sample")
    parser.add_argument("--no-head", action="store_true", help="the states only (a later part)")
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args(argv)
    players = [int(p) for p in args.players.split(",")]
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")  # noqa: SIM115
    if not args.no_head:
        out.write(head(args.games, args.seed))
    for marks in states(players):
        check = estimate(marks, min(CHECK_GAMES, args.games), args.seed)
        rest = estimate(marks, args.games - check.games, args.seed, check.games)
        whole = Row(
            marks,
            args.games,
            tuple(a + b for a, b in zip(check.wins, rest.wins, strict=True)),
            check.unended + rest.unended,
        )
        out.write(block(whole, check))
        out.flush()
        print(f"{marks}: {whole.wins} unended {whole.unended}", file=sys.stderr)
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
