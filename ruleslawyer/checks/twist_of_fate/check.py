"""Twist of Fate's checks: each rule point's situation searched from the real start of a game.

Searches are seeded playouts from the game's set-up with the game's deck (3
players; the 2-player variant for the Monks' points). At every turn the search
first looks one play ahead for the situation it hunts, otherwise plays at
random; round ends and the variant's random draws are taken from the model's
chance outcomes. A hit gives a concrete game record (the witness) and each
reading's result. Points whose readings can be shown never to part say so with
the argument and finish; a search that runs out of budget says
``finished: false`` and claims nothing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from ruleslawyer.budget import Budget
from ruleslawyer.checks.twist_of_fate import rounds, scoring
from ruleslawyer.checks.twist_of_fate.search import (
    GAME,
    MAX_QUIET_ROUNDS,
    NAMES_2,
    NAMES_3,
    Hit,
    describe,
    describe_round,
    finding,
    neck_and_neck,
    position_json,
    search,
    seat_json,
    seat_results,
    three_player,
    two_player,
    under,
)
from ruleslawyer.checks.twist_of_fate.search import (
    parted as search_parted,
)
from ruleslawyer.findings import Finding, Location, Witness, data_error, point_finding
from ruleslawyer.gamefiles.source import GameSource, validate
from ruleslawyer.models.twist_of_fate import points
from ruleslawyer.models.twist_of_fate.files import (
    DeckDoc,
    deck_from_document,
    side_from_document,
)
from ruleslawyer.models.twist_of_fate.play import (
    LAST,
    LIMIT,
    Deck,
    Move,
    Rules,
    State,
    apply_effects,
    chance_outcomes,
    legal_moves,
    open_targets,
    play,
    score,
    start,
)


def check(source: GameSource, rulings: dict[str, str], budget: Budget) -> list[Finding]:
    errors = structural_errors(source)
    if errors:
        return errors
    deck = deck_from_document(source.document, source.display)
    rules = Rules.from_rulings(rulings)
    searches: list[Callable[[Deck, Rules, Mapping[str, str], float], Finding]] = [
        _double_threshold,
        _simultaneous_finish,
        _self_play_count,
        _self_play_face_down,
        _monks_penalty_floor,
        lambda deck, rules, rulings, seconds: _monks_penalty_trigger(rulings),
        _monks_finish_tie,
        lambda deck, rules, rulings, seconds: _endless_game(deck, rules, rulings),
        _last_tie_break,
        scoring.finish_before_penalty,
        scoring.monks_penalty_size,
        rounds.self_played_pickup,
        scoring.face_down_at_zero,
        rounds.carry_over,
        scoring.tie_remaining,
        scoring.gives_takes_order,
        scoring.monks_pronoun,
        rounds.leftover_cards,
    ]
    out = []
    for i, run in enumerate(searches):
        # Without --max-seconds every search is bounded by its playout count alone, so the
        # findings (and the committed report) do not depend on how loaded the machine is.
        # With it, each search gets an equal share of what the earlier ones left.
        seconds = budget.remaining_seconds()
        share = math.inf if seconds is None else max(0.0, seconds) / (len(searches) - i)
        out.append(run(deck, rules, rulings, share))
    return out


def structural_errors(source: GameSource) -> list[Finding]:
    """Structural rules of a deck file that TOML types cannot express."""
    chars = validate(DeckDoc, source.document, source.display).character
    for i, c in enumerate(chars):  # a malformed side is bad input (exit 2)
        for j, side in enumerate(c.sides):
            side_from_document(side, source.display, f"character[{i}].sides[{j}]")
    out = []
    names = [c.name for c in chars]
    for i, name in enumerate(names):
        if name in names[:i]:
            place = f"character[{i}].name"
            out.append(
                data_error(
                    GAME,
                    "duplicate-character",
                    "Two characters share a name",
                    Location(source.display, place, source.line(place)),
                    f"{name!r} is listed twice; a hand could not tell the two cards apart.",
                )
            )
    if len(chars) != 6:
        out.append(
            data_error(
                GAME,
                "set-size",
                "A player's set is six character cards",
                Location(source.display, "character", source.line("character")),
                f"The deck lists {len(chars)} characters; the rulebook's components are "
                '"24 Character Cards (6 per player)".',
            )
        )
    return out


# --- one function per rule point ------------------------------------------------------


def _double_threshold(
    deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float
) -> Finding:
    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        seats = apply_effects(state, move, deck, rules)
        if not any(
            seats[s].luck == 4 and seats[s].shilling == 4 for s in (state.active, move.target)
        ):
            return None
        return {
            r.name: seat_json(under(state, move, deck, rules, double_threshold=r.name), NAMES_3)
            for r in points.DOUBLE_THRESHOLD.readings
        }

    found = search(three_player(deck), goal, deck, rules, NAMES_3, seconds)
    return finding(
        points.DOUBLE_THRESHOLD,
        rulings,
        found,
        NAMES_3,
        hit_message="A play from the start of a 3-player game brings a player's Luck and "
        "Shilling to 4 together; the readings score it differently.",
        miss_message="No play bringing Luck and Shilling to 4 together was found",
        description="the last move brings one player to 4 Luck and 4 Shilling at once",
    )


def _both_reach_last(state: State, move: Move, deck: Deck, rules: Rules) -> State | None:
    if move.target == state.active or move.target == state.monks:
        return None
    if min(state.seats[state.active].sanctuary, state.seats[move.target].sanctuary) < LAST - 2:
        return None
    after = under(state, move, deck, rules, simultaneous_finish="tie-break")
    both = (
        after.seats[state.active].sanctuary >= LAST and after.seats[move.target].sanctuary >= LAST
    )
    return after if both else None


def _simultaneous_finish(
    deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float
) -> Finding:
    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        after = _both_reach_last(state, move, deck, rules)
        if after is None or after.winner == state.active:
            return None  # hunt for a finish where the readings name different winners
        return {
            r.name: seat_json(under(state, move, deck, rules, simultaneous_finish=r.name), NAMES_3)
            for r in points.SIMULTANEOUS_FINISH.readings
        }

    found = search(three_player(deck), goal, deck, rules, NAMES_3, seconds)
    return finding(
        points.SIMULTANEOUS_FINISH,
        rulings,
        found,
        NAMES_3,
        hit_message="Two players reach the last Sanctuary Card in one play and the two "
        "sentences name different winners.",
        miss_message="No play where two players reach the last card with different winners "
        "under the two readings was found",
        description="the last move brings both players to the last Sanctuary Card",
    )


def _self_play(state: State, move: Move, rules: Rules) -> bool:
    return move.target == state.active and open_targets(state, rules) == (state.active,)


def _self_play_count(
    deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float
) -> Finding:
    # The readings change only which seats are open. Every round deals exactly as many
    # cards as there are places (6 per seat: 3-4 players hold 6 each, 2 players 9 each
    # for three seats), so a player is forced onto themselves only when every other seat
    # is full, and from then on every card in hand fits in front of that player under
    # either reading: the open seats, and so the legal moves, are the same. The search
    # confirms it on the first forced self-play it meets.
    if rules.self_played_pickup != "all-in-front":
        return point_finding(
            points.SELF_PLAY_COUNT,
            rulings=rulings,
            parted=False,
            finished=False,
            message="Not shown either way: the argument that the readings never part needs "
            "every round to deal six cards per seat, and self-played-pickup="
            f"{rules.self_played_pickup} deals fewer after a forced self-play (then a second "
            "player can be forced while a seat full only of its own cards has room under "
            "does-not-count).",
        )

    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        if not _self_play(state, move, rules):
            return None
        return {
            r.name: [
                describe(m, state, NAMES_3)
                for m in legal_moves(state, deck, replace(rules, self_play_count=r.name))
                if m.card == move.card
            ]
            for r in points.SELF_PLAY_COUNT.readings
        }

    found = search(three_player(deck), goal, deck, rules, NAMES_3, seconds)
    parted = isinstance(found, Hit) and len({tuple(v) for v in found.results.values()}) > 1
    return finding(
        points.SELF_PLAY_COUNT,
        rulings,
        found,
        NAMES_3,
        parted=parted,
        hit_message="The readings never part in a real game: each round deals exactly six "
        f"cards per seat ({LIMIT} places each), so the forced player is the last seat with "
        "room and every remaining card fits there under either reading. They part only in "
        "positions no game reaches (a designer's position file with spare cards).",
        miss_message="No forced self-play was reached",
        description="the first forced play in front of oneself; legal moves for that card "
        "under each reading",
    )


def _self_play_face_down(
    deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float
) -> Finding:
    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        if not _self_play(state, move, rules):
            return None
        me = NAMES_3[state.active]
        out = {}
        for r in points.SELF_PLAY_FACE_DOWN.readings:
            variant = replace(rules, self_play_face_down=r.name)
            after = [
                seat_json(play(state, m, deck, variant), NAMES_3)
                for m in legal_moves(state, deck, variant)
                if m.card == move.card
            ]
            # the player's every value (Sanctuary too) and the winner, once per outcome
            seen = {
                json.dumps({**a[me], **({"winner": a["winner"]} if "winner" in a else {})})
                for a in after
            }
            out[r.name] = [json.loads(v) for v in sorted(seen)]
        return out if out["allowed"] != out["not-allowed"] else None

    found = search(three_player(deck), goal, deck, rules, NAMES_3, seconds)
    return finding(
        points.SELF_PLAY_FACE_DOWN,
        rulings,
        found,
        NAMES_3,
        hit_message="A player is forced to play in front of themselves; face down they could "
        "reach values (Luck, Shilling, Sanctuary) that face up cannot.",
        miss_message="No forced self-play where face-down play changes the outcome was found",
        description="the last move is forced in front of the player; every outcome (the "
        "player's Luck, Shilling and Sanctuary, and the winner if the game ends) of playing "
        "that card under each reading",
    )


def _monks_score(state: State, move: Move, deck: Deck, rules: Rules) -> bool:
    if move.target != state.monks:
        return False
    monks = state.monks
    after = play(state, move, deck, rules)
    return after.seats[monks].sanctuary > state.seats[monks].sanctuary


def _monks_penalty_floor(
    deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float
) -> Finding:
    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        if state.seats[state.active].sanctuary != 0 or not _monks_score(state, move, deck, rules):
            return None
        for_floor = under(state, move, deck, rules, monks_penalty_floor="floor-at-zero")
        if for_floor.seats[state.active].sanctuary != 0:
            return None  # the player scored in the same play: nothing to floor
        return {
            r.name: seat_json(under(state, move, deck, rules, monks_penalty_floor=r.name), NAMES_2)
            for r in points.MONKS_PENALTY_FLOOR.readings
        }

    found = search(two_player(deck), goal, deck, rules, NAMES_2, seconds)
    return finding(
        points.MONKS_PENALTY_FLOOR,
        rulings,
        found,
        NAMES_2,
        hit_message="A player with no Sanctuary Point makes the Monks score and must lose a "
        "point they do not have.",
        miss_message="No Monks score by a player on Sanctuary 0 was found",
        description="the last move, by a player on Sanctuary 0, makes the Monks score",
    )


def _monks_penalty_trigger(rulings: Mapping[str, str]) -> Finding:
    return point_finding(
        points.MONKS_PENALTY_TRIGGER,
        rulings=rulings,
        parted=False,
        message="The readings cannot part: the Monks never play, and their Luck and Shilling "
        "change only when a card is played on them, by the active player. So every Monks "
        "score follows the active player's own card (shown by the model's rules, not by "
        "search: the Monks are checked for scoring only as the target of a play).",
    )


def _monks_finish_tie(
    deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float
) -> Finding:
    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        if move.target != state.monks:
            return None
        if min(state.seats[state.active].sanctuary, state.seats[state.monks].sanctuary) < LAST - 2:
            return None
        # both tokens move (no penalty comes between: the game ends at once)
        seats = apply_effects(state, move, deck, rules)
        tokens = [score(seats[s], rules)[0].sanctuary for s in (state.active, state.monks)]
        if min(tokens) < LAST:
            return None
        results = seat_results(points.MONKS_FINISH_TIE, state, move, deck, rules, NAMES_2)
        return results if search_parted(results) else None

    found = search(two_player(deck), goal, deck, rules, NAMES_2, seconds, steer=neck_and_neck)
    return finding(
        points.MONKS_FINISH_TIE,
        rulings,
        found,
        NAMES_2,
        hit_message="A player and the Monks reach the last Sanctuary Card in the same play; "
        'the rulebook says only what happens when the Monks get there "first".',
        miss_message="No play bringing a player and the Monks to the last card together was found",
        description="the last move brings the active player's token and the Monks' to the "
        "last card together",
    )


def _endless_game(deck: Deck, rules: Rules, rulings: Mapping[str, str]) -> Finding:
    """Play so that nobody scores (first such move in order); a repeated round start is a cycle."""
    state = start(3, deck)
    seen: dict[State, int] = {}
    record: list[str] = [describe_round(state, NAMES_3)]
    while not state.over:
        if state.round_over:
            state = chance_outcomes(state, deck, rules)[0][1]
            record.append(describe_round(state, NAMES_3))
            key = replace(state, round=0)
            if key in seen:
                first = seen[key]
                witness = Witness(
                    description=f"round {first} and round {state.round} start in the same "
                    "position, and nobody scored in between: those rounds can repeat forever",
                    position=position_json(state, NAMES_3),
                    results={"repeats": f"rounds {first}..{state.round - 1}"},
                    moves=tuple(record),
                )
                return point_finding(
                    points.ENDLESS_GAME,
                    rulings=rulings,
                    parted=True,
                    witness=witness,
                    message="Play can go on forever: if each player in turn makes the play "
                    "that keeps Luck and Shilling lowest (never letting anyone score), a "
                    "round starts in a position seen before, and the rounds between repeat "
                    "without end. The witness's record runs from the start of a 3-player "
                    "game to the round that starts as an earlier one did.",
                )
            seen[key] = state.round
            continue
        moves = legal_moves(state, deck, rules)
        quiet = [
            (_calm(after), i, m)
            for i, m in enumerate(moves)
            for after in [play(state, m, deck, rules)]
            if _no_score(state, after)
        ]
        if not quiet:
            break
        move = min(quiet)[2]
        record.append(describe(move, state, NAMES_3))
        state = play(state, move, deck, rules)
        if state.round > MAX_QUIET_ROUNDS:
            break
    return point_finding(
        points.ENDLESS_GAME,
        rulings=rulings,
        parted=False,
        finished=False,
        message="The quiet-play search did not find a repeating round.",
    )


def _no_score(before: State, after: State) -> bool:
    return all(a.sanctuary == b.sanctuary for a, b in zip(after.seats, before.seats, strict=True))


def _calm(state: State) -> tuple[int, int]:
    """How close anyone is to scoring: the highest Luck or Shilling, then their sum."""
    values = [v for s in state.seats for v in (s.luck, s.shilling)]
    return max(values), sum(values)


def _last_tie_break(
    deck: Deck, rules: Rules, rulings: Mapping[str, str], seconds: float
) -> Finding:
    def goal(state: State, move: Move, deck: Deck, rules: Rules) -> dict[str, Any] | None:
        after = _both_reach_last(state, move, deck, rules)
        if after is None:
            return None
        a, t = after.seats[state.active], after.seats[move.target]
        if a.luck + a.shilling != t.luck + t.shilling:
            return None
        return {"tie-break": seat_json(after, NAMES_3)}

    found = search(three_player(deck), goal, deck, rules, NAMES_3, seconds)
    if isinstance(found, Hit):
        return finding(
            points.LAST_TIE_BREAK,
            rulings,
            found,
            NAMES_3,
            parted=False,
            hit_message="The final tie-break is reachable: two players reach the last card "
            "together with equal Luck + Shilling, and the active player wins.",
            miss_message="",
            description="both players reach the last card with equal Luck + Shilling",
        )
    return finding(
        points.LAST_TIE_BREAK,
        rulings,
        found,
        NAMES_3,
        hit_message="",
        miss_message="Not shown either way: no game reaching the final tie-break was found",
        description="",
    )


def analysis(source: GameSource, rulings: Mapping[str, str]) -> dict[str, Any]:
    """The benchmark positions solved under this deck (for ``ruleslawyer diff``)."""
    from ruleslawyer.checks.twist_of_fate.analysis import analysis as solved

    return solved(source, rulings)
