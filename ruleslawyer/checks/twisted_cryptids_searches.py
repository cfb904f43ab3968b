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
from ruleslawyer.models import twisted_cryptids as rp
from ruleslawyer.models.twisted_cryptids_game import HUMANS, Game
from ruleslawyer.models.twisted_cryptids_play import (
    GameMove,
    Reveal,
    State,
    apply_myth,
    encounter_candidates,
    final_scores,
    myth_change,
    scored_humans,
    tie_break_humans,
    winners,
)

# A test sees (before, move, after) and returns None or a hit:
# {"description": "... {seed} ...", "position": {...}, "results": {reading: result}}.
Test = Callable[[State, GameMove, State], dict[str, Any] | None]


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
    from ruleslawyer.solvers.cryptid_simulate import first_hit

    under = dict(play_under if play_under is not None else rulings)
    hit, seed, played, finished, index = first_hit(
        game, players, test, rulings=under, seeds=range(seeds), budget=budget
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
        else f"The readings did not part in {played} seeded games (not a proof).",
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
            return {
                after.players[p]: [names[s] for s in spots[p] if s >= 0] for p in range(after.n)
            }

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
            change = myth_change(sighting.myth, scored_humans(st))
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
