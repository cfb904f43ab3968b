"""Cunning Folk: roles, the village grid, setups and the rule points.

The village is nine townsfolk cards in a 3x3 grid, cells ``A1``..``C3``
(column letter, row number), listed in the fixed order A1, A2, A3, B1, ..., C3.
A setup names the cards dealt into the village: ``standard`` (the nine printed
townsfolk), ``bonus`` (named villagers replaced, publicly, by named bonus
characters) and ``scoundrels`` (each player secretly adds one card).

The game itself, as an immutable state machine, is in
:mod:`ruleslawyer.models.cunning_folk.play`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from ruleslawyer.errors import InputError
from ruleslawyer.findings import Kind, Reading, RulePoint, Sentence

GAME = "cunning-folk"
RULEBOOK = "cunning-folk-rules.txt"
MIN_PLAYERS, MAX_PLAYERS = 2, 4

GOOD_WITCH, GOOD_ELDER = "good-witch", "good-elder"
EVIL_WITCH, EVIL_ELDER = "evil-witch", "evil-elder"
VILLAGER, LIAR, CAT, PIRATE, VAGRANT = "villager", "liar", "cat", "pirate", "vagrant"
ROLES: tuple[str, ...] = (
    GOOD_WITCH,
    GOOD_ELDER,
    EVIL_WITCH,
    EVIL_ELDER,
    VILLAGER,
    LIAR,
    CAT,
    PIRATE,
    VAGRANT,
)
ELDERS: tuple[str, ...] = (GOOD_ELDER, EVIL_ELDER)
# Every role a claim may name: "You can lie about which character is on the card" and "You
# can declare that you've found a villager if you like", in the game or not; never the liar
# ("you cannot declare that you've seen the liar").
CLAIMABLE: tuple[str, ...] = tuple(r for r in ROLES if r != LIAR)
BONUS_CHARACTERS: tuple[str, ...] = (LIAR, CAT, PIRATE, VAGRANT, GOOD_WITCH)
SETUPS: tuple[str, ...] = ("standard", "bonus", "scoundrels")

CELLS: tuple[str, ...] = tuple(f"{col}{row}" for col in "ABC" for row in "123")
CELL_INDEX: dict[str, int] = {c: i for i, c in enumerate(CELLS)}

# Who each elder must identify: "the evil townsfolk" for the good elder, "the townsfolk
# that oppose him" for the evil elder; "the pirate opposes everyone".
OPPOSITION: dict[str, frozenset[str]] = {
    GOOD_ELDER: frozenset({EVIL_WITCH, EVIL_ELDER, PIRATE}),
    EVIL_ELDER: frozenset({GOOD_WITCH, GOOD_ELDER, PIRATE}),
}

# The printed counts (also in ruleslawyer/data/cunning-folk.toml, which the checks verify).
STANDARD_COUNTS: dict[str, int] = {
    GOOD_WITCH: 2,
    GOOD_ELDER: 1,
    EVIL_WITCH: 2,
    EVIL_ELDER: 1,
    VILLAGER: 3,
}
SCOUNDREL_CORE: dict[str, int] = {GOOD_WITCH: 2, GOOD_ELDER: 1, EVIL_WITCH: 2, EVIL_ELDER: 1}
SCOUNDREL_POOL: dict[str, int] = {
    LIAR: 1,
    CAT: 1,
    PIRATE: 1,
    VAGRANT: 1,
    GOOD_WITCH: 1,
    VILLAGER: 3,
}


def opposes(elder: str, role: str) -> bool:
    """Whether ``role`` is one of the townsfolk ``elder`` must identify."""
    return role in OPPOSITION[elder]


def cards_of(counts: Mapping[str, int]) -> tuple[str, ...]:
    """A multiset of roles as a tuple in :data:`ROLES` order."""
    return tuple(role for role in ROLES for _ in range(counts.get(role, 0)))


@dataclass(frozen=True)
class Setup:
    """The cards a village may hold.

    ``compositions`` lists every multiset of cards the village can be dealt
    from (one for standard and bonus; several for scoundrels, where the added
    cards are secret). ``public`` says whether everyone knows which one.
    """

    name: str
    compositions: tuple[tuple[str, ...], ...]
    weights: tuple[int, ...] = ()  # per composition: each arrangement's weight (empty: all 1)

    def weight(self, k: int) -> int:
        """The prior weight of each arrangement of composition ``k``."""
        return self.weights[k] if self.weights else 1

    @property
    def public(self) -> bool:
        return len(self.compositions) == 1

    @property
    def cards(self) -> tuple[str, ...]:
        """The one composition of a public setup."""
        if not self.public:
            raise ValueError(f"the {self.name} setup has no single public composition")
        return self.compositions[0]

    @property
    def roles(self) -> tuple[str, ...]:
        """Every role that can be in the village, in :data:`ROLES` order."""
        present = {r for cards in self.compositions for r in cards}
        return tuple(r for r in ROLES if r in present)

    @property
    def declares(self) -> bool:
        """Scoundrels rule: an elder says when the opposition is found; opponents may answer."""
        return self.name == "scoundrels"


def standard_setup() -> Setup:
    return Setup("standard", (cards_of(STANDARD_COUNTS),))


def bonus_setup(
    bonus: Sequence[str],
    *,
    source: str = "bonus",
    place: str = "bonus",
    standard: Mapping[str, int] = STANDARD_COUNTS,
    characters: Sequence[str] = BONUS_CHARACTERS,
    replaces: str = VILLAGER,
) -> Setup:
    """The ``standard`` village with one ``replaces`` card (a villager) replaced by each named
    bonus character (one of ``characters``); a game file gives its own three."""
    for i, role in enumerate(bonus):
        if role not in characters:
            raise InputError(source, f"{place}[{i}]", role, f"one of {', '.join(characters)}")
    if len(set(bonus)) != len(bonus):
        raise InputError(source, place, list(bonus), "each bonus character at most once")
    counts = Counter(standard)
    if len(bonus) > counts[replaces]:
        n = counts[replaces]
        raise InputError(
            source, place, list(bonus), f"at most {n} bonus characters ({n} {replaces} cards)"
        )
    counts[replaces] -= len(bonus)
    counts.update(bonus)
    return Setup("bonus", (cards_of(counts),))


SCOUNDREL_PRIOR = (
    "scoundrels deal: the pool is shuffled, two cards dealt to each player, each player keeps "
    "either card with equal chance (players' choices are not modelled), then the village is "
    "shuffled; every (kept cards, arrangement) outcome of that process weighs the same"
)


def scoundrel_setup(
    players: int,
    kept: Sequence[str] = (),
    discarded: Sequence[str] = (),
    *,
    core_counts: Mapping[str, int] = SCOUNDREL_CORE,
    pool_counts: Mapping[str, int] = SCOUNDREL_POOL,
) -> Setup:
    """Every village the scoundrels deal can make for ``players``: core plus one kept card each.

    ``kept`` and ``discarded`` are cards one player knows are in and out of the game.
    Each composition is weighted by the dealing process (:data:`SCOUNDREL_PRIOR`): with
    the kept card drawn evenly from the two dealt, the other players' kept cards are an
    even draw of physical cards from what is left of the pool, so a composition that adds
    ``a_r`` cards of role ``r`` has C(left_r, a_r) ways; each of its distinct arrangements
    stands for prod(count_r!) orders of the physical cards. Weights are divided by their
    common divisor, so they are the smallest integers in the right proportion.
    """
    pool = Counter(pool_counts)
    pool.subtract(discarded)
    pool.subtract(kept)
    free = players - len(kept)
    core = cards_of(core_counts)
    found: dict[tuple[str, ...], int] = {}
    for added in _sub_multisets(cards_of(+pool), free):
        cards = tuple(sorted(core + tuple(kept) + added, key=ROLES.index))
        ways = math.prod(math.comb(pool[r], n) for r, n in Counter(added).items())
        orders = math.prod(math.factorial(n) for n in Counter(cards).values())
        found[cards] = ways * orders
    order = sorted(found, key=lambda c: [ROLES.index(r) for r in c])
    common = math.gcd(*found.values()) if found else 1
    return Setup("scoundrels", tuple(order), tuple(found[c] // common for c in order))


def _sub_multisets(cards: tuple[str, ...], size: int) -> Iterator[tuple[str, ...]]:
    if size == 0:
        yield ()
        return
    for i, card in enumerate(cards):
        if i and cards[i - 1] == card:
            continue
        for rest in _sub_multisets(cards[i + 1 :], size - 1):
            yield (card, *rest)


def arrangements(cards: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct arrangement of a multiset of cards over the cells, in lexicographic order."""
    counts = Counter(cards)
    order = [r for r in ROLES if r in counts]
    out: list[tuple[str, ...]] = []
    current: list[str] = []

    def place(left: int) -> None:
        if left == 0:
            out.append(tuple(current))
            return
        for role in order:
            if counts[role]:
                counts[role] -= 1
                current.append(role)
                place(left - 1)
                current.pop()
                counts[role] += 1

    place(len(cards))
    return out


def _s(section: str, text: str) -> Sentence:
    return Sentence(RULEBOOK, section, text)


RULE_POINTS: tuple[RulePoint, ...] = (
    RulePoint(
        id="cunning-folk/multiple-challengers",
        title="Who is suspected when several players challenge a true claim",
        kind=Kind.AMBIGUITY,
        sentences=(
            _s("Turn", "If anyone challenges, flip the townsfolk you looked at face-up."),
            _s(
                "Turn",
                "If you were telling the truth, then you may take the action on the card. "
                "The player who challenged you must take a suspected card and place it in "
                "front of her or himself.",
            ),
        ),
        readings=(
            Reading("each-challenger", "every player who challenged takes a suspected card"),
            Reading("first-challenger", "only the first challenger (from the claimant's left)"),
        ),
        default="each-challenger",
    ),
    RulePoint(
        id="cunning-folk/villager-challenge",
        title="Whether a challenged villager claim puts anyone under suspicion",
        kind=Kind.AMBIGUITY,
        sentences=(
            _s(
                "Townsfolk",
                "You can declare that you've found a villager if you like, in which case "
                "another player can challenge you, but you will take no action regardless.",
            ),
        ),
        readings=(
            Reading(
                "penalty-applies",
                "as for any claim: a wrong challenger, or a bluffer, takes a suspected card",
            ),
            Reading("no-penalty", "the card is flipped but nobody takes a suspected card"),
        ),
        default="penalty-applies",
    ),
    RulePoint(
        id="cunning-folk/elder-face-up-picks",
        title="Whether an elder run may choose a card that is already face up",
        kind=Kind.AMBIGUITY,
        sentences=(
            _s(
                "Townsfolk",
                "One at a time, choose a townsfok. If it's face-down turn it face-up. "
                "If it's evil, continue.",
            ),
        ),
        readings=(
            Reading("counts", "any card may be chosen; a face-up opposing card counts"),
            Reading(
                "face-down-only",
                "only face-down cards may be chosen, so an opposing card already face up "
                "is never identified and the run cannot win",
            ),
        ),
        default="counts",
    ),
    RulePoint(
        id="cunning-folk/pirate-unknown",
        title="An elder must reveal the pirate 'when he is present'; in the scoundrels "
        "variant whether he is present is hidden, and the declaration rule settles it",
        kind=Kind.INFO,
        sentences=(
            _s(
                "Bonus characters",
                "a player taking either elder action must also reveal the pirate when he "
                "is present.",
            ),
            _s(
                "A village full of scoundrels",
                "Since you don't always know how many townsfolk oppose each elder",
            ),
        ),
    ),
    RulePoint(
        id="cunning-folk/scoundrels-village-size",
        title="The scoundrels deal makes 8 or 10 cards for 2 or 4 players, not a 3x3 village",
        kind=Kind.GAP,
        sentences=(
            _s(
                "A village full of scoundrels",
                "Deal two of them to each player face-down. Choose one of the cards you're "
                "dealt and add it secretly to the pile of good and evil townsfolk.",
            ),
            _s("Setup", "place them face-down in a 3x3 grid to form a village."),
        ),
    ),
    RulePoint(
        id="cunning-folk/endless-passing",
        title="Nothing forces a claim: players may pass forever",
        kind=Kind.NON_TERMINATION,
        sentences=(
            _s(
                "Turn",
                "Allege (optional) Yu may announce which townsfolk you looked at, to try "
                "and use it's ability.",
            ),
            _s(
                "GAME END",
                "The game ends when a player has used an elder ability and sucessfully "
                "identified all the townsfolk that oppose that elder.",
            ),
        ),
    ),
    RulePoint(
        id="cunning-folk/endless-extra-turns",
        title="An unchallenged good witch claim gives another turn, without end",
        kind=Kind.NON_TERMINATION,
        sentences=(_s("Townsfolk", "The two good witches let you take another turn immediately."),),
    ),
    RulePoint(
        id="cunning-folk/optional-action",
        title="Whether a player who has earned an action may decline it",
        kind=Kind.AMBIGUITY,
        sentences=(
            _s(
                "Turn",
                "If no one challenges your claim, take the action associated with that rule.",
            ),
            _s("Turn", "If you were telling the truth, then you may take the action on the card."),
        ),
        readings=(
            Reading("must-act", "an earned swap, trade or elder run must be taken"),
            Reading(
                "may-decline",
                "the player may decline it (before the first pick of an elder run)",
            ),
        ),
        default="must-act",
    ),
    RulePoint(
        id="cunning-folk/cat-meow",
        title="The cat's action changes nothing: claiming the cat is a claim without effect",
        kind=Kind.DEAD_RULE,
        sentences=(_s("Bonus characters", "The cat meows. When you take the cat's action, meow."),),
    ),
    RulePoint(
        id="cunning-folk/liar-face-up",
        title="Whether a player who looks at a face-up liar must still make a claim",
        kind=Kind.AMBIGUITY,
        sentences=(
            _s(
                "Bonus characters",
                "When you choose a townsfolk to look at for your turn and it's the liar, you "
                "cannot pass the turn by making no claim, and you cannot declare that you've "
                "seen the liar.",
            ),
        ),
        readings=(
            Reading("must-claim", "even a face-up liar forces a claim: a public, certain bluff"),
            Reading("may-pass", "the liar forces a claim only when he is face down"),
        ),
        default="must-claim",
    ),
    RulePoint(
        id="cunning-folk/swap-face-up",
        title="Whether face-up cards turn face-down when the evil witch leaves them in place",
        kind=Kind.AMBIGUITY,
        sentences=(
            _s(
                "Townsfolk",
                "The end result might be the same or the opposite of how they started. "
                "Whenever you swap face-up townsfolk, turn them face-down.",
            ),
        ),
        readings=(
            Reading("turn-down", "picking them up to swap turns them face-down either way"),
            Reading("only-if-swapped", "only cards that actually changed places turn face-down"),
        ),
        default="turn-down",
    ),
    RulePoint(
        id="cunning-folk/elder-run-stop",
        title="Whether an elder run may stop after an opposing card, before it wins or fails",
        kind=Kind.AMBIGUITY,
        sentences=(
            _s("Townsfolk", "If it's evil, continue."),
            _s(
                "Townsfolk",
                "Otherwise your turn ends immediately and you must take a suspected card, or "
                "flip it to the ostracized side if you already have one.",
            ),
        ),
        readings=(
            Reading(
                "must-continue",
                "after an opposing card the run goes on: it ends only with a card that does "
                "not oppose (a penalty), a win or (scoundrels) a declaration; with "
                "face-down-only picks a player can be forced to pick into a penalty",
            ),
            Reading("may-stop", "the player may end the run after any opposing card, unpunished"),
        ),
        default="must-continue",
    ),
    RulePoint(
        id="cunning-folk/declare-without-picks",
        title="Scoundrels: whether an elder may declare before identifying anyone",
        kind=Kind.AMBIGUITY,
        sentences=(
            _s(
                "A village full of scoundrels",
                "When you think you've identified the opposition, say so.",
            ),
            _s(
                "A village full of scoundrels",
                "it's possible to take one of the elder actions, identify 3(or even 4) "
                "opposing character and still not have identified all of them.",
            ),
        ),
        readings=(
            Reading(
                "allowed",
                "the declaration may come at once: the declarer can win while identifying "
                "nothing, if no opponent finds an opposing card",
            ),
            Reading("after-a-pick", "only after at least one opposing card has been picked"),
        ),
        default="allowed",
    ),
    RulePoint(
        id="cunning-folk/challenge-order",
        title="In what order the other players may challenge a claim",
        kind=Kind.AMBIGUITY,
        sentences=(
            _s("Turn", "If you choose to allege, any other player may challenge your claim:"),
            _s(
                "Turn",
                "The player who challenged you must take a suspected card and place it in "
                "front of her or himself.",
            ),
        ),
        readings=(
            Reading(
                "from-left",
                "each other player answers in turn from the claimant's left (as the "
                "scoundrels answers go, 'in turn order starting on your left')",
            ),
            Reading(
                "first-to-speak",
                "any other player may speak first; the first challenger is whoever spoke first",
            ),
        ),
        default="from-left",
    ),
    RulePoint(
        id="cunning-folk/later-games",
        title="Who takes the first turn in the second and later games",
        kind=Kind.INFO,
        sentences=(
            _s(
                "Gameplay",
                "For the second and subsequent games, the first turn always passes left.",
            ),
        ),
    ),
)

# Rules out of the model's reach: each an info finding that says so, with its sentence.
NOT_MODELLED: dict[str, str] = {
    "cunning-folk/later-games": (
        "The model plays one game at a time, the owner (the first seat) taking the first "
        "turn; a series of games is not modelled, and logs do not check turn order, so who "
        "starts a later game is never checked."
    ),
}

POINTS: dict[str, RulePoint] = {p.id: p for p in RULE_POINTS}
