"""Twisted Cryptids game files: the TOML schema and the immutable :class:`Game` it loads into.

A game file names the Sites (two Human symbols each, starting Humans), the
Rest Areas, the Sightings (kind, Myth per Human kind at the Encounter Site,
optional effect), the Cryptids (with their Powers and, optionally, their own
Sighting sets), the Action and Event cards and the Hidden Traits. Effects are
a small language of three operations on Humans of one kind:

- ``attract``: from that kind's Rest Area to a Site;
- ``extract``: from a Site to the Rest Area;
- ``move``: from one Site to another.

Each resolves partially when the Humans are not there (the rulebook's Note). A
Sighting's effect acts at the Encounter Site unless it says otherwise: ``at =
"chosen"`` lets the revealing player pick the Site (or a move's source), ``to =
"encounter"`` sends a move to the Encounter Site. A Sighting's Myth is linear
per Human (``myth``) plus ``[[sighting.myth_if]]`` terms that depend on the
distribution of Humans at the Encounter Site (``at_least``/``at_most`` per kind,
``most``: strictly more of that kind than of each other kind).
Structural rules that TOML types cannot express (two distinct symbols per Site,
nine Sightings per Cryptid, ...) are listed by :func:`structural_problems` so
``check`` can report them as ``data-error`` findings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

HUMANS: tuple[str, ...] = ("hikers", "hunters", "researchers")
OPS: tuple[str, ...] = ("attract", "extract", "move")
SITE_COUNT = 6
SIGHTINGS_PER_CRYPTID = 9
STACKS = 3
STACK_DEPTH = 3

# Limits a game file must keep (enforced at load, one line and exit 2 beyond them), chosen
# so that every search over an accepted file finishes or says finished: false in its budget.
MAX_HUMANS = 1_000  # Humans of one kind on a Site or in a Rest Area (the box has 36 in all)
MAX_MYTH = 1_000_000  # any Myth amount: start, per Human, bonuses, Real Deal bonus
MAX_ROUNDS = 20
MAX_HAND = 10  # the refill offers every subset of the hand to discard: 2^10 moves
MAX_CARDS = 1_000  # copies of one Action or Event card (the box has 82 and 18)
MAX_EFFECTS = 4  # operations in one effect list
MAX_TARGET_CHOICES = 900  # ways to pick the Sites of one card's effects (two moves: 30 * 30)
MAX_BONUS_ROWS = 20
MAX_LIST = 100  # Sites, Sightings (entries and copies), Cryptids: beyond 6 / 9 a data error


@dataclass(frozen=True)
class Effect:
    op: str  # attract | extract | move
    human: int  # index into HUMANS
    count: int
    at: str = "chosen"  # the Site (a move's source): chosen by the player, or the "encounter"
    to: str = "chosen"  # a move's destination: chosen, or the "encounter" Site


@dataclass(frozen=True)
class MythIf:
    """Myth gained (or lost) when the Humans at the Encounter Site meet every condition."""

    myth: int
    at_least: tuple[int, int, int] = (0, 0, 0)
    at_most: tuple[int | None, int | None, int | None] = (None, None, None)
    most: int | None = None  # strictly more of this kind than of each other kind

    def holds(self, humans: tuple[int, int, int]) -> bool:
        if any(h < low for h, low in zip(humans, self.at_least, strict=True)):
            return False
        if any(high is not None and h > high for h, high in zip(humans, self.at_most, strict=True)):
            return False
        if self.most is not None:
            return all(humans[self.most] > humans[k] for k in range(3) if k != self.most)
        return True


@dataclass(frozen=True)
class Sighting:
    kind: str
    myth: tuple[int, int, int]  # Myth per Human of each kind at the Encounter Site
    effect: tuple[Effect, ...] = ()
    myth_if: tuple[MythIf, ...] = ()

    def myth_for(self, humans: tuple[int, int, int]) -> int:
        """The Myth this Sighting gains (or loses) with ``humans`` at the Encounter Site."""
        linear = sum(m * h for m, h in zip(self.myth, humans, strict=True))
        return linear + sum(rule.myth for rule in self.myth_if if rule.holds(humans))


@dataclass(frozen=True)
class Site:
    name: str
    symbols: tuple[int, ...]
    humans: tuple[int, int, int]


@dataclass(frozen=True)
class Cryptid:
    name: str
    power: tuple[Effect, ...]
    sightings: tuple[Sighting, ...]  # the nine cards, one entry per card

    def kinds(self) -> Counter[str]:
        return Counter(s.kind for s in self.sightings)


@dataclass(frozen=True)
class Card:
    name: str
    effect: tuple[Effect, ...]


@dataclass(frozen=True)
class Trait:
    name: str
    objective: str  # revealed:<kind> | hidden:<kind> | humans:<human> | spots
    bonus: tuple[tuple[int, int], ...]  # (at least, Myth), ascending

    def score(self, amount: int) -> int:
        """The bonus for reaching ``amount`` on the objective: the best row reached, else 0."""
        return max((myth for least, myth in self.bonus if amount >= least), default=0)

    def values(self) -> tuple[int, ...]:
        """Every bonus this trait can give, 0 included."""
        return tuple(sorted({0, *(myth for _, myth in self.bonus)}))


@dataclass(frozen=True)
class Game:
    provenance: str
    start_myth: int
    rounds: int
    hand_size: int
    real_deal_bonus: int
    real_deal: str
    sites: tuple[Site, ...]
    rest_area: tuple[int, int, int]
    cryptids: tuple[Cryptid, ...]
    actions: tuple[Card, ...]  # the Action deck, one entry per card
    events: tuple[Card, ...]  # the Event deck, one entry per card
    traits: tuple[Trait, ...]

    def cryptid(self, name: str) -> int:
        return next(i for i, c in enumerate(self.cryptids) if c.name == name)

    def trait(self, name: str) -> int:
        return next(i for i, t in enumerate(self.traits) if t.name == name)

    def total_humans(self) -> tuple[int, int, int]:
        return tuple(  # type: ignore[return-value]
            self.rest_area[h] + sum(s.humans[h] for s in self.sites) for h in range(len(HUMANS))
        )


# --- the TOML schema -----------------------------------------------------------------

Human = Literal["hikers", "hunters", "researchers"]


def _schema() -> dict[str, Any]:
    """Build the pydantic models lazily (pydantic is imported only when a file is read)."""
    from typing import Annotated

    from pydantic import Field

    from ruleslawyer.gamefiles.schema import StrictModel as Strict

    Myth = Annotated[int, Field(ge=-MAX_MYTH, le=MAX_MYTH)]
    Count = Annotated[int, Field(ge=0, le=MAX_HUMANS)]

    class EffectDoc(Strict):
        op: Literal["attract", "extract", "move"]
        human: Human
        count: int = Field(ge=1, le=MAX_HUMANS)

    Effects = Annotated[list[EffectDoc], Field(max_length=MAX_EFFECTS)]

    class SightingEffectDoc(EffectDoc):
        at: Literal["encounter", "chosen"] = "encounter"
        to: Literal["chosen", "encounter"] = "chosen"

    class BoundsDoc(Strict):
        hikers: Count | None = None
        hunters: Count | None = None
        researchers: Count | None = None

    class MythIfDoc(Strict):
        myth: Myth
        at_least: BoundsDoc = BoundsDoc()
        at_most: BoundsDoc = BoundsDoc()
        most: Human | None = None

    class HumansDoc(Strict):
        hikers: Count = 0
        hunters: Count = 0
        researchers: Count = 0

    class MythDoc(Strict):
        hikers: Myth = 0
        hunters: Myth = 0
        researchers: Myth = 0

    class SightingDoc(Strict):
        kind: str = Field(min_length=1)
        count: int = Field(default=1, ge=1, le=MAX_LIST)
        myth: MythDoc = MythDoc()
        myth_if: list[MythIfDoc] = Field(default_factory=list, max_length=MAX_BONUS_ROWS)
        effect: Annotated[list[SightingEffectDoc], Field(max_length=MAX_EFFECTS)] = Field(
            default_factory=list
        )

    class SiteDoc(Strict):
        name: str = Field(min_length=1)
        symbols: list[Human] = Field(max_length=len(HUMANS))
        humans: HumansDoc = HumansDoc()

    class CryptidDoc(Strict):
        name: str = Field(min_length=1)
        power: Effects = Field(default_factory=list)
        sighting: list[SightingDoc] | None = Field(default=None, max_length=MAX_LIST)

    class CardDoc(Strict):
        name: str = Field(min_length=1)
        count: int = Field(default=1, ge=1, le=MAX_CARDS)
        effect: Effects = Field(default_factory=list)

    class TraitDoc(Strict):
        name: str = Field(min_length=1)
        objective: str = Field(pattern=r"^(revealed:[\w-]+|hidden:[\w-]+|humans:\w+|spots)$")
        bonus: list[Annotated[list[Myth], Field(min_length=2, max_length=2)]] = Field(
            max_length=MAX_BONUS_ROWS
        )

    class GameDoc(Strict):
        game: Literal["twisted-cryptids"] = "twisted-cryptids"
        provenance: Literal["printed", "assumed", "placeholder"] = "placeholder"
        start_myth: Myth = 5
        rounds: int = Field(default=5, ge=1, le=MAX_ROUNDS)
        hand_size: int = Field(default=5, ge=0, le=MAX_HAND)
        real_deal_bonus: Myth = 7
        real_deal: str = "real-deal"
        rest_area: HumansDoc = HumansDoc()
        site: list[SiteDoc] = Field(max_length=MAX_LIST)
        sighting: list[SightingDoc] = Field(default_factory=list, max_length=MAX_LIST)
        cryptid: list[CryptidDoc] = Field(max_length=MAX_LIST)
        action: list[CardDoc] = Field(default_factory=list, max_length=MAX_CARDS)
        event: list[CardDoc] = Field(default_factory=list, max_length=MAX_CARDS)
        trait: list[TraitDoc] = Field(default_factory=list, max_length=MAX_CARDS)
        rulings: dict[str, str] = Field(default_factory=dict)

    return {"GameDoc": GameDoc}


def _effects(docs: list[Any]) -> tuple[Effect, ...]:
    return tuple(
        Effect(
            d.op,
            HUMANS.index(d.human),
            d.count,
            getattr(d, "at", "chosen"),
            getattr(d, "to", "chosen") if d.op == "move" else "chosen",
        )
        for d in docs
    )


def _myth_if(doc: Any) -> MythIf:
    low = tuple(v or 0 for v in _triple(doc.at_least))
    return MythIf(
        doc.myth,
        low,  # type: ignore[arg-type]
        _triple(doc.at_most),  # type: ignore[arg-type]
        HUMANS.index(doc.most) if doc.most is not None else None,
    )


def _triple(doc: Any) -> tuple[int, int, int]:
    return (doc.hikers, doc.hunters, doc.researchers)


def _sightings(docs: list[Any]) -> tuple[Sighting, ...]:
    return tuple(
        Sighting(d.kind, _triple(d.myth), _effects(d.effect), tuple(map(_myth_if, d.myth_if)))
        for d in docs
        for _ in range(d.count)
    )


def _cards(docs: list[Any]) -> tuple[Card, ...]:
    return tuple(Card(d.name, _effects(d.effect)) for d in docs for _ in range(d.count))


def target_count(effects: tuple[Effect, ...], sites: int) -> int:
    """In how many ways the Sites of ``effects`` can be chosen (a Site at the Encounter is
    fixed; a move's two Sites differ)."""
    out = 1
    for e in effects:
        chosen = (e.at == "chosen") + (e.op == "move" and e.to == "chosen")
        out *= (1, sites - (e.op == "move"), sites * (sites - 1))[chosen]
    return out


def _bound_targets(game: Game, display: str) -> None:
    """Every card, Power and Sighting offers at most MAX_TARGET_CHOICES choices of Sites."""
    from ruleslawyer.errors import InputError

    n = len(game.sites)
    places: list[tuple[str, str, tuple[Effect, ...]]] = []
    places += [(f"cryptid[{i}].power", c.name, c.power) for i, c in enumerate(game.cryptids)]
    places += [("sighting", s.kind, s.effect) for c in game.cryptids for s in c.sightings]
    places += [("action", c.name, c.effect) for c in game.actions]
    places += [("event", c.name, c.effect) for c in game.events]
    for place, name, effects in places:
        ways = target_count(effects, n)
        if ways > MAX_TARGET_CHOICES:
            raise InputError(
                display,
                place,
                f"{name} with {len(effects)} effects and {ways} ways to choose their Sites",
                f"at most {MAX_TARGET_CHOICES} ways (e.g. two moves, or a move and two attracts)",
            )


def parse_game(document: Mapping[str, Any], display: str) -> Game:
    """Validate a parsed game file (InputError on bad types or unknown keys) and build the Game."""
    game = _build_game(document, display)
    _bound_targets(game, display)
    return game


def _build_game(document: Mapping[str, Any], display: str) -> Game:
    from ruleslawyer.gamefiles.source import validate

    doc = validate(_schema()["GameDoc"], document, display)
    shared = _sightings(doc.sighting)
    return Game(
        provenance=doc.provenance,
        start_myth=doc.start_myth,
        rounds=doc.rounds,
        hand_size=doc.hand_size,
        real_deal_bonus=doc.real_deal_bonus,
        real_deal=doc.real_deal,
        sites=tuple(
            Site(s.name, tuple(HUMANS.index(h) for h in s.symbols), _triple(s.humans))
            for s in doc.site
        ),
        rest_area=_triple(doc.rest_area),
        cryptids=tuple(
            Cryptid(
                c.name,
                _effects(c.power),
                _sightings(c.sighting) if c.sighting is not None else shared,
            )
            for c in doc.cryptid
        ),
        actions=_cards(doc.action),
        events=_cards(doc.event),
        traits=tuple(
            Trait(t.name, t.objective, tuple(sorted((a, b) for a, b in t.bonus))) for t in doc.trait
        ),
    )


def load_game(source: Any) -> Game:
    """The Game of a :class:`~ruleslawyer.gamefiles.source.GameSource`."""
    return parse_game(source.document, source.display)


def builtin_game() -> Game:
    from ruleslawyer.gamefiles.source import builtin_path, read_toml

    _, doc = read_toml(builtin_path("twisted-cryptids.toml"))
    return parse_game(doc, "ruleslawyer/data/twisted-cryptids.toml")


def structural_problems(game: Game, document: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Structural rules the rulebook states, as (place, message) pairs in file order."""
    problems: list[tuple[str, str]] = []
    if len(game.sites) != SITE_COUNT:
        problems.append(("site", f"found {len(game.sites)} Sites, expected {SITE_COUNT}"))
    for i, site in enumerate(game.sites):
        if len(site.symbols) != 2 or len(set(site.symbols)) != 2:
            problems.append(
                (
                    f"site[{i}].symbols",
                    f"found {[HUMANS[h] for h in site.symbols]}, expected two distinct kinds",
                )
            )
        for h, n in enumerate(site.humans):
            if n and h not in site.symbols:
                problems.append(
                    (
                        f"site[{i}].humans.{HUMANS[h]}",
                        f"found {n} {HUMANS[h]} on a Site without that symbol, expected 0",
                    )
                )
    looping = {
        s.kind
        for c in game.cryptids
        for s in c.sightings
        if any(e.op == "move" and e.at == e.to == "encounter" for e in s.effect)
    }
    for kind in sorted(looping):
        problems.append(
            (
                "sighting",
                f"found a {kind} move from the Encounter Site to itself, expected a chosen Site "
                "at one end",
            )
        )
    names = [s.name for s in game.sites]
    for i, name in enumerate(names):
        if names.index(name) != i:
            problems.append((f"site[{i}].name", f"found a second Site named {name!r}"))
    cryptid_docs = document.get("cryptid", [])
    for i, cryptid in enumerate(game.cryptids):
        n = len(cryptid.sightings)
        if n != SIGHTINGS_PER_CRYPTID:
            own = isinstance(cryptid_docs, list) and i < len(cryptid_docs)
            own = own and "sighting" in cryptid_docs[i]
            place = f"cryptid[{i}].sighting" if own else "sighting"
            problems.append(
                (place, f"found {n} Sightings for {cryptid.name}, expected {SIGHTINGS_PER_CRYPTID}")
            )
    cnames = [c.name for c in game.cryptids]
    for i, name in enumerate(cnames):
        if cnames.index(name) != i:
            problems.append((f"cryptid[{i}].name", f"found a second Cryptid named {name!r}"))
    for i, trait in enumerate(game.traits):
        what, _, arg = trait.objective.partition(":")
        if what == "humans" and arg not in HUMANS:
            problems.append((f"trait[{i}].objective", f"found Human kind {arg!r}"))
    # Setup: "shuffle the Hidden Trait cards ... and deal two to each player" (one player
    # per Cryptid at most).
    if len(game.traits) < 2 * len(game.cryptids):
        problems.append(
            (
                "trait",
                f"found {len(game.traits)} Hidden Trait cards, expected at least "
                f"{2 * len(game.cryptids)} (two for each of up to {len(game.cryptids)} players)",
            )
        )
    if not game.events:
        problems.append(("event", "found no Event cards, expected one to flip each Dawn"))
    return problems
