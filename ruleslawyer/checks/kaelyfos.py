"""``ruleslawyer check kaelyfos``: search positions on the board for every rule point.

Positions are every placement of up to 2 explorers (on face-up cards), 2
free bloodsuckers (on face-up cards off the Scarab), one trap (on a build
site, 0 or 1 caught) or two empty ones, and up to one free action (an
explorer builds or destroys a trap on their node before the card; the first
explorer's turn), for every behaviour card of the board's deck and every
deal of the nests: only positions a game can reach
(:mod:`ruleslawyer.models.kaelyfos.setup`). They are visited by increasing size
(pieces, counting a caught bloodsucker, then the card's move value), so the first
position where a point's readings part is a smallest witness; the search
stops as soon as every point has one.

Each position is resolved once under the readings in force; a point that
resolution never consulted cannot change the result there, so its other
readings are only tried where it was consulted.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations, combinations_with_replacement
from typing import Any

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.errors import InputError
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
from ruleslawyer.graphs.board import Board, parse_board, problems
from ruleslawyer.graphs.pathing import INF
from ruleslawyer.models.kaelyfos.files import position_document
from ruleslawyer.models.kaelyfos.points import (
    BUILD_ON_BLOODSUCKERS,
    CAUGHT_MOVE,
    DEFAULT_NOTES,
    DESTROYED_BLOODSUCKERS,
    DESTROYED_TOKEN,
    FREE_ON_TRAP,
    MOVE_ORDER,
    NIGHTMARE_LIMIT,
    NIGHTMARE_TURN,
    NOT_MODELLED,
    OUT_OF_TOKENS,
    PHEROMONE_TIE,
    TIMELINE_POINTS,
    TRAP_TIE,
    UNREACHABLE_EXPLORER,
    WHICH_TRAP,
    in_force,
)
from ruleslawyer.models.kaelyfos.resolve import (
    RULE_POINTS,
    Action,
    Outcome,
    Position,
    Trap,
    geometry,
    option_results,
    resolve,
)
from ruleslawyer.models.kaelyfos.setup import (
    bloodsucker_sites,
    deck_cards,
    explorer_sites,
    first_steps,
    nest_deals,
    standing,
    target_sites,
    trap_sites,
)
from ruleslawyer.models.kaelyfos.timeline import Timeline, advance, most_revealed

EXPLORER_NAMES = ("ada", "ben")
CHECK_EVERY = 256


@dataclass
class _Found:
    """What the search knows about one rule point so far."""

    point: RulePoint
    witness: Witness | None = None
    searched: int = 0
    proof: str | None = None  # why no position can part it, when shown without searching

    @property
    def done(self) -> bool:
        return self.witness is not None or self.proof is not None


@dataclass
class _Search:
    board: Board
    rulings: Mapping[str, str]
    board_ref: str
    chosen: dict[str, str] = field(init=False)
    found: dict[str, _Found] = field(init=False)

    def __post_init__(self) -> None:
        self.chosen = in_force(dict(self.rulings))
        self.found = {p.id: _Found(p) for p in RULE_POINTS}

    def visit(self, position: Position) -> None:
        """Resolve one position and record the points whose readings part there."""
        open_points = [f for f in self.found.values() if not f.done]
        for f in open_points:
            f.searched += 1
        open_points = [f for f in open_points if _may_part(f.point.id, position)]
        if not open_points:
            return
        base = resolve(position, self.chosen)
        for f in open_points:
            if f.point.id == WHICH_TRAP:
                # Both readings meet the same options (they differ in who picks): the
                # witness shows each option's result.
                self._choices(f, position, base)
            elif f.point.readings:
                if f.point.id in base.consulted:
                    self._readings(f, position, base)
            elif f.point.id == UNREACHABLE_EXPLORER:
                if UNREACHABLE_EXPLORER in base.reached:
                    f.witness = self._witness(
                        position,
                        "an explorer off the Scarab that no path reaches",
                        {"unreachable explorers left out (ruleslawyer's choice)": base.result},
                    )
            else:
                self._choices(f, position, base)

    def _readings(self, f: _Found, position: Position, base: Outcome) -> None:
        results = {}
        for reading in f.point.reading_names:
            chosen = {**self.chosen, f.point.id: reading}
            outcome = base if reading == self.chosen[f.point.id] else resolve(position, chosen)
            results[reading] = outcome.result
            # a reading that leaves the choice open (trap-tie=open) parts from the others
            # when any of its options does
            for decision in outcome.decisions:
                if decision.point == f.point.id:
                    options = option_results(position, chosen, decision, outcome.result)
                    for label, result in zip(decision.labels, options, strict=True):
                        results[f"{reading} ({label})"] = result
                    break
        if len(set(results.values())) > 1:
            f.witness = self._witness(position, "the readings give different results", results)

    def _choices(self, f: _Found, position: Position, base: Outcome) -> None:
        for decision in base.decisions:
            if decision.point != f.point.id:
                continue
            results = option_results(position, self.chosen, decision, base.result)
            if len(set(results)) > 1:
                f.witness = self._witness(
                    position, decision.description, dict(zip(decision.labels, results, strict=True))
                )
                return

    def _witness(self, position: Position, what: str, results: Mapping[str, Any]) -> Witness:
        return Witness(
            description=f"{what}. {_describe(position)}",
            position=position_document(position, self.board_ref),
            results={k: v.to_json() for k, v in results.items()},
        )


def _describe(position: Position) -> str:
    """The placement in words: who is where, then the card."""
    crew = ", ".join(f"{name} on {node}" for name, node in position.explorers)
    free = ", ".join(f"{n} bloodsucker(s) on {node}" for node, n in position.bloodsuckers)
    traps = ", ".join(f"a trap on {t.node} ({t.caught} caught)" for t in position.traps)
    acts = ", ".join(f"{a.explorer} {a.kind}s a trap" for a in position.actions)
    acts = f"first {acts}" if acts else ""
    placed = "; ".join(p for p in (crew, free, traps, acts) if p) or "nothing placed"
    spawn = ", ".join(position.card.spawn) or "nothing"
    return (
        f"{placed} ({pieces(position)} piece(s)); nests "
        f"{', '.join(f'{c} {n}' for c, n in position.nests)}; "
        f"card: spawn {spawn}, move {position.card.move}"
    )


def check(source: GameSource, rulings: dict[str, str], budget: Budget) -> list[Finding]:
    """One finding per rule point, plus a ``data-error`` for each structural rule broken."""
    board = parse_board(source.document, source.display)
    broken = problems(board)
    if broken:
        errors = [
            data_error(
                "kaelyfos",
                p.check,
                p.title,
                Location(source.display, p.place, _line(source, p.place)),
                f"found {p.found}, expected {p.expected}",
            )
            for p in broken
        ]
        skipped = [not_searched(p, rulings=rulings, errors=errors) for p in RULE_POINTS]
        return errors + skipped
    ref = "kaelyfos" if source.built_in else str(source.path.name)
    search = _Search(board, rulings, ref)
    _prove_quiet(search)
    _prove_reachable(search)
    _search_timelines(search)
    finished = _run(search, budget)
    return [_finding(f, rulings, finished) for f in search.found.values()]


def _may_part(point_id: str, position: Position) -> bool:
    """A necessary condition for ``point_id`` to part readings (or be reached) at ``position``.

    Positions failing it are counted as searched without resolving them.
    """
    scarab = position.board.scarab
    hunted = any(node != scarab for _, node in position.explorers)
    spawns = bool(position.card.spawn) and position.supply > 0
    moving = position.card.move > 0 and bool(position.bloodsuckers or spawns)
    kinds = {a.kind for a in position.actions}
    traps = bool(position.traps) or "build" in kinds
    if point_id in ("kaelyfos/attack-removal", NIGHTMARE_LIMIT, NIGHTMARE_TURN):
        return hunted and bool(position.bloodsuckers or spawns or position.traps)
    if point_id in ("kaelyfos/trap-distance-tie", MOVE_ORDER, TRAP_TIE):
        return moving and traps
    if point_id == WHICH_TRAP:
        nodes = [t.node for t in position.traps]
        return (moving or spawns) and len(set(nodes)) < len(nodes)
    if point_id == "kaelyfos/trapped-attack":
        return hunted and traps
    if point_id == CAUGHT_MOVE:
        return position.card.move > 0 and any(t.caught for t in position.traps)
    if point_id in (BUILD_ON_BLOODSUCKERS, OUT_OF_TOKENS):
        return "build" in kinds
    if point_id in (DESTROYED_BLOODSUCKERS, DESTROYED_TOKEN):
        return "destroy" in kinds
    if point_id == "kaelyfos/spawn-into-trap":
        nests = dict(position.nests)
        return spawns and (
            "build" in kinds
            or any(nests[c] in {t.node for t in position.traps} for c in position.card.spawn)
        )
    if point_id == FREE_ON_TRAP:
        # Free on a trap's node: spawned onto it, a trap built under it, or placed there.
        nests = dict(position.nests)
        trap_nodes = {t.node for t in position.traps}
        onto = spawns and any(nests[c] in trap_nodes for c in position.card.spawn)
        placed = any(n in trap_nodes for n, _ in position.bloodsuckers)
        return position.card.move > 0 and (onto or placed or "build" in kinds)
    if point_id in ("kaelyfos/stop-at-explorer", UNREACHABLE_EXPLORER):
        return moving and hunted
    return moving and (hunted or traps)


def _line(source: GameSource, place: str) -> int | None:
    """The line of ``place``; a whole table (``node``) points at its first entry."""
    return source.line(place) if "." in place or "[" in place else source.line(f"{place}[0]")


def _prove_quiet(search: _Search) -> None:
    """Settle points that this board can never part, without searching."""
    board, geo = search.board, geometry(search.board)
    proofs = {}
    scarab_open = search.chosen["kaelyfos/scarab-passable"] == "yes"
    open_exits = geo.tables[
        search.chosen["kaelyfos/scarab-passable"], search.chosen["kaelyfos/unrevealed-passable"]
    ].neighbours
    if all(
        len({geo.dots[here, n] for n in exits}) == len(exits)
        for here, exits in open_exits.items()
        if scarab_open or here != board.scarab  # a closed Scarab never holds a bloodsucker
    ):
        proofs[PHEROMONE_TIE] = (
            "No node has two exits open to bloodsuckers with the same dots (under the readings "
            "in force), so dots break every tie."
        )
    elif not _equal_dots_tie_possible(search):
        proofs[PHEROMONE_TIE] = (
            "No node a bloodsucker may reach has two exits with the same dots that each lead one "
            "step nearer to "
            "explorer or trap sites equally far (under the readings in force), so dots "
            "break every tie."
        )
    if not _trap_tie_possible(search):
        proofs[TRAP_TIE] = (
            "No node a bloodsucker may reach has two trap sites equally far that its exits lead "
            "toward differently "
            "(under the readings in force), so two traps never tie in different directions."
        )
    if not board.doppelganger_trap_tokens:
        proofs[OUT_OF_TOKENS] = (
            "The board has no doppelganger trap tokens, so with the bloodsucker trap tokens "
            "spent no trap is built under either reading."
        )
    if not geo.scarab_matters or _scarab_never_a_step(board):
        proofs["kaelyfos/scarab-passable"] = (
            "The Scarab lies on no shortest path between two other nodes, so no bloodsucker "
            "would step onto it even where it may."
        )
    if not geo.hidden_matters:
        proofs["kaelyfos/unrevealed-passable"] = "No step on this board depends on face-down cards."
    if not any(board.node(n).build_sites for n in board.node_ids if n != board.scarab):
        for point_id in (
            "kaelyfos/trap-distance-tie",
            "kaelyfos/trapped-attack",
            MOVE_ORDER,
            TRAP_TIE,
            CAUGHT_MOVE,
            BUILD_ON_BLOODSUCKERS,
            FREE_ON_TRAP,
            DESTROYED_BLOODSUCKERS,
            DESTROYED_TOKEN,
            OUT_OF_TOKENS,
        ):
            proofs[point_id] = "No node off the Scarab has a build site, so no trap is ever built."
    if not any(board.node(n).build_sites for n in board.nest_sites):
        proofs["kaelyfos/spawn-into-trap"] = "No nest site has a build site for a trap."
    if not any(board.node(n).build_sites > 1 for n in trap_sites(board)) or (
        board.trap_tokens + board.doppelganger_trap_tokens < 2
    ):
        proofs[WHICH_TRAP] = (
            "No face-up node has two build sites (or the board has fewer than two trap "
            "tokens), so no node ever holds two traps."
        )
    proofs.update(NOT_MODELLED)  # out of the model's reach: nothing to search
    for point_id, proof in proofs.items():
        search.found[point_id].proof = proof


def _equal_dots_tie_possible(search: _Search) -> bool:
    """Whether some node a bloodsucker may stand on has two exits with the same dots, each
    one step nearer to one of some targets (explorer or trap sites) equally far away.

    A necessary condition for a pheromone tie under the readings in force, whatever the
    pieces: a bloodsucker heads for its nearest explorers (or traps), all equally far, and
    picks among the exits one step nearer to any of them.
    """
    geo, sites = geometry(search.board), target_sites(search.board)
    for here, table in standing(search.board, search.chosen).items():
        steps = first_steps(table, here, sites)
        for d in {table.dist[here][t] for t in steps}:
            toward = set().union(*(s for t, s in steps.items() if table.dist[here][t] == d))
            dots = [geo.dots[here, n] for n in toward]
            if len(set(dots)) < len(dots):
                return True
    return False


def _trap_tie_possible(search: _Search) -> bool:
    """Whether some node a bloodsucker may stand on has two trap sites equally far whose
    exits one step nearer differ: a necessary condition for a trap tie under the readings
    in force."""
    board, sites = search.board, trap_sites(search.board)
    if len(sites) < 2 or board.trap_tokens + board.doppelganger_trap_tokens < 2:
        return False
    for here, table in standing(search.board, search.chosen).items():
        steps = first_steps(table, here, sites)
        if any(
            table.dist[here][a] == table.dist[here][b] and steps[a] != steps[b]
            for a, b in combinations(steps, 2)
        ):
            return True
    return False


def _scarab_never_a_step(board: Board) -> bool:
    """Whether, with the Scarab open, stepping onto it never brings a bloodsucker nearer a node."""
    geo, scarab = geometry(board), board.scarab
    others = [n for n in board.node_ids if n != scarab]
    for hidden in ("yes", "no"):
        table = geo.tables["yes", hidden]
        for u in table.neighbours[scarab]:
            row = table.dist[scarab]
            if any(row[t] + 1 == table.dist[u][t] < INF for t in others if t != u):
                return False
    return True


def timelines(board: Board) -> Iterator[Timeline]:
    """Every timeline to search, smallest first: by advance, then revealed cards, then marker.

    The marker starts on any space up to the last trigger; the deck is the board's
    behaviour cards by name, the first ``k`` of them revealed already, where the marker
    can have revealed ``k`` (one card per trigger on or before it).
    """
    names = tuple(sorted(b.name for b in board.behaviors))
    last = max(board.triggers, default=0)
    for step in range(1, last + 2):
        for k in range(len(names) + 1):
            for marker in range(last + 1):
                if k > most_revealed(marker, board.triggers):
                    continue
                yield Timeline(marker, step, names[k:], names[:k], board.triggers)


def timeline_document(timeline: Timeline, board_ref: str) -> dict[str, Any]:
    """A timeline as a timeline file's document (the triggers come from the board)."""
    doc = timeline.to_json()
    del doc["triggers"]
    return {"board": board_ref, **doc}


def _search_timelines(search: _Search) -> None:
    """Settle the timeline points: the first timeline where their readings part, or none."""
    todo = [search.found[p] for p in TIMELINE_POINTS if not search.found[p].done]
    for timeline in timelines(search.board):
        if not todo:
            return
        base = advance(timeline, search.chosen)
        for f in list(todo):
            f.searched += 1
            results = {
                r: base
                if r == search.chosen[f.point.id]
                else advance(timeline, {**search.chosen, f.point.id: r})
                for r in f.point.reading_names
            }
            if len(set(results.values())) > 1:
                f.witness = Witness(
                    description=(
                        f"the readings give different results. Time marker on "
                        f"{timeline.marker}, moving {timeline.advance}; triggers on "
                        f"{', '.join(map(str, timeline.triggers)) or 'no space'}; deck "
                        f"{', '.join(timeline.deck) or 'empty'}; revealed before: "
                        f"{', '.join(timeline.revealed) or 'none'}"
                    ),
                    position=timeline_document(timeline, search.board_ref),
                    results={k: v.to_json() for k, v in results.items()},
                )
                todo.remove(f)
    for f in todo:
        f.proof = (
            f"On this board the readings never part on any of the {f.searched} timelines "
            "searched (every marker up to the last trigger, every advance up to one past it, "
            "every split of the deck into revealed and left)."
        )


def _prove_reachable(search: _Search) -> None:
    """Settle the unreachable-explorer gap without searching when no node is cut off."""
    geo = geometry(search.board)
    table = geo.tables[
        search.chosen["kaelyfos/scarab-passable"], search.chosen["kaelyfos/unrevealed-passable"]
    ]
    targets = [n for n in search.board.node_ids if n != geo.scarab]
    if all(table.dist[u][v] < INF for u in search.board.node_ids for v in targets):
        search.found[UNREACHABLE_EXPLORER].proof = (
            "Every node off the Scarab can be reached from every node under the readings in "
            "force, so no position reaches this gap."
        )


def _run(search: _Search, budget: Budget) -> bool:
    """Visit positions smallest first until every point is settled; False when cut by budget."""
    progress = Progress("kaelyfos positions")
    visited = 0
    try:
        for position in positions(search.board):
            if all(f.done for f in search.found.values()):
                return True
            search.visit(position)
            visited += 1
            if visited % CHECK_EVERY == 0:
                progress.update(visited)
                if budget.spent(visited):
                    return False
    finally:
        progress.close()
    return True


def positions(board: Board) -> Iterator[Position]:
    """Every search position, smallest first: by pieces, then card, then nests, then placement.

    Only positions a game can reach (see :mod:`ruleslawyer.models.kaelyfos.setup`): the
    deck's cards (by move value, then spawns), every deal of the nests, explorers on
    face-up cards, free bloodsuckers on face-up cards off the Scarab and off traps, traps
    on build sites of face-up cards.
    """
    nodes = tuple(sorted(board.node_ids))
    explorers = {
        k: [
            tuple(zip(EXPLORER_NAMES, c, strict=False))
            for c in combinations_with_replacement(explorer_sites(board), k)
        ]
        for k in range(3)
    }
    bloodsuckers = {
        k: [_counts(c, nodes) for c in combinations_with_replacement(bloodsucker_sites(board), k)]
        for k in range(3)
    }
    sites = trap_sites(board) if board.trap_tokens else ()
    pairs = list(combinations(sites, 2)) if board.trap_tokens > 1 else []
    doubles = [n for n in sites if board.node(n).build_sites > 1] if board.trap_tokens > 1 else []
    traps = {
        0: [()],
        1: [(Trap(n, 0),) for n in sites],
        2: [(Trap(n, 1),) for n in sites] + [(Trap(a, 0), Trap(b, 0)) for a, b in pairs],
    }
    if doubles:
        # Two traps on one node (a node with two build sites): the smallest pair of them
        # that differ holds 1 and 0.
        traps[2] += [(Trap(n, 0), Trap(n, 0)) for n in doubles]
        traps[3] = [(Trap(n, 0), Trap(n, 1)) for n in doubles]
    cards = sorted(deck_cards(board), key=lambda c: (c.move, c.spawn))
    deals = nest_deals(board)
    largest = max(explorers) + max(bloodsuckers) + max(traps) + 1
    for size in range(largest + 1):
        for card in cards:
            for nests in deals:
                for e_size, e_list in explorers.items():
                    for t_size, t_list in traps.items():
                        for a_size, placed in _placements(size - e_size - t_size, bloodsuckers):
                            for trap in t_list:
                                if any(t.node == n for t in trap for n, _ in placed):
                                    continue  # no free bloodsucker shares a trap's node
                                on_board = sum(n for _, n in placed) + sum(t.caught for t in trap)
                                if on_board > board.supply:
                                    continue
                                for e in e_list:
                                    for acts in _actions(board, e, trap, a_size):
                                        yield Position(
                                            board=board,
                                            nests=nests,
                                            supply=board.supply - on_board,
                                            card=card,
                                            explorers=e,
                                            bloodsuckers=placed,
                                            traps=trap,
                                            turn=e[0][0] if e else None,
                                            actions=acts,
                                        )


def _placements(
    left: int, bloodsuckers: Mapping[int, list[tuple[tuple[str, int], ...]]]
) -> Iterator[tuple[int, tuple[tuple[str, int], ...]]]:
    """(actions, free bloodsuckers) making up ``left`` pieces: no action or one."""
    for a_size in (0, 1):
        for placed in bloodsuckers.get(left - a_size, []):
            yield a_size, placed


def _actions(
    board: Board, crew: tuple[tuple[str, str], ...], traps: tuple[Trap, ...], count: int
) -> Iterator[tuple[Action, ...]]:
    """No action (``count`` 0), or each free action one explorer can take on their node."""
    if count == 0:
        yield ()
        return
    sites = set(trap_sites(board))
    for name, node in crew:
        if any(t.node == node for t in traps):
            yield (Action("destroy", name),)
        elif node in sites:
            yield (Action("build", name),)


def _counts(chosen: tuple[str, ...], order: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    return tuple((n, chosen.count(n)) for n in order if n in chosen)


def pieces(position: Position) -> int:
    """Pieces on the table: explorers, free bloodsuckers, traps and their catches, actions."""
    return (
        len(position.explorers)
        + sum(n for _, n in position.bloodsuckers)
        + sum(1 + t.caught for t in position.traps)
        + len(position.actions)
    )


def _finding(f: _Found, rulings: Mapping[str, str], finished: bool) -> Finding:
    if f.point.id in NOT_MODELLED:
        return not_modelled(f.point, rulings, NOT_MODELLED[f.point.id])
    found = _plain_finding(f, rulings, finished)
    note = DEFAULT_NOTES.get(f.point.id)
    return replace(found, message=f"{found.message} {note}") if note else found


def _plain_finding(f: _Found, rulings: Mapping[str, str], finished: bool) -> Finding:
    point = f.point
    if f.witness is not None:
        if point.id == WHICH_TRAP:
            message = (
                f"Reached after {f.searched} position(s): the rules do not say which of the "
                "node's traps takes the bloodsucker, and the options give different results "
                "(each shown); the readings say who picks: "
                + "; ".join(f"{r.name}: {r.summary}" for r in point.readings)
                + "."
            )
        elif point.readings:
            message = (
                f"The readings part on this board after {f.searched} position(s): "
                f"{', '.join(point.reading_names)} give different results."
            )
        else:
            message = (
                f"Reached after {f.searched} position(s): the rules leave the result open "
                "(each option's result is shown)."
            )
        return point_finding(
            point,
            rulings=rulings,
            parted=True,
            message=message,
            witness=f.witness,
            searched=f.searched,
        )
    if f.proof is not None:
        return point_finding(point, rulings=rulings, parted=False, message=f.proof, searched=0)
    if finished:
        what = "the readings never part" if point.readings else "the situation never arises"
        message = f"On this board {what} in all {f.searched} positions searched."
    else:
        message = (
            f"Search cut by its budget after {f.searched} position(s) without a witness: "
            "not shown harmless."
        )
    return point_finding(
        point,
        rulings=rulings,
        parted=False,
        message=message,
        finished=finished,
        searched=f.searched,
    )


def replay(
    source: GameSource, rulings: Mapping[str, str], position: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The step result of a witness ``position`` on ``source``'s board (for ``ruleslawyer diff``).

    None when the position does not fit the board (a node it names is gone,
    or the board breaks a structural rule).
    """
    from ruleslawyer.models.kaelyfos.files import BUILT_IN, parse_position
    from ruleslawyer.models.kaelyfos.resolve import step

    board_ref = BUILT_IN if source.built_in else str(source.path.resolve())
    try:
        parsed = parse_position({**position, "board": board_ref}, "witness", source.path.parent)
    except InputError:
        return None
    return step(parsed.position, rulings).to_json()["result"]
