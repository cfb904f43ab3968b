"""Twisted Cryptids advice: every legal choice of the player to act, ranked by the expected
change of the score the horizon counts.

The hidden information averaged over is the Sighting Stacks: the player to act
knows their own Stacks and every reveal so far (the record :func:`record_from_state`
writes from their seat); every other player's unrevealed slots may hold any
arrangement of that player's unrevealed cards (the ``stacks`` worlds). The prior
is uniform over those arrangements (a fair shuffle). Hands, decks and the Event
deck are taken as they are in the position (not averaged over).

Horizon and scoring (:func:`scoring_of`): before the last round, the end of this
round's Dusk reveals, counting Myth; in the last round, the end of the game,
counting the printed end-of-game scoring (Myth + the Real Deal bonus per unrevealed
Real Deal + the Hidden Trait bonus; the other players' Hidden Traits are unknown to
the actor and not counted, nor the tie-break).

For each legal move: the actor's own later choices within the horizon (their later Day
turns of this round with every card, target and Power; a tied Site; where a reveal's
effect goes; the last Night) are the best for the actor given what they have seen (the
worlds they cannot tell apart: same reveals so far): the most total counted score change
over those worlds, then the least for the leader, then the first legal move (expectimax:
the actor's choices maximised, the hidden Stacks averaged). ``later_turns`` bounds how
many of the later Day turns are chosen (the ones after pass; stated in the policy). Every
other player's choice is the first legal move in the model's fixed order.
Figures: the mean change of the actor's counted score and of the leader's (the other
player with the most Myth now, first in seat order on a tie), exact over the worlds when
they are at most ``exact_limit``; otherwise a seeded uniform sample of worlds (the same
worlds for every move; the later choices maximised over the sample), each mean with a
95% normal interval.

:func:`~ruleslawyer.solvers.twisted_cryptids.reference.brute_force` is the plain reference
(:mod:`ruleslawyer.solvers.twisted_cryptids.reference`): every distinct ordering of each
player's unrevealed Sighting ids, one state per world, no sharing.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from math import prod, sqrt
from typing import Any

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.models.twisted_cryptids import points as rp
from ruleslawyer.models.twisted_cryptids.play import (
    GameMove,
    Pass,
    Power,
    State,
    describe,
    legal_moves,
    step,
    trait_amount,
    unrevealed,
)
from ruleslawyer.solvers.rule_readings import divergences, in_force
from ruleslawyer.solvers.twisted_cryptids.stacks import distinct_permutations, multinomial

# per player: the Stacks, each a tuple of Sighting ids top first (unrevealed cards only)
World = tuple[tuple[tuple[int, ...], ...], ...]
Pair = tuple[int, int]  # (actor's, leader's) counted score change

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
        else f"; beyond the next {later_turns} of their later Day turns they pass "
        f"(--later-turns {later_turns})"
    )
    return (
        "the actor's later choices within the horizon (their later Day turns of this round "
        "with every card, target and Power; a tied Site as First Player; where a reveal's "
        "effect goes; the last round's Night): the best for the actor over the worlds they "
        "cannot tell apart (most counted score, then least for the leader, then the first "
        f"legal move){bound}; every other player's choice: the first legal move in the "
        "model's order"
    )


POLICY = policy_text()
PRIOR = (
    "uniform over the arrangements of each other player's unrevealed Sightings that fit "
    "the reveals and the Sightings the actor knows"
)
NOT_AVERAGED = "hands, decks and the Event deck are as in the position"
HORIZON_PHASES = frozenset({"night-move", "night-place", "refill", "over"})


@dataclass(frozen=True)
class Hidden:
    """One other player's unrevealed Stack slots, Stacks in order and each top first: a known
    Sighting id where the actor knows it (``fixed``), else ``None``; ``free`` holds the ids
    the ``None`` slots share out (every arrangement equally likely)."""

    player: int
    sizes: tuple[int, ...]
    fixed: tuple[int | None, ...]
    free: tuple[int, ...]


def hidden_of_state(state: State, actor: int) -> tuple[Hidden, ...]:
    """The hidden slots of a game state: every other player's unrevealed cards, none known."""
    out = []
    for p in range(state.n):
        if p == actor:
            continue
        ids = tuple(sorted(s for stack in state.stacks[p] for s in stack))
        if ids:
            sizes = tuple(len(stack) for stack in state.stacks[p])
            out.append(Hidden(p, sizes, (None,) * len(ids), ids))
    return tuple(out)


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


def leader_of(state: State, actor: int) -> int:
    others = [p for p in range(state.n) if p != actor]
    return max(others, key=lambda p: (state.myth[p], -p))


def scoring_of(state: State) -> str:
    """``final`` when ``state`` is in the last round (the horizon reaches the end-of-game
    scoring), else ``myth``."""
    return "final" if state.round == state.game.rounds else "myth"


def scoring_text(state: State, *, trait_known: bool = True) -> str:
    """The score the figures count, in words."""
    if scoring_of(state) == "myth":
        return "Myth (the end-of-game scoring is beyond the horizon)"
    g = state.game
    own = "the actor's" if trait_known else "not the actor's either: not in the record"
    return (
        f"the printed end-of-game scoring: Myth + {g.real_deal_bonus} per unrevealed "
        f"{g.real_deal} + the Hidden Trait bonus ({own}; the other players' Hidden Traits "
        "are unknown to the actor and not counted); the tie-break is not counted"
    )


def counted(state: State, player: int, scoring: str, trait: bool) -> int:
    """``player``'s score under ``scoring`` (``myth`` or ``final``; ``trait``: with the
    Hidden Trait bonus)."""
    if scoring == "myth":
        return state.myth[player]
    g = state.game
    sightings = g.cryptids[state.cryptids[player]].sightings
    deals = sum(1 for s in unrevealed(state, player) if sightings[s].kind == g.real_deal)
    bonus = g.traits[state.traits[player]].score(trait_amount(state, player)) if trait else 0
    return state.myth[player] + g.real_deal_bonus * deals + bonus


def own_day_turns(state: State, actor: int) -> int:
    """The ``actor``'s Day turns of this round still to come after the move to be made in
    ``state`` (all three from before the Day, none after it)."""
    if state.phase in ("dawn", "traits", "setup"):
        return 3 if state.phase == "dawn" else 0
    if state.phase != "day":
        return 0
    return 2 - state.turn // state.n


@dataclass(frozen=True)
class Frame:
    """What one advice measures: from ``root``, the ``actor``'s and the ``leader``'s
    counted scores; play stops at the horizon. ``later_turns``: how many of the actor's
    later Day turns are chosen (their best); the ones after pass (``None``: all)."""

    root: State
    actor: int
    leader: int
    scoring: str
    trait_known: bool = True
    later_turns: int | None = None

    def moves(self, state: State) -> tuple[GameMove, ...]:
        """The actor's options at a later choice of theirs: every legal move, except on a
        later Day turn past ``later_turns``, where they pass."""
        if self.later_turns is not None and state.phase == "day":
            ahead = own_day_turns(self.root, self.actor) - own_day_turns(state, self.actor)
            if ahead > self.later_turns:
                return (Pass(),)
        return legal_moves(state)

    def done(self, state: State) -> bool:
        if state.round != self.root.round or state.phase == "over":
            return True
        return self.scoring == "myth" and state.phase in HORIZON_PHASES

    def score(self, state: State) -> Pair:
        s, r = self.scoring, self.root
        a, b = self.actor, self.leader
        return (
            counted(state, a, s, self.trait_known) - counted(r, a, s, self.trait_known),
            counted(state, b, s, False) - counted(r, b, s, False),
        )


def better(new: Sequence[Pair], old: Sequence[Pair], weights: Sequence[int] | None = None) -> bool:
    """Whether ``new`` beats ``old`` for the actor: more total, then less for the leader
    (``weights``: how many worlds each entry stands for; default one each)."""
    w = weights or [1] * len(new)

    def totals(pairs: Sequence[Pair]) -> tuple[int, int]:
        return (
            sum(a * k for (a, _), k in zip(pairs, w, strict=True)),
            -sum(b * k for (_, b), k in zip(pairs, w, strict=True)),
        )

    return totals(new) > totals(old)


_DECKS = frozenset({"game", "stacks", "discard", "action_deck", "event_deck", "current_events"})
_AFTER_DAY_SKIP = _DECKS | {"hands", "power_used"}
_SKIP = frozenset({"game", "stacks"})
_FIELDS = tuple(f.name for f in fields(State))


def _key(state: State) -> tuple[Any, ...]:
    """``state`` for the memo. The Stacks are left out: every player's unrevealed cards are
    their cards less the reveals (in the key), and where the other players' cards lie is read
    at a reveal only, and the worlds are the same for every state a :class:`Search` meets.
    Nobody draws before the horizon (no refill in it), so from the Day on the decks and the
    discard pile are left out, and a hand is a set of cards (its order names the moves, not
    what they do); after the Day (Dusk, then the last Night) the hands and the Powers cannot
    matter either."""
    if state.phase == "dawn":
        return tuple(getattr(state, f) for f in _FIELDS if f not in _SKIP)
    if state.phase == "day":
        return tuple(
            tuple(tuple(sorted(h)) for h in state.hands) if f == "hands" else getattr(state, f)
            for f in _FIELDS
            if f not in _DECKS
        )
    return tuple(getattr(state, f) for f in _FIELDS if f not in _AFTER_DAY_SKIP)


class OutOfTime(Exception):
    """The budget ran out mid-evaluation."""


class Search:
    """Per-world (actor, leader) changes under the model's play, for one :class:`Frame`.

    Before this round's reveals nothing reads another player's Stack, so that play is
    shared by every world (:meth:`common`, memoised); at the first reveal each world gets
    its own state, and the worlds the actor cannot tell apart (same reveals so far) share
    the actor's choices (:meth:`group`)."""

    def __init__(self, frame: Frame, worlds: Sequence[World], budget: Budget | None = None):
        self.frame, self.worlds, self.budget = frame, worlds, budget
        self.memo: dict[tuple[Any, ...], tuple[Pair, ...]] = {}
        self.calls = 0

    def _tick(self) -> None:
        self.calls += 1
        if self.budget is not None and self.calls % 256 == 0 and self.budget.spent():
            raise OutOfTime

    def after(self, state: State, move: GameMove) -> tuple[Pair, ...]:
        """Every world's changes after ``move`` from ``state`` (a common state)."""
        return self.common(step(state, move))

    def common(self, state: State) -> tuple[Pair, ...]:
        f = self.frame
        if f.done(state):
            return (f.score(state),) * len(self.worlds)
        key = _key(state)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if state.phase == "reveal":
            self.memo[key] = out = self.reveals(state)
            return out
        self._tick()
        if state.actor() == f.actor:
            best: tuple[Pair, ...] | None = None
            for move in f.moves(state):
                values = self.common(step(state, move))
                if best is None or better(values, best):
                    best = values
            assert best is not None
        else:
            best = self.common(step(state, legal_moves(state)[0]))
        self.memo[key] = best
        return best

    def reveals(self, state: State) -> tuple[Pair, ...]:
        """Every world's changes from the first reveal of this Dusk on. Each revealer reveals
        the top Sighting of their Stack at the Encounter Site, once (their Hiding Spot goes
        back to its Stack), and nothing after reads a Stack but through the reveals: the
        worlds with the same top cards there play alike, so one stands for them all
        (weighted by how many it stands for)."""
        actor, site = self.frame.actor, state.encounter
        assert site is not None
        classes: dict[tuple[int, ...], list[int]] = {}
        for i, w in enumerate(self.worlds):
            tops = tuple(
                w[p][state.spots[p].index(site)][0] for p in state.revealers() if p != actor
            )
            classes.setdefault(tops, []).append(i)
        members = list(classes.values())
        states = [
            replace(
                state,
                stacks=tuple(
                    state.stacks[p] if p == actor else self.worlds[m[0]][p] for p in range(state.n)
                ),
            )
            for m in members
        ]
        values = self.group(states, [len(m) for m in members])
        out: list[Pair] = [(0, 0)] * len(self.worlds)
        for m, v in zip(members, values, strict=True):
            for i in m:
                out[i] = v
        return tuple(out)

    def group(self, states: Sequence[State], weights: Sequence[int]) -> list[Pair]:
        """Changes per state; the states are worlds the actor cannot tell apart, each standing
        for ``weights`` worlds."""
        f = self.frame
        first = states[0]
        if f.done(first):
            return [f.score(s) for s in states]
        if first.phase != "reveal":
            # past this round's reveals nothing reads another player's Stack (the Real Deals
            # left are counted from the reveals): the worlds here play and score alike
            return [self.common(first)[0]] * len(states)
        self._tick()
        if first.actor() == f.actor:
            best: list[Pair] | None = None
            for move in f.moves(first):
                values = self.split([step(s, move) for s in states], weights)
                if best is None or better(values, best, weights):
                    best = values
            assert best is not None
            return best
        return self.split([step(s, legal_moves(s)[0]) for s in states], weights)

    def split(self, states: Sequence[State], weights: Sequence[int]) -> list[Pair]:
        """:meth:`group` on each set of states with the same reveals so far."""
        parts: dict[Any, list[int]] = {}
        for i, s in enumerate(states):
            parts.setdefault((s.revealed, s.myth, s.sites, s.spots, s.phase), []).append(i)
        out: list[Pair] = [(0, 0)] * len(states)
        for members in parts.values():
            values = self.group([states[i] for i in members], [weights[i] for i in members])
            for i, v in zip(members, values, strict=True):
                out[i] = v
        return out


def _stat(values: Sequence[int], exact: bool) -> dict[str, Any]:
    n = len(values)
    mean = sum(values) / n
    out: dict[str, Any] = {"mean": round(mean, 4)}
    if not exact:
        var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        half = 1.96 * sqrt(var / n)
        out["interval95"] = [round(mean - half, 4), round(mean + half, 4)]
    return out


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
    later_turns: int | None = None,
) -> dict[str, Any]:
    """The advice JSON for the player to act in ``state``; ``hidden``: what the actor does not
    see (default: every other player's unrevealed cards, as in :func:`hidden_of_state`);
    ``trait_known``: whether the actor's Hidden Trait is known (counted in the last round);
    ``later_turns``: how many of the actor's later Day turns are chosen (``None``: every one
    the horizon holds; the ones after pass)."""
    actor = state.actor()
    if actor is None:
        raise ValueError("the game is over: nobody is to act")
    leader = leader_of(state, actor)
    moves = legal_moves(state)
    hidden = hidden_of_state(state, actor) if hidden is None else hidden
    count = world_count(state, actor, hidden)
    exact = count <= exact_limit
    worlds = list(
        all_worlds(state, actor, hidden)
        if exact
        else sampled_worlds(state, actor, samples, seed, hidden)
    )
    frame = Frame(state, actor, leader, scoring_of(state), trait_known, later_turns)
    search = Search(frame, worlds, budget)
    ahead = own_day_turns(state, actor)
    policy = policy_text(later_turns)
    progress = Progress("advise: moves", len(moves))
    rows = []
    finished = True
    for i, move in enumerate(moves):
        if budget is not None and budget.spent():
            finished = False
            break
        try:
            results = search.after(state, move)
        except OutOfTime:
            finished = False
            break
        rows.append(
            {
                "move": label(state, move),
                "score_change": _stat([a for a, _ in results], exact),
                "leader_score_change": _stat([b for _, b in results], exact),
            }
        )
        progress.update(i + 1)
    progress.close()
    rows.sort(key=lambda r: (-r["score_change"]["mean"], r["leader_score_change"]["mean"]))
    score = scoring_text(state, trait_known=trait_known)
    return {
        "model": (
            f"each figure: the expected change of {score}, for the actor and for the leader; "
            f"horizon: {HORIZONS[frame.scoring]}; policy: {policy}; prior: {PRIOR}; "
            f"not averaged: {not_averaged}"
        ),
        "actor": state.players[actor],
        "leader": state.players[leader],
        "round": state.round,
        "phase": state.phase,
        "rulings": in_force(rp.RULE_POINTS, dict(state.rulings)),
        "prior": PRIOR,
        "horizon": HORIZONS[frame.scoring],
        "scoring": frame.scoring,
        "score": score,
        "policy": policy,
        "later_day_turns": ahead,
        "later_day_turns_chosen": ahead if later_turns is None else min(ahead, later_turns),
        "not_averaged": not_averaged,
        "worlds": count,
        "mode": "exact" if exact else "sampled",
        "samples": None if exact else len(worlds),
        "seed": None if exact else seed,
        "moves_legal": len(moves),
        "moves_ranked": len(rows),
        "finished": finished,
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

    def rank(readings: dict[str, str]) -> dict[str, Any]:
        return advise(
            replace(state, rulings=tuple(sorted(readings.items()))), budget=budget, **options
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
            p.id for p in rp.RULE_POINTS if not any(e.startswith(p.id + "=") for e in elsewhere)
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


def best_move(
    state: State, *, exact_limit: int, samples: int, seed: int, later_turns: int | None = None
) -> GameMove:
    """The first choice of :func:`advise` from the actor's own view (the advise agent):
    the best by the counted score, then the least for the leader, then the first legal;
    ``later_turns`` as :func:`advise` takes it."""
    actor = state.actor()
    assert actor is not None
    moves = legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    hidden = hidden_of_state(state, actor)
    exact = world_count(state, actor, hidden) <= exact_limit
    worlds = list(
        all_worlds(state, actor, hidden)
        if exact
        else sampled_worlds(state, actor, samples, seed, hidden)
    )
    frame = Frame(state, actor, leader_of(state, actor), scoring_of(state), later_turns=later_turns)
    search = Search(frame, worlds)
    best, best_values = moves[0], search.after(state, moves[0])
    for move in moves[1:]:
        values = search.after(state, move)
        if better(values, best_values):
            best, best_values = move, values
    return best
