"""``ruleslawyer cunning-folk advise``: advice for the log's perspective player.

Everything is exact over the worlds of :func:`~.cunning_folk_worlds.filter_worlds`
(the end villages with their integer weights), so it shares ``deduce``'s prior
and hidden-swap weighting:

- :func:`claim_probability`: the chance a claim (``role`` in ``cell``) is true;
- :func:`claim_outcomes`: challenging against accepting a pending claim, under the
  rules' penalties ("The player who challenged you must take a suspected card";
  "If you were bluffing, then you may not take the action, and you must place a
  suspected card in front of yourself"; an unchallenged claim earns its action);
- :func:`information_gain`: for each cell, the expected information (bits) that
  investigating it gives about the village's allegiances, the thing both elder
  runs must find;
- the elder runs: the existing planner (:mod:`.cunning_folk_elder`).

The claimant's bluffing policy is not modelled: a claim is evidence only through
what the log's rules make it imply (an unchallenged claim implies nothing).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.errors import BudgetExceeded, InputError
from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.models.cunning_folk.village import (
    CAT,
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
    VAGRANT,
    VILLAGER,
)
from ruleslawyer.solvers.cunning_folk.deduce import (
    DEFAULT_MAX_SECONDS,
    assumptions,
    consistent_worlds,
    elder_plans,
)
from ruleslawyer.solvers.cunning_folk.elder import ElderPlan
from ruleslawyer.solvers.cunning_folk.stakes import (
    GAME_UTILITY,
    LOSS,
    OPEN,
    SCORE,
    WIN,
    claim_branches,
    summary,
)
from ruleslawyer.solvers.cunning_folk.stakes import Table as StakesTable
from ruleslawyer.solvers.cunning_folk.worlds import ROLE_CODE, Odds, Worlds

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

# The utility the claim advice states: suspected cards and an at-once elder win.
WIN_WEIGHT = 2
UTILITY = (
    "+1 per suspected card the claimant takes (for a bluff caught, or an elder run that "
    "fails), -1 per suspected card you take, "
    f"-{WIN_WEIGHT} if the claimant wins at once with an elder run (as much as being "
    "ostracised); other actions (another turn, a swap, a trade) count 0; you are the only "
    "challenger, the others accept"
)
VILLAGER_POINT = "cunning-folk/villager-challenge"
ACTIONS = {
    GOOD_WITCH: "another turn",
    EVIL_WITCH: "a swap of two townsfolk",
    VAGRANT: "a trade",
    CAT: "a meow (no effect)",
    GOOD_ELDER: "a good-elder run",
    EVIL_ELDER: "an evil-elder run",
}
HORIZON = (
    "one decision: the answer to this claim (its direct consequences: suspected cards, "
    "ostracism, the end of the game when one player remains, the claimed action, an elder "
    "run to its end, won or failed) and the next investigation alone; later turns are not "
    "searched; the claimant's run picks as the elder planner does over your worlds"
)
INFO_TARGET = (
    "the allegiance of every card in the village (good: good witch, good elder; evil: evil "
    "witch, evil elder; pirate; none), which both elder runs must find; exact over the worlds"
)


@dataclass(frozen=True)
class Claim:
    """A claim still open to challenge: ``player`` says ``cell`` holds ``role``."""

    player: str
    cell: int
    role: str
    event: int  # its index in the log


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


def given_face_up(worlds: Worlds, cell: int, role: str) -> Worlds:
    """The worlds where ``cell`` holds ``role``, with that card now face up."""
    keep = worlds.village[:, cell] == ROLE_CODE[role]
    face_up = tuple(up or c == cell for c, up in enumerate(worlds.face_up))
    return Worlds(worlds.village[keep], worlds.weight[keep], face_up, None)


def claim_outcomes(
    worlds: Worlds,
    claim: Claim,
    log: Log,
    plans: Mapping[str, ElderPlan] | None = None,
    budget: Budget | None = None,
) -> dict[str, Any]:
    """Challenging against accepting ``claim``: chances, expected suspected cards, utility.

    ``plans``: the elder plans over ``worlds`` when already made (:func:`elder_plans`);
    ``budget`` bounds any plan still to make (:class:`BudgetExceeded` when it ends one).
    """
    p = claim_probability(worlds, claim.cell, claim.role)
    penalised = claim.role != VILLAGER or log.rules.villager_challenge == "penalty-applies"
    acts = {"accept": Fraction(1), "challenge": p}
    wins = {"accept": Fraction(0), "challenge": Fraction(0)}
    fails = {"accept": Fraction(0), "challenge": Fraction(0)}
    given_wins = Fraction(0)  # the run's chance given the claim true and its card face up
    if claim.role in ELDERS:
        role = (claim.role,)
        now = plans[claim.role] if plans else elder_plans(worlds, log, role, budget)[claim.role]
        wins["accept"] = now.win_probability
        if p:
            given = given_face_up(worlds, claim.cell, claim.role)
            given_wins = elder_plans(given, log, role, budget)[claim.role].win_probability
            wins["challenge"] = p * given_wins
        fails = {choice: acts[choice] - wins[choice] for choice in acts}
    run_penalty = run_failure_penalty(log)
    game = claim_branches(stakes_table(log, claim, penalised), p, wins["accept"], given_wins)
    mine = {"accept": Fraction(0), "challenge": p if penalised else Fraction(0)}
    theirs = {"accept": Fraction(0), "challenge": (1 - p) if penalised else Fraction(0)}
    out: dict[str, Any] = {}
    ranks: dict[str, tuple[Fraction, Fraction]] = {}
    for choice in ("challenge", "accept"):
        theirs[choice] += fails[choice] if run_penalty is None else 0
        utility = theirs[choice] - mine[choice] - WIN_WEIGHT * wins[choice]
        figures = summary(game[choice])
        out[choice] = {
            "game": {
                "win": str(figures[WIN]),
                "loss": str(figures[LOSS]),
                "open": str(figures[OPEN]),
                "expected_game_utility": str(figures["utility"]),
                "expected_game_utility_value": float(figures["utility"]),
                "branches": [
                    {
                        "probability": str(b.probability),
                        "outcome": b.outcome,
                        "utility": SCORE[b.outcome],
                        "what": b.text,
                    }
                    for b in game[choice]
                ],
            },
            "you_take_suspected": str(mine[choice]),
            "claimant_takes_suspected": str(theirs[choice]),
            "claimant_acts": str(acts[choice]),
            "claimant_elder_win_now": str(wins[choice]),
            "claimant_elder_run_fails": str(fails[choice]),
            "expected_utility": str(utility),
            "expected_utility_value": float(utility),
        }
        ranks[choice] = (figures["utility"], utility)
    best, by = _better(ranks)
    return {
        "player": claim.player,
        "cell": CELLS[claim.cell],
        "role": claim.role,
        "event": claim.event,
        "action": ACTIONS.get(claim.role, "no action"),
        "true_probability": float(p),
        "true_fraction": str(p),
        "penalty": "applies" if penalised else f"none ({VILLAGER_POINT}=no-penalty)",
        "failed_run": (
            "a run that fails ends on a card that does not oppose: a suspected card for "
            "the claimant, counted"
            if run_penalty is None
            else f"not counted as a suspected card: {run_penalty}"
        )
        if claim.role in ELDERS
        else "no run",
        **out,
        "suspected_now": dict(zip(log.players, log.marks_now(), strict=True)),
        "game_utility": GAME_UTILITY,
        "best": best,
        "best_by": by,
    }


def _better(ranks: Mapping[str, tuple[Fraction, Fraction]]) -> tuple[str, str]:
    """The better answer by the expected game utility, then the suspected-card utility."""
    challenge, accept = ranks["challenge"], ranks["accept"]
    if challenge == accept:
        return "either", "equal on both utilities"
    by = (
        "the game utility"
        if challenge[0] != accept[0]
        else "the suspected-card utility (equal game utility)"
    )
    return ("challenge" if challenge > accept else "accept"), by


def stakes_table(log: Log, claim: Claim, penalised: bool) -> StakesTable:
    """The public facts a claim's branches depend on: who holds suspected cards now, how
    many players are left, what the claim earns and what a wrong answer costs."""
    marks = log.marks_now()
    me = log.players.index(log.perspective or "")
    them = log.players.index(claim.player)
    return StakesTable(
        me=log.perspective or "",
        claimant=claim.player,
        my_marks=marks[me],
        claimant_marks=marks[them],
        players_left=sum(m < 2 for m in marks),
        role=claim.role,
        action=ACTIONS.get(claim.role, "no action"),
        penalised=penalised,
        elder=claim.role in ELDERS,
        run_penalty=run_failure_penalty(log),
    )


# The equilibrium figure of a pending claim (two players), given by the caller so that this
# module does not import the equilibrium solver (which imports this one).
EquilibriumFigure = Callable[[Worlds, Log, Claim, Budget], dict[str, Any]]


def _claim_advice(
    worlds: Worlds,
    claim: Claim,
    log: Log,
    plans: Mapping[str, ElderPlan],
    budget: Budget,
    equilibrium: EquilibriumFigure | None = None,
) -> dict[str, Any]:
    """:func:`claim_outcomes`, with the better choice under each reading of the rule
    point that decides whether a villager claim has stakes (where the readings part), and
    the equilibrium challenge probability where ``equilibrium`` gives it."""
    out = claim_outcomes(worlds, claim, log, plans, budget)
    if equilibrium is not None:
        out["equilibrium"] = (
            equilibrium(worlds, log, claim, budget) if len(log.players) == 2 else None
        )
    if claim.role == VILLAGER:
        point = POINTS[VILLAGER_POINT]
        out["readings"] = {
            r.name: claim_outcomes(
                worlds, claim, replace(log, rules=replace(log.rules, villager_challenge=r.name))
            )["best"]
            for r in point.readings
        }
    return out


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


def run_failure_penalty(log: Log) -> str | None:
    """None when every failed elder run costs its runner a suspected card ("Otherwise your
    turn ends immediately and you must take a suspected card"), else why it may not."""
    rules = log.rules
    if log.setup.declares:
        return "with the scoundrels rule a run may end in a declaration an opponent beats"
    if rules.optional_action != "must-act":
        return "cunning-folk/optional-action=may-decline lets the claimant decline the run"
    if rules.elder_run_stop != "must-continue":
        return "cunning-folk/elder-run-stop=may-stop lets the runner stop unpunished"
    if rules.elder_face_up_picks != "counts":
        return "cunning-folk/elder-face-up-picks=face-down-only can end a run with nothing to pick"
    return None


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


def advise(
    log: Log,
    claim: Claim | None = None,
    *,
    odds: Odds = (1, 1),
    max_seconds: float = DEFAULT_MAX_SECONDS,
    equilibrium: EquilibriumFigure | None = None,
) -> dict[str, Any]:
    """The advice as the JSON-able dict the CLI prints; ``equilibrium`` adds a pending
    claim's equilibrium challenge probability (two players; None for more)."""
    if log.perspective is None:
        raise InputError(log.source, "perspective", "nothing", "the player to advise")
    marks = dict(zip(log.players, log.marks_now(), strict=True))
    check_in_game(log, claim and claim.player)
    budget = Budget(max_seconds=max_seconds)
    worlds = consistent_worlds(log, odds, budget, "advise")
    head: dict[str, Any] = {
        "perspective": log.perspective,
        "rulings": dict(log.rulings),
        "suspected": marks,
        "assumptions": {
            **assumptions(log, odds),
            "suspected": suspected_source(log),
            "utility": GAME_UTILITY,
            "suspected_card_utility": UTILITY,
            "information": INFO_TARGET,
            "horizon": HORIZON,
        },
    }

    def unfinished(stage: str) -> dict[str, Any]:
        reason = f"the time budget ended before {stage}"
        return {"worlds": None, "finished": False, **head, "unfinished": reason}

    if not worlds.finished:
        return unfinished("every event was filtered")
    gains = information_gain(worlds)
    ranked = sorted(CELLS, key=lambda cell: (-round(gains[cell], 12), CELLS.index(cell)))
    investigate = [
        {"cell": cell, "bits": round(gains[cell], 6), "face_up": worlds.face_up[CELL_INDEX[cell]]}
        for cell in ranked
    ]
    # The planner looks at the budget as it goes: a plan cut part-way gives no figure.
    plans: dict[str, ElderPlan] = {}
    try:
        for role in ELDERS:
            plans |= elder_plans(worlds, log, (role,), budget)
    except BudgetExceeded:
        return unfinished("the elder runs were planned")
    if claim is not None and budget.spent():
        return unfinished("the claim was weighed")
    try:
        claim_advice = (
            None if claim is None else _claim_advice(worlds, claim, log, plans, budget, equilibrium)
        )
    except BudgetExceeded:
        return unfinished("the claim was weighed")
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
        "unknown_bits": round(allegiance_entropy(worlds), 6),
        "investigate": investigate,
        "elder": elder,
    }


def render_text(result: dict[str, Any], log: Log) -> str:
    """A human-readable summary: the claim, the ranked investigations, the elder runs."""
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
        lines.append(
            f"pending claim: {claim['player']} says {claim['cell']} is {claim['role']} "
            f"(event {claim['event']}, earns {claim['action']})"
        )
        lines.append(
            f"  true with probability {claim['true_fraction']} = {claim['true_probability']:.4f}"
            f"; penalty {claim['penalty']}"
        )
        if "equilibrium" in claim:
            lines.append(f"  {equilibrium_line(claim['equilibrium'], len(log.players))}")
        if claim["failed_run"] != "no run":
            lines.append(f"  failed run: {claim['failed_run']}")
        marks = ", ".join(f"{k} {v}" for k, v in claim["suspected_now"].items())
        lines.append(f"  suspected cards now: {marks}")
        for choice in ("challenge", "accept"):
            o = claim[choice]
            g = o["game"]
            lines.append(
                f"  {choice:<9}: game utility {g['expected_game_utility_value']:+.4f} "
                f"(win {g['win']}, loss {g['loss']}, goes on {g['open']})"
            )
            lines += [
                f"    {b['probability']:>7} {b['outcome']:<4} {b['what']}" for b in g["branches"]
            ]
            lines.append(
                f"    suspected cards: you {o['you_take_suspected']}, claimant "
                f"{o['claimant_takes_suspected']}; claimant acts {o['claimant_acts']}, "
                f"claimant's elder run wins now {o['claimant_elder_win_now']}, fails "
                f"{o['claimant_elder_run_fails']}; suspected-card utility "
                f"{o['expected_utility_value']:+.4f}"
            )
        lines.append(f"  better: {claim['best']} (by {claim['best_by']})")
        if "readings" in claim:
            parts = ", ".join(f"{r}: {best}" for r, best in claim["readings"].items())
            lines.append(f"  better by reading of {VILLAGER_POINT}: {parts}")
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


def equilibrium_line(figure: dict[str, Any] | None, players: int) -> str:
    """The equilibrium challenge probability beside the prior-based chance, in words."""
    if figure is None:
        return (
            f"at equilibrium: not computed here ({players} players: `cunning-folk "
            "equilibrium` gives an approximate one, by CFR)"
        )
    path = "" if figure["on_path"] else " (a claim never made at equilibrium)"
    return (
        f"at equilibrium (bluffing modelled, `cunning-folk equilibrium`): challenge with "
        f"probability {figure['probability']} = {figure['value']:.4f}{path}; your value "
        f"{figure['position_value']}"
    )
