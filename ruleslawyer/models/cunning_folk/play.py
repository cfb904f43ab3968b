"""Cunning Folk as an immutable state machine for 2-4 players.

A turn: the player investigates a cell, then passes or alleges a role; each
other player still in the game, from the claimant's left, challenges or
accepts; a challenged card flips face up and whoever was wrong takes a
suspected card (a second one ostracises); an unchallenged claim, or a true
challenged one, takes its action (good witch: another turn; evil witch:
a hidden swap; vagrant: a public trade; elders: the identification run).

Moves are short strings (``"investigate B2"``, ``"claim evil-witch"``,
``"challenge"``, ``"swap A1 C3 swapped"``, ``"pick B3"``) produced by
:func:`legal_moves` in a fixed order, so random play and breadth-first search
can explore the game. :func:`step` is pure: it returns a new :class:`State`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from ruleslawyer.errors import IllegalMove
from ruleslawyer.findings import reading_in_force
from ruleslawyer.models.cunning_folk.village import (
    CELL_INDEX,
    CELLS,
    ELDERS,
    EVIL_WITCH,
    GOOD_WITCH,
    LIAR,
    MAX_PLAYERS,
    MIN_PLAYERS,
    POINTS,
    VAGRANT,
    VILLAGER,
    Setup,
    opposes,
)

CLEAR, SUSPECTED, OSTRACISED = 0, 1, 2

INVESTIGATE, ALLEGE, CHALLENGE = "investigate", "allege", "challenge"
SWAP, TRADE, ELDER, ANSWER, OVER = "swap", "trade", "elder", "answer", "over"


@dataclass(frozen=True)
class Rules:
    """The reading in force for each rule point that changes play."""

    multiple_challengers: str = "each-challenger"
    villager_challenge: str = "penalty-applies"
    elder_face_up_picks: str = "counts"
    liar_face_up: str = "must-claim"
    swap_face_up: str = "turn-down"
    optional_action: str = "must-act"
    elder_run_stop: str = "must-continue"
    declare_without_picks: str = "allowed"
    challenge_order: str = "from-left"

    @classmethod
    def from_rulings(cls, rulings: Mapping[str, str]) -> Rules:
        return cls(
            **{
                name: reading_in_force(POINTS[f"cunning-folk/{name.replace('_', '-')}"], rulings)
                for name in cls.__dataclass_fields__
            }
        )


@dataclass(frozen=True)
class Table:
    """What stays fixed during a game: the setup, the number of players and the rules."""

    setup: Setup
    players: int
    rules: Rules = Rules()

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"Cunning Folk is for 2-4 players, not {self.players}")

    @property
    def claimable(self) -> tuple[str, ...]:
        """Roles a player may allege: every role the setup can hold except the liar."""
        return tuple(r for r in self.setup.roles if r != LIAR)


@dataclass(frozen=True)
class State:
    """A position. ``marks[p]`` is 0 clear, 1 suspected, 2 ostracised; ``winner`` -1 while open."""

    village: tuple[str, ...]
    face_up: tuple[bool, ...]
    marks: tuple[int, ...]
    player: int = 0
    phase: str = INVESTIGATE
    cell: int = -1
    claim: str = ""
    responder: int = -1
    challengers: tuple[int, ...] = ()
    picked: tuple[int, ...] = ()
    winner: int = -1

    @property
    def actor(self) -> int:
        """The player who chooses the next move (-1 when the game is over)."""
        if self.phase == OVER:
            return -1
        return self.responder if self.phase in (CHALLENGE, ANSWER) else self.player

    def active(self) -> tuple[int, ...]:
        return tuple(p for p, m in enumerate(self.marks) if m < OSTRACISED)


def start(table: Table, village: tuple[str, ...], first: int = 0) -> State:
    """The opening position: ``village`` dealt face down, ``first`` to play."""
    if sorted(village) not in [sorted(c) for c in table.setup.compositions]:
        raise ValueError(f"{village} is not a {table.setup.name} village")
    return State(
        village=village,
        face_up=(False,) * len(CELLS),
        marks=(CLEAR,) * table.players,
        player=first,
    )


def legal_moves(table: Table, state: State) -> tuple[str, ...]:
    """Every legal move, in a fixed order."""
    phase = state.phase
    if phase == INVESTIGATE:
        return tuple(f"investigate {c}" for c in CELLS)
    if phase == ALLEGE:
        seen = state.village[state.cell]
        forced = seen == LIAR and (
            not state.face_up[state.cell] or table.rules.liar_face_up == "must-claim"
        )
        claims = tuple(f"claim {r}" for r in table.claimable)
        return claims if forced else ("pass", *claims)
    if phase == CHALLENGE:
        if table.rules.challenge_order == "first-to-speak" and not state.challengers:
            return ("accept", "challenge", *(f"first-challenge P{p + 1}" for p in _later(state)))
        return ("accept", "challenge")
    if phase == SWAP:
        swaps = tuple(
            f"swap {CELLS[i]} {CELLS[j]} {how}"
            for i in range(len(CELLS))
            for j in range(i + 1, len(CELLS))
            for how in ("same", "swapped")
        )
        return _with_decline(table, state, swaps)
    if phase == TRADE:
        trades = tuple(f"trade {c}" for i, c in enumerate(CELLS) if i != state.cell)
        return _with_decline(table, state, trades)
    if phase == ELDER:
        picks = tuple(f"pick {CELLS[i]}" for i in _pickable(table, state))
        declare = table.setup.declares and (
            state.picked or table.rules.declare_without_picks == "allowed"
        )
        stop = state.picked and table.rules.elder_run_stop == "may-stop"
        ends = ("declare",) * bool(declare) + ("stop",) * bool(stop)
        return _with_decline(table, state, (*picks, *ends))
    if phase == ANSWER:
        down = tuple(f"reveal {c}" for i, c in enumerate(CELLS) if not state.face_up[i])
        return ("no-reveal", *down)
    return ()


def _with_decline(table: Table, state: State, moves: tuple[str, ...]) -> tuple[str, ...]:
    """Under ``may-decline`` an earned action may be declined (an elder run: before any pick)."""
    if table.rules.optional_action == "may-decline" and not state.picked:
        return (*moves, "decline")
    return moves


def step(table: Table, state: State, move: str) -> State:
    """The position after ``move``; :class:`IllegalMove` if it is not legal here."""
    if move not in legal_moves(table, state):
        raise IllegalMove(f"{move!r} is not legal in phase {state.phase}")
    word, *args = move.split()
    if word == "investigate":
        return replace(state, phase=ALLEGE, cell=CELL_INDEX[args[0]])
    if word in ("pass", "decline", "stop"):
        return _next_turn(state)
    if word == "claim":
        return replace(
            state, phase=CHALLENGE, claim=args[0], responder=_left_of(state, state.player)
        )
    if word in ("accept", "challenge"):
        return _answer_challenge(table, state, word == "challenge")
    if word == "first-challenge":
        return replace(state, challengers=(int(args[0][1:]) - 1,))
    if word == "swap":
        return _swap(table, state, CELL_INDEX[args[0]], CELL_INDEX[args[1]], args[2] == "swapped")
    if word == "trade":
        return _next_turn(_exchange(state, state.cell, CELL_INDEX[args[0]], True))
    if word == "pick":
        return _pick(table, state, CELL_INDEX[args[0]])
    if word == "declare":
        return replace(state, phase=ANSWER, responder=_left_of(state, state.player))
    if word in ("reveal", "no-reveal"):
        return _answer_declaration(state, CELL_INDEX[args[0]] if args else -1)
    raise IllegalMove(f"unknown move {move!r}")  # pragma: no cover - legal_moves guards


def _left_of(state: State, player: int) -> int:
    """The next player still in the game to the left of ``player`` (may be ``player``)."""
    n = len(state.marks)
    for k in range(1, n + 1):
        p = (player + k) % n
        if state.marks[p] < OSTRACISED:
            return p
    return player


def _later(state: State) -> tuple[int, ...]:
    """The players still to answer a claim after the current responder, in turn order."""
    out = []
    p = _left_of(state, state.responder)
    while p != state.player:
        out.append(p)
        p = _left_of(state, p)
    return tuple(out)


def _next_turn(state: State, *, same_player: bool = False) -> State:
    if state.phase == OVER:
        return state
    player = state.player if same_player else _left_of(state, state.player)
    return replace(
        state,
        player=player,
        phase=INVESTIGATE,
        cell=-1,
        claim="",
        responder=-1,
        challengers=(),
        picked=(),
    )


def _penalise(state: State, players: tuple[int, ...]) -> State:
    """Each player takes a suspected card, or is ostracised; a lone survivor wins."""
    marks = list(state.marks)
    for p in players:
        marks[p] = min(OSTRACISED, marks[p] + 1)
    state = replace(state, marks=tuple(marks))
    active = state.active()
    if len(active) == 1:
        return replace(state, phase=OVER, winner=active[0])
    return state


def _flip(state: State, cell: int, up: bool) -> State:
    face_up = list(state.face_up)
    face_up[cell] = up
    return replace(state, face_up=tuple(face_up))


def _answer_challenge(table: Table, state: State, challenges: bool) -> State:
    if challenges:
        state = replace(state, challengers=(*state.challengers, state.responder))
    # A player who already challenged out of turn (first-to-speak) does not answer again.
    following = next((p for p in _later(state) if p not in state.challengers), state.player)
    if following != state.player:
        return replace(state, responder=following)
    state = replace(state, responder=-1)
    if not state.challengers:
        return _act(table, state)
    state = _flip(state, state.cell, True)
    if state.claim == VILLAGER and table.rules.villager_challenge == "no-penalty":
        return _next_turn(state)
    if state.village[state.cell] != state.claim:
        return _next_turn(_penalise(state, (state.player,)))
    wrong = state.challengers
    if table.rules.multiple_challengers == "first-challenger":
        wrong = wrong[:1]
    state = _penalise(state, wrong)
    return state if state.phase == OVER else _act(table, state)


def _act(table: Table, state: State) -> State:
    """Take the claimed role's action."""
    claim = state.claim
    if claim == GOOD_WITCH:
        return _next_turn(state, same_player=True)
    if claim == EVIL_WITCH:
        return replace(state, phase=SWAP)
    if claim == VAGRANT:
        return replace(state, phase=TRADE)
    if claim in ELDERS:
        state = replace(state, phase=ELDER, picked=())
        if _pickable(table, state) or table.setup.declares:
            return state
    return _next_turn(state)  # villager, cat (it meows), pirate; an elder with nothing to pick


def _exchange(state: State, i: int, j: int, swapped: bool, turn_down: bool = True) -> State:
    village = list(state.village)
    if swapped:
        village[i], village[j] = village[j], village[i]
    face_up = list(state.face_up)
    if turn_down:
        face_up[i] = face_up[j] = False
    return replace(state, village=tuple(village), face_up=tuple(face_up))


def _swap(table: Table, state: State, i: int, j: int, swapped: bool) -> State:
    turn_down = swapped or table.rules.swap_face_up == "turn-down"
    return _next_turn(_exchange(state, i, j, swapped, turn_down))


def _pickable(table: Table, state: State) -> tuple[int, ...]:
    face_down_only = table.rules.elder_face_up_picks == "face-down-only"
    return tuple(
        i
        for i in range(len(CELLS))
        if i not in state.picked and not (face_down_only and state.face_up[i])
    )


def _pick(table: Table, state: State, cell: int) -> State:
    state = _flip(state, cell, True)
    if not opposes(state.claim, state.village[cell]):
        return _next_turn(_penalise(state, (state.player,)))
    state = replace(state, picked=(*state.picked, cell))
    opposition = {i for i, r in enumerate(state.village) if opposes(state.claim, r)}
    if not table.setup.declares and opposition <= set(state.picked):
        return replace(state, phase=OVER, winner=state.player)
    if not _pickable(table, state) and not table.setup.declares:
        return _next_turn(state)  # nothing left to choose: the run ends without a win
    return state


def _answer_declaration(state: State, cell: int) -> State:
    """Scoundrels: an opponent may reveal one face-down card; an opposing one wins for them."""
    if cell >= 0:
        state = _flip(state, cell, True)
        if opposes(state.claim, state.village[cell]):
            return replace(state, phase=OVER, winner=state.responder)
    following = _left_of(state, state.responder)
    if following != state.player:
        return replace(state, responder=following)
    return replace(state, phase=OVER, winner=state.player, responder=-1)
