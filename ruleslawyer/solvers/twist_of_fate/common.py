"""What both Twist of Fate solvers answer, and how it is written out.

The search covers every line of play from the position to the horizon: the end
of the current round, or the end of the game if it comes first. Values are from
the point of view of the player to move at the root ("paranoid" minimax: every
other player plays against them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ruleslawyer.models.twist_of_fate.play import FACE_UP, Move

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
