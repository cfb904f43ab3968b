"""Which Kaelyfos positions a game can reach: the deck, the dealt nests, where pieces stand.

A witness is only worth showing when a game can get there. The checks build
their positions from these functions, and :func:`illegal` says what is wrong
with a position that no legal setup and play reaches:

- the card is one of the board's behaviour cards (Quick Setup: "Shuffle and
  stack the waking nightmare and bloodsucker behavior cards face-down");
- the nests are one of the deals of A, B, C onto the three nest sites ("Randomly
  place a nest token on the vesicle cluster, bony protrusion, and glowing fold.");
- explorers stand on face-up cards (the model has no rule that lets an explorer
  stand on a face-down card: the crew starts on the Scarab, "Place the crew on
  the Scarab.");
- free bloodsuckers stand on face-up cards off the Scarab (they spawn on nests
  and, under every reading, may end a move on any face-up card; under
  ``kaelyfos/unrevealed-passable=no`` they never enter a face-down one), and on a
  node with a trap only where the readings in force let one stay free there: a
  nest under ``kaelyfos/spawn-into-trap=not-caught`` (it spawned there), any
  trap's node under ``kaelyfos/build-on-bloodsuckers=not-caught`` (the trap was
  built under it); under both ``caught`` readings no free bloodsucker shares a
  trap's node (one moving onto it is "instantly trapped");
- traps stand on build sites of face-up cards off the Scarab ("If you are on a
  node with an empty build site, you may build a trap"), no more on a node than its
  build sites and no more in all than there are trap tokens, each holding 0 or 1
  bloodsuckers (a second destroys it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import permutations

from ruleslawyer.graphs.board import NEST_LETTERS, Board
from ruleslawyer.models.kaelyfos.points import BUILD_ON_BLOODSUCKERS, SPAWN_INTO_TRAP, in_force
from ruleslawyer.models.kaelyfos.state import Card, Position

EXAMPLE_CARD = Card(("C", "B", "A"), 1)  # the rulebook's example behaviour card


def deck_cards(board: Board) -> tuple[Card, ...]:
    """The distinct behaviour cards of the board's deck, in file order.

    A board with no deck gets the rulebook's example card (spawn C, B, A; move 1):
    the only card the rulebook prints.
    """
    cards = tuple(dict.fromkeys(Card(b.spawn, b.move) for b in board.behaviors))
    return cards or (EXAMPLE_CARD,)


def nest_deals(board: Board) -> tuple[tuple[tuple[str, str], ...], ...]:
    """Every deal of the nests A, B, C onto the nest sites, sorted by letter.

    The first deal gives the letters to the sites in order of their ids (never the
    board file's order).
    """
    sites = sorted(board.nest_sites)
    return tuple(
        tuple(sorted(zip(NEST_LETTERS, perm, strict=True))) for perm in permutations(sites)
    )


def explorer_sites(board: Board) -> tuple[str, ...]:
    """The face-up nodes, by id."""
    return tuple(sorted(n.id for n in board.nodes if n.revealed))


def bloodsucker_sites(board: Board) -> tuple[str, ...]:
    """The face-up nodes off the Scarab, by id."""
    return tuple(sorted(n.id for n in board.nodes if n.revealed and not n.scarab))


def trap_sites(board: Board) -> tuple[str, ...]:
    return tuple(n for n in bloodsucker_sites(board) if board.node(n).build_sites > 0)


def illegal(position: Position, readings: Mapping[str, str] | None = None) -> list[str]:
    """Why no legal setup and play reaches ``position`` under ``readings`` (the defaults
    when None; empty: nothing found wrong)."""
    chosen = in_force(dict(readings or {}))
    board = position.board
    out = []
    if position.card not in deck_cards(board):
        out.append(f"card {position.card} is not a behaviour card of the deck")
    if position.nests not in nest_deals(board):
        out.append(f"nests {dict(position.nests)} are not a deal onto the nest sites")
    where = set(explorer_sites(board))
    out += [f"explorer {e} on {n}" for e, n in position.explorers if n not in where]
    trap_nodes = {t.node for t in position.traps}
    stay_free: set[str] = set()
    if chosen[SPAWN_INTO_TRAP] == "not-caught":
        stay_free |= set(board.nest_sites)
    if chosen[BUILD_ON_BLOODSUCKERS] == "not-caught":
        stay_free |= trap_nodes
    out += [
        f"free bloodsuckers on {n}"
        for n, _ in position.bloodsuckers
        if n not in bloodsucker_sites(board) or (n in trap_nodes and n not in stay_free)
    ]
    sites = set(trap_sites(board))
    out += [f"trap on {t.node}" for t in position.traps if t.node not in sites or t.caught > 1]
    per_node = Counter(t.node for t in position.traps)
    out += [
        f"{k} traps on {n}: more than its build sites"
        for n, k in per_node.items()
        if n in sites and k > board.node(n).build_sites
    ]
    available, doppelgangers = position.tokens()
    if available < 0 or doppelgangers < 0:
        out.append(f"{len(position.traps)} traps: more than the trap tokens")
    if position.turn is not None and position.turn not in dict(position.explorers):
        out.append(f"turn of {position.turn}, not an explorer")
    if position.markers() > board.supply:
        out.append(f"{position.markers()} black markers, the board has {board.supply}")
    return out
