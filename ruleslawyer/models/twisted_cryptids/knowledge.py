"""Twisted Cryptids: what each player knows (their information state) and the worlds they
cannot tell apart.

A player's information state is what that player has seen and done plus what is public
(:func:`information_state`):

- public (:func:`public_view`): the board (Humans on every Site and in the Rest Areas),
  every Hiding Spot, the First Player, the round, phase and turn, every Myth score, every
  Sighting revealed (who, from which Stack, in which round, and its kind: the card is face up),
  the discard pile, the flipped Events, how many cards each hand and the Action deck hold,
  which Powers were used, the Encounter, the Night's progress and the rulings in force;
- private (:func:`private_view`): the player's own Stacks (every Sighting, in order: they
  formed them), their hand, the Hidden Trait they kept and the one they returned to the box.

Nobody sees another player's Stacks, hand or Hidden Trait. The worlds a player cannot tell
apart are the arrangements of every other player's unrevealed Sightings that fit the reveals
(:func:`public_slots`, each arrangement equally likely: a fair shuffle; a record may add
Sightings the perspective knows in another player's Stack: :class:`Hidden`) and, at the end
of the game, the Hidden Traits the others may hold (:func:`trait_candidates`: any card the
player cannot rule out, no two players the same card). Beliefs follow the reveals and the
player's own cards only: nobody reads another player's cards from their choices.

Pure functions over :class:`~ruleslawyer.models.twisted_cryptids.play.State`; the advise
search and the OpenSpiel game's per-player information state
(:mod:`ruleslawyer.openspiel.twisted_cryptids`) are built on them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from math import factorial
from random import Random
from typing import Any

from ruleslawyer.models.twisted_cryptids.play import State

# State fields every player sees as they are (the rest: hidden, or public only in part)
_PUBLIC = (
    "rulings",
    "players",
    "cryptids",
    "first",
    "round",
    "phase",
    "turn",
    "sites",
    "rest",
    "spots",
    "placed",
    "myth",
    "discard",
    "current_events",
    "power_used",
    "encounter",
    "encounters",
    "returned",
    "tied",
    "encountered",
    "snapshot",
    "shuffles",
    "stuck",
    "dawn_step",
)


def kind_of(state: State, player: int, sighting: int) -> str:
    """The kind of ``player``'s Sighting ``sighting`` (an index into their Cryptid's nine)."""
    return state.game.cryptids[state.cryptids[player]].sightings[sighting].kind


def public_view(state: State, *, flipped: bool = True) -> tuple[Any, ...]:
    """What every player sees: the public fields, each reveal as (player, Stack, kind, round),
    the flipped Event being resolved at Dawn (``flipped``: the top of the Event deck is face up
    at Dawn; a game that draws it by chance says when it is not yet), and the sizes of the
    hands and the decks."""
    reveals = tuple(
        tuple((stack, kind_of(state, p, s), rnd) for stack, s, rnd in state.revealed[p])
        for p in range(state.n)
    )
    dawn = flipped and state.phase == "dawn" and state.event_deck
    return (
        *(getattr(state, f) for f in _PUBLIC),
        reveals,
        state.event_deck[0] if dawn else None,
        tuple(len(h) for h in state.hands),
        len(state.action_deck),
        len(state.event_deck),
    )


def private_view(state: State, player: int) -> tuple[Any, ...]:
    """What only ``player`` sees: their Stacks (kinds, top first), hand, kept and returned
    Hidden Traits."""
    stacks = tuple(tuple(kind_of(state, player, s) for s in st) for st in state.stacks[player])
    return (stacks, state.hands[player], state.traits[player], state.discarded_traits[player])


@dataclass(frozen=True)
class Information:
    """``player``'s information state: the public view and their own private view."""

    player: int
    public: tuple[Any, ...]
    private: tuple[Any, ...]


def information_state(state: State, player: int, *, flipped: bool = True) -> Information:
    return Information(player, public_view(state, flipped=flipped), private_view(state, player))


# --- the worlds a player cannot tell apart ----------------------------------------------


@dataclass(frozen=True)
class Hidden:
    """One player's unrevealed Stack slots as a viewer knows them, Stacks in order and each top
    first: a known Sighting id where the viewer knows it (``fixed``), else ``None``; ``free``
    holds the ids the ``None`` slots share out (every arrangement equally likely)."""

    player: int
    sizes: tuple[int, ...]
    fixed: tuple[int | None, ...]
    free: tuple[int, ...]


def public_slots(state: State, player: int) -> Hidden:
    """``player``'s unrevealed slots as anyone else knows them: the reveals only, every
    unrevealed card free."""
    ids = tuple(sorted(s for stack in state.stacks[player] for s in stack))
    sizes = tuple(len(stack) for stack in state.stacks[player])
    return Hidden(player, sizes, (None,) * len(ids), ids)


def multinomial(counts: Iterable[int]) -> int:
    """Distinct orderings of a multiset with these multiplicities (0 when one is negative)."""
    counts = list(counts)
    if any(c < 0 for c in counts):
        return 0
    out = factorial(sum(counts))
    for c in counts:
        out //= factorial(c)
    return out


def top_counts(state: State, hidden: Hidden, stacks: Sequence[int]) -> dict[tuple[str, ...], int]:
    """How many arrangements (by kind) of ``hidden`` put each tuple of kinds on top of
    ``stacks`` (each non-empty); tuples with none are left out."""
    tops = []
    at = 0
    for size in hidden.sizes:
        tops.append(at)
        at += size
    pool = Counter(kind_of(state, hidden.player, s) for s in hidden.free)
    fixed = [None if s is None else kind_of(state, hidden.player, s) for s in hidden.fixed]
    kinds = sorted(pool)
    out: dict[tuple[str, ...], int] = {}

    def walk(i: int, chosen: tuple[str, ...], left: Counter[str]) -> None:
        if i == len(stacks):
            out[chosen] = multinomial(left.values())
            return
        known = fixed[tops[stacks[i]]]
        if known is not None:
            walk(i + 1, (*chosen, known), left)
            return
        for k in kinds:
            if left[k]:
                left[k] -= 1
                walk(i + 1, (*chosen, k), left)
                left[k] += 1

    walk(0, (), Counter(pool))
    return {k: v for k, v in out.items() if v}


def trait_candidates(state: State, excluded: Iterable[int] = ()) -> tuple[int, ...]:
    """The Hidden Traits a player may hold, by name: every card of the game but ``excluded``
    (those the viewer knows are elsewhere)."""
    gone = set(excluded)
    traits = state.game.traits
    return tuple(
        sorted((t for t in range(len(traits)) if t not in gone), key=lambda t: traits[t].name)
    )


def formed_slots(state: State, player: int) -> tuple[tuple[int, int], ...]:
    """``player``'s unrevealed slots as (Stack, position as formed, 0 the top), Stacks in
    order, each top first."""
    taken = Counter(stack for stack, _, _ in state.revealed[player])
    return tuple(
        (j, taken[j] + i) for j, stack in enumerate(state.stacks[player]) for i in range(len(stack))
    )


def sample_world(
    state: State,
    viewer: int,
    rng: Random,
    *,
    known: Iterable[tuple[int, int, int]] = (),
    out_of_play: Iterable[int] = (),
) -> State:
    """A world ``viewer`` cannot tell apart from ``state``, drawn with every such world equally
    likely: the same public and private views (:func:`information_state`).

    - every other player's unrevealed Sightings shuffled over their unrevealed slots, but the
      slots the viewer knows (``known``: (player, Stack, position as formed));
    - the other players' hands and the Action deck dealt again from the cards among them
      (each hand keeps its size; the deck is left in no order: sorted);
    - the Hidden Traits the others hold (and returned to the box) dealt again from every card
      the viewer cannot rule out (not their own two, not ``out_of_play``);
    - the Event deck in no order (sorted), but the Event face up at Dawn.
    """
    fixed = set(known)
    stacks = list(state.stacks)
    for p in range(state.n):
        if p == viewer:
            continue
        slots = formed_slots(state, p)
        ids = [s for stack in state.stacks[p] for s in stack]
        free = [s for (j, d), s in zip(slots, ids, strict=True) if (p, j, d) not in fixed]
        rng.shuffle(free)
        cards = iter(free)
        filled = [
            s if (p, j, d) in fixed else next(cards) for (j, d), s in zip(slots, ids, strict=True)
        ]
        rows, at = [], 0
        for stack in state.stacks[p]:
            rows.append(tuple(filled[at : at + len(stack)]))
            at += len(stack)
        stacks[p] = tuple(rows)
    others = [p for p in range(state.n) if p != viewer]
    unseen = [c for p in others for c in state.hands[p]] + list(state.action_deck)
    rng.shuffle(unseen)
    hands = list(state.hands)
    for p in others:
        hands[p], unseen = tuple(unseen[: len(state.hands[p])]), unseen[len(state.hands[p]) :]
    own = {state.traits[viewer], state.discarded_traits[viewer], *out_of_play}
    pool = [t for t in range(len(state.game.traits)) if t not in own]
    rng.shuffle(pool)
    traits, returned = list(state.traits), list(state.discarded_traits)
    for p in others:
        traits[p] = pool.pop()
        if returned[p] is not None:
            returned[p] = pool.pop()
    events = state.event_deck
    top = 1 if state.phase == "dawn" and events else 0
    return replace(
        state,
        stacks=tuple(stacks),
        hands=tuple(hands),
        action_deck=tuple(sorted(unseen)),
        traits=tuple(traits),
        discarded_traits=tuple(returned),
        event_deck=(*events[:top], *sorted(events[top:])),
    )
