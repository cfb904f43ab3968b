"""Cunning Folk balance: how often good and evil win, and each seat, from seeded games.

Games are played on the state machine of :mod:`ruleslawyer.models.cunning_folk.play`
(its legal moves only), each seat under a stated policy:

- ``random``: a uniformly random legal move at every choice.
- ``deduce``: decides from the exact worlds of ``cunning-folk deduce``
  (:func:`~ruleslawyer.solvers.cunning_folk.worlds.filter_worlds` on the log of what
  this seat has seen so far, every hidden swap weighted 1:1); see :data:`DEDUCE_POLICY`.

Game ``i`` of a setup is dealt and played from ``random.Random(f"{seed}/{setup}/{i}")``,
so a run is reproducible and a longer run extends a shorter one. Seat 1 plays first in
every game ("The owner of the game takes the first turn."). Rates are sampled: each
comes with its sample size and a 95% Wilson interval.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.models.cunning_folk.log import Log, parse_log
from ruleslawyer.models.cunning_folk.play import (
    ALLEGE,
    ANSWER,
    CHALLENGE,
    ELDER,
    INVESTIGATE,
    OVER,
    State,
    Table,
    legal_moves,
    start,
    step,
)
from ruleslawyer.models.cunning_folk.record import events_of
from ruleslawyer.models.cunning_folk.village import (
    CELLS,
    ELDERS,
    EVIL_WITCH,
    GOOD_ELDER,
    GOOD_WITCH,
    LIAR,
    OPPOSITION,
    SCOUNDREL_CORE,
    SCOUNDREL_POOL,
    SCOUNDREL_PRIOR,
    VAGRANT,
    VILLAGER,
    Setup,
    cards_of,
)
from ruleslawyer.solvers.balance_stats import rate
from ruleslawyer.solvers.cunning_folk.advise import (
    WIN_WEIGHT,
    Claim,
    claim_outcomes,
    information_gain,
)
from ruleslawyer.solvers.cunning_folk.elder import plan
from ruleslawyer.solvers.cunning_folk.goes_on import continuation
from ruleslawyer.solvers.cunning_folk.stage.views import TooMany
from ruleslawyer.solvers.cunning_folk.worlds import ROLE_CODE, Worlds, filter_worlds

RANDOM_POLICY = "random: a uniformly random legal move at every choice"
DEDUCE_POLICY = (
    "deduce: from the exact worlds of `cunning-folk deduce` over what this seat has seen "
    "(hidden swaps 1:1, the setup's prior) and the figures of `cunning-folk advise` on that "
    "log: investigate the cell with the highest expected information gain about the "
    "village's allegiances (on ties the likeliest to hold an elder, then the first in "
    "A1..C3 order); after looking, claim the card "
    "truly when it is a good witch, an evil witch or the vagrant, or an elder whose "
    "unchallenged run started now (the elder planner, given the card seen) succeeds with "
    "chance at least 1/2, otherwise pass; forced by the liar, claim villager; on a pending "
    "claim, challenge when advise's expected utility of challenging is higher than of "
    "accepting (+1 per suspected card the claimant takes, -1 per one you take, -"
    f"{WIN_WEIGHT} for the claimant's at-once elder win, her run planned over her own "
    "worlds), otherwise accept; in an elder "
    "run follow the planner's best pick given the picks so far, and (scoundrels) declare "
    "where the planner values declaring at least as high as any pick; answering a "
    "declaration, reveal the face-down cell most likely to oppose it; swaps, trades and "
    "any other choice uniformly at random; where the seat knows too little of what the "
    "claimant saw alone to weigh her information states exactly, accept"
)
ADVISE_POLICY = (
    "advise: as deduce, except on a pending claim: challenge when `cunning-folk advise` on "
    "this seat's log, with the suspected cards in front of each player (its `suspected` "
    "table), ranks challenge above accept: the higher expected value (+1 this seat wins, "
    "-1 it loses: it is ostracised, or another player wins; a game that goes on at this "
    "seat's value in the shipped continuation table; the claimant's elder run planned over "
    "her own worlds and played out in this seat's); otherwise accept"
)
POLICIES: dict[str, str] = {
    "random": RANDOM_POLICY,
    "deduce": DEDUCE_POLICY,
    "advise": ADVISE_POLICY,
}
ACTION_ROLES = frozenset({GOOD_WITCH, EVIL_WITCH, VAGRANT})
OUTCOMES = ("good", "evil", "refuted", "ostracism", "unended")
OUTCOME_TEXT = {
    "good": "a good-elder run identified every card opposing it (scoundrels: its declaration "
    "stood)",
    "evil": "an evil-elder run identified every card opposing it (scoundrels: its declaration "
    "stood)",
    "refuted": "scoundrels: an opponent revealed a card opposing a declared elder (wins for them)",
    "ostracism": "every other player was ostracised",
    "unended": "still going after the move cap (no winner; counted in no seat's wins)",
}


@dataclass(frozen=True)
class Seat:
    """What a policy may use: its seat, the game's table and the log of what it has seen."""

    index: int
    table: Table
    head: Mapping[str, Any]  # the log's setup, players, perspective and rulings
    events: tuple[dict[str, Any], ...] = ()
    goes_on: continuation.Table | None = None  # what a game that goes on is worth (None: shipped)

    def log(self) -> Log:
        return parse_log({**self.head, "event": list(self.events)}, "balance")

    def worlds(self) -> Worlds:
        return filter_worlds(self.log())


Policy = Callable[[Seat, State, tuple[str, ...], random.Random], str]


def random_policy(seat: Seat, state: State, legal: tuple[str, ...], rng: random.Random) -> str:
    return rng.choice(legal)


def deduce_policy(seat: Seat, state: State, legal: tuple[str, ...], rng: random.Random) -> str:
    """The ``deduce`` policy (:data:`DEDUCE_POLICY`)."""
    if state.phase == INVESTIGATE:
        worlds = seat.worlds()
        gains = information_gain(worlds)
        elders = frozenset(ELDERS)

        def rank(move: str) -> tuple[float, float, int]:
            cell = move.split()[-1]
            chance = _chance(worlds, CELLS.index(cell), elders)
            return (round(gains[cell], 12), chance, -legal.index(move))

        return max(legal, key=rank)
    if state.phase == ALLEGE:
        return _allege(seat, state, legal)
    if state.phase == CHALLENGE:
        log = seat.log()
        claim = Claim(seat.head["players"][state.player], state.cell, state.claim, len(seat.events))
        try:
            out = claim_outcomes(log, claim, goes_on=seat.goes_on)
        except TooMany:  # too little known of what the claimant saw to weigh: accept
            return "accept"
        better = (
            out["challenge"]["expected_utility_value"] > out["accept"]["expected_utility_value"]
        )
        return "challenge" if better else "accept"
    if state.phase == ELDER:
        return _run_pick(seat, state, legal, rng)
    if state.phase == ANSWER and len(legal) > 1:
        return _likeliest(seat.worlds(), legal[1:], OPPOSITION[state.claim])
    return rng.choice(legal)


def advise_policy(seat: Seat, state: State, legal: tuple[str, ...], rng: random.Random) -> str:
    """The ``advise`` policy (:data:`ADVISE_POLICY`)."""
    if state.phase != CHALLENGE:
        return deduce_policy(seat, state, legal, rng)
    names = seat.head["players"]
    document = {
        **seat.head,
        "suspected": dict(zip(names, state.marks, strict=True)),
        "event": list(seat.events),
    }
    log = parse_log(document, "balance")
    claim = Claim(names[state.player], state.cell, state.claim, len(seat.events))
    try:
        best = claim_outcomes(log, claim, goes_on=seat.goes_on)["best"]
    except TooMany:  # too little known of what the claimant saw to weigh: accept
        return "accept"
    return "challenge" if best == "challenge" else "accept"


def _run_pick(seat: Seat, state: State, legal: tuple[str, ...], rng: random.Random) -> str:
    """The planner's best next step of an elder run: its first pick over the worlds, the
    cells picked so far counted as found (they oppose; picking them again cannot help)."""
    picks = [m for m in legal if m.startswith("pick ")]
    worlds = seat.worlds()
    village = worlds.village.copy()
    village[:, list(state.picked)] = ROLE_CODE[state.claim]  # not opposing: never picked
    rules = seat.table.rules
    best = plan(
        village,
        worlds.weight,
        state.face_up,
        state.claim,
        declares=seat.table.setup.declares,
        declare_at_once=bool(state.picked) or rules.declare_without_picks == "allowed",
        face_down_only=rules.elder_face_up_picks == "face-down-only",
    )
    if best.first_pick is not None and f"pick {best.first_pick}" in picks:
        return f"pick {best.first_pick}"
    if "declare" in legal:
        return "declare"
    if picks:  # no pick can win: the likeliest to oppose, as good as any
        return _likeliest(worlds, picks, OPPOSITION[state.claim])
    return rng.choice(legal)


def _likeliest(worlds: Worlds, moves: Sequence[str], roles: frozenset[str]) -> str:
    """Of moves naming a cell last (``pick B2``, ``reveal C1``), the one whose cell most
    likely holds one of ``roles`` (the first on ties)."""
    return max(moves, key=lambda m: _chance(worlds, CELLS.index(m.split()[-1]), roles))


def _allege(seat: Seat, state: State, legal: tuple[str, ...]) -> str:
    seen = state.village[state.cell]
    if seen == LIAR:
        return f"claim {VILLAGER}" if f"claim {VILLAGER}" in legal else legal[0]
    if seen in ACTION_ROLES:
        return f"claim {seen}"
    if seen in ELDERS:
        worlds = seat.worlds()
        rows = worlds.village[:, state.cell] == ROLE_CODE[seen]
        rules = seat.table.rules
        best = plan(
            worlds.village[rows],
            worlds.weight[rows],
            state.face_up,
            seen,
            declares=seat.table.setup.declares,
            declare_at_once=rules.declare_without_picks == "allowed",
            face_down_only=rules.elder_face_up_picks == "face-down-only",
        )
        if best.win_probability >= 0.5:
            return f"claim {seen}"
    return "pass"


def _chance(worlds: Worlds, cell: int, roles: frozenset[str]) -> float:
    """The weight of the worlds with one of ``roles`` at ``cell`` now, as a share of all."""
    column = worlds.village[:, cell]
    hit = np.isin(column, [ROLE_CODE[r] for r in roles])
    return int(worlds.weight[hit].sum()) / worlds.total


def deal(setup: Setup, rng: random.Random) -> tuple[str, ...]:
    """A village dealt by the setup's prior: a composition by its total weight, then shuffled
    (a shuffle makes every distinct arrangement of it equally likely)."""
    totals = [setup.weight(k) * _arrangements(c) for k, c in enumerate(setup.compositions)]
    (cards,) = rng.choices(setup.compositions, weights=totals)
    village = list(cards)
    rng.shuffle(village)
    return tuple(village)


def deal_scoundrels(
    players: int, rng: random.Random
) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
    """The scoundrels deal as the rulebook runs it: the pool shuffled, two cards to each
    player, each keeps one (either with equal chance) and sets the other aside, then the
    core and the kept cards are shuffled into the village. Also each player's log keys
    (``kept``, ``discarded``): "Each player knows one townsfolk that's in the game, and
    one that's not."
    """
    pool = list(cards_of(SCOUNDREL_POOL))
    rng.shuffle(pool)
    keys: list[dict[str, Any]] = []
    kept = []
    for p in range(players):
        pair = pool[2 * p : 2 * p + 2]
        keep = rng.randrange(2)
        kept.append(pair[keep])
        keys.append({"kept": [pair[keep]], "discarded": [pair[1 - keep]]})
    village = [*cards_of(SCOUNDREL_CORE), *kept]
    rng.shuffle(village)
    return tuple(village), keys


def _arrangements(cards: Sequence[str]) -> int:
    counts = [cards.count(r) for r in set(cards)]
    return math.factorial(len(cards)) // math.prod(math.factorial(n) for n in counts)


@dataclass(frozen=True)
class Played:
    winner: int  # -1: unended
    outcome: str  # one of OUTCOMES
    moves: tuple[str, ...]
    deal: tuple[str, ...]


def play(
    table: Table,
    head: Mapping[str, Any],
    policies: Sequence[Policy],
    rng: random.Random,
    max_moves: int,
    village: tuple[str, ...] | None = None,
    *,
    marks: tuple[int, ...] | None = None,
    goes_on: continuation.Table | None = None,
) -> Played:
    """One game from ``village`` (default: a deal from ``rng``), starting with ``marks``
    suspected cards (default none); every move is one of the state machine's legal moves.
    ``goes_on``: what the agents value a game that goes on at (default: the shipped table)."""
    names = head["players"]
    known: list[dict[str, Any]] = [{} for _ in names]
    if village is None and table.setup.declares:
        village, known = deal_scoundrels(table.players, rng)
    elif village is None:
        village = deal(table.setup, rng)
    heads = [{**head, **known[p], "perspective": names[p]} for p in range(table.players)]
    logs: list[list[dict[str, Any]]] = [[] for _ in names]
    state = start(table, village)
    if marks is not None:
        state = replace(state, marks=marks)
    moves: list[str] = []
    outcome = "unended"
    while state.phase != OVER and len(moves) < max_moves:
        actor = state.actor
        legal = legal_moves(table, state)
        seat = Seat(actor, table, heads[actor], tuple(logs[actor]), goes_on)
        move = policies[actor](seat, state, legal, rng)
        after = step(table, state, move)
        for p, log in enumerate(logs):
            log.extend(events_of(state, move, after, names, p, table.rules))
        if after.phase == OVER:
            outcome = _outcome(state, move, after)
        moves.append(move)
        state = after
    assert outcome != "unended" or state.phase != OVER, "an ending the balance does not name"
    return Played(state.winner, outcome, tuple(moves), village)


def _outcome(before: State, move: str, after: State) -> str:
    """How a game ended: by an elder run (or its declaration standing), an opponent's
    answer to a declaration, or ostracism."""
    if before.phase in (ELDER, ANSWER) and after.winner == before.player:
        return "good" if before.claim == GOOD_ELDER else "evil"
    if before.phase == ANSWER and move.startswith("reveal "):
        return "refuted"
    return "ostracism"


def balance(
    table: Table,
    head: Mapping[str, Any],
    policy_names: Sequence[str],
    games: int,
    seed: int,
    *,
    max_moves: int = 400,
    budget: Budget | None = None,
    extra: Mapping[str, Policy] | None = None,
) -> dict[str, Any]:
    """Win rates of good, evil and each seat over ``games`` seeded games of one setup
    (``extra``: more policies by name, e.g. an OpenSpiel agent's)."""
    agents = {"random": random_policy, "deduce": deduce_policy, "advise": advise_policy}
    agents |= extra or {}
    policies = [agents[n] for n in policy_names]
    outcomes = dict.fromkeys(OUTCOMES, 0)
    wins = [0] * table.players
    played = moves = 0
    progress = Progress(f"balance {table.setup.name}: games", games)
    try:
        for i in range(games):
            if budget is not None and budget.spent():
                break
            game = play(
                table, head, policies, random.Random(f"{seed}/{table.setup.name}/{i}"), max_moves
            )
            outcomes[game.outcome] += 1
            if game.winner >= 0:
                wins[game.winner] += 1
            moves += len(game.moves)
            played += 1
            progress.update(played)
    finally:
        progress.close()
    return {
        "setup": table.setup.name,
        "cards": list(table.setup.cards)
        if table.setup.public
        else "the core six and one card kept by each player",
        "prior": SCOUNDREL_PRIOR
        if table.setup.declares
        else "every distinct arrangement of the village equally likely",
        "games": played,
        "games_asked": games,
        "finished": played == games,
        "sampled": f"sampled: {played} seeded games, 95% Wilson intervals",
        "outcomes": {k: rate(n, played) for k, n in outcomes.items()},
        "seats": [
            {"seat": p + 1, "policy": policy_names[p], **rate(wins[p], played)}
            for p in range(table.players)
        ],
        "mean_moves": round(moves / played, 2) if played else None,
    }
