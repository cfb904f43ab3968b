"""Z3 placement questions for Twisted Cryptids Hiding Spots.

A board is ``x[p][s]``: player ``p`` has a Hiding Spot on Site ``s``. The
own-Site rule makes it a 0/1 matrix; the cap bounds each Site's column sum.
Each query returns a concrete board (a witness) or ``None`` when Z3 proves
the situation impossible (unsat), so a ``None`` is a finished proof.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ruleslawyer.solvers.z3util import lexmin_model

SITES = 6
TOKENS = 3


@dataclass(frozen=True)
class Board:
    """Sites per player (sorted), plus the named Sites of the question."""

    spots: tuple[tuple[int, ...], ...]
    player: int  # the player the question is about
    site: int | None = None  # the Encounter Site, or the Site the move would go to
    encounter: int | None = None  # the Encounter Site when ``site`` is a move's target

    def to_json(self) -> dict[str, Any]:
        return {
            "spots": [list(s) for s in self.spots],
            "player": self.player,
            "site": self.site,
            "encounter": self.encounter,
        }


def _matrix(n: int, prefix: str) -> list[list[Any]]:
    import z3

    return [[z3.Bool(f"{prefix}_{p}_{s}") for s in range(SITES)] for p in range(n)]


def _count(x: list[list[Any]], s: int) -> Any:
    import z3

    return z3.Sum([z3.If(row[s], 1, 0) for row in x])


def _owned(x: list[list[Any]], p: int) -> Any:
    import z3

    return z3.Sum([z3.If(v, 1, 0) for v in x[p]])


def _capped(x: list[list[Any]], cap: int | None) -> list[Any]:
    return [] if cap is None else [_count(x, s) <= cap for s in range(SITES)]


def _blocked(x: list[list[Any]], p: int, s: int, cap: int | None) -> Any:
    """Player ``p`` may not place on Site ``s``: own-Site rule or the cap."""
    import z3

    return x[p][s] if cap is None else z3.Or(x[p][s], _count(x, s) >= cap)


def _board(model: Any, x: list[list[Any]], player: int, site: int | None) -> Board:
    import z3

    spots = tuple(
        tuple(s for s in range(SITES) if z3.is_true(model.eval(x[p][s], model_completion=True)))
        for p in range(len(x))
    )
    return Board(spots, player, site)


def _solve(constraints: Sequence[Any], x: list[list[Any]], player: int, site: Any) -> Board | None:

    order = ([site] if site is not None else []) + [v for row in x for v in row]
    model = lexmin_model(constraints, order)
    if model is None:
        return None
    where = model.eval(site, model_completion=True).as_long() if site is not None else None
    return _board(model, x, player, where)


def setup_stall(n: int, cap: int | None) -> Board | None:
    """A moment of setup when the player to place has no legal Site, or None (proved none).

    In placement round ``k`` (First Player ``k``, the token passing each round)
    players before the current one in order hold ``k + 1`` spots, the rest ``k``.
    """
    for k in range(TOKENS):
        order = [(k + i) % n for i in range(n)]
        for i, current in enumerate(order):
            x = _matrix(n, f"setup{k}_{i}")
            rules = _capped(x, cap)
            for pos, p in enumerate(order):
                rules.append(_owned(x, p) == (k + 1 if pos < i else k))
            rules += [_blocked(x, current, s, cap) for s in range(SITES)]
            board = _solve(rules, x, current, None)
            if board is not None:
                return board
    return None


def relocation_anywhere(n: int, cap: int | None) -> Board | None:
    """Over-approximation: any capped board where a returned spot has no Site away from E.

    The returning player holds at most 2 other spots, the others at most 3.
    ``None`` proves the deadlock unreachable for ``n`` players.
    """
    import z3

    x = _matrix(n, "any")
    enc = z3.Int("encounter")
    rules = [*_capped(x, cap), enc >= 0, enc < SITES]
    rules.append(_owned(x, 0) <= TOKENS - 1)
    rules += [_owned(x, p) <= TOKENS for p in range(1, n)]
    for s in range(SITES):
        rules.append(z3.Implies(enc == s, z3.Not(x[0][s])))
        rules.append(z3.Or(enc == s, _blocked(x, 0, s, cap)))
    return _solve(rules, x, 0, enc)


def relocation_after_setup(
    n: int, cap: int | None, humans: Sequence[int], player: int
) -> Board | None:
    """A board reached by a legal setup where round 1's Encounter deadlocks ``player``.

    Setup leaves every player 3 spots (capped, own-Site rule). ``player`` is
    alone at the Encounter Site E, which has the most Humans among the Sites
    with a Hiding Spot (``humans`` per Site at Dusk, ties chosen by the First
    Player). After ``player`` reveals, their spot returns and no Site other than
    E is free of their spots and under the cap. The board returned is the setup.
    """
    import z3

    x = _matrix(n, "setup")
    enc = z3.Int("encounter")
    rules = [*_capped(x, cap), enc >= 0, enc < SITES]
    rules += [_owned(x, p) == TOKENS for p in range(n)]
    for s in range(SITES):
        at_e = enc == s
        rules.append(z3.Implies(at_e, z3.And(x[player][s], _count(x, s) == 1)))
        for t in range(SITES):
            rules.append(z3.Implies(z3.And(at_e, _count(x, t) > 0), humans[s] >= humans[t]))
        rules.append(z3.Or(at_e, _blocked(x, player, s, cap)))
    return _solve(rules, x, player, enc)


def move_limits_bind(n: int, cap: int | None, humans: Sequence[int]) -> Board | None:
    """After setup, player 0 stays out of round 1's Encounter and could move a spot at Night to
    a Site at the cap (legal only if the cap does not bind a move). The Encounter Site has the
    most Humans among the Sites with a spot (``humans`` per Site at Dusk); the target is not the
    Encounter Site, so revealing players leaving it do not free the target. None without a cap:
    the readings agree."""
    import z3

    if cap is None:
        return None
    x = _matrix(n, "move")
    target = z3.Int("target")
    enc = z3.Int("encounter")
    rules = [*_capped(x, cap), target >= 0, target < SITES, enc >= 0, enc < SITES, enc != target]
    rules += [_owned(x, p) == TOKENS for p in range(n)]
    for s in range(SITES):
        rules.append(z3.Implies(target == s, z3.And(z3.Not(x[0][s]), _count(x, s) >= cap)))
        rules.append(z3.Implies(enc == s, z3.And(z3.Not(x[0][s]), _count(x, s) > 0)))
        for t in range(SITES):
            rules.append(z3.Implies(z3.And(enc == s, _count(x, t) > 0), humans[s] >= humans[t]))
    model = lexmin_model(rules, [target, enc, *(v for row in x for v in row)])
    if model is None:
        return None
    board = _board(model, x, 0, model.eval(target).as_long())
    return Board(board.spots, 0, board.site, model.eval(enc).as_long())


def caps_part(n: int, low: int, high: int | None) -> Board | None:
    """A board legal under cap ``high`` (None: no cap) with a Site over cap ``low``."""
    import z3

    x = _matrix(n, "caps")
    site = z3.Int("site")
    rules = [*_capped(x, high), site >= 0, site < SITES]
    rules += [_owned(x, p) <= TOKENS for p in range(n)]
    for s in range(SITES):
        rules.append(z3.Implies(site == s, _count(x, s) > low))
    return _solve(rules, x, 0, site)


def empty_board_at_dusk(n: int, rounds: int, can_stick: bool) -> dict[str, Any] | None:
    """Can a Dusk find no Hiding Spot on the board? ``None`` proves it cannot.

    Per player by Dusk of a round <= ``rounds``: at most ``rounds - 1`` reveals
    (one Encounter a round, one spot per player per Site), a spot is boxed only
    when its Stack of 3 is empty, so boxed * 3 <= reveals; the others are on
    the board or stuck on a Stack after a deadlocked relocation. A spot sticks
    only when every other Site is full or holds the player's spots, so the
    board held spots at that Night, and nothing leaves the board between Night
    and Dusk: a stuck spot implies a spot on the board.
    """
    import z3

    reveals = [z3.Int(f"reveals_{p}") for p in range(n)]
    boxed = [z3.Int(f"boxed_{p}") for p in range(n)]
    stuck = [z3.Int(f"stuck_{p}") for p in range(n)]
    board = [z3.Int(f"board_{p}") for p in range(n)]
    rules: list[Any] = []
    for p in range(n):
        rules += [reveals[p] >= 0, reveals[p] <= rounds - 1]
        rules += [boxed[p] >= 0, 3 * boxed[p] <= reveals[p]]
        rules += [stuck[p] >= 0, board[p] >= 0, board[p] + boxed[p] + stuck[p] == TOKENS]
        if not can_stick:
            rules.append(stuck[p] == 0)
    on_board = z3.Sum(board)
    rules += [z3.Implies(z3.Sum(stuck) > 0, on_board >= 1), on_board == 0]
    model = lexmin_model(rules, [*reveals, *boxed, *stuck, *board])
    if model is None:
        return None
    return {
        "reveals": [model.eval(v).as_long() for v in reveals],
        "boxed": [model.eval(v).as_long() for v in boxed],
        "stuck": [model.eval(v).as_long() for v in stuck],
    }
