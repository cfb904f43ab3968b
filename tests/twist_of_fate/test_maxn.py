"""max^n and paranoid analyses: every move scored and the line, by hand and by the reference."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.models.twist_of_fate.files import Position, load_position, position_from_document
from ruleslawyer.models.twist_of_fate.play import Rules
from ruleslawyer.solvers.twist_of_fate import memory
from ruleslawyer.solvers.twist_of_fate.common import TIE_BREAK
from ruleslawyer.solvers.twist_of_fate.maxn import analyse, analysis_json, paranoid_solve
from tests.twist_of_fate.test_solve import EXAMPLE, FULL, positions

ROOT = Path(__file__).resolve().parents[2]


def _tie_position() -> Position:
    # The rulebook example's seats, changed so that Eliza's two face-up plays tie for her.
    doc = {**EXAMPLE, "player": [dict(p) for p in EXAMPLE["player"]]}
    doc["player"][0]["luck"] = 0
    doc["player"][1].update(luck=1, shilling=2)
    return position_from_document(doc, "tie")


def test_maxn_rulebook_example_by_hand() -> None:
    # Eliza (3/0, Sanctuary 0) plays her last card, Mr. Brownlow, on Zach (1/0); Ann is
    # full. Mr. Brownlow (printed): side 0 faces the target (-2 Luck, +2 Shilling), the
    # player takes the other side (+1 Luck, +1 Shilling).
    # - face up side 0: Eliza 4/1 scores, Luck resets: 0/1, Sanctuary 1 -> (0, 1, 1);
    #   Zach 0/2.
    # - face up side 1: Eliza -2/+2: 1/2 -> (0, 0, 3).
    # - face down raising Luck: Eliza 4/0 scores -> 0/0, Sanctuary 1 -> (0, 1, 0);
    #   raising Shilling: 2/1 -> (0, 0, 3).
    # max^n: (0, 1, 1) is Eliza's best, face up side 0 (the rulebook's play). One ply.
    position = position_from_document(EXAMPLE, "example")
    for solver in ("reference", "numba"):
        out = analysis_json(position, analyse(position, Rules(), "maxn", solver=solver))
        assert out["finished"] and out["model"] == "maxn" and out["tie_break"] == TIE_BREAK
        assert out["best_move"]["side"] == 0 and out["best_move"]["target"] == "zach"
        assert out["value"]["eliza"] == {"outcome": "open", "sanctuary": 1, "luck_plus_shilling": 1}
        assert out["value"]["zach"] == {"outcome": "open", "sanctuary": 0, "luck_plus_shilling": 2}
        assert len(out["moves"]) == 6
        mine = [m["value"]["eliza"]["luck_plus_shilling"] for m in out["moves"]]
        assert sorted(mine) == [0, 0, 1, 3, 3, 3]
        (ply,) = out["line"]
        assert ply["player"] == "eliza" and ply["move"]["card"] == "Mr. Brownlow"
        assert ply["seats"] == {
            "eliza": {"luck": 0, "shilling": 1, "sanctuary": 1},
            "zach": {"luck": 0, "shilling": 2, "sanctuary": 0},
            "ann": {"luck": 0, "shilling": 0, "sanctuary": 0},
        }


def test_spiteful_tie_break_by_hand() -> None:
    # Eliza 0/0, Zach 1/2. Face up side 0: Eliza +1/+1 -> 1/1 (0, 0, 2); Zach -2/+2 ->
    # 0/4, scores -> 0/0, Sanctuary 1. Face up side 1: Eliza -2/+2 -> 0/2 (0, 0, 2); Zach
    # +1/+1 -> 2/3 (0, 0, 5). Face down: Eliza 1/0 or 0/1 (0, 0, 1), worse. The two
    # face-up plays tie for Eliza; the spiteful rule gives the others the lowest sum of
    # Sanctuary: side 1 (Zach 0, not 1), though side 0 comes first in move order.
    # Paranoid sees (won, Sanctuary) = (0, 0) everywhere and keeps the first, side 0.
    position = _tie_position()
    for solver in ("reference", "numba"):
        maxn = analysis_json(position, analyse(position, Rules(), "maxn", solver=solver))
        assert maxn["best_move"]["side"] == 1
        assert maxn["value"]["zach"] == {"outcome": "open", "sanctuary": 0, "luck_plus_shilling": 5}
        paranoid = analysis_json(position, analyse(position, Rules(), "paranoid", solver=solver))
        assert paranoid["best_move"]["side"] == 0


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(most=3))
def test_compiled_agrees_with_reference(case: tuple[Position, Rules]) -> None:
    position, rules = case
    for model in ("maxn", "paranoid"):
        ref = analyse(position, rules, model, solver="reference")
        fast = analyse(position, rules, model, solver="numba")
        assert ref.finished and fast.finished
        assert fast.scored == ref.scored
        assert fast.line == ref.line
        if model == "maxn":
            # max^n's one-word slots (the vector's code beside the state) where the
            # code fits, and two-word slots: the same answer
            two = analyse(position, rules, model, slot_width=2)
            assert (two.scored, two.line, two.states) == (fast.scored, fast.line, fast.states)
    # the paranoid line's value for the player to move wins exactly where the paranoid
    # solver guarantees a win
    old = memory.solve(position, rules)
    out = analysis_json(position, fast)
    if out["moves"]:
        me = out["value"][out["player"]]
        assert (me["outcome"] == "won") == old.guaranteed_win


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(most=3))
def test_paranoid_solve_is_both_answers_at_once(case: tuple[Position, Rules]) -> None:
    # one search gives the paranoid analysis and the paranoid solver's answer: each the
    # same as when computed on its own (the analysis by the reference, the answer by
    # the fast kernel: values, best move, end states and the count of states)
    position, rules = case
    analysis, result = paranoid_solve(position, rules, threads=2)
    ref = analyse(position, rules, "paranoid", solver="reference")
    assert analysis.finished and analysis.scored == ref.scored and analysis.line == ref.line
    assert result.answer() == memory.solve(position, rules).answer()


def test_paranoid_solve_on_shipped_position() -> None:
    position = load_position(str(ROOT / "ruleslawyer/data/positions/twist-of-fate-3p-6.toml"))
    analysis, result = paranoid_solve(position, Rules())
    assert result.answer() == memory.solve(position, Rules()).answer()
    assert analysis.finished and analysis.line and analysis.states == result.states
    # two searches sharing the tables: the same answers, states counted once
    both, shared = paranoid_solve(position, Rules(), threads=2)
    assert (both.scored, both.line, shared.answer()) == (
        analysis.scored, analysis.line, result.answer(),
    )  # fmt: skip
    one = analyse(position, Rules(), "maxn")
    two = analyse(position, Rules(), "maxn", threads=2)
    assert (two.scored, two.line, two.states) == (one.scored, one.line, one.states)
    cut, unfinished = paranoid_solve(position, Rules(), Budget(max_states=1000))
    assert not cut.finished and not unfinished.finished and unfinished.end_states is None


def test_budget_ends_with_finished_false() -> None:
    position = position_from_document(
        {
            **EXAMPLE,
            "player": [
                {"name": "eliza", "hand": ["Nancy", "Fagin"], "in_front": FULL[:2]},
                {"name": "zach", "hand": ["Nancy", "Fagin"], "in_front": FULL[:2]},
                {"name": "ann", "hand": ["Nancy", "Fagin"], "in_front": FULL[:2]},
            ],
        },
        "budget",
    )
    for solver in ("reference", "numba"):
        out = analysis_json(
            position, analyse(position, Rules(), budget=Budget(max_states=2), solver=solver)
        )
        assert out["finished"] is False and out["moves"] is None and out["line"] is None


def test_cli_json_and_text(tmp_path: Path) -> None:
    path = tmp_path / "tie.toml"
    from ruleslawyer.models.twist_of_fate.files import dumps, position_document

    path.write_text(dumps(position_document(_tie_position())))
    runner = CliRunner()
    out = json.loads(
        runner.invoke(cli, ["twist-of-fate", "solve", str(path), "--format", "json"]).output
    )
    assert out["model"] == "maxn" and out["best_move"]["side"] == 1 and len(out["moves"]) == 6
    assert [p["player"] for p in out["line"]] == ["eliza"]
    para = runner.invoke(
        cli,
        [
            *("twist-of-fate", "solve", str(path), "--format", "json", "--model", "paranoid"),
            "--exhaustive",
        ],
    )
    out = json.loads(para.output)
    assert out["model"] == "paranoid" and out["guaranteed_sanctuary"] == 0
    assert out["best_move"]["side"] == 0 and len(out["moves"]) == 6 and out["finished"]
    text = runner.invoke(cli, ["twist-of-fate", "solve", str(path)]).output
    assert "model: maxn" in text and "horizon:" in text and "{" not in text
    assert "1    eliza   Mr. Brownlow on zach, face-up side 1" in text


def test_one_word_code_round_trip_by_hand() -> None:
    # 3p-9: states in 43 bits and the mark, codes in the 20 bits above: ann's Sanctuary
    # 2..8 (7 values) x Luck + Shilling 0..8 (9) fit 6 bits, bob's 3..8 6 bits, cat's
    # 1..8 7 bits; the flag bit 19
    from ruleslawyer.solvers.twist_of_fate import maxn_kernel as mk
    from ruleslawyer.solvers.twist_of_fate import tiers
    from ruleslawyer.solvers.twist_of_fate.kernel import Z_OFF
    from ruleslawyer.solvers.twist_of_fate.maxn import one_word_params

    position = load_position(str(ROOT / "ruleslawyer/data/positions/twist-of-fate-3p-9.toml"))
    prob = tiers.problem(position, Rules(), 2)
    params = one_word_params(position, prob.lay, prob.enc.params)
    assert params is not None and prob.lay.bits == 43
    assert [int(params[mk.C_BITS + p]) for p in range(3)] == [6, 6, 7]
    assert int(params[mk.C_FLAG]) == 19 and int(params[mk.C_VSHIFT]) == 44

    def vector(*utilities: int) -> int:
        return sum(u << (mk.W * s) for s, u in enumerate(utilities))

    def opened(sanctuary: int, luck_shilling: int) -> int:
        return mk.OPEN_BASE + ((sanctuary + Z_OFF) << 4 | luck_shilling)

    bob_wins_ply_3 = vector(3, mk.WON_TOP - 3, 3)
    ann_wins_ply_1 = vector(mk.WON_TOP - 1, 1, 1)
    open_line = vector(opened(2, 5), opened(8, 0), opened(1, 8))
    for vec in (bob_wins_ply_3, ann_wins_ply_1, open_line):
        code = int(mk.narrow(vec, params))
        assert 0 <= code < 1 << 20
        assert int(mk.widen(code, params)) == vec
    assert int(mk.narrow(bob_wins_ply_3, params)) == 1 << 19 | 1 << 5 | 3
    # ann's digit (2 - 2) * 9 + 5, bob's (8 - 3) * 9 + 0 at bit 6, cat's (1 - 1) * 9 + 8 at 12
    assert int(mk.narrow(open_line, params)) == 5 | 45 << 6 | 8 << 12
    # a Sanctuary below the seat's packed range has no code
    assert int(mk.narrow(vector(opened(1, 0), opened(3, 0), opened(1, 0)), params)) == -1


def test_compiled_searches_count_no_references() -> None:
    # Numba's reference counting made every inlined helper that took an array do a
    # locked add and subtract on the array's shared counter, per child: it cost the
    # max^n search half its time (benchmarks/README.md). The kernels allocate nothing,
    # so every compiled function of theirs is built without it.
    from numba.core.registry import CPUDispatcher

    from ruleslawyer.solvers.twist_of_fate import kernel, maxn_kernel

    for module in (kernel, maxn_kernel):
        compiled = [
            f for f in vars(module).values()
            if isinstance(f, CPUDispatcher) and f.__module__ == module.__name__
        ]  # fmt: skip
        assert compiled and all(f.targetoptions.get("_nrt") is False for f in compiled)


IMMEDIATE_WIN = {
    "deck": "twist-of-fate",
    "active": "ann",
    "player": [
        {"name": "ann", "luck": 3, "sanctuary": 7, "hand": ["Nancy", "Fagin"],
         "in_front": [*FULL, "Mr. Brownlow"]},
        {"name": "bob", "hand": ["Mr. Bumble"], "in_front": FULL[:3]},
        {"name": "cat", "in_front": [*FULL, "Mr. Brownlow"]},
    ],
}  # fmt: skip


def test_the_immediate_win_is_chosen_by_hand() -> None:
    # Game End: on reaching the last Sanctuary "the game immediately ends and that
    # player wins". Ann (3/0, Sanctuary 7) holds Nancy and Fagin; Bob (0/0) holds Mr.
    # Bumble; Ann and Cat are full, so Ann plays on Bob and Bob on himself: Ann, Bob, Ann.
    # - Nancy now, either side up (Ann takes +1 Luck -1 Shilling or +2 Luck) or face down
    #   raising Luck: Ann 4/0 scores, Sanctuary 8: she wins at ply 1 (Luck + Shilling 0).
    # - Fagin side 0 towards Bob (Ann takes 0/+3: 3/3), Bob plays, then Nancy side 1
    #   towards Bob (Ann +2 Luck: 4/3, scores, 0/3): a win at ply 3 with Luck + Shilling 3.
    # The old utility (won, Sanctuary, Luck + Shilling) took the later win for its 3;
    # won at ply 1 beats won at ply 3. The immediate wins leave every vector the same
    # (Bob and Cat lost at ply 1), so the first in move order: Nancy face up, side 0.
    position = position_from_document(IMMEDIATE_WIN, "immediate")
    for solver in ("reference", "numba"):
        out = analysis_json(position, analyse(position, Rules(), "maxn", solver=solver))
        assert out["best_move"]["card"] == "Nancy" and out["best_move"]["side"] == 0
        assert out["value"] == {
            "ann": {"outcome": "won", "ply": 1},
            "bob": {"outcome": "lost", "ply": 1},
            "cat": {"outcome": "lost", "ply": 1},
        }
        fagin = [m["value"]["ann"] for m in out["moves"] if m["move"]["card"] == "Fagin"]
        assert fagin[0] == {"outcome": "won", "ply": 3}
        assert [p["player"] for p in out["line"]] == ["ann"]
        paranoid = analysis_json(position, analyse(position, Rules(), "paranoid", solver=solver))
        assert paranoid["best_move"] == out["best_move"] and paranoid["value"] == out["value"]


HANDS_OVER = {
    "deck": "twist-of-fate",
    "active": "bob",
    "player": [
        {"name": "ann", "shilling": 3, "sanctuary": 7, "in_front": FULL[:3]},
        {"name": "bob", "shilling": 1, "hand": ["Fagin"]},
        {"name": "cat", "in_front": [*FULL, "Mr. Brownlow"]},
    ],
}


def test_a_seat_does_not_hand_a_rival_the_win_by_hand() -> None:
    # Bob (0/1, Sanctuary 0) plays his last card, Fagin (sides -1 Luck +1 Shilling, and
    # +3 Shilling), on Ann (0/3, Sanctuary 7); Cat is full. Face up side 0 towards Ann:
    # Bob takes +3 Shilling, 0/4, scores (Sanctuary 1), but Ann's 0/4 scores her
    # eighth: she wins. The old utility took that for Bob's one more Sanctuary. Side 1
    # and face down with Ann raising Shilling also give Ann 4 Shilling. Left open: face
    # down, Bob raising Luck (1/0) or Shilling (0/2), Ann raising Luck (1/2). Open beats
    # lost; of the open ones Bob's Luck + Shilling 2 is best: he raises Shilling.
    position = position_from_document(HANDS_OVER, "hands-over")
    for solver in ("reference", "numba"):
        out = analysis_json(position, analyse(position, Rules(), "maxn", solver=solver))
        assert out["best_move"] == {
            "card": "Fagin", "target": "ann", "play": "face-down",
            "player_raises": "shilling", "target_raises": "luck",
        }  # fmt: skip
        assert out["value"] == {
            "ann": {"outcome": "open", "sanctuary": 7, "luck_plus_shilling": 3},
            "bob": {"outcome": "open", "sanctuary": 0, "luck_plus_shilling": 2},
            "cat": {"outcome": "open", "sanctuary": 0, "luck_plus_shilling": 0},
        }
        side0 = out["moves"][0]
        assert side0["move"]["side"] == 0 and side0["value"]["ann"] == {"outcome": "won", "ply": 1}
        assert side0["value"]["bob"] == {"outcome": "lost", "ply": 1}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(most=3))
def test_a_win_now_is_taken_and_a_loss_only_when_forced(case: tuple[Position, Rules]) -> None:
    # Game End: the player who reaches the last Sanctuary wins at once. So if some move
    # wins now, the chosen one does (under both models); and the chosen move loses for the
    # mover only when every move does.
    position, rules = case
    for model in ("maxn", "paranoid"):
        out = analysis_json(position, analyse(position, rules, model))
        if not out["moves"]:
            continue
        me = out["player"]
        mine = [m["value"][me] for m in out["moves"]]
        if {"outcome": "won", "ply": 1} in mine:
            assert out["value"][me] == {"outcome": "won", "ply": 1}
        if out["value"][me]["outcome"] == "lost":
            assert all(u["outcome"] == "lost" for u in mine)
