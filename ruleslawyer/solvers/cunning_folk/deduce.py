"""``ruleslawyer cunning-folk deduce``: where each townsfolk can be, and the elders' chances.

Exact forward filtering (:mod:`.cunning_folk_worlds`) gives the world counts,
and from them consistency (the first event no world survives) and the
possible and certain roles; it is polynomial in the log's length, whatever
the number of hidden swaps. Z3 (:mod:`.cunning_folk_z3`) only explains each
certain cell (``why``: the smallest set of events forcing it, from an unsat
core), within what is left of the time budget. The elder planner
(:mod:`.cunning_folk_elder`) works on the weighted villages.
"""

from __future__ import annotations

from typing import Any

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.errors import InconsistentRecord
from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.models.cunning_folk.village import CELLS, ELDERS, SCOUNDREL_PRIOR
from ruleslawyer.solvers.cunning_folk.elder import ElderPlan, plan
from ruleslawyer.solvers.cunning_folk.worlds import Odds, Worlds, filter_worlds

DEFAULT_MAX_SECONDS = 60.0

ELDER_FIGURE = (
    "the chance that an elder run started now, and not challenged, identifies every "
    "opposing card (best adaptive picks; a card that does not oppose ends the run; "
    "with the scoundrels rule the run may declare instead, and an opponent who then "
    "reveals an opposing card counts as a failure); not the chance of winning the game"
)


def assumptions(log: Log, odds: Odds) -> dict[str, str]:
    """What the figures assume: the prior over deals, the weighting of hidden swaps, the elders."""
    if log.setup.declares:
        prior = SCOUNDREL_PRIOR
    else:
        prior = f"{log.setup.name} deal: every distinct arrangement of the village equally likely"
    swapped, kept = odds
    return {
        "prior": prior,
        "hidden_swaps": f"swapped:kept = {swapped}:{kept} for each evil-witch swap the log's "
        "player did not see (--swap-odds); a world's weight is the product",
        "elder": ELDER_FIGURE,
    }


def consistent_worlds(log: Log, odds: Odds, budget: Budget, label: str) -> Worlds:
    """The log's worlds (progress on a terminal); an event no world allows is bad input."""
    progress = Progress(f"{label}: events", len(log.events))
    try:
        worlds = filter_worlds(log, odds=odds, budget=budget, progress=progress)
    finally:
        progress.close()
    if worlds.impossible is not None:
        k = worlds.impossible
        before = f"events 0..{k - 1}" if k else "the setup"
        raise InconsistentRecord(
            log.source,
            f"event[{k}]",
            log.events[k].text,
            f"an event that some deal and swap outcomes allow after {before}",
        )
    return worlds


def deduce(
    log: Log, *, odds: Odds = (1, 1), max_seconds: float = DEFAULT_MAX_SECONDS
) -> dict[str, Any]:
    """The deduction result as the JSON-able dict the CLI prints."""
    budget = Budget(max_seconds=max_seconds)
    worlds = consistent_worlds(log, odds, budget, "deduce")
    head: dict[str, Any] = {"rulings": dict(log.rulings), "assumptions": assumptions(log, odds)}
    if not worlds.finished:
        return {"worlds": None, "finished": False, **head, "cells": {}, "elder": {}}
    counts = worlds.counts()
    certain = {cell: next(iter(n)) if len(n) == 1 else None for cell, n in counts.items()}
    why, explained = _why(log, certain, budget)
    cells: dict[str, Any] = {}
    for c, cell in enumerate(CELLS):
        cells[cell] = {
            "face_up": worlds.face_up[c],
            "certain": certain[cell],
            "counts": counts[cell],
            "why": why.get(cell, []) if certain[cell] else [],
        }
    elder = {
        role: {
            "run_success_probability": float(best.win_probability),
            "run_success_fraction": str(best.win_probability),
            "guaranteed": best.guaranteed,
            "first_pick": best.first_pick,
        }
        for role, best in elder_plans(worlds, log).items()
    }
    out = {"worlds": worlds.total, "finished": explained, **head, "cells": cells, "elder": elder}
    if not explained:
        out["unfinished"] = "the time budget ended before every certain cell's why was found"
    return out


def elder_plans(
    worlds: Worlds, log: Log, roles: tuple[str, ...] = ELDERS, budget: Budget | None = None
) -> dict[str, ElderPlan]:
    """Each elder's best run over ``worlds``, under the log's rules (the planner's figure);
    :class:`BudgetExceeded` when ``budget`` ends a plan part-way."""
    return {
        role: plan(
            worlds.village,
            worlds.weight,
            worlds.face_up,
            role,
            declares=log.setup.declares,
            declare_at_once=log.rules.declare_without_picks == "allowed",
            face_down_only=log.rules.elder_face_up_picks == "face-down-only",
            budget=budget,
        )
        for role in roles
    }


def _why(
    log: Log, certain: dict[str, str | None], budget: Budget
) -> tuple[dict[str, list[int] | None], bool]:
    """Each certain cell's reason (events), from Z3 within the budget; None where it ran out."""
    wanted = [(c, role) for c, cell in enumerate(CELLS) if (role := certain[cell]) is not None]
    if not wanted:
        return {}, True
    from ruleslawyer.solvers.cunning_folk.z3_model import encode

    deduction = encode(log)
    out: dict[str, list[int] | None] = {}
    for c, role in wanted:
        left = budget.remaining_seconds()
        reason = None if left is not None and left <= 0 else deduction.why(c, role, seconds=left)
        out[CELLS[c]] = None if reason is None else list(reason)
    return out, all(v is not None for v in out.values())


def render_text(result: dict[str, Any], log: Log) -> str:
    """A human-readable summary: the grid of certain roles, then per-cell odds and the elders."""
    total = result["worlds"]
    head = f"{len(log.events)} events ({log.setup.name} setup)"
    notes = [f"assumes {k.replace('_', ' ')}: {v}" for k, v in result["assumptions"].items()]
    rulings = ", ".join(f"{k}={v}" for k, v in result["rulings"].items()) or "none (defaults)"
    if total is None:
        lines = [f"finished: false (the time budget ended while filtering {head})"]
        return "\n".join([*lines, f"rulings: {rulings}", *notes]) + "\n"
    lines = [f"{total} worlds consistent with {head}"]
    for row in "123":
        shown = []
        for col in "ABC":
            cell = result["cells"][f"{col}{row}"]
            mark = cell["certain"] or "?"
            shown.append(f"{col}{row} {mark + ('*' if cell['face_up'] else ''):<12}")
        lines.append(("  " + " ".join(shown)).rstrip())
    lines.append("  (* face up)")
    for cell, info in result["cells"].items():
        odds = ", ".join(f"{r} {n}/{total}" for r, n in info["counts"].items())
        why = f"  because of events {info['why']}" if info["why"] else ""
        if info["certain"] and info["why"] is None:
            why = "  (why: not found within the time budget)"
        lines.append(f"{cell}: {odds}{why}")
    for role, info in result["elder"].items():
        sure = " (guaranteed)" if info["guaranteed"] else ""
        pick = info["first_pick"] or "none"
        lines.append(
            f"{role} run started now, unchallenged: succeeds {info['run_success_fraction']} = "
            f"{info['run_success_probability']:.4f}{sure}, first pick {pick}"
        )
    if not result["finished"]:
        lines.append(f"finished: false ({result['unfinished']})")
    lines.append(f"rulings: {rulings}")
    return "\n".join([*lines, *notes]) + "\n"
