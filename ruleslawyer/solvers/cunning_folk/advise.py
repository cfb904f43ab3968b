"""``ruleslawyer cunning-folk advise``: advice for the log's perspective player.

Everything is exact over the worlds of :func:`~.worlds.filter_worlds` (the end villages
with their integer weights), so it shares ``deduce``'s prior and hidden-swap weighting:

- a pending claim (:mod:`.stage.claim`): its chance of being true, and challenging against
  accepting as branches with each seat's value, the claimant's elder run planned over
  her own worlds (:mod:`.stage.views`: what she has seen, never what only you saw) and played
  out in yours; a game that goes on worth the continuation table's value
  (:mod:`.goes_on.continuation`), with the range of each such value over which the answer holds;
- a run in progress: the next pick or stop of your own elder run, each option valued;
  another player's run, planned over their worlds, scored over yours;
- :func:`information_gain`: for each cell, the expected information (bits) that
  investigating it gives about the village's allegiances, the thing both elder runs
  must find;
- your elder runs started now (:mod:`.elder`).

The claimant's bluffing policy is not modelled in the claim's chance: a claim is
evidence only through what the log's rules make it imply (an unchallenged claim implies
nothing); `cunning-folk equilibrium` models it, and for two players its challenge
probability is printed beside.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.errors import BudgetExceeded, InputError
from ruleslawyer.models.cunning_folk.knowledge import knowledge
from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.models.cunning_folk.village import (
    CELL_INDEX,
    CELLS,
    ELDERS,
    EVIL_ELDER,
    EVIL_WITCH,
    GOOD_ELDER,
    GOOD_WITCH,
    PIRATE,
    POINTS,
    ROLES,
    VILLAGER,
)
from ruleslawyer.solvers.cunning_folk.deduce import (
    DEFAULT_MAX_SECONDS,
    assumptions,
    consistent_worlds,
    elder_plans,
)
from ruleslawyer.solvers.cunning_folk.elder import (
    DECLARE,
    END,
    FAILED,
    STOP,
    WON,
    ElderPlan,
)
from ruleslawyer.solvers.cunning_folk.goes_on import continuation
from ruleslawyer.solvers.cunning_folk.stage.claim import (
    Answers,
    Claim,
    better,
    branch_json,
    outcomes,
    sensitivity,
    summary,
)
from ruleslawyer.solvers.cunning_folk.stage.ends import ACTIONS, Position, run_stakes
from ruleslawyer.solvers.cunning_folk.stage.runs import Planner, play_out
from ruleslawyer.solvers.cunning_folk.stage.views import TooMany, Views, views
from ruleslawyer.solvers.cunning_folk.worlds import ROLE_CODE, Odds, Worlds

__all__ = ["ACTIONS", "Claim", "advise", "claim_outcomes", "information_gain", "pending_claim"]

# Allegiance: what an elder run must find. Good (good witch, good elder) opposes the evil
# elder, evil (evil witch, evil elder) opposes the good elder, "the pirate opposes everyone".
ALLEGIANCE: dict[str, str] = {
    GOOD_WITCH: "good",
    GOOD_ELDER: "good",
    EVIL_WITCH: "evil",
    EVIL_ELDER: "evil",
    PIRATE: "pirate",
}
_SIDES = ("none", "good", "evil", "pirate")
_SIDE_OF_CODE = np.array([_SIDES.index(ALLEGIANCE.get(r, "none")) for r in ROLES], dtype=np.int64)

# The suspected-card utility (the `deduce` agent's rule): suspected cards and an elder win.
WIN_WEIGHT = 2
UTILITY = (
    "+1 per suspected card the claimant takes (for a bluff caught, or an elder run that "
    "fails), -1 per suspected card you take, "
    f"-{WIN_WEIGHT} if the claimant wins at once with an elder run (as much as being "
    "ostracised); other actions count 0; you are the only challenger, the others accept"
)
ONLY_CHALLENGER = "you are the only challenger, the others accept"
GAME_UTILITY = (
    "each seat's value: +1 it wins (every other player ostracised, or its elder run "
    "identifies every opposing card), -1 it loses (it is ostracised, or another player "
    "wins), and a game that goes on is worth that seat's continuation value (see goes on); "
    "the expected value of an answer is the sum over its branches; " + ONLY_CHALLENGER
)
KNOWLEDGE = (
    "every player decides from their own worlds: the claimant's elder run is planned over "
    "what she has seen (the public events, her own looks, the card she has just looked at, "
    "whether her own swaps changed the cards over; never what only you saw), for her own "
    "values (a win, a suspected card, stopping or declining where the rulings allow it), "
    "and played out in each of your worlds; the claim's chance is over your worlds "
    "(scoundrels: another player's own kept and set-aside cards are not in the log, so "
    "their worlds start from the public deal)"
)
VILLAGER_POINT = "cunning-folk/villager-challenge"
HORIZON = (
    "one decision: the answer to this claim (its direct consequences: suspected cards, "
    "ostracism, the end of the game when one player remains, the claimed action, an elder "
    "run to its end), or the next step of a run in progress, and the next investigation; "
    "after that the game goes on at its continuation value"
)
INFO_TARGET = (
    "the allegiance of every card in the village (good: good witch, good elder; evil: evil "
    "witch, evil elder; pirate; none), which both elder runs must find; exact over the worlds"
)


def pending_claim(document: Mapping[str, Any], log: Log) -> Claim | None:
    """The log's last event when it is another player's unchallenged claim, else None.

    Nothing after a claim means the answers to it have not been logged yet: it is pending.
    """
    events = document.get("event") or []
    if not events:
        return None
    last = events[-1]
    if last.get("type") != "claim" or last.get("challenged", False):
        return None
    if last.get("player") == log.perspective:
        return None
    return Claim(last["player"], CELL_INDEX[last["cell"]], last["role"], len(events) - 1)


def claim_probability(worlds: Worlds, cell: int, role: str) -> Fraction:
    """The exact chance that ``cell`` holds ``role`` now, over the weighted worlds."""
    total = worlds.total
    if total == 0:
        raise ValueError("no world left: the log is inconsistent")
    hit = int(worlds.weight[worlds.village[:, cell] == ROLE_CODE[role]].sum())
    return Fraction(hit, total)


def _entropy(masses: Iterable[int]) -> float:
    """Shannon entropy (bits) of a distribution given by exact non-negative integer masses."""
    masses = [m for m in masses if m]
    total = sum(masses)
    return math.log2(total) - sum(m * math.log2(m) for m in masses) / total if total else 0.0


def _grouped(keys: np.ndarray, weight: np.ndarray) -> list[int]:
    """The summed weight of each distinct key (exact: int64 or Python integers)."""
    if not len(keys):
        return []
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    return [int(s) for s in np.add.reduceat(weight[order], starts)]


def allegiance_keys(village: np.ndarray) -> np.ndarray:
    """One integer per village for its allegiance pattern (base 4 over the cells)."""
    sides = _SIDE_OF_CODE[village.astype(np.int64)]
    return sides @ (len(_SIDES) ** np.arange(village.shape[1], dtype=np.int64))


def information_gain(worlds: Worlds) -> dict[str, float]:
    """Per cell, the expected bits about the village's allegiances from investigating it.

    I(X; Y_c) = H(X) + H(Y_c) - H(X, Y_c), with X the allegiance pattern and Y_c the role
    seen in cell c, over the exact world weights. Cells come in board order.
    """
    weight = worlds.weight
    keys = allegiance_keys(worlds.village)
    h_x = _entropy(_grouped(keys, weight))
    out: dict[str, float] = {}
    for c, cell in enumerate(CELLS):
        seen = worlds.village[:, c].astype(np.int64)
        roles_seen = _grouped(seen, weight)
        if len(roles_seen) == 1:  # the role there is certain: looking tells nothing
            out[cell] = 0.0
            continue
        h_y = _entropy(roles_seen)
        h_xy = _entropy(_grouped(keys * len(ROLES) + seen, weight))
        out[cell] = max(0.0, h_x + h_y - h_xy)
    return out


def allegiance_entropy(worlds: Worlds) -> float:
    """H(X): the bits still unknown about the village's allegiances."""
    return _entropy(_grouped(allegiance_keys(worlds.village), worlds.weight))


def goes_on_text(table: continuation.Table) -> str:
    """What the continuation values are, in words, with their sample."""
    if table.fill is not None:
        return f"every game that goes on is worth {table.fill} to each seat (a constant)"
    if not table.sampled:
        return f"a game that goes on is worth the values stated: {table.method}"
    games = {len(r.marks): r.games for r in table.rows}
    if len(set(games.values())) == 1:
        size = f"{min(games.values())} games a state"
    else:
        size = "games a state: " + ", ".join(
            f"{games[k]} with {k} players in" for k in sorted(games)
        )
    return (
        f"a game that goes on is worth each seat's continuation value, P(it wins) - "
        f"P(another wins) from there, by who is in, who holds a suspected card and who moves "
        f"next: sampled ({size}; 95% Wilson intervals, "
        f"ruleslawyer/data/{continuation.DATA}) by {table.method}; the sampled values are "
        "used as exact fractions, and each answer says over what range of them it holds"
    )


def claim_json(
    log: Log,
    claim: Claim,
    seen: Views,
    goes_on: continuation.Table,
    planner: Planner,
) -> dict[str, Any]:
    """The pending claim's advice as JSON-able figures."""
    me = log.players.index(log.perspective or "")
    answers = outcomes(seen, claim, log, goes_on, planner)
    p = answers.true
    penalised = claim.role != VILLAGER or log.rules.villager_challenge == "penalty-applies"
    out: dict[str, Any] = {}
    values: dict[str, Fraction] = {}
    for choice in ("challenge", "accept"):
        branches = getattr(answers, choice)
        figures = summary(branches, me)
        values[choice] = figures["utility"]
        out[choice] = {
            "game": {
                "win": str(figures["win"]),
                "loss": str(figures["loss"]),
                "open": str(figures["open"]),
                "expected_value": str(figures["utility"]),
                "expected_value_float": float(figures["utility"]),
                "branches": [branch_json(b, me, log.players) for b in branches],
            },
            **_suspected_figures(answers, choice, p, penalised),
        }
    run = answers.runs["accept"]
    total = sum(run.values())
    return {
        "player": claim.player,
        "cell": CELLS[claim.cell],
        "role": claim.role,
        "event": claim.event,
        "action": ACTIONS.get(claim.role, "no action"),
        "true_probability": float(p),
        "true_fraction": str(p),
        "penalty": "applies" if penalised else f"none ({VILLAGER_POINT}=no-penalty)",
        "claimant_knowledge": knowledge(log, claim.player).summary(),
        "claimant_classes": len(seen.classes_of(claim.player)),
        "claimant_run": None
        if claim.role not in ELDERS
        else {end: str(Fraction(run[end], total)) for end in sorted(run) if run[end]},
        **out,
        "suspected_now": dict(zip(log.players, log.marks_now(), strict=True)),
        "best": better(values["challenge"], values["accept"]),
        "best_by": "the expected value to you, a game that goes on at its continuation value",
        "sensitivity": sensitivity(answers, me, goes_on),
    }


def _suspected_figures(
    answers: Answers, choice: str, p: Fraction, penalised: bool
) -> dict[str, Any]:
    """The suspected-card figures of one answer (the `deduce` agent's rule)."""
    run = answers.runs[choice]
    total = sum(run.values())
    acts = Fraction(1) if choice == "accept" else p
    share = acts if choice == "accept" else p
    wins = Fraction(run[WON], total) * share if total else Fraction(0)
    fails = Fraction(run[FAILED], total) * share if total else Fraction(0)
    mine = p if choice == "challenge" and penalised else Fraction(0)
    theirs = (1 - p) if choice == "challenge" and penalised else Fraction(0)
    theirs += fails
    utility = theirs - mine - WIN_WEIGHT * wins
    return {
        "you_take_suspected": str(mine),
        "claimant_takes_suspected": str(theirs),
        "claimant_acts": str(acts),
        "claimant_elder_win_now": str(wins),
        "claimant_elder_run_fails": str(fails),
        "expected_utility": str(utility),
        "expected_utility_value": float(utility),
    }


def claim_outcomes(
    log: Log,
    claim: Claim,
    *,
    odds: Odds = (1, 1),
    goes_on: continuation.Table | None = None,
    budget: Budget | None = None,
) -> dict[str, Any]:
    """The pending claim's advice on its own (the balance agents' call)."""
    goes_on = goes_on or continuation.shipped()
    seen = views(log, odds=odds, budget=budget, players=(claim.player,))
    return claim_json(log, claim, seen, goes_on, Planner(log.setup, log.rules, budget))


# The equilibrium figure of a pending claim (two players), given by the caller so that this
# module does not import the equilibrium solver (which imports this one).
EquilibriumFigure = Callable[[Log, Claim, Odds, continuation.Table, Budget], dict[str, Any]]
# The other answerers of a pending claim (three or four players: :mod:`.answers`), and what
# that figure assumes, given by the caller for the same reason.
Answerers = tuple[EquilibriumFigure, str]


def suspected_source(log: Log) -> str:
    """Where the suspected cards in front of each player come from, in words."""
    if log.marks_stated:
        return (
            "the suspected cards in front of each player now, as the log's `suspected` table "
            "gives them"
        )
    return (
        "the suspected cards the log makes certain (caught bluffs and failed elder runs; the "
        "challengers of true claims are not logged: give a `suspected` table to count them)"
    )


def check_in_game(log: Log, claimant: str | None, me: str = "the advised player") -> None:
    """Bad input when the perspective (``me``) or the claimant is ostracised (out of the
    game)."""
    marks = dict(zip(log.players, log.marks_now(), strict=True))
    for who, role in ((log.perspective, me), (claimant, "the claimant")):
        if who is not None and marks[who] >= 2:
            raise InputError(
                log.source,
                f"suspected.{who}",
                marks[who],
                f"at most 1: {who} is {role}, so still in the game",
            )


def run_in_progress(
    log: Log,
    worlds: Worlds,
    odds: Odds,
    goes_on: continuation.Table,
    planner: Planner,
    budget: Budget,
) -> dict[str, Any] | None:
    """The elder run the log ends inside, at its next decision: your own (each next pick,
    a stop or a declaration valued for you over your worlds) or another player's (their
    plan over their own worlds, how it ends in yours)."""
    pending = log.standing.pending
    if pending is None or pending.kind not in ELDERS:
        return None
    runner = log.players.index(pending.player)
    me = log.players.index(log.perspective or "")
    pos = Position(log.players, log.marks_now(), runner, log.rules, log.setup, goes_on)
    stakes = run_stakes(pos, pos.marks, runner, runner)
    picked = tuple(pending.picked)
    head = {
        "runner": pending.player,
        "elder": pending.kind,
        "picked": [CELLS[c] for c in picked],
        "stakes": {
            "win": str(stakes.win),
            "fail": str(stakes.fail),
            "stop": None if stakes.stop is None else str(stakes.stop),
            "nothing_left": str(stakes.exhausted),
        },
    }
    if runner == me:
        plan = planner.plan(worlds, pending.kind, stakes, picked)
        options = [
            {"option": _option(o), "value": str(v), "value_float": float(v)}
            for o, v in plan.options()
        ]
        options.sort(key=lambda o: (-Fraction(o["value"]), o["option"]))
        return {
            **head,
            "yours": True,
            "best": _option(plan.first),
            "value": str(plan.value),
            "value_float": float(plan.value),
            "options": options,
        }
    seen = views(log, odds=odds, budget=budget, players=(pending.player,))
    classes = seen.classes[:, 0]
    ends: dict[str, int] = {}
    for cls in seen.classes_of(pending.player):
        plan = planner.plan(seen.own[0][cls], pending.kind, stakes, picked)
        for end, w in play_out(plan, seen.worlds, classes == cls).items():
            ends[end] = ends.get(end, 0) + w
    total = sum(ends.values())
    return {
        **head,
        "yours": False,
        "ends": {end: str(Fraction(w, total)) for end, w in sorted(ends.items()) if w},
        "runner_knowledge": knowledge(log, pending.player).summary(),
    }


def _option(option: int) -> str:
    if option >= 0:
        return f"pick {CELLS[option]}"
    return {DECLARE: "declare", STOP: "stop", END: "end"}[option]


def advise(
    log: Log,
    claim: Claim | None = None,
    *,
    odds: Odds = (1, 1),
    max_seconds: float = DEFAULT_MAX_SECONDS,
    equilibrium: EquilibriumFigure | None = None,
    goes_on: continuation.Table | None = None,
    answerers: Answerers | None = None,
) -> dict[str, Any]:
    """The advice as the JSON-able dict the CLI prints; ``equilibrium`` adds a pending
    claim's equilibrium challenge probability (two players; None for more); with three or
    four players in, ``answerers`` values the answer with the others answering as in the
    stage's equilibrium, and the recommendation is its (the only-challenger figures stay
    as a comparison)."""
    if log.perspective is None:
        raise InputError(log.source, "perspective", "nothing", "the player to advise")
    goes_on = goes_on or continuation.shipped()
    marks = dict(zip(log.players, log.marks_now(), strict=True))
    check_in_game(log, claim and claim.player)
    budget = Budget(max_seconds=max_seconds)
    worlds = consistent_worlds(log, odds, budget, "advise")
    two = sum(m < 2 for m in marks.values()) == 2
    others = None if claim is None or two else answerers
    utility = GAME_UTILITY
    if others is not None:
        utility = utility.replace(ONLY_CHALLENGER, "with the others answering (see answerers)")
    head: dict[str, Any] = {
        "perspective": log.perspective,
        "rulings": dict(log.rulings),
        "suspected": marks,
        "assumptions": {
            **assumptions(log, odds),
            "suspected": suspected_source(log),
            "utility": utility,
            "goes_on": goes_on_text(goes_on),
            "knowledge": KNOWLEDGE,
            **({} if others is None else {"answerers": others[1]}),
            "suspected_card_utility": UTILITY,
            "information": INFO_TARGET,
            "horizon": HORIZON,
        },
    }

    def unfinished(stage: str, why: BudgetExceeded | None = None) -> dict[str, Any]:
        cause = str(why) if isinstance(why, TooMany) else "the time budget ended"
        reason = f"{cause} before {stage}"
        return {"worlds": None, "finished": False, **head, "unfinished": reason}

    if not worlds.finished:
        return unfinished("every event was filtered")
    gains = information_gain(worlds)
    ranked = sorted(CELLS, key=lambda cell: (-round(gains[cell], 12), CELLS.index(cell)))
    investigate = [
        {"cell": cell, "bits": round(gains[cell], 6), "face_up": worlds.face_up[CELL_INDEX[cell]]}
        for cell in ranked
    ]
    planner = Planner(log.setup, log.rules, budget)
    # The planner looks at the budget as it goes: a plan cut part-way gives no figure.
    plans: dict[str, ElderPlan] = {}
    try:
        for role in ELDERS:
            plans |= elder_plans(worlds, log, (role,), budget)
    except BudgetExceeded:
        return unfinished("the elder runs were planned")
    try:
        run = (
            None
            if claim is not None
            else run_in_progress(log, worlds, odds, goes_on, planner, budget)
        )
    except BudgetExceeded as e:
        return unfinished("the run in progress was planned", e)
    if claim is not None and budget.spent():
        return unfinished("the claim was weighed")
    try:
        claim_advice = None
        if claim is not None:
            seen = views(log, odds=odds, budget=budget, players=(claim.player,))
            claim_advice = claim_json(log, claim, seen, goes_on, planner)
            if claim.role == VILLAGER:
                claim_advice["readings"] = {
                    r.name: claim_json(_ruled(log, r.name), claim, seen, goes_on, planner)["best"]
                    for r in POINTS[VILLAGER_POINT].readings
                }
            if equilibrium is not None:
                claim_advice["equilibrium"] = (
                    equilibrium(log, claim, odds, goes_on, budget) if two else None
                )
            if others is not None:
                figure = others[0](log, claim, odds, goes_on, budget)
                claim_advice |= {
                    "answerers": figure,
                    "only_challenger_best": claim_advice["best"],
                    "best": figure["best"],
                    "best_by": "your value at your information set, the others answering as "
                    "in the stage's approximate equilibrium (see answerers)",
                }
    except BudgetExceeded as e:
        return unfinished("the claim was weighed", e)
    elder = {
        role: {
            "run_success_probability": float(best.win_probability),
            "run_success_fraction": str(best.win_probability),
            "first_pick": best.first_pick,
        }
        for role, best in plans.items()
    }
    return {
        "worlds": worlds.total,
        "finished": True,
        **head,
        "claim": claim_advice,
        "run": run,
        "unknown_bits": round(allegiance_entropy(worlds), 6),
        "investigate": investigate,
        "elder": elder,
    }


def _ruled(log: Log, reading: str) -> Log:
    return replace(log, rules=replace(log.rules, villager_challenge=reading))


def render_text(result: dict[str, Any], log: Log) -> str:
    """A human-readable summary: the claim, a run in progress, where to look, elder runs."""
    notes = [f"assumes {k.replace('_', ' ')}: {v}" for k, v in result["assumptions"].items()]
    rulings = ", ".join(f"{k}={v}" for k, v in result["rulings"].items()) or "none (defaults)"
    head = f"advice for {result['perspective']} after {len(log.events)} events"
    if not result["finished"]:
        lines = [f"finished: false ({result['unfinished']}; {head})"]
        return "\n".join([*lines, f"rulings: {rulings}", *notes]) + "\n"
    lines = [f"{head} ({log.setup.name} setup): {result['worlds']} worlds"]
    claim = result["claim"]
    if claim is None:
        lines.append("pending claim: none (the log does not end with another player's claim)")
    else:
        lines += _claim_lines(claim, len(log.players))
    if result["run"] is not None:
        lines += _run_lines(result["run"])
    lines.append(
        f"investigate next (expected bits about the allegiances; {result['unknown_bits']:.4f} "
        "bits unknown):"
    )
    for k, row in enumerate(result["investigate"], 1):
        up = " (face up)" if row["face_up"] else ""
        lines.append(f"  {k}. {row['cell']} {row['bits']:.4f}{up}")
    for role, info in result["elder"].items():
        pick = info["first_pick"] or "none"
        lines.append(
            f"{role} run started now, unchallenged: succeeds {info['run_success_fraction']} = "
            f"{info['run_success_probability']:.4f}, first pick {pick}"
        )
    lines.append(f"rulings: {rulings}")
    return "\n".join([*lines, *notes]) + "\n"


def _claim_lines(claim: dict[str, Any], players: int) -> list[str]:
    lines = [
        f"pending claim: {claim['player']} says {claim['cell']} is {claim['role']} "
        f"(event {claim['event']}, earns {claim['action']})",
        f"  true with probability {claim['true_fraction']} = {claim['true_probability']:.4f}"
        f"; penalty {claim['penalty']}",
        f"  {claim['player']} knows: {claim['claimant_knowledge'].split(': ', 1)[1]} "
        f"({claim['claimant_classes']} possible information states in your worlds)",
    ]
    others = claim.get("answerers")
    if "equilibrium" in claim and others is None:
        lines.append(f"  {equilibrium_line(claim['equilibrium'], players)}")
    if claim["claimant_run"] is not None:
        ends = ", ".join(f"{end} {share}" for end, share in claim["claimant_run"].items())
        lines.append(
            f"  {claim['player']}'s {claim['role']} run, unchallenged (planned over her "
            f"worlds, played out in yours): {ends}"
        )
    marks = ", ".join(f"{k} {v}" for k, v in claim["suspected_now"].items())
    lines.append(f"  suspected cards now: {marks}")
    if others is not None:
        lines += answerers_lines(others)
        lines.append(f"  better: {claim['best']} (by {claim['best_by']})")
        lines.append("  for comparison, if you were the only challenger and the others accepted:")
    for choice in ("challenge", "accept"):
        g = claim[choice]["game"]
        lines.append(
            f"  {choice:<9}: value {g['expected_value_float']:+.4f} = {g['expected_value']} "
            f"(win {g['win']}, loss {g['loss']}, goes on {g['open']})"
        )
        lines += [
            f"    {b['probability']:>7} {_value_text(b):>8} {b['what']}" for b in g["branches"]
        ]
    if others is None:
        lines.append(f"  better: {claim['best']} (by {claim['best_by']})")
    else:
        lines.append(f"  better if you were the only challenger: {claim['only_challenger_best']}")
    for row in claim["sensitivity"]:
        low, high = row["interval95"]
        holds = "holds" if row["holds_within_interval"] else "may change"
        lines.append(
            f"  goes on ({row['state']}; you {row['you']}): {row['value_float']:+.4f} "
            f"[{low:+.4f}, {high:+.4f}]; the {'only-challenger ' if others else ''}answer "
            "stays the same from "
            f"{row['holds_from']:+.4f} to {row['holds_to']:+.4f}: {holds} within the interval"
        )
    if "readings" in claim:
        parts = ", ".join(f"{r}: {best}" for r, best in claim["readings"].items())
        lines.append(f"  better by reading of {VILLAGER_POINT}: {parts}")
    return lines


def answerers_lines(figure: dict[str, Any]) -> list[str]:
    """The answer with the others answering as in the stage's approximate equilibrium."""
    path = (
        ""
        if figure["on_path"]
        else " (off the profile's path: her claim strategy is not used to weigh your worlds)"
    )
    lines = [
        f"  the others answer as in the stage's approximate equilibrium ({figure['method']}; "
        f"NashConv {figure['nash_conv']:.6f}: their answers are approximate to that gap); "
        f"she makes this claim with probability {figure['claim_made_probability']:.4f}{path}"
    ]
    lines += [
        f"    {o['player']} ({o['answers']}) challenges with probability {o['challenge']:.4f}"
        for o in figure["others"]
    ]
    if figure["challenge_order"] == "first-to-speak":
        lines.append(
            "    nobody sees another's answer (cunning-folk/challenge-order=first-to-speak); if "
            "you accept, another answerer challenges with probability "
            f"{figure['later_challenge_if_you_accept']:.4f}"
        )
    else:
        lines.append(
            f"    your turn comes (every answerer before you accepted) with probability "
            f"{figure['your_turn_probability']:.4f}; if you accept, a later answerer "
            f"challenges with probability {figure['later_challenge_if_you_accept']:.4f}"
        )
    close = " (within the NashConv: either may be right)" if figure["within_nash_conv"] else ""
    lines += [
        f"  challenge: value {figure['challenge']:+.4f} (others answering)",
        f"  accept   : value {figure['accept']:+.4f} (others answering); margin "
        f"{figure['margin']:.4f}{close}; the profile's own answer for you: challenge with "
        f"probability {figure['profile_challenge']:.4f}",
    ]
    return lines


def _value_text(branch: dict[str, Any]) -> str:
    if branch["outcome"] != "open":
        return branch["outcome"]
    return f"{branch['value_float']:+.4f}"


def _run_lines(run: dict[str, Any]) -> list[str]:
    picked = ", ".join(run["picked"]) or "nothing yet"
    if not run["yours"]:
        ends = ", ".join(f"{end} {share}" for end, share in run["ends"].items())
        return [
            f"run in progress: {run['runner']}'s {run['elder']} run (picked {picked}), planned "
            f"over {run['runner']}'s worlds, ends in yours: {ends}",
        ]
    lines = [
        f"run in progress: your {run['elder']} run (picked {picked}): best next "
        f"{run['best']}, value {run['value_float']:+.4f} = {run['value']}",
    ]
    lines += [f"  {o['option']:<8} {o['value_float']:+.4f} = {o['value']}" for o in run["options"]]
    return lines


def equilibrium_line(figure: dict[str, Any] | None, players: int) -> str:
    """The equilibrium challenge probability beside the prior-based chance, in words."""
    if figure is None:
        return (
            f"at equilibrium: not computed here ({players} players: `cunning-folk "
            "equilibrium` gives an approximate one, by CFR+)"
        )
    if not figure["on_path"]:
        answer = figure["off_path_text"]
    else:
        answer = f"challenge with probability {figure['probability']} = {figure['value']:.4f}"
    return (
        f"at equilibrium (bluffing modelled, `cunning-folk equilibrium`): {answer}; your value "
        f"{figure['position_value']}"
    )
