"""A pending claim with three or four players in: the advised player's answer with the
other answerers answering as in the claim stage's approximate equilibrium (:mod:`.cfr`).

The stage is `cunning-folk equilibrium`'s (:func:`.cfr.build_multi_stage`, solved by
:func:`.cfr.solve`): the claimant has looked at the claim's cell, every other player
still in answers in turn from her left, each from their own knowledge. ``advise`` takes
from its average profile the advised player's value of accepting and of challenging at
his information set for the claim actually made, given that every answerer before him
accepted: his worlds weighted by the profile's reach to that set (the claimant's chance
of making this claim in each of her types, each earlier answerer's chance of accepting in
their state), and after his answer the later answerers answering as in the profile. A
claim the profile (almost) never makes is off its path: its chance is then not used (the
claimant's bluffing says nothing there), and the earlier answerers' accepts still are.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ruleslawyer.budget import Budget
from ruleslawyer.errors import BudgetExceeded
from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.solvers.cunning_folk.cfr import (
    ACTIONS,
    MULTI_ASSUMPTIONS,
    OFF_PATH,
    TIME_BUDGET,
    Approximate,
    MultiStage,
    build_multi_stage,
    solve,
    tree,
)
from ruleslawyer.solvers.cunning_folk.equilibrium import stage_log
from ruleslawyer.solvers.cunning_folk.goes_on import continuation
from ruleslawyer.solvers.cunning_folk.stage.claim import Claim, better
from ruleslawyer.solvers.cunning_folk.worlds import Odds

ANSWERERS = (
    "three or four players: the other players still in answer as in `cunning-folk "
    f"equilibrium`'s stage ({MULTI_ASSUMPTIONS['who_may_challenge']}), each from their own "
    "knowledge, at their strategy in its approximate equilibrium (CFR+, its NashConv printed: "
    "the others' answers are approximate to that gap) for the claim actually made; your value "
    "of each answer is at your information set given that every answerer before you "
    "accepted, your worlds weighted by the profile's reach (the claimant's chance of making "
    "this claim in each of her types, unless the profile never makes it, and each earlier "
    "answerer's chance of accepting), the later answerers answering as in the profile; "
    "the figures marked 'only challenger' (you alone answer, the others accept) are a "
    f"comparison; a claim made with chance under {OFF_PATH} is off the profile's path"
)


def answer_values(game: MultiStage, approx: Approximate, role: str) -> dict[str, Any]:
    """The perspective's value of accepting and of challenging claim ``role`` at his
    information set (every earlier answerer accepted), under ``approx``'s average profile."""
    profile = approx.profile
    j = game.players.index(game.perspective) - 1  # his place among the answerers
    a = ACTIONS.index(role)
    sigma = profile.claimant(True)
    answers = [profile.answerer(i, True) for i in range(game.answerers)]
    value, reach = tree(game, answers, a)
    made = float((game.prior * sigma[game.kind, a]).sum())
    on_path = made >= OFF_PATH
    base = game.weight[j + 1] * (sigma[game.kind, a] if on_path else 1.0)
    w = base * reach[(j, 0)]
    arises = float(w.sum() / base.sum())
    if not w.sum():  # an earlier answerer always challenges: weigh by the claim alone
        w = base
    w = w / w.sum()
    accept = float((w * value[(j + 1, 0)][j + 1]).sum())
    challenge = float((w * value[(j + 1, 1 << j)][j + 1]).sum())
    later_none = np.ones(len(game.kind))
    others = []
    for k, name in enumerate(game.players[1:]):
        if k == j:
            continue
        p = answers[k][game.cls[k], a, 0, 1]  # everyone before k accepted
        given = base * (reach[(k, 0)] if k < j else reach[(j, 0)] * later_none)
        share = float((given * p).sum() / given.sum()) if given.sum() else 0.0
        others.append(
            {"player": name, "answers": "before you" if k < j else "after you", "challenge": share}
        )
        if k > j:
            later_none = later_none * (1 - p)
    margin = abs(challenge - accept)
    return {
        "claim_made_probability": made,
        "on_path": on_path,
        "your_turn_probability": arises,
        "others": others,
        "later_challenge_if_you_accept": float((w * (1 - later_none)).sum()),
        "challenge": challenge,
        "accept": accept,
        "profile_challenge": float(answers[j][game.cls[j][0], a, 0, 1]),
        "best": better(challenge, accept),  # type: ignore[arg-type]
        "margin": margin,
        "within_nash_conv": margin <= approx.nash_conv,
        "method": f"CFR+, {approx.iterations} iterations",
        "stopped": approx.stopped,
        "nash_conv": approx.nash_conv,
    }


def others_answer(
    log: Log, claim: Claim, odds: Odds, goes_on: continuation.Table, budget: Budget
) -> dict[str, Any]:
    """For ``advise``: the pending claim (three or four players in) answered with the others
    answering as in the stage's approximate equilibrium (the stage `equilibrium` solves)."""
    base = stage_log(log, claim)
    game = build_multi_stage(base, claim.player, claim.cell, goes_on, odds=odds, budget=budget)
    approx = solve(game, budget=budget)
    if approx.stopped == TIME_BUDGET:
        raise BudgetExceeded("the others' answers")
    return answer_values(game, approx, claim.role)
