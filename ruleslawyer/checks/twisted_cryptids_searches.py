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

    hit, seed, played, finished = first_hit(
        game,
        players,
        test,
        rulings=play_under if play_under is not None else rulings,
        seeds=range(seeds),
        budget=budget,
    )
    witness = None
    if hit is not None:
        witness = Witness(
            description=f"{players} players, seed {seed}: " + hit["description"],
            position=hit["position"],
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


def tie_break(game: Game, rulings: Mapping[str, str], budget: Budget) -> Finding:
    point = rp.TIE_BREAK_COUNT

    def parts(before: State, move: GameMove, after: State) -> dict[str, Any] | None:
        if after.phase != "over" or before.phase == "over":
            return None
        scores = final_scores(after)
        tied = [p for p in range(after.n) if scores[p] == max(scores)]
        if len(tied) < 2:
            return None
        outcome = {}
        for reading in (r.name for r in point.readings):
            st = with_ruling(after, point.id, reading)
            tally = {after.players[p]: tie_break_humans(st, p) for p in tied}
            top = max(tally.values())
            outcome[reading] = {
                "tally": tally,
                "winners": [k for k, v in tally.items() if v == top],
            }
        if len({str(o["winners"]) for o in outcome.values()}) < 2:
            return None
        return {
            "description": (
                "a tie on Myth decided differently by the Hiding Spots before and after the "
                "fifth Night."
            ),
            "position": {"final_myth": dict(zip(after.players, scores, strict=True))},
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
            "The fifth Night still moves Hiding Spots, and the tie-break counts Humans at them: "
            "a tied game's winner depends on whether those moves count."
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
