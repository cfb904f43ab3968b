"""The Kaelyfos rule points: where the rulebook is silent, ambiguous or contradicts itself.

Ids and reading names are part of the interface (rulings in game files and
``--ruling`` name them). The default reading comes first.
"""

from __future__ import annotations

from ruleslawyer.findings import Kind, Reading, RulePoint, Sentence

RULEBOOK = "unsettled-kaelyfos-rulebook.txt"


def _s(section: str, text: str) -> Sentence:
    return Sentence(RULEBOOK, section, text)


EXAMPLE_ATTACK = _s(
    "Bloodsuckers (example behavior card)",
    "Each bloodsucker gives a distress to an explorer on their node and is then removed from play.",
)
ATTACK = _s(
    "Attack",
    "Each bloodsucker gives a distress to an explorer on their node and is returned to the supply.",
)
MOVE = _s("Move", "Each bloodsucker moves the amount indicated, toward the nearest explorer.")
TRAP_NEARER = _s(
    "Move", "If a trap is nearer than any explorer, bloodsuckers will move toward the trap."
)
PHEROMONES = _s(
    "Move",
    "The bloodsucker will move toward the tied option that takes them over the most pheromone "
    "dots on their current node.",
)
TRAPPED = _s(
    "Traps",
    "If a bloodsucker moves onto a node with a trap, it is instantly trapped (even if explorers "
    "are also present); place it on the trap token.",
)
DESTROYED = _s("Traps", "If a trap has caught 2 bloodsuckers it is destroyed.")
COUNT_AS = _s(
    "Reference & FAQ",
    'Bloodsuckers caught in traps count as "bloodsuckers" where effects are concerned.',
)
IGNORE_SCARAB = _s(
    "Reference & FAQ", "Bloodsuckers completely ignore the Scarab and any explorers on it."
)
SPAWN = _s(
    "Spawn", "Place a bloodsucker (black marker) on the nests indicated, in the order shown."
)
FACE_DOWN = _s(
    "Quick Setup",
    'Separate the remaining environment cards by "exterior" and "interior" (see card backs), '
    "and place them face-down as shown.",
)
ORDER = _s(
    "Bloodsuckers",
    "Bloodsuckers will spawn on nests, move toward explorers, and then attack any explorers on "
    "their node. In that order.",
)
NOT_ADJACENT = _s(
    "Interior vs Exterior",
    "All other nodes across the separation from each other are not considered adjacent.",
)

EQUALLY_CLOSE = _s(
    "Move",
    "If multiple explorers are equally close—or if 2 directions take the bloodsucker equally "
    "close to the nearest explorer—look at the dots on the bloodsucker's node; these represent "
    "pheromone levels present in the environment.",
)
ONE_NIGHTMARE = _s(
    "Reference & FAQ",
    "You can only experience 1 waking nightmare per turn, even if attacked multiple times.",
)
GAIN_DISTRESS = _s(
    "Waking Nightmares",
    "When you gain distress, it will instruct you to draw a waking nightmare card.",
)
TRIGGER = _s(
    "Bloodsuckers",
    "When the time marker reaches a bloodsucker (triangle) trigger token: reveal and resolve a "
    "bloodsucker behavior card.",
)
BUILD = _s(
    "Traps",
    "If you are on a node with an empty build site, you may build a trap as a free action by "
    "spending 1 material and placing an available trap token onto that build site.",
)
DESTROY = _s(
    "Reference & FAQ",
    "You may destroy a trap on your node (and any bloodsuckers on it) as a free action.",
)
RETURN_IT = _s("Traps", "Return it and the bloodsuckers to the supply.")
TOKENS = _s(
    "Quick Setup",
    'Place the bloodsucker and doppelganger trap tokens "build" side-up in the area designated '
    "for planet-specific tokens.",
)
IGNORE_DOPPELGANGER = _s(
    "Reference & FAQ", "Ignore the doppelganger traps until they are referenced."
)

TRIGGER_TOKENS = _s(
    "Quick Setup",
    "Place the red-triangle trigger tokens on the 3rd and 6th spaces of the timeline.",
)
SHUFFLE = _s(
    "Quick Setup",
    "Shuffle and stack the waking nightmare and bloodsucker behavior cards face-down in the "
    "area designated for planet-specific cards, separated by type.",
)
NIGHTMARE_BOTTOM = _s(
    "Waking Nightmares", "Then return the nightmare card to the bottom of the deck."
)

ATTACK_REMOVAL = "kaelyfos/attack-removal"
TRAP_DISTANCE_TIE = "kaelyfos/trap-distance-tie"
SECRET_CARDS = _s("Quick Setup", "Set aside secret cards A & B until referenced.")
NIGHTMARE_ROLL = _s(
    "Waking Nightmares", "Roll a discovery die, and resolve the corresponding nightmare."
)
DORMANCY = _s(
    "Bloodsucker Dormancy",
    "While it's unnerving, you may enter and move through a node with bloodsuckers on it "
    "without suffering an attack.",
)
TRAPPED_ATTACK = "kaelyfos/trapped-attack"
SCARAB_PASSABLE = "kaelyfos/scarab-passable"
SPAWN_INTO_TRAP = "kaelyfos/spawn-into-trap"
FREE_ON_TRAP = "kaelyfos/free-on-trap"
UNREVEALED_PASSABLE = "kaelyfos/unrevealed-passable"
PHEROMONE_TIE = "kaelyfos/pheromone-tie"
MOVE_ORDER = "kaelyfos/move-order"
STOP_AT_EXPLORER = "kaelyfos/stop-at-explorer"
UNREACHABLE_EXPLORER = "kaelyfos/unreachable-explorer"
TRAP_TIE = "kaelyfos/trap-tie"
CAUGHT_MOVE = "kaelyfos/caught-move"
NIGHTMARE_LIMIT = "kaelyfos/nightmare-limit"
NIGHTMARE_TURN = "kaelyfos/nightmare-turn"
BUILD_ON_BLOODSUCKERS = "kaelyfos/build-on-bloodsuckers"
DESTROYED_BLOODSUCKERS = "kaelyfos/destroyed-bloodsuckers"
DESTROYED_TOKEN = "kaelyfos/destroyed-token"
OUT_OF_TOKENS = "kaelyfos/out-of-trap-tokens"
TRIGGER_PASSED = "kaelyfos/trigger-passed"
TWO_TRIGGERS = "kaelyfos/two-triggers"
EXHAUSTED_DECK = "kaelyfos/exhausted-deck"
WHICH_TRAP = "kaelyfos/which-trap"
TIMELINE_POINTS = (TRIGGER_PASSED, TWO_TRIGGERS, EXHAUSTED_DECK)

RULE_POINTS: tuple[RulePoint, ...] = (
    RulePoint(
        ATTACK_REMOVAL,
        "Where an attacking bloodsucker goes: the supply, or out of play",
        Kind.CONTRADICTION,
        (EXAMPLE_ATTACK, ATTACK),
        (
            Reading("supply", "the Attack step: it returns to the supply and may spawn again"),
            Reading("removed-from-play", "the example card: it leaves the game for good"),
        ),
        "supply",
    ),
    RulePoint(
        TRAP_DISTANCE_TIE,
        "A trap exactly as near as the nearest explorer",
        Kind.AMBIGUITY,
        (TRAP_NEARER, MOVE),
        (
            Reading("explorer", "a trap must be strictly nearer to draw them; on a tie they hunt"),
            Reading("trap", "a trap as near as the nearest explorer draws them"),
        ),
        "explorer",
    ),
    RulePoint(
        TRAPPED_ATTACK,
        "Do bloodsuckers caught in a trap attack explorers on its node?",
        Kind.AMBIGUITY,
        (COUNT_AS, ATTACK),
        (
            Reading("no", "caught bloodsuckers stay on the trap and attack nobody"),
            Reading("yes", "they count as bloodsuckers for the Attack effect and leave the trap"),
        ),
        "no",
    ),
    RulePoint(
        SCARAB_PASSABLE,
        "May bloodsuckers path through the Scarab?",
        Kind.AMBIGUITY,
        (IGNORE_SCARAB, MOVE),
        (
            Reading("no", "ignoring the Scarab means never entering it: paths go around"),
            Reading(
                "yes",
                "the Scarab is ignored only as a target: paths may cross it, and a move whose "
                "amount runs out on it ends there",
            ),
        ),
        "no",
    ),
    RulePoint(
        SPAWN_INTO_TRAP,
        "A bloodsucker spawning on a nest whose node holds a trap",
        Kind.AMBIGUITY,
        (SPAWN, TRAPPED),
        (
            Reading(
                "not-caught",
                "spawning is not moving onto the node: it stays free (whether it then moves: "
                "kaelyfos/free-on-trap)",
            ),
            Reading("caught", "it is on a node with a trap, so it is trapped at once"),
        ),
        "not-caught",
    ),
    RulePoint(
        FREE_ON_TRAP,
        "Where a free bloodsucker on a trap's node moves (it spawned there, or the trap was "
        "built under it)",
        Kind.AMBIGUITY,
        (TRAP_NEARER, MOVE, TRAPPED),
        (
            Reading(
                "stays",
                "the trap underneath is nearer than any explorer off its node (distance 0): it "
                "moves toward the trap, so it stays put, free",
            ),
            Reading(
                "hunts",
                "a trap it did not move onto does not draw it: it hunts the nearest explorer "
                "(other traps still draw it as usual)",
            ),
        ),
        "stays",
    ),
    RulePoint(
        UNREVEALED_PASSABLE,
        "May bloodsuckers path through face-down environment cards?",
        Kind.AMBIGUITY,
        (FACE_DOWN, MOVE),
        (
            Reading(
                "yes",
                "face-down cards are nodes like any other: paths cross them, and a move whose "
                "amount runs out on one ends there",
            ),
            Reading(
                "no",
                "bloodsuckers never enter (so never stand on) a face-down card; paths go around it",
            ),
        ),
        "yes",
    ),
    RulePoint(
        PHEROMONE_TIE,
        "Two tied directions with equal pheromone dots",
        Kind.GAP,
        (PHEROMONES,),
    ),
    RulePoint(
        MOVE_ORDER,
        "The result depends on which bloodsucker moves first",
        Kind.GAP,
        (MOVE, DESTROYED),
    ),
    RulePoint(
        STOP_AT_EXPLORER,
        "A bloodsucker that reaches (or starts on) an explorer's node with movement left",
        Kind.AMBIGUITY,
        (MOVE, ORDER),
        (
            Reading("stop", "it stays with the explorer and attacks; the rest of its move is lost"),
            Reading(
                "onward",
                "it must move the amount indicated: explorers on its own node are passed over "
                "while it has movement left",
            ),
        ),
        "stop",
    ),
    RulePoint(
        UNREACHABLE_EXPLORER,
        "The nearest explorer when some explorer cannot be reached",
        Kind.GAP,
        (MOVE, NOT_ADJACENT),
    ),
    RulePoint(
        TRAP_TIE,
        "Two traps equally near, nearer than any explorer, in different directions",
        Kind.AMBIGUITY,
        (TRAP_NEARER, EQUALLY_CLOSE),
        (
            Reading(
                "pheromones",
                "the tie rule for explorers applies to traps too: the exit with the most dots",
            ),
            Reading(
                "open",
                "the tie rule names explorers only: the direction is left open (a choice the "
                "rules do not make)",
            ),
        ),
        "pheromones",
    ),
    RulePoint(
        CAUGHT_MOVE,
        "Do bloodsuckers caught in a trap move?",
        Kind.AMBIGUITY,
        (MOVE, COUNT_AS),
        (
            Reading("no", "a caught bloodsucker stays on its trap token"),
            Reading(
                "yes",
                "it counts as a bloodsucker for the Move effect: it leaves its trap (which no "
                "longer draws it) and moves like a free one",
            ),
        ),
        "no",
    ),
    RulePoint(
        NIGHTMARE_LIMIT,
        "1 waking nightmare per turn: for each explorer, or for the whole crew?",
        Kind.AMBIGUITY,
        (ONE_NIGHTMARE, GAIN_DISTRESS),
        (
            Reading("per-explorer", "each explorer experiences at most 1 waking nightmare a turn"),
            Reading(
                "per-crew",
                "the crew experiences at most 1 a turn (who, the rules do not say: a choice)",
            ),
        ),
        "per-explorer",
    ),
    RulePoint(
        NIGHTMARE_TURN,
        "Whose turn is it when a trigger fires, for the 1-nightmare limit?",
        Kind.AMBIGUITY,
        (ONE_NIGHTMARE, TRIGGER),
        (
            Reading(
                "current-turn",
                "the limit counts within the turn in progress, for every explorer attacked",
            ),
            Reading(
                "own-turn",
                "a turn is an explorer's own: the trigger fires in the active explorer's turn, "
                "so the limit binds only them; another explorer draws one per distress",
            ),
        ),
        "current-turn",
    ),
    RulePoint(
        BUILD_ON_BLOODSUCKERS,
        "A trap built on a node that already holds free bloodsuckers",
        Kind.AMBIGUITY,
        (BUILD, TRAPPED),
        (
            Reading(
                "not-caught",
                "they did not move onto it: they stay free (whether they then move: "
                "kaelyfos/free-on-trap)",
            ),
            Reading("caught", "they are on a node with a trap: trapped at once, 2 destroy it"),
        ),
        "not-caught",
    ),
    RulePoint(
        DESTROYED_BLOODSUCKERS,
        "Where the bloodsuckers on a trap destroyed as a free action go",
        Kind.AMBIGUITY,
        (DESTROY, RETURN_IT),
        (
            Reading("supply", "as for a trap destroyed by its second catch: to the supply"),
            Reading("removed-from-play", "destroyed with the trap: out of play"),
        ),
        "supply",
    ),
    RulePoint(
        DESTROYED_TOKEN,
        "Is a trap token destroyed as a free action available again?",
        Kind.AMBIGUITY,
        (DESTROY, RETURN_IT),
        (
            Reading("available", "as for a trap destroyed by its second catch: returned"),
            Reading("spent", "the token is destroyed with the trap and never built again"),
        ),
        "available",
    ),
    RulePoint(
        OUT_OF_TOKENS,
        "Building a trap when no bloodsucker trap token is left",
        Kind.AMBIGUITY,
        (BUILD, TOKENS, IGNORE_DOPPELGANGER),
        (
            Reading("cannot-build", "only bloodsucker trap tokens are available: no trap"),
            Reading(
                "doppelganger-token",
                'a doppelganger trap token, placed "build" side-up with them, is an available '
                "trap token too",
            ),
        ),
        "cannot-build",
    ),
    RulePoint(
        TRIGGER_PASSED,
        "A time marker that moves past a trigger token without stopping on it",
        Kind.AMBIGUITY,
        (TRIGGER, TRIGGER_TOKENS),
        (
            Reading("passing-reaches", "moving past a trigger reaches it: a card is revealed"),
            Reading("landing-only", "only a marker that stops on a trigger's space reaches it"),
        ),
        "passing-reaches",
    ),
    RulePoint(
        TWO_TRIGGERS,
        "One advance of the time marker that reaches two trigger tokens",
        Kind.AMBIGUITY,
        (TRIGGER, TRIGGER_TOKENS),
        (
            Reading("each", "each trigger reached reveals and resolves its own card"),
            Reading("once", "the advance reveals one card, however many triggers it reaches"),
        ),
        "each",
    ),
    RulePoint(
        EXHAUSTED_DECK,
        "A trigger reached when no behaviour card is left in the deck",
        Kind.AMBIGUITY,
        (TRIGGER, SHUFFLE, NIGHTMARE_BOTTOM),
        (
            Reading("no-card", "nothing to reveal: the trigger does nothing"),
            Reading(
                "reshuffle",
                "the revealed cards are shuffled into a new deck (as nightmare cards go back to "
                "the deck): the card is any one of them",
            ),
        ),
        "no-card",
    ),
    RulePoint(
        WHICH_TRAP,
        "A bloodsucker caught on a node holding two traps that differ: which trap takes it",
        Kind.GAP,
        (TRAPPED, BUILD),
        (
            Reading(
                "open",
                'the rules name one trap ("place it on the trap token"): which of the node\'s '
                "traps takes it is left open, a choice nobody makes",
            ),
            Reading(
                "crew",
                "the players place the bloodsucker: the crew chooses the trap, as it chooses "
                "who takes a distress",
            ),
        ),
        "open",
    ),
)

# Rules out of the model's reach: each an info finding that says so, with its sentence.
SECRET = "kaelyfos/secret-cards"
NIGHTMARE_DIE = "kaelyfos/nightmare-die"
EXPLORER_MOVEMENT = "kaelyfos/explorer-movement"
NOT_MODELLED: dict[str, str] = {
    SECRET: (
        "The seed prints neither secret card nor anything that references A or B, so what "
        "they do is unknown; no check or solver uses them."
    ),
    NIGHTMARE_DIE: (
        "The discovery die and the waking nightmare cards are not in the seed: the model "
        "counts who draws a waking nightmare (1 per turn at most, as the FAQ says) but does "
        "not roll the die, resolve the nightmare, or keep the nightmare deck's order (the "
        "card going to the bottom)."
    ),
    EXPLORER_MOVEMENT: (
        "Explorer movement is the base game's and is not modelled (advise keeps the "
        "explorers put between triggers). The model agrees with the sentence where it "
        "reaches: only a behaviour card's Attack gives distress, never an explorer's move."
    ),
}
RULE_POINTS += (
    RulePoint(
        SECRET, "Secret cards A and B, set aside until referenced", Kind.INFO, (SECRET_CARDS,)
    ),
    RulePoint(
        NIGHTMARE_DIE,
        "A waking nightmare: the discovery die roll, and the card going to the bottom of its deck",
        Kind.INFO,
        (NIGHTMARE_ROLL, NIGHTMARE_BOTTOM),
    ),
    RulePoint(
        EXPLORER_MOVEMENT,
        "Explorers entering and moving through a node with bloodsuckers",
        Kind.INFO,
        (DORMANCY,),
    ),
)

POINTS_BY_ID = {p.id: p for p in RULE_POINTS}

# Where the rulebook's own FAQ leans toward a reading other than the default: why the
# default stands (shown in the point's finding).
DEFAULT_NOTES: dict[str, str] = {
    TRAPPED_ATTACK: (
        'The FAQ leans toward "yes" (caught bloodsuckers count as "bloodsuckers" where '
        'effects are concerned; its example is a count, "for each bloodsucker on your '
        'node"). The default stays "no": Traps says a bloodsucker is "instantly trapped '
        '(even if explorers are also present); place it on the trap token", which would '
        "protect nobody if the same card's Attack then freed it onto those explorers, and a "
        "trap could never hold the 2 catches that destroy it while an explorer stands there. "
        "Settle it with --ruling kaelyfos/trapped-attack=yes to follow the FAQ."
    ),
}


def in_force(rulings: dict[str, str] | None = None) -> dict[str, str]:
    """Every point with readings mapped to its ruling, else its default."""
    rulings = rulings or {}
    return {p.id: rulings.get(p.id, p.default) for p in RULE_POINTS if p.readings}  # type: ignore[misc]
