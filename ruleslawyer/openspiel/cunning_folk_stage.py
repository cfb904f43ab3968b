"""Cunning Folk's claim stage, as ``cunning-folk equilibrium`` builds it, written out as an
OpenSpiel extensive-form game (Gambit ``.efg`` text, loaded by ``pyspiel.load_efg_game``),
so OpenSpiel's CFR, MCCFR and ``nash_conv`` run on exactly the stage the project solves.

Nothing here knows a rule: the trees are the already-built stages of
:mod:`~ruleslawyer.solvers.cunning_folk.equilibrium` (two players) and
:mod:`~ruleslawyer.solvers.cunning_folk.cfr` (three or four), their information states,
actions and payoffs.

Each player weighs the chance outcomes by their own worlds, so the stage has no single
chance distribution. The tree therefore draws its chance outcomes from one distribution
``p`` (positive wherever any player gives weight) and scales each player's payoff at a
terminal by their own chance of it over ``p``, times the perspective's chance of the
player's information state: each player's counterfactual values are then the project's
own (each over their own worlds), scaled at each information state by the perspective's
chance of that state. OpenSpiel's ``nash_conv`` of a profile is then the NashConv the
project prints (three or four players: the sum over players of the best-response gain at
each information state, weighted by the perspective's chance of it); with two players an
exact equilibrium has NashConv 0 in both. Where the perspective's chance of a player's
state is the player's own, the expected returns are the project's values. A state the
perspective gives no chance (a card his worlds rule out) has payoff 0 for its player in
the tree, as the project's NashConv gives it no weight: OpenSpiel's CFR does not learn
the play there, which matters only where another player weighs that state.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy as policy_lib

from ruleslawyer.models.cunning_folk.log import parse_log
from ruleslawyer.models.cunning_folk.village import CELLS
from ruleslawyer.solvers.cunning_folk.advise import pending_claim
from ruleslawyer.solvers.cunning_folk.cfr import ACTIONS, MultiStage, Profile, build_multi_stage
from ruleslawyer.solvers.cunning_folk.equilibrium import (
    PASS,
    Equilibrium,
    StageGame,
    build_stage,
    claimant_of,
    stage_log,
)
from ruleslawyer.solvers.cunning_folk.goes_on import continuation

ANSWERS = ("accept", "challenge")


def stage_of(
    document: dict[str, Any], source: str, goes_on: continuation.Table | None = None
) -> StageGame | MultiStage:
    """The stage ``cunning-folk equilibrium`` solves for a log with a pending claim: two
    players, the claimant choosing her cell; three or four, the claim's cell."""
    log = parse_log(document, source)
    claim = pending_claim(document, log)
    claimant = claimant_of(log, claim)
    base = stage_log(log, claim)
    goes_on = goes_on or continuation.shipped()
    if sum(m < 2 for m in log.marks_now()) == 2:
        return build_stage(base, claimant, tuple(range(len(CELLS))), goes_on)
    if claim is None:
        raise ValueError(f"{source}: three or four players need a pending claim")
    return build_multi_stage(base, claimant, claim.cell, goes_on)


def _num(x: Any) -> str:
    """A payoff or probability as .efg text (fractions exact, floats to every digit)."""
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)
    return repr(float(x))


class _Writer:
    """The .efg lines, with a fresh outcome number per terminal and the information-set
    numbers per player, keyed by the set's name."""

    def __init__(self, players: tuple[str, ...], title: str) -> None:
        names = " ".join(f'"{p}"' for p in players)
        self.lines = [f'EFG 2 R "{title}" {{ {names} }}', '""', ""]
        self.outcomes = 0
        self.chances = 0
        self.sets: dict[tuple[int, str], int] = {}

    def chance(self, depth: int, branches: list[tuple[str, Any]]) -> None:
        self.chances += 1
        body = " ".join(f'"{name}" {_num(p)}' for name, p in branches)
        self.lines.append(f'{"  " * depth}c "" {self.chances} "" {{ {body} }} 0')

    def move(self, depth: int, player: int, name: str, actions: tuple[str, ...]) -> None:
        number = self.sets.setdefault((player, name), 1 + sum(p == player for p, _ in self.sets))
        body = " ".join(f'"{a}"' for a in actions)
        self.lines.append(f'{"  " * depth}p "" {player + 1} {number} "{name}" {{ {body} }} 0')

    def end(self, depth: int, payoffs: Any) -> None:
        self.outcomes += 1
        body = " ".join(_num(v) for v in payoffs)
        self.lines.append(f'{"  " * depth}t "" {self.outcomes} "" {{ {body} }}')

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


# --- two players (equilibrium.StageGame) ---------------------------------------------------


def two_player_efg(game: StageGame) -> str:
    """The two-player stage: chance draws her information state (the perspective's
    chance), she chooses a cell, chance draws the card (uniformly; the payoffs carry each
    player's own chance of it), she passes or claims, he challenges or accepts a claim.
    Player 1 is the claimant, player 2 the challenger."""
    out = _Writer((game.claimant, game.challenger), "Cunning Folk claim stage")
    out.chance(0, [(f"class {k}", p) for k, p in enumerate(game.prior)])
    for k in range(len(game.classes)):
        out.move(1, 0, f"class {k}", tuple(CELLS[c] for c in game.cells))
        for c in game.cells:
            infos = [game.infos[i] for i in game.at(k, c)]
            n = len(infos)
            out.chance(2, [(info.card, Fraction(1, n)) for info in infos])
            for info in infos:
                out.move(3, 0, f"class {k} {CELLS[c]} {info.card}", info.actions)
                for a, action in enumerate(info.actions):
                    her = [h * info.belief * n for h in info.hers[a]]
                    his = [m * info.chance * n for m in info.mine[a]]
                    if action == PASS:
                        out.end(4, (her[1], his[1]))
                        continue
                    out.move(4, 1, f"{CELLS[c]} {action}", ANSWERS)
                    out.end(5, (her[1], his[1]))
                    out.end(5, (her[0], his[0]))
    return out.text()


def two_player_policy(game: StageGame, eq: Equilibrium, efg: pyspiel.Game) -> Any:
    """The project's equilibrium as an OpenSpiel tabular policy on :func:`two_player_efg`."""
    table = empty_policy(efg)
    for k in range(len(game.classes)):
        _set(table, f"class {k}", {CELLS[c]: eq.cell_mix[k][j] for j, c in enumerate(game.cells)})
    for i, info in enumerate(game.infos):
        mix = dict(zip(info.actions, eq.claim_mix[i], strict=True))
        _set(table, f"class {info.cls} {CELLS[info.cell]} {info.card}", mix)
    for (c, action), y in eq.challenge.items():
        _set(table, f"{CELLS[c]} {action}", {"accept": 1 - y, "challenge": y})
    return table


# --- three or four players (cfr.MultiStage) ------------------------------------------------


def _scales(game: MultiStage) -> np.ndarray:
    """Per player and outcome: the perspective's chance of the player's information state
    there (her type; an answerer's class)."""
    out = np.zeros((len(game.players), len(game.kind)))
    mass = np.zeros(len(game.types))
    np.add.at(mass, game.kind, game.prior)
    out[0] = mass[game.kind]
    for j in range(game.answerers):
        mass = np.zeros(len(game.classes[j]))
        np.add.at(mass, game.cls[j], game.prior)
        out[j + 1] = mass[game.cls[j]]
    return out


def multi_efg(game: MultiStage) -> str:
    """The three- or four-player stage: chance draws the outcome (uniformly; the payoffs
    carry each player's own chance of it), the claimant passes or claims from her type,
    each answerer in turn accepts or challenges a claim from their class, the claim and the
    earlier answers (under first-to-speak not seen: the same tree, coarser information
    sets, the payoffs averaged over who spoke first)."""
    n_o = len(game.kind)
    scale = game.weight * _scales(game) * n_o
    out = _Writer(game.players, "Cunning Folk claim stage")
    out.chance(0, [(f"o{o}", Fraction(1, n_o)) for o in range(n_o)])
    for o in range(n_o):
        t = int(game.kind[o])
        actions = tuple(a for a, ok in zip(ACTIONS, game.allowed[t], strict=True) if ok)
        out.move(1, 0, f"type {t}", actions)
        for action in actions:
            a = ACTIONS.index(action)
            if action == PASS:
                out.end(2, game.utility[:, a, 0, o] * scale[:, o])
                continue
            _answers(out, game, scale, o, a, 0, 0)
    return out.text()


def _answers(
    out: _Writer, game: MultiStage, scale: np.ndarray, o: int, a: int, j: int, mask: int
) -> None:
    if j == game.answerers:
        out.end(2 + j, game.utility[:, a, mask, o] * scale[:, o])
        return
    out.move(2 + j, j + 1, _answer_set(game, o, a, j, mask), ANSWERS)
    for b in (0, 1):
        _answers(out, game, scale, o, a, j + 1, mask | b << j)


def _answer_set(game: MultiStage, o: int, a: int, j: int, mask: int) -> str:
    return answer_set(j, int(game.cls[j, o]), a, game.seen(j, mask))


def answer_set(j: int, h: int, a: int, mask: int) -> str:
    """Answerer ``j``'s information set: his class, the claim, the earlier answers as he sees
    them (``MultiStage.seen``: under first-to-speak none, one set per class and claim)."""
    return f"answerer {j} class {h} {ACTIONS[a]} {mask}"


def multi_policy(game: MultiStage, profile: Profile, efg: pyspiel.Game) -> Any:
    """The project's CFR average profile as an OpenSpiel tabular policy on
    :func:`multi_efg`."""
    table = empty_policy(efg)
    sigma = profile.claimant(True)
    for t in range(len(game.types)):
        _set(table, f"type {t}", dict(zip(ACTIONS, sigma[t], strict=True)))
    for j in range(game.answerers):
        p = profile.answerer(j, True)
        for h in range(len(game.classes[j])):
            for a in range(1, len(ACTIONS)):
                for mask in range(game.sets(j)):
                    mix = dict(zip(ANSWERS, p[h, a, mask], strict=True))
                    _set(table, answer_set(j, h, a, mask), mix)
    return table


def _set(table: Any, name: str, mix: dict[str, Any]) -> None:
    """Set the policy at information set ``name`` (when the tree has it) to ``mix``."""
    found = table.named.get(name)
    if found is None:
        return
    key, ids = found
    row = table.action_probability_array[table.state_lookup[key]]
    row[:] = 0.0
    for action, p in mix.items():
        if action in ids:
            row[ids[action]] = float(p)


def empty_policy(efg: pyspiel.Game) -> Any:
    """A tabular policy on ``efg``, with ``named``: each information set's name (as written
    in the .efg) to its key and its actions' ids by name."""
    table = policy_lib.TabularPolicy(efg)
    table.named = {}
    stack = [efg.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack += [state.child(a) for a, _ in state.chance_outcomes()]
            continue
        key = state.information_state_string()
        name = key.split("-", 3)[3]
        if name not in table.named:
            ids = {state.action_to_string(a): a for a in state.legal_actions()}
            table.named[name] = (key, ids)
        stack += [state.child(a) for a in state.legal_actions()]
    return table
