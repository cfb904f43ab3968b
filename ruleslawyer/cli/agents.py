"""The options of the OpenSpiel agents (``--policy mcts``, ``--policy ismcts``), shared by the
balance commands.

Nothing here imports ``pyspiel``: the agents are built only when a command plays them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ruleslawyer.cli.common import Number, whole

F = TypeVar("F", bound=Callable[..., Any])
DEFAULTS = {"simulations": 100, "uct_c": 2.0, "rollouts": 1, "final_policy": "max-visit-count"}
# ismcts searches over whole games of hidden cards: fewer simulations by default
ISMCTS_DEFAULTS = {**DEFAULTS, "simulations": 20}
# ruleslawyer.openspiel.agents.FINAL_POLICIES, named here without importing pyspiel
FINAL_POLICIES = ("max-visit-count", "normalized-visit-count", "max-value")


def mcts_options(f: F, policy: str = "mcts", defaults: dict[str, Any] = DEFAULTS) -> F:
    """``--simulations``, ``--uct-c`` and ``--rollouts``: the settings of ``policy``'s search."""
    options = (
        click.option(
            "--simulations",
            type=whole("simulations"),
            default=None,
            help=f"{policy}: simulations (tree iterations) per move (default "
            f"{defaults['simulations']}).",
        ),
        click.option(
            "--uct-c",
            "uct_c",
            type=Number("", least=0, most=1e6),
            default=None,
            help=f"{policy}: the UCT exploration constant (default {DEFAULTS['uct_c']}).",
        ),
        click.option(
            "--rollouts",
            type=whole("rollouts", most=1000),
            default=None,
            help=f"{policy}: random rollouts to the game's end per leaf, averaged (default "
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


def ismcts_options(f: F) -> F:
    """``mcts_options`` for ``ismcts``, and ``--final-policy``."""
    f = click.option(
        "--final-policy",
        type=click.Choice(FINAL_POLICIES),
        default=None,
        help="ismcts: the move from the root's statistics: the most visited, drawn in "
        f"proportion to visits, or the highest mean return (default "
        f"{ISMCTS_DEFAULTS['final_policy']}).",
    )(f)
    return mcts_options(f, "ismcts", ISMCTS_DEFAULTS)


def ismcts_settings(
    policy: str,
    simulations: int | None,
    uct_c: float | None,
    rollouts: int | None,
    final_policy: str | None,
) -> dict[str, Any]:
    """The settings of the ``ismcts`` agent (defaults filled in); refuses them without it."""
    given = {"simulations": simulations, "uct_c": uct_c, "rollouts": rollouts,
             "final_policy": final_policy}  # fmt: skip
    if policy != "ismcts" and any(v is not None for v in given.values()):
        raise click.UsageError(
            "--simulations, --uct-c, --rollouts and --final-policy need --policy ismcts"
        )
    return {k: ISMCTS_DEFAULTS[k] if v is None else v for k, v in given.items()}
