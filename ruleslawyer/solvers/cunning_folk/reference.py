"""The plain reference for the game stakes of ``cunning-folk advise``: brute force on the
state machine.

Every world is a deal and an outcome for each hidden swap (:func:`brute_force`, plain
replay). From each, the pending claim is played on the state machine of
:mod:`ruleslawyer.models.cunning_folk.play` (:func:`step`, its legal moves only): the
advised player answers, the others accept, and the claimant's elder run picks by a
plain expectimax over the advised player's worlds given what the run has shown (the
most likely win; a scoundrels declaration wins where no opposing card is left). Each
world's end position is then read as won, lost or open for the advised player.

Slow (every world is stepped, every pick order tried) and meant for small logs in tests
and benchmarks; it shares no code with :mod:`.cunning_folk_stakes`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction

from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.models.cunning_folk.play import (
    CHALLENGE,
    ELDER,
    OSTRACISED,
    OVER,
    State,
    Table,
    legal_moves,
    step,
)
from ruleslawyer.models.cunning_folk.village import CELL_INDEX, opposes
from ruleslawyer.solvers.cunning_folk.advise import Claim, run_failure_penalty
from ruleslawyer.solvers.cunning_folk.worlds import Odds, brute_force, face_up_after

# A world's end after the answer: its position, its weight, and the claimant's run there:
# "none" (no run), "won" or "failed".
End = tuple[State, int, str]


def reference_stakes(
    log: Log, claim: Claim, odds: Odds = (1, 1), ends: Counter[tuple[str, ...]] | None = None
) -> dict[str, dict[str, Fraction]]:
    """For challenge and accept: P(win), P(loss), P(open) for the advised player, and the
    expected game utility P(win) - P(loss). ``ends``: :func:`brute_force`'s, when made."""
    ends = brute_force(log, odds) if ends is None else ends
    table = Table(log.setup, len(log.players), log.rules)
    me = log.players.index(log.perspective or "")
    face_up = face_up_after(log)
    total = sum(ends.values())
    counted = run_failure_penalty(log) is None
    out = {}
    for answer in ("challenge", "accept"):
        answered = []
        for village, weight in ends.items():
            state = State(
                village=village,
                face_up=face_up,
                marks=log.marks_now(),
                player=log.players.index(claim.player),
                phase=CHALLENGE,
                cell=claim.cell,
                claim=claim.role,
                responder=me,
            )
            state = step(table, state, answer)
            while state.phase == CHALLENGE:  # the others accept
                state = step(table, state, "accept")
            answered.append((state, weight))
        running = [(s, w) for s, w in answered if s.phase == ELDER]
        finals: list[End] = [(s, w, "none") for s, w in answered if s.phase != ELDER]
        if running:
            finals += _best_run(table, running)[1]
        tally = dict.fromkeys(("win", "loss", "open"), Fraction(0))
        for state, weight, run in finals:
            tally[_outcome(state, me, run, counted)] += Fraction(weight, total)
        out[answer] = {**tally, "utility": tally["win"] - tally["loss"]}
    return out


def _outcome(state: State, me: int, run: str, counted: bool) -> str:
    """Won, lost or open for ``me`` at this end; a failed run under a reading that lets the
    runner avoid its suspected card counts as the game going on (the stated model)."""
    if state.marks[me] >= OSTRACISED or run == "won":
        return "loss"
    if run == "failed" and not counted:
        return "open"
    if state.phase == OVER:
        return "win" if state.winner == me else "loss"
    return "open"


def _best_run(table: Table, group: list[tuple[State, int]]) -> tuple[Fraction, list[End]]:
    """The claimant's best run over ``group`` (worlds alike in all that is public): its win
    chance and each world's end, trying every legal move at every step (the first best)."""
    mass = sum(w for _, w in group)
    best: tuple[Fraction, list[End]] | None = None
    for move in legal_moves(table, group[0][0]):
        if move == "declare":
            ends = [_declared(s, w) for s, w in group]
        elif move.startswith("pick "):
            ends = _pick(table, group, move)
        else:  # stop, decline: the run ends without a win
            ends = [(step(table, s, move), w, "failed") for s, w in group]
        value = Fraction(sum(w for _, w, run in ends if run == "won"), mass)
        if best is None or value > best[0]:
            best = (value, ends)
    assert best is not None, "an elder run with no legal move"
    return best


def _pick(table: Table, group: list[tuple[State, int]], move: str) -> list[End]:
    """A pick: the worlds split by what it shows and whether the run goes on."""
    cell = CELL_INDEX[move.split()[1]]
    seen: dict[tuple[str, str], list[tuple[State, int]]] = defaultdict(list)
    for state, weight in group:
        after = step(table, state, move)
        seen[(after.village[cell], after.phase)].append((after, weight))
    ends: list[End] = []
    for (_, phase), sub in sorted(seen.items()):
        if phase == ELDER:
            ends += _best_run(table, sub)[1]
        else:
            won = (s.phase == OVER and s.winner == s.player for s, _ in sub)
            ends += [(s, w, "won" if x else "failed") for (s, w), x in zip(sub, won, strict=True)]
    return ends


def _declared(state: State, weight: int) -> End:
    """A scoundrels declaration, valued as the elder planner states it: it stands where no
    opposing card is left face down (the opponents "may reveal one face-down card")."""
    left = [
        c
        for c, role in enumerate(state.village)
        if opposes(state.claim, role) and c not in state.picked and not state.face_up[c]
    ]
    return (state, weight, "failed" if left else "won")
