"""The pruned paranoid solver: the same answers as the exhaustive search, far fewer nodes."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.models.twist_of_fate.files import Position, load_position
from ruleslawyer.models.twist_of_fate.play import Rules, legal_moves
from ruleslawyer.models.twist_of_fate.points import SELF_PLAY_COUNT
from ruleslawyer.solvers.twist_of_fate import memory, tiers
from ruleslawyer.solvers.twist_of_fate.common import LOST, OPEN, WON, shift
from ruleslawyer.solvers.twist_of_fate.encoding import decode_move
from ruleslawyer.solvers.twist_of_fate.maxn import analyse, analysis_json, best, guarantees
from ruleslawyer.solvers.twist_of_fate.pruned import driver, search
from ruleslawyer.solvers.twist_of_fate.reference.maxn import MaxnSearch
from tests.twist_of_fate.test_solve import positions

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples/twist-of-fate"
POSITIONS = ROOT / "ruleslawyer/data/positions"
SMALL = 1 << 20  # bytes of transposition table: plenty for these positions


@st.composite
def varied(draw: st.DrawFn, most: int = 4) -> tuple[Position, Rules]:
    """The solve tests' positions (2, 3 and 4 players, every reading), with any
    Sanctuary from 0 to 7 (theirs start at 4 or more: mostly wins) and either reading
    of self-play-count."""
    position, rules = draw(positions(most=most))
    seats = tuple(replace(seat, sanctuary=draw(st.integers(0, 7))) for seat in position.state.seats)
    state = replace(position.state, seats=seats)
    spc = draw(st.sampled_from([r.name for r in SELF_PLAY_COUNT.readings]))
    moved = Position(state, position.names, position.deck, position.rulings)
    return moved, replace(rules, self_play_count=spc)


def agree(
    position: Position,
    rules: Rules,
    solver: str = "reference",
    levers: driver.Levers | None = None,
) -> None:
    """The pruned answers (best move, value, guarantees, proofs, every move's value) are
    the exhaustive search's (``solver``: the plain reference, or the compiled one)."""
    exhaustive = analyse(position, rules, "paranoid", solver=solver)
    assert exhaustive.finished
    levers = levers or driver.Levers()
    found = driver.solve(position, rules, table_bytes=SMALL, levers=levers)
    every = driver.solve(position, rules, every_move=True, table_bytes=SMALL, levers=levers)
    assert found.finished and every.finished and every.exact
    me = position.state.active
    chosen = best(exhaustive)
    if chosen is None:  # at the horizon already: no move
        assert found.best is None and not legal_moves(position.state, position.deck, rules)
        return
    assert decode_move(found.best, position) == chosen[0]
    assert driver.utility_of(found.value) == chosen[1][me]
    assert every.best == found.best and every.value == found.value
    scored = {m: v[me] for m, v in exhaustive.scored}
    for m, v in every.moves.items():
        assert driver.utility_of(v) == scored[decode_move(m, position)]
    # the guarantees: those the command line derives from the exhaustive value
    out = analysis_json(position, exhaustive)
    sanctuary, win = guarantees(out["value"][out["player"]])
    assert driver.guaranteed(found.value) == (sanctuary, win)
    # the old kernel's guaranteed win answers the same question
    assert memory.solve(position, rules, threads=1).guaranteed_win == win
    # the null-window proofs
    assert driver.prove_win(position, rules)[0] == win
    around = {0, 8} if sanctuary is None else {0, sanctuary, sanctuary + 1, 8}
    for k in sorted(around):
        proved = driver.prove_sanctuary(position, rules, k)[0]
        assert proved == (sanctuary is not None and sanctuary >= k), k


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(varied())
def test_pruned_agrees_with_the_reference(case: tuple[Position, Rules]) -> None:
    agree(*case)


LEVERS = [driver.Levers(rise=r, others_out=o) for r in (False, True) for o in (False, True)]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(varied(most=6), st.sampled_from(LEVERS))
def test_pruned_agrees_with_the_compiled_search_on_bigger_positions(
    case: tuple[Position, Rules], levers: driver.Levers
) -> None:
    # every combination of the levers (each only prunes: the answers never change)
    agree(*case, solver="numba", levers=levers)


def agree_for_a_seat(position: Position, rules: Rules, seat: int) -> None:
    """Another seat's guarantee (every other player, the one to move among them, plays
    against it): the pruned value and each root move's equal the plain reference's
    paranoid search rooted at that seat, and the move chosen is the first of the
    lowest."""
    search = MaxnSearch(position.deck, rules, "paranoid", seat)
    state = position.state
    exact = search.value(state)[seat]
    found = driver.solve(position, rules, seat=seat, table_bytes=SMALL)
    every = driver.solve(position, rules, seat=seat, every_move=True, table_bytes=SMALL)
    assert found.finished and every.finished and every.exact
    assert driver.utility_of(found.value) == exact == driver.utility_of(every.value)
    kids = search.children(state)
    if not kids:
        assert found.best is None
        return
    scored = [(m, shift(search.value(child))[seat]) for m, child in kids]
    assert [decode_move(m, position) for m in sorted(every.moves)] == [m for m, _ in scored]
    assert [driver.utility_of(v) for _, v in sorted(every.moves.items())] == [v for _, v in scored]
    worst = min(v for _, v in scored)
    assert decode_move(found.best, position) == next(m for m, v in scored if v == worst)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(varied(), st.integers(0, 3))
def test_another_seats_guarantee_agrees_with_the_reference(
    case: tuple[Position, Rules], pick: int
) -> None:
    position, rules = case
    players = position.state.players
    seat = (position.state.active + 1 + pick % (players - 1)) % players
    agree_for_a_seat(position, rules, seat)


def search_value(utility: tuple[int, int, int, int]) -> int:
    """A utility tuple (outcome, tempo, Sanctuary, Luck + Shilling) as a search value:
    the inverse of ``driver.utility_of``, written out from the search module's text."""
    outcome, tempo, sanctuary, luck_shilling = utility
    if outcome == WON:
        return search.WON_TOP + tempo
    if outcome == OPEN:
        return search.open_value(sanctuary, luck_shilling)
    assert outcome == LOST
    return tempo


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(varied())
def test_the_static_bound_holds_the_exhaustive_value(case: tuple[Position, Rules]) -> None:
    # the bound at the root (the cards left in the hands, what each seat can still
    # score) against the plain reference's paranoid value of the player to move
    position, rules = case
    exhaustive = analyse(position, rules, "paranoid", solver="reference")
    chosen = best(exhaustive)
    if chosen is None:
        return
    exact = search_value(chosen[1][position.state.active])
    assert driver.utility_of(exact) == chosen[1][position.state.active]
    enc = tiers.problem(position, rules, 2).enc
    hands, points, levels = driver.bound_tables(position, enc, rules)
    for rise in (0, 1):
        how = np.zeros(search.NHOW, dtype=np.int64)
        how[search.H_RISE] = rise
        lo, hi = search.bounds(enc.root[0], enc.root[1], 0, enc.params, hands, points, levels, how)
        assert lo <= exact <= hi, (rise, lo, exact, hi)


def test_the_bound_tightens_as_the_big_rises_leave_the_hands() -> None:
    # the placeholder deck, worked by hand: Bill Sikes (-2 Luck -1 Shilling | +1
    # Shilling) and Mr. Bumble (+1 Luck +1 Shilling | -1 Luck) raise Luck and
    # Shilling by at most 1 a play, face up (either side) or face down; Nancy's side
    # 0 raises Luck by 2. A seat at Luck 0, Shilling 0 under two-points:
    position, rules = _shipped(POSITIONS / "twist-of-fate-3p-6.toml")
    assert rules.double_threshold == "two-points"
    enc = tiers.problem(position, rules, 2).enc
    _, points, _ = driver.bound_tables(position, enc, rules)
    names = position.deck.names
    small = (1 << names.index("Bill Sikes")) | (1 << names.index("Mr. Bumble"))
    # Sikes and Bumble only: 4 plays to reach 4, and Bumble side 0 raises both at once
    assert [int(points[small, 0, plays]) for plays in range(6)] == [0, 0, 0, 0, 2, 2]
    # with Nancy: Luck reaches 4 in 2 plays, and again 2 plays later
    nancy = small | (1 << names.index("Nancy"))
    assert [int(points[nancy, 0, plays]) for plays in range(6)] == [0, 0, 1, 1, 3, 3]
    # no card left: no play, no point
    assert not points[0, :, 0].any()


def test_each_cards_rise_and_fall_by_hand() -> None:
    # the placeholder deck, worked by hand (the most one play of the card adds to or
    # takes from Luck + Shilling, before scoring; a side's loss clamped at 0 or its
    # gain at 4 counts only as far as it goes; face down: +1 and -1, net 0 or +1 at 0
    # or -1 at 4): Mr. Brownlow +2 Shilling -2 Luck from Luck 0 rises 2, from Shilling
    # 4 falls 2, side 1 (+1, +1) rises 2; the Artful Dodger +2 Shilling rises 2, +1
    # Luck -2 Shilling at Luck 4 falls 2; Bill Sikes (-2, -1) falls 3, +1 Shilling
    # rises 1; Nancy +2 Luck rises 2, +1 Luck -1 Shilling at Luck 4 falls 1; Fagin +3
    # Shilling rises 3, (-1, +1) at Shilling 4 falls 1; Mr. Bumble (+1, +1) rises 2,
    # -1 Luck falls 1.
    position, rules = _shipped(POSITIONS / "twist-of-fate-3p-6.toml")
    per_card, levels = driver.rise_levels(tiers.problem(position, rules, 2).enc)
    by_hand = {
        "Mr. Brownlow": (2, 2), "The Artful Dodger": (2, 2), "Bill Sikes": (1, 3),
        "Nancy": (2, 1), "Fagin": (3, 1), "Mr. Bumble": (2, 1),
    }  # fmt: skip
    names = position.deck.names
    assert {names[c]: tuple(per_card[c].tolist()) for c in range(len(names))} == by_hand
    assert levels.tolist() == [[3, 2, 1], [3, 2, 1]]


@pytest.mark.parametrize("reading", ["two-points", "one-point-reset-both", "one-point-reset-one"])
def test_a_point_costs_four_of_luck_and_shilling(reading: str) -> None:
    # the rise bound's premise, over the whole score table under each reading of
    # double-threshold: the Luck + Shilling left after scoring, plus 4 for each
    # point scored, is never more than the Luck + Shilling the card left
    from ruleslawyer.solvers.twist_of_fate.encoding import score_table

    rules = Rules(double_threshold=reading)
    table = score_table(rules).astype(np.int64)
    rows = [luck | (shilling << 3) for luck in range(5) for shilling in range(5)]
    entry = table[rows]
    twisted, after, points = (entry >> 8) & 63, entry & 63, (entry >> 6) & 3
    before = (twisted & 7) + (twisted >> 3)
    assert ((after & 7) + (after >> 3) + 4 * points <= before).all()
    assert points.any()


def _shipped(path: Path) -> tuple[Position, Rules]:
    position = load_position(str(path))
    return position, Rules.from_rulings(dict(position.rulings))


@pytest.mark.parametrize(
    "path",
    [
        *(p for p in sorted(EXAMPLES.glob("*.toml")) if p.name != "two-card-deck.toml"),
        POSITIONS / "twist-of-fate-3p-6.toml",
    ],
    ids=lambda p: p.stem,
)
def test_pruned_agrees_on_every_shipped_position(path: Path) -> None:
    # hidden-card.toml: its open cards as dealt (the pruned search is of one world)
    agree(*_shipped(path), solver="numba")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["twist-of-fate-2p-10", "twist-of-fate-3p-9"])
def test_pruned_agrees_on_the_big_shipped_positions(name: str) -> None:
    position, rules = _shipped(POSITIONS / f"{name}.toml")
    exhaustive = analyse(position, rules, "paranoid")
    found = driver.solve(position, rules)
    chosen = best(exhaustive)
    assert chosen is not None and found.finished
    assert decode_move(found.best, position) == chosen[0]
    assert driver.utility_of(found.value) == chosen[1][position.state.active]
    # 3p-9: 47,210 nodes against 14,539,897 states; 2p-10: 2,398,284 against 74,493,962
    assert found.nodes * 20 < exhaustive.states


def test_an_immediate_win_is_found_in_a_few_nodes_by_hand() -> None:
    # win-now.toml: Ann (Sanctuary 7, 3 Luck) wins with Nancy's side 0 on Bob (+2 Luck:
    # 5 -> 4, one point, the last Sanctuary card). It is her first legal move; the
    # static bound (nobody can be better off than a win at ply 1) cuts every other.
    position, rules = _shipped(EXAMPLES / "win-now.toml")
    found = driver.solve(position, rules)
    assert found.finished and found.value == driver.won_value(1)
    move = decode_move(found.best, position)
    assert (move.card, move.target, move.side) == ("Nancy", 1, 0)
    assert found.nodes <= 10
    assert driver.prove_win(position, rules)[:2] == (True, 1)


def test_node_budget_and_time_budget_leave_it_unfinished() -> None:
    position, rules = _shipped(POSITIONS / "twist-of-fate-3p-12.toml")
    cut = driver.solve(position, rules, Budget(max_states=2000))
    assert not cut.finished and cut.value is None and cut.best is None
    assert 2000 <= cut.nodes < 4000
    out = driver.answer_json(position, cut)
    assert out["finished"] is False and out["guaranteed_sanctuary"] is None
    timed = driver.solve(position, rules, Budget(max_seconds=0))
    assert not timed.finished


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["twist-of-fate", "solve", *args])
    return result.exit_code, result.output


def test_cli_pruned_by_default_exhaustive_on_request() -> None:
    path = str(EXAMPLES / "brownlow.toml")
    code, text = _cli(path, "--model", "paranoid")
    assert code == 0, text
    assert "search: pruned (alpha-beta, transposition table)" in text
    assert "reachable_max_sanctuary, possible_win, end_states, line: not computed" in text
    assert "nodes: " in text and "--every-move" in text
    code, raw = _cli(path, "--model", "paranoid", "--format", "json")
    pruned = json.loads(raw)
    assert pruned["search"].startswith("pruned") and pruned["end_states"] is None
    assert pruned["moves"] is None and pruned["line"] is None and pruned["nodes"] > 0
    code, raw = _cli(path, "--model", "paranoid", "--format", "json", "--exhaustive")
    full = json.loads(raw)
    assert code == 0 and full["search"] == "exhaustive" and full["end_states"] > 0
    for name in ("best_move", "guaranteed_sanctuary", "guaranteed_win"):
        assert pruned[name] == full[name], name
    me = full["player"]
    assert pruned["value"] == {me: full["value"][me]}
    code, raw = _cli(path, "--model", "paranoid", "--format", "json", "--every-move")
    every = json.loads(raw)
    assert [m["move"] for m in every["moves"]] == [m["move"] for m in full["moves"]]
    assert [m["value"][me] for m in every["moves"]] == [m["value"][me] for m in full["moves"]]


def test_cli_budget_gives_finished_false_and_exit_3() -> None:
    path = str(POSITIONS / "twist-of-fate-3p-12.toml")
    code, raw = _cli(path, "--model", "paranoid", "--format", "json", "--max-states", "1500")
    out = json.loads(raw)
    assert code == 3 and out["finished"] is False and out["best_move"] is None
    code, text = _cli(path, "--model", "paranoid", "--max-states", "1500")
    assert code == 3 and "guaranteed_sanctuary: unknown" in text and "finished: no" in text


def test_cli_falls_back_to_the_exhaustive_search_and_says_so() -> None:
    code, text = _cli(str(EXAMPLES / "hidden-card.toml"), "--model", "paranoid")
    assert code == 0, text
    assert "search: exhaustive (pruned search does not cover [[hidden]] cards)" in text
    # --rounds 0: across no round end (the search stops where the round does)
    win_now = str(EXAMPLES / "win-now.toml")
    code, text = _cli(win_now, "--model", "paranoid", "--horizon", "game", "--rounds", "0")
    assert code == 0, text
    assert "search: exhaustive (pruned search does not cover --horizon game)" in text


def test_cli_refuses_flags_for_the_other_model() -> None:
    path = str(EXAMPLES / "win-now.toml")
    code, text = _cli(path, "--exhaustive")
    assert code == 2 and "--exhaustive is for --model paranoid" in text
    code, text = _cli(path, "--model", "paranoid", "--exhaustive", "--every-move")
    assert code == 2 and "drop --every-move" in text


RECORDED = Path(__file__).resolve().parent / "recorded"


@pytest.mark.slow
def test_pruned_agrees_with_the_recorded_exhaustive_answer_of_3p_12() -> None:
    # 3p-12 has 528 M states: too many for the memory engine here, 25 minutes on
    # two Dask workers; the record is that run's answer (its command in the file)
    record = json.loads((RECORDED / "twist-of-fate-3p-12-paranoid.json").read_text())
    path = str(POSITIONS / "twist-of-fate-3p-12.toml")
    code, raw = _cli(path, "--model", "paranoid", "--format", "json")
    assert code == 0, raw
    pruned = json.loads(raw)
    exhaustive = record["answer"]
    me = exhaustive["player"]
    for name in ("player", "best_move", "guaranteed_sanctuary", "guaranteed_win"):
        assert pruned[name] == exhaustive[name], name
    assert pruned["value"] == {me: exhaustive["value"][me]}
    position, rules = _shipped(POSITIONS / "twist-of-fate-3p-12.toml")
    every = driver.solve(position, rules, every_move=True)
    assert every.finished and every.exact
    out = driver.answer_json(position, every)
    assert [m["move"] for m in out["moves"]] == [m["move"] for m in exhaustive["moves"]]
    assert [m["value"][me] for m in out["moves"]] == [m["value"][me] for m in exhaustive["moves"]]
