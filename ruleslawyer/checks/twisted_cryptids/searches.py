"""Twisted Cryptids rule points searched in seeded random games of the model.

Each search plays games until its test sees the readings part at one move,
then reports that move's situation as the witness. Not finding a case is not a
proof: such a finding says how many games were played and stays unproved.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from ruleslawyer.budget import Budget
from ruleslawyer.findings import Finding, RulePoint, Witness, point_finding
from ruleslawyer.models.twisted_cryptids import points as rp
from ruleslawyer.models.twisted_cryptids.game import HUMANS, Game
from ruleslawyer.models.twisted_cryptids.play import (
    BOXED,
    NIGHT_STEPS,
    ON_STACK,
    GameMove,
    Move,
    Place,
    Refill,
    Reveal,
    State,
    Stay,
    apply_myth,
    boxed_this_dusk,
    describe,
    encounter_candidates,
    final_scores,
    legal_moves,
    legal_sites,
    may_move,
    night_enter,
    player_counts,
    scored_humans,
    step,
    tie_break_humans,
    winners,
)

# A test sees (before, move, after) and returns None or a hit:
# {"description": "... {seed} ...", "position": {...}, "results": {reading: result}}.
Test = Callable[[State, GameMove, State], dict[str, Any] | None]


SEARCH_SECONDS = 60.0  # each seeded search stops here and says finished: false


def spot_names(state: State, player: int, spots: tuple[int, ...] | None = None) -> list[str]:
    """``player``'s Hiding Spots (``spots``, default where they stand) in Stack order, Stack 1
    first: the Site's name, "on a Stack" for a returned one not yet placed, "boxed" for one
    returned to the box."""
    names = {ON_STACK: "on a Stack", BOXED: "boxed"}
    own = state.spots[player] if spots is None else spots
    return [names.get(s) or state.game.sites[s].name for s in own]


def night_spots(state: State) -> dict[str, list[str]]:
    """Each player's Hiding Spots in Stack order (:func:`spot_names`)."""
    return {state.players[p]: spot_names(state, p) for p in range(state.n)}


def searched(
    point: RulePoint,
    game: Game,
    rulings: Mapping[str, str],
    budget: Budget,
    *,
    players: int,
    test: Test,
    message: str,
    seeds: int = 100,
    play_under: Mapping[str, str] | None = None,
) -> Finding:
    """Play seeded games (under ``play_under`` rulings, default ``rulings``) until ``test`` hits."""
    from ruleslawyer.solvers.twisted_cryptids.simulate import first_hit

    under = dict(play_under if play_under is not None else rulings)
    allowed = player_counts(under.get(rp.PLAYER_COUNT.id, rp.PLAYER_COUNT.default or ""))
    players = next(n for n in allowed if n >= players)
    remaining = budget.remaining_seconds()
    own = Budget(
        max_seconds=SEARCH_SECONDS if remaining is None else min(remaining, SEARCH_SECONDS)
    )
    hit, seed, played, finished, index = first_hit(
        game, players, test, rulings=under, seeds=range(seeds), budget=own
    )
    witness = None
    if hit is not None:
        replay = {"players": players, "seed": seed, "moves_before": index, "rulings": under}
        witness = Witness(
            description=f"{players} players, seed {seed}: " + hit["description"],
            position={**hit["position"], "replay": replay},
            results=hit["results"],
        )
    return point_finding(
        point,
        rulings=rulings,
        parted=hit is not None,
        finished=finished,
        searched=played,
        message=message
        if hit is not None
        else f"The readings did not part in {played} seeded games (not a proof)."
        if finished
        else (
            f"Not decided: stopped after {played} seeded games, the time allowed (--max-seconds, "
            f"at most {SEARCH_SECONDS:.0f} s a search) spent before the readings parted."
        ),
        witness=witness,
    )


def with_ruling(state: State, point_id: str, reading: str) -> State:
    rulings = dict(state.rulings)
    rulings[point_id] = reading
    return replace(state, rulings=tuple(sorted(rulings.items())))


def _humans(triple: tuple[int, int, int]) -> dict[str, int]:
    return dict(zip(HUMANS, triple, strict=True))


def myth_floor(game: Game, rulings: Mapping[str, str], budget: Budget) -> Finding:
    def below_zero(before: State, move: GameMove, after: State) -> dict[str, Any] | None:
        p = before.actor()
        if not isinstance(move, Reveal) or p is None or after.myth[p] >= 0:
            return None
        change = after.myth[p] - before.myth[p]
        site = game.sites[before.encounter or 0]
        return {
            "description": (
                f"in round {before.round} {before.players[p]} reveals at {site.name} with "
                f"{before.myth[p]} Myth and loses {-change}."
            ),
            "position": {
                "round": before.round,
                "player": before.players[p],
                "encounter": site.name,
                "humans_at_encounter": _humans(before.sites[before.encounter or 0]),
                "myth_before": before.myth[p],
                "change": change,
            },
            "results": {
                "floor-at-zero": apply_myth(before.myth[p], change, "floor-at-zero"),
                "negative": after.myth[p],
            },
        }

    return searched(
        rp.MYTH_FLOOR,
        game,
        rulings,
        budget,
        players=4,
        test=below_zero,
        play_under={**rulings, rp.MYTH_FLOOR.id: "negative"},
        message=(
            "A reveal can cost more Myth than the Cryptid has; the rulebook gives the Myth Track "
            "no bounds, so whether Myth stops at 0 is open."
        ),
    )


def encounter_scope(game: Game, rulings: Mapping[str, str], budget: Budget) -> Finding:
    def parts(before: State, move: GameMove, after: State) -> dict[str, Any] | None:
        if before.phase != "day" or after.phase == "day":
            return None
        among = encounter_candidates(before.sites, before.spots, "among-hiding-spots")
        busiest = encounter_candidates(before.sites, before.spots, "busiest-site")
        if among == busiest:
            return None
        names = [s.name for s in game.sites]
        return {
            "description": f"Dusk of round {before.round}: the busiest Site has no Hiding Spot.",
            "position": {
                "round": before.round,
                "humans": {names[s]: sum(h) for s, h in enumerate(before.sites)},
                "sites_with_hiding_spots": sorted(
                    {names[s] for own in before.spots for s in own if s >= 0}
                ),
            },
            "results": {
                "among-hiding-spots": {"encounter at": [names[s] for s in among]},
                "busiest-site": {"encounter at": [names[s] for s in busiest] or "no Encounter"},
            },
        }

    return searched(
        rp.ENCOUNTER_SCOPE,
        game,
        rulings,
        budget,
        players=2,
        test=parts,
        message=(
            "The Site with the most Humans can lack a Hiding Spot: one reading moves the "
            "Encounter to the busiest Site that has one, the other has no Encounter."
        ),
    )


def end_of_game(state: State) -> dict[str, Any]:
    """What the end of ``state``'s game comes to under its rulings: final scores, the
    tie-break tally of the tied players (when there is a tie) and the winners."""
    scores = final_scores(state)
    names = state.players
    tied = [p for p in range(state.n) if scores[p] == max(scores)]
    out: dict[str, Any] = {"final_scores": dict(zip(names, scores, strict=True))}
    if len(tied) > 1:
        out["tally"] = {names[p]: tie_break_humans(state, p) for p in tied}
    out["winners"] = [names[p] for p in winners(state)]
    return out


def tie_break(game: Game, rulings: Mapping[str, str], budget: Budget) -> Finding:
    point = rp.TIE_BREAK_COUNT

    def parts(before: State, move: GameMove, after: State) -> dict[str, Any] | None:
        if after.phase != "over" or before.phase == "over":
            return None
        outcome = {r: end_of_game(with_ruling(after, point.id, r)) for r in point.reading_names}
        if len({str(o["winners"]) for o in outcome.values()}) < 2:
            return None
        names = [s.name for s in game.sites]

        def where(spots: tuple[tuple[int, ...], ...]) -> dict[str, list[str]]:
            return {after.players[p]: spot_names(after, p, spots[p]) for p in range(after.n)}

        return {
            "description": (
                "the winner depends on whether the end counts the Hiding Spots before or "
                "after the fifth Night's moves (tie-break tally and Hidden Traits alike)."
            ),
            "position": {
                "myth": dict(zip(after.players, after.myth, strict=True)),
                "hidden_traits": {
                    after.players[p]: game.traits[after.traits[p]].name for p in range(after.n)
                },
                "hiding_spots_before_final_night": where(after.snapshot),
                "hiding_spots_after_final_night": where(after.spots),
                "humans": {names[s]: sum(h) for s, h in enumerate(after.sites)},
            },
            "results": outcome,
        }

    return searched(
        point,
        game,
        rulings,
        budget,
        players=3,
        test=parts,
        seeds=400,
        message=(
            "The fifth Night still moves Hiding Spots, and the end counts them (the tie-break "
            "tally of Humans at them, Hidden Traits about Hiding Spots or Humans): the winner "
            "depends on whether those moves count."
        ),
    )


def reveal_order(game: Game, rulings: Mapping[str, str], budget: Budget) -> Finding:
    point = rp.DUSK_REVEAL_ORDER

    def parts(before: State, move: GameMove, after: State) -> dict[str, Any] | None:
        p = before.actor()
        if not isinstance(move, Reveal) or before.encountered is None or p is None:
            return None
        site = before.encounter or 0
        token = before.spots[p].index(site)
        sighting = game.cryptids[before.cryptids[p]].sightings[before.stacks[p][token][0]]
        results = {}
        for reading in (r.name for r in point.readings):
            st = with_ruling(before, point.id, reading)
            change = sighting.myth_for(scored_humans(st))
            results[reading] = apply_myth(before.myth[p], change, st.reading(rp.MYTH_FLOOR.id))
        if len(set(results.values())) < 2:
            return None
        return {
            "description": (
                f"Dusk of round {before.round}: an earlier reveal's effect moved Humans at "
                f"{game.sites[site].name} before {before.players[p]} reveals a {sighting.kind}."
            ),
            "position": {
                "round": before.round,
                "player": before.players[p],
                "sighting": sighting.kind,
                "encounter": game.sites[site].name,
                "humans_when_encountered": _humans(before.encountered),
                "humans_now": _humans(before.sites[site]),
                "myth_before": before.myth[p],
            },
            "results": results,
        }

    return searched(
        point,
        game,
        rulings,
        budget,
        players=4,
        test=parts,
        message=(
            "A Sighting's effect changes the Humans at the Encounter Site before the next player "
            "reveals, so the Myth a reveal scores depends on seat order (and on the First "
            "Player, who picked the Site among ties)."
        ),
    )


def night_race(state: State, first: int, second: int, site: int) -> dict[str, Any]:
    """Play the Night of ``state`` to its end, ``first`` (earlier in player order) placing a
    returned Hiding Spot on ``site`` and ``second`` moving a spot there whenever that is
    legal; everyone else stays, places elsewhere when they can and keeps their hand. Which
    of the two hold ``site`` when the Night is over?"""
    names = [s.name for s in state.game.sites]
    moves: list[str] = []
    while state.phase in NIGHT_STEPS:
        p = state.actor()
        legal = legal_moves(state)
        wanted = [
            m
            for m in legal
            if p in (first, second) and isinstance(m, (Place, Move)) and m.site == site
        ]
        if wanted:
            move: GameMove = wanted[0]
        elif isinstance(legal[0], (Stay, Refill)):
            move = legal[0]
        else:
            move = next((m for m in legal if getattr(m, "site", None) != site), legal[0])
        if not isinstance(move, Refill):
            moves.append(describe(state, move))
        state = step(state, move)
    holders = [state.players[q] for q in (first, second) if site in state.spots[q]]
    return {"moves": moves, names[site]: holders}


def night_order(game: Game, rulings: Mapping[str, str], budget: Budget) -> Finding:
    point = rp.NIGHT_ORDER
    cap_point = rp.NIGHT_PLACEMENT_LIMITS

    def parts(before: State, move: GameMove, after: State) -> dict[str, Any] | None:
        if after.phase not in NIGHT_STEPS or before.phase in NIGHT_STEPS:
            return None
        start = replace(after, phase="night-move", turn=0)  # the Night before any skip
        order = start.order()
        for i, first in enumerate(order):
            if not start.returned[first]:
                continue
            for second in order[i + 1 :]:
                if start.returned[second]:
                    continue
                capped = start.reading(rp.OPTIONAL_MOVE_CONSTRAINTS.id) == "constrained"
                reachable = set(legal_sites(start, second, capped=capped))
                for site in legal_sites(
                    start,
                    first,
                    away_from=start.encounter,
                    capped=start.reading(cap_point.id) == "constrained",
                ):
                    if site not in reachable:
                        continue
                    results = {
                        r: night_race(
                            night_enter(with_ruling(start, point.id, r)), first, second, site
                        )
                        for r in point.reading_names
                    }
                    name = game.sites[site].name
                    if len({str(res[name]) for res in results.values()}) > 1:
                        return {
                            "description": (
                                f"Night of round {after.round}: {after.players[first]} must "
                                f"place a returned Hiding Spot and {after.players[second]} "
                                f"may move one; {name} has room for only one of them."
                            ),
                            "position": {
                                "round": after.round,
                                "hiding_spots": night_spots(after),
                                "encounter": game.sites[after.encounter or 0].name,
                                "places": after.players[first],
                                "may_move": after.players[second],
                                "site": name,
                            },
                            "results": results,
                        }
        return None

    return searched(
        point,
        game,
        rulings,
        budget,
        players=4,
        test=parts,
        message=(
            "With a cap, who gets the last room on a Site depends on the Night's order: a "
            "later player's optional move comes before an earlier player's placement only when "
            "each step is taken by every player in turn."
        ),
    )


def event_chooser(game: Game, rulings: Mapping[str, str], budget: Budget) -> Finding:
    point = rp.EVENT_CHOOSER

    def parts(before: State, move: GameMove, after: State) -> dict[str, Any] | None:
        if before.phase != "dawn" or before.dawn_step != 0 or before.n < 2:
            return None
        event = game.events[before.event_deck[0]]
        if sum(1 for e in event.effect) < 2:
            return None
        results = {
            r: [
                before.players[replace(with_ruling(before, point.id, r), dawn_step=k).actor() or 0]
                for k in range(len(event.effect))
            ]
            for r in point.reading_names
        }
        return {
            "description": (
                f"Dawn of round {before.round}: the First Player "
                f"{before.players[before.first]} flips {event.name}, with "
                f"{len(event.effect)} effects whose Sites someone must choose."
            ),
            "position": {
                "round": before.round,
                "event": event.name,
                "effects": [f"{e.op} {e.count} {HUMANS[e.human]}" for e in event.effect],
                "first_player": before.players[before.first],
            },
            "results": {r: {"chosen by": v} for r, v in results.items()},
        }

    return searched(
        point,
        game,
        rulings,
        budget,
        players=4,
        test=parts,
        message=(
            "An Event with several effects: the rulebook says the First Player resolves them "
            "but not who chooses their Sites; the choosers differ between the readings."
        ),
    )


def boxed_spot_move(game: Game, rulings: Mapping[str, str], budget: Budget) -> Finding:
    point = rp.BOXED_SPOT_MOVE

    def parts(before: State, move: GameMove, after: State) -> dict[str, Any] | None:
        p = after.actor()
        if after.phase != "night-move" or p is None or not boxed_this_dusk(after, p):
            return None
        results = {}
        for r in point.reading_names:
            st = with_ruling(after, point.id, r)
            results[r] = {
                "optional move": may_move(st, p),
                "Sites to move to": sorted(
                    {game.sites[m.site].name for m in legal_moves(st) if isinstance(m, Move)}
                )
                if may_move(st, p)
                else [],
            }
        stack = next(s for s, _, rnd in after.revealed[p][::-1] if rnd == after.round)
        return {
            "description": (
                f"Night of round {after.round}: {after.players[p]} revealed the last Sighting of "
                f"Stack {stack + 1} at Dusk; its Hiding Spot went to the box."
            ),
            "position": {
                "round": after.round,
                "player": after.players[p],
                "boxed_stack": stack + 1,
                "hiding_spots": spot_names(after, p),
            },
            "results": results,
        }

    return searched(
        point,
        game,
        rulings,
        budget,
        players=4,
        test=parts,
        play_under={**rulings, point.id: "may-move"},  # a skipped move step shows nothing
        message=(
            "A player whose Hiding Spot went to the box at Dusk has no token on a Stack, so the "
            "text offers the optional move; whether a player who revealed may move is open."
        ),
    )
