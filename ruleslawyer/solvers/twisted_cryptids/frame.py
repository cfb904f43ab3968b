"""Twisted Cryptids advice: what one advice measures (:class:`Frame`: the position, the actor,
the horizon and the score it counts) and the end-of-game scoring it reads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ruleslawyer.models.twisted_cryptids.knowledge import kind_of
from ruleslawyer.models.twisted_cryptids.play import (
    GameMove,
    Pass,
    State,
    end_spots,
    legal_moves,
    unrevealed,
)

HORIZON_PHASES = frozenset({"night-move", "night-place", "refill", "over"})
TRAIT_DEALS = 400  # Hidden Trait deals (cards ** players) the last round weighs at most


def own_day_turns(state: State, actor: int) -> int:
    """The ``actor``'s Day turns of this round still to come after the move to be made in
    ``state`` (all three from before the Day, none after it)."""
    if state.phase in ("dawn", "traits", "setup"):
        return 3 if state.phase == "dawn" else 0
    if state.phase != "day":
        return 0
    return 2 - state.turn // state.n


def leader_of(state: State, player: int) -> int:
    """The other player with the most Myth; on a tie the first of them clockwise from
    ``player``."""
    clockwise = [(player + i) % state.n for i in range(1, state.n)]
    return max(clockwise, key=lambda p: (state.myth[p], -clockwise.index(p)))


def scoring_of(state: State) -> str:
    """``final`` when ``state`` is in the last round (the horizon reaches the end-of-game
    scoring), else ``myth``."""
    return "final" if state.round == state.game.rounds else "myth"


def final_score(state: State, player: int, trait: int | None) -> int:
    """``player``'s printed end-of-game score if the game ended in ``state``: Myth + the bonus
    per unrevealed Real Deal + the bonus of Hidden Trait ``trait`` (none when ``None``)."""
    g = state.game
    sightings = g.cryptids[state.cryptids[player]].sightings
    deals = sum(1 for s in unrevealed(state, player) if sightings[s].kind == g.real_deal)
    total = state.myth[player] + g.real_deal_bonus * deals
    return total if trait is None else total + g.traits[trait].score(_amount(state, player, trait))


def _amount(state: State, player: int, trait: int) -> int:
    """How far ``player`` got on the objective of Hidden Trait ``trait``."""
    return amounts(state, player, (state.game.traits[trait].objective,))[0]


def amounts(
    state: State, player: int, objectives: Sequence[str], spots: Sequence[int] | None = None
) -> tuple[int, ...]:
    """How far ``player`` got on each Hidden Trait objective, their Hiding Spots at the end
    ``spots`` (default :func:`end_spots`)."""
    from collections import Counter

    from ruleslawyer.models.twisted_cryptids.game import HUMANS

    seen = Counter(kind_of(state, player, s) for _, s, _ in state.revealed[player])
    kept = Counter(kind_of(state, player, s) for s in unrevealed(state, player))
    own = [s for s in (end_spots(state, player) if spots is None else spots) if s >= 0]
    humans = [sum(state.sites[s][h] for s in own) for h in range(len(HUMANS))]
    out = []
    for objective in objectives:
        what, _, arg = objective.partition(":")
        if what == "revealed":
            out.append(seen[arg])
        elif what == "hidden":
            out.append(kept[arg])
        elif what == "humans":
            out.append(humans[HUMANS.index(arg)])
        else:
            out.append(len(own))
    return tuple(out)


@dataclass(frozen=True)
class Frame:
    """What one advice measures from ``root``: the ``actor``'s choices, play stopping at the
    horizon. ``later_turns``: how many of the actor's later Day turns are chosen (their
    best); the ones after pass (``None``: all). ``trait``: the actor's Hidden Trait when
    known; ``excluded``: Hidden Traits the actor knows nobody else holds."""

    root: State
    actor: int
    scoring: str
    trait: int | None = None
    excluded: tuple[int, ...] = ()
    later_turns: int | None = None

    def moves(self, state: State, player: int) -> tuple[GameMove, ...]:
        """``player``'s options in ``state``: another player's Day turn passes (their hand is
        not known); on the actor's later Day turns past ``later_turns`` they pass."""
        if state.phase == "day":
            if player != self.actor:
                return (Pass(),)
            if self.later_turns is not None:
                ahead = own_day_turns(self.root, self.actor) - own_day_turns(state, self.actor)
                if ahead > self.later_turns:
                    return (Pass(),)
        return legal_moves(state)

    @property
    def weighs_traits(self) -> bool:
        """Whether every player's Hidden Trait is a world axis (the last round, while the
        deals of them stay few: ``TRAIT_DEALS`` at most; beyond, only the actor's counts)."""
        deals = len(self.root.game.traits) ** self.root.n
        return self.scoring == "final" and deals <= TRAIT_DEALS

    def trait_of(self, player: int) -> int | None:
        """The Hidden Trait counted for ``player`` when the traits are not world axes: the
        actor's own as known; nobody else's."""
        return self.trait if player == self.actor else None

    def done(self, state: State) -> bool:
        if state.round != self.root.round or state.phase == "over":
            return True
        return self.scoring == "myth" and state.phase in HORIZON_PHASES


def frame_of(
    state: State,
    *,
    trait_known: bool = True,
    excluded: Sequence[int] | None = None,
    later_turns: int | None = None,
) -> Frame:
    """The :class:`Frame` of an advice to the player to act in ``state``: their Hidden Trait
    from ``state`` when ``trait_known``; ``excluded`` by default the one they returned to the
    box."""
    actor = state.actor()
    assert actor is not None
    if excluded is None:
        gone = state.discarded_traits[actor]
        excluded = () if gone is None else (gone,)
    trait = state.traits[actor] if trait_known else None
    return Frame(state, actor, scoring_of(state), trait, tuple(excluded), later_turns)
