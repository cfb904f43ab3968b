"""What each Cunning Folk player knows: their own looks and swaps, and what is public.

A player's *information state* is everything that player has seen and done: every
public event (a claim and its answers, a card turned face up, a trade, the cells of a
swap), in scoundrels the card they kept and the one they set aside, the cards they looked
at themselves ("pick it up and look at it without showing
any other players") and whether their own evil-witch swaps changed the cards over ("hide
them under the table, trade them between your hands as many times as you like"). Nothing
another player saw alone is in it.

:func:`knowledge` reads it off a parsed log for any player. The log holds what its
``perspective`` saw, so another player's own looks and swaps are there with their
outcome unknown (``None``): what the perspective cannot know of them. A log written from
player ``p``'s chair (:func:`ruleslawyer.models.cunning_folk.record.events_of`) gives
``p``'s whole information state. :meth:`Knowledge.string` is its stable text form (the
same knowledge, the same string), the key an OpenSpiel ``information_state_string`` is
built from. Standard library only: no solver is needed to say who knows what.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.models.cunning_folk.ops import Event, Exchange, FaceDown, FaceUp, Is, IsNot, Op
from ruleslawyer.models.cunning_folk.village import CELLS

UNKNOWN = "?"


@dataclass(frozen=True)
class Look:
    """``player`` looked at ``cell`` at event ``event`` and saw ``saw`` (None: not known
    to whoever holds the log)."""

    event: int
    cell: int
    saw: str | None


@dataclass(frozen=True)
class Swap:
    """An evil-witch swap of ``cells`` only its player saw: ``swapped`` True (the cards
    changed places), False (left as they were) or None (not known to the log's holder)."""

    event: int
    cells: tuple[int, int]
    swapped: bool | None


@dataclass(frozen=True)
class Knowledge:
    """One player's information state after a log: public events, own looks, own swaps."""

    player: str
    public: tuple[str, ...]  # every event as every player knows it, in order
    looks: tuple[Look, ...]
    swaps: tuple[Swap, ...]
    kept: tuple[str, ...] = ()  # scoundrels: the card this player kept, when known
    discarded: tuple[str, ...] = ()  # and the one they set aside

    @property
    def complete(self) -> bool:
        """Whether every own look and swap is known (the log is this player's own)."""
        return all(x.saw is not None for x in self.looks) and all(
            s.swapped is not None for s in self.swaps
        )

    def string(self) -> str:
        """The stable text form: one line per part, every event by its index."""
        looks = " ".join(f"{x.event}:{CELLS[x.cell]}={x.saw or UNKNOWN}" for x in self.looks)
        swaps = " ".join(
            f"{s.event}:{CELLS[s.cells[0]]}-{CELLS[s.cells[1]]}="
            f"{UNKNOWN if s.swapped is None else 'swapped' if s.swapped else 'kept'}"
            for s in self.swaps
        )
        dealt = (
            [f"kept {' '.join(self.kept) or '-'} set aside {' '.join(self.discarded) or '-'}"]
            if self.kept or self.discarded
            else []
        )
        return "\n".join(
            [
                f"player {self.player}",
                *dealt,
                f"looked {looks or '-'}",
                f"swapped {swaps or '-'}",
                *(f"public {i}: {text}" for i, text in enumerate(self.public)),
            ]
        )

    def summary(self) -> str:
        """In words, for an analysis's assumptions: what this player saw alone."""
        looks = ", ".join(
            f"{CELLS[x.cell]} ({x.saw or 'unknown to the log'}, event {x.event})"
            for x in self.looks
        )
        swaps = ", ".join(
            f"{CELLS[s.cells[0]]}-{CELLS[s.cells[1]]} "
            f"({'unknown to the log' if s.swapped is None else 'swapped' if s.swapped else 'kept'}"
            f", event {s.event})"
            for s in self.swaps
        )
        parts = [f"looked at {looks}" if looks else "looked at nothing"]
        if swaps:
            parts.append(f"swapped unseen {swaps}")
        return f"{self.player}: " + "; ".join(parts)


def public_text(event: Event) -> str:
    """One event as every player knows it: what was done and what it showed to all."""
    text = event.text
    if event.player is not None and event.player not in text.split():
        text += f" by {event.player}"
    shown = ", ".join(_op_text(op) for op in event.public)
    return f"{text}: {shown}" if shown else text


def _op_text(op: Op) -> str:
    if isinstance(op, Is):
        return f"{CELLS[op.cell]} is {op.role}"
    if isinstance(op, IsNot):
        return f"{CELLS[op.cell]} is not {op.role}"
    if isinstance(op, Exchange):
        how = "exchanged" if op.known else "swapped or not"
        return f"{CELLS[op.a]}-{CELLS[op.b]} {how}"
    if isinstance(op, FaceUp):
        return f"{CELLS[op.cell]} face up"
    assert isinstance(op, FaceDown)
    return f"{CELLS[op.cell]} face down"


def look_seen(event: Event) -> str | None:
    """What the acting player saw at the event's look, when the log's holder knows it: the
    perspective's own look (its ``saw``) or a card shown to all at the same event."""
    for op in (*event.ops, *event.public):
        if isinstance(op, Is) and op.cell == event.look:
            return op.role
    return None


def swap_outcome(event: Event) -> bool | None:
    """Whether a hidden swap changed the cards over, when the log's holder knows it."""
    if event.swap is None:
        return None
    hidden = any(isinstance(op, Exchange) and not op.known for op in event.ops)
    return None if hidden else any(isinstance(op, Exchange) for op in event.ops)


def knowledge(log: Log, player: str) -> Knowledge:
    """``player``'s information state after ``log`` (their own looks and swaps unknown where
    the log's perspective could not see them)."""
    if player not in log.players:
        raise ValueError(f"{player!r} is not a player of {log.source}")
    looks: list[Look] = []
    swaps: list[Swap] = []
    for event in log.events:
        if event.player != player:
            continue
        if event.look >= 0:
            looks.append(Look(event.index, event.look, look_seen(event)))
        if event.swap is not None:
            swaps.append(Swap(event.index, event.swap, swap_outcome(event)))
    own = player == log.perspective
    return Knowledge(
        player,
        tuple(public_text(e) for e in log.events),
        tuple(looks),
        tuple(swaps),
        log.kept if own else (),
        log.discarded if own else (),
    )


def knowledge_of_all(log: Log) -> dict[str, Knowledge]:
    """Every player's information state after ``log``, in the players' order."""
    return {p: knowledge(log, p) for p in log.players}
