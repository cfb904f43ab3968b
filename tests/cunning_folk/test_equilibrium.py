"""`cunning-folk equilibrium`: a hand-worked bluffing game, brute-force best responses on
generated logs, and the CLI's behaviour."""

from __future__ import annotations

import itertools
import json
import random
import re
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.errors import InputError
from ruleslawyer.models.cunning_folk.log import Log
from ruleslawyer.models.cunning_folk.play import Table
from ruleslawyer.models.cunning_folk.record import dump_log, play_and_record
from ruleslawyer.models.cunning_folk.village import CELLS, standard_setup
from ruleslawyer.solvers.cunning_folk.equilibrium import (
    PASS,
    StageGame,
    build_stage,
    solve,
)
from ruleslawyer.solvers.cunning_folk.worlds import filter_worlds
from tests.cunning_folk.helpers import log_of

ROOT = Path(__file__).resolve().parents[2]
TWO = ROOT / "examples" / "cunning-folk" / "two-players.toml"

F = Fraction


def two_card_village() -> StageGame:
    """The cell holds the good elder (1/4) or a villager (3/4); each player already holds a
    suspected card, so any wrong answer ostracises and ends the game.

    Payoffs to the challenger (the stakes' game utility):
    - true good-elder claim challenged: the challenger is ostracised, -1;
    - bluff (villager seen) challenged: the claimant is ostracised, +1;
    - accepted, the run wins with w (a loss, -1) or fails (the claimant's second card:
      ostracised, +1): 1 - 2w; with w = 3/4 seeing the elder, -1/2; w = 5/8 seeing the
      villager (the run does not need the cell), -1/4;
    - a pass: 0.
    """
    return StageGame(
        claimant="bea",
        challenger="me",
        cell=0,
        types=("good-elder", "villager"),
        prior=(F(1, 4), F(3, 4)),
        claims=("good-elder",),
        may_pass=(True, True),
        challenge=((F(-1),), (F(1),)),
        accept=((F(-1, 2),), (F(-1, 4),)),
    )


def test_two_card_village_by_hand() -> None:
    # On paper. Seeing the elder, claiming gives the challenger -y - (1-y)/2 < 0 = a pass:
    # bea always claims. Seeing the villager she bluffs with probability b; a bluff gives
    # y*1 + (1-y)*(-1/4), which equals the pass (0) only at y = 1/5: so the challenger
    # challenges 1 time in 5. The challenger mixes only when indifferent after a claim:
    #   challenge: 1/4*(-1)   + 3/4*b*(1)
    #   accept:    1/4*(-1/2) + 3/4*b*(-1/4)
    #   equal: 3/4*b*(5/4) = 1/8, b = 2/15.
    # Value: the villager is indifferent (0); the elder gives 1/4*(-1/5 - 4/5*1/2) = -3/20.
    eq = solve(two_card_village())
    assert eq.exact
    assert eq.claim_mix == ((F(0), F(1)), (F(13, 15), F(2, 15)))
    assert eq.challenge == (F(1, 5),)
    assert eq.value == F(-3, 20)


def pure_claimant_strategies(game: StageGame):
    return itertools.product(*(game.actions(i) for i in range(len(game.types))))


def payoff_pure(game: StageGame, picks: tuple[str, ...], y: tuple[Fraction, ...]) -> Fraction:
    """The challenger's expected utility: claimant plays ``picks``, challenge mix ``y``."""
    total = F(0)
    for i, (p, a) in enumerate(zip(game.prior, picks, strict=True)):
        if a != PASS:
            j = game.claims.index(a)
            total += p * (y[j] * game.challenge[i][j] + (1 - y[j]) * game.accept[i][j])
    return total


def payoff_mixed_claimant(game: StageGame, x, answers: tuple[int, ...]) -> Fraction:
    """The challenger's expected utility against claim mix ``x`` with pure answers."""
    total = F(0)
    for i, p in enumerate(game.prior):
        for a, xa in zip(game.actions(i), x[i], strict=True):
            if a != PASS and xa:
                j = game.claims.index(a)
                total += p * xa * (game.challenge[i][j] if answers[j] else game.accept[i][j])
    return total


def check_by_brute_force(game: StageGame) -> None:
    """No pure deviation of either player gains more than 1e-9 against the equilibrium."""
    eq = solve(game)
    x = [[F(v) for v in row] for row in eq.claim_mix]
    y = tuple(F(v) for v in eq.challenge)
    value = F(eq.value)
    for picks in pure_claimant_strategies(game):  # the claimant minimises
        assert payoff_pure(game, picks, y) >= value - F(1, 10**9)
    for answers in itertools.product((0, 1), repeat=len(game.claims)):  # the challenger
        assert payoff_mixed_claimant(game, x, answers) <= value + F(1, 10**9)
    for row in x:
        assert all(v >= 0 for v in row) and abs(sum(row) - 1) < F(1, 10**12)


def test_two_card_village_by_brute_force() -> None:
    check_by_brute_force(two_card_village())


def two_player_log(seed: int, events: int) -> dict | None:
    """A random two-player standard game cut after ``events`` events, seen from "me"."""
    rng = random.Random(seed)
    deal = list(standard_setup().cards)
    rng.shuffle(deal)
    recording = play_and_record(
        Table(standard_setup(), 2),
        tuple(deal),
        lambda state, moves: rng.choice([m for m in moves if "elder" not in m] or moves),
        names=("me", "bea"),
        perspective=0,
        max_moves=200,
    )
    cut = recording.document["event"][:events]
    return {**recording.document, "event": cut} if len(cut) == events else None


def stage_log(seed: int, events_seed: int, stated: dict | None) -> Log | None:
    """A generated log whose players are both still in, with ``stated`` suspected cards."""
    document = two_player_log(seed, 4 + events_seed % 3)
    if document is None:
        return None
    if stated:
        document["suspected"] = stated
    try:
        log = log_of(document)
    except InputError:  # the log makes more suspected cards certain than ``stated``
        return None
    return log if max(log.marks_now()) < 2 else None


@pytest.mark.parametrize("stated", [None, {"me": 1, "bea": 1}])
@pytest.mark.parametrize("seed", range(5))
def test_lp_against_brute_force_best_responses(seed: int, stated: dict | None) -> None:
    # With a suspected card each, a caught bluff or a wrong challenge ends the game: the
    # stakes where mixing appears (seed 6 of this generator challenges an evil-elder claim
    # half the time).
    log = next(log for s in itertools.count(seed * 10) if (log := stage_log(s, seed, stated)))
    worlds = filter_worlds(log)
    cell = random.Random(seed).randrange(len(CELLS))
    check_by_brute_force(build_stage(worlds, log, "bea", cell))


def test_mixed_challenge_on_a_generated_log() -> None:
    document = two_player_log(6, 4)
    assert document is not None
    document["suspected"] = {"me": 1, "bea": 1}
    log = log_of(document)
    game = build_stage(filter_worlds(log), log, "bea", random.Random(6).randrange(len(CELLS)))
    eq = solve(game)
    assert eq.exact and 0 < eq.challenge[game.claims.index("evil-elder")] < 1
    check_by_brute_force(game)


def test_stage_of_the_example_by_hand() -> None:
    # examples/cunning-folk/two-players.toml: I hold a suspected card, bea none; A1 is a
    # face-up villager, B2 an evil witch I saw. A3 holds one of the 7 other cards: good
    # witch 2/7, good elder, evil witch, evil elder 1/7 each, villager 2/7. An evil-witch
    # claim challenged: true (1/7 of types) ostracises me, -1; a bluff gives bea her first
    # card, 0; accepted, a swap, 0.
    log = log_of(tomllib.loads(TWO.read_text()))
    game = build_stage(filter_worlds(log), log, "bea", CELLS.index("A3"))
    assert game.types == ("good-witch", "good-elder", "evil-witch", "evil-elder", "villager")
    assert game.prior == (F(2, 7), F(1, 7), F(1, 7), F(1, 7), F(2, 7))
    j = game.claims.index("evil-witch")
    assert [row[j] for row in game.challenge] == [0, 0, -1, 0, 0]
    assert [row[j] for row in game.accept] == [0] * 5
    check_by_brute_force(game)


def test_cli_json_holds_the_stage_game(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["cunning-folk", "equilibrium", str(TWO), "--format", "json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["finished"] and out["exact"]
    assert out["cell"] == "A3" and out["claimant"] == "bea"
    assert [t["probability"] for t in out["stage_game"]["types"]] == [
        "2/7",
        "1/7",
        "1/7",
        "1/7",
        "2/7",
    ]
    assert F(out["value"]["me"]) == -F(out["value"]["bea"])
    assert "knowledge" in out["assumptions"]


def test_cli_three_players_need_a_pending_claim(tmp_path: Path) -> None:
    document = tomllib.loads(
        (ROOT / "examples" / "cunning-folk" / "pending-claim.toml").read_text()
    )
    document["event"] = document["event"][:-1]
    path = tmp_path / "log.toml"
    path.write_text(dump_log(document))
    result = CliRunner().invoke(cli, ["cunning-folk", "equilibrium", str(path), "--cell", "C3"])
    assert result.exit_code == 2
    assert "a pending claim with 3 players" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_cli_needs_a_cell_without_pending_claim(tmp_path: Path) -> None:
    document = two_player_log(1, 3)
    assert document is not None
    document["event"] = [e for e in document["event"] if e["type"] == "pass"][:1] or []
    path = tmp_path / "log.toml"
    path.write_text(dump_log(document))
    result = CliRunner().invoke(cli, ["cunning-folk", "equilibrium", str(path)])
    assert result.exit_code == 2 and "--cell" in result.stderr
    result = CliRunner().invoke(cli, ["cunning-folk", "equilibrium", str(path), "--cell", "B3"])
    assert result.exit_code == 0, result.output
    assert "claim stage at B3" in result.stdout


def test_readme_example_by_hand() -> None:
    # The worked example (README "Equilibrium"; the reasoning is there): bea bluffs "good
    # elder" with the evil elder 2 times in 3, I challenge 1 time in 2, value -1/12 to me.
    # (tests/test_docs.py runs the README's command and compares what it prints.)
    section = (ROOT / "README.md").read_text().split("### Equilibrium: how often", 1)[1]
    command = re.search(r"```console\n\$ ruleslawyer (cunning-folk equilibrium [^\n]+)\n", section)
    assert command
    out = json.loads(
        CliRunner().invoke(cli, [*command.group(1).split(), "--format", "json"]).output
    )
    assert out["claim_strategy"]["evil-elder"] == {
        "pass": "1/3",
        "good-witch": "0",
        "good-elder": "2/3",
        "evil-witch": "0",
        "evil-elder": "0",
        "villager": "0",
    }
    assert out["challenge_probability"]["good-elder"]["probability"] == "1/2"
    assert out["value"] == {"me": "-1/12", "bea": "1/12"}


def test_advise_shows_the_equilibrium_beside_the_prior() -> None:
    result = CliRunner().invoke(cli, ["cunning-folk", "advise", str(TWO), "--format", "json"])
    assert result.exit_code == 0, result.output
    claim = json.loads(result.output)["claim"]
    assert claim["true_fraction"] == "1/7"
    # At equilibrium bea always claims good-elder (see the CLI test above): an evil-witch
    # claim is off the path and my value is the stage's, -2/21.
    assert claim["equilibrium"]["on_path"] is False
    assert claim["equilibrium"]["position_value"] == "-2/21"
    three = ROOT / "examples" / "cunning-folk" / "pending-claim.toml"
    text = CliRunner().invoke(cli, ["cunning-folk", "advise", str(three)]).output
    assert "at equilibrium: not computed here (3 players" in text


def test_floats_when_no_fraction_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    # With no denominator to try, the LP's floats are shown, marked not exact, with the
    # measured best-response gap (under 1e-9 here).
    from ruleslawyer.solvers.cunning_folk import equilibrium as module

    monkeypatch.setattr(module, "DENOMINATORS", ())
    eq = solve(two_card_village())
    assert not eq.exact and eq.gap <= 1e-9
    assert abs(eq.challenge[0] - 0.2) <= 1e-9 and abs(eq.value + 0.15) <= 1e-9


def test_budget_says_finished_false(monkeypatch: pytest.MonkeyPatch) -> None:
    short = CliRunner().invoke(
        cli, ["cunning-folk", "equilibrium", str(TWO), "--max-seconds", "1e-9", "--format", "json"]
    )
    assert short.exit_code == 3 and json.loads(short.output)["finished"] is False
    from ruleslawyer.errors import BudgetExceeded
    from ruleslawyer.solvers.cunning_folk import equilibrium as module

    def cut(*args: object, **kwargs: object) -> None:
        raise BudgetExceeded("plan")

    monkeypatch.setattr(module, "elder_plans", cut)
    result = CliRunner().invoke(cli, ["cunning-folk", "equilibrium", str(TWO)])
    assert result.exit_code == 3
    assert result.output.startswith("finished: false (the time budget ended before the elder")
