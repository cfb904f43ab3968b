"""The Kaelyfos report's designer table: distress per behaviour card, and dead cards."""

from __future__ import annotations

from ruleslawyer.budget import Budget
from ruleslawyer.designer.checking import GameResult
from ruleslawyer.gamefiles.source import GameSource
from ruleslawyer.graphs.board import parse_board
from ruleslawyer.reports.files import Table
from ruleslawyer.solvers.kaelyfos.cards import MAX_PIECES, card_table_within, markdown


def tables(source: GameSource, result: GameResult, budget: Budget) -> Table:
    board = parse_board(source.document, source.display)
    rows, finished = card_table_within(board, result.rulings, budget, MAX_PIECES)
    return Table(markdown(rows, result.rulings, MAX_PIECES, finished), finished)
