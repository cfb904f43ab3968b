"""Twist of Fate's files: the deck file and the position file, read with errors that name the place.

Deck file (built-in ``ruleslawyer/data/twist-of-fate.toml``)::

    name = "Twist of Fate"
    provenance = "placeholder"
    [[character]]
    name = "Mr. Brownlow"
    provenance = "printed"
    sides = [
      { gives = { shilling = 2 }, takes = { luck = 2 } },
      { gives = { luck = 1, shilling = 1 } },
    ]

A side is written as printed, ``gives`` and ``takes`` amounts (0..4) of Luck and
Shilling, or as net changes ``{ luck = -2, shilling = 2 }`` (-4..4; the older
form, which never gives and takes one value).

Position file (the solver's input): ``deck`` (a built-in id or a path relative
to the position file), ``active``, one ``[[player]]`` per seat in clockwise
order, and ``[monks]`` in the 2-player variant; an optional ``[rulings]``.
For searches across round ends (``solve --horizon game``): ``round`` (default 1),
``starter`` (who began this round; default the player to move), and in the
2-player variant each player's ``saved`` (round 1: the cards of their second set
not drawn) or the top-level ``unused`` (later rounds: the cards set aside).
``[[hidden]]`` tables mark cards the player to move does not know
(:mod:`~ruleslawyer.models.twist_of_fate_hidden`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ruleslawyer.errors import InputError
from ruleslawyer.gamefiles.kinds import require_kind
from ruleslawyer.gamefiles.source import read_reference, read_toml, validate
from ruleslawyer.models.twist_of_fate.play import (
    HAND_2,
    HAND_3_4,
    LAST,
    LIMIT,
    TOP,
    Character,
    Deck,
    Rules,
    Seat,
    Side,
    State,
    count_toward_limit,
)

GAME_ID = "twist-of-fate"
BUILTIN = "twist-of-fate.toml"

Provenance = Literal["printed", "assumed", "placeholder"]
Value = Annotated[int, Field(ge=0, le=TOP, strict=True)]
Sanctuary = Annotated[int, Field(ge=0, le=LAST, strict=True)]
Change = Annotated[int, Field(ge=-TOP, le=TOP, strict=True)]
Amount = Annotated[int, Field(ge=0, le=TOP, strict=True)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AmountDoc(_Strict):
    luck: Amount = 0
    shilling: Amount = 0


class SideDoc(_Strict):
    luck: Change | None = None
    shilling: Change | None = None
    gives: AmountDoc | None = None
    takes: AmountDoc | None = None


class CharacterDoc(_Strict):
    name: Annotated[str, Field(min_length=1)]
    provenance: Provenance = "placeholder"
    sides: Annotated[list[SideDoc], Field(min_length=2, max_length=2)]


class DeckDoc(_Strict):
    game: Literal["twist-of-fate"] | None = None
    name: str = "Twist of Fate"
    provenance: Provenance = "placeholder"
    character: Annotated[list[CharacterDoc], Field(min_length=1, max_length=9)]
    rulings: dict[str, str] = Field(default_factory=dict)


class PlayerDoc(_Strict):
    name: Annotated[str, Field(min_length=1)]
    luck: Value = 0
    shilling: Value = 0
    sanctuary: Sanctuary = 0
    hand: list[str] = Field(default_factory=list)
    in_front: list[str] = Field(default_factory=list)
    self_played: list[str] = Field(default_factory=list)
    saved: list[str] | None = None


class MonksDoc(_Strict):
    luck: Value = 0
    shilling: Value = 0
    sanctuary: Sanctuary = 0
    in_front: list[str] = Field(default_factory=list)


class HiddenDoc(_Strict):
    """Cards of ``seat`` (in its ``place``) that the player to move does not know: ``count``
    of them, drawn from ``candidates`` (a multiset, each draw equally likely)."""

    seat: str
    place: Literal["hand", "in_front", "self_played", "saved"] = "hand"
    candidates: Annotated[list[str], Field(min_length=1)]
    count: Annotated[int, Field(ge=1, strict=True)] = 1


class PositionDoc(_Strict):
    deck: str = GAME_ID
    active: str
    player: Annotated[list[PlayerDoc], Field(min_length=2, max_length=4)]
    monks: MonksDoc | None = None
    rulings: dict[str, str] = Field(default_factory=dict)
    round: Annotated[int, Field(ge=1, strict=True)] = 1
    starter: str | None = None
    unused: list[str] | None = None
    hidden: list[HiddenDoc] = Field(default_factory=list)


def deck_from_document(doc: Mapping[str, Any], source: str) -> Deck:
    """A :class:`Deck` from a parsed deck file; structural problems are InputErrors."""
    parsed = validate(DeckDoc, doc, source)
    seen: set[str] = set()
    for i, c in enumerate(parsed.character):
        if c.name in seen:
            raise InputError(source, f"character[{i}].name", c.name, "a name not used before")
        seen.add(c.name)
    return Deck(
        name=parsed.name,
        provenance=parsed.provenance,
        characters=tuple(
            Character(
                c.name,
                (
                    side_from_document(c.sides[0], source, f"character[{i}].sides[0]"),
                    side_from_document(c.sides[1], source, f"character[{i}].sides[1]"),
                ),
                c.provenance,
            )
            for i, c in enumerate(parsed.character)
        ),
    )


def side_from_document(doc: SideDoc, source: str, place: str) -> Side:
    """A side as printed (``gives``/``takes``) or as net changes (``luck`` and ``shilling``)."""
    net = [k for k in ("luck", "shilling") if getattr(doc, k) is not None]
    printed = [k for k in ("gives", "takes") if getattr(doc, k) is not None]
    if printed and net:
        found = f"both {' and '.join(net)} and {' and '.join(printed)}"
        expected = "either gives/takes (as printed) or luck and shilling (net changes)"
        raise InputError(source, place, found, expected)
    if printed:
        gives, takes = doc.gives or AmountDoc(), doc.takes or AmountDoc()
        return Side((gives.luck, gives.shilling), (takes.luck, takes.shilling))
    if len(net) != 2:
        found = f"only {net[0]}" if net else "an empty side"
        raise InputError(source, place, found, "gives/takes, or both luck and shilling")
    return Side.net(doc.luck or 0, doc.shilling or 0)


def load_deck(target: str, *, relative_to: Path | None = None, referrer: str = "") -> Deck:
    """A deck by built-in id or by path: relative paths resolve next to ``relative_to``, the
    folder of ``referrer``, the position file whose ``deck`` key names it (without one, a
    command-line argument)."""
    display, doc = read_reference(
        target,
        referrer=referrer,
        key="deck",
        folder=relative_to,
        noun="deck",
        tables="[[character]] tables",
        built_in=(GAME_ID, BUILTIN),
    )
    return deck_from_document(doc, display)


class Position:
    """A solver position: the state, the seat names, the deck, the file's rulings and the
    cards hidden from the player to move (``HiddenDoc`` tables, checked when read)."""

    def __init__(
        self,
        state: State,
        names: tuple[str, ...],
        deck: Deck,
        rulings: dict[str, str],
        hidden: tuple[HiddenDoc, ...] = (),
    ) -> None:
        self.state = state
        self.names = names
        self.deck = deck
        self.rulings = rulings
        self.hidden = hidden


def _cards(deck: Deck, cards: list[str], source: str, place: str) -> tuple[str, ...]:
    for i, card in enumerate(cards):
        if card not in deck.names:
            raise InputError(
                source, f"{place}[{i}]", card, f"a character of the deck ({', '.join(deck.names)})"
            )
    return deck.sort(cards)


def position_from_document(
    doc: Mapping[str, Any],
    source: str,
    *,
    relative_to: Path | None = None,
    rules: Rules | None = None,
) -> Position:
    """Validate a parsed position file and build its :class:`Position`."""
    require_kind(doc, source, "a Twist of Fate position")
    parsed = validate(PositionDoc, doc, source)
    deck = load_deck(parsed.deck, relative_to=relative_to, referrer=source)
    rules = rules or Rules()
    n = len(parsed.player)
    two = n == 2
    if two and parsed.monks is None:
        raise InputError(source, "monks", "nothing", "a [monks] table with 2 players")
    if not two and parsed.monks is not None:
        raise InputError(source, "monks", "a [monks] table", "no Monks with 3-4 players")
    names = tuple(p.name for p in parsed.player)
    for i, name in enumerate(names):
        if name in names[:i] or name == "Monks":
            raise InputError(source, f"player[{i}].name", name, "a name used once, not Monks")
    if parsed.active not in names:
        raise InputError(source, "active", parsed.active, f"one of {', '.join(names)}")
    most = HAND_2 if two else HAND_3_4
    seats = []
    for i, p in enumerate(parsed.player):
        where = f"player[{i}]"
        if len(p.hand) > most:
            raise InputError(source, f"{where}.hand", len(p.hand), f"at most {most} cards")
        if parsed.round == 1:
            _first_hand(p.hand, two, source, f"{where}.hand")
        _resting(p.luck, p.shilling, rules, source, where)
        seat = Seat(
            p.luck,
            p.shilling,
            p.sanctuary,
            _cards(deck, p.hand, source, f"{where}.hand"),
            _cards(deck, p.in_front, source, f"{where}.in_front"),
            _cards(deck, p.self_played, source, f"{where}.self_played"),
        )
        seats.append(_room(seat, rules, source, where))
    if parsed.monks is not None:
        m = parsed.monks
        _resting(m.luck, m.shilling, rules, source, "monks")
        monks = Seat(
            m.luck, m.shilling, m.sanctuary, (), _cards(deck, m.in_front, source, "monks.in_front")
        )
        seats.append(_room(monks, rules, source, "monks"))
    free = sum(LIMIT - count_toward_limit(s, rules) for s in seats)
    held = sum(len(s.hand) for s in seats)
    if held > free and rules.self_play_count == "counts-toward-six":
        raise InputError(
            source,
            "player",
            f"{held} cards in hand",
            f"at most {free} (the free places in front of players)",
        )
    active = names.index(parsed.active)
    if not seats[active].hand:
        raise InputError(source, "active", parsed.active, "a player with a card in hand")
    starter = active
    if parsed.starter is not None:
        if parsed.starter not in names:
            raise InputError(source, "starter", parsed.starter, f"one of {', '.join(names)}")
        starter = names.index(parsed.starter)
    saved, unused = _set_aside(parsed, deck, source)
    if unused and parsed.round >= 3 and rules.leftover_cards == "set-aside":
        # leftover-cards=set-aside: the cards saved at the end of round 2 left the game
        expected = "none in round 3 on under twist-of-fate/leftover-cards=set-aside"
        raise InputError(source, "unused", f"{len(unused)} unused cards", expected)
    state = State(
        seats=tuple(seats),
        players=n,
        active=active,
        starter=starter,
        round=parsed.round,
        saved=saved,
        unused=unused,
    )
    return Position(state, names, deck, dict(parsed.rulings), tuple(parsed.hidden))


def _set_aside(
    parsed: PositionDoc, deck: Deck, source: str
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """The 2-player variant's cards out of play: ``saved`` in round 1, ``unused`` later."""
    given = [i for i, p in enumerate(parsed.player) if p.saved is not None]
    if parsed.monks is None:
        if given:
            place = f"player[{given[0]}].saved"
            raise InputError(source, place, "saved cards", "none with 3-4 players")
        if parsed.unused is not None:
            raise InputError(source, "unused", "unused cards", "none with 3-4 players")
        return (), ()
    if parsed.round == 1:
        if parsed.unused is not None:
            raise InputError(source, "unused", "unused cards in round 1", "saved (per player)")
        if not given:
            return (), ()
        secret = {h.seat for h in parsed.hidden if h.place == "saved"}
        missing = [i for i in (0, 1) if i not in given and parsed.player[i].name not in secret]
        if missing:
            expected = 'both saved lists (or a [[hidden]] table with place = "saved")'
            raise InputError(source, f"player[{missing[0]}].saved", "nothing", expected)
        return tuple(
            _cards(deck, p.saved or [], source, f"player[{i}].saved")
            for i, p in enumerate(parsed.player)
        ), ()
    if given:
        place = f"player[{given[0]}].saved"
        raise InputError(source, place, f"saved cards in round {parsed.round}", "unused")
    return (), _cards(deck, parsed.unused or [], source, "unused")


def _first_hand(hand: list[str], two: bool, source: str, place: str) -> None:
    """A round-1 hand holds the player's own set: one card of each character ("Each player
    begins the game with a set of eight cards in their player color", "The remaining six
    Character Cards remain in each player's hand"); with 2 players, one set and three
    cards of a second ("give each player two sets of cards ... takes three random cards
    from their second set"). Later hands are cards played by others: any mix."""
    most = 2 if two else 1
    for i, card in enumerate(hand):
        if hand[: i + 1].count(card) > most:
            sets = "two sets (the 2-player variant)" if two else "one set"
            expected = (
                f"at most {most} {card!r} in a round-1 hand, dealt from {sets} of one card "
                "per character (round = 2 or later for a hand of cards played by others)"
            )
            raise InputError(source, f"{place}[{i}]", card, expected)


def _resting(luck: int, shilling: int, rules: Rules, source: str, where: str) -> None:
    """No card rests at 4: "check to see if either player has 4 Shillings or 4 Luck. If so,
    that player immediately scores one Sanctuary Point" and "The Luck or Shilling Card
    which just scored is then reset to a value of '0'". Only the Shilling card stays at 4,
    with Luck 0, under twist-of-fate/double-threshold=one-point-reset-one (both reached 4
    in one play, one point, the Luck card reset)."""
    kept = rules.double_threshold == "one-point-reset-one" and luck == 0
    for name, value in (("luck", luck), ("shilling", shilling)):
        if value == TOP and not (name == "shilling" and kept):
            expected = (
                f"0 to {TOP - 1}: a card at {TOP} scores a Sanctuary Point and is reset to 0 "
                "at once (Shilling 4 with Luck 0 only under "
                "twist-of-fate/double-threshold=one-point-reset-one)"
            )
            raise InputError(source, f"{where}.{name}", value, expected)


def _room(seat: Seat, rules: Rules, source: str, where: str) -> Seat:
    if count_toward_limit(seat, rules) > LIMIT:
        count = count_toward_limit(seat, rules)
        raise InputError(source, f"{where}.in_front", count, f"at most {LIMIT} cards in front")
    return seat


def load_position(path: str | Path, rules: Rules | None = None) -> Position:
    _text, doc = read_toml(path)
    return position_from_document(doc, str(path), relative_to=Path(path).parent, rules=rules)


def state_document(state: State, names: tuple[str, ...]) -> dict[str, Any]:
    """A state's ``active``, ``[[player]]`` and ``[monks]`` fields, as in a position file."""
    doc: dict[str, Any] = {"active": names[state.active], "player": []}
    for i, name in enumerate(names):
        s = state.seats[i]
        entry: dict[str, Any] = {
            "name": name,
            "luck": s.luck,
            "shilling": s.shilling,
            "sanctuary": s.sanctuary,
            "hand": list(s.hand),
            "in_front": list(s.in_front),
        }
        if s.self_played:
            entry["self_played"] = list(s.self_played)
        if state.saved:
            entry["saved"] = list(state.saved[i])
        doc["player"].append(entry)
    if state.round != 1:
        doc["round"] = state.round
    if state.starter != state.active:
        doc["starter"] = names[state.starter]
    if state.unused:
        doc["unused"] = list(state.unused)
    if state.monks is not None:
        m = state.seats[state.monks]
        doc["monks"] = {
            "luck": m.luck,
            "shilling": m.shilling,
            "sanctuary": m.sanctuary,
            "in_front": list(m.in_front),
        }
    return doc


def position_document(position: Position) -> dict[str, Any]:
    """The TOML-able document of a position (round-trips through :func:`position_from_document`)."""
    doc = {"deck": GAME_ID, **state_document(position.state, position.names)}
    if position.rulings:
        doc["rulings"] = dict(position.rulings)
    return doc


def dumps(doc: Mapping[str, Any]) -> str:
    """A small TOML writer for position documents (strings, ints, lists, tables)."""

    def value(v: Any) -> str:
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return str(v)

    def table(d: Mapping[str, Any]) -> list[str]:
        return [
            f"{k} = {value(v)}"
            for k, v in d.items()
            if not isinstance(v, (dict, list))
            or (isinstance(v, list) and not (v and isinstance(v[0], dict)))
        ]

    lines = table(doc)
    for key, v in doc.items():
        if isinstance(v, list) and v and isinstance(v[0], dict):
            for item in v:
                lines += ["", f"[[{key}]]", *table(item)]
        elif isinstance(v, dict):
            lines += ["", f"[{key}]"]
            lines += [
                f'"{k}" = {value(x)}' if "/" in k else f"{k} = {value(x)}" for k, x in v.items()
            ]
    return "\n".join(lines) + "\n"
