"""Twisted Cryptids: the round structure as pure functions over an immutable :class:`State`.

``new_game`` deals a game (stacks, hands, decks, Hidden Traits) from a seed;
``legal_moves(state)`` lists the moves of the player to act in a fixed order;
``step(state, move)`` returns the next state. Phases, in the rulebook's order:

- ``traits``: each player keeps one of the two Hidden Traits dealt to them;
- ``setup``: three rounds of Hiding Spot placement, the First Player token
  passing after each round (own-Site rule, player-count cap);
- ``dawn``: the First Player flips an Event; its effects are resolved one move each, top
  to bottom, by the First Player (or by players in turn: ``event-chooser``);
- ``day``: three turns each (an Action card, the Cryptid Power once a round, or pass);
- ``dusk``: the Encounter Site (``choose`` when Sites tie, the First Player
  choosing), then ``reveal`` in player order;
- ``night``: the optional move (``move``), the placement of a Hiding Spot
  returned at Dusk away from the Encounter Site (``place``), the refill
  (``refill``; none in the last round): per player, or each step by every
  player in turn (``night-order``);
- ``over``: :func:`final_scores` and :func:`winners`.

Effects take their Sites from the move (``targets``): ``attract`` and
``extract`` one Site, ``move`` two (from, to). A Sighting's effect acts on the
Encounter Site unless its game file entry lets the player choose (``at``/``to``):
only the Sites left to the player are targets.

When a Hiding Spot returned at Dusk has no legal Site (the rulebook's gap,
``twisted-cryptids/relocation-deadlock``, reachable only when the cap binds the
Night placement: ``night-placement-limits=constrained``) the only move is :class:`Stuck`:
the token stays on its Stack and the player tries again next Night.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

from ruleslawyer.errors import IllegalMove
from ruleslawyer.models.twisted_cryptids import points as rp
from ruleslawyer.models.twisted_cryptids.game import (
    STACK_DEPTH,
    STACKS,
    Effect,
    Game,
)

ON_STACK = -1  # a Hiding Spot token on its Stack (returned at Dusk, or not yet placed)
BOXED = -2  # returned to the game box: its Stack is empty


# --- moves ------------------------------------------------------------------------------


@dataclass(frozen=True)
class KeepTrait:
    """Keep the first (0) or the second (1) Hidden Trait dealt; the other goes to the box."""

    card: int


@dataclass(frozen=True)
class Place:
    """Put Hiding Spot ``token`` (0-2) on ``site`` (setup, and the Night placement)."""

    site: int
    token: int


@dataclass(frozen=True)
class Resolve:
    """Resolve the flipped Event's next effect with these target Sites."""

    targets: tuple[int, ...] = ()


@dataclass(frozen=True)
class Play:
    """Play hand card ``card`` (an index into the hand) with these target Sites."""

    card: int
    targets: tuple[int, ...] = ()


@dataclass(frozen=True)
class Power:
    """Discard hand card ``card`` to use the Cryptid Power with these target Sites."""

    card: int
    targets: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pass:
    """Pass the turn."""


@dataclass(frozen=True)
class Choose:
    """The First Player picks the Encounter Site among the tied Sites."""

    site: int


@dataclass(frozen=True)
class Reveal:
    """Reveal the top Sighting of the Stack at the Encounter Site; targets for its effect."""

    targets: tuple[int, ...] = ()


@dataclass(frozen=True)
class Move:
    """The optional Night move: Hiding Spot ``token`` to ``site``."""

    token: int
    site: int


@dataclass(frozen=True)
class Stay:
    """Decline the optional Night move."""


@dataclass(frozen=True)
class Stuck:
    """No legal Site for the returned Hiding Spot: it stays on its Stack (the gap)."""


@dataclass(frozen=True)
class Refill:
    """Discard these hand indices, then draw up to the hand size."""

    discard: tuple[int, ...] = ()


GameMove = (
    KeepTrait
    | Place
    | Resolve
    | Play
    | Power
    | Pass
    | Choose
    | Reveal
    | Move
    | Stay
    | Stuck
    | Refill
)


# --- state ------------------------------------------------------------------------------


@dataclass(frozen=True)
class State:
    game: Game
    rulings: tuple[tuple[str, str], ...]
    players: tuple[str, ...]
    cryptids: tuple[int, ...]
    first: int
    round: int  # 1..rounds; 0 during setup
    # traits | setup | dawn | day | choose | reveal | night-move | night-place | refill | over
    phase: str
    turn: int  # position in the current phase's sequence of turns
    sites: tuple[tuple[int, int, int], ...]
    rest: tuple[int, int, int]
    spots: tuple[tuple[int, ...], ...]  # per player, per token: a Site, ON_STACK or BOXED
    placed: tuple[tuple[bool, ...], ...]  # per player, per token: ever placed (setup)
    stacks: tuple[
        tuple[tuple[int, ...], ...], ...
    ]  # per player, per Stack: Sighting ids, top first
    revealed: tuple[tuple[tuple[int, int, int], ...], ...]  # per player: (stack, sighting, round)
    myth: tuple[int, ...]
    traits: tuple[int, ...]
    discarded_traits: tuple[int | None, ...]  # the second Hidden Trait each player was dealt
    hands: tuple[tuple[int, ...], ...]
    action_deck: tuple[int, ...]
    discard: tuple[int, ...]
    event_deck: tuple[int, ...]
    current_events: tuple[int, ...]
    power_used: tuple[bool, ...]
    encounter: int | None  # this round's Encounter Site, once chosen
    encounters: tuple[tuple[int, int], ...]  # (round, Site) of every Encounter so far
    returned: tuple[tuple[int, ...], ...]  # per player: tokens on a Stack awaiting placement
    tied: tuple[int, ...]  # Sites tied for the Encounter (phase choose)
    encountered: tuple[int, int, int] | None  # Humans at the Encounter Site when it began
    snapshot: tuple[tuple[int, ...], ...]  # spots at the start of the last Night (tie-break)
    seed: int
    shuffles: int
    stuck: tuple[tuple[int, int], ...]  # (round, player) each time the relocation deadlocked
    dawn_step: int = 0  # the flipped Event's next effect to resolve

    @property
    def n(self) -> int:
        return len(self.players)

    def reading(self, point_id: str) -> str:
        return _reading(self.rulings, point_id)

    def order(self) -> tuple[int, ...]:
        """Players in player order, starting with the First Player."""
        return tuple((self.first + i) % self.n for i in range(self.n))

    def actor(self) -> int | None:
        """The player who moves next, or None when the game is over."""
        if self.phase == "over":
            return None
        if self.phase == "dawn" and self.reading(rp.EVENT_CHOOSER.id) == "player-order":
            return self.order()[self.dawn_step % self.n]
        if self.phase in ("dawn", "choose"):
            return self.first
        if self.phase in ("traits", "setup"):
            return self.order()[self.turn % self.n]
        if self.phase == "day":
            return self.order()[self.turn % self.n]
        if self.phase == "reveal":
            return self.revealers()[0]
        return self.order()[self.turn]

    def revealers(self) -> tuple[int, ...]:
        """Players with a Hiding Spot at the Encounter Site, in player order."""
        if self.encounter is None:
            return ()
        return tuple(p for p in self.order() if self.encounter in self.spots[p])

    def site_players(self, site: int) -> int:
        return sum(1 for p in range(self.n) if site in self.spots[p])

    def humans_at(self, site: int) -> int:
        return sum(self.sites[site])


@functools.lru_cache(maxsize=4096)
def _reading(rulings: tuple[tuple[str, str], ...], point_id: str) -> str:
    """The reading of ``point_id`` in force under ``rulings`` (its default when not ruled)."""
    point = next(p for p in rp.RULE_POINTS if p.id == point_id)
    return dict(rulings).get(point_id, point.default or "")


def player_cap(n: int, small_game_reading: str = "no-cap") -> int | None:
    """At most how many players may have a Hiding Spot at one Site."""
    if n >= 5:
        return 4
    if n == 4:
        return 3
    return 3 if small_game_reading == "cap-3" else None


def player_counts(reading: str = "two-to-six") -> tuple[int, ...]:
    """The player counts a game may have under ``player-count``."""
    return (4, 5, 6) if reading == "four-to-six" else (2, 3, 4, 5, 6)


def cap_of(state: State) -> int | None:
    return player_cap(state.n, state.reading(rp.SMALL_GAME_CAP.id))


def legal_sites(
    state: State,
    player: int,
    *,
    away_from: int | None = None,
    capped: bool = True,
    own: bool = True,
) -> tuple[int, ...]:
    """Sites where ``player`` may place a Hiding Spot: own-Site rule (when ``own``), the
    cap (when ``capped``), not ``away_from``."""
    cap = cap_of(state) if capped else None
    return tuple(
        s
        for s in range(len(state.sites))
        if s != away_from
        and not (own and s in state.spots[player])
        and (cap is None or s in state.spots[player] or state.site_players(s) < cap)
    )


def _own_site_binds(state: State) -> bool:
    """Whether the setup's one-spot-per-Site limit binds a Night move or placement."""
    return state.reading(rp.NIGHT_OWN_SITE.id) == "binds"


# --- setup ------------------------------------------------------------------------------


def _shuffled(items: tuple[int, ...], seed: int, count: int) -> tuple[int, ...]:
    out = list(items)
    random.Random(f"{seed}:{count}").shuffle(out)
    return tuple(out)


def new_game(
    game: Game,
    players: tuple[str, ...],
    cryptids: tuple[str, ...],
    *,
    seed: int = 0,
    first: int = 0,
    stacks: tuple[tuple[tuple[int, ...], ...], ...] | None = None,
    rulings: Mapping[str, str] | None = None,
) -> State:
    """Deal a game: shuffled decks, secret Stacks (random unless given), hands, and two Hidden
    Traits each ("Have each player choose one of them": the ``traits`` phase; until then
    ``traits`` holds the first dealt and ``discarded_traits`` the second).

    ``stacks[p][j]`` lists Sighting ids (indices into the Cryptid's Sightings) top first.
    """
    n = len(players)
    allowed = player_counts(dict(rulings or {}).get(rp.PLAYER_COUNT.id, "two-to-six"))
    if n not in allowed:
        raise IllegalMove(
            f"{n} players is not a legal player count under {rp.PLAYER_COUNT.id}="
            f"{dict(rulings or {}).get(rp.PLAYER_COUNT.id)} ({allowed[0]}-{allowed[-1]})"
        )
    indices = tuple(game.cryptid(c) for c in cryptids)
    if stacks is None:
        stacks = tuple(_deal_stacks(_shuffled(tuple(range(9)), seed, 100 + p)) for p in range(n))
    traits = _shuffled(tuple(range(len(game.traits))), seed, 1)
    chosen = tuple(traits[2 * p] if 2 * p < len(traits) else 0 for p in range(n))
    other = tuple(traits[2 * p + 1] if 2 * p + 1 < len(traits) else None for p in range(n))
    deck = _shuffled(tuple(range(len(game.actions))), seed, 2)
    hands = tuple(deck[p * game.hand_size : (p + 1) * game.hand_size] for p in range(n))
    return State(
        game=game,
        rulings=tuple(sorted((rulings or {}).items())),
        players=players,
        cryptids=indices,
        first=first,
        round=0,
        phase="traits",
        turn=0,
        sites=tuple(s.humans for s in game.sites),
        rest=game.rest_area,
        spots=tuple((ON_STACK,) * STACKS for _ in range(n)),
        placed=tuple((False,) * STACKS for _ in range(n)),
        stacks=stacks,
        revealed=((),) * n,
        myth=(game.start_myth,) * n,
        traits=chosen,
        discarded_traits=other,
        hands=hands,
        action_deck=deck[n * game.hand_size :],
        discard=(),
        event_deck=_shuffled(tuple(range(len(game.events))), seed, 3),
        current_events=(),
        power_used=(False,) * n,
        encounter=None,
        encounters=(),
        returned=((),) * n,
        tied=(),
        encountered=None,
        snapshot=(),
        seed=seed,
        shuffles=4,
        stuck=(),
    )


def _deal_stacks(order: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(order[j * STACK_DEPTH : (j + 1) * STACK_DEPTH] for j in range(STACKS))


# --- effects ----------------------------------------------------------------------------


def target_choices(
    effects: tuple[Effect, ...], sites: int, *, at: int | None = None
) -> tuple[tuple[int, ...], ...]:
    """Every tuple of targets for ``effects``, in a fixed order: one Site per Site the effect
    leaves to the player (``at`` is the Encounter Site, for the effects fixed there); a
    move's two Sites differ."""
    per_effect: list[list[tuple[int, ...]]] = []
    for e in effects:
        src = [at] if e.at == "encounter" else list(range(sites))
        if e.op != "move":
            per_effect.append([() if e.at == "encounter" else (a,) for a in src])
            continue
        dst = [at] if e.to == "encounter" else list(range(sites))
        per_effect.append(
            [
                (() if e.at == "encounter" else (a,)) + (() if e.to == "encounter" else (b,))
                for a in src
                for b in dst
                if a != b
            ]
        )
    return tuple(
        tuple(x for part in combo for x in part) for combo in itertools.product(*per_effect)
    )


def apply_effects(
    sites: tuple[tuple[int, int, int], ...],
    rest: tuple[int, int, int],
    effects: tuple[Effect, ...],
    targets: tuple[int, ...],
    *,
    at: int | None = None,
) -> tuple[tuple[tuple[int, int, int], ...], tuple[int, int, int]]:
    """Resolve ``effects`` in order, each as far as the Humans allow (partial resolution).
    ``targets`` gives the chosen Sites in order; ``at`` is the Encounter Site."""
    board = [list(s) for s in sites]
    pool = list(rest)
    queue = list(targets)

    def site(where: str) -> int:
        if where == "encounter":
            assert at is not None
            return at
        return queue.pop(0)

    for e in effects:
        h = e.human
        if e.op == "attract":
            dst = site(e.at)
            k = min(e.count, pool[h])
            pool[h] -= k
            board[dst][h] += k
        elif e.op == "extract":
            src = site(e.at)
            k = min(e.count, board[src][h])
            board[src][h] -= k
            pool[h] += k
        else:
            src = site(e.at)
            dst = site(e.to)
            k = min(e.count, board[src][h])
            board[src][h] -= k
            board[dst][h] += k
    return tuple(tuple(s) for s in board), tuple(pool)  # type: ignore[return-value]


# --- Dusk -------------------------------------------------------------------------------


def encounter_candidates(
    sites: tuple[tuple[int, int, int], ...],
    spots: tuple[tuple[int, ...], ...],
    reading: str = "among-hiding-spots",
) -> tuple[int, ...]:
    """The Sites tied for the Encounter; empty when there is no Encounter.

    ``among-hiding-spots``: most Humans among the Sites with a Hiding Spot.
    ``busiest-site``: the Sites with the most Humans overall that have a Hiding Spot.
    """
    occupied = sorted({s for own in spots for s in own if s >= 0})
    if not occupied:
        return ()
    pool = occupied if reading == "among-hiding-spots" else range(len(sites))
    best = max(sum(sites[s]) for s in pool)
    return tuple(s for s in occupied if sum(sites[s]) == best)


def scored_humans(state: State) -> tuple[int, int, int]:
    """The Humans a reveal scores, under ``dusk-reveal-order``."""
    assert state.encounter is not None
    if state.reading(rp.DUSK_REVEAL_ORDER.id) == "as-encountered" and state.encountered:
        return state.encountered
    return state.sites[state.encounter]


def apply_myth(myth: int, change: int, reading: str) -> int:
    """Myth after a Sighting's gain or loss under the ``myth-floor`` reading."""
    after = myth + change
    return max(0, after) if reading == "floor-at-zero" else after


# --- legal moves ------------------------------------------------------------------------


def legal_moves(state: State) -> tuple[GameMove, ...]:
    """The moves of the player to act, in a fixed order."""
    phase = state.phase
    player = state.actor()
    g = state.game
    nsites = len(state.sites)
    if player is None:
        return ()
    if phase == "traits":
        return (
            (KeepTrait(0),)
            if state.discarded_traits[player] is None
            else (
                KeepTrait(0),
                KeepTrait(1),
            )
        )
    if phase == "setup":
        return tuple(
            Place(s, t)
            for t in range(STACKS)
            if not state.placed[player][t]
            for s in legal_sites(state, player)
        )
    if phase == "dawn":
        effects = g.events[state.event_deck[0]].effect[state.dawn_step :][:1]
        return tuple(Resolve(t) for t in target_choices(effects, nsites))
    if phase == "day":
        moves: list[GameMove] = [Pass()]
        hand = state.hands[player]
        for i, card in enumerate(hand):
            for t in target_choices(g.actions[card].effect, nsites):
                moves.append(Play(i, t))
        if hand and not state.power_used[player]:
            power = g.cryptids[state.cryptids[player]].power
            for i in range(len(hand)):
                for t in target_choices(power, nsites):
                    moves.append(Power(i, t))
        return tuple(moves)
    if phase == "choose":
        return tuple(Choose(s) for s in state.tied)
    if phase == "reveal":
        sighting = _top_sighting(state, player)
        assert state.encounter is not None
        return tuple(Reveal(t) for t in target_choices(sighting.effect, nsites, at=state.encounter))
    if phase == "night-move":
        return (Stay(), *_optional_moves(state, player))
    if phase == "night-place":
        token = state.returned[player][0]
        capped = state.reading(rp.NIGHT_PLACEMENT_LIMITS.id) == "constrained"
        sites = legal_sites(
            state, player, away_from=state.encounter, capped=capped, own=_own_site_binds(state)
        )
        return tuple(Place(s, token) for s in sites) or (Stuck(),)
    if phase == "refill":
        hand = state.hands[player]
        return tuple(
            Refill(tuple(i for i in range(len(hand)) if mask >> i & 1))
            for mask in range(1 << len(hand))
        )
    raise AssertionError(phase)


def is_legal(state: State, move: GameMove) -> bool:
    """``move in legal_moves(state)``, without listing every card's targets for a Day move."""
    player = state.actor()
    if state.phase != "day" or not isinstance(move, (Play, Power)) or player is None:
        return move in legal_moves(state)
    hand = state.hands[player]
    if not 0 <= move.card < len(hand):
        return False
    if isinstance(move, Power):
        if state.power_used[player]:
            return False
        effects = state.game.cryptids[state.cryptids[player]].power
    else:
        effects = state.game.actions[hand[move.card]].effect
    return move.targets in target_choices(effects, len(state.sites))


def _optional_moves(state: State, player: int) -> tuple[Move, ...]:
    # the cap binds a move only under "constrained"; two own spots on a Site only under
    # night-own-site=binds (a move never stays where it is)
    capped = state.reading(rp.OPTIONAL_MOVE_CONSTRAINTS.id) == "constrained"
    own = _own_site_binds(state)
    out = []
    for token, site in enumerate(state.spots[player]):
        if site >= 0:
            sites = legal_sites(state, player, capped=capped, own=own)
            out += [Move(token, s) for s in sites if s != site]
    return tuple(out)


def _top_sighting(state: State, player: int):  # type: ignore[no-untyped-def]
    token = state.spots[player].index(state.encounter)
    sighting_id = state.stacks[player][token][0]
    return state.game.cryptids[state.cryptids[player]].sightings[sighting_id]


# --- step -------------------------------------------------------------------------------


def _set(items: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    return (*items[:index], value, *items[index + 1 :])


def step(state: State, move: GameMove, *, checked: bool = True) -> State:
    """The state after ``move``; :class:`IllegalMove` when it is not legal here (``checked``;
    a search stepping only moves :func:`legal_moves` listed may skip the check)."""
    if checked and not is_legal(state, move):
        raise IllegalMove(f"{move!r} is not legal in phase {state.phase} (round {state.round})")
    player = state.actor()
    assert player is not None
    g = state.game
    phase = state.phase
    if phase == "traits":
        assert isinstance(move, KeepTrait)
        if move.card == 1:
            kept, other = state.discarded_traits[player], state.traits[player]
            state = replace(
                state,
                traits=_set(state.traits, player, kept),
                discarded_traits=_set(state.discarded_traits, player, other),
            )
        turn = state.turn + 1
        return (
            replace(state, turn=turn) if turn < state.n else replace(state, phase="setup", turn=0)
        )
    if phase == "setup":
        assert isinstance(move, Place)
        state = _place(state, player, move.token, move.site)
        placed = _set(state.placed[player], move.token, True)
        state = replace(state, placed=_set(state.placed, player, placed), turn=state.turn + 1)
        if state.turn == state.n:  # a placement round is over: the First Player token passes
            state = replace(state, first=(state.first + 1) % state.n, turn=0)
        if all(all(row) for row in state.placed):
            return _start_round(state, 1)
        return state
    if phase == "dawn":
        assert isinstance(move, Resolve)
        event = state.event_deck[0]
        effects = g.events[event].effect
        line = effects[state.dawn_step : state.dawn_step + 1]
        sites, rest = apply_effects(state.sites, state.rest, line, move.targets)
        state = replace(state, sites=sites, rest=rest, dawn_step=state.dawn_step + 1)
        if state.dawn_step < len(effects):
            return state
        return replace(
            state,
            event_deck=state.event_deck[1:],
            current_events=(*state.current_events, event),
            phase="day",
            turn=0,
            dawn_step=0,
        )
    if phase == "day":
        state = _day_action(state, player, move)
        turn = state.turn + 1
        if turn == 3 * state.n:
            return _dusk(state)
        return replace(state, turn=turn)
    if phase == "choose":
        assert isinstance(move, Choose)
        return _begin_reveals(state, move.site)
    if phase == "reveal":
        assert isinstance(move, Reveal)
        return _reveal(state, player, move.targets)
    if phase == "night-move":
        if isinstance(move, Move):
            state = _place(state, player, move.token, move.site)
        return night_enter(_night_advance(state))
    if phase == "night-place":
        if isinstance(move, Stuck):
            state = replace(state, stuck=(*state.stuck, (state.round, player)))
            return night_enter(_night_advance(state))
        assert isinstance(move, Place)
        state = _place(state, player, move.token, move.site)
        state = replace(state, returned=_set(state.returned, player, state.returned[player][1:]))
        if state.returned[player]:
            return state
        return night_enter(_night_advance(state))
    if phase == "refill":
        assert isinstance(move, Refill)
        state = _refill(state, player, move.discard)
        return night_enter(_night_advance(state))
    raise AssertionError(phase)


def _place(state: State, player: int, token: int, site: int) -> State:
    return replace(state, spots=_set(state.spots, player, _set(state.spots[player], token, site)))


def _start_round(state: State, number: int) -> State:
    if number > state.game.rounds:
        return replace(state, phase="over", round=state.game.rounds, turn=0)
    return replace(
        state,
        round=number,
        phase="dawn" if state.event_deck else "day",
        turn=0,
        encounter=None,
        tied=(),
        encountered=None,
        power_used=(False,) * state.n,
    )


def _day_action(state: State, player: int, move: GameMove) -> State:
    g = state.game
    hand = state.hands[player]
    if isinstance(move, Pass):
        return state
    assert isinstance(move, (Play, Power))
    card = hand[move.card]
    effects = (
        g.actions[card].effect
        if isinstance(move, Play)
        else g.cryptids[state.cryptids[player]].power
    )
    sites, rest = apply_effects(state.sites, state.rest, effects, move.targets)
    state = replace(
        state,
        sites=sites,
        rest=rest,
        hands=_set(state.hands, player, hand[: move.card] + hand[move.card + 1 :]),
        discard=(*state.discard, card),
    )
    if isinstance(move, Power):
        state = replace(state, power_used=_set(state.power_used, player, True))
    return state


def _dusk(state: State) -> State:
    tied = encounter_candidates(state.sites, state.spots, state.reading(rp.ENCOUNTER_SCOPE.id))
    if not tied:  # no Encounter this round (twisted-cryptids/no-hiding-spot-encounter)
        return _begin_night(replace(state, encounter=None))
    if len(tied) > 1:
        return replace(state, phase="choose", tied=tied, turn=0)
    return _begin_reveals(state, tied[0])


def _begin_reveals(state: State, site: int) -> State:
    state = replace(
        state,
        encounter=site,
        tied=(),
        encounters=(*state.encounters, (state.round, site)),
        encountered=state.sites[site],
    )
    return replace(state, phase="reveal", turn=0) if state.revealers() else _begin_night(state)


def _reveal(state: State, player: int, targets: tuple[int, ...]) -> State:
    g = state.game
    site = state.encounter
    assert site is not None
    token = state.spots[player].index(site)
    stack = state.stacks[player][token]
    sighting_id = stack[0]
    sighting = g.cryptids[state.cryptids[player]].sightings[sighting_id]
    change = sighting.myth_for(scored_humans(state))
    myth = apply_myth(state.myth[player], change, state.reading(rp.MYTH_FLOOR.id))
    sites, rest = apply_effects(state.sites, state.rest, sighting.effect, targets, at=site)
    remaining = stack[1:]
    state = replace(
        state,
        myth=_set(state.myth, player, myth),
        sites=sites,
        rest=rest,
        stacks=_set(state.stacks, player, _set(state.stacks[player], token, remaining)),
        revealed=_set(
            state.revealed, player, (*state.revealed[player], (token, sighting_id, state.round))
        ),
        spots=_set(
            state.spots, player, _set(state.spots[player], token, ON_STACK if remaining else BOXED)
        ),
        returned=_set(
            state.returned,
            player,
            (*state.returned[player], token) if remaining else state.returned[player],
        ),
    )
    return state if state.revealers() else _begin_night(state)


def _begin_night(state: State) -> State:
    snapshot = state.spots if state.round == state.game.rounds else state.snapshot
    return night_enter(replace(state, phase="night-move", turn=0, snapshot=snapshot))


NIGHT_STEPS = ("night-move", "night-place", "refill")


def may_move(state: State, player: int) -> bool:
    """Whether ``player`` is offered the optional Night move: no Hiding Spot on a Stack, a
    spot in The Wilderness with somewhere to go and, under ``boxed-spot-move=no-move``, no
    spot sent to the box at this Dusk."""
    if state.returned[player] or not _optional_moves(state, player):
        return False
    if state.reading(rp.BOXED_SPOT_MOVE.id) == "no-move":
        return not boxed_this_dusk(state, player)
    return True


def boxed_this_dusk(state: State, player: int) -> bool:
    """``player`` revealed the last Sighting of a Stack this round (its spot is in the box)."""
    return any(
        rnd == state.round and state.spots[player][stack] == BOXED
        for stack, _, rnd in state.revealed[player]
    )


def night_enter(state: State) -> State:
    """Skip the Night steps that have nothing to decide for the player whose step it is
    (from ``state``, a Night step)."""
    while state.phase in NIGHT_STEPS:
        player = state.order()[state.turn]
        if state.phase == "night-move" and may_move(state, player):
            return state
        if state.phase == "night-place" and state.returned[player]:
            return state
        if state.phase == "refill":
            if state.round < state.game.rounds:
                return state
            # the last round: no refill, discard the hand
            state = replace(
                state,
                discard=(*state.discard, *state.hands[player]),
                hands=_set(state.hands, player, ()),
            )
        state = _night_advance(state)
    return state


def _night_advance(state: State) -> State:
    """The next (step, player) of the Night under ``night-order``; the next round after the
    last one."""
    step_index = NIGHT_STEPS.index(state.phase)
    turn = state.turn + 1
    if state.reading(rp.NIGHT_ORDER.id) == "each-step":
        if turn < state.n:
            return replace(state, turn=turn)
        if step_index + 1 < len(NIGHT_STEPS):
            return replace(state, phase=NIGHT_STEPS[step_index + 1], turn=0)
    else:
        if step_index + 1 < len(NIGHT_STEPS):
            return replace(state, phase=NIGHT_STEPS[step_index + 1])
        if turn < state.n:
            return replace(state, phase=NIGHT_STEPS[0], turn=turn)
    state = replace(state, first=(state.first + 1) % state.n, turn=0)
    return _start_round(state, state.round + 1)


def _refill(state: State, player: int, discard: tuple[int, ...]) -> State:
    hand = state.hands[player]
    kept = tuple(c for i, c in enumerate(hand) if i not in discard)
    pile = (*state.discard, *(hand[i] for i in discard))
    deck = state.action_deck
    shuffles = state.shuffles
    while len(kept) < state.game.hand_size:
        if not deck:
            if not pile:
                break
            deck, pile, shuffles = _shuffled(pile, state.seed, shuffles), (), shuffles + 1
        kept, deck = (*kept, deck[0]), deck[1:]
    return replace(
        state,
        hands=_set(state.hands, player, kept),
        action_deck=deck,
        discard=pile,
        shuffles=shuffles,
    )


# --- the end ----------------------------------------------------------------------------


def unrevealed(state: State, player: int) -> tuple[int, ...]:
    """Sighting ids still in ``player``'s Stacks."""
    return tuple(s for stack in state.stacks[player] for s in stack)


def end_spots(state: State, player: int) -> tuple[int, ...]:
    """The Hiding Spots the end of the game counts (the tie-break and the Hidden Traits),
    under ``tie-break-count``: where they stand after the fifth Night, or where they stood
    when it began (Humans do not move at Night, so the Sites' Humans are the same)."""
    if state.reading(rp.TIE_BREAK_COUNT.id) == "before-final-night" and state.snapshot:
        return state.snapshot[player]
    return state.spots[player]


def trait_amount(state: State, player: int, *, spots: tuple[int, ...] | None = None) -> int:
    """How far ``player`` got on their Hidden Trait's objective."""
    g = state.game
    trait = g.traits[state.traits[player]]
    what, _, arg = trait.objective.partition(":")
    sightings = g.cryptids[state.cryptids[player]].sightings
    own = spots if spots is not None else end_spots(state, player)
    if what == "revealed":
        return sum(1 for _, s, _ in state.revealed[player] if sightings[s].kind == arg)
    if what == "hidden":
        return sum(1 for s in unrevealed(state, player) if sightings[s].kind == arg)
    if what == "humans":
        from ruleslawyer.models.twisted_cryptids.game import HUMANS

        h = HUMANS.index(arg)
        return sum(state.sites[s][h] for s in own if s >= 0)
    return sum(1 for s in own if s >= 0)


def final_scores(state: State) -> tuple[int, ...]:
    """Myth + 7 per unrevealed Real Deal + the Hidden Trait bonus, per player."""
    g = state.game
    out = []
    for p in range(state.n):
        sightings = g.cryptids[state.cryptids[p]].sightings
        deals = sum(1 for s in unrevealed(state, p) if sightings[s].kind == g.real_deal)
        bonus = g.traits[state.traits[p]].score(trait_amount(state, p))
        out.append(state.myth[p] + g.real_deal_bonus * deals + bonus)
    return tuple(out)


def tie_break_humans(state: State, player: int) -> int:
    """Humans on the Sites where ``player`` has Hiding Spots, under ``tie-break-count``."""
    return sum(state.humans_at(s) for s in end_spots(state, player) if s >= 0)


def winners(state: State) -> tuple[int, ...]:
    """The winner, or the players still tied after the tie-break (all of them legends)."""
    scores = final_scores(state)
    best = max(scores)
    tied = [p for p in range(state.n) if scores[p] == best]
    if len(tied) == 1:
        return tuple(tied)
    tally = {p: tie_break_humans(state, p) for p in tied}
    most = max(tally.values())
    return tuple(p for p in tied if tally[p] == most)


def play_random(state: State, rng: random.Random, *, max_moves: int = 10_000) -> State:
    """Play uniformly random legal moves to the end (for simulations and records)."""
    for _ in range(max_moves):
        moves = legal_moves(state)
        if not moves:
            return state
        state = step(state, rng.choice(moves))
    return state


def describe(state: State, move: GameMove) -> str:
    """A one-line account of ``move`` by the player to act in ``state``."""
    player = state.actor()
    who = state.players[player] if player is not None else "nobody"
    names = [s.name for s in state.game.sites]
    where = ", ".join(names[t] for t in getattr(move, "targets", ()))
    on = f" on {where}" if where else ""
    if isinstance(move, KeepTrait):
        kept = state.discarded_traits[player or 0] if move.card else state.traits[player or 0]
        return f"{who} keeps Hidden Trait {state.game.traits[kept or 0].name}"
    if isinstance(move, Place):
        return f"{who} places Hiding Spot {move.token + 1} on {names[move.site]}"
    if isinstance(move, Resolve):
        event = state.game.events[state.event_deck[0]]
        line = f" (effect {state.dawn_step + 1})" if len(event.effect) > 1 else ""
        return f"{who} resolves Event {event.name}{line}{on}"
    if isinstance(move, Play):
        return f"{who} plays {state.game.actions[state.hands[player or 0][move.card]].name}{on}"
    if isinstance(move, Power):
        return f"{who} uses their Cryptid Power{on}"
    if isinstance(move, Choose):
        return f"{who} chooses {names[move.site]} for the Encounter"
    if isinstance(move, Reveal):
        return f"{who} reveals at {names[state.encounter or 0]}{on}"
    if isinstance(move, Move):
        return f"{who} moves Hiding Spot {move.token + 1} to {names[move.site]}"
    if isinstance(move, Refill):
        return f"{who} discards {len(move.discard)} and draws up"
    return f"{who}: {type(move).__name__.lower()}"
