"""Self-play that makes the continuation table (:mod:`.continuation`), state by state.

Run (the shipped table is this command's output; its header names the ``--games`` and
``--seed`` it was made with; ``--players`` and ``--no-head`` make it in parts, to be
joined one after another: the head and 2 players, then 3, then 4)::

    .venv/bin/python -m ruleslawyer.solvers.cunning_folk.goes_on.selfplay \\
        --games 2:200,3:200,4:100 --seed 0 -o ruleslawyer/data/cunning-folk-continuation.toml

``--games`` is one count for every state (``--games 300``) or a count per number of
players in (``--games 2:200,3:200,4:100``): a state of four players in costs about ten
times a two-player one.

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


def parse_games(text: str) -> dict[int, int]:
    """``--games``: ``"300"`` (every count of players in) or ``"2:200,3:200,4:100"``."""
    if ":" not in text:
        return dict.fromkeys((2, 3, 4), _count(text))
    games: dict[int, int] = {}
    for part in text.split(","):
        players, sep, count = part.partition(":")
        if not sep or players.strip() not in ("2", "3", "4") or int(players) in games:
            raise ValueError(f"{part!r}: expected PLAYERS:GAMES, players 2, 3 or 4, each once")
        games[int(players)] = _count(count)
    return games


def games_text(games: dict[int, int]) -> str:
    """``--games`` as the header writes it: one count if all are equal, else per players."""
    if set(games) == {2, 3, 4} and len(set(games.values())) == 1:
        return str(games[2])
    return ",".join(f"{k}:{games[k]}" for k in sorted(games))


def _count(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise ValueError(f"{text!r}: expected a number of games, 1 or more")
    return int(text)


def head(games: dict[int, int], seed: int) -> str:
    """The table file's opening lines: what it is and the command that makes it."""
    lines = [
        "# Cunning Folk: what a game that goes on is worth to each seat (sampled).",
        f"# Regenerate: {COMMAND} --games {games_text(games)} --seed {seed}",
        "# marks: the players still in, from the one to move next (1: holds a suspected card);",
        f"# wins: games won by each of them; unended: games with no winner after {MAX_MOVES}"
        " moves;",
        f"# check_*: the first {min(CHECK_GAMES, max(games.values()))} of those games, or all"
        " where fewer (replayed by the tests).",
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
    parser.add_argument(
        "--games", default="300", help="games a state: N, or per players in: 2:N,3:N,4:N"
    )
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--players", default="2,3,4", help="players in: the states to sample")
    parser.add_argument("--no-head", action="store_true", help="the states only (a later part)")
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args(argv)
    players = [int(p) for p in args.players.split(",")]
    try:
        games = parse_games(args.games)
    except ValueError as exc:
        parser.exit(2, f"selfplay: --games {exc}\n")
    if missing := [k for k in players if k not in games]:
        parser.exit(2, f"selfplay: --games {args.games!r}: no count for {missing[0]} players\n")
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")  # noqa: SIM115
    if not args.no_head:
        out.write(head(games, args.seed))
    for marks in states(players):
        count = games[len(marks)]
        check = estimate(marks, min(CHECK_GAMES, count), args.seed)
        rest = estimate(marks, count - check.games, args.seed, check.games)
        whole = Row(
            marks,
            count,
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
