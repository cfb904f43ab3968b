"""Cunning Folk as the OpenSpiel game ``ruleslawyer_cunning_folk``.

Sequential, imperfect information, explicit chance. The rules are the state machine of
:mod:`ruleslawyer.models.cunning_folk.play`: every legal move it lists is an action of
the player who makes it (the look, the pass or claim, each answer, the first challenger
under ``first-to-speak``, the swap and whether it changed the cards over, the trade,
each elder pick, the declaration, stopping, declining, each answer to a declaration);
in scoundrels also which of the two dealt cards a player keeps. Chance, one card at a
time: the village shuffled into the cells A1..C3 (each role with the chance its
remaining cards give it), and in scoundrels first the two cards dealt to each player
from the shuffled pool. Seat 1 plays first ("The owner of the game takes the first
turn.").

Returns, from the game's own end (:func:`~ruleslawyer.models.cunning_folk.play.step`
names one winner: the lone player not ostracised, the elder whose run identified every
card opposing it, a scoundrels declaration that stood or the opponent who refuted it):
+1 to the winner, -1 to every other player. No rule of the game ends it with several
winners. A game still going after ``max_moves`` moves ends with no winner: 0 to every
player. Two players: zero-sum; three or four: general-sum.

Information states come from :mod:`ruleslawyer.models.cunning_folk.knowledge`: each
player's log of what they saw (:func:`~ruleslawyer.models.cunning_folk.record.events_of`
from their chair) read by :func:`~ruleslawyer.models.cunning_folk.knowledge.knowledge`,
then the turn in progress as that player sees it (the cell looked at, and the card if
it is their own look; the claim and who challenged so far; the run; the suspected
cards in front of each player).

Parameters: ``players`` (2-4; scoundrels: 3), ``setup`` (``standard``, ``bonus`` or
``scoundrels``), ``bonus`` (the bonus characters, separated by ``;``), ``rulings``
(``ID:READING;...``), ``max_moves`` (default 200) and ``log``: a file ``cunning-folk
advise`` reads, to play on from its end. Then the one chance node draws the village now
from the log perspective's exact worlds
(:func:`~ruleslawyer.solvers.cunning_folk.worlds.filter_worlds`, hidden swaps 1:1);
what the other players saw alone before the log's end is not drawn
(their information states hold it as unknown, ``?``, as the log's holder knows it). A
log ending in an unchallenged claim plays on from its answers; one ending inside an
earned action (a swap, trade or elder run) from that action; otherwise the next turn
is the player left of the last turn's (the same player after a good witch's turn).

Action ids: :data:`MOVES` in order (a move's place in that list), every move string of
the state machine; ``first-challenge`` is numbered by the challenger's seat counted from
the claimant's left. Chance outcomes: a role's index in ``ROLES`` (a dealt card), or the
drawn world's index (from a log).
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pyspiel

from ruleslawyer.errors import InputError
from ruleslawyer.gamefiles.source import read_toml
from ruleslawyer.models.cunning_folk.knowledge import knowledge
from ruleslawyer.models.cunning_folk.log import Log, parse_log
from ruleslawyer.models.cunning_folk.play import (
    ALLEGE,
    ANSWER,
    CHALLENGE,
    ELDER,
    INVESTIGATE,
    OVER,
    SWAP,
    TRADE,
    Rules,
    State,
    Table,
    legal_moves,
    start,
    step,
)
from ruleslawyer.models.cunning_folk.record import events_of
from ruleslawyer.models.cunning_folk.village import (
    CELL_INDEX,
    CELLS,
    CLAIMABLE,
    GOOD_WITCH,
    MAX_PLAYERS,
    ROLES,
    RULE_POINTS,
    SCOUNDREL_CORE,
    SCOUNDREL_POOL,
    SETUPS,
    bonus_setup,
    cards_of,
    scoundrel_setup,
    standard_setup,
)
from ruleslawyer.openspiel import adapter
from ruleslawyer.solvers.cunning_folk.worlds import Worlds, filter_worlds

NAME = "ruleslawyer_cunning_folk"
PARAMETERS = {
    "players": 3,
    "setup": "standard",
    "bonus": "liar;pirate;vagrant",
    "log": "",
    "rulings": "",
    "max_moves": 200,
}
RETURNS = (
    "+1 to the winner, -1 to every other player (every end the rules give names one "
    "winner); 0 to every player when the game is still going after max_moves moves"
)
_PAIRS = tuple(f"{i} {j}" for i in range(len(CELLS)) for j in range(i + 1, len(CELLS)))
MOVES: tuple[str, ...] = (
    *(f"investigate {c}" for c in CELLS),
    "pass",
    *(f"claim {r}" for r in CLAIMABLE),
    "accept",
    "challenge",
    *(f"first-challenge +{k}" for k in range(1, MAX_PLAYERS)),
    *(
        f"swap {CELLS[int(i)]} {CELLS[int(j)]} {how}"
        for i, j in (p.split() for p in _PAIRS)
        for how in ("same", "swapped")
    ),
    *(f"trade {c}" for c in CELLS),
    *(f"pick {c}" for c in CELLS),
    "declare",
    "stop",
    "decline",
    "no-reveal",
    *(f"reveal {c}" for c in CELLS),
    *(f"keep {r}" for r in ROLES),
)
ACTION = {m: i for i, m in enumerate(MOVES)}
PAIRS, KEEP, DEAL, PLAY, START = "pairs", "keep", "deal", "play", "start"


@dataclass(frozen=True, eq=False)
class Folk:
    """Where the game stands.

    ``stage``: ``start`` (a log's world, by chance), ``pairs`` (scoundrels: the pool's
    cards dealt two to each player), ``keep`` (each player keeps one), ``deal`` (the
    village, one cell at a time), ``play`` (the state machine's ``state``). ``logs`` are
    each player's events from their chair, ``public`` the same as nobody's own;
    ``heads`` each player's log keys; ``moves`` the moves played (the horizon counts them).
    """

    stage: str
    cards: tuple[str, ...] = ()  # pairs: the pool cards dealt; deal: the cells so far
    kept: tuple[str, ...] = ()
    state: State | None = None
    heads: tuple[Mapping[str, Any], ...] = ()
    logs: tuple[tuple[Mapping[str, Any], ...], ...] = ()
    public: tuple[Mapping[str, Any], ...] = ()
    moves: int = 0


@functools.lru_cache(maxsize=4096)
def _parsed(document: str) -> Log:
    return parse_log(json.loads(document), "OpenSpiel state")


@functools.lru_cache(maxsize=256)
def _worlds(document: str) -> Worlds:
    return filter_worlds(_parsed(document))


def _doc(head: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> str:
    return json.dumps({**head, "event": list(events)}, sort_keys=True)


class CunningFolk(adapter.Machine):
    """The state machine of :mod:`~ruleslawyer.models.cunning_folk.play` as OpenSpiel
    drives it (see the module doc)."""

    def __init__(
        self,
        table: Table,
        head: Mapping[str, Any],
        max_moves: int,
        log: Log | None = None,
        document: Mapping[str, Any] | None = None,
    ) -> None:
        self.table, self.head, self.max_moves = table, dict(head), max_moves
        self.names: tuple[str, ...] = tuple(head["players"])
        n = self.num_players = table.players
        self.num_distinct_actions = len(MOVES)
        self.min_utility, self.max_utility = -1.0, 1.0
        if n == 2:
            self.utility, self.utility_sum = adapter.GameType.Utility.ZERO_SUM, 0.0
        self.stochastic = True
        self.worlds: list[tuple[State, Folk]] = []
        if log is not None and document is not None:
            self.worlds = _log_worlds(self, log, document)
            self.first = Folk(START)
        elif table.setup.declares:
            self.first = Folk(PAIRS)
        else:
            self.first = Folk(DEAL)
        self.max_chance_outcomes = max(len(ROLES), len(self.worlds))
        deal = len(CELLS) + (3 * n if table.setup.declares else 0)
        self.max_game_length = max_moves + (1 if self.worlds else deal)

    @classmethod
    def from_parameters(cls, params: Mapping[str, Any]) -> CunningFolk:
        """The machine the OpenSpiel parameters describe (see the module doc)."""
        max_moves = params["max_moves"]
        if max_moves < 1:
            raise InputError("OpenSpiel parameter", "max_moves", max_moves, "1 or more")
        given = adapter.pairs(params["rulings"], "rulings")
        if params["log"]:
            path = str(params["log"])
            _, document = read_toml(path)
            log = parse_log(document, path, given)
            for key in ("players", "setup"):
                if params[key] != PARAMETERS[key]:
                    found = f"{key}={params[key]}"
                    expected = "none with a log (its own)"
                    raise InputError("OpenSpiel parameter", key, found, expected)
            head = {
                k: v
                for k, v in document.items()
                if k in ("setup", "bonus", "players", "game") and v
            }
            head["rulings"] = dict(log.rulings)
            table = Table(log.setup, len(log.players), log.rules)
            return cls(table, head, max_moves, log, document)
        players, name = params["players"], params["setup"]
        if name not in SETUPS:
            raise InputError("OpenSpiel parameter", "setup", name, " | ".join(SETUPS))
        if not 2 <= players <= MAX_PLAYERS or (name == "scoundrels" and players != 3):
            scoundrels = "3 (scoundrels: six cards plus one per player fill the village)"
            expected = scoundrels if name == "scoundrels" else "2 to 4"
            raise InputError("OpenSpiel parameter", "players", players, expected)
        rulings = adapter.rulings(RULE_POINTS, {}, params["rulings"], "rulings")
        bonus = tuple(b for b in str(params["bonus"]).replace(",", ";").split(";") if b)
        setup = {
            "standard": standard_setup,
            "bonus": lambda: bonus_setup(bonus, source="OpenSpiel parameter"),
            "scoundrels": lambda: scoundrel_setup(players),
        }[name]()
        head: dict[str, Any] = {
            "setup": name,
            "players": [f"P{p + 1}" for p in range(players)],
            "rulings": rulings,
        }
        if name == "bonus":
            head["bonus"] = list(bonus)
        table = Table(setup, players, Rules.from_rulings(rulings))
        return cls(table, head, max_moves)

    # -- the rules, from the model ---------------------------------------------------

    def initial(self) -> Folk:
        return self.first

    def player(self, folk: Folk) -> int:
        if folk.stage == KEEP:
            return len(folk.kept)
        if folk.stage != PLAY:
            return adapter.CHANCE
        if folk.state.phase == OVER or folk.moves >= self.max_moves:
            return adapter.TERMINAL
        return folk.state.actor

    def moves(self, folk: Folk) -> list[tuple[int, str]]:
        if folk.stage == KEEP:
            pair = self._pair(folk, len(folk.kept))
            return [(ACTION[f"keep {r}"], f"keep {r}") for r in ROLES if r in pair]
        return [(self._action(folk.state, m), m) for m in legal_moves(self.table, folk.state)]

    def _action(self, state: State, move: str) -> int:
        if move.startswith("first-challenge "):
            seat = int(move.split()[1][1:]) - 1
            return ACTION[f"first-challenge +{(seat - state.player) % self.num_players}"]
        return ACTION[move]

    def _pair(self, folk: Folk, player: int) -> tuple[str, ...]:
        return folk.cards[2 * player : 2 * player + 2]

    def play(self, folk: Folk, move: str) -> Folk:
        if folk.stage == KEEP:
            kept = (*folk.kept, move.split()[1])
            if len(kept) < self.num_players:
                return replace(folk, kept=kept)
            return Folk(DEAL, kept=kept, heads=self._heads(folk.cards, kept))
        before = folk.state
        after = step(self.table, before, move)
        rules = self.table.rules
        logs = tuple(
            (*log, *events_of(before, move, after, self.names, p, rules))
            for p, log in enumerate(folk.logs)
        )
        public = (*folk.public, *events_of(before, move, after, self.names, None, rules))
        return replace(folk, state=after, logs=logs, public=public, moves=folk.moves + 1)

    def _heads(self, cards: tuple[str, ...], kept: tuple[str, ...]) -> tuple[dict, ...]:
        heads = []
        for p, name in enumerate(self.names):
            head = {**self.head, "perspective": name}
            if kept:
                pair = list(cards[2 * p : 2 * p + 2])
                pair.remove(kept[p])
                head |= {"kept": [kept[p]], "discarded": pair}
            heads.append(head)
        return tuple(heads)

    def chances(self, folk: Folk) -> list[tuple[int, float, Folk]]:
        if folk.stage == START:
            total = sum(w for w, _ in self.worlds)
            return [(i, w / total, after) for i, (w, after) in enumerate(self.worlds)]
        if folk.stage == PAIRS:
            left = Counter(SCOUNDREL_POOL)
            left.subtract(folk.cards)
            return self._draws(folk, left)
        left = Counter(SCOUNDREL_CORE) + Counter(folk.kept) if folk.kept else Counter()
        if not folk.kept:
            left = Counter(self.table.setup.cards)
        left.subtract(folk.cards)
        return self._draws(folk, left)

    def _draws(self, folk: Folk, left: Counter) -> list[tuple[int, float, Folk]]:
        total = sum(n for n in left.values() if n > 0)
        return [
            (ROLES.index(r), left[r] / total, self._dealt(folk, r)) for r in ROLES if left[r] > 0
        ]

    def _dealt(self, folk: Folk, role: str) -> Folk:
        cards = (*folk.cards, role)
        if folk.stage == PAIRS:
            dealt = len(cards) == 2 * self.num_players
            return replace(folk, cards=cards, stage=KEEP if dealt else PAIRS)
        if len(cards) < len(CELLS):
            return replace(folk, cards=cards)
        heads = folk.heads or self._heads((), ())
        empty: tuple[tuple[Mapping[str, Any], ...], ...] = tuple(() for _ in self.names)
        state = start(self.table, cards)
        return Folk(PLAY, kept=folk.kept, state=state, heads=heads, logs=empty)

    def returns(self, folk: Folk) -> tuple[int, ...]:
        state = folk.state
        if state.phase != OVER:
            return (0,) * self.num_players
        return tuple(1 if p == state.winner else -1 for p in range(self.num_players))

    # -- words --------------------------------------------------------------------

    def move_text(self, folk: Folk, move: str) -> str:
        if folk.stage == KEEP:
            return f"{self.names[len(folk.kept)]} {move}s, setting the other aside"
        actor = self.names[folk.state.actor]
        return f"{actor}: {move}"

    def chance_text(self, folk: Folk, outcome: int, after: Folk) -> str:
        if folk.stage == START:
            return "the village now: " + " ".join(after.state.village)
        if folk.stage == PAIRS:
            return f"{self.names[len(folk.cards) // 2]} is dealt {ROLES[outcome]}"
        return f"{CELLS[len(folk.cards)]} is dealt {ROLES[outcome]}"

    def text(self, folk: Folk) -> str:
        if folk.stage != PLAY:
            return f"stage: {folk.stage}; cards: {' '.join(folk.cards) or '-'}\n"
        s = folk.state
        cells = " ".join(
            f"{c}={r}{'*' if up else ''}"
            for c, r, up in zip(CELLS, s.village, s.face_up, strict=True)
        )
        return f"village: {cells}\n{self._now(folk, None)}\n"

    # -- who knows what -------------------------------------------------------------

    def information_state(self, state: adapter.ModelState, player: int) -> str:
        """With perfect recall: :meth:`Knowledge.string` of the player's own log, then the
        turn in progress as they see it."""
        return self._view(state.model, player, recall=True)

    def observation(self, state: adapter.ModelState, player: int) -> str:
        """Now: the face-up cards, :meth:`Knowledge.summary` (what they saw alone), the turn."""
        return self._view(state.model, player, recall=False)

    def _view(self, folk: Folk, player: int, *, recall: bool) -> str:
        if folk.stage != PLAY:
            return self._dealing(folk, player)
        known = knowledge(_parsed(_doc(folk.heads[player], folk.logs[player])), self.names[player])
        now = self._now(folk, player)
        if recall:
            return f"{known.string()}\n{now}"
        s = folk.state
        up = " ".join(f"{c}={r}" for c, r, u in zip(CELLS, s.village, s.face_up, strict=True) if u)
        return f"face up: {up or '-'}\n{known.summary()}\n{now}"

    def _dealing(self, folk: Folk, player: int) -> str:
        name = self.names[player]
        if folk.stage == START:
            return f"player {name}; the game goes on from the log"
        pair = self._pair(folk, player) if folk.stage != DEAL or folk.kept else ()
        mine = folk.kept[player] if player < len(folk.kept) else "-"
        return f"player {name}; dealt {' '.join(pair) or '-'}; kept {mine}; stage {folk.stage}"

    def _now(self, folk: Folk, viewer: int | None) -> str:
        """The turn in progress as ``viewer`` sees it (None: everything)."""
        s = folk.state
        marks = ", ".join(f"{n} {m}" for n, m in zip(self.names, s.marks, strict=True))
        if s.phase == OVER:
            return f"suspected: {marks}; over: {self.names[s.winner]} won"
        who = self.names[s.player]
        line = f"suspected: {marks}; move {folk.moves}; {who}'s turn, {s.phase}"
        if s.cell >= 0:
            line += f"; looked at {CELLS[s.cell]}"
            if viewer is None or viewer == s.player:
                line += f" ({s.village[s.cell]})"
        if s.claim:
            line += f"; claims {s.claim}"
        if s.phase in (CHALLENGE, ANSWER):
            line += f"; {self.names[s.responder]} to answer"
        if s.challengers:
            line += "; challenged by " + " ".join(self.names[p] for p in s.challengers)
        if s.picked:
            line += "; picked " + " ".join(CELLS[c] for c in s.picked)
        return line

    def resample(self, folk: Folk, player: int, rng: random.Random) -> Folk:
        """A state ``player`` cannot tell from ``folk``, drawn by their beliefs: in play, the
        village now from their exact worlds (their own log, hidden swaps 1:1, and the card
        they are looking at), what every other player saw alone unknown; while dealing
        scoundrels, the other players' cards redrawn from the pool left."""
        if folk.stage == KEEP:
            return self._redeal(folk, player, rng)
        if folk.stage != PLAY:
            return folk
        worlds = _worlds(_doc(folk.heads[player], folk.logs[player]))
        village, weight = worlds.village, worlds.weight
        s = folk.state
        if player == s.player and s.phase in (ALLEGE, CHALLENGE):
            keep = village[:, s.cell] == ROLES.index(s.village[s.cell])
            village, weight = village[keep], weight[keep]
        (row,) = rng.choices(range(len(weight)), weights=[float(w) for w in weight])
        state = replace(s, village=tuple(ROLES[c] for c in village[row]))
        others = tuple(log if p == player else folk.public for p, log in enumerate(folk.logs))
        heads = tuple(
            h if p == player else {k: v for k, v in h.items() if k not in ("kept", "discarded")}
            for p, h in enumerate(folk.heads)
        )
        return replace(folk, state=state, logs=others, heads=heads)

    def _redeal(self, folk: Folk, player: int, rng: random.Random) -> Folk:
        mine = self._pair(folk, player)
        left = Counter(SCOUNDREL_POOL)
        left.subtract(mine)
        pool = [r for r in cards_of(+left)]
        rng.shuffle(pool)
        cards: list[str] = []
        for p in range(len(folk.cards) // 2):
            cards += mine if p == player else [pool.pop(), pool.pop()]
        kept = tuple(
            folk.kept[p] if p == player else rng.choice(cards[2 * p : 2 * p + 2])
            for p in range(len(folk.kept))
        )
        return replace(folk, cards=tuple(cards), kept=kept)


def _next_seat(marks: Sequence[int], player: int) -> int:
    """The next player still in the game to the left of ``player``."""
    n = len(marks)
    return next((p for k in range(1, n + 1) if marks[p := (player + k) % n] < 2), player)


def public_events(log: Log, events: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], ...]:
    """A log's events as nobody's own: no ``saw``, and a swap's outcome only where everyone
    sees it (``log`` is the parsed log of ``events``)."""
    out = []
    for event, parsed in zip(events, log.events, strict=True):
        hidden = parsed.swap is not None
        drop = {"saw", "swapped"} if hidden else {"saw"}
        out.append({k: v for k, v in event.items() if k not in drop})
    return tuple(out)


def _log_worlds(
    machine: CunningFolk, log: Log, document: Mapping[str, Any]
) -> list[tuple[int, Folk]]:
    """The states a log's end can be, each with its weight in the perspective's worlds."""
    source = log.source
    if log.standing.over:
        raise InputError(source, "event", log.standing.over, "a log of a game that goes on")
    events = [dict(e) for e in document.get("event") or []]
    last = events[-1] if events else {}
    claim = last if last.get("type") == "claim" and not last.get("challenged") else None
    if claim is not None:
        events = events[:-1]  # its answers are not logged: the game goes on from them
    ruled = {**document, "rulings": dict(log.rulings), "event": events}
    before = parse_log(ruled, source)
    pending = before.standing.pending
    if pending is not None and pending.answered:
        found = "a log ending inside the answers to a declaration"
        raise InputError(source, "event", found, "a log ending before or after them")
    marks = log.marks_now()
    names = log.players
    worlds = filter_worlds(before)
    village, weight = worlds.village, worlds.weight
    base: dict[str, Any] = {"face_up": worlds.face_up, "marks": marks}
    if claim is not None:
        cell, who = CELL_INDEX[claim["cell"]], names.index(claim["player"])
        if claim.get("saw"):
            keep = village[:, cell] == ROLES.index(claim["saw"])
            village, weight = village[keep], weight[keep]
        base |= {
            "player": who,
            "phase": CHALLENGE,
            "cell": cell,
            "claim": claim["role"],
            "responder": _next_seat(marks, who),
        }
    elif pending is not None:
        phase = SWAP if pending.kind == "swap" else TRADE if pending.kind == "trade" else ELDER
        role = {"swap": "evil-witch", "trade": "vagrant"}.get(pending.kind, pending.kind)
        base |= {
            "player": names.index(pending.player),
            "phase": phase,
            "cell": pending.cell,
            "claim": role,
            "picked": pending.picked,
        }
    else:
        turns = [e for e in events if e.get("type") in ("pass", "claim")]
        player = 0
        if turns:
            t = turns[-1]
            who = names.index(t["player"])
            again = (
                t["type"] == "claim"
                and t["role"] == GOOD_WITCH
                and t.get("revealed", GOOD_WITCH) == GOOD_WITCH
            )
            player = who if again and marks[who] < 2 else _next_seat(marks, who)
        base |= {"player": player, "phase": INVESTIGATE}
    public = public_events(before, events)
    heads, logs = [], []
    for name in names:
        head = {**machine.head, "perspective": name}
        mine = name == log.perspective
        if mine:
            head |= {k: document[k] for k in ("kept", "discarded") if document.get(k)}
        heads.append(head)
        logs.append(tuple(events) if mine else public)
    out = []
    for row, w in zip(village, weight, strict=True):
        state = State(village=tuple(ROLES[c] for c in row), **base)
        folk = Folk(PLAY, state=state, heads=tuple(heads), logs=tuple(logs), public=public)
        out.append((int(w), folk))
    if not out:
        raise InputError(source, "event", "no world the log allows", "a log a legal game gives")
    return out


def load(**params: Any) -> adapter.ModelGame:
    """The registered game with these parameters (``pyspiel.load_game`` under its name)."""
    full = {**PARAMETERS, **params}
    if isinstance(full["rulings"], Mapping):
        full["rulings"] = adapter.pair_text(full["rulings"])
    return pyspiel.load_game(NAME, full)


adapter.register(
    NAME,
    "ruleslawyer: Cunning Folk",
    PARAMETERS,
    CunningFolk.from_parameters,
    players=(2, MAX_PLAYERS),
    information=adapter.GameType.Information.IMPERFECT_INFORMATION,
)


SEARCH_HORIZON = 100


class SeatAgent:
    """An OpenSpiel agent (``ismcts``, ``mcts``, ``random``) as a ``cunning-folk balance``
    policy: it decides in the game loop run on the model, from what its seat has seen (the
    seat's own log; every other player's log as the public events only, since the seat
    does not know what they saw alone), searching the game of the same setup and rulings
    up to :data:`SEARCH_HORIZON` moves on (a game still going there: 0 to everyone)."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.games: dict[str, adapter.ModelGame] = {}

    def describe(self) -> dict[str, Any]:
        horizon = (
            f"each search looks up to {SEARCH_HORIZON} moves on (a game still going there: 0 "
            "to every player); returns +1 won, -1 lost; every other player's earlier private "
            "looks unknown to the searching seat, so not drawn"
        )
        return {**self.agent.describe(), "game": NAME, "horizon": horizon}

    def _game(self, head: Mapping[str, Any]) -> adapter.ModelGame:
        key = json.dumps({k: head.get(k) for k in ("setup", "bonus", "players", "rulings")})
        if key not in self.games:
            self.games[key] = load(
                players=len(head["players"]),
                setup=head["setup"],
                bonus=";".join(head.get("bonus") or ()) or PARAMETERS["bonus"],
                rulings=dict(head.get("rulings") or {}),
                max_moves=SEARCH_HORIZON,
            )
        return self.games[key]

    def __call__(self, seat: Any, state: State, legal: tuple[str, ...], rng: random.Random) -> str:
        game = self._game(seat.head)
        machine: CunningFolk = game.machine
        events = tuple(seat.events)
        public = public_events(_parsed(_doc(seat.head, events)), events)
        me = seat.index
        heads = tuple(
            seat.head if p == me else {**machine.head, "perspective": name}
            for p, name in enumerate(machine.names)
        )
        logs = tuple(events if p == me else public for p in range(machine.num_players))
        folk = Folk(PLAY, state=state, heads=heads, logs=logs, public=public)
        action = self.agent.step(game, adapter.ModelState(game, machine, folk), rng)
        return dict(machine.moves(folk))[action]
