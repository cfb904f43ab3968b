"""``ruleslawyer check cunning-folk``: one finding per rule point, with witnesses from play.

Witnesses come from the state machine in
:mod:`ruleslawyer.models.cunning_folk.play`: a breadth-first search from a
deal of the game file's cards runs the readings of a point side by side and
returns the shortest move sequence after which they part (a move legal under
one reading only, or different suspected, ostracised, face-up cards or winner).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ruleslawyer.budget import Budget
from ruleslawyer.findings import (
    Finding,
    Location,
    RulePoint,
    Witness,
    data_error,
    not_modelled,
    not_searched,
    point_finding,
)
from ruleslawyer.gamefiles.source import GameSource
from ruleslawyer.models.cunning_folk.data import GameData, load_game_data
from ruleslawyer.models.cunning_folk.play import (
    ELDER,
    OSTRACISED,
    OVER,
    SUSPECTED,
    Rules,
    State,
    Table,
    legal_moves,
    start,
    step,
)
from ruleslawyer.models.cunning_folk.village import (
    CAT,
    CELLS,
    EVIL_ELDER,
    EVIL_WITCH,
    GAME,
    GOOD_ELDER,
    GOOD_WITCH,
    LIAR,
    NOT_MODELLED,
    OPPOSITION,
    PIRATE,
    POINTS,
    ROLES,
    VILLAGER,
    Setup,
    cards_of,
)
from ruleslawyer.solvers.parting import Search, shortest_cycle, shortest_parting, shortest_path

MAX_DEPTH = 8


@dataclass(frozen=True)
class Plan:
    """How to search one rule point: which rules field it sets, on which setup, with how many.

    ``allow`` (if given) limits the moves searched, so the witness shows the difference
    that matters rather than the first one (e.g. not a self-penalising pick).
    """

    field: str
    players: int
    setup: Callable[[GameData], Setup]
    allow: Callable[[State, str], bool] | None = None


def _standard(data: GameData) -> Setup:
    return data.standard


def _bonus(data: GameData, role: str) -> Setup:
    """The file's standard village with one ``bonus.replaces`` card replaced by ``role``."""
    cards = list(data.standard.cards)
    cards[cards.index(data.replaces)] = role
    return Setup("bonus", (_sorted(tuple(cards)),))


def _with_liar(data: GameData) -> Setup:
    return _bonus(data, LIAR)


def _scoundrels(data: GameData) -> Setup:
    """A scoundrels village for 3 players: the core and the first three cards of the pool."""
    added = cards_of(data.scoundrel_pool)[: len(CELLS) - sum(data.scoundrel_core.values())]
    return Setup("scoundrels", (_sorted((*cards_of(data.scoundrel_core), *added)),))


def _face_up_pick_opposes(state: State, move: str) -> bool:
    """The moves that can show a face-up card the elder run may or may not pick.

    Only claims that can leave a true card face up or start a run, and only picks of a
    face-up card that opposes the elder (a card a challenged true claim left face up):
    face-down picks never part the readings, and a self-penalising pick shows nothing.
    """
    word, *args = move.split()
    if word == "claim":
        return args[0] in (GOOD_WITCH, *OPPOSITION)
    if word == "pick":
        cell = CELLS.index(args[0])
        return state.face_up[cell] and state.village[cell] in OPPOSITION.get(state.claim, ())
    return word in ("investigate", "accept", "challenge")


PLANS: dict[str, Plan] = {
    "cunning-folk/multiple-challengers": Plan("multiple_challengers", 3, _standard),
    "cunning-folk/villager-challenge": Plan("villager_challenge", 2, _standard),
    "cunning-folk/elder-face-up-picks": Plan(
        "elder_face_up_picks", 2, _standard, _face_up_pick_opposes
    ),
    "cunning-folk/liar-face-up": Plan("liar_face_up", 2, _with_liar),
    "cunning-folk/swap-face-up": Plan("swap_face_up", 2, _standard),
    "cunning-folk/optional-action": Plan("optional_action", 2, _standard),
    "cunning-folk/elder-run-stop": Plan("elder_run_stop", 2, _standard),
    "cunning-folk/declare-without-picks": Plan("declare_without_picks", 3, _scoundrels),
    "cunning-folk/challenge-order": Plan("challenge_order", 3, _standard),
}


def check(source: GameSource, rulings: dict[str, str], budget: Budget) -> list[Finding]:
    data = load_game_data(source)
    errors = _data_errors(source, data)
    base = Rules.from_rulings(rulings)
    findings = list(errors)
    points = list(POINTS.values())
    for k, point in enumerate(points):
        share = _share(budget, len(points) - k)
        if errors and point.id != "cunning-folk/scoundrels-village-size":
            findings.append(not_searched(point, rulings=rulings, errors=errors))
        elif point.id in NOT_MODELLED:
            findings.append(not_modelled(point, rulings, NOT_MODELLED[point.id]))
        elif point.id in PLANS:
            findings.append(_reading_point(point.id, PLANS[point.id], data, base, rulings, share))
        elif point.id in LOOPS:
            findings.append(_loop(point.id, data, base, rulings, share))
        elif point.id == "cunning-folk/cat-meow":
            findings.append(_cat_meow(data, base, rulings))
        elif point.id == "cunning-folk/pirate-unknown":
            findings.append(_pirate_unknown(data, base, rulings, share))
        else:
            findings.append(_village_size(data, rulings))
    return findings


def _share(budget: Budget, left: int) -> Budget:
    remaining = budget.remaining_seconds()
    return Budget(
        max_seconds=None if remaining is None else remaining / max(1, left),
        max_states=budget.max_states,
    )


def _data_errors(source: GameSource, data: GameData) -> list[Finding]:
    out = []
    cells = data.columns * data.rows
    if cells != len(CELLS):
        out.append(
            data_error(
                GAME,
                "grid",
                "The village must be a 3x3 grid",
                Location(source.display, "grid", source.line("grid")),
                f"grid is {data.columns}x{data.rows} ({cells} cells); cells A1..C3 make 9",
            )
        )
    dealt = len(data.standard.cards)
    if dealt != len(CELLS):
        place = "composition.standard"
        out.append(
            data_error(
                GAME,
                "village-size",
                "The standard village must fill the grid",
                Location(source.display, place, source.line(place)),
                f"composition.standard has {dealt} cards; the village has {len(CELLS)} cells",
            )
        )
    # The rule-point searches fill the grid with the scoundrels core and cards the players
    # kept ("A village full of scoundrels"); a core that fills the grid leaves no room.
    core = sum(data.scoundrel_core.values())
    pool = sum(data.scoundrel_pool.values())
    if not core < len(CELLS) <= core + pool:
        place = "scoundrels.core"
        out.append(
            data_error(
                GAME,
                "scoundrels-village",
                "The scoundrels core and pool must fill the grid, with room for kept cards",
                Location(source.display, place, source.line(place)),
                f"scoundrels.core has {core} cards and scoundrels.pool {pool} for the "
                f"{len(CELLS)} cells: expected fewer than {len(CELLS)} in the core and "
                f"at least {len(CELLS)} in both",
            )
        )
    if data.replaces not in data.standard.cards:
        place = "bonus.replaces"
        out.append(
            data_error(
                GAME,
                "bonus-replaces",
                "Bonus characters must replace a card of the standard village",
                Location(source.display, place, source.line(place)),
                f"{data.replaces!r} is not in composition.standard",
            )
        )
    return out


def _deal(setup: Setup) -> tuple[str, ...]:
    """The deal every search starts from: the cards in role order, A1 to C3."""
    return setup.compositions[0]


def observe(state: State) -> tuple[Any, ...]:
    """What every player sees: marks, face-up cards (and their roles), whose move, the winner."""
    shown = tuple(r if up else "" for r, up in zip(state.village, state.face_up, strict=True))
    return (state.marks, shown, state.phase, state.actor, state.winner)


def summary(state: State | None, allowed: tuple[str, ...] = ()) -> dict[str, Any] | str:
    """A reading's result: who is suspected or ostracised, face-up cards, who moves or won.

    ``None`` is a last move this reading does not allow; ``allowed`` lists what it allows.
    """
    if state is None:
        return f"the last move is not allowed; allowed: {', '.join(allowed)}"
    name = _player
    return {
        "suspected": [name(p) for p, m in enumerate(state.marks) if m == SUSPECTED],
        "ostracised": [name(p) for p, m in enumerate(state.marks) if m == OSTRACISED],
        "face_up": {
            c: r for c, r, up in zip(CELLS, state.village, state.face_up, strict=True) if up
        },
        "winner": name(state.winner) if state.winner >= 0 else None,
        "next": f"{name(state.actor)} {state.phase}" if state.actor >= 0 else "game over",
    }


def _player(p: int) -> str:
    return f"P{p + 1}"


def _annotated(table: Table, state: State, moves: tuple[str, ...]) -> tuple[str, ...]:
    """Moves prefixed with the player who makes them (replayed under ``table``'s rules)."""
    out = []
    for move in moves:
        # An out-of-turn challenge (first-to-speak) is made by the player it names.
        who = move.split()[1] if move.startswith("first-challenge") else _player(state.actor)
        out.append(f"{who} {move}")
        if move in legal_moves(table, state):
            state = step(table, state, move)
    return tuple(out)


def _allowed(table: Table, state: State, moves: tuple[str, ...]) -> tuple[str, ...]:
    """The moves ``table``'s rules allow after all but the last of ``moves``."""
    for move in moves[:-1]:
        state = step(table, state, move)
    return legal_moves(table, state)


def _cat_meow(data: GameData, base: Rules, rulings: Mapping[str, str]) -> Finding:
    """An unchallenged cat claim and a pass lead to the same position."""
    point = POINTS["cunning-folk/cat-meow"]
    setup = _bonus(data, CAT)
    table = Table(setup, 2, base)
    deal = _deal(setup)
    first = start(table, deal)
    look = f"investigate {CELLS[deal.index(CAT)]}"
    claimed = (look, f"claim {CAT}", "accept")
    ends = {
        "claim cat, unchallenged": _replay(table, first, claimed),
        "pass": _replay(table, first, (look, "pass")),
    }
    same = len(set(ends.values())) == 1
    witness = Witness(
        description="The player looks at the cat and either claims it (nobody challenges) "
        "or passes: the two positions are " + ("identical." if same else "different."),
        position=_position(setup, 2, deal),
        moves=_annotated(table, first, claimed),
        results={k: summary(s) for k, s in ends.items()},
    )
    return point_finding(
        point,
        rulings=rulings,
        parted=same,
        witness=witness,
        message="Taking the cat's action changes nothing in the game: an unchallenged cat "
        "claim leaves the same position as a pass, so the claim only invites a challenge."
        if same
        else "The cat's action changed the position.",
    )


def _replay(table: Table, state: State, moves: tuple[str, ...]) -> State:
    for move in moves:
        state = step(table, state, move)
    return state


def _position(setup: Setup, players: int, deal: tuple[str, ...]) -> dict[str, Any]:
    return {
        "setup": setup.name,
        "players": players,
        "deal": dict(zip(CELLS, deal, strict=True)),
    }


def _reading_point(
    point_id: str,
    plan: Plan,
    data: GameData,
    base: Rules,
    rulings: Mapping[str, str],
    budget: Budget,
) -> Finding:
    point = POINTS[point_id]
    setup = plan.setup(data)
    tables = {
        r: Table(setup, plan.players, replace(base, **{plan.field: r})) for r in point.reading_names
    }
    deal = _deal(setup)
    first = start(tables[point.default or ""], deal)
    readings = {
        r: (
            (lambda s, t=t: legal_moves(t, s)),
            (lambda s, m, t=t: step(t, s, m)),
        )
        for r, t in tables.items()
    }
    search = shortest_parting(
        first, readings, observe, budget, max_depth=MAX_DEPTH, allow=plan.allow
    )
    return _parting_finding(point_id, search, tables, setup, plan.players, deal, first, rulings)


def _parting_finding(
    point_id: str,
    search: Search,
    tables: Mapping[str, Table],
    setup: Setup,
    players: int,
    deal: tuple[str, ...],
    first: State,
    rulings: Mapping[str, str],
) -> Finding:
    point = POINTS[point_id]
    if search.found is None:
        return _not_found(point, rulings, search, "The readings did not part")
    moves = search.found.moves
    table = tables[point.default or ""]
    witness = Witness(
        description=f"{len(moves)} moves from a {setup.name} deal for {players} players, "
        "after which the readings part.",
        position=_position(setup, players, deal),
        moves=_annotated(table, first, moves),
        results={
            r: summary(s, _allowed(tables[r], first, moves)) for r, s in search.found.states.items()
        },
    )
    return point_finding(
        point,
        rulings=rulings,
        parted=True,
        witness=witness,
        searched=search.searched,
        message=f"The readings give different results after {len(moves)} moves "
        f"(shortest found by breadth-first search over {search.searched} joint positions).",
    )


def _not_found(point: RulePoint, rulings: Mapping[str, str], search: Search, what: str) -> Finding:
    """A depth-bounded search that found nothing: unfinished, never a clean bill."""
    return point_finding(
        point,
        rulings=rulings,
        parted=False,
        finished=False,
        searched=search.searched,
        message=f"{what} within {MAX_DEPTH} moves from the searched deal; longer games "
        "were not searched, so this is not a clean bill.",
    )


@dataclass(frozen=True)
class Loop:
    """A non-termination point: the moves a cycle may use, and what the cycle shows."""

    allow: Callable[[State, str], bool]
    message: str


LOOPS: dict[str, Loop] = {
    "cunning-folk/endless-passing": Loop(
        lambda state, move: move == "pass" or move.startswith("investigate"),
        "Every player may investigate and pass; after one round the position repeats, "
        "and no rule ends the game or forces a claim.",
    ),
    "cunning-folk/endless-extra-turns": Loop(
        lambda state, move: (
            move in ("claim good-witch", "accept") or move.startswith("investigate")
        ),
        "A player who claims a good witch unchallenged takes another turn in the same "
        "position; nothing limits how often, so one player can keep the turn forever.",
    ),
}


def _loop(
    point_id: str, data: GameData, base: Rules, rulings: Mapping[str, str], budget: Budget
) -> Finding:
    point, loop = POINTS[point_id], LOOPS[point_id]
    table = Table(data.standard, 2, base)
    deal = _deal(data.standard)
    first = start(table, deal)
    search = shortest_cycle(
        first,
        lambda s: legal_moves(table, s),
        lambda s, m: step(table, s, m),
        budget,
        max_depth=MAX_DEPTH,
        allow=loop.allow,
    )
    if search.found is None:
        return _not_found(point, rulings, search, "No cycle back to the opening position")
    moves = search.found.moves
    witness = Witness(
        description=f"{len(moves)} moves that lead back to the opening position.",
        position=_position(data.standard, 2, deal),
        moves=_annotated(table, first, moves),
        results={"repeat": "the position is the opening one again: play can go on forever"},
    )
    return point_finding(
        point,
        rulings=rulings,
        parted=True,
        witness=witness,
        searched=search.searched,
        message=loop.message,
    )


def _pirate_unknown(
    data: GameData, base: Rules, rulings: Mapping[str, str], budget: Budget
) -> Finding:
    """Scoundrels: with the pirate dealt or not, the same public play ends differently."""
    point = POINTS["cunning-folk/pirate-unknown"]
    core = cards_of(data.scoundrel_core)
    fits = [n for n in (3, 2, 4) if len(core) + n * data.kept_per_player == len(CELLS)]
    if not fits or PIRATE not in data.scoundrel_pool:
        return point_finding(
            point,
            rulings=rulings,
            parted=False,
            finished=False,
            message="Not searched: no player count makes a scoundrels village of 9 cards "
            "with the pirate in the pool.",
        )
    players = fits[0]
    added = players * data.kept_per_player
    deals = {
        "pirate-dealt": _sorted((*core, PIRATE, *[VILLAGER] * (added - 1))),
        "no-pirate": _sorted((*core, *[VILLAGER] * added)),
    }
    # One table: the players cannot tell the two villages apart.
    table = Table(Setup("scoundrels", tuple(deals.values())), players, base)
    first = start(table, deals["pirate-dealt"])
    evil = {i for i, r in enumerate(first.village) if r in (EVIL_WITCH, EVIL_ELDER)}

    def allow(state: State, move: str) -> bool:
        word, *args = move.split()
        if word == "claim":
            return args[0] == GOOD_ELDER
        if word == "pick":
            return CELLS.index(args[0]) in evil
        return word in ("investigate", "accept")

    search = shortest_path(
        first,
        lambda s: legal_moves(table, s),
        lambda s, m: step(table, s, m),
        lambda s: s.phase == ELDER and set(s.picked) == evil,
        budget,
        max_depth=MAX_DEPTH + 2,
        allow=allow,
    )
    if search.found is None:
        return _not_found(point, rulings, search, "No elder run that finds every evil card")
    pirate_cell = CELLS[deals["pirate-dealt"].index(PIRATE)]
    moves = (*search.found.moves, "declare", f"reveal {pirate_cell}")
    results = {}
    for name, deal in deals.items():
        state = start(table, deal)
        for move in moves:
            state = step(table, state, move)
        after = []
        while state.phase != OVER:  # the other opponents decline to reveal
            after.append(f"{_player(state.actor)} no-reveal")
            state = step(table, state, "no-reveal")
        results[name] = {**summary(state), "then": after}
    witness = Witness(
        description=f"Scoundrels, {players} players: the good elder has identified both evil "
        "witches and the evil elder. Whether the pirate was dealt is secret, so the elder "
        "cannot tell whether to pick on or declare; the same moves end with different winners.",
        position={
            "setup": "scoundrels",
            "players": players,
            **{name: dict(zip(CELLS, deal, strict=True)) for name, deal in deals.items()},
        },
        moves=_annotated(table, first, moves),
        results=results,
    )
    return point_finding(
        point,
        rulings=rulings,
        parted=True,
        witness=witness,
        searched=search.searched,
        message="Under the scoundrels deal whether the pirate is in the village is hidden "
        "information, like any face-down card: the elder cannot know whether 'reveal the "
        "pirate when he is present' applies, and the declaration rule settles the game (the "
        "same moves end with different winners, as the rules say they should). Not a gap.",
    )


def _sorted(cards: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=ROLES.index))


def _village_size(data: GameData, rulings: Mapping[str, str]) -> Finding:
    point = POINTS["cunning-folk/scoundrels-village-size"]
    core = sum(data.scoundrel_core.values())
    cells = data.columns * data.rows
    sizes = {n: core + data.kept_per_player * n for n in range(2, 5)}
    results = {
        f"{n} players": f"{size} cards for {cells} cells"
        + (
            ""
            if size == cells
            else (": a cell stays empty" if size < cells else ": a card has no cell")
        )
        for n, size in sizes.items()
    }
    bad = [n for n, size in sizes.items() if size != cells]
    witness = Witness(
        description=f"The scoundrels deal: {core} good and evil townsfolk plus "
        f"{data.kept_per_player} card per player, laid out in a {data.columns}x{data.rows} grid.",
        position={"core": core, "kept_per_player": data.kept_per_player, "cells": cells},
        results=results,
    )
    return point_finding(
        point,
        rulings=rulings,
        parted=bool(bad),
        witness=witness if bad else None,
        message=(
            f"With {' or '.join(map(str, bad))} players the scoundrels village does not fill "
            "the grid, and the rules say nothing about the missing or extra card."
            if bad
            else "Every player count fills the grid."
        ),
    )
