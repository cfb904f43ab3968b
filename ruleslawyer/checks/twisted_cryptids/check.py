"""Twisted Cryptids checks: one finding per rule point, plus data errors of the game file.

Placement questions (setup stall, Night relocation deadlock, caps, the
optional move, a Dusk without Hiding Spots) are answered by Z3 for every
player count 2-6 (:mod:`ruleslawyer.solvers.twisted_cryptids.placement`); a reachable
deadlock is replayed through the model from a legal setup, so its witness is a
real game. Points about play (Myth below 0, the Encounter scope, the
tie-break) are searched in seeded random games of the model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ruleslawyer.budget import Budget
from ruleslawyer.checks.twisted_cryptids import searches
from ruleslawyer.checks.twisted_cryptids.searches import night_spots, spot_names, with_ruling
from ruleslawyer.findings import (
    Finding,
    Kind,
    Location,
    Witness,
    data_error,
    point_finding,
    skipped_for,
)
from ruleslawyer.gamefiles.source import GameSource
from ruleslawyer.models.twisted_cryptids import points as rp
from ruleslawyer.models.twisted_cryptids.game import Game, load_game, structural_problems
from ruleslawyer.models.twisted_cryptids.play import (
    Choose,
    GameMove,
    KeepTrait,
    Move,
    Pass,
    Place,
    Refill,
    State,
    Stay,
    Stuck,
    describe,
    legal_moves,
    player_cap,
    player_counts,
    step,
)


def _counts(rulings: Mapping[str, str]) -> tuple[int, ...]:
    """The player counts to ask about: those the ``player-count`` reading in force allows."""
    return player_counts(rulings.get(rp.PLAYER_COUNT.id, rp.PLAYER_COUNT.default or ""))


def check(source: GameSource, rulings: dict[str, str], budget: Budget) -> list[Finding]:
    game = load_game(source)
    findings = check_structure(source, game)
    problems = list(findings)
    small = rulings.get(rp.SMALL_GAME_CAP.id, rp.SMALL_GAME_CAP.default or "no-cap")
    playable = not problems
    relocation, deadlock = _relocation(game, rulings, small, playable, budget)
    findings.append(relocation)
    findings.append(_small_game_cap(rulings))
    findings.append(_optional_move(game, rulings, small, playable))
    findings.append(_night_own_site(game, rulings, playable))
    findings.append(_night_limits(relocation, deadlock, rulings))
    findings.append(_searched(searches.myth_floor, rp.MYTH_FLOOR, game, rulings, budget, playable))
    findings.append(_no_spot_encounter(game, rulings, small, budget))
    findings.append(_setup_stall(rulings, small, budget))
    for search, point in (
        (searches.encounter_scope, rp.ENCOUNTER_SCOPE),
        (searches.tie_break, rp.TIE_BREAK_COUNT),
        (searches.reveal_order, rp.DUSK_REVEAL_ORDER),
        (searches.night_order, rp.NIGHT_ORDER),
        (searches.event_chooser, rp.EVENT_CHOOSER),
    ):
        findings.append(_searched(search, point, game, rulings, budget, playable))
    findings.append(_player_count(game, rulings, playable))
    findings.append(_sinkhole(rulings))
    findings.append(
        _searched(searches.boxed_spot_move, rp.BOXED_SPOT_MOVE, game, rulings, budget, playable)
    )
    if problems:  # what the data errors kept from being searched says where the first one is
        cut = budget.spent()
        findings = [
            skipped_for(f, problems) if f.message == SKIP or not (f.finished or cut) else f
            for f in findings
        ]
    return findings


def check_structure(source: GameSource, game: Game) -> list[Finding]:
    """The structural rules ``game`` breaks, as data errors in file order."""
    return [
        data_error(
            rp.GAME,
            "structure",
            "The game file breaks a structural rule of the rulebook",
            Location(source.display, place, source.line(place)),
            message,
        )
        for place, message in structural_problems(game, source.document)
    ]


def _searched(
    search: Any, point: Any, game: Game, rulings: Mapping[str, str], budget: Budget, playable: bool
) -> Finding:
    return search(game, rulings, budget) if playable else _skipped(point, rulings, SKIP)


def _skipped(point: Any, rulings: Mapping[str, str], why: str) -> Finding:
    return point_finding(point, rulings=rulings, parted=False, finished=False, message=why)


BUDGET = "not searched: the budget (--max-seconds) was spent"
SKIP = "Not searched: the game file has data errors, so games cannot be dealt."


# --- placement (Z3) -------------------------------------------------------------------------


def _relocation(
    game: Game, rulings: Mapping[str, str], small: str, playable: bool, budget: Budget
) -> tuple[Finding, Witness | None]:
    """The deadlock under each reading of ``night-placement-limits`` in play (the ruled one,
    or both when the point is open): only a cap on the Night placement can block every Site."""
    from ruleslawyer.errors import BudgetExceeded
    from ruleslawyer.solvers.twisted_cryptids.placement import relocation_anywhere
    from ruleslawyer.solvers.z3util import deadline

    limits = rp.NIGHT_PLACEMENT_LIMITS
    ruled = rulings.get(limits.id)
    per_reading: dict[str, dict[str, str]] = {}
    witness = None
    finished = True
    for reading in limits.reading_names:
        per_count = per_reading.setdefault(reading, {})
        for n in _counts(rulings):
            cap = player_cap(n, small) if reading == "constrained" else None
            if budget.spent():
                per_count[str(n)] = BUDGET
                finished = False
                continue
            try:
                with deadline(budget):
                    anywhere = relocation_anywhere(n, cap)
                    found = (
                        _deadlock_witness(game, n, {**rulings, limits.id: reading})
                        if anywhere is not None and playable and n <= len(game.cryptids)
                        else None
                    )
            except BudgetExceeded:
                per_count[str(n)] = BUDGET
                finished = False
                continue
            if anywhere is None:
                per_count[str(n)] = (
                    "unreachable (Z3: no board leaves a returned spot no Site)"
                    if cap is None
                    else "unreachable (Z3: no capped board leaves a returned spot no Site)"
                )
                continue
            if found is None:
                per_count[str(n)] = "possible on some board; not replayed from a legal setup"
                finished = False
                continue
            per_count[str(n)] = "reachable in round 1 from a legal setup"
            if witness is None or n == 4:
                witness = found
    holds = {
        r: [n for n, v in counts.items() if v.startswith("reachable")]
        for r, counts in per_reading.items()
    }
    reachable = {r: ns for r, ns in holds.items() if ns}
    in_force = (ruled,) if ruled else limits.reading_names
    if any(r in reachable for r in in_force):
        where = "; ".join(
            f"under {limits.id}={r}: with {', '.join(ns)} players" for r, ns in reachable.items()
        )
        spared = [r for r in limits.reading_names if r not in reachable]
        message = (
            f"A Hiding Spot returned at Dusk can find no Site ({where}): every Site but the "
            "Encounter Site holds one of the player's spots or is at the cap. The rulebook says "
            "nothing of what happens then (the model leaves the spot on its Stack to try again "
            "next Night)."
        )
        if spared:
            message += (
                f" Under {', '.join(spared)} it cannot happen: without the cap only the Encounter "
                "Site and the player's own two other spots are barred, 3 of the 6 Sites."
            )
    elif finished:
        message = (
            f"No player count reaches a relocation with no legal Site under {limits.id}="
            f"{'/'.join(in_force)}"
            + (
                f" (under {', '.join(reachable)} it is reachable; see {limits.id})."
                if reachable
                else "."
            )
        )
    else:
        message = "Not decided for every player count: " + "; ".join(
            f"{r} {n}: {v}" for r, counts in per_reading.items() for n, v in counts.items()
        )
    return (
        point_finding(
            rp.RELOCATION_DEADLOCK,
            rulings=rulings,
            parted=any(r in reachable for r in in_force),
            finished=finished or bool(reachable),
            message=message,
            witness=witness if any(r in reachable for r in in_force) else None,
            extra={
                "holds_under": {limits.id: sorted(reachable)},
                "per_reading": per_reading,
            },
        ),
        witness,
    )


def _night_limits(
    relocation: Finding, witness: Witness | None, rulings: Mapping[str, str]
) -> Finding:
    """The readings of ``night-placement-limits`` part where the deadlock's witness leaves a
    returned spot no Site under the cap and some Site without it."""
    free: list[str] = witness.results["free"]["legal Sites"] if witness is not None else []
    parted = bool(free)
    if parted:
        message = (
            "The cap decides where a returned Hiding Spot may go at Night: in the witness the "
            "spot has no legal Site when the cap binds (the relocation-deadlock gap) and "
            f"{len(free)} Sites ({', '.join(free)}) when it does not."
        )
    elif relocation.finished:
        message = "No returned Hiding Spot found whose legal Sites depend on the cap."
    else:
        message = "Not decided: " + relocation.message
    return point_finding(
        rp.NIGHT_PLACEMENT_LIMITS,
        rulings=rulings,
        parted=parted,
        finished=relocation.finished,
        message=message,
        witness=witness if parted else None,
    )


def _round_one(
    game: Game, n: int, rulings: Mapping[str, str], spots: tuple[tuple[int, ...], ...] | None
) -> tuple[State, list[str]]:
    """Deal seed 0, keep the first Hidden Trait dealt, place the spots (round-robin, each
    player's k-th Site in placement round k; the first legal ones when ``spots`` is None),
    resolve Dawn, pass the Day."""
    from ruleslawyer.solvers.twisted_cryptids.simulate import deal

    state = deal(game, n, 0, rulings)
    moves: list[str] = []
    while state.phase in ("traits", "setup", "dawn", "day"):
        player = state.actor()
        assert player is not None
        if state.phase == "traits":
            move: GameMove = KeepTrait(0)
        elif state.phase == "setup":
            k = sum(state.placed[player])
            move = legal_moves(state)[0] if spots is None else Place(spots[player][k], k)
        elif state.phase == "dawn":
            move = legal_moves(state)[0]
        else:
            move = Pass()
        if state.phase == "day" and state.turn == 3 * n - 1:
            break  # stop before Dusk: the caller wants the Humans at Dusk
        if not isinstance(move, Pass):
            moves.append(describe(state, move))
        state = step(state, move)
    return state, moves


def _deadlock_witness(game: Game, n: int, rulings: Mapping[str, str]) -> Witness | None:
    """A round-1 relocation deadlock replayed through the model, or None."""
    from ruleslawyer.solvers.twisted_cryptids.placement import relocation_after_setup

    cap = player_cap(n, rulings.get(rp.SMALL_GAME_CAP.id, "no-cap"))
    before, _ = _round_one(game, n, rulings, None)
    humans = [sum(s) for s in before.sites]
    board = relocation_after_setup(n, cap, humans, 0)
    if board is None:
        return None
    state, moves = _replay_round_one(
        game, n, rulings, board.spots, board.site or 0, lambda st: st.phase == "night-place"
    )
    if state.encounters != ((1, board.site),) or legal_moves(state) != (Stuck(),):
        return None
    names = state.players
    free = with_ruling(state, rp.NIGHT_PLACEMENT_LIMITS.id, "free")
    free_sites = [game.sites[m.site].name for m in legal_moves(free) if isinstance(m, Place)]
    return Witness(
        description=(
            f"{n} players, round 1: after a legal setup, {names[0]} alone at the Encounter Site "
            f"{game.sites[board.site or 0].name} reveals; every other Site holds one of "
            f"{names[0]}'s spots or {cap} players' spots."
        ),
        position={
            "players": n,
            "cap": cap,
            "hiding_spots": {names[p]: spot_names(before, p, board.spots[p]) for p in range(n)},
            "humans_at_dusk": {game.sites[s].name: humans[s] for s in range(len(humans))},
            "encounter": game.sites[board.site or 0].name,
            "first_player": names[before.first],
            "returning": names[0],
        },
        results={
            "constrained": {
                "legal Sites": [],
                "model": "the spot stays on its Stack (Stuck) until a later Night",
            },
            "free": {"legal Sites": free_sites},
        },
        moves=tuple(moves),
    )


def _small_game_cap(rulings: Mapping[str, str]) -> Finding:
    from ruleslawyer.solvers.twisted_cryptids.placement import caps_part

    parted = {n: caps_part(n, 3, None) for n in (2, 3)}
    hit = next((b for b in parted.values() if b is not None), None)
    return point_finding(
        rp.SMALL_GAME_CAP,
        rulings=rulings,
        parted=hit is not None,
        message=(
            "The readings never part: with 2 or 3 players a Site holds at most one spot per "
            "player, so at most 3 players share it and a cap of 3 never binds (Z3: no board "
            "legal without a cap breaks cap 3). The silence is harmless."
            if hit is None
            else "A Site can hold more than 3 players' spots with 2-3 players."
        ),
        witness=None,
    )


def _optional_move(game: Game, rulings: Mapping[str, str], small: str, playable: bool) -> Finding:
    from ruleslawyer.solvers.twisted_cryptids.placement import move_limits_bind

    if not playable:
        return _skipped(rp.OPTIONAL_MOVE_CONSTRAINTS, rulings, SKIP)
    n = 4
    cap = player_cap(n, small)
    before, _ = _round_one(game, n, rulings, None)
    board = move_limits_bind(n, cap, [sum(s) for s in before.sites])
    witness = None
    if board is not None:
        target = board.site if board.site is not None else 0
        results = {}
        moves: list[str] = []
        night: State | None = None
        for reading in ("constrained", "free"):
            ruled = {**rulings, rp.OPTIONAL_MOVE_CONSTRAINTS.id: reading}
            state, moves = _replay_round_one(
                game,
                n,
                ruled,
                board.spots,
                board.encounter or 0,
                lambda st: st.phase == "night-move" and st.actor() == 0,
            )
            legal = state.phase == "night-move" and any(
                isinstance(m, Move) and m.site == target for m in legal_moves(state)
            )
            results[reading] = "legal" if legal else "illegal (the cap)"
            night = night or state
        assert night is not None
        names = before.players
        there = sum(1 for p in range(n) if target in night.spots[p])
        witness = Witness(
            description=(
                f"{n} players, round 1 Night: {names[0]} did not reveal and moves a spot to "
                f"{game.sites[target].name}, where {there} players have spots."
            ),
            position={
                # The Night position the move is made in (after the Dusk), not the setup.
                "hiding_spots": night_spots(night),
                "encounter": game.sites[board.encounter or 0].name,
                "mover": names[0],
                "target": game.sites[target].name,
            },
            results=results,
            moves=tuple(moves),
        )
    parted = witness is not None and len(set(witness.results.values())) == 2
    return point_finding(
        rp.OPTIONAL_MOVE_CONSTRAINTS,
        rulings=rulings,
        parted=parted,
        finished=board is None or parted,
        message=(
            "The optional Night move can target a Site at the cap: legal only if the placement "
            "limits do not bind a move (replayed in the model under both readings)."
            if parted
            else "No board reached from a legal setup lets the readings part."
        ),
        witness=witness,
    )


def _night_own_site(game: Game, rulings: Mapping[str, str], playable: bool) -> Finding:
    """Round 1 from the first legal setup, everyone staying at Night until a player who did
    not reveal has two spots on Sites: moving one onto the other's Site is legal only when
    the setup's one-spot-per-Site limit does not bind a Night move."""
    point = rp.NIGHT_OWN_SITE
    if not playable:
        return _skipped(point, rulings, SKIP)
    n = 4
    state, moves = _round_one(game, n, rulings, None)
    moves.append("the Day: every player passes three times")
    state = step(state, Pass())
    witness = None
    while state.phase != "over" and witness is None:
        player = state.actor()
        if state.phase == "night-move" and player is not None:
            mine = [s for s in state.spots[player] if s >= 0]
            if len(mine) >= 2:
                target, results = mine[1], {}
                for reading in point.reading_names:
                    ruled = with_ruling(state, point.id, reading)
                    legal = any(
                        isinstance(m, Move) and m.site == target for m in legal_moves(ruled)
                    )
                    results[reading] = "legal" if legal else "illegal (one of your spots there)"
                witness = Witness(
                    description=(
                        f"{n} players, round {state.round} Night: {state.players[player]} did "
                        f"not reveal and moves a spot onto {game.sites[target].name}, which "
                        "holds another of their spots."
                    ),
                    position={
                        "hiding_spots": night_spots(state),
                        "mover": state.players[player],
                        "target": game.sites[target].name,
                    },
                    results=results,
                    moves=tuple(moves),
                )
                break
        move = {"night-move": Stay(), "refill": Refill()}.get(state.phase) or legal_moves(state)[0]
        moves.append(describe(state, move))
        state = step(state, move)
    parted = witness is not None and len(set(witness.results.values())) == 2
    return point_finding(
        point,
        rulings=rulings,
        parted=parted,
        message=(
            "A Night move onto a Site with another of your spots: legal only if the setup's "
            "limit does not bind the Night (replayed in the model under both readings; the "
            "Night placement of a returned spot follows the same reading)."
            if parted
            else "No round-1 Night move from the first legal setup lets the readings part."
        ),
        witness=witness,
        finished=parted,
    )


def _replay_round_one(
    game: Game,
    n: int,
    rulings: Mapping[str, str],
    spots: tuple[tuple[int, ...], ...],
    encounter: int,
    until: Any,
) -> tuple[State, list[str]]:
    """Replay round 1 with ``spots`` as the setup, the First Player choosing ``encounter`` if
    Sites tie, the first legal reveal targets, everyone staying and keeping their hand, up to
    the first state where ``until(state)`` holds."""
    state, moves = _round_one(game, n, rulings, spots)
    moves.append("the Day: every player passes three times")
    state = step(state, Pass())
    if state.phase == "choose":
        moves.append(describe(state, Choose(encounter)))
        state = step(state, Choose(encounter))
    while state.phase != "over" and not until(state):
        move = {"night-move": Stay(), "refill": Refill()}.get(state.phase) or legal_moves(state)[0]
        moves.append(describe(state, move))
        state = step(state, move)
    return state, moves


def _no_spot_encounter(
    game: Game, rulings: Mapping[str, str], small: str, budget: Budget
) -> Finding:
    from ruleslawyer.solvers.twisted_cryptids.placement import (
        empty_board_at_dusk,
        relocation_anywhere,
    )

    def question(n: int) -> Any:
        can_stick = relocation_anywhere(n, player_cap(n, small)) is not None
        return empty_board_at_dusk(n, game.rounds, can_stick)

    found, skipped = _per_count(budget, question, rulings)
    reachable = {n: w for n, w in found.items() if w is not None}
    if skipped and not reachable:
        return _skipped(rp.NO_HIDING_SPOT_ENCOUNTER, rulings, _budget_message(skipped))
    if not reachable:
        return point_finding(
            rp.NO_HIDING_SPOT_ENCOUNTER,
            rulings=rulings,
            parted=False,
            kind=Kind.DEAD_RULE,
            message=(
                f"Proved unreachable for {_span(rulings)} players over {game.rounds} rounds "
                "(Z3, unsat): a "
                "player reveals at most once a round, a Hiding Spot leaves for the box only when "
                f"its Stack of 3 is empty, so every player keeps at least "
                f"{3 - (game.rounds - 1) // 3} spots; a spot is off the board only when stuck "
                "after a relocation deadlock, which needs spots on the board, and nothing leaves "
                "the board between Night and Dusk. The case the sentence leaves open never arises."
            ),
        )
    n, counts = next(iter(reachable.items()))
    return point_finding(
        rp.NO_HIDING_SPOT_ENCOUNTER,
        rulings=rulings,
        parted=True,
        finished=False,
        message=(
            f"With {game.rounds} rounds a Dusk with no Hiding Spot on the board is not ruled "
            "out by the counting argument; not replayed in a game."
        ),
        witness=Witness("counts that allow an empty board", {"players": n, **counts}, {}),
    )


def _span(rulings: Mapping[str, str]) -> str:
    counts = _counts(rulings)
    return f"{counts[0]}-{counts[-1]}"


def _per_count(
    budget: Budget, question: Any, rulings: Mapping[str, str]
) -> tuple[dict[int, Any], list[int]]:
    """Ask ``question(n)`` for each player count while the budget lasts."""
    answers: dict[int, Any] = {}
    skipped: list[int] = []
    for n in _counts(rulings):
        if budget.spent():
            skipped.append(n)
        else:
            answers[n] = question(n)
    return answers, skipped


def _budget_message(skipped: list[int]) -> str:
    counts = ", ".join(map(str, skipped))
    return f"Not decided: the budget (--max-seconds) ran out before {counts} players were asked."


def _setup_stall(rulings: Mapping[str, str], small: str, budget: Budget) -> Finding:
    from ruleslawyer.solvers.twisted_cryptids.placement import setup_stall

    stalls, skipped = _per_count(budget, lambda n: setup_stall(n, player_cap(n, small)), rulings)
    hit = next(((n, b) for n, b in stalls.items() if b is not None), None)
    if skipped and hit is None:
        return _skipped(rp.SETUP_STALL, rulings, _budget_message(skipped))
    witness = None
    if hit is not None:
        n, board = hit
        witness = Witness(
            f"{n} players: player {board.player} has no legal Site during setup",
            board.to_json(),
            {"legal Sites": []},
        )
    return point_finding(
        rp.SETUP_STALL,
        rulings=rulings,
        parted=hit is not None,
        message=(
            f"Setup placement always completes for {_span(rulings)} players (Z3, unsat at every "
            "moment of the "
            "three placement rounds): a player placing a third spot would need the 4 Sites "
            "without their spots all at the cap, more spots than the others hold."
            if hit is None
            else "Setup placement can stall."
        ),
        witness=witness,
    )


# --- play (seeded random games) ----------------------------------------------------------------


def _player_count(game: Game, rulings: Mapping[str, str], playable: bool) -> Finding:
    """Deal a 3-player game under each reading: legal, or not a player count."""
    from ruleslawyer.errors import IllegalMove
    from ruleslawyer.solvers.twisted_cryptids.simulate import deal

    point = rp.PLAYER_COUNT
    if not playable or len(game.cryptids) < 3:
        return _skipped(point, rulings, SKIP)
    results: dict[str, str] = {}
    for reading in point.reading_names:
        try:
            state = deal(game, 3, 0, {**rulings, point.id: reading})
        except IllegalMove:
            results[reading] = "not a legal player count: no game"
        else:
            results[reading] = (
                f"a legal game: setup offers {len(legal_moves(state))} placements to "
                f"{state.players[state.first]}, and no cap is printed for it "
                f"({rp.SMALL_GAME_CAP.id})"
            )
    return point_finding(
        point,
        rulings=rulings,
        parted=len(set(results.values())) > 1,
        message=(
            "No sentence gives the number of players. The caps speak of 4, 5 and 6 players and "
            "the box holds 6 Cryptids; whether 2 or 3 players may play is open, and with it "
            f"whether {rp.SMALL_GAME_CAP.id} arises at all."
        ),
        witness=Witness("3 players sit down to play", {"players": 3}, results),
    )


def _sinkhole(rulings: Mapping[str, str]) -> Finding:
    """Every line of the rulebook that mentions the Sinkhole: a rule, or only the list."""
    from ruleslawyer.rulebook import books as rulebooks

    lines = [
        (i, text.strip())
        for i, text in enumerate(rulebooks.text(rp.RULEBOOK).splitlines(), start=1)
        if "sinkhole" in text.lower()
    ]
    listed = [i for i, text in lines if text.lstrip("• ").lower() == "1 sinkhole token"]
    rules = [i for i, _ in lines if i not in listed]
    parted = bool(listed) and not rules
    return point_finding(
        rp.SINKHOLE_TOKEN,
        rulings=rulings,
        parted=parted,
        message=(
            f"The Sinkhole token is named once, in the component list (line {listed[0]}), and "
            "in no rule: setup never places it and no phase uses it. The model leaves it in "
            "the box."
            if parted
            else f"The rulebook mentions the Sinkhole on lines {[i for i, _ in lines]}."
        ),
        witness=Witness(
            "the rulebook's mentions of the Sinkhole token",
            {"component_list_lines": listed, "rule_lines": rules},
            {"model": "the token stays in the box (no rule to apply)"},
        )
        if parted
        else None,
    )
