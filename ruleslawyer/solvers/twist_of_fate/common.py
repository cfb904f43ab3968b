"""What the Twist of Fate solvers answer, how it is written out, and the utility they rank by.

The search covers every line of play from the position to the horizon: the end
of the current round, or the end of the game if it comes first. The paranoid
solver's fields are from the point of view of the player to move at the root
(every other player plays against them).

The outcome-ranked utility (max^n, paranoid, across round ends, over hidden
cards; the compiled kernels and the plain references alike): the game ends when
a player reaches the last Sanctuary card, and "that player wins" (Game End). So
a player's utility at the end of a line (the end of the round, or of the game if
it comes first) is its *outcome* (won: it reached the last Sanctuary; open: the
horizon came with no winner; lost: another seat won, the Monks of the 2-player
variant among them), then *tempo* (won: the fewer plies to the win the better;
lost: the more the better), then, only when open, its Sanctuary, then Luck +
Shilling. A utility is the tuple (outcome: 1 won, 0 open, -1 lost; tempo: minus
the plies to the win, or plus the plies to the loss, 0 when open; Sanctuary and
Luck + Shilling when open, else 0), which compares in that order as a tuple and
averages component by component (expected outcome, tempo, ...). Plies count
from the state valued: each ply up a line adds one (:func:`shift`); a root
move's value counts it as ply 1.

Between moves of equal utility to the mover the tie is broken against the other
players ("spiteful"), by the value vectors and never by move order: the lowest
sum of their outcome ranks, then of their open Sanctuary, then of their open
Luck + Shilling; if still equal, the lexicographically smallest tuple of their
utilities in turn order after the mover. Moves with the same value vector are
the same to every player; the first in legal-move order stands for them
(:func:`choose`). The Monks (2-player variant) are not a player: they choose
nothing and have no utility; a Monks win is a loss for both players.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ruleslawyer.models.twist_of_fate.play import FACE_UP, Move, Rules, State, count_toward_limit

Utility = tuple[Any, Any, Any, Any]  # outcome, tempo, open Sanctuary, open Luck + Shilling
Vector = tuple[Utility, ...]  # one per player, in seat order
WON, OPEN, LOST = 1, 0, -1
Exact = int | Fraction
# outcome (+1 won, 0 open, -1 lost), tempo (minus the plies to a win, plus to a loss),
# Sanctuary and Luck + Shilling when open: expected, exact
Expected = tuple[Exact, Exact, Exact, Exact]
EVector = tuple[Expected, ...]  # one per player, in seat order
MODELS = ("maxn", "paranoid")

UTILITY = (
    "outcome-ranked: outcome (won: reached the last Sanctuary, the game is over > open: "
    "the horizon came with no winner > lost: another seat won), then tempo (won: fewer "
    "plies to the win is better; lost: more plies is better), then, only when open, "
    "Sanctuary, then Luck + Shilling"
)
TIE_BREAK = (
    "max^n: each player picks the move best for itself by its utility; ties between "
    "moves of equal utility to the mover are broken against the other players: lowest "
    "sum of their outcome ranks, then of their open Sanctuary, then of their open Luck + "
    "Shilling, then the lexicographically smallest tuple of their utilities in turn "
    "order after the mover; moves with equal value vectors are equal to everyone and "
    "the first in legal-move order is shown"
)


def state_key(state: State, rules: Rules) -> tuple[Any, ...]:
    """What a state within the round is: two positions are the same state when every
    seat's Luck, Shilling, Sanctuary, hand (as a multiset) and count toward the
    six-card limit agree, with the same player to move and the same winner."""
    seats = tuple(
        (s.luck, s.shilling, s.sanctuary, s.hand, count_toward_limit(s, rules)) for s in state.seats
    )
    return (seats, state.active, state.winner)


def horizon_vector(state: State) -> Vector:
    """Every player's utility in a state where the search stops (0 plies from it)."""
    out: list[Utility] = []
    for p, s in enumerate(state.seats[: state.players]):
        if state.winner is None:
            out.append((OPEN, 0, s.sanctuary, s.luck + s.shilling))
        else:
            out.append((WON if state.winner == p else LOST, 0, 0, 0))
    return tuple(out)


def shift(vector: Vector) -> Vector:
    """A child's vector seen one ply earlier: a win one ply further off (tempo down by
    one), a loss one ply further off (tempo up by one); also for expected vectors."""
    return tuple((o, t - o, z, ls) for o, t, z, ls in vector)


def preference(vector: Vector, mover: int, model: str = "maxn", root: int = 0) -> tuple[Any, ...]:
    """How much ``mover`` likes ``vector``: larger is better. max^n: the mover's utility,
    then the spiteful tie-break; paranoid: the root player's utility, which every other
    player minimises."""
    if model == "paranoid":
        mine = vector[root]
        return mine if mover == root else tuple(-x for x in mine)
    n = len(vector)
    others = [vector[(mover + k) % n] for k in range(1, n)]
    # outcome ranks (2, 1, 0) sum as the outcomes do, up to a constant
    sums = tuple(sum(u[i] for u in others) for i in (0, 2, 3))
    return (vector[mover], tuple(-x for x in sums), tuple(tuple(-x for x in u) for u in others))


def choose(vectors: list[Vector], mover: int, model: str = "maxn", root: int = 0) -> int:
    """The index of ``mover``'s choice among ``vectors`` (the first of equal ones)."""
    keys = [preference(v, mover, model, root) for v in vectors]
    return keys.index(max(keys))


def expectation(outcomes: list[tuple[int, EVector]]) -> EVector:
    """The weighted mean of value vectors, component by component (exact); a single
    outcome is certain and stays as it is."""
    if len(outcomes) == 1:
        return outcomes[0][1]
    total = sum(w for w, _ in outcomes)

    def mean(p: int, i: int) -> Fraction:
        return Fraction(sum(w * v[p][i] for w, v in outcomes), total)

    first = outcomes[0][1]
    return tuple(tuple(mean(p, i) for i in range(len(first[p]))) for p in range(len(first)))


FIELDS = (
    "player",
    "guaranteed_sanctuary",
    "best_move",
    "reachable_max_sanctuary",
    "guaranteed_win",
    "possible_win",
    "end_states",
    "states",
    "seconds",
    "finished",
)


@dataclass(frozen=True)
class SolveResult:
    """A solver's answer. Every value but ``states``/``seconds`` is None when unfinished."""

    player: str
    guaranteed_sanctuary: int | None
    best_move: dict[str, Any] | None
    reachable_max_sanctuary: int | None
    guaranteed_win: bool | None
    possible_win: bool | None
    end_states: int | None
    states: int
    seconds: float
    finished: bool

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in FIELDS}

    def answer(self) -> dict[str, Any]:
        """Every field but the timing: what two solvers must agree on."""
        out = self.to_json()
        del out["seconds"]
        return out


def unfinished(player: str, states: int, seconds: float) -> SolveResult:
    return SolveResult(player, None, None, None, None, None, None, states, seconds, False)


def move_json(move: Move, active: int, seat_names: tuple[str, ...], deck: Any) -> dict[str, Any]:
    """A move as JSON: the card, the target's name, the play, and how it faces or adjusts."""
    out: dict[str, Any] = {"card": move.card, "target": seat_names[move.target], "play": move.play}
    if move.play == FACE_UP:
        side = deck.card(move.card).sides[move.side]
        out["side"] = move.side
        gets = "player_gets" if move.target == active else "target_gets"
        if side.overlaps:  # as printed: the net change depends on gives-takes-order
            out[gets] = {
                "gives": {"luck": side.gives[0], "shilling": side.gives[1]},
                "takes": {"luck": side.takes[0], "shilling": side.takes[1]},
            }
        else:
            out[gets] = {"luck": side.luck, "shilling": side.shilling}
    else:
        out["player_raises"] = move.player_raises
        if move.target_raises is not None:
            out["target_raises"] = move.target_raises
    return out


def render_text(result: SolveResult) -> str:
    """The ``--format text`` form of a result."""
    lines = [f"player: {result.player}"]
    for name in FIELDS[1:-1]:
        value = getattr(result, name)
        if name == "best_move" and value is not None:
            value = ", ".join(f"{k}={_show(v)}" for k, v in value.items())
        if name == "seconds":
            value = f"{value:.3f}"
        lines.append(f"{name}: {_word(value)}")
    done = "yes" if result.finished else "no (budget spent: no exact answer, values withheld)"
    lines.append(f"finished: {done}")
    return "\n".join(lines) + "\n"


def _word(value: Any) -> str:
    """A value in words: yes/no for a flag; "unknown" where an unfinished search withheld it."""
    if value is None:
        return "unknown"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _show(value: Any) -> str:
    if isinstance(value, dict) and "gives" in value:
        return f"(gives {_show(value['gives'])}, takes {_show(value['takes'])})"
    if isinstance(value, dict):
        return f"({value['luck']:+d} Luck, {value['shilling']:+d} Shilling)"
    return str(value)
