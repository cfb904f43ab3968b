"""Twist of Fate's rule points: where the rulebook is ambiguous, contradicts itself or is silent.

Each point quotes its sentences verbatim from
``ruleslawyer/data/rulebooks/twist-of-fate-rulebook.txt``; the default reading
comes first. :class:`~ruleslawyer.models.twist_of_fate.play.Rules` turns a set of
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
LATER_ROUNDS = _s(
    "Two-Player Variant",
    "Once the second round is finished, each player picks up the six cards in front of them "
    "and the new starting player takes three random cards from the six unused cards from the "
    "previous round, saving the other three for the following round.",
)
MONKS_DRAW = _s(
    "Two-Player Variant",
    'The other player takes three random cards currently in front of "Monks" and saves the '
    "other three for the following round.",
)
ROUND_ENDS = _s("Round End", "The round ends when all players have played all their cards.")
TWISTING = _s(
    "Twisting Fate",
    "Having played a card in front of another player, each player then adjusts the value on "
    'their Luck and Shilling Cards according to the "Gives" and "Takes" affecting them.',
)
CLAMP = _s(
    "Scoring Sanctuary",
    "Note: A player's Luck and Shilling Cards can never drop below '0' or go above '4' in value. "
    'Excess "Gives" and "Takes" are not counted.',
)
SETUP_ZERO = _s(
    "Set-Up",
    "Each player lays out in front of them the Luck Card and the Shilling Card, begin the game "
    'with the "0" amount of the card facing the player.',
)
CHOOSER = _s(
    "Playing Face-down",
    "The choice of which cards are increased or decreased (for both players) is made by the "
    "player who played the face-down card.",
)

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
            "at once, before the other token moves: the active player wins; the other seat "
            "(the Monks too) neither scores nor resets the card at 4 that would have scored, "
            "and no Monks penalty follows.",
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
    readings=(
        Reading(
            "tie-rule",
            "The tie rule, the Monks as a tied player: the highest Luck + Shilling left wins "
            "(the Monks winning means both players lose), then the active player.",
        ),
        Reading(
            "active-player",
            "The active player's token moved first, so the Monks did not get there "
            '"first": the active player wins.',
        ),
        Reading(
            "monks",
            "The Monks reached the final card (not after the player): both players lose.",
        ),
    ),
    default="tie-rule",
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

FINISH_BEFORE_PENALTY = RulePoint(
    id="twist-of-fate/finish-before-penalty",
    title="A play on the Monks brings the active player to the last Sanctuary Card and makes "
    "the Monks score: does the penalty take the win back?",
    kind=Kind.CONTRADICTION,
    sentences=(ACTIVE_FIRST, GAME_ENDS, MONKS_PENALTY),
    readings=(
        Reading(
            "game-ends-first",
            "The tokens move (the active player's first), the game ends at once when a token "
            "reaches the last card, and the Monks penalty follows only if play goes on: a "
            "player who reached the last card has won.",
        ),
        Reading(
            "penalty-first",
            "The penalty is part of the scoring: the active player loses the point before the "
            "end of the game is checked, and play goes on from 7.",
        ),
    ),
    default="game-ends-first",
)
MONKS_PENALTY_SIZE = RulePoint(
    id="twist-of-fate/monks-penalty-size",
    title="The Monks score two Sanctuary Points in one play: how many does the active player lose?",
    kind=Kind.AMBIGUITY,
    sentences=(MONKS_PENALTY, SCORES_ONE),
    readings=(
        Reading("one-point", '"also loses a Sanctuary Point": one point, whatever the Monks gain.'),
        Reading("per-point", "One point for each point the Monks gain."),
    ),
    default="one-point",
)
PICKUP = RulePoint(
    id="twist-of-fate/self-played-pickup",
    title="At the end of a round, what happens to the cards a player had to play in front of "
    "themselves?",
    kind=Kind.GAP,
    sentences=(PICK_UP, FORCED_SELF),
    readings=(
        Reading(
            "all-in-front",
            "The player picks up every card in front of them, their own forced cards too (the "
            "six cards lying there).",
        ),
        Reading(
            "opponents-only",
            "Only the cards opponents played there are picked up; the player's own forced cards "
            "are set aside and the player starts the next round with fewer cards.",
        ),
    ),
    default="all-in-front",
)
FACE_DOWN_AT_ZERO = RulePoint(
    id="twist-of-fate/face-down-at-zero",
    title="A face-down play that decreases a card already at 0",
    kind=Kind.AMBIGUITY,
    sentences=(FACE_DOWN, CHOOSER, CLAMP),
    readings=(
        Reading(
            "clamp",
            "Allowed: the card stays at 0 (the excess is not counted) and the other card still "
            "rises.",
        ),
        Reading(
            "must-decrease",
            'Each player "must decrease" a card: the chooser must lower a card above 0 where the '
            "player has one (both at 0: either choice, clamped).",
        ),
    ),
    default="clamp",
)
CARRY_OVER = RulePoint(
    id="twist-of-fate/carry-over",
    title="Do Luck and Shilling carry over from one round to the next?",
    kind=Kind.GAP,
    sentences=(SETUP_ZERO, PICK_UP),
    readings=(
        Reading("carry-over", "The cards stay as they are: only the set-up puts them at 0."),
        Reading("reset-each-round", "Every round begins, like the game, with both cards at 0."),
    ),
    default="carry-over",
)
TIE_REMAINING = RulePoint(
    id="twist-of-fate/tie-remaining",
    title='The tie-break\'s "remaining" Luck and Shilling: before or after the scoring '
    "card resets?",
    kind=Kind.AMBIGUITY,
    sentences=(TIE_RULE, RESET),
    readings=(
        Reading(
            "after-reset",
            "What is left after the card that scored is reset to 0.",
        ),
        Reading(
            "before-reset",
            "The values the play left, the card at 4 that scored included.",
        ),
    ),
    default="after-reset",
)
GIVES_TAKES_ORDER = RulePoint(
    id="twist-of-fate/gives-takes-order",
    title="A side that Gives and Takes the same value: in what order, against the 0..4 limits?",
    kind=Kind.AMBIGUITY,
    sentences=(TWISTING, CLAMP),
    readings=(
        Reading("net", "Gives and Takes add up first; the sum is applied and kept within 0..4."),
        Reading("gives-first", "The Gives apply first (kept within 0..4), then the Takes."),
        Reading("takes-first", "The Takes apply first (kept within 0..4), then the Gives."),
    ),
    default="net",
)

MONKS_PRONOUN = RulePoint(
    id="twist-of-fate/monks-pronoun",
    title='The Monks penalty: who is "him", the Monks or the player who played the card?',
    kind=Kind.AMBIGUITY,
    sentences=(MONKS_PENALTY, MONKS_SCORE),
    readings=(
        Reading(
            "the-monks",
            '"him" is the Monks: when the card played on the Monks makes the Monks score, the '
            "active player loses a point.",
        ),
        Reading(
            "the-player",
            '"him" is the player who played the card: when the card played on the Monks makes '
            "the active player score (by the side facing them, or the face-down wild), the "
            "active player loses a point; the Monks scoring costs nothing.",
        ),
    ),
    default="the-monks",
)
LEFTOVER_CARDS = RulePoint(
    id="twist-of-fate/leftover-cards",
    title="2 players, from round 2 on: what becomes of the three unused and the three Monks' "
    "cards saved for the following round?",
    kind=Kind.GAP,
    sentences=(LATER_ROUNDS, MONKS_DRAW),
    readings=(
        Reading(
            "merged",
            "The six saved cards (three unused, three from the Monks) are the next round's six "
            "unused cards: the next starting player draws three of them.",
        ),
        Reading(
            "set-aside",
            "The saved cards are set aside out of the game for the rest of the game: the next "
            "starting player finds no unused card to draw and holds only the cards picked up.",
        ),
    ),
    default="merged",
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
    FINISH_BEFORE_PENALTY,
    MONKS_PENALTY_SIZE,
    PICKUP,
    FACE_DOWN_AT_ZERO,
    CARRY_OVER,
    TIE_REMAINING,
    GIVES_TAKES_ORDER,
    MONKS_PRONOUN,
    LEFTOVER_CARDS,
)
