"""The plain reference for a pending claim, each player deciding from what they know:
brute force on the state machine, standard library only.

Written from the rulebook, sharing no code with the fast solvers (:mod:`.stage.views`,
:mod:`.elder`, :mod:`.stage.ends`, :mod:`.stage.claim`):

- a world is a deal and an outcome for every hidden swap; it is replayed event by event
  ("pick it up and look at it without showing any other players": each look records the
  card there for the player who looked; a swap "the end result might be the same or the
  opposite": its outcome is known to its player alone);
- the perspective's worlds are those agreeing with everything the log's perspective saw;
  the claimant's worlds, for each thing she may have seen, those agreeing with the public
  events and her own looks and swaps alone (the setup's public prior);
- the claim is answered on the state machine (:func:`~ruleslawyer.models.cunning_folk.play.step`):
  the perspective challenges or accepts, the others accept; an elder run the claim earns
  is the claimant's, each step chosen by a plain expectimax over her own worlds among the
  state machine's legal moves (equal best moves taken with equal chance), valued by her
  own seat's value; followed in each of the perspective's worlds;
- a finished game is +1 for its winner and -1 for the others; a game that goes on is
  worth the continuation table's value, looked up here from the table's file.

Slow (every world is stepped, every pick tried); meant for small logs in tests.
"""

from __future__ import annotations

import functools
import itertools
import tomllib
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from importlib import resources

from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.models.cunning_folk.ops import Exchange, Is, IsNot
from ruleslawyer.models.cunning_folk.play import (
    ANSWER,
    CHALLENGE,
    ELDER,
    OVER,
    SWAP,
    TRADE,
    State,
    Table,
    legal_moves,
    step,
)
from ruleslawyer.models.cunning_folk.village import arrangements, opposes, scoundrel_setup

World = tuple[tuple[str, ...], tuple[bool, ...]]  # a deal and every hidden swap's outcome


def goes_on(marks: Sequence[int], mover: int, fill: Fraction | None = None) -> tuple[Fraction, ...]:
    """Each seat's value of a game that goes on: read from the shipped table (``fill``: a
    constant instead), the seats still in rotated to start with ``mover``."""
    n = len(marks)
    left = [p for p in range(n) if marks[p] < 2]
    if len(left) == 1:
        return tuple(Fraction(1) if p == left[0] else Fraction(-1) for p in range(n))
    order = []
    for k in range(n):
        p = (mover + k) % n
        if marks[p] < 2:
            order.append(p)
    out = [Fraction(-1)] * n
    if fill is not None:
        for p in order:
            out[p] = fill
        return tuple(out)
    row = next(r for r in _table()["state"] if r["marks"] == [marks[p] for p in order])
    decided = row["games"] - row["unended"]
    for k, p in enumerate(order):
        out[p] = Fraction(2 * row["wins"][k] - decided, row["games"])
    return tuple(out)


@functools.cache
def _table() -> dict:
    text = resources.files("ruleslawyer.data").joinpath("cunning-folk-continuation.toml")
    return tomllib.loads(text.read_text("utf-8"))


def _hidden(log: Log) -> list[int]:
    """The events whose swap only its player saw done or not."""
    return [i for i, e in enumerate(log.events) if e.swap is not None]


def replay(
    log: Log, deal: tuple[str, ...], outcomes: tuple[bool, ...], viewer: str | None
) -> tuple[tuple[str, ...], tuple] | None:
    """The village now after the log from ``deal`` with these swap outcomes, and what each
    player saw alone (per player: the card at each look, each own swap's outcome); None
    where the events ``viewer`` knows (None: the public events) do not allow it."""
    village = list(deal)
    swaps = iter(outcomes)
    seen: dict[str, list] = defaultdict(list)
    for event in log.events:
        if event.player is not None and event.look >= 0:
            seen[event.player].append(village[event.look])
        ops = event.ops if viewer == log.perspective and viewer is not None else event.public
        for op in ops:
            if isinstance(op, Is) and village[op.cell] != op.role:
                return None
            if isinstance(op, IsNot) and village[op.cell] == op.role:
                return None
            if isinstance(op, Exchange) and op.known:
                village[op.a], village[op.b] = village[op.b], village[op.a]
        if event.swap is not None:
            swapped = next(swaps)
            known = [op for op in ops if isinstance(op, Exchange)]
            if viewer == log.perspective and event.player == viewer:
                # the perspective's own swap: its ops say what happened
                if swapped != bool(known):
                    return None
            elif swapped:
                a, b = event.swap
                village[a], village[b] = village[b], village[a]
            seen[event.player or ""].append(("swap", swapped))
    return tuple(village), tuple(tuple(seen[p]) for p in log.players)


def worlds(log: Log, viewer: str | None, odds: tuple[int, int] = (1, 1)) -> list[tuple]:
    """Every world ``viewer`` (None: nobody but the public) cannot rule out: (the village now,
    what each player saw alone, the world's weight)."""
    setup = log.setup if viewer == log.perspective else _public(log)
    out = []
    hidden = _hidden(log)
    for k, cards in enumerate(setup.compositions):
        for deal in arrangements(cards):
            for outcomes in itertools.product((False, True), repeat=len(hidden)):
                found = replay(log, deal, outcomes, viewer)
                if found is None:
                    continue
                weight = setup.weight(k)
                for i, swapped in zip(hidden, outcomes, strict=True):
                    if not (viewer == log.perspective and log.events[i].player == viewer):
                        weight *= odds[0] if swapped else odds[1]
                if weight:
                    out.append((*found, weight))
    return out


def _public(log: Log):  # the setup as everyone knows it
    return scoundrel_setup(len(log.players)) if log.setup.declares else log.setup


def _declared(state: State) -> State:
    """A scoundrels declaration answered as the analyses state it: the first opponent from
    the declarer's left reveals an opposing face-down card if one is left, and wins;
    otherwise the declaration stands."""
    if state.phase != ANSWER:
        return state
    left = [
        c
        for c, r in enumerate(state.village)
        if opposes(state.claim, r) and c not in state.picked and not state.face_up[c]
    ]
    winner = state.responder if left else state.player
    return replace(state, phase=OVER, winner=winner)


def _value(state: State, seat: int, fill: Fraction | None) -> Fraction:
    state = _declared(state)
    if state.phase == OVER:
        return Fraction(1) if state.winner == seat else Fraction(-1)
    return goes_on(state.marks, state.player, fill)[seat]


def _run(
    table: Table,
    states: list[tuple[State, int]],
    runner: int,
    fill: Fraction | None,
    memo: dict,
    key: tuple,
) -> tuple[Fraction, list[str]]:
    """The runner's best value over these states (her worlds, alike in all that is public)
    and every best move: a plain expectimax on the state machine's legal moves."""
    if key in memo:
        return memo[key]
    mass = sum(w for _, w in states)
    scored: list[tuple[Fraction, str]] = []
    for move in legal_moves(table, states[0][0]):
        groups: dict[tuple, list[tuple[State, int]]] = defaultdict(list)
        for state, w in states:
            after = step(table, state, move)
            shown = tuple(
                after.village[c] if after.face_up[c] and not state.face_up[c] else ""
                for c in range(len(after.village))
            )
            groups[(shown, after.phase)].append((after, w))
        value = Fraction(0)
        for (shown, phase), sub in sorted(groups.items()):
            share = Fraction(sum(w for _, w in sub), mass)
            if phase == ELDER:
                value += share * _run(table, sub, runner, fill, memo, (*key, move, shown))[0]
            else:
                value += sum(
                    (Fraction(w, mass) * _value(s, runner, fill) for s, w in sub), Fraction(0)
                )
        scored.append((value, move))
    best = max(v for v, _ in scored)
    memo[key] = (best, [m for v, m in scored if v == best])
    return memo[key]


def _follow(
    table: Table,
    state: State,
    belief: list[tuple[State, int]],
    runner: int,
    fill: Fraction | None,
    memo: dict,
    key: tuple,
) -> list[tuple[State, Fraction]]:
    """The ends of the run from the true ``state``, the runner choosing over ``belief``:
    each end with its chance (equal best moves equally likely)."""
    _, moves = _run(table, belief, runner, fill, memo, key)
    out = []
    for move in moves:
        after = step(table, state, move)
        shown = tuple(
            after.village[c] if after.face_up[c] and not state.face_up[c] else ""
            for c in range(len(after.village))
        )
        if after.phase != ELDER:
            out.append((after, Fraction(1, len(moves))))
            continue
        rest = []
        for s, w in belief:
            a = step(table, s, move)
            seen = tuple(
                a.village[c] if a.face_up[c] and not s.face_up[c] else ""
                for c in range(len(a.village))
            )
            if seen == shown and a.phase == ELDER:
                rest.append((a, w))
        for end, p in _follow(table, after, rest, runner, fill, memo, (*key, move, shown)):
            out.append((end, p / len(moves)))
    return out


def reference_claim(
    log: Log,
    cell: int,
    role: str,
    claimant: str,
    *,
    odds: tuple[int, int] = (1, 1),
    fill: Fraction | None = None,
) -> dict[str, dict[str, Fraction]]:
    """For challenge and accept: P(win), P(loss), P(goes on) for the perspective and the
    expected value (``fill``: every game that goes on worth this, else the table's)."""
    table = Table(log.setup, len(log.players), log.rules)
    me = log.players.index(log.perspective or "")
    her = log.players.index(claimant)
    mine = worlds(log, log.perspective, odds)
    public = worlds(log, None, odds)
    total = sum(w for *_, w in mine)
    face_up = _face_up(log)
    beliefs: dict[tuple, list[tuple[tuple[str, ...], int]]] = defaultdict(list)
    for village, seen, w in public:
        beliefs[seen[her]].append((village, w))
    out = {}
    for answer in ("challenge", "accept"):
        tally = {"win": Fraction(0), "loss": Fraction(0), "open": Fraction(0)}
        value = Fraction(0)
        memo: dict[tuple, dict] = {}
        for village, seen, w in mine:
            state = _answered(table, log, village, face_up, cell, role, her, me, answer)
            ends = [(state, Fraction(1))]
            if state.phase == ELDER:
                belief = [
                    (_answered(table, log, v, face_up, cell, role, her, me, answer), n)
                    for v, n in beliefs[seen[her]]
                ]
                belief = [(s, n) for s, n in belief if s.phase == ELDER]
                run_memo = memo.setdefault(seen[her], {})
                ends = _follow(table, state, belief, her, fill, run_memo, ())
            for end, p in ends:
                share = Fraction(w, total) * p
                v = _value(end, me, fill)
                value += share * v
                end = _declared(end)
                kind = (
                    "open"
                    if end.phase != OVER and end.marks[me] < 2
                    else ("win" if end.phase == OVER and end.winner == me else "loss")
                )
                tally[kind] += share
        out[answer] = {**tally, "utility": value}
    return out


def _face_up(log: Log) -> tuple[bool, ...]:
    up = [False] * 9
    for event in log.events:
        for op in event.public:
            name = type(op).__name__
            if name == "FaceUp":
                up[op.cell] = True
            elif name == "FaceDown":
                up[op.cell] = False
    return tuple(up)


def _answered(
    table: Table,
    log: Log,
    village: tuple[str, ...],
    face_up: tuple[bool, ...],
    cell: int,
    role: str,
    her: int,
    me: int,
    answer: str,
) -> State:
    """The state after the perspective's answer, the other players accepting."""
    state = State(
        village=village,
        face_up=face_up,
        marks=log.marks_now(),
        player=her,
        phase=CHALLENGE,
        cell=cell,
        claim=role,
        responder=next(
            p
            for k in range(1, len(log.players))
            if log.marks_now()[p := (her + k) % len(log.players)] < 2
        ),
    )
    while state.phase == CHALLENGE:
        if state.marks[state.responder] >= 2:
            raise ValueError("an ostracised responder")
        move = answer if state.responder == me else "accept"
        state = step(table, state, move)
    if state.phase in (SWAP, TRADE):  # the earned swap or trade: which one is not valued
        state = step(table, state, legal_moves(table, state)[0])
    return state


def counts(items: Sequence[tuple]) -> Counter:
    out: Counter = Counter()
    for village, _, w in items:
        out[village] += w
    return out
