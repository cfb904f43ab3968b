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
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruleslawyer.errors import InputError
from ruleslawyer.models.twisted_cryptids_game import STACK_DEPTH, STACKS, Game


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
class Record:
    perspective: str
    rounds_played: int
    players: tuple[PlayerEntry, ...]
    reveals: tuple[RevealEntry, ...]
    known: tuple[KnownEntry, ...]
    excluded_traits: tuple[str, ...] = ()
    game_file: str | None = None


def _schema() -> Any:
    from typing import Literal

    from pydantic import Field

    from ruleslawyer.models.twisted_cryptids_game import MAX_HUMANS, MAX_MYTH
    from ruleslawyer.schema import StrictModel as Strict

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

    class RecordDoc(Strict):
        game: Literal["twisted-cryptids"] = "twisted-cryptids"
        game_file: str | None = None
        perspective: str
        rounds_played: int = Field(ge=0, le=MAX_MYTH)
        excluded_traits: list[str] = Field(default_factory=list, max_length=1_000)
        player: list[PlayerDoc] = Field(min_length=2, max_length=6)
        reveal: list[RevealDoc] = Field(default_factory=list, max_length=6 * 9)
        known: list[KnownDoc] = Field(default_factory=list, max_length=6 * 9)

    return RecordDoc


def parse_record(document: dict[str, Any], display: str) -> Record:
    """Validate a parsed record's types and keys (cross-references: :func:`check_references`)."""
    from ruleslawyer.gamefiles import validate

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
    )


def load_record(path: str | Path) -> tuple[Record, Game]:
    """Read a record and its game file; every name in it checked against the game."""
    from ruleslawyer.gamefiles import read_toml
    from ruleslawyer.models.twisted_cryptids_game import builtin_game, parse_game

    display = str(path)
    _, doc = read_toml(path, display=display)
    record = parse_record(doc, display)
    if record.game_file is None:
        game = builtin_game()
    else:
        game_path = Path(path).parent / record.game_file
        _, game_doc = read_toml(game_path, display=str(game_path))
        game = parse_game(game_doc, str(game_path))
        _reject_data_errors(game, game_doc, str(game_path))
    check_references(record, game, display)
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
    from ruleslawyer.models.twisted_cryptids_game import structural_problems

    problems = structural_problems(game, document)
    if problems:
        raise GameFileError(display, *problems[0])


def check_references(record: Record, game: Game, display: str) -> None:
    """Names in the record must exist: players, Cryptids, Sighting kinds, traits, rounds."""
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
    last = 0
    for table, entries in (("reveal", record.reveals), ("known", record.known)):
        for i, e in enumerate(entries):
            if e.player not in names:
                raise InputError(display, f"{table}[{i}].player", e.player, f"one of {names}")
            kinds = sorted(cryptid_of[e.player].kinds())
            if e.sighting not in kinds:
                raise InputError(display, f"{table}[{i}].sighting", e.sighting, f"one of {kinds}")
            if isinstance(e, RevealEntry):
                if e.round > record.rounds_played:
                    raise InputError(
                        display,
                        f"reveal[{i}].round",
                        e.round,
                        f"a played round (rounds_played = {record.rounds_played})",
                    )
                if e.round < last:
                    raise InputError(
                        display, f"reveal[{i}].round", e.round, f"reveals in order (>= {last})"
                    )
                last = e.round


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
    return "\n".join(lines) + "\n"


def record_from_state(state: Any, perspective: int = 0) -> Record:
    """The record a game state leaves, seen by player ``perspective`` (own Stacks, own trait)."""
    from ruleslawyer.models.twisted_cryptids_play import tie_break_humans

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
        if rnd <= rounds_played
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
    return Record(names[perspective], rounds_played, players, reveals, known, excluded)
