"""The ``--format text`` tables of an analysis: every move's value and the line."""

from __future__ import annotations

from typing import Any

from ruleslawyer.solvers.twist_of_fate.common import _show


def describe(move: dict[str, Any]) -> str:
    """A move as words: card on target, and how it is played."""
    head = f"{move['card']} on {move['target']}, {move['play']}"
    if move["play"] == "face-up":
        gets = "player_gets" if "player_gets" in move else "target_gets"
        who = "player" if gets == "player_gets" else "target"
        return f"{head} side {move['side']} ({who} gets {_show(move[gets])})"
    raises = f"player raises {move['player_raises']}"
    if "target_raises" in move:
        raises += f", target raises {move['target_raises']}"
    return f"{head} ({raises})"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return [
        "  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in [header, *rows]
    ]


def _utility(u: dict[str, Any]) -> str:
    """One player's utility: "won ply 3", "lost ply 4", "open 2 / 5" (Sanctuary / Luck +
    Shilling), or the expected components "E[outcome] / E[tempo] / 2 / 5"."""
    if u["outcome"] == "expected":
        return (
            f"E {u['expected_outcome']} / {u['expected_tempo']} / {u['sanctuary']} / "
            f"{u['luck_plus_shilling']}"
        )
    if u["outcome"] == "open":
        return f"open {u['sanctuary']} / {u['luck_plus_shilling']}"
    return f"{u['outcome']} ply {u['ply']}"


def render_analysis(out: dict[str, Any]) -> str:
    """The model, its assumptions, the moves table and the line table."""
    lines = [
        f"model: {out['model']}",
        f"utility: {out['utility']}",
        f"choice: {out['tie_break']}",
        f"horizon: {out['horizon']}",
    ]
    if "chance" in out:
        lines += [f"chance: {out['chance']}", f"chance ties: {out['chance_ties']}"]
    if out["moves"] is None:
        return "\n".join(lines) + "\n"
    players = list(out["moves"][0]["value"]) if out["moves"] else []
    lines.append(
        f"moves of {out['player']} (each player's outcome: won or lost at a ply, or open "
        "with Sanctuary / Luck + Shilling at the horizon):"
    )
    if out["moves"]:
        rows = [
            [describe(m["move"]), *(_utility(m["value"][p]) for p in players)] for m in out["moves"]
        ]
        lines += _table(["move", *players], rows)
    else:
        lines.append("  (no legal move)")
    lines.append("line (Luck / Shilling / Sanctuary of every seat after each play):")
    if out["line"]:
        seats = list(out["line"][0]["seats"])
        rounds = "round" in out["line"][0]
        rows = [
            [str(p["ply"]), *([str(p["round"])] if rounds else []), p["player"]]
            + [describe(p["move"])]
            + [f"{s['luck']} / {s['shilling']} / {s['sanctuary']}" for s in p["seats"].values()]
            for p in out["line"]
        ]
        head = ["ply", *(["round"] if rounds else []), "player", "move", *seats]
        lines += _table(head, rows)
    else:
        lines.append("  (the position is at the horizon)")
    if "line_end" in out:
        lines.append(f"  the line stops at {out['line_end']}")
    return "\n".join(lines) + "\n"


def render_hidden(out: dict[str, Any]) -> str:
    """The assumptions, then every move's average and worst case over the hidden cards."""
    lines = [f"{k.replace('_', ' ')}: {out[k]}" for k in ("model", "utility") if k in out]
    lines += [f"choice: {out['tie_break']}", f"horizon: {out['horizon']}"]
    if "chance" in out:
        lines += [f"chance: {out['chance']}", f"chance ties: {out['chance_ties']}"]
    hidden = out["hidden"]
    lines += [
        f"hidden cards: {hidden['evaluation']}",
        f"prior: {hidden['prior']}",
        f"worlds: {hidden['worlds']} ({hidden['equally_likely_draws']} equally likely draws)",
    ]
    if out["moves"] is None:
        return "\n".join(lines) + "\n"
    me = out["player"]
    players = list(out["moves"][0]["average"]) if out["moves"] else []
    lines.append(
        f"moves of {me} (average over the worlds of each player's utility: E expected "
        "outcome, +1 won, -1 lost / expected tempo, minus the plies to a win, plus to a loss "
        f"/ Sanctuary / Luck + Shilling when open; and {me}'s worst case):"
    )
    rows = [
        [
            describe(m["move"]),
            *(_utility(m["average"][p]) for p in players),
            _utility(m["worst_case"][me]),
        ]
        for m in out["moves"]
    ]
    lines += _table(["move", *players, f"worst for {me}"], rows)
    lines.append(f"safest move (best worst case): {describe(out['safest_move'])}")
    return "\n".join(lines) + "\n"


EXHAUSTIVE_ONLY = "not computed by the pruned search (--exhaustive enumerates every state)"


def render_pruned(out: dict[str, Any]) -> str:
    """The pruned paranoid answer: the guarantees, the best move and its value, the
    model, the moves when every one was scored, nodes and time."""
    done = out["finished"]

    def word(value: Any, none: str) -> str:
        if not done:
            return "unknown"
        if value is None:
            return none
        return ("yes" if value else "no") if isinstance(value, bool) else str(value)

    me = out["player"]
    mover = out.get("to_move", me)
    best = "best_move: "
    if mover != me:  # another seat's guarantee: the player to move plays against it
        best = f"best_move ({mover}'s, the first worst for {me}): "
    lines = [
        f"player: {me}" + (f" ({mover} to move)" if mover != me else ""),
        f"search: {out['search']}",
        "guaranteed_sanctuary: "
        + word(out["guaranteed_sanctuary"], "none (every line can be made a loss)"),
        best + (describe(out["best_move"]) if out["best_move"] else word(None, "none")),
        "value: " + (_utility(out["value"][me]) if out["value"] else word(None, "none")),
        "guaranteed_win: " + word(out["guaranteed_win"], "no"),
        f"reachable_max_sanctuary, possible_win, end_states, line: {EXHAUSTIVE_ONLY}",
        f"model: {out['model']}",
        f"utility: {out['utility']}",
        f"choice: {out['tie_break']}",
        f"horizon: {out['horizon']}",
    ]
    if out["moves"] is not None:
        lines.append(f"moves of {mover} (each by its own pruned search; {me}'s outcome):")
        rows = [[describe(m["move"]), _utility(m["value"][me])] for m in out["moves"]]
        lines += _table(["move", me], rows) if rows else ["  (no legal move)"]
    elif done:
        lines.append("moves: the best only (--every-move scores each by its own pruned search)")
    finished = "yes" if done else "no (budget spent: no exact answer, values withheld)"
    lines += [f"nodes: {out['nodes']}", f"seconds: {out['seconds']:.3f}"]
    if "task_cpu_seconds" in out:
        lines.append(f"task_cpu_seconds: {out['task_cpu_seconds']:.3f}")
    lines.append(f"finished: {finished}")
    return "\n".join(lines) + "\n"
