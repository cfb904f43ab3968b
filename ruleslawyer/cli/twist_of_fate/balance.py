"""``ruleslawyer twist-of-fate balance``: seat win rates and card use from whole games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ruleslawyer.cli.agents import mcts_options, mcts_settings
from ruleslawyer.cli.common import (
    EXIT_UNFINISHED,
    SEED,
    FilePath,
    Number,
    ascii_number,
    comma_choices,
    emit,
    format_option,
    one_line_errors,
    output_option,
    progress,
    ruling_option,
    whole,
)
from ruleslawyer.cli.twist_of_fate.kernels import compiled_first, max_seconds_option
from ruleslawyer.schemas import dumps as json_text

POLICIES = ("uct", "mcts", "random")


def _counts(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    counts = tuple(ascii_number(v, whole=True) for v in value.split(","))
    if all(n in (2, 3, 4) for n in counts):
        return tuple(sorted({int(n or 0) for n in counts}))
    raise click.BadParameter(f"found {value!r}, expected a comma-separated list of 2, 3 and 4")


@click.command()
@click.argument(
    "deck",
    default="twist-of-fate",
    metavar="[DECK]",
    type=FilePath("a deck id or a deck file's path", as_text=True),
)
@click.option(
    "--players",
    "counts",
    default="2,3,4",
    show_default=True,
    callback=_counts,
    metavar="COUNTS",
    help="Player counts, comma-separated (2: the variant with the Monks).",
)
@click.option(
    "--games", type=whole("games"), default=200, show_default=True, help="Per player count."
)
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Game i with P players is dealt and played from SEED/P/i.",
)
@click.option(
    "--policy",
    "policies",
    default="uct",
    show_default=True,
    callback=comma_choices(POLICIES),
    metavar="NAMES",
    help="Every seat's policy, or one per seat from seat 1 (with one --players count): "
    "uct (the project's own UCT with the exact max^n move for the round's last plies) | "
    "mcts (OpenSpiel's MCTS over the whole game, random rollouts) | random (a uniformly "
    "random legal move: a reference point).",
)
@click.option(
    "--iterations",
    type=whole("iterations"),
    default=None,
    help="uct: UCT iterations per move (default 30).",
)
@click.option(
    "--exploration",
    type=Number("", least=0, most=1e6),
    default=None,
    help="uct: UCT exploration constant (default 0.1; rewards are in 0..1, one Sanctuary "
    "point is 9/161 of them).",
)
@click.option(
    "--exact-plies",
    type=whole("plies", most=7),
    default=None,
    help="uct: play the exact max^n move once this many plies or fewer are left in the "
    "round (default 5; each more ply costs roughly ten times the exact work).",
)
@mcts_options
@click.option(
    "--max-rounds",
    type=whole("rounds"),
    default=30,
    show_default=True,
    help="A game still going after this many rounds ends unended, with no winner.",
)
@max_seconds_option
@ruling_option
@format_option(("text", "json"))
@output_option
@one_line_errors
def balance(
    deck: str,
    counts: tuple[int, ...],
    policies: tuple[str, ...],
    games: int,
    seed: int,
    iterations: int | None,
    exploration: float | None,
    exact_plies: int | None,
    simulations: int | None,
    uct_c: float | None,
    rollouts: int | None,
    max_rounds: int,
    max_seconds: float | None,
    rulings: tuple[str, ...],
    fmt: str,
    output: Path | None,
) -> None:
    """Who wins, by seat, and which cards and sides are played, over whole games from the
    standard start played by agents: by default the project's UCT agents that solve each
    round's last plies exactly, or OpenSpiel's MCTS (--policy mcts) (sampled: 95% Wilson
    intervals). DECK: the built-in id twist-of-fate (default) or a deck file. Exit 3
    when --max-seconds ends it (checked between games)."""
    from ruleslawyer.budget import Budget
    from ruleslawyer.designer.checking import PROVENANCE_WARNINGS
    from ruleslawyer.errors import InputError
    from ruleslawyer.findings import parse_ruling_options, resolve_rulings
    from ruleslawyer.models.twist_of_fate.files import load_deck
    from ruleslawyer.models.twist_of_fate.play import RULE_POINTS, Rules
    from ruleslawyer.solvers.twist_of_fate.balance import Agent, deck_problem
    from ruleslawyer.solvers.twist_of_fate.balance import balance as run

    cards = load_deck(deck)
    problem = deck_problem(cards, counts)
    if problem is not None:
        raise InputError(deck, "character", *problem)
    chosen = resolve_rulings(RULE_POINTS, {}, parse_ruling_options(rulings), source="--ruling")
    rules = Rules.from_rulings(chosen)
    if len(policies) > 1 and (len(counts) > 1 or len(policies) != counts[0]):
        raise click.BadParameter(
            f"found {len(policies)} policies for --players {','.join(map(str, counts))}, "
            "expected 1, or one per seat with one player count",
            param_hint="--policy",
        )
    tuned = (iterations, exploration, exact_plies) != (None, None, None)
    if tuned and "uct" not in policies:
        raise click.UsageError("--iterations, --exploration and --exact-plies need --policy uct")
    settings = mcts_settings(policies, simulations, uct_c, rollouts)
    defaults = Agent()
    uct = Agent(
        iterations=defaults.iterations if iterations is None else iterations,
        exploration=defaults.exploration if exploration is None else exploration,
        exact_plies=defaults.exact_plies if exact_plies is None else exact_plies,
    )
    by_name = {"uct": uct, "random": Agent(policy="random")}
    if "uct" in policies:  # the exact max^n search of each round's last plies
        compiled_first(["maxn"], max_seconds)
    if "mcts" in policies:
        by_name["mcts"] = _openspiel_mcts(deck, chosen, max_rounds, settings)
    agents = tuple(by_name[p] for p in policies)
    progress(f"playing {games} games per player count ({', '.join(map(str, counts))}) ...")
    found = run(
        cards, rules, dict(chosen), counts, games, seed, agents, max_rounds,
        Budget(max_seconds=max_seconds),
    )  # fmt: skip
    placeholders = [c.name for c in cards.characters if c.provenance == "placeholder"]
    result: dict[str, Any] = {
        "deck": cards.name,
        "deck_provenance": cards.provenance,
        "warning": PROVENANCE_WARNINGS.get(cards.provenance),
        "placeholder_cards": placeholders,
        "seed": seed,
        "rulings": dict(chosen) or "none (the default reading of every rule point)",
        "agents": {a.policy: a.describe() for a in agents},
        "seat_agents": f"every seat: {policies[0]}"
        if len(policies) == 1
        else {f"seat {i + 1}": p for i, p in enumerate(policies)},
        "seats": "seat 1 starts the game (2 players: the starting player is drawn at random)",
        "sides": "side 1 / side 2: the card's side (deck order) facing its target; "
        "face-down: played face down",
        "dominance": "none sampled: only the uct agent solves positions exactly"
        if "uct" not in policies
        else "a card or way of playing it is worth playing in a sampled position when "
        "one of its moves gives the player to move the best max^n utility of all its moves "
        "there; sampled positions: every position solved exactly (the last "
        f"{uct.exact_plies} plies of each round, at the seats playing uct)",
        "max_rounds": max_rounds,
        "unended": f"a game still going after {max_rounds} rounds, or one the rules give no "
        "way on for (a round end with no next round, a player with cards and no legal "
        "move); counted in no seat's wins",
        **found,
    }
    emit(json_text(result) if fmt == "json" else render(result), output)
    if not result["finished"]:
        raise SystemExit(EXIT_UNFINISHED)


def _openspiel_mcts(
    deck: str, rulings: dict[str, str], max_rounds: int, settings: dict[str, Any]
) -> Any:
    """OpenSpiel's MCTS at a seat: it searches the OpenSpiel game of this deck, these
    rulings and this round limit (one game per player count)."""
    from ruleslawyer.openspiel.agents import Agent as OpenSpielAgent
    from ruleslawyer.openspiel.agents import OnModel
    from ruleslawyer.openspiel.twist_of_fate import HORIZON, RETURNS, load

    def game(players: int) -> Any:
        return load(players=players, deck=deck, rulings=rulings, max_rounds=max_rounds)

    agent = OpenSpielAgent("mcts", **settings)
    return OnModel(agent, game, extra={"horizon": HORIZON, "returns": RETURNS})


def render(r: dict[str, Any]) -> str:
    """The balance result as text: assumptions first, then each player count's figures."""
    from ruleslawyer.solvers.balance_stats import mean_text, rate_text

    lines = [f"deck: {r['deck']} (provenance: {r['deck_provenance']})"]
    if r["warning"]:
        lines.append(f"warning: {r['warning']}")
    if r["placeholder_cards"]:
        lines.append(f"placeholder cards: {', '.join(r['placeholder_cards'])}")
    rulings = r["rulings"]
    if isinstance(rulings, dict):
        rulings = ", ".join(f"{k}={v}" for k, v in rulings.items())
    seats = r["seat_agents"]
    if isinstance(seats, dict):
        seats = ", ".join(f"{k}: {v}" for k, v in seats.items())
    lines += [f"seed: {r['seed']}", f"rulings: {rulings}", f"agents: {seats}"]
    for agent in r["agents"].values():
        lines.append(f"agent {agent['text']}")
        named = (
            ("rollout", "rollout"), ("evaluator", "evaluator"), ("horizon", "horizon"),
            ("utility", "utility"), ("returns", "returns"), ("seed", "seed"),
        )  # fmt: skip
        lines += [f"  {label}: {agent[key]}" for label, key in named if key in agent]
        if "tie_break" in agent:
            lines.append(f"  exact choice: {agent['tie_break']}")
    lines += [
        f"seats: {r['seats']}",
        f"sides: {r['sides']}",
        f"dominance: {r['dominance']}",
        f"unended: {r['unended']}",
    ]
    for t in r["player_counts"]:
        means = (
            mean_text(None, "rounds or plies")
            if t["mean_rounds"] is None
            else f"mean {t['mean_rounds']} rounds, {t['mean_plies']} plies"
        )
        lines.append(
            f"{t['players']} players: {t['sampled']} ({t['games_asked']} asked), "
            f"{t['unended']} unended, {means}"
        )
        for s in t["seats"]:
            lines.append(f"  seat {s['seat']}  {rate_text(s)}")
        if "monks" in t:
            lines.append(f"  Monks   {rate_text(t['monks'])}  ({t['monks']['outcome']})")
        lines.append(f"  cards played (sampled: {t['plays']} plays):")
        for c in t["cards"]:
            share = "n/a" if c["share"] is None else f"{c['share']:.3f}"
            modes = ", ".join(f"{k} {v['played']}" for k, v in c["modes"].items())
            lines.append(f"    {c['card']:<20} {c['played']:>6} ({share})  {modes}")
        never = ", ".join(t["never_worth_playing"]) or "none"
        lines.append(
            f"  never worth playing (sampled: {t['positions_sampled']} positions): {never}"
        )
    lines.append(f"finished: {str(r['finished']).lower()}")
    return "\n".join(lines) + "\n"
