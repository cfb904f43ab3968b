"""Twist of Fate (Mayday Games, 2016) as pure functions over immutable state.

The whole game for 3-4 players and the 2-player variant with the Monks:
face-up plays (the player chooses which side faces the target), face-down plays
(a wild -1/+1 for both players, the player choosing both adjustments), values
clamped to 0..4, scoring and reset at 4, the six-card limit and the forced play
in front of oneself, round ends and new hands, the end of the game and its
tie-breaks, the Monks' hand cycling (chance, as :func:`chance_outcomes`) and
their penalty. Each rule cites its rulebook section in a comment.

Seats are the players in clockwise (listed) order, then the Monks in the
2-player variant. A :class:`Move` names a card, a target seat and how it is
played; :func:`legal_moves` lists them in a fixed order that both solvers share.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import combinations

from ruleslawyer.findings import reading_in_force
from ruleslawyer.models.twist_of_fate.points import (
    CARRY_OVER,
    DOUBLE_THRESHOLD,
    FACE_DOWN_AT_ZERO,
    FINISH_BEFORE_PENALTY,
    GIVES_TAKES_ORDER,
    LEFTOVER_CARDS,
    MONKS_FINISH_TIE,
    MONKS_PENALTY_FLOOR,
    MONKS_PENALTY_SIZE,
    MONKS_PENALTY_TRIGGER,
    MONKS_PRONOUN,
    PICKUP,
    RULE_POINTS,
    SELF_PLAY_COUNT,
    SELF_PLAY_FACE_DOWN,
    SIMULTANEOUS_FINISH,
    TIE_REMAINING,
)

__all__ = ["RULE_POINTS"]

LIMIT = 6  # Card Limit: "a maximum of six cards played in front of them"
TOP = 4  # Scoring Sanctuary: values "can never drop below '0' or go above '4'"
LAST = 8  # Objective: "acquiring 8 Sanctuary Points wins the game"
HAND_3_4 = 6  # Set-Up: "The remaining six Character Cards remain in each player's hand."
HAND_2 = 9  # Two-Player Variant: "for a total of nine cards in hand"
MONKS = "Monks"
LUCK, SHILLING = "luck", "shilling"
FACE_UP, FACE_DOWN = "face-up", "face-down"


@dataclass(frozen=True)
class Side:
    """One side of a character card: what it Gives and what it Takes, as amounts (0 or
    more) of (Luck, Shilling). A side written as net changes gives the rises and takes
    the falls, so no value is both given and taken."""

    gives: tuple[int, int] = (0, 0)
    takes: tuple[int, int] = (0, 0)

    @classmethod
    def net(cls, luck: int, shilling: int) -> Side:
        return cls((max(0, luck), max(0, shilling)), (max(0, -luck), max(0, -shilling)))

    @property
    def luck(self) -> int:
        return self.gives[0] - self.takes[0]

    @property
    def shilling(self) -> int:
        return self.gives[1] - self.takes[1]

    @property
    def overlaps(self) -> bool:
        """Whether one value is both given and taken (where gives-takes-order matters)."""
        return any(g and t for g, t in zip(self.gives, self.takes, strict=True))


@dataclass(frozen=True)
class Character:
    name: str
    sides: tuple[Side, Side]
    provenance: str = "placeholder"


@dataclass(frozen=True)
class Deck:
    """One player's set of character cards (every player's set is the same)."""

    name: str
    characters: tuple[Character, ...]
    provenance: str = "placeholder"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.characters)

    def card(self, name: str) -> Character:
        for c in self.characters:
            if c.name == name:
                return c
        raise KeyError(name)

    def index(self, name: str) -> int:
        return self.names.index(name)

    def sort(self, cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
        """Cards in deck order: a hand is a multiset, kept in this canonical order."""
        return tuple(sorted(cards, key=self.index))


@dataclass(frozen=True)
class Rules:
    """The readings in force, one switch per rule point."""

    double_threshold: str = "two-points"
    simultaneous_finish: str = "tie-break"
    self_play_count: str = "counts-toward-six"
    self_play_face_down: str = "allowed"
    monks_penalty_floor: str = "floor-at-zero"
    monks_penalty_trigger: str = "your-card"
    finish_before_penalty: str = "game-ends-first"
    monks_penalty_size: str = "one-point"
    self_played_pickup: str = "all-in-front"
    face_down_at_zero: str = "clamp"
    carry_over: str = "carry-over"
    tie_remaining: str = "after-reset"
    gives_takes_order: str = "net"
    monks_finish_tie: str = "tie-rule"
    monks_pronoun: str = "the-monks"
    leftover_cards: str = "merged"

    @classmethod
    def from_rulings(cls, rulings: Mapping[str, str]) -> Rules:
        return cls(
            double_threshold=reading_in_force(DOUBLE_THRESHOLD, rulings),
            simultaneous_finish=reading_in_force(SIMULTANEOUS_FINISH, rulings),
            self_play_count=reading_in_force(SELF_PLAY_COUNT, rulings),
            self_play_face_down=reading_in_force(SELF_PLAY_FACE_DOWN, rulings),
            monks_penalty_floor=reading_in_force(MONKS_PENALTY_FLOOR, rulings),
            monks_penalty_trigger=reading_in_force(MONKS_PENALTY_TRIGGER, rulings),
            finish_before_penalty=reading_in_force(FINISH_BEFORE_PENALTY, rulings),
            monks_penalty_size=reading_in_force(MONKS_PENALTY_SIZE, rulings),
            self_played_pickup=reading_in_force(PICKUP, rulings),
            face_down_at_zero=reading_in_force(FACE_DOWN_AT_ZERO, rulings),
            carry_over=reading_in_force(CARRY_OVER, rulings),
            tie_remaining=reading_in_force(TIE_REMAINING, rulings),
            gives_takes_order=reading_in_force(GIVES_TAKES_ORDER, rulings),
            monks_finish_tie=reading_in_force(MONKS_FINISH_TIE, rulings),
            monks_pronoun=reading_in_force(MONKS_PRONOUN, rulings),
            leftover_cards=reading_in_force(LEFTOVER_CARDS, rulings),
        )


@dataclass(frozen=True)
class Seat:
    """A player's (or the Monks') cards on the table and in hand."""

    luck: int = 0
    shilling: int = 0
    sanctuary: int = 0
    hand: tuple[str, ...] = ()
    in_front: tuple[str, ...] = ()  # played here by others this round
    self_played: tuple[str, ...] = ()  # forced in front of oneself this round


@dataclass(frozen=True)
class State:
    """A position at the start of a turn (or at a round's or the game's end).

    ``winner`` is the seat that won (the Monks' seat means both players lost);
    ``unused`` and ``saved`` hold the 2-player variant's cards out of play:
    ``saved[i]`` is the part of player ``i``'s second set kept out of round 1,
    ``unused`` the six cards kept out of later rounds.
    """

    seats: tuple[Seat, ...]
    players: int
    active: int
    starter: int
    round: int = 1
    winner: int | None = None
    saved: tuple[tuple[str, ...], ...] = ()
    unused: tuple[str, ...] = ()

    @property
    def monks(self) -> int | None:
        """The Monks' seat, in the 2-player variant."""
        return self.players if len(self.seats) > self.players else None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def round_over(self) -> bool:
        return all(not self.seats[p].hand for p in range(self.players))


@dataclass(frozen=True)
class Move:
    """Play ``card`` in front of seat ``target``.

    Face up, ``side`` is the index of the side facing the target (in front of
    oneself: the side the player takes). Face down, ``player_raises`` and
    ``target_raises`` name the card each player increases (the other decreases).
    """

    card: str
    target: int
    play: str
    side: int | None = None
    player_raises: str | None = None
    target_raises: str | None = None


def seat_names(state: State, names: tuple[str, ...]) -> tuple[str, ...]:
    return names + ((MONKS,) if state.monks is not None else ())


def count_toward_limit(seat: Seat, rules: Rules) -> int:
    # Card Limit; self-play-count decides whether one's own forced cards fill a place.
    own = len(seat.self_played) if rules.self_play_count == "counts-toward-six" else 0
    return len(seat.in_front) + own


def open_targets(state: State, rules: Rules) -> tuple[int, ...]:
    """Seats the active player may play on: others with room, else oneself (Card Limit)."""
    p = state.active
    others = tuple(
        t
        for t in range(len(state.seats))
        if t != p and count_toward_limit(state.seats[t], rules) < LIMIT
    )
    # "If, and only if, a player is unable to play a card on another player, they must
    # play the card in front of themselves"
    if others:
        return others
    return (p,) if count_toward_limit(state.seats[p], rules) < LIMIT else ()


def legal_moves(state: State, deck: Deck, rules: Rules) -> tuple[Move, ...]:
    """Every legal move, in the fixed order: card (deck order), target (seat order), variant."""
    if state.over or state.round_over:
        return ()
    p = state.active
    hand = set(state.seats[p].hand)
    targets = open_targets(state, rules)
    me = state.seats[p]
    moves: list[Move] = []
    for card in deck.names:
        if card not in hand:
            continue
        for t in targets:
            # Gameplay: "Play a Character Card face-up ... OR ... face-down"
            moves += [Move(card, t, FACE_UP, side=s) for s in (0, 1)]
            if t != p:
                them = state.seats[t]
                moves += [
                    Move(card, t, FACE_DOWN, player_raises=a, target_raises=b)
                    for a in (LUCK, SHILLING)
                    if may_raise(me, a, rules)
                    for b in (LUCK, SHILLING)
                    if may_raise(them, b, rules)
                ]
            elif rules.self_play_face_down == "allowed":
                moves += [
                    Move(card, t, FACE_DOWN, player_raises=a)
                    for a in (LUCK, SHILLING)
                    if may_raise(me, a, rules)
                ]
    return tuple(moves)


def may_raise(seat: Seat, raises: str, rules: Rules) -> bool:
    """Whether a face-down play may raise ``raises`` for ``seat`` (and lower the other card).

    face-down-at-zero: under ``must-decrease`` the lowered card must be above 0 when the
    seat has a card above 0 ("Both players must decrease (by one) either their Luck or
    Shilling Card").
    """
    if rules.face_down_at_zero == "clamp":
        return True
    lowered = seat.shilling if raises == LUCK else seat.luck
    return lowered > 0 or seat.luck + seat.shilling == 0


def _clamp(value: int) -> int:
    # Scoring Sanctuary, Note: "can never drop below '0' or go above '4' in value"
    return max(0, min(TOP, value))


def _twist(seat: Seat, luck: int, shilling: int) -> Seat:
    # Twisting Fate: "adjusts the value on their Luck and Shilling Cards"
    return replace(seat, luck=_clamp(seat.luck + luck), shilling=_clamp(seat.shilling + shilling))


def adjust(value: int, gives: int, takes: int, order: str) -> int:
    """One card's value after a side's Gives and Takes (gives-takes-order), within 0..4."""
    if order == "gives-first":
        return _clamp(_clamp(value + gives) - takes)
    if order == "takes-first":
        return _clamp(_clamp(value - takes) + gives)
    return _clamp(value + gives - takes)


def twist_side(seat: Seat, side: Side, rules: Rules) -> Seat:
    """Twisting Fate with a face-up side: its "Gives" and "Takes" on each card."""
    order = rules.gives_takes_order
    luck = adjust(seat.luck, side.gives[0], side.takes[0], order)
    shilling = adjust(seat.shilling, side.gives[1], side.takes[1], order)
    return replace(seat, luck=luck, shilling=shilling)


def _wild(raises: str) -> tuple[int, int]:
    # Playing Face-down: "decrease (by one) either their Luck or Shilling Card and increase
    # (by one) the other"
    return (1, -1) if raises == LUCK else (-1, 1)


def score(seat: Seat, rules: Rules) -> tuple[Seat, int]:
    """Scoring Sanctuary for one seat: the points it scores and its reset cards."""
    luck4, shil4 = seat.luck == TOP, seat.shilling == TOP
    if not (luck4 or shil4):
        return seat, 0
    if rules.double_threshold == "two-points":
        points, luck, shil = luck4 + shil4, 0 if luck4 else seat.luck, 0 if shil4 else seat.shilling
    elif rules.double_threshold == "one-point-reset-both":
        points, luck, shil = 1, 0 if luck4 else seat.luck, 0 if shil4 else seat.shilling
    else:  # one-point-reset-one: the Luck card (named first) resets
        points = 1
        luck, shil = (0, seat.shilling) if luck4 else (seat.luck, 0)
    sanctuary = min(LAST, seat.sanctuary + points)
    return replace(seat, luck=luck, shilling=shil, sanctuary=sanctuary), points


def apply_effects(state: State, move: Move, deck: Deck, rules: Rules) -> tuple[Seat, ...]:
    """The seats after the card's Gives and Takes, before scoring (Twisting Fate)."""
    p, t = state.active, move.target
    seats = list(state.seats)
    me = seats[p]
    hand = list(me.hand)
    hand.remove(move.card)
    me = replace(me, hand=tuple(hand))
    sides = deck.card(move.card).sides
    if t == p:
        # Card Limit: "choosing which direction to face it. In this case the opposite side
        # of the card has no effect."
        if move.play == FACE_UP:
            me = twist_side(me, sides[move.side], rules)
        else:
            me = _twist(me, *_wild(move.player_raises))
        seats[p] = replace(me, self_played=(*me.self_played, move.card))
        return tuple(seats)
    target = seats[t]
    if move.play == FACE_UP:
        # Playing Face-up: "This direction facing the opponent determines which "Gives" and
        # "Takes" affect your opponent and which affect you (the opposite side)."
        theirs, mine = sides[move.side], sides[1 - move.side]
        target = twist_side(target, theirs, rules)
        me = twist_side(me, mine, rules)
    else:
        # Playing Face-down: "The choice ... (for both players) is made by the player who
        # played the face-down card."
        target = _twist(target, *_wild(move.target_raises))
        me = _twist(me, *_wild(move.player_raises))
    seats[t] = replace(target, in_front=(*target.in_front, move.card))
    seats[p] = me
    return tuple(seats)


def _tie_winner(seats: list[Seat], active: int, tied: list[int]) -> int:
    # Game End: "the tied player with the highest total combined value of Shillings and Luck
    # remaining is the winner. If the game is still a tie, then the active player is the winner."
    best = max(seats[s].luck + seats[s].shilling for s in tied)
    top = [s for s in tied if seats[s].luck + seats[s].shilling == best]
    return active if active in top or len(top) > 1 else top[0]


def _penalty(seat: Seat, points: int, rules: Rules) -> Seat:
    # Two-Player Variant: "Should a player play a card on "Monks" that results in him gaining
    # a Sanctuary Point, the active player also loses a Sanctuary Point." (monks-penalty-size:
    # one point, or one per point; monks-penalty-floor: below 0 or not)
    lost = seat.sanctuary - (1 if rules.monks_penalty_size == "one-point" else points)
    if rules.monks_penalty_floor == "floor-at-zero":
        lost = max(0, lost)
    return replace(seat, sanctuary=lost)


def resolve_scoring(
    seats: tuple[Seat, ...], active: int, target: int, monks: int | None, rules: Rules
) -> tuple[tuple[Seat, ...], int | None]:
    """Scoring Sanctuary after a play: the new seats and the winner, if the game ended."""
    out = list(seats)
    # tie-remaining: "remaining" Luck and Shilling read before the scoring card resets
    twisted = list(seats)
    # "active player's token moves first"
    out[active], gained = score(out[active], rules)
    if rules.simultaneous_finish == "active-first" and out[active].sanctuary >= LAST:
        # Game End: "the game immediately ends": the target's token never moves.
        return tuple(out), active
    points = 0
    if target != active:
        out[target], points = score(out[target], rules)
    # Both monks-penalty-trigger readings fire here: the Monks' values change only when a
    # card is played on them. monks-pronoun: "results in him gaining a Sanctuary Point",
    # him the Monks, or the player who played the card.
    if rules.monks_pronoun == "the-player":
        points = gained
    penalised = target == monks and points > 0
    if penalised and rules.finish_before_penalty == "penalty-first":
        out[active] = _penalty(out[active], points, rules)
    finished = [s for s in (active, target) if out[s].sanctuary >= LAST]
    if not finished:
        if penalised and rules.finish_before_penalty == "game-ends-first":
            out[active] = _penalty(out[active], points, rules)
        return tuple(out), None
    # Game End: "the game immediately ends" (under game-ends-first, before any penalty)
    if len(finished) == 1:
        return tuple(out), finished[0]
    # Two seats reached the last card in the same play; the Monks among them: a gap
    # (monks-finish-tie), by default settled with the same tie rule.
    if monks in finished and rules.monks_finish_tie != "tie-rule":
        return tuple(out), active if rules.monks_finish_tie == "active-player" else monks
    values = out if rules.tie_remaining == "after-reset" else twisted
    return tuple(out), _tie_winner(values, active, finished)


def next_active(state: State) -> int:
    """The next player clockwise with a card in hand (Round End: "play then continues")."""
    n = state.players
    for k in range(1, n + 1):
        s = (state.active + k) % n
        if state.seats[s].hand:
            return s
    return state.active


def step(state: State, move: Move, deck: Deck, rules: Rules) -> State:
    """Play ``move`` after checking it is legal (raises :class:`IllegalMove` if not)."""
    if move not in legal_moves(state, deck, rules):
        from ruleslawyer.errors import IllegalMove

        raise IllegalMove(f"{move} is not legal here")
    return play(state, move, deck, rules)


def play(state: State, move: Move, deck: Deck, rules: Rules) -> State:
    """Play a legal ``move``; the state after scoring, at the next player's turn (or an end)."""
    seats = apply_effects(state, move, deck, rules)
    seats, winner = resolve_scoring(seats, state.active, move.target, state.monks, rules)
    after = replace(state, seats=seats, winner=winner)
    if winner is not None or after.round_over:
        return after
    return replace(after, active=next_active(after))


def _next_round(seat: Seat, rules: Rules) -> Seat:
    """A seat at the start of the next round, before its new hand."""
    seat = replace(seat, in_front=(), self_played=())
    if rules.carry_over == "reset-each-round":
        seat = replace(seat, luck=0, shilling=0)
    return seat


def start(players: int, deck: Deck) -> State:
    """Set-Up for 3-4 players: every value 0, every hand one full set; seat 0 starts."""
    hand = deck.sort(deck.names)
    return State(
        seats=tuple(Seat(hand=hand) for _ in range(players)), players=players, active=0, starter=0
    )


def _picks(cards: tuple[str, ...], k: int) -> list[tuple[tuple[str, ...], tuple[str, ...], int]]:
    """The distinct ways to take ``k`` random cards from ``cards``: (taken, left, weight)."""
    seen: Counter[tuple[tuple[str, ...], tuple[str, ...]]] = Counter()
    for idx in combinations(range(len(cards)), k):
        taken = tuple(cards[i] for i in idx)
        left = tuple(cards[i] for i in range(len(cards)) if i not in idx)
        seen[(taken, left)] += 1
    return [(taken, left, w) for (taken, left), w in seen.items()]


def start_two_player(deck: Deck) -> tuple[tuple[int, State], ...]:
    """Two-Player Variant set-up: (weight, state) for each random draw and starting player."""
    full = deck.sort(deck.names)
    out = []
    for first in (0, 1):  # "randomly determine a starting player"
        for taken0, left0, w0 in _picks(full, 3):
            for taken1, left1, w1 in _picks(full, 3):
                seats = (
                    Seat(hand=deck.sort(full + taken0)),
                    Seat(hand=deck.sort(full + taken1)),
                    Seat(),
                )
                state = State(seats, 2, first, first, saved=(left0, left1))
                out.append((w0 * w1, state))
    return tuple(out)


def chance_outcomes(state: State, deck: Deck, rules: Rules) -> tuple[tuple[int, State], ...]:
    """The next round's start after a finished round: (weight, state) per random outcome.

    3-4 players (Round End): each player picks up the cards in front of them (their own
    forced cards too, or not: self-played-pickup) and the next starter is the one to the
    left: no chance. 2 players (Two-Player Variant): "Each player picks up the six cards in
    front of them", and the Monks' cards and the unused cards cycle at random. Luck and
    Shilling carry over, or reset to 0 (carry-over).
    """
    if state.over or not state.round_over:
        raise ValueError("the round is not over")
    n = state.players
    starter = (state.starter + 1) % n
    fronts = [deck.sort(s.in_front + s.self_played) for s in state.seats]
    base = dict(round=state.round + 1, starter=starter, active=starter)
    cleared = [_next_round(s, rules) for s in state.seats]
    if state.monks is None:
        if rules.self_played_pickup == "opponents-only":
            # "picks up the six cards that were played in front of them by their opponents"
            fronts = [deck.sort(s.in_front) for s in state.seats]
        seats = tuple(replace(s, hand=fronts[i]) for i, s in enumerate(cleared))
        nxt = replace(state, seats=seats, **base)
        if not seats[starter].hand:  # opponents-only can leave the starter with no card
            nxt = replace(nxt, active=next_active(nxt))
        return ((1, nxt),)
    monks_front = fronts[2]
    if state.round == 1:
        # "Each player picks up the six cards in front of them and adds the three unused cards
        # from the previous round to their hand. The six cards in front of "Monks" are set off"
        hands = [deck.sort(fronts[i] + state.saved[i]) for i in (0, 1)]
        seats = (*(replace(cleared[i], hand=hands[i]) for i in (0, 1)), cleared[2])
        return ((1, replace(state, seats=seats, saved=(), unused=monks_front, **base)),)
    # "the new starting player takes three random cards from the six unused cards from the
    # previous round ... The other player takes three random cards currently in front of
    # "Monks" and saves the other three for the following round." (leftover-cards=set-aside
    # leaves no unused card from round 3 on: the starting player draws none)
    other = 1 - starter
    out = []
    take = 0 if rules.leftover_cards == "set-aside" and not state.unused else 3
    for from_unused, kept_unused, w0 in _picks(state.unused, take):
        for from_monks, kept_monks, w1 in _picks(monks_front, 3):
            drawn = {starter: fronts[starter] + from_unused, other: fronts[other] + from_monks}
            seats = (*(replace(cleared[i], hand=deck.sort(drawn[i])) for i in (0, 1)), cleared[2])
            unused = saved_for_next(kept_unused + kept_monks, deck, rules)
            out.append((w0 * w1, replace(state, seats=seats, unused=unused, **base)))
    return tuple(out)


DRAWN = 3  # "takes three random cards" from each pile at a 2-player round end


class ShortPile(ValueError):
    """A 2-player round end that would draw from a pile of fewer than three cards.

    The Two-Player Variant draws "three random cards from the six unused cards" and "three
    random cards currently in front of "Monks"", and says nothing of fewer: a real game
    always has six there (each player's nine cards, at most six on the other player), so
    only a made-up position can come short, and it is refused rather than guessed at.
    """

    def __init__(self, place: str, found: str, round_: int):
        self.place, self.found, self.round = place, found, round_
        super().__init__(f"{place}: {found} at the end of round {round_}")


def short_pile(state: State, rules: Rules) -> ShortPile | None:
    """Why the round end of ``state`` cannot draw as the rules say (None: it can)."""
    if state.monks is None or state.round == 1:
        return None
    monks = state.seats[state.monks]
    pile = len(monks.in_front) + len(monks.self_played)
    if pile < DRAWN:
        return ShortPile("monks.in_front", f"{pile} card(s) in front of the Monks", state.round)
    take = 0 if rules.leftover_cards == "set-aside" and not state.unused else DRAWN
    if len(state.unused) < take:
        return ShortPile("unused", f"{len(state.unused)} unused card(s)", state.round)
    return None


def saved_for_next(saved: tuple[str, ...], deck: Deck, rules: Rules) -> tuple[str, ...]:
    """The next round's unused cards: the three unused and three Monks' cards saved "for the
    following round" (leftover-cards: merged into one pile of six, or set aside out of the
    game, leaving none)."""
    return deck.sort(saved) if rules.leftover_cards == "merged" else ()
