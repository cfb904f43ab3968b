"""Shell completion (click's ``shell_complete``): game names, rule-point ids and readings.

Enabled per shell with ``_RULESLAWYER_COMPLETE=<shell>_source ruleslawyer`` (README:
Shell completion). Everything here reads the game registry and the rule points only, so
a completion never imports z3, numba or dask.

Bash splits a word at ``=`` (``COMP_WORDBREAKS``), so ``--ruling ID=READING`` reaches the
program as three words; :class:`BashComplete` joins them again before click looks at the
command line, and answers with what replaces the word bash is completing.
"""

from __future__ import annotations

import os
from typing import Any

import click
from click.shell_completion import CompletionItem, add_completion_class, split_arg_string

from ruleslawyer.games import GAMES


def _games_in_play(ctx: click.Context) -> list[str]:
    """The games a command line is about: its game group, the game ids among its targets, the
    game of an ``explain`` ID; every game when none is named."""
    at: click.Context | None = ctx
    while at is not None:
        if at.info_name in GAMES:
            return [at.info_name]
        at = at.parent
    # the words typed (click's parse of an option still missing its value keeps nothing)
    named = [*_TYPED, *(ctx.params.get("targets", None) or ()), ctx.params.get("target", None)]
    named.append((ctx.params.get("point_id", None) or "").split("/", 1)[0])
    return [g for g in GAMES if g in named] or list(GAMES)


_TYPED: list[str] = []  # the complete words of the command line being completed


def _points(games: list[str]) -> list[Any]:
    return [p for g in games for p in GAMES[g].rule_points()]


def game_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``[GAME|FILE]``: the game ids that start with what was typed, else file names."""
    file = CompletionItem(incomplete, type="file")  # first: bash falls back to files on no match
    return [file, *(CompletionItem(g) for g in GAMES if g.startswith(incomplete))]


def one_game(game: str) -> Any:
    """``[GAME|FILE]`` of one game's command: that game's id, else file names."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        file = CompletionItem(incomplete, type="file")
        return [file, *([CompletionItem(game)] if game.startswith(incomplete) else [])]

    return complete


def point_ids(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """A rule point id (``explain ID``), with its title as help where the shell shows it."""
    return [
        CompletionItem(p.id, help=p.title)
        for p in _points(list(GAMES))
        if p.id.startswith(incomplete)
    ]


def rulings(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``--ruling ID=READING``: every ID=READING pair of the games in play that starts with what
    was typed (so typing the id, then ``=``, completes its readings)."""
    return [
        CompletionItem(f"{p.id}={r.name}", help=r.summary)
        for p in _points(_games_in_play(ctx))
        for r in p.readings
        if f"{p.id}={r.name}".startswith(incomplete)
    ]


class _Typed(click.shell_completion.ShellComplete):
    """Keeps the words typed before the one being completed, for :func:`_games_in_play`."""

    def get_completions(self, args: list[str], incomplete: str) -> list[CompletionItem]:
        _TYPED[:] = args
        return super().get_completions(args, incomplete)


class ZshComplete(_Typed, click.shell_completion.ZshComplete):
    pass


class FishComplete(_Typed, click.shell_completion.FishComplete):
    pass


class BashComplete(_Typed, click.shell_completion.BashComplete):
    """Click's Bash completion, with the words bash split at ``=`` joined again."""

    def get_completion_args(self) -> tuple[list[str], str]:
        words = split_arg_string(os.environ["COMP_WORDS"])
        cword = int(os.environ["COMP_CWORD"])
        current = words[cword] if cword < len(words) else ""
        joined: list[str] = []
        where = []  # where[i]: the joined word that bash's word i is part of
        for i, word in enumerate(words):
            if i > 1 and (word == "=" or words[i - 1] == "="):
                joined[-1] += word
            else:
                joined.append(word)
            where.append(len(joined) - 1)
        at = where[cword] if cword < len(words) else len(joined)
        incomplete = joined[at] if at < len(joined) else ""
        self.kept = incomplete[: len(incomplete) - len(current)]  # bash keeps this part
        return joined[1:at], incomplete

    def format_completion(self, item: CompletionItem) -> str:
        kept = getattr(self, "kept", "")
        value = item.value
        if item.type == "plain":
            # the longest end of what bash keeps that the value starts with (for
            # ``--ruling=ID=READING`` click has already cut the option's name off)
            start = next(i for i in range(len(kept) + 1) if value.startswith(kept[i:]))
            value = value[len(kept) - start :]
        return f"{item.type},{value}"


for _shell in (BashComplete, ZshComplete, FishComplete):
    add_completion_class(_shell)
