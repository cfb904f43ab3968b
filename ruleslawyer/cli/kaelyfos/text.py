"""Plain-text rendering of a resolved Kaelyfos behaviour card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ruleslawyer.models.kaelyfos.points import POINTS_BY_ID
from ruleslawyer.models.kaelyfos.resolve import Result, Step


def describe(result: Result) -> str:
    """One line: where the bloodsuckers are, the traps, the supply and the distress."""
    free = ", ".join(f"{n} {node}" for node, n in result.bloodsuckers) or "none"
    traps = ", ".join(f"{t.node} ({t.caught} caught)" for t in result.traps) or "none"
    distress = ", ".join(f"{e} {n}" for e, n in result.distress if n) or "none"
    nightmares = ", ".join(result.nightmares) or "none"
    return (
        f"bloodsuckers: {free}; traps: {traps}; supply {result.supply}, "
        f"removed from play {result.removed_from_play}; distress: {distress}; "
        f"waking nightmares: {nightmares}"
    )


def render(outcome: Step, rulings: Mapping[str, str]) -> str:
    lines = ["result:", f"  {describe(outcome.result)}"]
    if rulings:
        lines.append("rulings: " + ", ".join(f"{k}={v}" for k, v in rulings.items()))
    if outcome.divergences:
        lines.append("open rule points that would change this result:")
        for point, reading, result in outcome.divergences:
            lines.append(f"  {point}={reading} ({POINTS_BY_ID[point].title}):")
            lines.append(f"    {describe(result)}")
    else:
        lines.append("no open rule point changes this result")
    for decision, results in outcome.choices:
        if decision.crew:
            who = "the crew decides" + (f": {decision.point}" if decision.point else "")
        else:
            who = f"open: {decision.point}"
        lines.append(f"choice ({who}): {decision.description}")
        for i, (label, result) in enumerate(zip(decision.labels, results, strict=True)):
            shown = " (shown as the result)" if i == 0 else ""
            lines.append(f"  {label}{shown}: {describe(result)}")
    if not outcome.finished:
        lines.append(
            "finished: false (the --max-seconds budget ran out: the result above is exact, "
            "the open rule points and choices listed are only those resolved in time)"
        )
    return "\n".join(lines) + "\n"


def describe_reveal(reveal: Mapping[str, Any]) -> str:
    cards = "; ".join(" or ".join(c) for c in reveal["cards"]) or "none"
    deck = ", ".join(reveal["deck"]) or "empty"
    return f"marker on {reveal['marker']}; cards revealed: {cards}; deck left: {deck}"


def render_reveal(out: Mapping[str, Any]) -> str:
    lines = ["result:", f"  {describe_reveal(out['result'])}"]
    if out["divergences"]:
        lines.append("open rule points that would change this result:")
        for d in out["divergences"]:
            lines.append(f"  {d['point']}={d['reading']} ({POINTS_BY_ID[d['point']].title}):")
            lines.append(f"    {describe_reveal(d['result'])}")
    else:
        lines.append("no open rule point changes this result")
    return "\n".join(lines) + "\n"
