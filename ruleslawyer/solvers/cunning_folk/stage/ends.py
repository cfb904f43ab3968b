"""What a Cunning Folk claim leaves behind, and what that is worth to each seat.

A claim is answered (each challenger "must take a suspected card" when it is true; a
bluffer "must place a suspected card in front of yourself"; "If they already have a
suspected card, then the card is flipped to the ostracized side"), then the claimant
takes the action it earned ("If no one challenges your claim, take the action";
challenged, only a true claim acts). The game ends when one player is left or an elder
run identifies every opposing card; otherwise it goes on, valued by the continuation
table (:mod:`.goes_on.continuation`): each seat's P(win) - P(another wins) from there, by who
is in, who holds a suspected card and who moves next (the claimant again after a good
witch's "another turn immediately", else the next player in on the claimant's left).

:class:`Position` holds the public facts; :func:`answered` the suspected cards after the
answers; :func:`action_values` each seat's value after the action, given how an elder
run ends (:mod:`.elder`'s ends). Values are exact Fractions of the table's sample means.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ruleslawyer.models.cunning_folk.play import Rules
from ruleslawyer.models.cunning_folk.village import (
    CAT,
    ELDERS,
    EVIL_WITCH,
    GOOD_WITCH,
    VAGRANT,
    VILLAGER,
    Setup,
)
from ruleslawyer.solvers.cunning_folk.elder import (
    ENDS,
    EXHAUSTED,
    FAILED,
    REFUTED,
    STOPPED,
    WON,
    Stakes,
)
from ruleslawyer.solvers.cunning_folk.goes_on.continuation import Table

Values = tuple[Fraction, ...]

ACTIONS = {
    GOOD_WITCH: "another turn",
    EVIL_WITCH: "a swap of two townsfolk",
    VAGRANT: "a trade",
    CAT: "a meow (no effect)",
    ELDERS[0]: "a good-elder run",
    ELDERS[1]: "an evil-elder run",
}

END_TEXT = {
    WON: "identifies every opposing card and wins",
    FAILED: "picks a card that does not oppose: a suspected card for the runner",
    STOPPED: "stops after an opposing card (cunning-folk/elder-run-stop=may-stop)",
    EXHAUSTED: "ends without a win: nothing left it may pick, or the action declined",
    REFUTED: "declares, and an opponent reveals an opposing card (scoundrels: that "
    "opponent, the first from the runner's left, wins)",
}


@dataclass(frozen=True)
class Position:
    """The public facts a claim stage depends on."""

    players: tuple[str, ...]
    marks: tuple[int, ...]  # suspected cards now (2: ostracised)
    claimant: int
    rules: Rules
    setup: Setup
    goes_on: Table

    def left(self, marks: Sequence[int], seat: int) -> int:
        """The next seat still in on ``seat``'s left."""
        n = len(marks)
        return next((s for k in range(1, n + 1) if marks[s := (seat + k) % n] < 2), seat)

    def answerers(self) -> tuple[int, ...]:
        """The seats that answer the claim, in turn from the claimant's left."""
        n = len(self.players)
        order = [(self.claimant + k) % n for k in range(1, n)]
        return tuple(s for s in order if self.marks[s] < 2)

    def values(self, marks: Sequence[int], mover: int) -> Values:
        return self.goes_on.values(marks, mover)

    def penalised(self, role: str) -> bool:
        """Whether a wrong answer costs a suspected card (``villager-challenge``)."""
        return role != VILLAGER or self.rules.villager_challenge == "penalty-applies"


def penalise(marks: Sequence[int], seats: Sequence[int]) -> tuple[int, ...]:
    return tuple(min(2, m + (s in seats)) for s, m in enumerate(marks))


def over(marks: Sequence[int]) -> bool:
    return sum(m < 2 for m in marks) <= 1


def answered(
    pos: Position, role: str, true: bool, challengers: Sequence[int]
) -> tuple[tuple[int, ...], bool]:
    """The suspected cards after the answers, and whether the claimant takes the action."""
    if not challengers:
        return pos.marks, True
    if not pos.penalised(role):
        return pos.marks, False
    if not true:
        return penalise(pos.marks, (pos.claimant,)), False
    wrong = list(challengers)
    if pos.rules.multiple_challengers == "first-challenger":
        wrong = wrong[:1]
    return penalise(pos.marks, wrong), True


def won(n: int, winner: int) -> Values:
    return tuple(Fraction(1 if s == winner else -1) for s in range(n))


def end_values(pos: Position, marks: Sequence[int], runner: int) -> dict[str, Values]:
    """Each seat's value at each end of ``runner``'s elder run from ``marks``."""
    n = len(marks)
    after = pos.left(marks, runner)
    failed = penalise(marks, (runner,))
    return {
        WON: won(n, runner),
        FAILED: pos.values(failed, pos.left(failed, runner)),
        STOPPED: pos.values(marks, after),
        EXHAUSTED: pos.values(marks, after),
        REFUTED: won(n, after),
    }


def run_stakes(pos: Position, marks: Sequence[int], runner: int, seat: int) -> Stakes:
    """The run's ends as ``seat`` values them, with the options the rulings give the runner
    (``may-stop``: stopping after an opposing card; ``may-decline``: not running)."""
    ends = end_values(pos, marks, runner)
    stop = ends[STOPPED][seat] if pos.rules.elder_run_stop == "may-stop" else None
    decline = ends[EXHAUSTED][seat] if pos.rules.optional_action == "may-decline" else None
    return Stakes(
        win=ends[WON][seat],
        fail=ends[FAILED][seat],
        stop=stop,
        exhausted=ends[EXHAUSTED][seat],
        refuted=ends[REFUTED][seat],
        decline=decline,
    )


After = tuple[Fraction, tuple[int, ...], int, int | None]  # share, marks, mover, winner


def afters(
    pos: Position, marks: Sequence[int], role: str, acts: bool, run: Mapping[str, int] | None
) -> list[After]:
    """Where the stage leaves the game once the claim is answered (``marks``) and the
    claimant acts or not: each way with its share, the suspected cards, who moves next and
    the winner (None while the game goes on); ``run``: how an elder run ends (weights per
    end) when the claim earns one."""
    marks = tuple(marks)
    claimant = pos.claimant
    if over(marks):
        return [(Fraction(1), marks, claimant, None)]
    if acts and role in ELDERS:
        if run is None:
            raise ValueError("an elder claim that acts needs its run's ends")
        total = sum(run.values())
        after = pos.left(marks, claimant)
        failed = penalise(marks, (claimant,))
        where_ = {
            WON: (marks, after, claimant),
            FAILED: (failed, pos.left(failed, claimant), None),
            STOPPED: (marks, after, None),
            EXHAUSTED: (marks, after, None),
            REFUTED: (marks, after, after),
        }
        return [(Fraction(run[end], total), *where_[end]) for end in ENDS if run.get(end)]
    mover = claimant if acts and role == GOOD_WITCH else pos.left(marks, claimant)
    return [(Fraction(1), marks, mover, None)]


def action_values(
    pos: Position, marks: Sequence[int], role: str, acts: bool, run: Mapping[str, int] | None
) -> Values:
    """Each seat's expected value once the claim is answered (``marks``) and the claimant
    acts or not; ``run``: how an elder run ends (weights per end) when the claim earns one."""
    out = [Fraction(0)] * len(marks)
    for share, left, mover, winner in afters(pos, marks, role, acts, run):
        values = won(len(marks), winner) if winner is not None else pos.values(left, mover)
        out = [o + share * v for o, v in zip(out, values, strict=True)]
    return tuple(out)


def terms(
    pos: Position,
    marks: Sequence[int],
    role: str,
    acts: bool,
    run: Mapping[str, int] | None,
    seat: int,
) -> tuple[Fraction, dict[tuple[tuple[int, ...], int], Fraction]]:
    """``seat``'s value as a constant plus a share of each continuation value it rests on:
    keys (table state, the seat's place in it)."""
    const = Fraction(0)
    shares: dict[tuple[tuple[int, ...], int], Fraction] = {}
    for share, left, mover, winner in afters(pos, marks, role, acts, run):
        state = pos.goes_on.state(left, mover)
        if winner is not None or state is None or left[seat] >= 2:
            const += share * (
                won(len(left), winner)[seat]
                if winner is not None
                else pos.values(left, mover)[seat]
            )
            continue
        n = len(left)
        order = [p for k in range(n) if left[p := (mover + k) % n] < 2]
        key = (state, order.index(seat))
        shares[key] = shares.get(key, Fraction(0)) + share
    return const, shares


@dataclass(frozen=True)
class Leaf:
    """What a claim stage leaves: the suspected cards, whether the claimant acts, and how
    her elder run ends in the perspective's worlds (``his``) and in hers (``hers``), so
    that either side's value can be worked out again under other continuation values."""

    marks: tuple[int, ...]
    role: str
    acts: bool
    his: Mapping[str, Fraction | int] | None = None
    hers: Mapping[str, Fraction | int] | None = None

    def value(self, pos: Position, seat: int, own: bool) -> Fraction:
        """``seat``'s value here: ``own`` the claimant's run as it ends in her worlds."""
        run = self.hers if own else self.his
        return action_values(pos, self.marks, self.role, self.acts, run)[seat]

    def terms(
        self, pos: Position, seat: int, own: bool
    ) -> tuple[Fraction, dict[tuple[tuple[int, ...], int], Fraction]]:
        """``seat``'s value here as a constant and shares of continuation values."""
        run = self.hers if own else self.his
        return terms(pos, self.marks, self.role, self.acts, run, seat)


def outcome_text(pos: Position, marks: Sequence[int], before: Sequence[int], me: int = -1) -> str:
    """The suspected cards the answers gave, in words (``me``: the seat called "you")."""
    parts = []
    for s, (m, b) in enumerate(zip(marks, before, strict=True)):
        if m > b:
            who, verb = ("you", "are") if s == me else (pos.players[s], "is")
            takes = "take" if s == me else "takes"
            parts.append(
                f"{who} {verb} ostracised" if m >= 2 else f"{who} {takes} a suspected card"
            )
    left = [s for s, m in enumerate(marks) if m < 2]
    if len(left) == 1:
        who = "you are" if left[0] == me else f"{pos.players[left[0]]} is"
        parts.append(f"{who} the only player left and {'win' if left[0] == me else 'wins'}")
    return "; ".join(parts) or "nobody takes a suspected card"
