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
search and (later) the OpenSpiel game's per-player information state are built on them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import factorial
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


def public_view(state: State) -> tuple[Any, ...]:
    """What every player sees: the public fields, each reveal as (player, Stack, kind, round),
    the flipped Event being resolved at Dawn, and the sizes of the hands and the decks."""
    reveals = tuple(
        tuple((stack, kind_of(state, p, s), rnd) for stack, s, rnd in state.revealed[p])
        for p in range(state.n)
    )
    flipped = state.event_deck[0] if state.phase == "dawn" and state.event_deck else None
    return (
        *(getattr(state, f) for f in _PUBLIC),
        reveals,
        flipped,
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


def information_state(state: State, player: int) -> Information:
    return Information(player, public_view(state), private_view(state, player))


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
