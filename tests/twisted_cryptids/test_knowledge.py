"""Twisted Cryptids per-player information state (models/twisted_cryptids/knowledge.py):
what a player sees does not change with what they cannot see, and the worlds a player cannot
tell apart are counted as a brute force over every arrangement counts them."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

from ruleslawyer.models.twisted_cryptids.game import builtin_game
from ruleslawyer.models.twisted_cryptids.knowledge import (
    Hidden,
    information_state,
    kind_of,
    public_slots,
    public_view,
    top_counts,
)
from ruleslawyer.solvers.twisted_cryptids.simulate import position

GAME = builtin_game()


def test_a_player_does_not_see_the_others_cards() -> None:
    state = position(GAME, 3, 5, 40)
    ann, bob = 0, 1
    # bob's Stacks, hand and Hidden Trait rearranged: public and ann's view unchanged
    stacks = list(state.stacks)
    stacks[bob] = tuple(reversed(stacks[bob]))
    hands = list(state.hands)
    hands[bob] = tuple(reversed(hands[bob]))
    other = replace(
        state,
        stacks=tuple(stacks),
        hands=tuple(hands),
        traits=tuple(t + (p == bob) for p, t in enumerate(state.traits)),
        action_deck=tuple(reversed(state.action_deck)),
    )
    assert public_view(other) == public_view(state)
    assert information_state(other, ann) == information_state(state, ann)
    if stacks[bob] != state.stacks[bob]:
        assert information_state(other, bob) != information_state(state, bob)


def test_top_counts_match_every_arrangement() -> None:
    state = position(GAME, 2, 7, 58)
    bob = 1 - (state.actor() or 0)
    h = public_slots(state, bob)
    # a viewer who knows one slot: the first unrevealed card of the first non-empty Stack
    known = Hidden(h.player, h.sizes, (h.free[0], *h.fixed[1:]), h.free[1:])
    for view in (h, known):
        stacks = [j for j, size in enumerate(view.sizes) if size]
        want: Counter[tuple[str, ...]] = Counter()
        kinds = {s: kind_of(state, bob, s) for s in view.free}
        for order in set(itertools.permutations(kinds[s] for s in view.free)):
            flat = iter(order)
            slots = [next(flat) if f is None else kind_of(state, bob, f) for f in view.fixed]
            tops, at = [], 0
            for size in view.sizes:
                if size:
                    tops.append(slots[at])
                at += size
            want[tuple(tops)] += 1
        assert top_counts(state, view, stacks) == dict(want)
