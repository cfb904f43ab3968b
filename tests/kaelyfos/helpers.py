"""Building positions on the built-in board for the Kaelyfos tests."""

from __future__ import annotations

from functools import cache

from ruleslawyer.graphs.board import Board
from ruleslawyer.models.kaelyfos.files import load_board
from ruleslawyer.models.kaelyfos.resolve import Card, Position, Trap

# Nests as the Quick Setup deals them in the example position.
NESTS = (("A", "vesicle-cluster"), ("B", "bony-protrusion"), ("C", "glowing-fold"))


@cache
def board() -> Board:
    return load_board("kaelyfos")[0]


def position(
    *,
    explorers: dict[str, str] | None = None,
    bloodsuckers: dict[str, int] | None = None,
    traps: tuple[Trap, ...] = (),
    spawn: tuple[str, ...] = (),
    move: int = 1,
    supply: int | None = None,
) -> Position:
    """A position on the built-in board; the supply defaults to every marker not placed."""
    b = board()
    placed = dict(bloodsuckers or {})
    on_board = sum(placed.values()) + sum(t.caught for t in traps)
    return Position(
        board=b,
        nests=NESTS,
        supply=b.supply - on_board if supply is None else supply,
        card=Card(spawn, move),
        explorers=tuple(sorted((explorers or {}).items())),
        bloodsuckers=tuple(sorted((n, c) for n, c in placed.items() if c)),
        traps=traps,
    )
