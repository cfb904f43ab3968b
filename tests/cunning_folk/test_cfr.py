"""`cunning-folk equilibrium` with three players: the stage's payoffs by hand, CFR's
NashConv falling with iterations, and agreement with the exact LP on two players."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.cunning_folk.village import CELLS
from ruleslawyer.solvers.cunning_folk import cfr
from ruleslawyer.solvers.cunning_folk.equilibrium import build_stage, solve
from ruleslawyer.solvers.cunning_folk.worlds import filter_worlds
from tests.cunning_folk.helpers import log_of

ROOT = Path(__file__).resolve().parents[2]
THREE = ROOT / "examples" / "cunning-folk" / "pending-claim.toml"
C3 = CELLS.index("C3")


def three_players(**rulings: str) -> tuple[cfr.MultiStage, dict]:
    document = tomllib.loads(THREE.read_text())
    document["suspected"] = {"me": 1, "bea": 1, "cal": 1}
    document["rulings"] = {f"cunning-folk/{k.replace('_', '-')}": v for k, v in rulings.items()}
    log = log_of(document)
    worlds = filter_worlds(log)
    return cfr.build_multi_stage(worlds, log, "bea", C3), document


def test_payoffs_by_hand() -> None:
    # Everyone holds a suspected card; bea claims, cal (her left) answers, then me.
    # A true good-elder claim that both challenge ostracises both: bea, the only player
    # left, wins: (+1, -1, -1). A bluff caught ostracises bea: she loses, the game goes on
    # for the others (-1, 0, 0). Under first-challenger only cal pays (-1, out), then
    # bea's run (the card face up) wins with w = 1/10 (advise's figure for this claim:
    # 1/120 of 1/12): bea wins, me -1; or it fails, her second card, and I am the only
    # player left: me +1. So me 1 - 2w = 4/5, bea -4/5.
    game, _ = three_players()
    assert game.players == ("bea", "cal", "me")
    ge = game.claims.index("good-elder")
    true, bluff = game.types.index("good-elder"), game.types.index("villager")
    assert game.payoff[true][ge][0b11] == (1.0, -1.0, -1.0)
    assert game.payoff[bluff][ge][0b01] == (-1.0, 0.0, 0.0)
    first, _ = three_players(multiple_challengers="first-challenger")
    bea, cal, me = first.payoff[true][ge][0b11]
    assert cal == -1.0 and me == pytest.approx(0.8) and bea == pytest.approx(-0.8)


def test_nash_conv_falls_with_iterations() -> None:
    game, _ = three_players()
    measured = [cfr.solve(game, iterations=n, target=0, every=n).nash_conv for n in (10, 100, 1000)]
    assert measured[0] > measured[1] > measured[2]
    assert measured[2] < 0.01 * 2  # under 0.01 of the payoff range (2)


@pytest.mark.parametrize("example", ["bluff-or-not.toml", "two-players.toml"])
def test_two_players_agree_with_the_exact_lp(example: str) -> None:
    # The multi-player payoffs are built apart from the stakes: on two players they must
    # be the LP's, and CFR's value within its NashConv of the exact value.
    log = log_of(tomllib.loads((ROOT / "examples" / "cunning-folk" / example).read_text()))
    worlds = filter_worlds(log)
    cell = C3 if example.startswith("bluff") else CELLS.index("A3")
    exact = build_stage(worlds, log, "bea", cell)
    multi = cfr.build_multi_stage(worlds, log, "bea", cell)
    for i in range(len(exact.types)):
        for j in range(len(exact.claims)):
            assert multi.payoff[i][j][1][1] == pytest.approx(float(exact.challenge[i][j]))
            assert multi.payoff[i][j][0][1] == pytest.approx(float(exact.accept[i][j]))
            assert multi.payoff[i][j][1][0] == pytest.approx(-float(exact.challenge[i][j]))
    approx = cfr.solve(multi, iterations=2000)
    assert abs(approx.values[1] - float(solve(exact).value)) <= approx.nash_conv + 1e-9


def test_cli_three_players_is_approximate() -> None:
    result = CliRunner().invoke(
        cli, ["cunning-folk", "equilibrium", str(THREE), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["approximate"] is True and out["exact"] is False
    assert out["nash_conv_of_range"] < 0.01
    assert set(out["challenge_probability"]) == {"cal", "me"}
    assert out["stage_game"]["players"]["answerers_in_order"] == ["cal", "me"]
    text = CliRunner().invoke(cli, ["cunning-folk", "equilibrium", str(THREE)]).output
    assert "approximate equilibrium (CFR" in text and "NashConv" in text


def test_cfr_cut_by_the_budget_says_finished_false(monkeypatch: pytest.MonkeyPatch) -> None:
    class Spent:
        def spent(self, states: int = 0) -> bool:
            return True

    game, _ = three_players()
    approx = cfr.solve(game, target=0, budget=Spent())  # type: ignore[arg-type]
    assert approx.stopped == cfr.TIME_BUDGET and approx.iterations == 500
    solve = cfr.solve
    monkeypatch.setattr(cfr, "solve", lambda g, budget: solve(g, target=0, budget=budget))
    monkeypatch.setattr(cfr, "build_multi_stage", lambda *args: game)
    figures = cfr.approximate(None, None, "bea", C3, Spent())  # type: ignore[arg-type]
    assert figures["finished"] is False and figures["stopped"] == cfr.TIME_BUDGET
    assert figures["nash_conv"] >= 0 and "before CFR's target" in figures["unfinished"]
