"""Twisted Cryptids records of play: the ``stacks`` input file, read, written and simulated.

A record holds the public history (who revealed which Sighting from which
Stack in which round), each player's current Myth and, from one player's
perspective, private knowledge: known Sightings in Stack slots (their own
Stacks; any peek a card allowed) and known Hidden Traits::

    perspective = "ann"
    rounds_played = 5            # completed rounds; the game is over at the game's last round
    game_file = "cards.toml"     # optional, relative to the record; the built-in data otherwise
    excluded_traits = ["recluse"]  # optional: Hidden Traits known not to be in play

    [[player]]
    name = "ann"
    cryptid = "bigfoot"
    myth = 14
    trait = "prankster"          # optional: a known Hidden Trait
    humans = 9                   # optional: the tie-break tally (public)

    [[reveal]]
    player = "ann"
    stack = 2                    # 1..3, left to right
    sighting = "hoax"            # a Sighting kind
    round = 1

    [[known]]
    player = "ann"
    stack = 1
    position = 1                 # 1 = the top card of the Stack as formed
    sighting = "real-deal"

An optional ``[position]`` table gives the table as the perspective player sees
it now, in the middle of round ``rounds_played + 1`` (``advise`` reads it; its
reveals of that round are in ``[[reveal]]``)::

    [position]
    phase = "day"                # dawn | day | choose | reveal: the perspective is to act
    first_player = "bob"         # who holds the First Player token
    day_turn = 2                 # day: the perspective's turn of the round, 1..3
    event = "flash-flood"        # dawn: the flipped Event
    event_effects_done = 0       # dawn: its effects already resolved
    encounter = "campground"     # reveal: the Encounter Site
    hand = ["rockslide", "grant-money"]   # the perspective's Action cards
    power_used = false           # the perspective used their Cryptid Power this round

    [position.sites]             # Humans (hikers, hunters, researchers) on every Site
    campground = [2, 1, 0]

    [position.spots]             # per player, Stacks 1..3: a Site, "stack" or "boxed"
    ann = ["campground", "lake", "boxed"]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruleslawyer.errors import InputError
from ruleslawyer.models.twisted_cryptids.game import STACK_DEPTH, STACKS, Game


@dataclass(frozen=True)
class PlayerEntry:
    name: str
    cryptid: str
    myth: int
    trait: str | None = None
    humans: int | None = None


@dataclass(frozen=True)
class RevealEntry:
    player: str
    stack: int  # 1-based
    sighting: str
    round: int


@dataclass(frozen=True)
class KnownEntry:
    player: str
    stack: int  # 1-based
    position: int  # 1-based, 1 = top as formed
    sighting: str


@dataclass(frozen=True)
class PositionEntry:
    """The ``[position]`` table: the public board now and the perspective's own hand."""

    phase: str
    first_player: str
    sites: tuple[tuple[str, tuple[int, int, int]], ...]
    spots: tuple[tuple[str, tuple[str, ...]], ...]
    hand: tuple[str, ...] = ()
    power_used: bool = False
    day_turn: int = 1
    event: str | None = None
    event_effects_done: int = 0
    encounter: str | None = None


@dataclass(frozen=True)
class Record:
    perspective: str
    rounds_played: int
    players: tuple[PlayerEntry, ...]
    reveals: tuple[RevealEntry, ...]
    known: tuple[KnownEntry, ...]
    excluded_traits: tuple[str, ...] = ()
    game_file: str | None = None
    position: PositionEntry | None = None


def _schema() -> Any:
    from typing import Literal

    from pydantic import Field

    from ruleslawyer.gamefiles.schema import StrictModel as Strict
    from ruleslawyer.models.twisted_cryptids.game import (
        MAX_EFFECTS,
        MAX_HAND,
        MAX_HUMANS,
        MAX_LIST,
        MAX_MYTH,
    )

    class PlayerDoc(Strict):
        name: str = Field(min_length=1)
        cryptid: str = Field(min_length=1)
        myth: int = Field(ge=-MAX_MYTH, le=MAX_MYTH)
        trait: str | None = None
        humans: int | None = Field(default=None, ge=0, le=3 * MAX_HUMANS)

    class RevealDoc(Strict):
        player: str
        stack: int = Field(ge=1, le=STACKS)
        sighting: str
        round: int = Field(ge=1, le=MAX_MYTH)

    class KnownDoc(Strict):
        player: str
        stack: int = Field(ge=1, le=STACKS)
        position: int = Field(ge=1, le=STACK_DEPTH)
        sighting: str

    class PositionDoc(Strict):
        phase: Literal["dawn", "day", "choose", "reveal"]
        first_player: str
        day_turn: int = Field(default=1, ge=1, le=3)
        event: str | None = None
        event_effects_done: int = Field(default=0, ge=0, le=MAX_EFFECTS)
        encounter: str | None = None
        hand: list[str] = Field(default_factory=list, max_length=MAX_HAND)
        power_used: bool = False
        sites: dict[str, list[int]] = Field(max_length=MAX_LIST)
        spots: dict[str, list[str]] = Field(max_length=6)

    class RecordDoc(Strict):
        game: Literal["twisted-cryptids"] = "twisted-cryptids"
        game_file: str | None = None
        perspective: str
        rounds_played: int = Field(ge=0, le=MAX_MYTH)
        excluded_traits: list[str] = Field(default_factory=list, max_length=1_000)
        player: list[PlayerDoc] = Field(min_length=2, max_length=6)
        reveal: list[RevealDoc] = Field(default_factory=list, max_length=6 * 9)
        known: list[KnownDoc] = Field(default_factory=list, max_length=6 * 9)
        position: PositionDoc | None = None

    return RecordDoc


def parse_record(document: dict[str, Any], display: str) -> Record:
    """Validate a parsed record's types and keys (cross-references: :func:`check_references`)."""
    from ruleslawyer.gamefiles.kinds import require_kind
    from ruleslawyer.gamefiles.source import validate

    records = ("a Twisted Cryptids record of play", "a Twisted Cryptids record with a [position]")
    require_kind(document, display, *records)
    doc = validate(_schema(), document, display)
    return Record(
        perspective=doc.perspective,
        rounds_played=doc.rounds_played,
        players=tuple(
            PlayerEntry(p.name, p.cryptid, p.myth, p.trait, p.humans) for p in doc.player
        ),
        reveals=tuple(RevealEntry(r.player, r.stack, r.sighting, r.round) for r in doc.reveal),
        known=tuple(KnownEntry(k.player, k.stack, k.position, k.sighting) for k in doc.known),
        excluded_traits=tuple(doc.excluded_traits),
        game_file=doc.game_file,
        position=None if doc.position is None else _position(doc.position),
    )


def _position(doc: Any) -> PositionEntry:
    return PositionEntry(
        phase=doc.phase,
        first_player=doc.first_player,
        sites=tuple((name, tuple(h)) for name, h in doc.sites.items()),  # type: ignore[misc]
        spots=tuple((name, tuple(where)) for name, where in doc.spots.items()),
        hand=tuple(doc.hand),
        power_used=doc.power_used,
        day_turn=doc.day_turn,
        event=doc.event,
        event_effects_done=doc.event_effects_done,
        encounter=doc.encounter,
    )


def load_record(path: str | Path, rulings: Mapping[str, str] | None = None) -> tuple[Record, Game]:
    """Read a record and its game file; every name in it checked against the game, its
    reveals against the rules under ``rulings`` (default readings otherwise)."""
    from ruleslawyer.gamefiles.source import read_reference, read_toml
    from ruleslawyer.models.twisted_cryptids.game import builtin_game, parse_game

    display = str(path)
    _, doc = read_toml(path, display=display)
    record = parse_record(doc, display)
    if record.game_file is None:
        game = builtin_game()
    else:
        game_path, game_doc = read_reference(
            record.game_file,
            referrer=display,
            key="game_file",
            folder=Path(path).parent,
            noun="Twisted Cryptids game",
            tables="[[site]] and [[cryptid]]",
        )
        game = parse_game(game_doc, game_path)
        _reject_data_errors(game, game_doc, game_path)
    check_references(record, game, display, rulings)
    return record, game


class GameFileError(InputError):
    """A game file that ``check`` reports data errors for: one line, its first problem."""

    def __init__(self, source: str, place: str, message: str) -> None:
        self.message = message
        super().__init__(source, place, None, "")

    def line(self) -> str:
        expected = "" if ", expected " in self.message else ", expected a game file check accepts"
        return f"{self.source}: {self.place}: {self.message}{expected}"


def _reject_data_errors(game: Game, document: dict[str, Any], display: str) -> None:
    """No analysis of a record over a game file that breaks the rulebook's structure."""
    from ruleslawyer.models.twisted_cryptids.game import structural_problems

    problems = structural_problems(game, document)
    if problems:
        raise GameFileError(display, *problems[0])


def check_references(
    record: Record, game: Game, display: str, rulings: Mapping[str, str] | None = None
) -> None:
    """Names in the record must exist: players, Cryptids, Sighting kinds, traits, rounds;
    and its reveals must be ones a game can have made (:func:`check_reveal_rounds`) under
    ``rulings`` (the rest at their default readings)."""
    names = [p.name for p in record.players]
    cryptids = [c.name for c in game.cryptids]
    traits = [t.name for t in game.traits]
    for i, p in enumerate(record.players):
        if names.index(p.name) != i:
            raise InputError(display, f"player[{i}].name", p.name, "a name no other player has")
        if p.cryptid not in cryptids:
            raise InputError(display, f"player[{i}].cryptid", p.cryptid, f"one of {cryptids}")
        if [q.cryptid for q in record.players].index(p.cryptid) != i:
            raise InputError(
                display, f"player[{i}].cryptid", p.cryptid, "a Cryptid nobody else has"
            )
        if p.trait is not None and p.trait not in traits:
            raise InputError(display, f"player[{i}].trait", p.trait, f"one of {traits}")
    if record.perspective not in names:
        raise InputError(display, "perspective", record.perspective, f"one of {names}")
    if record.rounds_played > game.rounds:
        raise InputError(display, "rounds_played", record.rounds_played, f"at most {game.rounds}")
    for i, t in enumerate(record.excluded_traits):
        if t not in traits:
            raise InputError(display, f"excluded_traits[{i}]", t, f"one of {traits}")
    cryptid_of = {p.name: game.cryptids[game.cryptid(p.cryptid)] for p in record.players}
    current = record.rounds_played + (1 if record.position is not None else 0)
    if record.position is not None and current > game.rounds:
        raise InputError(
            display, "rounds_played", record.rounds_played, f"below {game.rounds} with a [position]"
        )
    last = 0
    for table, entries in (("reveal", record.reveals), ("known", record.known)):
        for i, e in enumerate(entries):
            if e.player not in names:
                raise InputError(display, f"{table}[{i}].player", e.player, f"one of {names}")
            kinds = sorted(cryptid_of[e.player].kinds())
            if e.sighting not in kinds:
                raise InputError(display, f"{table}[{i}].sighting", e.sighting, f"one of {kinds}")
            if isinstance(e, RevealEntry):
                if e.round > current:
                    raise InputError(
                        display,
                        f"reveal[{i}].round",
                        e.round,
                        f"a played round (rounds_played = {record.rounds_played}"
                        + (
                            ", or the current round of the [position])"
                            if current > record.rounds_played
                            else ")"
                        ),
                    )
                if e.round < last:
                    raise InputError(
                        display, f"reveal[{i}].round", e.round, f"reveals in order (>= {last})"
                    )
                last = e.round
    check_reveal_rounds(record, display, rulings or {})


def check_reveal_rounds(record: Record, display: str, rulings: Mapping[str, str]) -> None:
    """Every Dusk reveals, and only Dusk.

    "To determine where the Encounter occurs, find the Site with the most Humans that
    has at least one Hiding Spot" and "if you have a Hiding Spot at the Site of the
    Encounter you will reveal the top Sighting of your corresponding Stack": every round
    played revealed at least one Sighting while a Hiding Spot was in The Wilderness, that
    is while some player had a Stack left (a Hiding Spot goes to the box only with its
    emptied Stack; the Night puts the others back on Sites). Under
    twisted-cryptids/encounter-site-scope=busiest-site a round may reveal nothing (no
    Encounter when the busiest Site has no Hiding Spot). The round of a [position] reveals
    at its Dusk: before it (phase dawn, day or choose) none of its reveals are made yet.
    """
    from ruleslawyer.models.twisted_cryptids.points import ENCOUNTER_SCOPE

    position = record.position
    current = record.rounds_played + 1
    if position is not None and position.phase != "reveal":
        for i, e in enumerate(record.reveals):
            if e.round == current:
                expected = (
                    f"a round before {current}: round {current}'s Sightings are revealed at "
                    f"its Dusk, after the [position]'s phase {position.phase}"
                )
                raise InputError(display, f"reveal[{i}].round", e.round, expected)
    if rulings.get(ENCOUNTER_SCOPE.id, ENCOUNTER_SCOPE.default) != "among-hiding-spots":
        return
    made: dict[str, int] = {p.name: 0 for p in record.players}
    for played in range(1, record.rounds_played + 1):
        now = [e for e in record.reveals if e.round == played]
        if not now and any(n < STACKS * STACK_DEPTH for n in made.values()):
            raise InputError(
                display,
                "reveal",
                f"no reveal in round {played} of the {record.rounds_played} played",
                "a reveal at every Dusk while a Stack is left (the Encounter is at the "
                '"Site with the most Humans that has at least one Hiding Spot"; only under '
                f"{ENCOUNTER_SCOPE.id}=busiest-site may a round reveal nothing)",
            )
        for e in now:
            made[e.player] += 1


def record_to_toml(record: Record) -> str:
    """Write a record as TOML that :func:`parse_record` reads back to the same record."""

    def q(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    lines = ['game = "twisted-cryptids"']
    if record.game_file is not None:
        lines.append(f"game_file = {q(record.game_file)}")
    lines += [f"perspective = {q(record.perspective)}", f"rounds_played = {record.rounds_played}"]
    if record.excluded_traits:
        lines.append(f"excluded_traits = [{', '.join(q(t) for t in record.excluded_traits)}]")
    for p in record.players:
        lines += ["", "[[player]]", f"name = {q(p.name)}", f"cryptid = {q(p.cryptid)}"]
        lines.append(f"myth = {p.myth}")
        if p.trait is not None:
            lines.append(f"trait = {q(p.trait)}")
        if p.humans is not None:
            lines.append(f"humans = {p.humans}")
    for r in record.reveals:
        lines += ["", "[[reveal]]", f"player = {q(r.player)}", f"stack = {r.stack}"]
        lines += [f"sighting = {q(r.sighting)}", f"round = {r.round}"]
    for k in record.known:
        lines += ["", "[[known]]", f"player = {q(k.player)}", f"stack = {k.stack}"]
        lines += [f"position = {k.position}", f"sighting = {q(k.sighting)}"]
    if record.position is not None:
        lines += ["", *_position_toml(record.position, q)]
    return "\n".join(lines) + "\n"


def _position_toml(pos: PositionEntry, q: Any) -> list[str]:
    def names(items: tuple[str, ...]) -> str:
        return "[" + ", ".join(q(x) for x in items) + "]"

    lines = ["[position]", f"phase = {q(pos.phase)}", f"first_player = {q(pos.first_player)}"]
    if pos.phase == "day":
        lines.append(f"day_turn = {pos.day_turn}")
    if pos.event is not None:
        lines += [f"event = {q(pos.event)}", f"event_effects_done = {pos.event_effects_done}"]
    if pos.encounter is not None:
        lines.append(f"encounter = {q(pos.encounter)}")
    lines += [f"hand = {names(pos.hand)}", f"power_used = {str(pos.power_used).lower()}"]
    lines += ["", "[position.sites]"]
    lines += [f"{q(name)} = [{', '.join(map(str, h))}]" for name, h in pos.sites]
    lines += ["", "[position.spots]"]
    lines += [f"{q(name)} = {names(where)}" for name, where in pos.spots]
    return lines


def record_from_state(state: Any, perspective: int = 0, *, with_position: bool = False) -> Record:
    """The record a game state leaves, seen by player ``perspective`` (own Stacks, own trait);
    ``with_position``: with the ``[position]`` table (the perspective must be to act, in a
    phase :data:`POSITION_PHASES` lists), this round's reveals so far included."""
    from ruleslawyer.models.twisted_cryptids.play import tie_break_humans

    g = state.game
    names = state.players
    sightings = [g.cryptids[c].sightings for c in state.cryptids]
    rounds_played = state.game.rounds if state.phase == "over" else max(0, state.round - 1)
    players = tuple(
        PlayerEntry(
            name=names[p],
            cryptid=g.cryptids[state.cryptids[p]].name,
            myth=state.myth[p],
            trait=g.traits[state.traits[p]].name if p == perspective else None,
            humans=tie_break_humans(state, p),
        )
        for p in range(state.n)
    )
    events = sorted(
        (rnd, k, p, stack, s)
        for p in range(state.n)
        for k, (stack, s, rnd) in enumerate(state.revealed[p])
        if rnd <= rounds_played + (1 if with_position else 0)
    )
    # within a round, reveals went in player order; order by round, then seat from the record's
    # point of view is enough: the solver only needs each Stack's reveals in order.
    reveals = tuple(
        RevealEntry(names[p], stack + 1, sightings[p][s].kind, rnd)
        for rnd, _, p, stack, s in events
    )
    formed: list[list[int]] = [[] for _ in range(STACKS)]
    for stack, s, _ in state.revealed[perspective]:
        formed[stack].append(s)
    for j in range(STACKS):
        formed[j] += list(state.stacks[perspective][j])
    known = tuple(
        KnownEntry(names[perspective], j + 1, i + 1, sightings[perspective][s].kind)
        for j in range(STACKS)
        for i, s in enumerate(formed[j])
    )
    other = state.discarded_traits[perspective]
    excluded = (g.traits[other].name,) if other is not None else ()
    position = position_of(state, perspective) if with_position else None
    return Record(
        names[perspective], rounds_played, players, reveals, known, excluded, position=position
    )


POSITION_PHASES = ("dawn", "day", "choose", "reveal")


def position_of(state: Any, perspective: int) -> PositionEntry:
    """The ``[position]`` table of ``state`` as player ``perspective``, who is to act, sees it."""
    from ruleslawyer.models.twisted_cryptids.play import BOXED, ON_STACK

    if state.phase not in POSITION_PHASES or state.actor() != perspective:
        raise ValueError(f"no [position] for phase {state.phase} with another player to act")
    g = state.game

    def where(site: int) -> str:
        return "stack" if site == ON_STACK else "boxed" if site == BOXED else g.sites[site].name

    dawn = state.phase == "dawn"
    return PositionEntry(
        phase=state.phase,
        first_player=state.players[state.first],
        sites=tuple((g.sites[i].name, h) for i, h in enumerate(state.sites)),
        spots=tuple(
            (state.players[p], tuple(where(s) for s in state.spots[p])) for p in range(state.n)
        ),
        hand=tuple(g.actions[c].name for c in state.hands[perspective]),
        power_used=state.power_used[perspective],
        day_turn=state.turn // state.n + 1 if state.phase == "day" else 1,
        event=g.events[state.event_deck[0]].name if dawn else None,
        event_effects_done=state.dawn_step if dawn else 0,
        encounter=g.sites[state.encounter].name if state.phase == "reveal" else None,
    )
