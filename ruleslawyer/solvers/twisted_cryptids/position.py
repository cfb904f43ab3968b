"""Twisted Cryptids positions from a record's ``[position]`` table, for ``advise``.

A player at the table can write down the public board (Humans on every Site,
where every Hiding Spot stands, the First Player, the phase and, at Dawn, the
flipped Event), every reveal so far, every player's Myth, and their own hand,
Stacks and Hidden Trait. :func:`position_state` turns that into a game
:class:`State` with the other players' unrevealed slots as :class:`Hidden`
(the Sightings the perspective knows there fixed, the rest free), so
``advise`` averages over exactly the arrangements ``stacks`` counts.

What the record does not hold is set so that it cannot matter before the
advice's horizon (this round's Dusk reveals; in the last round the end of the
game, where nobody draws either): the other players' hands are empty (the
policy passes their Day turns, and Pass is legal with any hand); the Action
deck and discard are empty (nobody draws before the Night refill, and there is
none in the last round); the Event deck holds the flipped Event only; the other
players' Hidden Traits are not counted (advise says so). Rule points take the
readings given (``rulings``), the others their default.

:func:`brute_force` is the plain reference: every ordering of each other
player's unrevealed cards over their unrevealed slots, kept when it agrees with
the known slots, one by one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ruleslawyer.errors import InputError
from ruleslawyer.models.twisted_cryptids import points as rp
from ruleslawyer.models.twisted_cryptids.game import HUMANS, STACK_DEPTH, STACKS, Game
from ruleslawyer.models.twisted_cryptids.knowledge import Hidden
from ruleslawyer.models.twisted_cryptids.play import (
    BOXED,
    ON_STACK,
    State,
    encounter_candidates,
)
from ruleslawyer.solvers.twisted_cryptids.advise import stacks_of
from ruleslawyer.solvers.twisted_cryptids.record import Record

NOT_AVERAGED = (
    "the other players' hands (not in the record: the policy passes their Day turns), the "
    "decks (nobody draws before the horizon)"
)


def _sites(record: Record, game: Game, display: str) -> tuple[tuple[int, int, int], ...]:
    pos = record.position
    assert pos is not None
    names = [s.name for s in game.sites]
    given = dict(pos.sites)
    for name, humans in pos.sites:
        if name not in names:
            raise InputError(display, f"position.sites.{name}", name, f"one of {names}")
        if len(humans) != len(HUMANS) or min(humans) < 0:
            raise InputError(
                display,
                f"position.sites.{name}",
                list(humans),
                f"{len(HUMANS)} counts ({', '.join(HUMANS)}), none negative",
            )
    missing = [n for n in names if n not in given]
    if missing:
        raise InputError(display, "position.sites", missing[0], f"every Site: {names}")
    sites = tuple(given[n] for n in names)
    totals = game.total_humans()
    for h, kind in enumerate(HUMANS):
        on_board = sum(s[h] for s in sites)
        if on_board > totals[h]:
            raise InputError(
                display, "position.sites", f"{on_board} {kind}", f"at most {totals[h]} in all"
            )
    return sites


def _spots(
    record: Record, game: Game, depth: dict[str, list[int]], display: str
) -> tuple[tuple[int, ...], ...]:
    pos = record.position
    assert pos is not None
    names = [p.name for p in record.players]
    sites = [s.name for s in game.sites]
    given = dict(pos.spots)
    for name, _ in pos.spots:
        if name not in names:
            raise InputError(display, f"position.spots.{name}", name, f"one of {names}")
    out = []
    for name in names:
        place = f"position.spots.{name}"
        if name not in given:
            raise InputError(display, "position.spots", f"no entry for {name}", "every player")
        where = given[name]
        if len(where) != STACKS:
            raise InputError(display, place, list(where), f"{STACKS} entries, Stacks 1..{STACKS}")
        row = []
        for j, w in enumerate(where):
            emptied = depth[name][j] == STACK_DEPTH
            if emptied != (w == "boxed"):
                expected = '"boxed" (its Stack is empty)' if emptied else 'a Site or "stack"'
                raise InputError(display, f"{place}[{j}]", w, expected)
            if w not in (*sites, "stack", "boxed"):
                raise InputError(display, f"{place}[{j}]", w, f'one of {sites}, "stack", "boxed"')
            if w in sites and w in where[:j]:
                raise InputError(display, f"{place}[{j}]", w, "one Hiding Spot of a player a Site")
            row.append(BOXED if w == "boxed" else ON_STACK if w == "stack" else sites.index(w))
        out.append(tuple(row))
    return tuple(out)


def position_state(
    record: Record, game: Game, display: str, rulings: Mapping[str, str] | None = None
) -> tuple[State, tuple[Hidden, ...]]:
    """The position of ``record``'s ``[position]`` table, the perspective to act, and what
    they do not see; :class:`InputError` (one line) for anything that does not fit.
    ``rulings``: readings of rule points (checked by the caller), the rest at the default."""
    from ruleslawyer.solvers.twisted_cryptids.stacks import arrangements, views

    pos = record.position
    if pos is None:
        raise InputError(display, "position", "no [position] table", "a [position] table")
    names = [p.name for p in record.players]
    n = len(names)
    me = names.index(record.perspective)
    if pos.first_player not in names:
        raise InputError(display, "position.first_player", pos.first_player, f"one of {names}")
    for view in views(record, game, display=display):  # raises at the first impossible entry
        if arrangements(view) == 0:
            raise InputError(display, "known", view.name, "known Sightings that fit the reveals")
    sites = _sites(record, game, display)
    depth = {name: [0] * STACKS for name in names}
    cryptids = tuple(game.cryptid(p.cryptid) for p in record.players)
    pools: list[dict[str, list[int]]] = []
    revealed: list[list[tuple[int, int, int]]] = [[] for _ in names]
    for p in range(n):
        pool: dict[str, list[int]] = {}
        for i, s in enumerate(game.cryptids[cryptids[p]].sightings):
            pool.setdefault(s.kind, []).append(i)
        pools.append(pool)
    for r in record.reveals:
        p = names.index(r.player)
        revealed[p].append((r.stack - 1, pools[p][r.sighting].pop(0), r.round))
        depth[r.player][r.stack - 1] += 1
    spots = _spots(record, game, depth, display)
    known = {(k.player, k.stack - 1, k.position - 1): k.sighting for k in record.known}
    stacks: list[tuple[tuple[int, ...], ...]] = []
    hidden: list[Hidden] = []
    for p, name in enumerate(names):
        slots = [(j, d) for j in range(STACKS) for d in range(depth[name][j], STACK_DEPTH)]
        fixed: list[int | None] = []
        for j, d in slots:
            kind = known.get((name, j, d))
            if kind is None and p == me:
                raise InputError(
                    display,
                    "known",
                    f"no entry for {name} stack {j + 1} position {d + 1}",
                    "every unrevealed slot of the perspective's own Stacks",
                )
            fixed.append(None if kind is None else pools[p][kind].pop(0))
        free = tuple(i for kind in sorted(pools[p]) for i in pools[p][kind])
        sizes = tuple(STACK_DEPTH - depth[name][j] for j in range(STACKS))
        h = Hidden(p, sizes, tuple(fixed), free)
        if p != me and free:
            hidden.append(h)
        stacks.append(stacks_of(h, free))
    hand = []
    actions = [a.name for a in game.actions]
    used: Counter[int] = Counter()
    for i, card in enumerate(pos.hand):
        copies = [c for c, a in enumerate(actions) if a == card and not used[c]]
        if not copies:
            raise InputError(display, f"position.hand[{i}]", card, "an Action card of the game")
        used[copies[0]] += 1
        hand.append(copies[0])
    event_deck: tuple[int, ...] = ()
    events = [e.name for e in game.events]
    if pos.phase == "dawn":
        if pos.event not in events:
            raise InputError(display, "position.event", pos.event, f"one of {sorted(set(events))}")
        event_deck = (events.index(pos.event),)
        count = len(game.events[event_deck[0]].effect)
        if pos.event_effects_done >= count:
            raise InputError(
                display, "position.event_effects_done", pos.event_effects_done, f"below {count}"
            )
    first = names.index(pos.first_player)
    order = [(first + i) % n for i in range(n)]
    state = State(
        game=game,
        rulings=tuple(sorted((rulings or {}).items())),
        players=tuple(names),
        cryptids=cryptids,
        first=first,
        round=record.rounds_played + 1,
        phase=pos.phase,
        turn=(pos.day_turn - 1) * n + order.index(me) if pos.phase == "day" else 0,
        sites=sites,
        rest=tuple(t - sum(s[h] for s in sites) for h, t in enumerate(game.total_humans())),  # type: ignore[arg-type]
        spots=spots,
        placed=((True,) * STACKS,) * n,
        stacks=tuple(stacks),
        revealed=tuple(tuple(r) for r in revealed),
        myth=tuple(p.myth for p in record.players),
        traits=tuple(
            game.trait(p.trait) if p.trait is not None and i == me else 0
            for i, p in enumerate(record.players)
        ),
        discarded_traits=(None,) * n,
        hands=tuple(tuple(hand) if p == me else () for p in range(n)),
        action_deck=(),
        discard=(),
        event_deck=event_deck,
        current_events=(),
        power_used=tuple(pos.power_used if p == me else False for p in range(n)),
        encounter=None,
        encounters=(),
        returned=tuple(tuple(t for t, s in enumerate(spots[p]) if s == ON_STACK) for p in range(n)),
        tied=(),
        encountered=None,
        snapshot=(),
        seed=0,
        shuffles=0,
        stuck=(),
        dawn_step=pos.event_effects_done if pos.phase == "dawn" else 0,
    )
    state = _phase_details(state, record, game, display)
    if state.actor() != me:
        actor = state.actor()
        raise InputError(
            display,
            "position.phase",
            f"{pos.phase} with {names[actor] if actor is not None else 'nobody'} to act",
            f"a position where {record.perspective} (the perspective) is to act",
        )
    return state, tuple(hidden)


def _phase_details(state: State, record: Record, game: Game, display: str) -> State:
    pos = record.position
    assert pos is not None
    sites = [s.name for s in game.sites]
    if pos.phase == "choose":
        tied = encounter_candidates(state.sites, state.spots)
        if len(tied) < 2:
            raise InputError(
                display, "position.phase", "choose", "Sites tied for the Encounter (none are)"
            )
        return replace(state, tied=tied, turn=0)
    if pos.phase == "reveal":
        if pos.encounter not in sites:
            raise InputError(display, "position.encounter", pos.encounter, f"one of {sites}")
        site = sites.index(pos.encounter)
        state = replace(state, encounter=site, encountered=state.sites[site])
        if not state.revealers():
            raise InputError(
                display, "position.encounter", pos.encounter, "a Site with a Hiding Spot on it"
            )
        if not any(r == state.round for own in state.revealed for _, _, r in own):
            # nobody has revealed yet (a reveal's effect may move Humans): the Encounter is
            # where the rules hold it, the most Humans among the Sites with a Hiding Spot
            scope = state.reading(rp.ENCOUNTER_SCOPE.id)
            tied = [sites[t] for t in encounter_candidates(state.sites, state.spots, scope)]
            if pos.encounter not in tied:
                humans = sum(state.sites[site])
                raise InputError(
                    display, "position.encounter", f"{pos.encounter} ({humans} Humans)",
                    f"a Site the Encounter is held at: {' or '.join(tied)}, the most Humans "
                    "among the Sites with a Hiding Spot",
                )  # fmt: skip
    return state


def trait_known(record: Record) -> bool:
    """Whether the record names the perspective's own Hidden Trait."""
    return next(p for p in record.players if p.name == record.perspective).trait is not None


def brute_force(
    record: Record,
    game: Game,
    display: str = "record",
    rulings: Mapping[str, str] | None = None,
    later_turns: int | None = None,
) -> dict[str, Any]:
    """Reference: per move (described), the actor's mean figures, every world of every
    player's unrevealed cards played on its own, the actor's weights from the known slots
    (``later_turns`` as ``advise`` takes it)."""
    from ruleslawyer.solvers.twisted_cryptids.reference import plain_means

    state, hidden = position_state(record, game, display, rulings)
    return plain_means(
        state,
        hidden=hidden,
        trait_known=trait_known(record),
        excluded=excluded_traits(record, game),
        later_turns=later_turns,
    )


def excluded_traits(record: Record, game: Game) -> tuple[int, ...]:
    """The Hidden Traits the record says are out of play (ids)."""
    return tuple(sorted(game.trait(name) for name in record.excluded_traits))
