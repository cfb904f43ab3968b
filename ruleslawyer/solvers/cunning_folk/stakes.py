"""What answering a Cunning Folk claim does to the game: each branch won, lost or open.

The rulebook's ends: "A player also wins when everyone else is ostracized", and an
elder run that identifies every opposing card wins. A suspected card is harmless
until the second: "If they already have a suspected card, then the card is flipped
to the ostracized side and she or she is out of the game." So the same answer can
win the game at once (the last opponent ostracised), lose it (the challenger
ostracised, or the claimant's elder run winning), or leave it going.

:func:`claim_branches` lists, for challenge and accept, every branch with its exact
probability and its outcome for the advised player, under :data:`GAME_UTILITY`.
It works from figures the caller has: the chance the claim is true and the elder
run's win chances (the planner's, over the advised player's worlds).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

WIN, LOSS, OPEN = "win", "loss", "open"
SCORE = {WIN: 1, LOSS: -1, OPEN: 0}

GAME_UTILITY = (
    "+1 you win (you are the only player left, every other ostracised), -1 you lose "
    "(you are ostracised: out of the game; or the claimant's elder run identifies every "
    "opposing card and wins), 0 the game goes on (whoever holds suspected cards); the "
    "expected game utility is P(win) - P(loss) over the branches listed; later turns are "
    "not searched; you are the only challenger, the others accept; a failed elder run where "
    "a reading in force lets the runner avoid its suspected card (may-decline, may-stop, "
    "face-down-only) or, with the scoundrels rule, may end in a declaration an opponent "
    "refutes (who then wins) is not valued: counted 0; ties between challenge and accept "
    "are broken by the suspected-card utility"
)


@dataclass(frozen=True)
class Branch:
    """One way the answer can go: its exact probability, what happens and its outcome."""

    probability: Fraction
    text: str
    outcome: str  # WIN, LOSS or OPEN, for the advised player


@dataclass(frozen=True)
class Table:
    """The public facts the branches depend on."""

    me: str
    claimant: str
    my_marks: int  # suspected cards in front of me now (0 or 1)
    claimant_marks: int
    players_left: int  # players not ostracised, me and the claimant included
    role: str
    action: str  # what the claim earns, in words
    penalised: bool  # a wrong answer costs a suspected card (villager-challenge reading)
    elder: bool  # the claim earns an elder run
    run_penalty: str | None  # None: a failed run costs the claimant a card; else why not


def _penalty(table: Table, mine: bool) -> tuple[str, str]:
    """A suspected card for me (``mine``) or the claimant: its words and outcome."""
    marks = table.my_marks if mine else table.claimant_marks
    who = "you" if mine else table.claimant
    takes = "take" if mine else "takes"
    if marks == 0:
        return f"{who} {takes} a suspected card (the first)", OPEN
    text = f"{who} {takes} a second suspected card and {'are' if mine else 'is'} ostracised"
    if mine:
        if table.players_left == 2:
            return f"{text}; {table.claimant} is the only player left and wins", LOSS
        return f"{text} (out of the game)", LOSS
    if table.players_left == 2:
        return f"{text}; you are the only player left and win", WIN
    return f"{text}; {table.players_left - 1} players remain", OPEN


def _run(table: Table, mass: Fraction, wins: Fraction, head: str) -> list[Branch]:
    """The claimant's elder run, reached with probability ``mass``, winning ``wins`` of it."""
    fails, outcome = f"{table.claimant}'s {table.role} run fails: ", OPEN
    if table.run_penalty is None:
        text, outcome = _penalty(table, mine=False)
        fails += text
    else:
        fails += f"not valued, counted 0 as if the game went on ({table.run_penalty})"
    return [
        Branch(mass * wins, f"{head}{table.claimant}'s {table.role} run wins", LOSS),
        Branch(mass * (1 - wins), head + fails, outcome),
    ]


def claim_branches(
    table: Table, p_true: Fraction, accept_wins: Fraction, challenge_wins: Fraction
) -> dict[str, list[Branch]]:
    """Challenge and accept, each as its branches with positive probability.

    ``accept_wins``: the chance the claimant's run wins when nobody challenges;
    ``challenge_wins``: the chance it wins given the claim is true and its card face up.
    Both are ignored unless the claim earns an elder run.
    """
    challenge: list[Branch] = []
    if table.penalised:
        text, outcome = _penalty(table, mine=False)
        challenge.append(Branch(1 - p_true, f"bluff caught: {text}", outcome))
    else:
        challenge.append(
            Branch(1 - p_true, "not true: nobody takes a suspected card (no-penalty)", OPEN)
        )
    head, mine = "true: nobody takes a suspected card (no-penalty); ", OPEN
    if table.penalised:
        text, mine = _penalty(table, mine=True)
        head = f"true: {text}; "
    if mine == LOSS:
        challenge.append(Branch(p_true, head.removesuffix("; "), LOSS))
    elif table.elder:
        challenge += _run(table, p_true, challenge_wins, head)
    else:
        challenge.append(Branch(p_true, f"{head}{table.claimant} takes {table.action}", OPEN))
    if table.elder:
        accept = _run(table, Fraction(1), accept_wins, "")
    else:
        accept = [Branch(Fraction(1), f"{table.claimant} takes {table.action}", OPEN)]
    return {
        "challenge": [b for b in challenge if b.probability],
        "accept": [b for b in accept if b.probability],
    }


def summary(branches: list[Branch]) -> dict[str, Fraction]:
    """P(win), P(loss), P(open) and the expected game utility of one answer's branches."""
    chance = {
        k: sum((b.probability for b in branches if b.outcome == k), Fraction(0)) for k in SCORE
    }
    return {**chance, "utility": chance[WIN] - chance[LOSS]}
