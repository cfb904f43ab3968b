"""`cunning-folk equilibrium` with three or four players: the stage's payoffs by hand, each
player's own weights, CFR+'s NashConv falling with iterations and reaching its target
through the CLI."""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.cunning_folk.record import dump_log
from ruleslawyer.models.cunning_folk.village import CELLS
from ruleslawyer.solvers.cunning_folk import cfr
from ruleslawyer.solvers.cunning_folk.advise import pending_claim
from ruleslawyer.solvers.cunning_folk.equilibrium import stage_log
from tests.cunning_folk.helpers import log_of, marks_table

ROOT = Path(__file__).resolve().parents[2]
THREE = ROOT / "examples" / "cunning-folk" / "pending-claim.toml"
C3 = CELLS.index("C3")
F = Fraction


def three_players(**rulings: str) -> cfr.MultiStage:
    document = tomllib.loads(THREE.read_text())
    document["suspected"] = {"me": 1, "bea": 1, "cal": 1}
    document["rulings"] = {f"cunning-folk/{k.replace('_', '-')}": v for k, v in rulings.items()}
    log = log_of(document)
    base = stage_log(log, pending_claim(document, log))
    return cfr.build_multi_stage(base, "bea", C3, marks_table(F(-1, 2), F(1, 2)))


def test_payoffs_by_hand() -> None:
    # Everyone holds a suspected card; bea claims, cal (her left) answers, then me.
    # A true good-elder claim that both challenge ostracises both: bea, the only player
    # left, wins: (+1, -1, -1). A bluff caught ostracises bea: she loses, cal and I go on,
    # each with a suspected card (0 with this table): (-1, 0, 0).
    game = three_players()
    assert game.players == ("bea", "cal", "me")
    ge = cfr.ACTIONS.index("good-elder")
    true = [o for o in range(len(game.kind)) if game.types[game.kind[o]][1] == "good-elder"]
    bluff = [o for o in range(len(game.kind)) if game.types[game.kind[o]][1] == "villager"]
    assert true and bluff
    for o in true:
        assert list(game.utility[:, ge, 0b11, o]) == [1.0, -1.0, -1.0]
    for o in bluff:
        assert list(game.utility[:, ge, 0b01, o]) == [-1.0, 0.0, 0.0]
    # Under first-challenger only cal pays (ostracised) and bea's run follows: me and bea
    # are left, her run wins (-1 to me) or fails (her second card: I win, +1).
    first = three_players(multiple_challengers="first-challenger")
    for o in (o for o in range(len(first.kind)) if first.types[first.kind[o]][1] == "good-elder"):
        bea, cal, me = first.utility[:, ge, 0b11, o]
        assert cal == -1.0 and -1.0 <= me <= 1.0 and bea == -me


def test_each_player_weighs_the_card_by_their_own_worlds() -> None:
    # My weights are my worlds' chances of every outcome; each of bea's types sums to 1
    # over the answerers' information states; so does each of cal's.
    game = three_players()
    me = game.players.index("me")
    assert game.weight[me].sum() == pytest.approx(1.0)
    assert np.allclose(game.weight[me], game.prior / game.prior.sum())
    for t in range(len(game.types)):
        assert game.weight[0][game.kind == t].sum() == pytest.approx(1.0)
    cal = game.players.index("cal") - 1
    for h in range(len(game.classes[cal])):
        assert game.weight[cal + 1][game.cls[cal] == h].sum() == pytest.approx(1.0)


def test_nash_conv_falls_with_iterations() -> None:
    game = three_players()
    measured = [cfr.solve(game, iterations=n, target=0, every=n).nash_conv for n in (5, 50, 500)]
    assert measured[0] > measured[2]
    assert measured[2] <= 0.001 * 2  # at most 0.001 of the payoff range (2)


@pytest.mark.parametrize("players", [3, 4])
def test_cli_three_and_four_players_reach_the_nash_conv_target(
    tmp_path: Path, players: int
) -> None:
    document = tomllib.loads(THREE.read_text())
    document["players"] = ["me", "bea", "cal", "dan"][:players]
    path = tmp_path / "log.toml"
    path.write_text(dump_log(document))
    result = CliRunner().invoke(cli, ["cunning-folk", "equilibrium", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["approximate"] is True and out["exact"] is False
    assert out["nash_conv_of_range"] <= 0.001
    others = ["cal", "me"] if players == 3 else ["cal", "dan", "me"]
    assert list(out["challenge_probability"]) == others
    assert out["stage_game"]["players"]["answerers_in_order"] == others
    assert "knowledge" in out["assumptions"]
    text = CliRunner().invoke(cli, ["cunning-folk", "equilibrium", str(path)]).output
    assert "approximate equilibrium (CFR+" in text and "NashConv" in text


def test_cfr_cut_by_the_budget_says_finished_false(monkeypatch: pytest.MonkeyPatch) -> None:
    class Spent:
        def spent(self, states: int = 0) -> bool:
            return True

    game = three_players()
    approx = cfr.solve(game, target=0, budget=Spent())  # type: ignore[arg-type]
    assert approx.stopped == cfr.TIME_BUDGET and approx.iterations == 100
    solve = cfr.solve
    monkeypatch.setattr(cfr, "solve", lambda g, budget: solve(g, target=0, budget=budget))
    monkeypatch.setattr(cfr, "build_multi_stage", lambda *args, **kwargs: game)
    figures = cfr.approximate(None, "bea", (C3,), None, (1, 1), Spent())  # type: ignore[arg-type]
    assert figures["finished"] is False and figures["stopped"] == cfr.TIME_BUDGET
    assert figures["nash_conv"] >= 0 and "before CFR's target" in figures["unfinished"]
