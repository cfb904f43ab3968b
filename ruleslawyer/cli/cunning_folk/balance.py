"""``ruleslawyer cunning-folk balance``: good, evil and seat win rates from seeded games."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import click

from ruleslawyer.cli.agents import mcts_options, mcts_settings
from ruleslawyer.cli.common import (
    EXIT_UNFINISHED,
    SEED,
    comma_choices,
    emit,
    format_option,
    game_file_argument,
    load_game_file,
    one_line_errors,
    output_option,
    refuse_data_errors,
    ruling_option,
    whole,
)
from ruleslawyer.cli.cunning_folk.options import SECONDS
from ruleslawyer.schemas import dumps as json_text

POLICY_NAMES = ("random", "deduce", "advise", "ismcts")


def _bonus(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    return tuple(value.split(",")) if value else ()


@click.command()
@game_file_argument("cunning-folk")
@click.option(
    "--setup",
    "setups",
    type=click.Choice(["standard", "bonus", "scoundrels"]),
    multiple=True,
    help="Setups to play (repeatable; default standard and bonus; scoundrels: 3 players).",
)
@click.option(
    "--bonus",
    default="liar,pirate,vagrant",
    show_default=True,
    callback=_bonus,
    metavar="ROLES",
    help="The bonus setup's characters, comma-separated, each replacing a villager (a game "
    "file's bonus.replaces).",
)
@click.option(
    "--players",
    type=whole("players", 2, 4),
    default=3,
    show_default=True,
    help="Seats at the table.",
)
@click.option(
    "--policies",
    "--policy",
    "policies",
    default="advise",
    show_default=True,
    callback=comma_choices(POLICY_NAMES),
    metavar="NAMES",
    help="One policy for every seat, or one per seat from seat 1: random | deduce | advise | "
    "ismcts (OpenSpiel's information-set MCTS over the OpenSpiel game, from the seat's own "
    "knowledge; --simulations, --uct-c, --rollouts).",
)
@click.option("--games", type=whole("games"), default=200, show_default=True, help="Per setup.")
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Game i of a setup is dealt and played from SEED/SETUP/i.",
)
@click.option(
    "--max-moves",
    type=whole("moves"),
    default=400,
    show_default=True,
    help="A game still going after this many moves ends unended, with no winner.",
)
@click.option(
    "--max-seconds",
    type=SECONDS,
    default=None,
    help="Stop after this many seconds (checked between games), report finished: false, exit 3.",
)
@mcts_options
@ruling_option
@format_option(("text", "json"))
@output_option
@one_line_errors
def balance(
    target: str,
    setups: tuple[str, ...],
    bonus: tuple[str, ...],
    players: int,
    policies: tuple[str, ...],
    games: int,
    seed: int,
    max_moves: int,
    max_seconds: float | None,
    simulations: int | None,
    uct_c: float | None,
    rollouts: int | None,
    rulings: tuple[str, ...],
    fmt: str,
    output: Path | None,
) -> None:
    """How often good and evil win, and each seat, over seeded games with stated policies
    (sampled: 95% Wilson intervals). Seat 1 plays first. Exit 3 when --max-seconds ends it.

    \b
    GAME|FILE: cunning-folk (the built-in counts) or a game file of your own: its
    compositions deal the villages and its [rulings], then --ruling, are played."""
    from ruleslawyer.budget import Budget
    from ruleslawyer.checks.cunning_folk import _data_errors
    from ruleslawyer.errors import InputError
    from ruleslawyer.models.cunning_folk.data import load_game_data
    from ruleslawyer.models.cunning_folk.play import Rules, Table
    from ruleslawyer.models.cunning_folk.village import (
        CELLS,
        bonus_setup,
        scoundrel_setup,
        standard_setup,
    )
    from ruleslawyer.solvers.cunning_folk.balance import OUTCOME_TEXT, POLICIES
    from ruleslawyer.solvers.cunning_folk.balance import balance as run

    if len(policies) not in (1, players):
        raise click.BadParameter(
            f"found {len(policies)} policies, expected 1 or {players} (one per seat)",
            param_hint="--policies",
        )
    seat_policies = policies * players if len(policies) == 1 else policies
    settings = mcts_settings(seat_policies, simulations, uct_c, rollouts)
    extra: dict[str, Any] = {}
    if "ismcts" in seat_policies:
        from ruleslawyer.openspiel.agents import Agent
        from ruleslawyer.openspiel.cunning_folk import SeatAgent

        extra["ismcts"] = SeatAgent(Agent("ismcts", **settings))
    source, chosen = load_game_file(target, "cunning-folk", rulings)
    data = load_game_data(source)
    refuse_data_errors(_data_errors(source, data))
    standard = Counter(data.standard.compositions[0])
    rules = Rules.from_rulings(chosen)
    names = [f"P{p + 1}" for p in range(players)]
    budget = Budget(max_seconds=max_seconds)
    tables = []
    for name in dict.fromkeys(setups or ("standard", "bonus")):
        core = sum(data.scoundrel_core.values())
        if name == "scoundrels" and core + players != len(CELLS):
            raise click.BadParameter(
                f"found {players} players, expected {len(CELLS) - core} for scoundrels ({core} "
                "cards plus one per player fill the 3x3 village)",
                param_hint="--players",
            )
        if name == "scoundrels" and data.kept_per_player != 1:
            place = "scoundrels.kept_per_player"
            raise InputError(source.display, place, data.kept_per_player, "1 for balance")
        setup = {
            "standard": lambda: data.standard,
            "bonus": lambda: bonus_setup(
                bonus,
                source="--bonus",
                standard=standard,
                characters=data.bonus_characters,
                replaces=data.replaces,
            ),
            "scoundrels": lambda: scoundrel_setup(
                players, core_counts=data.scoundrel_core, pool_counts=data.scoundrel_pool
            ),
        }[name]()
        if set(seat_policies) - {"random"}:
            printed = {
                "standard": standard_setup,
                "bonus": lambda: bonus_setup(bonus, source="--bonus"),
                "scoundrels": lambda: scoundrel_setup(players),
            }[name]()
            if setup.compositions != printed.compositions:
                raise InputError(
                    source.display,
                    name,
                    "compositions other than the printed ones",
                    "the printed compositions for the deduce and advise policies (a seat's "
                    "log names only a printed setup); --policies random plays any",
                )
        head: dict[str, Any] = {"setup": name, "players": names, "rulings": dict(chosen)}
        if name == "bonus":
            head["bonus"] = list(bonus)
        table = Table(setup, players, rules)
        tables.append(
            run(
                table,
                head,
                seat_policies,
                games,
                seed,
                max_moves=max_moves,
                budget=budget,
                extra=extra,
            )
        )
    result = {
        "game": source.display,
        "provenance": source.provenance,
        "players": players,
        "seed": seed,
        "policies": {
            p: extra[p].describe()["text"] if p in extra else POLICIES[p]
            for p in dict.fromkeys(seat_policies)
        },
        "rulings": dict(chosen) or "none (the default reading of every rule point)",
        "outcomes": OUTCOME_TEXT,
        "horizon": f"a game ends at its rules' end or after {max_moves} moves (unended)",
        "finished": all(t["finished"] for t in tables),
        "setups": tables,
    }
    if extra:
        result["agent"] = extra["ismcts"].describe()
    emit(json_text(result) if fmt == "json" else render(result), output)
    if not result["finished"]:
        raise SystemExit(EXIT_UNFINISHED)


def render(r: dict[str, Any]) -> str:
    """The balance result as text: assumptions first, then each setup's rates."""
    from ruleslawyer.solvers.balance_stats import mean_text, rate_text

    lines = [f"game: {r['game']} (provenance: {r['provenance']})"]
    lines.append(f"{r['players']} players, seat 1 first; seed {r['seed']}")
    lines += [f"policy {text}" for text in r["policies"].values()]
    if "agent" in r:
        a = r["agent"]
        lines.append(
            f"agent {a['name']}: simulations {a['simulations']}, uct_c {a['uct_c']}, rollouts "
            f"{a['rollouts']}, final policy {a['final_policy']}; seed: {a['seed']}; "
            f"{a['horizon']}"
        )
    rulings = r["rulings"]
    if isinstance(rulings, dict):
        rulings = ", ".join(f"{k}={v}" for k, v in rulings.items())
    lines += [f"rulings: {rulings}", f"horizon: {r['horizon']}"]
    lines += [f"{k}: {v}" for k, v in r["outcomes"].items()]
    for t in r["setups"]:
        cards = t["cards"] if isinstance(t["cards"], str) else ", ".join(t["cards"])
        lines.append(
            f"{t['setup']} setup ({cards}): {t['sampled']} "
            f"({t['games_asked']} asked), {mean_text(t['mean_moves'], 'moves')}"
        )
        lines.append(f"  prior: {t['prior']}")
        for k, s in t["outcomes"].items():
            lines.append(f"  {k:<10} {rate_text(s)}")
        for s in t["seats"]:
            lines.append(f"  seat {s['seat']} ({s['policy']}) {rate_text(s)}")
    lines.append(f"finished: {str(r['finished']).lower()}")
    return "\n".join(lines) + "\n"
