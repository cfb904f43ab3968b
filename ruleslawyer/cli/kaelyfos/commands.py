"""``ruleslawyer kaelyfos``: resolve a bloodsucker behaviour card on a position."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ruleslawyer.cli.agents import mcts_options, mcts_settings
from ruleslawyer.cli.common import (
    EXIT_UNFINISHED,
    INPUT_FILE,
    SEED,
    FilePath,
    emit,
    format_option,
    max_seconds_option,
    one_line_errors,
    output_option,
    ruling_option,
    whole,
)
from ruleslawyer.errors import InputError
from ruleslawyer.schemas import dumps as json_text

SAMPLED_POLICIES = ("advise", "mcts", "random")
triggers_option = click.option(
    "--triggers",
    type=whole("triggers", most=6),
    default=1,
    show_default=True,
    help="Horizon: how many timeline triggers (behaviour cards) to score over.",
)
open_ties_option = click.option(
    "--open-ties",
    "open_ties",
    type=click.Choice(["uniform", "worst", "best"]),
    default="uniform",
    show_default=True,
    help="A choice the rules leave open (pheromone tie, move order): each option equally "
    "likely, the worst for the crew, or the best. The others are shown where they change "
    "the answer.",
)


@click.group()
def group() -> None:
    """Unsettled: Kaelyfos: resolve bloodsucker behaviour cards."""


@group.command()
@click.argument("position_file", metavar="POSITION.toml", type=INPUT_FILE)
@ruling_option
@max_seconds_option
@format_option(("text", "json"))
@output_option
@one_line_errors
def step(
    position_file: Path,
    rulings: tuple[str, ...],
    max_seconds: float | None,
    fmt: str,
    output: Path | None,
) -> None:
    """Resolve the position's behaviour card: spawn, move, attack, in the rulebook's order.

    Prints the result under the readings in force, every open rule point whose other
    reading would change it, and the choices (the crew's, and ties the rules leave open).
    Rulings come from the board file, then the position file, then --ruling.

    \b
    POSITION.toml: `board` (built-in id or a path), `nests`, `supply`, `explorers`,
    `bloodsuckers`, `traps`, the `[card]` to resolve. Examples: examples/kaelyfos/*.toml.

    With --max-seconds, the result under the readings in force is always resolved; the
    other readings and options left when the budget runs out are cut: finished: false, exit 3.
    """
    from ruleslawyer.budget import Budget
    from ruleslawyer.cli.kaelyfos.text import render
    from ruleslawyer.models.kaelyfos.files import load_position
    from ruleslawyer.models.kaelyfos.resolve import step as resolve_card

    loaded = load_position(position_file)
    chosen = _rulings(loaded.position.board.rulings, loaded.rulings, rulings, position_file)
    outcome = resolve_card(loaded.position, chosen, Budget(max_seconds))
    _answer(outcome, lambda: render(outcome, chosen), fmt, output)


@group.command()
@click.argument("timeline_file", metavar="TIMELINE.toml", type=INPUT_FILE)
@ruling_option
@format_option(("text", "json"))
@output_option
@one_line_errors
def advance(timeline_file: Path, rulings: tuple[str, ...], fmt: str, output: Path | None) -> None:
    """Advance the time marker: which behaviour cards the triggers it reaches reveal.

    Prints the cards revealed under the readings in force (each as the cards it could
    be) and every open timeline rule point whose other reading would change them.
    """
    from ruleslawyer.cli.kaelyfos.text import render_reveal
    from ruleslawyer.models.kaelyfos.files import load_timeline
    from ruleslawyer.models.kaelyfos.timeline import reveal_with_divergences

    loaded = load_timeline(timeline_file)
    chosen = _rulings(loaded.board.rulings, loaded.rulings, rulings, timeline_file)
    out = reveal_with_divergences(loaded.timeline, chosen)
    if fmt == "json":
        emit(json_text(out), output)
    else:
        emit(render_reveal(out), output)


@group.command()
@click.argument("advice_file", metavar="POSITION.toml", type=INPUT_FILE)
@triggers_option
@open_ties_option
@ruling_option
@max_seconds_option
@format_option(("text", "json"))
@output_option
@one_line_errors
def advise(
    advice_file: Path,
    triggers: int,
    open_ties: str,
    rulings: tuple[str, ...],
    max_seconds: float | None,
    fmt: str,
    output: Path | None,
) -> None:
    """The crew's best free actions before the next behaviour card.

    Ranks every sequence of free actions (build a trap on an empty build site,
    spending material; destroy a trap; any number, merged by the position they
    leave) by the exact expected distress over the next --triggers behaviour cards,
    drawn uniformly without replacement from the board's deck less the spent cards,
    the crew acting again before each later trigger once it has seen the cards
    (explorers stay put); then expected waking nightmares, then the worst case.
    Shows every open rule point (and open-tie reading) that re-ranks the options.

    \b
    POSITION.toml: a position file without [card] or actions, plus `material`
    (an integer) and `spent` (behaviour card names already revealed).
    Example: examples/kaelyfos/advise.toml.
    """
    from ruleslawyer.budget import Budget
    from ruleslawyer.cli.kaelyfos.advise_text import render_advice
    from ruleslawyer.models.kaelyfos.advice_file import load_advice
    from ruleslawyer.solvers.kaelyfos.advise import advise as rank_actions
    from ruleslawyer.solvers.kaelyfos.advise import refuse_oversized

    loaded = load_advice(advice_file)
    refuse_oversized(loaded.position.board, triggers, str(advice_file))
    chosen = _rulings(loaded.position.board.rulings, loaded.rulings, rulings, advice_file)
    advice = rank_actions(
        loaded.position,
        loaded.material,
        loaded.spent,
        triggers,
        chosen,
        Budget(max_seconds),
        open_ties,
    )
    _answer(advice, lambda: render_advice(advice), fmt, output)


@group.command()
@click.argument(
    "board_ref",
    metavar="[BOARD]",
    default="kaelyfos",
    type=FilePath("a board id or a board file's path", as_text=True),
)
@click.option(
    "--explorer",
    "explorers",
    multiple=True,
    metavar="NAME=NODE",
    help="An explorer's placement (repeatable). Default: the crew on the Scarab (setup).",
)
@click.option(
    "--material",
    type=whole("material", least=0, most=100),
    default=0,
    show_default=True,
    help="The crew's material at the start (1 per trap built).",
)
@triggers_option
@open_ties_option
@click.option(
    "--policy",
    type=click.Choice(SAMPLED_POLICIES),
    default="advise",
    show_default=True,
    help="The crew: advise (exact figures) | mcts (OpenSpiel's MCTS over the OpenSpiel game, "
    "sampled games) | random (a uniformly random legal action: a reference point, sampled).",
)
@click.option(
    "--games",
    type=whole("games"),
    default=None,
    help="mcts and random: games to sample (default 200).",
)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="mcts and random: game i is dealt and played from SEED/i (default 0).",
)
@mcts_options
@ruling_option
@max_seconds_option
@format_option(("text", "json"))
@output_option
@one_line_errors
def balance(
    board_ref: str,
    explorers: tuple[str, ...],
    material: int,
    triggers: int,
    open_ties: str,
    policy: str,
    games: int | None,
    seed: int | None,
    simulations: int | None,
    uct_c: float | None,
    rollouts: int | None,
    rulings: tuple[str, ...],
    max_seconds: float | None,
    fmt: str,
    output: Path | None,
) -> None:
    """Expected distress per nest deal and per behaviour card, under the advise crew.

    Exact: every deal of the nests onto the nest sites (each equally likely) and
    every first behaviour card (by copies), from the board's start (the crew on the
    Scarab) or the --explorer placements, no bloodsuckers out, no traps, the whole
    supply. Before the first card the crew takes advise's best free actions for the
    deal; from there on it plays as advise does over the next --triggers cards
    (explorers stay put: their movement is not modelled). Per deal, per first card,
    and the means over the deals: expected distress, expected waking nightmares,
    the worst total.

    With --policy mcts (or random) the crew is played by that agent in the OpenSpiel
    game ruleslawyer_kaelyfos instead: --games sampled games (nests dealt and cards
    drawn at random, a choice the rules leave open drawn uniformly), the mean distress
    and waking nightmares with 95% intervals, per first card and per deal.

    \b
    BOARD: a built-in id (kaelyfos, the default) or a board file's path.
    """
    from ruleslawyer.budget import Budget
    from ruleslawyer.cli.kaelyfos.balance_text import render_balance, render_sampled
    from ruleslawyer.models.kaelyfos.files import load_board
    from ruleslawyer.solvers.kaelyfos.balance import balance as run_balance

    settings = mcts_settings((policy,), simulations, uct_c, rollouts)
    if policy == "advise" and (games, seed) != (None, None):
        raise click.UsageError("--games and --seed need --policy mcts or random")
    if policy != "advise" and open_ties != "uniform":
        raise click.UsageError(
            f"--open-ties {open_ties} is for --policy advise: the OpenSpiel game draws a "
            "choice the rules leave open, each option equally likely"
        )
    board, display = load_board(board_ref)
    if not board.behaviors:
        raise InputError(
            display, "behavior", "no [[behavior]] cards", "a board whose deck balance can draw from"
        )
    chosen = _rulings(board.rulings, (), rulings, Path(display))
    placed = _placements(explorers, board)
    if policy != "advise":
        sampled = _sampled(
            board_ref, board, placed, material, triggers, chosen, (policy, settings),
            200 if games is None else games, seed or 0, Budget(max_seconds),
        )  # fmt: skip
        _answer(sampled, lambda: render_sampled(sampled), fmt, output)
        return
    result = run_balance(board, placed, material, triggers, chosen, Budget(max_seconds), open_ties)
    _answer(result, lambda: render_balance(result), fmt, output)


def _sampled(
    board_ref: str,
    board: Any,
    placed: tuple[tuple[str, str], ...],
    material: int,
    triggers: int,
    chosen: dict[str, str],
    agent: tuple[str, dict[str, Any]],
    games: int,
    seed: int,
    budget: Any,
) -> Any:
    """Sampled games of the crew played by an OpenSpiel agent (``--policy mcts|random``)."""
    from ruleslawyer.openspiel import agents
    from ruleslawyer.openspiel.kaelyfos import load
    from ruleslawyer.solvers.kaelyfos.balance import Played, sample

    game = load(board=board_ref, explorers=placed, material=material, triggers=triggers,
                rulings=chosen)  # fmt: skip
    policy, settings = agent
    crew = agents.Agent(policy, **settings)

    def play(rng: Any) -> Played:
        end = agents.play(game, [crew], rng).model
        return Played(end.position.nests, end.first, end.distress, end.nightmares)

    described = (policy, crew.describe())
    return sample(board, placed, material, triggers, chosen, described, play, games, seed, budget)


def _answer(result: Any, text: Callable[[], str], fmt: str, output: Path | None) -> None:
    """Print ``result`` as JSON or ``text()``; exit 3 when it did not finish."""
    if fmt == "json":
        emit(json_text(result.to_json()), output)
    else:
        emit(text(), output)
    if not result.finished:
        raise SystemExit(EXIT_UNFINISHED)


def _placements(options: tuple[str, ...], board: Any) -> tuple[tuple[str, str], ...]:
    """``--explorer NAME=NODE`` options: distinct names on face-up nodes of ``board``."""
    from ruleslawyer.models.kaelyfos.setup import explorer_sites

    sites = explorer_sites(board)
    out: dict[str, str] = {}
    for i, option in enumerate(options):
        name, sep, node = option.partition("=")
        place = f"--explorer[{i}]"
        if not sep or not name or name in out:
            raise InputError("options", place, option, "NAME=NODE with a name not given before")
        if node not in sites:
            raise InputError("options", place, node, f"a face-up node ({', '.join(sites)})")
        out[name] = node
    return tuple(sorted(out.items()))


def _rulings(
    board: tuple[tuple[str, str], ...],
    in_file: tuple[tuple[str, str], ...],
    options: tuple[str, ...],
    source: Path,
) -> dict[str, str]:
    """The board file's [rulings], then the input file's, then --ruling: the later wins."""
    from ruleslawyer.findings import parse_ruling_options, resolve_rulings
    from ruleslawyer.models.kaelyfos.resolve import RULE_POINTS

    file_rulings = {**dict(board), **dict(in_file)}
    return resolve_rulings(
        RULE_POINTS, file_rulings, parse_ruling_options(options), source=str(source)
    )
