"""The Kaelyfos timeline: which behaviour cards an advance of the time marker reveals.

Bloodsuckers: "When the time marker reaches a bloodsucker (triangle) trigger token:
reveal and resolve a bloodsucker behavior card." Quick Setup: "Place the red-triangle
trigger tokens on the 3rd and 6th spaces of the timeline." The rulebook does not say
whether a marker moving past a trigger reaches it, how many cards an advance past two
triggers reveals, nor what happens when the deck is empty: three rule points
(``kaelyfos/trigger-passed``, ``two-triggers``, ``exhausted-deck``).

:func:`advance` is pure: a :class:`Timeline` and the readings in force give a
:class:`Reveal`; each revealed card is listed with the cards it could be (one
name when the deck's order is known, every reshuffled card when it is not).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ruleslawyer.models.kaelyfos.points import (
    EXHAUSTED_DECK,
    POINTS_BY_ID,
    TIMELINE_POINTS,
    TRIGGER_PASSED,
    TWO_TRIGGERS,
    in_force,
)

DEFAULT_TRIGGERS = (3, 6)  # Quick Setup: "on the 3rd and 6th spaces of the timeline"


@dataclass(frozen=True)
class Timeline:
    """The time marker's space, how far it moves now, the deck (top first), the revealed cards."""

    marker: int
    advance: int
    deck: tuple[str, ...]
    revealed: tuple[str, ...] = ()
    triggers: tuple[int, ...] = DEFAULT_TRIGGERS

    def to_json(self) -> dict[str, Any]:
        return {
            "marker": self.marker,
            "advance": self.advance,
            "deck": list(self.deck),
            "revealed": list(self.revealed),
            "triggers": list(self.triggers),
        }


@dataclass(frozen=True)
class Reveal:
    """What an advance reveals, in order: each card as the names it could be."""

    marker: int
    cards: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]  # left, top first ("?": a reshuffled card, unknown)

    def to_json(self) -> dict[str, Any]:
        return {
            "marker": self.marker,
            "cards": [list(c) for c in self.cards],
            "deck": list(self.deck),
        }


def most_revealed(marker: int, triggers: tuple[int, ...]) -> int:
    """The most behaviour cards revealed before the marker stands on ``marker``.

    A card is revealed only when the marker reaches a trigger, and no sentence makes
    it pass a trigger twice: at most one card per trigger on or before the marker.
    """
    return sum(1 for t in triggers if t <= marker)


def triggers_reached(timeline: Timeline, readings: Mapping[str, str]) -> int:
    """How many cards the advance reveals (before the deck is looked at)."""
    start, end = timeline.marker, timeline.marker + timeline.advance
    passed = [t for t in timeline.triggers if start < t <= end]
    if readings[TRIGGER_PASSED] == "landing-only":
        passed = [t for t in passed if t == end]
    if len(passed) > 1 and readings[TWO_TRIGGERS] == "once":
        return 1
    return len(passed)


def advance(timeline: Timeline, readings: Mapping[str, str]) -> Reveal:
    """Move the marker and reveal a card for each trigger it reaches (see the module doc)."""
    deck, revealed = list(timeline.deck), list(timeline.revealed)
    cards: list[tuple[str, ...]] = []
    pool: tuple[str, ...] = ()  # the reshuffled cards: which one comes next is unknown
    for _ in range(triggers_reached(timeline, readings)):
        if not deck and revealed and readings[EXHAUSTED_DECK] == "reshuffle":
            pool, deck, revealed = tuple(sorted(set(revealed))), ["?"] * len(revealed), []
        if not deck:
            continue  # no card to reveal
        card = deck.pop(0)
        cards.append(pool or (card,))
        if not pool:
            revealed.append(card)
    return Reveal(timeline.marker + timeline.advance, tuple(cards), tuple(deck))


def reveal_with_divergences(timeline: Timeline, rulings: Mapping[str, str]) -> dict[str, Any]:
    """The JSON of ``kaelyfos advance``: the reveal, and each open point's other readings."""
    chosen = in_force(dict(rulings))
    base = advance(timeline, chosen)
    divergences = []
    for point in TIMELINE_POINTS:
        if point in rulings:
            continue
        for reading in POINTS_BY_ID[point].reading_names:
            other = advance(timeline, {**chosen, point: reading})
            if other != base:
                divergences.append({"point": point, "reading": reading, "result": other.to_json()})
    return {"rulings": dict(rulings), "result": base.to_json(), "divergences": divergences}
