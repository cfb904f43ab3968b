"""Twisted Cryptids advice: every legal choice of the player to act, ranked by what the horizon
counts: in the last round the actor's chance to win, then their expected score; before it
their expected Myth.

The hidden information is the Sighting Stacks and, at the end of the game, the Hidden
Traits. The player to act knows their own Stacks and every reveal so far (the record
:func:`record_from_state` writes from their seat); every other player's unrevealed slots may
hold any arrangement of that player's unrevealed cards (the ``stacks`` worlds), each equally
likely (a fair shuffle); in the last round the other players' Hidden Traits are any cards
the actor cannot rule out, no two alike, each deal equally likely. Hands, decks and the
Event deck are taken as they are in the position (not averaged over).

Horizon and scoring (:func:`scoring_of`): before the last round, the end of this round's
Dusk reveals, counting Myth; in the last round, the end of the game, counting the printed
end-of-game scoring (Myth + the Real Deal bonus per unrevealed Real Deal + the Hidden Trait
bonus) and who wins (the tie-break after; a shared win: an equal share each).

Every choice within the horizon is made by the player it belongs to, from what they know,
for their own goal (:mod:`ruleslawyer.solvers.twisted_cryptids.search` states the model:
the First Player's tie-break, reveal targets, Event Sites, Night moves and placements, the
actor's own later Day turns; another player's Day turn passes, their hand unknown). Per
option the figures are the actor's expected changes and chance to win under that model, and
the actor's figure in the worst case over the other players' choices. Exact over the worlds
when they are at most ``exact_limit``; otherwise a seeded uniform sample of Stack worlds (the
same for every move; the actor's choices maximised over that sample; the other players'
beliefs stay exact), each mean with a 95% normal interval.

:func:`~ruleslawyer.solvers.twisted_cryptids.reference.brute_force` is the plain reference
(:mod:`ruleslawyer.solvers.twisted_cryptids.reference`): every world played on its own.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from math import prod, sqrt
from typing import Any

import numpy as np

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.models.twisted_cryptids import points as rp
from ruleslawyer.models.twisted_cryptids.knowledge import Hidden, public_slots
from ruleslawyer.models.twisted_cryptids.play import (
    GameMove,
    Power,
    State,
    describe,
    legal_moves,
    step,
    unrevealed,
)
from ruleslawyer.solvers.rule_readings import divergences, in_force
from ruleslawyer.solvers.twisted_cryptids.search import (
    SCORE,
    TRAIT_DEALS,
    WIN,
    OutOfTime,
    Search,
    TooManyWorlds,
    Worlds,
    contract,
    frame_of,
    leader_of,
    own_day_turns,
    scoring_of,
)
from ruleslawyer.solvers.twisted_cryptids.stacks import distinct_permutations, multinomial

__all__ = ["Hidden", "advise", "advise_readings", "best_move", "leader_of", "scoring_of"]

# per player: the Stacks, each a tuple of Sighting ids top first (unrevealed cards only)
World = tuple[tuple[tuple[int, ...], ...], ...]

HORIZONS = {
    "myth": "to the end of this round's Dusk reveals",
    "final": "to the end of the game (this is the last round: its Dusk, its Night, then the "
    "end-of-game scoring)",
}


def policy_text(later_turns: int | None = None) -> str:
    """The play the figures assume, in words; ``later_turns``: how many of the actor's later
    Day turns within the horizon are chosen (``None``: all of them)."""
    bound = (
        ""
        if later_turns is None
        else f"; beyond the next {later_turns} of the actor's later Day turns they pass "
        f"(--later-turns {later_turns})"
    )
    return (
        "every choice within the horizon is made by its player, from what they know, for "
        "their own goal: in the last round the most chance to win, then the most expected "
        "score; before it the most expected Myth; then the least for their leader (the other "
        "player with the most Myth now, the first clockwise on a tie); moves still tied taken "
        "with equal chance. The actor's: their later Day turns of this round (every card, "
        "target and Power), a tied Site as First Player, where a reveal's effect goes, the "
        f"last round's Night{bound}. The other players': the First Player's choice of a tied "
        "Site, where their reveals' effects go, the Sites of an Event they resolve, their "
        "Night moves and placements; their Day turns pass (their hands are not known to the "
        "actor). What each knows: their own cards, the reveals and the board; the others' "
        "unrevealed Sightings arranged by the reveals only (nobody reads cards from choices), "
        "the others' Hidden Traits any card they cannot rule out, no two alike"
    )


POLICY = policy_text()
WORST = (
    "every other player's choice the worst for the actor in each world (the least chance to "
    "win, then the least score), the actor's choices their best against it"
)
PRIOR = (
    "uniform over the arrangements of each other player's unrevealed Sightings that fit "
    "the reveals and the Sightings the actor knows"
)
NOT_AVERAGED = "hands, decks and the Event deck are as in the position"
WIN_TEXT = (
    "the greatest final score, then the tie-break (the most Humans on the Sites of their "
    "Hiding Spots); players still tied share the win (each counts 1/k of it: the rulebook "
    "has them high five and play again)"
)


def hidden_of_state(state: State, actor: int) -> tuple[Hidden, ...]:
    """The hidden slots of a game state: every other player's unrevealed cards, none known."""
    return tuple(
        public_slots(state, p) for p in range(state.n) if p != actor and unrevealed(state, p)
    )


def _kinds(state: State, p: int, ids: Sequence[int]) -> Counter[str]:
    sightings = state.game.cryptids[state.cryptids[p]].sightings
    return Counter(sightings[s].kind for s in ids)


def world_count(state: State, actor: int, hidden: Sequence[Hidden] | None = None) -> int:
    """Distinct arrangements (by Sighting kind) of the hidden Stacks the actor cannot see."""
    hidden = hidden_of_state(state, actor) if hidden is None else hidden
    return prod(multinomial(_kinds(state, h.player, h.free).values()) for h in hidden)


def stacks_of(h: Hidden, order: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """``h``'s Stacks with ``order`` dealt into its free slots."""
    free = iter(order)
    flat = [next(free) if s is None else s for s in h.fixed]
    out, at = [], 0
    for size in h.sizes:
        out.append(tuple(flat[at : at + size]))
        at += size
    return tuple(out)


def _by_kind(state: State, p: int, ids: Sequence[int], kinds: Sequence[str]) -> list[int]:
    """Sighting ids for a sequence of kinds (same-kind cards taken in id order)."""
    sightings = state.game.cryptids[state.cryptids[p]].sightings
    pools: dict[str, list[int]] = {}
    for s in ids:
        pools.setdefault(sightings[s].kind, []).append(s)
    taken: Counter[str] = Counter()
    out = []
    for k in kinds:
        out.append(pools[k][taken[k]])
        taken[k] += 1
    return out


def all_worlds(state: State, actor: int, hidden: Sequence[Hidden] | None = None) -> Iterator[World]:
    """Every world, each arrangement of kinds once (cards of one kind are alike)."""
    hidden = hidden_of_state(state, actor) if hidden is None else hidden
    per_player = [
        [
            (h.player, stacks_of(h, _by_kind(state, h.player, h.free, kinds)))
            for kinds in distinct_permutations(_kinds(state, h.player, h.free), len(h.free))
        ]
        for h in hidden
    ]
    for combo in itertools.product(*per_player):
        yield _world(state, dict(combo))


def sampled_worlds(
    state: State, actor: int, count: int, seed: int, hidden: Sequence[Hidden] | None = None
) -> Iterator[World]:
    """``count`` worlds drawn uniformly (a fair shuffle of each player's free cards)."""
    rng = random.Random(seed)
    hidden = hidden_of_state(state, actor) if hidden is None else hidden
    for _ in range(count):
        chosen = {}
        for h in hidden:
            order = list(h.free)
            rng.shuffle(order)
            chosen[h.player] = stacks_of(h, order)
        yield _world(state, chosen)


def _world(state: State, chosen: dict[int, tuple[tuple[int, ...], ...]]) -> World:
    return tuple(chosen.get(p, state.stacks[p]) for p in range(state.n))


def label(state: State, move: GameMove) -> str:
    """The move as :func:`describe` words it, naming the card a Power discards."""
    text = describe(state, move)
    if isinstance(move, Power):
        card = state.hands[state.actor() or 0][move.card]
        text += f" (discarding {state.game.actions[card].name})"
    return text


def scoring_text(state: State, *, trait_known: bool = True) -> str:
    """The score the figures count, in words."""
    if scoring_of(state) == "myth":
        return "Myth (the end-of-game scoring is beyond the horizon)"
    g = state.game
    return (
        f"the printed end-of-game scoring: Myth + {g.real_deal_bonus} per unrevealed "
        f"{g.real_deal} + the Hidden Trait bonus; and who wins: {WIN_TEXT}"
    )


def traits_text(state: State, *, trait_known: bool = True, weighed: bool = True) -> str:
    """How the last round weighs the Hidden Traits, in words (``weighed``: every player's is a
    world axis)."""
    own = (
        "the actor's as the record names it"
        if trait_known
        else "the actor's: not in the record, any card they cannot rule out"
    )
    if not weighed:
        own = own if trait_known else "the actor's: not in the record, not counted"
        cards = len(state.game.traits)
        return (
            f"{own}; the other players' unknown to the actor and not counted, by them or by "
            f"anyone: {cards} cards among {state.n} players make more deals than the "
            f"{TRAIT_DEALS} advise weighs (a stated simplification; the rulebook prints no "
            "Hidden Trait texts)"
        )
    return (
        f"{own}; the other players' unknown to the actor: each any Hidden Trait card of the "
        "game file but the actor's own and those the actor knows are out of play, no two "
        "players the same card, every such deal equally likely (the rulebook prints no "
        "Hidden Trait texts; the built-in ones are placeholders)"
    )


def _figures(search: Search, worlds: Worlds, value: np.ndarray, exact: bool) -> dict[str, Any]:
    """One option's row: the actor's (and the leader's) figures over the actor's worlds; sampled,
    each mean with a 95% normal interval over the sampled Stack worlds (the Hidden Trait deals
    weighed exactly within each)."""
    f = search.frame
    F, n = search.F, search.n
    point, tops, traits = worlds.root_weights()
    trait_axes = tuple(i for i, a in enumerate(worlds.axes) if a.stack < 0)
    tops_axes = tuple(i for i, a in enumerate(worlds.axes) if a.stack >= 0)

    def stat(row: int) -> dict[str, Any]:
        num, total = contract((traits,), value[row], trait_axes)
        per = np.divide(num, total, out=np.zeros(num.shape), where=total > 0)
        num, total = contract((point, tops), per, tops_axes)
        mean = float(num.sum() / total.sum())
        out: dict[str, Any] = {"mean": round(mean, 4)}
        if not exact:
            spread, count = contract((point, tops), (per - mean) ** 2, tops_axes)
            size = float(count.sum())
            var = float(spread.sum()) / (size - 1) if size > 1 else 0.0
            half = 1.96 * sqrt(var / size)
            out["interval95"] = [round(mean - half, 4), round(mean + half, 4)]
        return out

    leader = worlds.leaders[f.actor]
    out: dict[str, Any] = {}
    if F == 2:
        out["win_chance"] = stat(f.actor * F + WIN)
    out["score_change"] = stat(f.actor * F + SCORE)
    out["leader_score_change"] = stat(leader * F + SCORE)
    worst = {"score_change": stat(n * F + SCORE)["mean"]}
    if F == 2:
        worst = {"win_chance": stat(n * F + WIN)["mean"], **worst}
    out["worst_case"] = worst
    return out


def _rank_key(row: dict[str, Any]) -> tuple[Any, ...]:
    """Best first: chance to win (last round), expected score, the least for the leader, then
    the move's words (never the order of moves)."""
    win = row.get("win_chance", {"mean": 0.0})["mean"]
    return (-win, -row["score_change"]["mean"], row["leader_score_change"]["mean"], row["move"])


def _search(
    state: State,
    *,
    exact_limit: int,
    samples: int,
    seed: int,
    hidden: Sequence[Hidden] | None = None,
    trait_known: bool = True,
    excluded: Sequence[int] | None = None,
    later_turns: int | None = None,
    budget: Budget | None = None,
    trees: dict[tuple[Any, ...], Any] | None = None,
) -> tuple[Search, Worlds, int, bool]:
    """The search of an advice to the player to act, its worlds, how many Stack worlds they
    cannot tell apart, and whether the average over them is exact."""
    frame = frame_of(state, trait_known=trait_known, excluded=excluded, later_turns=later_turns)
    actor = frame.actor
    hidden = hidden_of_state(state, actor) if hidden is None else hidden
    count = world_count(state, actor, hidden)
    exact = count <= exact_limit
    sample = None if exact else list(sampled_worlds(state, actor, samples, seed, hidden))
    worlds = Worlds(frame, hidden, sample)
    return Search(frame, worlds, budget, trees), worlds, count, exact


def advise(
    state: State,
    *,
    exact_limit: int = 200,
    samples: int = 200,
    seed: int = 0,
    budget: Budget | None = None,
    hidden: Sequence[Hidden] | None = None,
    not_averaged: str = NOT_AVERAGED,
    trait_known: bool = True,
    excluded: Sequence[int] | None = None,
    later_turns: int | None = None,
    trees: dict[tuple[Any, ...], Any] | None = None,
) -> dict[str, Any]:
    """The advice JSON for the player to act in ``state``; ``hidden``: what the actor does not
    see (default: every other player's unrevealed cards, as in :func:`hidden_of_state`);
    ``trait_known``: whether the actor's Hidden Trait is known (``state.traits``);
    ``excluded``: Hidden Traits the actor knows nobody else holds (default: the one they
    returned to the box); ``later_turns``: how many of the actor's later Day turns are chosen
    (``None``: every one the horizon holds; the ones after pass); ``trees``: a cache of the
    players' own last Nights, shared by calls on one position under other rulings."""
    actor = state.actor()
    if actor is None:
        raise ValueError("the game is over: nobody is to act")
    moves = legal_moves(state)
    search, worlds, count, exact = _search(
        state,
        exact_limit=exact_limit,
        samples=samples,
        seed=seed,
        hidden=hidden,
        trait_known=trait_known,
        excluded=excluded,
        later_turns=later_turns,
        budget=budget,
        trees=trees,
    )
    frame = search.frame
    ahead = own_day_turns(state, actor)
    policy = policy_text(later_turns)
    progress = Progress("advise: moves", len(moves))
    rows = []
    finished, reason = True, None
    for i, move in enumerate(moves):
        if budget is not None and budget.spent():
            finished, reason = False, "out of time"
            break
        try:
            value = search.value(step(state, move))
        except OutOfTime:
            finished, reason = False, "out of time"
            break
        except TooManyWorlds:
            finished, reason = False, "too many worlds to weigh the other players' choices over"
            break
        rows.append({"move": label(state, move), **_figures(search, worlds, value, exact)})
        progress.update(i + 1)
    progress.close()
    rows.sort(key=_rank_key)
    score = scoring_text(state, trait_known=trait_known)
    final = frame.scoring == "final"
    ranking = (
        "chance to win, then expected score, then the least for the leader"
        if final
        else "expected score, then the least for the leader"
    )
    weighed = frame.weighs_traits
    traits = traits_text(state, trait_known=trait_known, weighed=weighed) if final else None
    model = (
        f"each figure: the actor's expected change of {score}"
        + (", and their chance to win" if final else "")
        + f", and the leader's; ranked by {ranking}; horizon: {HORIZONS[frame.scoring]}; "
        f"policy: {policy}; worst case: {WORST}; prior: {PRIOR}"
        + (f"; Hidden Traits: {traits}" if traits else "")
        + f"; not averaged: {not_averaged}"
    )
    return {
        "model": model,
        "actor": state.players[actor],
        "leader": state.players[worlds.leaders[actor]],
        "round": state.round,
        "phase": state.phase,
        "rulings": in_force(rp.RULE_POINTS, dict(state.rulings)),
        "prior": PRIOR,
        "horizon": HORIZONS[frame.scoring],
        "scoring": frame.scoring,
        "score": score,
        "ranking": ranking,
        "hidden_traits": traits,
        "policy": policy,
        "worst_case": WORST,
        "later_day_turns": ahead,
        "later_day_turns_chosen": ahead if later_turns is None else min(ahead, later_turns),
        "not_averaged": not_averaged,
        "worlds": count,
        "mode": "exact" if exact else "sampled",
        "samples": None if exact else samples,
        "seed": None if exact else seed,
        "moves_legal": len(moves),
        "moves_ranked": len(rows),
        "finished": finished,
        "unfinished_reason": reason,
        "choices": rows,
    }


def advise_readings(
    state: State, settled: Mapping[str, str], budget: Budget | None = None, **options: Any
) -> dict[str, Any]:
    """:func:`advise` with ``settled`` readings (the rest at their defaults), then once more
    under each other reading of every open rule point, listing those whose ranking differs
    (``open_rule_points_changing_the_ranking``; the default reading's ranking is the main
    one)."""
    chosen = in_force(rp.RULE_POINTS, settled)
    trees: dict[tuple[Any, ...], Any] = {}

    def rank(readings: dict[str, str]) -> dict[str, Any]:
        return advise(
            replace(state, rulings=tuple(sorted(readings.items()))),
            budget=budget,
            trees=trees,
            **options,
        )

    def order(result: dict[str, Any]) -> tuple[str, ...]:
        return tuple(row["move"] for row in result["choices"])

    base = rank(chosen)
    actor = state.actor()
    # a reading under which someone else acts here (event-chooser at Dawn) asks another
    # player's question: not ranked, listed
    elsewhere = sorted(
        f"{p.id}={r}"
        for p in rp.RULE_POINTS
        for r in p.reading_names
        if replace(state, rulings=tuple(sorted({**chosen, p.id: r}.items()))).actor() != actor
    )
    found, tried = divergences(
        rp.RULE_POINTS,
        chosen,
        settled,
        rank,
        order,
        base,
        candidates=[
            p.id
            for p in rp.RULE_POINTS
            if not any(e.startswith(p.id + "=") for e in elsewhere)
            and p.id not in inert_points(state)
        ],
        out_of_time=lambda: budget is not None and budget.spent(),
    )
    base["open_rule_points_tried"] = tried
    base["readings_with_another_player_to_act"] = elsewhere
    base["open_rule_points_changing_the_ranking"] = [
        {
            "point": d.point,
            "reading": d.reading,
            "title": d.title,
            "finished": d.result["finished"],
            "choices": d.result["choices"],
        }
        for d in found
    ]
    base["finished"] = base["finished"] and tried and all(d.result["finished"] for d in found)
    return base


def inert_points(state: State) -> frozenset[str]:
    """Rule points whose readings cannot part in this game, so ranking under them again
    would repeat the ranking: with 2-3 players no cap can bind under any reading of
    ``small-game-cap`` (3 players at a Site leave nobody to add), so neither that point nor
    whether the cap binds the Night (``optional-move-constraints``,
    ``night-placement-limits``) changes a legal move (``play.legal_sites``)."""
    from ruleslawyer.models.twisted_cryptids.play import player_cap

    caps = {player_cap(state.n, r) for r in rp.SMALL_GAME_CAP.reading_names}
    never = all(cap is None or cap >= state.n for cap in caps)
    if not never:
        return frozenset()
    return frozenset(
        {rp.SMALL_GAME_CAP.id, rp.OPTIONAL_MOVE_CONSTRAINTS.id, rp.NIGHT_PLACEMENT_LIMITS.id}
    )


def best_move(
    state: State, *, exact_limit: int, samples: int, seed: int, later_turns: int | None = None
) -> GameMove:
    """The first choice of :func:`advise` from the actor's own view (the advise agent): its
    own Stacks and Hidden Trait known, the one it returned to the box out of play; by
    :func:`advise`'s ranking (moves with the same words: the first of them);
    ``later_turns`` as :func:`advise` takes it."""
    actor = state.actor()
    assert actor is not None
    moves = legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    search, worlds, _, exact = _search(
        state, exact_limit=exact_limit, samples=samples, seed=seed, later_turns=later_turns
    )
    rows = []
    for move in moves:
        value = search.value(step(state, move))
        rows.append(({"move": label(state, move), **_figures(search, worlds, value, exact)}, move))
    return min(rows, key=lambda rm: _rank_key(rm[0]))[1]
