"""Each player's information state (models/cunning_folk/knowledge.py): read off a log, the
same public part for everyone, complete for the log's own player, a stable string."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.models.cunning_folk.knowledge import knowledge, knowledge_of_all
from ruleslawyer.models.cunning_folk.play import Table, legal_moves, start, step
from ruleslawyer.models.cunning_folk.record import events_of
from ruleslawyer.models.cunning_folk.village import standard_setup
from tests.cunning_folk.helpers import log_of, random_recording

DOC = {
    "setup": "standard",
    "players": ["me", "bea", "cal"],
    "perspective": "me",
    "event": [
        {"type": "pass", "player": "me", "cell": "B2", "saw": "evil-witch"},
        {
            "type": "claim",
            "player": "bea",
            "cell": "A1",
            "role": "good-elder",
            "challenged": True,
            "revealed": "villager",
        },
        {"type": "claim", "player": "bea", "cell": "B1", "role": "evil-witch"},
        {"type": "swap", "player": "bea", "cells": ["A1", "C3"]},
        {"type": "pass", "player": "cal", "cell": "C3"},
    ],
}


def test_a_log_read_player_by_player() -> None:
    # "pick it up and look at it without showing any other players": my look at B2 is
    # mine alone; bea's look at A1 was shown to all when challenged; what she saw in B1
    # and whether her swap changed A1 and C3 over, I cannot know; cal's look at C3 neither.
    log = log_of(DOC)
    me, bea, cal = (knowledge(log, p) for p in ("me", "bea", "cal"))
    assert [(x.cell, x.saw) for x in me.looks] == [(4, "evil-witch")]
    assert [(x.cell, x.saw) for x in bea.looks] == [(0, "villager"), (3, None)]
    assert [(s.cells, s.swapped) for s in bea.swaps] == [((0, 8), None)]
    assert [(x.cell, x.saw) for x in cal.looks] == [(8, None)]
    assert me.complete and not bea.complete and not cal.complete
    assert me.public == bea.public == cal.public
    assert "evil-witch" not in " ".join(me.public[:1])  # my look is not public
    assert me.public[3] == "swap A1 C3 by bea: A1-C3 swapped or not, A1 face down, C3 face down"
    assert me.string().splitlines()[:3] == [
        "player me",
        "looked 0:B2=evil-witch",
        "swapped -",
    ]
    assert bea.string().splitlines()[1:3] == ["looked 1:A1=villager 2:B1=?", "swapped 3:A1-C3=?"]


def test_the_string_is_stable() -> None:
    first = {p: k.string() for p, k in knowledge_of_all(log_of(DOC)).items()}
    again = {p: k.string() for p, k in knowledge_of_all(log_of(DOC)).items()}
    assert first == again and len(set(first.values())) == 3


def _chairs(seed: int, n: int) -> tuple[list[list[dict]], dict]:
    """One random game logged from every chair."""
    rng = random.Random(seed)
    table = Table(standard_setup(), n)
    cards = list(standard_setup().cards)
    rng.shuffle(cards)
    state = start(table, tuple(cards))
    names = ["me", "bea", "cal", "dan"][:n]
    logs: list[list[dict]] = [[] for _ in names]
    for _ in range(rng.randint(5, 30)):
        if state.phase == "over":
            break
        move = rng.choice(legal_moves(table, state))
        after = step(table, state, move)
        for p in range(n):
            logs[p] += events_of(state, move, after, names, p)
        state = after
    return logs, {"setup": "standard", "players": names}


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.sampled_from([2, 3, 4]))
def test_every_chair_sees_the_same_public_events_and_all_of_its_own(seed: int, n: int) -> None:
    logs, head = _chairs(seed, n)
    public = None
    for p, events in enumerate(logs):
        name = head["players"][p]
        try:
            log = log_of({**head, "perspective": name, "event": events})
        except Exception:  # a game cut inside an earned action is not a legal log
            return
        mine = knowledge(log, name)
        assert mine.complete  # a log from my own chair holds everything I saw and did
        public = public or mine.public
        assert mine.public == public
        for other in head["players"]:
            theirs = knowledge(log, other)
            assert len(theirs.looks) == len(knowledge(log, other).looks)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_knowledge_never_holds_what_the_log_cannot_know(seed: int) -> None:
    recording = random_recording(seed, max_moves=30)
    log = log_of(recording.document)
    for p in log.players:
        k = knowledge(log, p)
        if p != log.perspective:
            # another player's own looks are known only where the card was shown to all
            for look in k.looks:
                if look.saw is not None:
                    assert any(look.saw in line for line in k.public)
            assert all(s.swapped is None for s in k.swaps)
