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
- free bloodsuckers stand where spawning and moving can leave them
  (:func:`standing`): on a face-up card off the Scarab (taken as reachable: they
  spawn on nests, and a face-up card may lie on some way to an explorer), or on a
  node their steps can enter under the passability readings in force, a face-down
  card under ``kaelyfos/unrevealed-passable=yes`` and the Scarab under
  ``kaelyfos/scarab-passable=yes`` (Move: "Each bloodsucker moves the amount
  indicated": the amount can run out there), never under ``=no``; and on a
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
from functools import cache
from itertools import permutations

from ruleslawyer.graphs.board import NEST_LETTERS, Board
from ruleslawyer.graphs.pathing import INF, Distances
from ruleslawyer.models.kaelyfos.move import distances_at, geometry
from ruleslawyer.models.kaelyfos.points import (
    BUILD_ON_BLOODSUCKERS,
    SCARAB_PASSABLE,
    SPAWN_INTO_TRAP,
    UNREVEALED_PASSABLE,
    in_force,
)
from ruleslawyer.models.kaelyfos.state import Card, Position, Readings

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


def target_sites(board: Board) -> tuple[str, ...]:
    """Where a bloodsucker's target can be: an explorer off the Scarab, or a trap."""
    return tuple(
        n for n in dict.fromkeys([*explorer_sites(board), *trap_sites(board)]) if n != board.scarab
    )


def first_steps(table: Distances, here: str, sites: tuple[str, ...]) -> dict[str, set[str]]:
    """For each site some distance away from ``here``: ``here``'s open exits one step nearer."""
    row = table.dist[here]
    return {
        t: {n for n in table.neighbours[here] if table.dist[n][t] == row[t] - 1}
        for t in sites
        if 0 < row[t] < INF
    }


def standing(board: Board, readings: Mapping[str, str]) -> dict[str, Distances]:
    """Every node a bloodsucker may stand on under ``readings`` (every point in force), with
    the distances its next step follows there.

    An over-approximation: a bloodsucker starts on a face-up card off the Scarab (placed
    or spawned) and each step takes it one nearer some explorer or trap site (see
    :func:`target_sites`) through the nodes the passability readings open.
    """
    return _standing(board, readings[SCARAB_PASSABLE], readings[UNREVEALED_PASSABLE])


@cache
def _standing(board: Board, scarab: str, unrevealed: str) -> dict[str, Distances]:
    geo, sites = geometry(board), target_sites(board)
    chosen = Readings({SCARAB_PASSABLE: scarab, UNREVEALED_PASSABLE: unrevealed})
    todo = [*bloodsucker_sites(board), *board.nest_sites]
    seen: dict[str, Distances] = {}
    while todo:
        here = todo.pop()
        if here in seen:
            continue
        seen[here] = table = distances_at(geo, here, chosen)
        todo.extend(set().union(*first_steps(table, here, sites).values()))
    return seen


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
    stand = standing(board, chosen)
    out += [
        f"free bloodsuckers on {n}"
        for n, _ in position.bloodsuckers
        if n not in stand or (n in trap_nodes and n not in stay_free)
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
