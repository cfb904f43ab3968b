"""Twisted Cryptids: the rule points of the rulebook.

The game file lives in :mod:`ruleslawyer.models.twisted_cryptids.game`, the
round structure (setup, Dawn, Day, Dusk, Night, end scoring) in
:mod:`ruleslawyer.models.twisted_cryptids.play`.
"""

from __future__ import annotations

from ruleslawyer.findings import Kind, Reading, RulePoint, Sentence

GAME = "twisted-cryptids"
RULEBOOK = "twisted-cryptids-rules.txt"


def _say(section: str, text: str) -> Sentence:
    return Sentence(RULEBOOK, section, text)


OWN_SITE = _say(
    "Setup",
    "You may not place a Hiding Spot token on a Site that already has one of your "
    "Hiding Spot tokens.",
)
CAPS = _say(
    "Setup",
    "When playing with 4 players, no more than 3 players may have a Hiding Spot token at any "
    "one Site. When playing with 5 or 6 players, no more than 4 players may have a Hiding Spot "
    "token at any one Site.",
)
RELOCATE = _say(
    "Night Phase",
    "If you have a Hiding Spot token on one of your Stacks from Dusk, place that Hiding Spot "
    "on a different Site than the Site at which the Encounter occurred.",
)
OPTIONAL_MOVE = _say(
    "Night Phase",
    "If you do not have a Hiding Spot token on one of your Stacks, you may move one of your "
    "Hiding Spots in The Wilderness, placing it on a new Site.",
)
ENCOUNTER = _say(
    "Dusk Phase",
    "To determine where the Encounter occurs, find the Site with the most Humans that has at "
    "least one Hiding Spot.",
)
MYTH = _say(
    "Dusk Phase",
    "When you reveal a Sighting, start by gaining (or losing) Myth depending on the "
    "distribution of Humans at the Site of the Encounter as specified on the Sighting card.",
)
SETUP_ORDER = _say(
    "Setup",
    "In player order (starting with the First Player and proceeding clockwise), place one of "
    "your Hiding Spot tokens on a Site in The Wilderness.",
)
REVEAL_ORDER = _say(
    "Dusk Phase",
    "Next, resolve the effect of that Sighting, then set it aside face up next to you. ... "
    "then the next player who has a Hiding Spot at the Site of the Encounter will reveal their "
    "Sighting.",
)
TIE_BREAK = _say(
    "End of the game",
    "In the event of a tie, tally the number of Humans on the Sites where you have Hiding Spots.",
)
FIFTH_ROUND = _say(
    "Night Phase",
    "(If you are in the fifth round, skip this step and discard any remaining cards in your hand.)",
)

NIGHT_STEPS = _say("Night Phase", "In player order, take the following steps:")
BOX = _say(
    "Dusk Phase",
    "If, during Dusk, you reveal the final Sighting in one of your Stacks and now that Stack is "
    "empty, return the corresponding Hiding Spot token to the game box.",
)
EVENT = _say(
    "Dawn Phase",
    "At the start of the round, the First Player will flip the top card of the Event deck, add "
    "it face up to the Current Event pile, and resolve the listed effects from top to bottom.",
)
CHOOSE_CRYPTID = _say(
    "Setup",
    "Have each player choose a Cryptid and take the corresponding components: 1 Cryptid card, 1 "
    "Cryptid meeple, 9 Sighting cards, and 3 Hiding Spot tokens.",
)
SINKHOLE = _say("Components", "1 Sinkhole token")

RELOCATION_DEADLOCK = RulePoint(
    id=f"{GAME}/relocation-deadlock",
    title="A Hiding Spot returned at Dusk can have no legal Site at Night",
    kind=Kind.GAP,
    sentences=(RELOCATE, OWN_SITE, CAPS),
)
SMALL_GAME_CAP = RulePoint(
    id=f"{GAME}/small-game-cap",
    title="No cap on players per Site is given for 2 or 3 players",
    kind=Kind.AMBIGUITY,
    sentences=(CAPS,),
    readings=(
        Reading("no-cap", "with 2 or 3 players any number of players may share a Site"),
        Reading("cap-3", "with 2 or 3 players at most 3 players may have a Hiding Spot at a Site"),
    ),
    default="no-cap",
)
OPTIONAL_MOVE_CONSTRAINTS = RulePoint(
    id=f"{GAME}/optional-move-constraints",
    title="Do the placement limits bind the optional Night move?",
    kind=Kind.AMBIGUITY,
    sentences=(OPTIONAL_MOVE, OWN_SITE, CAPS),
    readings=(
        Reading("constrained", "the new Site must respect the cap as a placement does"),
        Reading(
            "free",
            "the cap speaks only of placement: a move may go to a Site at the cap (onto a Site "
            "with another of your spots: twisted-cryptids/night-own-site)",
        ),
    ),
    default="constrained",
)
NIGHT_OWN_SITE = RulePoint(
    id=f"{GAME}/night-own-site",
    title="Does the one-spot-per-Site limit of the setup bind the Night moves?",
    kind=Kind.AMBIGUITY,
    sentences=(OWN_SITE, OPTIONAL_MOVE, RELOCATE),
    readings=(
        Reading(
            "binds",
            "a Night move or placement never goes to a Site that already has one of your "
            "Hiding Spots, as at setup",
        ),
        Reading(
            "setup-only",
            "the limit is printed in the setup list, as the cap is: at Night a spot may join "
            "another of yours; at Dusk each of your spots at the Encounter Site reveals its "
            "own Stack, in token order",
        ),
    ),
    default="binds",
)
NIGHT_PLACEMENT_LIMITS = RulePoint(
    id=f"{GAME}/night-placement-limits",
    title="Do the setup placement limits bind the Hiding Spot placed at Night?",
    kind=Kind.AMBIGUITY,
    sentences=(RELOCATE, OWN_SITE, CAPS),
    readings=(
        Reading(
            "constrained",
            "the returned Hiding Spot goes to a Site other than the Encounter Site that also "
            "respects the cap, as a setup placement does",
        ),
        Reading(
            "free",
            "the cap is a setup rule: the Night sentence asks only for a Site other than the "
            "Encounter Site (onto a Site with another of your spots: "
            "twisted-cryptids/night-own-site)",
        ),
    ),
    default="constrained",
)
MYTH_FLOOR = RulePoint(
    id=f"{GAME}/myth-floor",
    title="A Sighting can lose more Myth than the Cryptid has",
    kind=Kind.GAP,
    sentences=(MYTH,),
    readings=(
        Reading("floor-at-zero", "Myth stops at 0 (the Myth Track has no negative spaces)"),
        Reading("negative", "Myth can go below 0 and is carried as a negative score"),
    ),
    default="floor-at-zero",
)
NO_HIDING_SPOT_ENCOUNTER = RulePoint(
    id=f"{GAME}/no-hiding-spot-encounter",
    title="No Site has a Hiding Spot at Dusk",
    kind=Kind.GAP,
    sentences=(ENCOUNTER,),
)
SETUP_STALL = RulePoint(
    id=f"{GAME}/setup-stall",
    title="A player can find no legal Site during setup placement",
    kind=Kind.GAP,
    sentences=(SETUP_ORDER, OWN_SITE, CAPS),
)
ENCOUNTER_SCOPE = RulePoint(
    id=f"{GAME}/encounter-site-scope",
    title="Most Humans among Sites with a Hiding Spot, or the busiest Site if it has one?",
    kind=Kind.AMBIGUITY,
    sentences=(ENCOUNTER,),
    readings=(
        Reading(
            "among-hiding-spots",
            "the Encounter is at the Site with the most Humans among the Sites with a Hiding Spot",
        ),
        Reading(
            "busiest-site",
            "the Encounter is at the Site(s) with the most Humans, only if it has a Hiding Spot "
            "(otherwise there is no Encounter)",
        ),
    ),
    default="among-hiding-spots",
)
TIE_BREAK_COUNT = RulePoint(
    id=f"{GAME}/tie-break-count",
    title="Which Hiding Spots the end of the game counts: after or before the fifth Night",
    kind=Kind.AMBIGUITY,
    sentences=(TIE_BREAK, FIFTH_ROUND),
    readings=(
        Reading(
            "after-final-night",
            "the end (the tie-break tally and the Hidden Traits that count Hiding Spots or the "
            "Humans at them) counts the Sites where your Hiding Spots stand after the fifth "
            "Night's moves and placements",
        ),
        Reading(
            "before-final-night",
            "the end counts the Sites where your Hiding Spots stood at the start of the fifth "
            "Night, before any Hiding Spot moved: for the tie-break tally and the Hidden Traits "
            "alike",
        ),
    ),
    default="after-final-night",
)

DUSK_REVEAL_ORDER = RulePoint(
    id=f"{GAME}/dusk-reveal-order",
    title="Does a later reveal see the Humans an earlier Sighting's effect moved?",
    kind=Kind.AMBIGUITY,
    sentences=(MYTH, REVEAL_ORDER),
    readings=(
        Reading(
            "sequential",
            "each reveal scores the Humans at the Encounter Site as the previous reveal's effect "
            "left them (the First Player's seat order matters)",
        ),
        Reading(
            "as-encountered",
            "every reveal scores the distribution of Humans when the Encounter began",
        ),
    ),
    default="sequential",
)

NIGHT_ORDER = RulePoint(
    id=f"{GAME}/night-order",
    title="Night in player order: each player all three steps, or each step by all players?",
    kind=Kind.AMBIGUITY,
    sentences=(NIGHT_STEPS, OPTIONAL_MOVE, RELOCATE),
    readings=(
        Reading(
            "each-player",
            "each player in turn takes every step (move, place, discard and draw) before the "
            "next player starts",
        ),
        Reading(
            "each-step",
            "every player in player order takes the first step, then every player the second, "
            "then the third: all optional moves come before any returned spot is placed",
        ),
    ),
    default="each-player",
)
EVENT_CHOOSER = RulePoint(
    id=f"{GAME}/event-chooser",
    title="Who chooses the Sites of an Event's effects, and in what order?",
    kind=Kind.AMBIGUITY,
    sentences=(EVENT,),
    readings=(
        Reading(
            "first-player",
            "the First Player, who flips and resolves the Event, chooses the Sites of every "
            "effect, top to bottom",
        ),
        Reading(
            "player-order",
            "the effects are resolved top to bottom, each by the next player in player order "
            "starting with the First Player, who chooses its Sites",
        ),
    ),
    default="first-player",
)
PLAYER_COUNT = RulePoint(
    id=f"{GAME}/player-count",
    title="The rulebook never states how many players the game is for",
    kind=Kind.AMBIGUITY,
    sentences=(CHOOSE_CRYPTID, CAPS),
    readings=(
        Reading(
            "two-to-six",
            "any count the components allow: 2 to 6 players (6 Cryptids in the box)",
        ),
        Reading(
            "four-to-six",
            "only the counts the placement caps speak of: 4, 5 or 6 players",
        ),
    ),
    default="two-to-six",
)
SINKHOLE_TOKEN = RulePoint(
    id=f"{GAME}/sinkhole-token",
    title="The Sinkhole token is listed among the components but no rule uses it",
    kind=Kind.GAP,
    sentences=(SINKHOLE,),
)
BOXED_SPOT_MOVE = RulePoint(
    id=f"{GAME}/boxed-spot-move",
    title="May a player whose Hiding Spot went to the box at this Dusk make the optional move?",
    kind=Kind.AMBIGUITY,
    sentences=(OPTIONAL_MOVE, BOX),
    readings=(
        Reading(
            "may-move",
            "as written: the boxed token is on no Stack, so the player may move one of their "
            "Hiding Spots like a player who did not reveal",
        ),
        Reading(
            "no-move",
            "the optional move is for players who kept their Hiding Spots through Dusk: a player "
            "who revealed at this Encounter does not move",
        ),
    ),
    default="may-move",
)

RULE_POINTS: tuple[RulePoint, ...] = (
    RELOCATION_DEADLOCK,
    SMALL_GAME_CAP,
    OPTIONAL_MOVE_CONSTRAINTS,
    NIGHT_OWN_SITE,
    NIGHT_PLACEMENT_LIMITS,
    MYTH_FLOOR,
    NO_HIDING_SPOT_ENCOUNTER,
    SETUP_STALL,
    ENCOUNTER_SCOPE,
    TIE_BREAK_COUNT,
    DUSK_REVEAL_ORDER,
    NIGHT_ORDER,
    EVENT_CHOOSER,
    PLAYER_COUNT,
    SINKHOLE_TOKEN,
    BOXED_SPOT_MOVE,
)
