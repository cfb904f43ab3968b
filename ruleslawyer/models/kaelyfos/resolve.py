"""Unsettled: Kaelyfos: resolve one bloodsucker behaviour card on a position.

``step(position, rulings)`` is pure: spawn, move, attack, "In that order."
(Bloodsuckers). Every rule below cites the sentence it follows. Where the
rulebook leaves a choice open (pheromone ties, the order bloodsuckers move in)
or gives it to the crew (who takes a distress), :func:`step` lists each option
with its result in ``choices`` instead of picking silently; ``result`` is the
first option's.

Internally :func:`resolve` runs the card under a full set of readings and
records which rule points it consulted: a point it never consulted cannot
change this result, which is what lets the checks skip most alternatives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.models.kaelyfos.move import geometry, move_all
from ruleslawyer.models.kaelyfos.points import (
    ATTACK_REMOVAL,
    BUILD_ON_BLOODSUCKERS,
    DESTROYED_BLOODSUCKERS,
    DESTROYED_TOKEN,
    NIGHTMARE_LIMIT,
    NIGHTMARE_TURN,
    OUT_OF_TOKENS,
    RULE_POINTS,
    SPAWN_INTO_TRAP,
    TRAPPED_ATTACK,
    in_force,
)
from ruleslawyer.models.kaelyfos.state import (
    Action,
    Card,
    Decision,
    Position,
    Readings,
    Result,
    Table,
    Trap,
    enter_trap,
    kinds,
    pick,
    trap_of,
)

__all__ = [
    "RULE_POINTS",
    "Action",
    "Card",
    "Decision",
    "Position",
    "Result",
    "Step",
    "Trap",
    "free_actions",
    "geometry",
    "resolve",
    "step",
]


@dataclass(frozen=True)
class Outcome:
    result: Result
    decisions: tuple[Decision, ...]
    consulted: frozenset[str]
    reached: frozenset[str]


@dataclass(frozen=True)
class Step:
    """What :func:`step` returns: the JSON of ``ruleslawyer kaelyfos step``."""

    rulings: Mapping[str, str]
    result: Result
    divergences: tuple[tuple[str, str, Result], ...]
    choices: tuple[tuple[Decision, tuple[Result, ...]], ...]
    # False when the budget ended the run before every other reading and every option
    # was resolved: ``result`` is still exact, ``divergences`` and ``choices`` are partial.
    finished: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "finished": self.finished,
            "rulings": dict(self.rulings),
            "result": self.result.to_json(),
            "divergences": [
                {"point": p, "reading": r, "result": res.to_json()}
                for p, r, res in self.divergences
            ],
            "choices": [
                {
                    "point": d.point,
                    "decided_by": "crew" if d.crew else "nobody: the rules are silent",
                    "description": d.description,
                    "options": [
                        {"option": label, "result": res.to_json()}
                        for label, res in zip(d.labels, results, strict=True)
                    ],
                }
                for d, results in self.choices
            ],
        }


def step(
    position: Position, rulings: Mapping[str, str] | None = None, budget: Budget | None = None
) -> Step:
    """Resolve ``position.card``: the result, the open points that would change it, the choices.

    ``budget`` is checked between resolutions (each is bounded by the walk cap): when it
    runs out, the result under the readings in force is kept and the rest is cut short.
    """
    rulings = dict(rulings or {})
    chosen = in_force(rulings)
    base = resolve(position, chosen)
    budget = budget or Budget()
    progress = Progress("kaelyfos step: resolutions")
    done = 0

    def spent() -> bool:
        nonlocal done
        done += 1
        progress.update(done)
        return budget.spent()

    divergences = []
    alternatives = [
        (point.id, reading)
        for point in RULE_POINTS
        # a point never consulted cannot change the result
        if point.readings and point.id not in rulings and point.id in base.consulted
        for reading in point.reading_names
        if reading != chosen[point.id]
    ]
    choices: list[tuple[Decision, tuple[Result, ...]]] = []
    try:
        for point_id, reading in alternatives:
            if spent():
                return Step(chosen, base.result, tuple(divergences), (), finished=False)
            other = resolve(position, {**chosen, point_id: reading}).result
            if other != base.result:
                divergences.append((point_id, reading, other))
        for decision in base.decisions:
            if spent():
                break
            choices.append((decision, option_results(position, chosen, decision, base.result)))
    finally:
        progress.close()
    finished = len(choices) == len(base.decisions)
    return Step(chosen, base.result, tuple(divergences), tuple(choices), finished)


def option_results(
    position: Position, chosen: Mapping[str, str], decision: Decision, first: Result
) -> tuple[Result, ...]:
    """The result of each option of ``decision`` (every other decision at its first option)."""
    others = range(1, len(decision.labels))
    return (first, *(resolve(position, chosen, {decision.key: i}).result for i in others))


def resolve(
    position: Position, chosen: Mapping[str, str], picks: Mapping[str, int] | None = None
) -> Outcome:
    """Resolve the card under the readings ``chosen``; ``picks`` selects options by decision key."""
    readings = Readings(chosen)
    working = Working.of(position)
    for phase in PHASES:
        phase(working, position, readings, picks or {})
    return Outcome(
        working.result(),
        tuple(working.decisions),
        frozenset(readings.consulted),
        frozenset(readings.reached),
    )


@dataclass
class Working:
    """A card part-way through :func:`resolve`: the table, the decisions met, the attack's
    distress and who has a waking nightmare (once those phases have run)."""

    table: Table
    decisions: list[Decision]
    distress: dict[str, int] | None = None
    nightmares: tuple[str, ...] = ()

    @classmethod
    def of(cls, position: Position) -> Working:
        return cls(Table.of(position), [])

    def copy(self) -> Working:
        distress = dict(self.distress) if self.distress is not None else None
        return Working(self.table.copy(), list(self.decisions), distress, self.nightmares)

    def result(self) -> Result:
        return self.table.result(self.distress or {}, self.nightmares)


Phase = Callable[[Working, Position, Readings, Mapping[str, int]], None]


def _free_actions_phase(w: Working, p: Position, r: Readings, picks: Mapping[str, int]) -> None:
    free_actions(w.table, p, r, picks, w.decisions)


def _spawn_phase(w: Working, p: Position, r: Readings, picks: Mapping[str, int]) -> None:
    _spawn(w.table, p, r, picks, w.decisions)


def _move_phase(w: Working, p: Position, r: Readings, picks: Mapping[str, int]) -> None:
    move_all(w.table, p, r, picks, w.decisions)


def _attack_phase(w: Working, p: Position, r: Readings, picks: Mapping[str, int]) -> None:
    w.distress = _attack(w.table, p, r, picks, w.decisions)


def _nightmare_phase(w: Working, p: Position, r: Readings, picks: Mapping[str, int]) -> None:
    w.nightmares = _nightmares(p, w.distress or {}, r, picks, w.decisions)


# Bloodsuckers: "Bloodsuckers will spawn on nests, move toward explorers, and then attack
# any explorers on their node. In that order." (the free actions come first; each phase
# reads only the working copy and the readings, so it can be run again on its own)
PHASES: tuple[Phase, ...] = (
    _free_actions_phase,
    _spawn_phase,
    _move_phase,
    _attack_phase,
    _nightmare_phase,
)


def free_actions(
    table: Table,
    position: Position,
    readings: Readings,
    picks: Mapping[str, int] | None = None,
    decisions: list[Decision] | None = None,
) -> None:
    """The position's free actions, in order, before the card (each on its explorer's node).

    A destroy without a target on a node holding traps of different kinds is the crew's
    choice (a decision in ``decisions``, picked by ``picks``).
    """
    where = dict(position.explorers)
    for i, action in enumerate(position.actions):
        node = where[action.explorer]
        if action.kind == "build":
            _build(table, node, readings)
            continue
        trap = _target(table, node, action, f"destroy:{i}", picks or {}, decisions)
        if trap is not None:
            _destroy(table, trap, readings)


def _build(table: Table, node: str, readings: Readings) -> None:
    # Traps: "If you are on a node with an empty build site, you may build a trap as a free
    # action by spending 1 material and placing an available trap token onto that build site."
    if sum(t[0] == node for t in table.traps) >= table.board.node(node).build_sites:
        return  # no empty build site left (an earlier action filled it)
    if table.tokens:
        table.tokens -= 1
        trap = table.add_trap(node, False)
    elif table.doppelganger_tokens and readings(OUT_OF_TOKENS) == "doppelganger-token":
        table.doppelganger_tokens -= 1
        trap = table.add_trap(node, True)
    else:
        return  # no available trap token: no trap
    if table.free.get(node) and readings(BUILD_ON_BLOODSUCKERS) == "caught":
        # Traps: "If a bloodsucker moves onto a node with a trap, it is instantly trapped";
        # a second catch destroys the trap, and any left stay free.
        while table.free[node] and trap in table.traps:
            table.free[node] -= 1
            table.catch(trap)


def _target(
    table: Table,
    node: str,
    action: Action,
    key: str,
    picks: Mapping[str, int],
    decisions: list[Decision] | None,
) -> list[Any] | None:
    """The trap a destroy takes: its target, the node's one kind of trap, or the crew's pick.

    FAQ: "You may destroy a trap on your node": any one of them, the crew's choice. None
    when no such trap is left (an earlier action destroyed it).
    """
    options = kinds(table.traps_at(node))
    if action.target is not None:
        wanted = (action.target.caught, action.target.doppelganger)
        return next((t for t in options if (t[1], t[2]) == wanted), None)
    if len(options) > 1 and decisions is not None:
        decisions.append(
            Decision(
                key,
                None,
                f"which trap {action.explorer} destroys on {node}",
                tuple(trap_of(t).words() for t in options),
                crew=True,
            )
        )
    return options[pick(picks, key, len(options))] if options else None


def _destroy(table: Table, trap: list[Any], readings: Readings) -> None:
    # FAQ: "You may destroy a trap on your node (and any bloodsuckers on it) as a free
    # action." Traps (a trap destroyed by its second catch): "Return it and the
    # bloodsuckers to the supply."
    table.remove_trap(trap, token_back=readings(DESTROYED_TOKEN) == "available")
    if trap[1]:
        if readings(DESTROYED_BLOODSUCKERS) == "supply":
            table.supply += trap[1]
        else:
            table.removed += trap[1]


def _nightmares(
    position: Position,
    distress: Mapping[str, int],
    readings: Readings,
    picks: Mapping[str, int],
    decisions: list[Decision],
) -> tuple[str, ...]:
    """Who experiences a waking nightmare: one entry per nightmare, sorted by name.

    Waking Nightmares: "When you gain distress, it will instruct you to draw a waking
    nightmare card." FAQ: "You can only experience 1 waking nightmare per turn, even if
    attacked multiple times."
    """
    hit = sorted(e for e, n in distress.items() if n > 0)
    limited = hit
    others_hit = position.turn is not None and any(e != position.turn for e in hit)
    if others_hit and readings(NIGHTMARE_TURN) == "own-turn":
        limited = [e for e in hit if e == position.turn]
    out = [e for e in hit if e not in limited for _ in range(distress[e])]
    had = set(position.had_nightmare)
    eligible = [e for e in limited if e not in had]
    crew_matters = bool(limited) and (len(limited) > 1 or bool(had - set(limited)))
    if crew_matters and readings(NIGHTMARE_LIMIT) == "per-crew":
        if had:
            eligible = []
        elif len(eligible) > 1:
            decisions.append(
                Decision(
                    "nightmare",
                    NIGHTMARE_LIMIT,
                    f"one waking nightmare for the crew: {', '.join(eligible)} gained distress",
                    tuple(eligible),
                    crew=True,
                )
            )
            eligible = [eligible[pick(picks, "nightmare", len(eligible))]]
    return tuple(sorted(out + eligible))


def _spawn(
    table: Table,
    position: Position,
    readings: Readings,
    picks: Mapping[str, int],
    decisions: list[Decision],
) -> None:
    nests = dict(position.nests)
    # Spawn: "Place a bloodsucker (black marker) on the nests indicated, in the order shown."
    for i, letter in enumerate(position.card.spawn):
        # "If a bloodsucker would spawn and there are no black markers available, it doesn't spawn."
        if table.supply == 0:
            continue
        table.supply -= 1
        node = nests[letter]
        if table.traps_at(node) and readings(SPAWN_INTO_TRAP) == "caught":
            who = f"the bloodsucker spawned on nest {letter} (spawn {i + 1})"
            enter_trap(table, node, f"catch:spawn{i + 1}", who, readings, picks, decisions)
        else:
            table.free[node] = table.free.get(node, 0) + 1


# -- attack -------------------------------------------------------------------------------


def _attack(
    table: Table,
    position: Position,
    readings: Readings,
    picks: Mapping[str, int],
    decisions: list[Decision],
) -> dict[str, int]:
    board = position.board
    distress = {name: 0 for name, _ in position.explorers}
    for node in sorted(board.node_ids):  # by id: the board file's order never shows
        # FAQ: bloodsuckers "completely ignore the Scarab and any explorers on it".
        here = sorted(
            name for name, at in position.explorers if at == node and node != board.scarab
        )
        if not here:
            continue
        attackers = table.free.get(node, 0)
        trapped = [t for t in table.traps if t[0] == node and t[1] > 0]
        # FAQ: "Bloodsuckers caught in traps count as "bloodsuckers" where effects are concerned."
        if trapped and readings(TRAPPED_ATTACK) == "yes":
            for t in trapped:
                attackers += t[1]
                t[1] = 0
        if not attackers:
            continue
        table.free[node] = 0
        # Attack: "... and is returned to the supply." vs the example card: "... and is then
        # removed from play."
        if readings(ATTACK_REMOVAL) == "supply":
            table.supply += attackers
        else:
            table.removed += attackers
        # "Each bloodsucker gives a distress to an explorer on their node ... If there are
        # multiple explorers, the explorers choose who takes the distress."
        shares = list(_shares(attackers, len(here)))
        if len(here) > 1:
            decisions.append(
                Decision(
                    f"distress:{node}",
                    None,
                    f"{attackers} distress on {node} among {', '.join(here)}",
                    tuple(
                        ", ".join(f"{e} {n}" for e, n in zip(here, s, strict=True)) for s in shares
                    ),
                    crew=True,
                )
            )
        for name, n in zip(here, shares[pick(picks, f"distress:{node}", len(shares))], strict=True):
            distress[name] += n
    return distress


def _shares(total: int, people: int) -> Iterator[tuple[int, ...]]:
    """Every way to split ``total`` among ``people``, the first person's largest share first."""
    if people == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _shares(total - first, people - 1):
            yield (first, *rest)
