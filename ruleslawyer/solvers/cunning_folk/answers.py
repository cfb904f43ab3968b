"""A pending claim with three or four players in: the advised player's answer with the
other answerers answering as in the claim stage's approximate equilibrium (:mod:`.cfr`).

The stage is `cunning-folk equilibrium`'s (:func:`.cfr.build_multi_stage`, solved by
:func:`.cfr.solve`): the claimant has looked at the claim's cell, every other player
still in answers, each from their own knowledge (in turn from her left, or under
``cunning-folk/challenge-order=first-to-speak`` without seeing the others' answers).
``advise`` takes from its average profile the advised player's value of accepting and of
challenging at his information set for the claim actually made: from the left, given that
every answerer before him accepted, his worlds weighted by the profile's reach to that set
(the claimant's chance of making this claim in each of her types, each earlier answerer's
chance of accepting in their state), and after his answer the later answerers answering as
in the profile; under first-to-speak, the others answering as in the profile whatever he
answers (he does not see their answers, nor they his). A
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
    FIRST_TO_SPEAK,
    FROM_LEFT,
    OFF_PATH,
    TIME_BUDGET,
    Approximate,
    MultiStage,
    build_multi_stage,
    multi_assumptions,
    solve,
    tree,
)
from ruleslawyer.solvers.cunning_folk.equilibrium import stage_log
from ruleslawyer.solvers.cunning_folk.goes_on import continuation
from ruleslawyer.solvers.cunning_folk.stage.claim import Claim, better
from ruleslawyer.solvers.cunning_folk.worlds import Odds

YOUR_SET = {
    FROM_LEFT: "your value of each answer is at your information set given that every "
    "answerer before you accepted, your worlds weighted by the profile's reach (the "
    "claimant's chance of making this claim in each of her types, unless the profile never "
    "makes it, and each earlier answerer's chance of accepting), the later answerers "
    "answering as in the profile",
    FIRST_TO_SPEAK: "your value of each answer is at your information set (the claim and "
    "your knowledge: you see no other answer), your worlds weighted by the claimant's chance "
    "of making this claim in each of her types (unless the profile never makes it), every "
    "other answerer answering as in the profile",
}


def answerers_text(order: str) -> str:
    """What ``advise``'s other-answerers figure assumes under ``order`` (the reading of
    cunning-folk/challenge-order)."""
    return (
        "three or four players: the other players still in answer as in `cunning-folk "
        f"equilibrium`'s stage ({multi_assumptions(order)['who_may_challenge']}), each from "
        "their own knowledge, at their strategy in its approximate equilibrium (CFR+, its "
        "NashConv printed: the others' answers are approximate to that gap) for the claim "
        f"actually made; {YOUR_SET[order]}; the figures marked 'only challenger' (you alone "
        "answer, the others accept) are a comparison; a claim made with chance under "
        f"{OFF_PATH} is off the profile's path"
    )


def answer_values(game: MultiStage, approx: Approximate, role: str) -> dict[str, Any]:
    """The perspective's value of accepting and of challenging claim ``role`` at his
    information set (from the left: every earlier answerer accepted), under ``approx``'s
    average profile."""
    profile = approx.profile
    j = game.players.index(game.perspective) - 1  # his place among the answerers
    a = ACTIONS.index(role)
    sigma = profile.claimant(True)
    answers = [profile.answerer(i, True) for i in range(game.answerers)]
    value, reach = tree(game, answers, a)
    made = float((game.prior * sigma[game.kind, a]).sum())
    on_path = made >= OFF_PATH
    base = game.weight[j + 1] * (sigma[game.kind, a] if on_path else 1.0)
    sees = game.order == FROM_LEFT
    # the earlier answers at his information set: all accepts (from the left), or any
    masks = [m for m in range(2**j) if game.seen(j, m) == 0 and (m == 0 or not sees)]
    ways = {m: base * reach[(j, m)] for m in masks}
    w = sum(ways.values())
    arises = float(w.sum() / base.sum())
    if not w.sum():  # an earlier answerer always challenges: weigh by the claim alone
        ways, w = {0: base}, base
    norm = float(w.sum())
    w = w / norm
    accept = sum(float((u * value[(j + 1, m)][j + 1]).sum()) for m, u in ways.items()) / norm
    challenge = (
        sum(float((u * value[(j + 1, m | 1 << j)][j + 1]).sum()) for m, u in ways.items()) / norm
    )
    later_none = np.ones(len(game.kind))
    others = []
    for k, name in enumerate(game.players[1:]):
        if k == j:
            continue
        p = answers[k][game.cls[k], a, 0, 1]  # everyone before k accepted, or unseen
        if not sees:
            given, when = base, "not seeing yours"
        elif k < j:
            given, when = base * reach[(k, 0)], "before you"
        else:
            given, when = base * reach[(j, 0)] * later_none, "after you"
        share = float((given * p).sum() / given.sum()) if given.sum() else 0.0
        others.append({"player": name, "answers": when, "challenge": share})
        if k > j or not sees:
            later_none = later_none * (1 - p)
    margin = abs(challenge - accept)
    return {
        "challenge_order": game.order,
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
