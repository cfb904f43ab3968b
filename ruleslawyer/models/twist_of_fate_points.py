"""Twist of Fate's rule points: where the rulebook is ambiguous, contradicts itself or is silent.

Each point quotes its sentences verbatim from
``ruleslawyer/data/rulebooks/twist-of-fate-rulebook.txt``; the default reading
comes first. :class:`~ruleslawyer.models.twist_of_fate.Rules` turns a set of
rulings into the switches the model reads.
"""

from __future__ import annotations

from ruleslawyer.findings import Kind, Reading, RulePoint, Sentence

RULEBOOK = "twist-of-fate-rulebook.txt"


def _s(section: str, text: str) -> Sentence:
    return Sentence(RULEBOOK, section, text)


SCORES_ONE = _s(
    "Scoring Sanctuary",
    "check to see if either player has 4 Shillings or 4 Luck. If so, that player immediately "
    "scores one Sanctuary Point and moves their score token to the next Sanctuary Card.",
)
RESET = _s(
    "Scoring Sanctuary",
    "The Luck or Shilling Card which just scored is then reset to a value of '0'.",
)
ACTIVE_FIRST = _s(
    "Scoring Sanctuary",
    "It's possible for both players to score a Sanctuary Point simultaneously, however active "
    "player's token moves first.",
)
GAME_ENDS = _s(
    "Game End",
    "When a player reaches the last Sanctuary Card (Sanctuary at Mr. Brownlow's) the game "
    "immediately ends and that player wins the game",
)
TIE_RULE = _s(
    "Game End",
    "Should the game end in a tie as a result of two players reaching the last Sanctuary Card "
    "simultaneously, the tied player with the highest total combined value of Shillings and "
    "Luck remaining is the winner.",
)
ACTIVE_WINS_TIE = _s(
    "Game End", "If the game is still a tie, then the active player is the winner."
)
SIX_LIMIT = _s(
    "Card Limit",
    "A player may have a maximum of six cards played in front of them during each round.",
)
FORCED_SELF = _s(
    "Card Limit",
    "If, and only if, a player is unable to play a card on another player, they must play the "
    "card in front of themselves, choosing which direction to face it. In this case the "
    "opposite side of the card has no effect.",
)
PICK_UP = _s(
    "Round End",
    "Each player then picks up the six cards that were played in front of them by their "
    "opponents, and these six cards become their new hand for the coming round.",
)
FACE_DOWN = _s(
    "Playing Face-down",
    "If you play a card face-down, it acts as a wild -1/+1 card. Both players must decrease "
    "(by one) either their Luck or Shilling Card and increase (by one) the other.",
)
MONKS_PENALTY = _s(
    "Two-Player Variant",
    'Should a player play a card on "Monks" that results in him gaining a Sanctuary Point, the '
    "active player also loses a Sanctuary Point.",
)
MONKS_SCORE = _s(
    "Two-Player Variant",
    'Sanctuary Points are then scored normally, including for "Monks".',
)
MONKS_WIN = _s(
    "Two-Player Variant",
    'If the token belonging to "Monks" reaches the final Sanctuary Card first, both players '
    "lose the game.",
)
PLAY_CONTINUES = _s(
    "Two-Player Variant",
    "Play continues in this way until a player's token reaches the final Sanctuary Card and "
    "wins the game.",
)
ROUND_ENDS = _s("Round End", "The round ends when all players have played all their cards.")

DOUBLE_THRESHOLD = RulePoint(
    id="twist-of-fate/double-threshold",
    title="Luck and Shilling both reach 4 in the same play",
    kind=Kind.AMBIGUITY,
    sentences=(SCORES_ONE, RESET),
    readings=(
        Reading("two-points", "Each card at 4 scores: two Sanctuary Points, both cards reset."),
        Reading(
            "one-point-reset-both",
            "The player scores one Sanctuary Point and both cards reset to 0.",
        ),
        Reading(
            "one-point-reset-one",
            "One Sanctuary Point; only the Luck card (named first) resets, the Shilling card "
            "stays at 4 and scores the next time this player is checked.",
        ),
    ),
    default="two-points",
)
SIMULTANEOUS_FINISH = RulePoint(
    id="twist-of-fate/simultaneous-finish",
    title="Two players reach the last Sanctuary Card in the same play",
    kind=Kind.CONTRADICTION,
    sentences=(ACTIVE_FIRST, GAME_ENDS, TIE_RULE),
    readings=(
        Reading(
            "tie-break",
            "Both tokens move; the tie rule decides (highest Luck + Shilling, then the "
            "active player).",
        ),
        Reading(
            "active-first",
            "The active player's token moves first, reaches the last card and the game ends "
            "at once: the active player wins and the target does not score.",
        ),
    ),
    default="tie-break",
)
SELF_PLAY_COUNT = RulePoint(
    id="twist-of-fate/self-play-count",
    title="Does a card forced in front of oneself count toward the six-card limit?",
    kind=Kind.AMBIGUITY,
    sentences=(SIX_LIMIT, FORCED_SELF, PICK_UP),
    readings=(
        Reading("counts-toward-six", "A self-played card fills one of the six places."),
        Reading(
            "does-not-count",
            "Only cards played by opponents count; opponents may still play on a player who "
            "has self-played cards until six opponents' cards lie there.",
        ),
    ),
    default="counts-toward-six",
)
SELF_PLAY_FACE_DOWN = RulePoint(
    id="twist-of-fate/self-play-face-down",
    title="May a card forced in front of oneself be played face down?",
    kind=Kind.AMBIGUITY,
    sentences=(FORCED_SELF, FACE_DOWN),
    readings=(
        Reading(
            "allowed",
            "Face down in front of oneself: the player alone takes the wild -1/+1.",
        ),
        Reading("not-allowed", "Only face up, the player choosing which side faces them."),
    ),
    default="allowed",
)
MONKS_PENALTY_FLOOR = RulePoint(
    id="twist-of-fate/monks-penalty-floor",
    title="The Monks penalty when the active player has no Sanctuary Point to lose",
    kind=Kind.GAP,
    sentences=(MONKS_PENALTY,),
    readings=(
        Reading("floor-at-zero", "The token stays on card 0."),
        Reading("negative", "The player goes below 0 and must earn the point back."),
    ),
    default="floor-at-zero",
)
MONKS_PENALTY_TRIGGER = RulePoint(
    id="twist-of-fate/monks-penalty-trigger",
    title="Does the Monks penalty fire only when the active player's card makes the Monks score?",
    kind=Kind.AMBIGUITY,
    sentences=(MONKS_PENALTY, MONKS_SCORE),
    readings=(
        Reading("your-card", "Only when the card the active player put on the Monks scores them."),
        Reading("any-monks-score", "Whenever the Monks score, whoever caused it."),
    ),
    default="your-card",
)
MONKS_FINISH_TIE = RulePoint(
    id="twist-of-fate/monks-finish-tie",
    title="The Monks and a player reach the last Sanctuary Card in the same play",
    kind=Kind.GAP,
    sentences=(MONKS_WIN, TIE_RULE, ACTIVE_FIRST),
    readings=(),
)
ENDLESS_GAME = RulePoint(
    id="twist-of-fate/endless-game",
    title="Can play go on forever with nobody reaching Sanctuary?",
    kind=Kind.NON_TERMINATION,
    sentences=(PLAY_CONTINUES, ROUND_ENDS, FACE_DOWN),
    readings=(),
)
LAST_TIE_BREAK = RulePoint(
    id="twist-of-fate/last-tie-break",
    title='Can the final tie-break ("the active player is the winner") ever decide a game?',
    kind=Kind.DEAD_RULE,
    sentences=(TIE_RULE, ACTIVE_WINS_TIE),
    readings=(),
)

RULE_POINTS: tuple[RulePoint, ...] = (
    DOUBLE_THRESHOLD,
    SIMULTANEOUS_FINISH,
    SELF_PLAY_COUNT,
    SELF_PLAY_FACE_DOWN,
    MONKS_PENALTY_FLOOR,
    MONKS_PENALTY_TRIGGER,
    MONKS_FINISH_TIE,
    ENDLESS_GAME,
    LAST_TIE_BREAK,
)
