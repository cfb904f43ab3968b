"""``ruleslawyer twisted-cryptids``: hidden-Stack analysis and simulated records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ruleslawyer.cli.agents import ismcts_options, ismcts_settings
from ruleslawyer.cli.common import (
    EXIT_UNFINISHED,
    INPUT_FILE,
    SEED,
    emit,
    format_option,
    game_file_argument,
    load_game_file,
    max_seconds_option,
    one_line_errors,
    output_option,
    refuse_data_errors,
    ruling_option,
    whole,
)
from ruleslawyer.schemas import dumps as json_text


@click.group("twisted-cryptids")
def group() -> None:
    """Twisted Cryptids: hidden Sighting Stacks and simulated games."""


@group.command()
@click.argument("log", type=INPUT_FILE)
@format_option(("text", "json"))
@output_option
@one_line_errors
def stacks(log: Path, fmt: str, output: Path | None) -> None:
    """Count the arrangements of every player's hidden Stacks that fit LOG (a record TOML).

    Per unrevealed slot: how many consistent arrangements put each Sighting kind
    there; per player: hidden Real Deals and final Myth bounds; the possible winners.
    A record no arrangement fits exits 2 naming the first impossible reveal.

    \b
    LOG: `perspective`, `rounds_played`, [[player]] (`name`, `cryptid`, `myth`), [[reveal]],
    [[known]]. Example: examples/twisted-cryptids/six-player-end.toml (`simulate` writes one).
    """
    from ruleslawyer.solvers.twisted_cryptids.record import load_record
    from ruleslawyer.solvers.twisted_cryptids.stacks import analyse

    record, game = load_record(log)
    result = analyse(record, game, display=str(log))
    text = json_text(result) if fmt == "json" else render_stacks(result)
    emit(text, output)


def render_stacks(result: dict[str, Any]) -> str:
    lines = []
    for name, p in result["players"].items():
        deals, myth = p["real_deals_hidden"], p["final_myth"]
        lines.append(
            f"{name}: {p['arrangements']} arrangements; Real Deals hidden "
            f"{deals['min']}..{deals['max']}; final Myth {myth['min']}..{myth['max']}"
        )
        for j, stack in enumerate(p["stacks"], start=1):
            cells = []
            for slot in stack:
                if "revealed" in slot:
                    cells.append(f"[{slot['revealed']}]")
                else:
                    cells.append(" ".join(f"{k}:{n}" for k, n in slot["counts"].items() if n))
            lines.append(f"  stack {j}: " + " | ".join(cells))
    winners = ", ".join(result["possible_winners"]) or "nobody"
    decided = "decided" if result["winner_decided"] else "not decided"
    lines.append(f"possible winners: {winners} ({decided})")
    lines.append(
        "(final Myth: Myth in the record plus the end scoring; Myth that later reveals "
        "would gain or lose is not in the record and not counted)"
    )
    return "\n".join(lines) + "\n"


@group.command()
@click.option("--players", type=whole("players", 2, 6), default=4, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option(
    "--rounds",
    type=whole("rounds", least=0),
    default=None,
    help="Stop after this many rounds (default: play the whole game).",
)
@click.option(
    "--moves",
    type=whole("moves", least=0),
    default=None,
    help="Stop after this many moves and write the record of the player to act, with its "
    "[position] table (for `advise`).",
)
@output_option
@one_line_errors
def simulate(
    players: int, seed: int, rounds: int | None, moves: int | None, output: Path | None
) -> None:
    """Play a random game with the built-in data and write the first player's record (TOML)."""
    from ruleslawyer.solvers.twisted_cryptids.record import record_to_toml
    from ruleslawyer.solvers.twisted_cryptids.simulate import position_record, simulated_record

    if moves is None:
        emit(record_to_toml(simulated_record(players, seed, rounds=rounds)), output)
        return
    if rounds is not None:
        raise click.UsageError("give --rounds or --moves, not both")
    emit(record_to_toml(position_record(players, seed, moves)), output)


@group.command()
@click.argument("record", type=INPUT_FILE)
@click.option("--samples", type=whole("samples", 2), default=200, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seeds the sampled worlds.")
@click.option(
    "--exact-limit",
    type=whole("worlds"),
    default=200,
    show_default=True,
    help="Average exactly over the hidden-Stack worlds when there are at most this many.",
)
@click.option(
    "--later-turns",
    type=whole("later Day turns", 0, 3),
    default=None,
    help="Choose only the next N of the perspective's later Day turns this round (the ones "
    "after pass; the output says so). Default: every one the round holds.",
)
@max_seconds_option
@ruling_option
@format_option(("text", "json"))
@output_option
@one_line_errors
def advise(
    record: Path,
    samples: int,
    seed: int,
    exact_limit: int,
    later_turns: int | None,
    max_seconds: float | None,
    rulings: tuple[str, ...],
    fmt: str,
    output: Path | None,
) -> None:
    """Rank every legal choice of the perspective player, to act in RECORD's [position]: in
    the last round by their chance to win, then their expected score; before it by their
    expected Myth (with the leader's, and the worst case over the other players' choices).

    Averaged over the other players' hidden Stacks consistent with the record (the worlds
    `stacks` counts): exactly when there are at most --exact-limit, else --samples seeded
    worlds with 95% intervals; in the last round over the Hidden Traits the others may hold
    too. Horizon: this round's Dusk reveals, counting Myth; in the last round the end of the
    game, counting the printed end-of-game scoring and who wins. Every choice within the
    horizon is its player's, made from what they know for their own goal (the First
    Player's tie-break, reveal targets, Night moves and placements, the perspective's later
    Day turns); the others' Day turns pass (their hands are unknown). Then every open rule
    point whose other readings change the ranking (--ruling settles one).

    \b
    RECORD: a `stacks` record with a [position] table (the board, every Hiding Spot, the phase,
    the perspective's hand). Example: examples/twisted-cryptids/advise-day.toml.
    """
    from ruleslawyer.budget import Budget
    from ruleslawyer.solvers.twisted_cryptids.advise import advise_readings
    from ruleslawyer.solvers.twisted_cryptids.position import (
        NOT_AVERAGED,
        excluded_traits,
        position_state,
        trait_known,
    )
    from ruleslawyer.solvers.twisted_cryptids.record import load_record

    settled = _rulings(rulings, str(record))
    rec, game = load_record(record, settled)
    state, hidden = position_state(rec, game, str(record), settled)
    result = advise_readings(
        state,
        settled,
        Budget(max_seconds=max_seconds),
        exact_limit=exact_limit,
        samples=samples,
        seed=seed,
        hidden=hidden,
        not_averaged=NOT_AVERAGED,
        trait_known=trait_known(rec),
        excluded=excluded_traits(rec, game),
        later_turns=later_turns,
    )
    result = {"position": str(record), **result}
    emit(json_text(result) if fmt == "json" else render_advice(result), output)
    if not result["finished"]:
        raise SystemExit(EXIT_UNFINISHED)


def _rulings(options: tuple[str, ...], source: str) -> dict[str, str]:
    """``--ruling ID=READING`` options, checked against the rule points (one-line errors)."""
    from ruleslawyer.findings import parse_ruling_options, resolve_rulings
    from ruleslawyer.models.twisted_cryptids.points import RULE_POINTS

    return resolve_rulings(RULE_POINTS, {}, parse_ruling_options(options), source=source)


def _stat_text(stat: dict[str, Any], form: str = "+.2f") -> str:
    text = format(stat["mean"], form)
    if "interval95" in stat:
        low, high = stat["interval95"]
        text += f" [{format(low, form)}, {format(high, form)}]"
    return text


def _choice_lines(choices: list[dict[str, Any]], indent: str = "") -> list[str]:
    lines = []
    for i, row in enumerate(choices, start=1):
        worst = row["worst_case"]
        figures = f"score {_stat_text(row['score_change'])}; leader "
        figures += f"{_stat_text(row['leader_score_change'])}; worst "
        if "win_chance" in row:
            figures = f"win {_stat_text(row['win_chance'], '.2f')}; " + figures
            figures += f"win {worst['win_chance']:.2f}, score {worst['score_change']:+.2f}"
        else:
            figures += f"{worst['score_change']:+.2f}"
        lines.append(f"{indent}{i:3}. {figures}: {row['move']}")
    return lines


def render_advice(r: dict[str, Any]) -> str:
    how = (
        f"exact over {r['worlds']} worlds"
        if r["mode"] == "exact"
        else f"sampled: {r['samples']} of {r['worlds']} worlds (seed {r['seed']}), 95% intervals"
    )
    defaults = _default_readings()
    settled = [f"{k}={v}" for k, v in sorted(r["rulings"].items()) if defaults.get(k) != v]
    lines = [
        f"position: {r['position']}; round {r['round']}, phase {r['phase']}",
        f"{r['actor']} to act; leader (most Myth among the others): {r['leader']}",
        f"prior: {r['prior']}; {how}",
        f"horizon: {r['horizon']}",
        f"score counted (each figure: its expected change): {r['score']}",
        *([f"hidden traits: {r['hidden_traits']}"] if r["hidden_traits"] else []),
        f"ranked by: {r['ranking']}",
        f"policy: {r['policy']}",
        f"worst case: {r['worst_case']}",
        f"later Day turns of the actor this round: {r['later_day_turns']}, chosen "
        f"{r['later_day_turns_chosen']}",
        f"not averaged: {r['not_averaged']}",
        "rulings: "
        + (", ".join(settled) if settled else "every rule point at its default reading"),
        f"finished: {str(r['finished']).lower()} ({r['moves_ranked']} of {r['moves_legal']} "
        "legal choices" + (f"; {r['unfinished_reason']}" if r["unfinished_reason"] else "") + ")",
        *_choice_lines(r["choices"]),
    ]
    changing = r["open_rule_points_changing_the_ranking"]
    if not r["open_rule_points_tried"]:
        lines.append("open rule points: not all tried (out of time)")
    elif not changing:
        lines.append("open rule points changing the ranking: none")
    if r["readings_with_another_player_to_act"]:
        lines.append(
            "not ranked (another player would act here): "
            + ", ".join(r["readings_with_another_player_to_act"])
        )
    for d in changing:
        cut = (
            ""
            if d["finished"]
            else ", not finished (the budget ran out: the choices ranked so far)"
        )
        lines.append(f"under {d['point']}={d['reading']} ({d['title']}){cut}:")
        lines.extend(_choice_lines(d["choices"], "  "))
    return "\n".join(lines) + "\n"


def _default_readings() -> dict[str, str]:
    from ruleslawyer.models.twisted_cryptids.points import RULE_POINTS

    return {p.id: p.default or "" for p in RULE_POINTS if p.readings}


@group.command()
@game_file_argument("twisted-cryptids")
@click.option(
    "--players",
    type=whole("players", 2, 6),
    multiple=True,
    help="Player counts to play (repeatable; default every count the player-count reading "
    "in force allows: 2 to 6).",
)
@click.option("--games", type=whole("games"), default=200, show_default=True, help="Per count.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Game i uses seed + i.")
@click.option(
    "--policy",
    type=click.Choice(["random", "advise", "ismcts"]),
    default="random",
    show_default=True,
    help="Every seat's agent: uniformly random moves, the move `advise` ranks first, or "
    "OpenSpiel's information-set MCTS (ismcts) from the seat's information state.",
)
@click.option(
    "--agent-exact-limit",
    type=whole("worlds"),
    default=24,
    show_default=True,
    help="advise agent: average exactly when there are at most this many worlds.",
)
@click.option(
    "--agent-samples",
    type=whole("samples", least=2),
    default=24,
    show_default=True,
    help="advise agent: otherwise this many worlds, sampled with the game's seed.",
)
@ismcts_options
@max_seconds_option
@ruling_option
@format_option(("text", "json"))
@output_option
@one_line_errors
def balance(
    target: str,
    players: tuple[int, ...],
    games: int,
    seed: int,
    policy: str,
    agent_exact_limit: int,
    agent_samples: int,
    simulations: int | None,
    uct_c: float | None,
    rollouts: int | None,
    final_policy: str | None,
    max_seconds: float | None,
    rulings: tuple[str, ...],
    fmt: str,
    output: Path | None,
) -> None:
    """Seat win rates from seeded games, per player count (95% Wilson intervals). Seat k
    plays the k-th Cryptid of the game file; every seat plays --policy. --max-seconds stops
    between moves: the games finished are counted, `finished: false`, exit 3. With
    --policy ismcts each move is OpenSpiel's information-set MCTS over the OpenSpiel game
    ruleslawyer_twisted_cryptids (--simulations, --uct-c, --rollouts, --final-policy).

    \b
    GAME|FILE: twisted-cryptids (the built-in placeholder data) or a game file of your
    own; its [rulings], then --ruling, are played."""
    from ruleslawyer.budget import Budget
    from ruleslawyer.checks.twisted_cryptids.check import check_structure
    from ruleslawyer.models.twisted_cryptids.game import load_game
    from ruleslawyer.models.twisted_cryptids.play import player_counts
    from ruleslawyer.models.twisted_cryptids.points import PLAYER_COUNT
    from ruleslawyer.solvers.twisted_cryptids.balance import Agent
    from ruleslawyer.solvers.twisted_cryptids.balance import balance as run

    source, chosen = load_game_file(target, "twisted-cryptids", rulings)
    game = load_game(source)
    refuse_data_errors(check_structure(source, game))
    allowed = player_counts(chosen.get(PLAYER_COUNT.id, PLAYER_COUNT.default or ""))
    allowed = tuple(n for n in allowed if n <= len(game.cryptids))
    for n in players:
        if n not in allowed:
            raise click.BadParameter(
                f"found {n}, expected one of {', '.join(map(str, allowed))} (the player-count "
                f"reading in force and the {len(game.cryptids)} Cryptids of {source.display})",
                param_hint="--players",
            )
    budget = Budget(max_seconds=max_seconds)
    settings = ismcts_settings(policy, simulations, uct_c, rollouts, final_policy)
    searcher = _ismcts(game, chosen, settings) if policy == "ismcts" else None
    agent = Agent(policy, agent_exact_limit, agent_samples, searcher)
    counts = sorted(set(players)) or list(allowed)
    tables = [run(game, n, games, seed, budget, agent, chosen) for n in counts]
    readings = ", ".join(f"{k}={v}" for k, v in chosen.items())
    result = {
        "game": source.display,
        "provenance": source.provenance,
        "rulings": dict(chosen),
        "policy": agent.text(),
        "agent": agent.settings(),
        "model": f"{source.display}, "
        + (
            f"rulings {readings}, default readings of every other rule point"
            if readings
            else "default readings of every rule point"
        ),
        "win": "the highest final score; a shared win (tied after the tie-break) counts for each",
        "finished": all(t["finished"] for t in tables),
        "counts": tables,
    }
    emit(json_text(result) if fmt == "json" else render_balance(result), output)
    if not result["finished"]:
        raise SystemExit(EXIT_UNFINISHED)


def _ismcts(game: Any, rulings: dict[str, str], settings: dict[str, Any]) -> Any:
    """The ismcts agent deciding in the balance loop (pyspiel imported only here)."""
    from ruleslawyer.openspiel import twisted_cryptids
    from ruleslawyer.openspiel.agents import Agent, OnModel

    def load(players: int) -> Any:
        return twisted_cryptids.game_of(game, players, rulings)

    words = {"returns": twisted_cryptids.RETURNS, "game": twisted_cryptids.NAME}
    return OnModel(Agent("ismcts", **settings), load, words)


def render_balance(r: dict[str, Any]) -> str:
    from ruleslawyer.solvers.balance_stats import mean_text

    lines = [f"policy: {r['policy']}", f"model: {r['model']}", f"win: {r['win']}"]
    agent = r["agent"]
    if agent["name"] == "ismcts":
        lines.append(
            f"agent: ismcts, simulations {agent['simulations']}, uct_c {agent['uct_c']}, "
            f"rollouts {agent['rollouts']}, final policy {agent['final_policy']}; seed: "
            f"{agent['seed']}"
        )
    for t in r["counts"]:
        lines.append(
            f"{t['players']} players: {t['games']} of {t['games_asked']} games (seeds "
            f"{t['seed']}..{t['seed'] + t['games_asked'] - 1}), {t['shared_wins']} shared wins"
        )
        for s in t["seats"]:
            rate = "n/a" if s["win_rate"] is None else f"{s['win_rate']:.3f}"
            low, high = s["interval95"]
            score = (
                mean_text(None, "final score")
                if s["mean_final_myth"] is None
                else f"mean final score {s['mean_final_myth']}"
            )
            lines.append(
                f"  seat {s['seat']} ({s['cryptid']}): {s['wins']} wins, {rate} "
                f"[{low:.3f}, {high:.3f}]; {score}"
            )
    lines.append(f"finished: {str(r['finished']).lower()}")
    return "\n".join(lines) + "\n"
