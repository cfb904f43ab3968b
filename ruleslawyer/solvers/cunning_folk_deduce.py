"""``ruleslawyer cunning-folk deduce``: where each townsfolk can be, and the elders' chances.

Z3 (:mod:`.cunning_folk_z3`) decides consistency, the possible and certain
roles and the reason for each certain one; forward filtering
(:mod:`.cunning_folk_worlds`) gives the exact world counts and the weighted
villages the elder planner (:mod:`.cunning_folk_elder`) works on.
"""

from __future__ import annotations

from typing import Any

from ruleslawyer.errors import InconsistentRecord
from ruleslawyer.models.cunning_folk import CELLS, ELDERS
from ruleslawyer.models.cunning_folk_log import Log
from ruleslawyer.solvers.cunning_folk_elder import plan
from ruleslawyer.solvers.cunning_folk_worlds import filter_worlds
from ruleslawyer.solvers.cunning_folk_z3 import encode


def deduce(log: Log, *, face_down_only: bool = False) -> dict[str, Any]:
    """The deduction result as the JSON-able dict the CLI prints."""
    deduction = encode(log)
    impossible = deduction.first_impossible()
    if impossible is not None:
        event = log.events[impossible]
        before = f"events 0..{impossible - 1}" if impossible else "the setup"
        raise InconsistentRecord(
            log.source,
            f"event[{impossible}]",
            event.text,
            f"an event that some deal and swap outcomes allow after {before}",
        )
    worlds = filter_worlds(log)
    counts = worlds.counts()
    possible = deduction.possible()
    cells: dict[str, Any] = {}
    for c, cell in enumerate(CELLS):
        certain = possible[cell][0] if len(possible[cell]) == 1 else None
        cells[cell] = {
            "face_up": worlds.face_up[c],
            "certain": certain,
            "counts": counts[cell],
            "why": list(deduction.why(c, certain)) if certain else [],
        }
    elder = {}
    for role in ELDERS:
        best = plan(
            worlds.village,
            worlds.weight,
            worlds.face_up,
            role,
            declares=log.setup.declares,
            face_down_only=face_down_only,
        )
        elder[role] = {
            "win_probability": float(best.win_probability),
            "win_fraction": str(best.win_probability),
            "guaranteed": best.guaranteed,
            "first_pick": best.first_pick,
        }
    return {"worlds": worlds.total, "finished": True, "cells": cells, "elder": elder}


def render_text(result: dict[str, Any], log: Log) -> str:
    """A human-readable summary: the grid of certain roles, then per-cell odds and the elders."""
    total = result["worlds"]
    lines = [f"{total} worlds consistent with {len(log.events)} events ({log.setup.name} setup)"]
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
        lines.append(f"{cell}: {odds}{why}")
    for role, info in result["elder"].items():
        sure = " (guaranteed)" if info["guaranteed"] else ""
        pick = info["first_pick"] or "none"
        lines.append(
            f"{role}: win {info['win_fraction']} = {info['win_probability']:.4f}{sure}, "
            f"first pick {pick}"
        )
    return "\n".join(lines) + "\n"
