"""The Kaelyfos report's designer table: distress per behaviour card, and dead cards."""

from __future__ import annotations

from ruleslawyer.checking import GameResult
from ruleslawyer.gamefiles import GameSource
from ruleslawyer.graphs.board import parse_board
from ruleslawyer.solvers.kaelyfos.cards import MAX_PIECES, card_table, markdown


def tables(source: GameSource, result: GameResult) -> list[str]:
    board = parse_board(source.document, source.display)
    return markdown(card_table(board, result.rulings), result.rulings, MAX_PIECES)
