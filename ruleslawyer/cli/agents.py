"""The options of the OpenSpiel agents (``--policy mcts``), shared by the balance commands.

Nothing here imports ``pyspiel``: the agents are built only when a command plays them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ruleslawyer.cli.common import Number, whole

F = TypeVar("F", bound=Callable[..., Any])
DEFAULTS = {"simulations": 100, "uct_c": 2.0, "rollouts": 1}


def mcts_options(f: F) -> F:
    """``--simulations``, ``--uct-c``, ``--rollouts``: the settings of ``mcts`` and ``ismcts``."""
    options = (
        click.option(
            "--simulations",
            type=whole("simulations"),
            default=None,
            help=f"mcts: simulations (tree iterations) per move (default "
            f"{DEFAULTS['simulations']}).",
        ),
        click.option(
            "--uct-c",
            "uct_c",
            type=Number("", least=0, most=1e6),
            default=None,
            help=f"mcts: the UCT exploration constant (default {DEFAULTS['uct_c']}).",
        ),
        click.option(
            "--rollouts",
            type=whole("rollouts", most=1000),
            default=None,
            help="mcts: random rollouts to the game's end per leaf, averaged (default "
            f"{DEFAULTS['rollouts']}).",
        ),
    )
    for option in reversed(options):
        f = option(f)
    return f


def mcts_settings(
    policies: tuple[str, ...], simulations: int | None, uct_c: float | None, rollouts: int | None
) -> dict[str, Any]:
    """The settings of the ``mcts`` agent (defaults filled in); refuses them without it."""
    given = {"simulations": simulations, "uct_c": uct_c, "rollouts": rollouts}
    if not {"mcts", "ismcts"} & set(policies) and any(v is not None for v in given.values()):
        raise click.UsageError("--simulations, --uct-c and --rollouts need --policy mcts or ismcts")
    return {k: DEFAULTS[k] if v is None else v for k, v in given.items()}
