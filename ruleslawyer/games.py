"""The registry of games: what each is called, where its parts live.

Entries name their modules as strings and are imported only when used, so
``ruleslawyer --help`` and ``ruleslawyer games`` never import z3 or numba.

A game module answers a small contract:

- ``RULE_POINTS`` in its model module: a tuple of :class:`~ruleslawyer.findings.RulePoint`.
- ``check(source, rulings, budget) -> list[Finding]`` in its checks module.
- an optional click group in its cli module, exposed as ``ruleslawyer <id> ...``.

The registry reads no file: :func:`ruleslawyer.gamefiles.source.load_source` reads a
game file and asks it which game the file is.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from ruleslawyer.errors import UnknownGameError, suggestion
from ruleslawyer.errors import closest as closest  # re-exported: callers spell games.closest


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    rulebook: str  # file name in ruleslawyer/data/rulebooks
    data_file: str  # built-in game file in ruleslawyer/data
    marker_keys: frozenset[str]  # top-level TOML keys that identify this game's files
    model: str  # module holding RULE_POINTS
    checks: str  # module holding check()
    cli: str | None = None  # module holding `group`, a click group
    cli_help: str = ""

    def rule_points(self) -> tuple[Any, ...]:
        return tuple(importlib.import_module(self.model).RULE_POINTS)

    def check_function(self) -> Any:
        return importlib.import_module(self.checks).check


GAMES: dict[str, GameInfo] = {
    info.id: info
    for info in (
        GameInfo(
            id="kaelyfos",
            title="Unsettled: Kaelyfos",
            rulebook="unsettled-kaelyfos-rulebook.txt",
            data_file="kaelyfos.toml",
            marker_keys=frozenset({"node", "edge"}),
            model="ruleslawyer.models.kaelyfos.points",
            checks="ruleslawyer.checks.kaelyfos",
            cli="ruleslawyer.cli.kaelyfos.commands",
            cli_help="Resolve a bloodsucker behaviour card on a position.",
        ),
        GameInfo(
            id="cunning-folk",
            title="Cunning Folk",
            rulebook="cunning-folk-rules.txt",
            data_file="cunning-folk.toml",
            marker_keys=frozenset({"composition"}),
            model="ruleslawyer.models.cunning_folk.village",
            checks="ruleslawyer.checks.cunning_folk",
            cli="ruleslawyer.cli.cunning_folk.commands",
            cli_help="Deduce where the townsfolk are from a log of play.",
        ),
        GameInfo(
            id="twist-of-fate",
            title="Twist of Fate",
            rulebook="twist-of-fate-rulebook.txt",
            data_file="twist-of-fate.toml",
            marker_keys=frozenset({"character"}),
            model="ruleslawyer.models.twist_of_fate.points",
            checks="ruleslawyer.checks.twist_of_fate.check",
            cli="ruleslawyer.cli.twist_of_fate.commands",
            cli_help="Solve a Twist of Fate position to the end of the round.",
        ),
        GameInfo(
            id="twisted-cryptids",
            title="Twisted Cryptids",
            rulebook="twisted-cryptids-rules.txt",
            data_file="twisted-cryptids.toml",
            marker_keys=frozenset({"site", "cryptid"}),
            model="ruleslawyer.models.twisted_cryptids.points",
            checks="ruleslawyer.checks.twisted_cryptids.check",
            cli="ruleslawyer.cli.twisted_cryptids",
            cli_help="Count the arrangements of hidden Sighting stacks from a record of play.",
        ),
    )
}


def get(game_id: str) -> GameInfo:
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownGameError(
            game_id or "GAME",
            "",
            game_id,
            f"a game id ({', '.join(GAMES)}) or a game file path{suggestion(game_id, GAMES)}",
        ) from None
