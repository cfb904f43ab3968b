"""The claim stage under both readings of ``cunning-folk/challenge-order``: from the left
(each answerer sees the earlier answers) and first-to-speak (nobody sees another's answer;
where several challenge, each is equally likely to have spoken first)."""

from __future__ import annotations

import itertools
import json
import tomllib
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.solvers.cunning_folk import cfr
from ruleslawyer.solvers.cunning_folk.advise import pending_claim
from ruleslawyer.solvers.cunning_folk.equilibrium import stage_log
from tests.cunning_folk.helpers import log_of, marks_table

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "cunning-folk"
THREE = EXAMPLES / "pending-claim.toml"
RULING = "cunning-folk/challenge-order"
F = Fraction


def synthetic(order: str, utility: np.ndarray, classes: int = 1, outcomes: int = 1, seed: int = 0):
    """A stage with one claimant type making claims 1 and 2 (no pass), two or three
    answerers with ``classes`` information states each, and ``utility`` given."""
    rng = np.random.default_rng(seed)
    n, _, masks, n_o = utility.shape
    m = n - 1
    assert masks == 2**m and n_o == outcomes
    allowed = np.zeros((1, len(cfr.ACTIONS)), dtype=bool)
    allowed[0, 1:3] = True
    cls = rng.integers(0, classes, size=(m, n_o)) if classes > 1 else np.zeros((m, n_o), int)
    cls[:, :classes] = np.arange(classes)  # every class occurs
    weight = rng.random((n, n_o)) + 0.1
    weight[0] /= weight[0].sum()
    for j in range(m):
        for h in range(classes):
            weight[j + 1, cls[j] == h] /= weight[j + 1, cls[j] == h].sum()
    prior = rng.random(n_o) + 0.1
    return cfr.MultiStage(
        players=tuple(f"P{i}" for i in range(n)),
        cell=0,
        types=(("all", "x"),),
        allowed=allowed,
        classes=tuple(tuple(str(h) for h in range(classes)) for _ in range(m)),
        kind=np.zeros(n_o, dtype=np.int64),
        cls=cls,
        weight=weight,
        prior=prior / prior.sum(),
        utility=utility,
        order=order,
    )


def pennies() -> np.ndarray:
    # Answerers A (first from her left, bit 0) and B (bit 1): A gains when the two answer
    # alike, B when they differ (matching pennies); the claimant is indifferent.
    utility = np.zeros((3, len(cfr.ACTIONS), 4, 1))
    for mask in range(4):
        alike = (mask & 1) == (mask >> 1 & 1)
        utility[1, :, mask, 0] = 1.0 if alike else -1.0
        utility[2, :, mask, 0] = -utility[1, :, mask, 0]
    return utility


def test_hand_worked_stage_differs_by_reading() -> None:
    # From the left B sees A's answer and answers the other way: B +1, A -1 whatever A
    # does (B challenges after A's accept, accepts after A's challenge).
    # First-to-speak, nobody sees another's answer: matching pennies, whose only
    # equilibrium has each challenging with probability 1/2, each worth 0.
    a = cfr.ACTIONS.index("good-witch")
    left = cfr.solve(synthetic("from-left", pennies()), iterations=2000, target=0)
    assert left.values[1:] == pytest.approx((-1.0, 1.0), abs=1e-3)
    b = left.profile.answerer(1, True)
    assert b[0, a, 0, 1] == pytest.approx(1.0, abs=1e-3)  # A accepted: B challenges
    assert b[0, a, 1, 1] == pytest.approx(0.0, abs=1e-3)  # A challenged: B accepts
    speak = cfr.solve(synthetic("first-to-speak", pennies()), iterations=2000, target=0)
    assert speak.values[1:] == pytest.approx((0.0, 0.0), abs=0.02)
    assert speak.profile.answerer(1, True).shape[2] == 1  # one set: A's answer unseen
    for j in (0, 1):
        assert speak.profile.answerer(j, True)[0, a, 0, 1] == pytest.approx(0.5, abs=0.02)
    assert speak.nash_conv <= 0.01 and left.nash_conv <= 0.01


def brute_nash_conv(profile: cfr.Profile) -> float:
    """NashConv by enumerating every pure strategy of each answerer in each class (one
    answer per information set: per claim and earlier answers he sees) and each claimant
    action, the probability of each set of challengers multiplied out answerer by answerer."""
    game = profile.game
    sigma = profile.claimant(True)
    answers = [profile.answerer(j, True) for j in range(game.answerers)]
    m, n_o = game.answerers, len(game.kind)
    claims = [a for a in range(len(cfr.ACTIONS)) if game.allowed[0, a]]

    def value(player: int, a: int, o: int, plays: list[np.ndarray]) -> float:
        total = 0.0
        for mask in range(2**m):
            p = 1.0
            for k in range(m):
                seen = game.seen(k, mask & ((1 << k) - 1))
                c = plays[k][game.cls[k, o], a, seen, 1]
                p *= c if mask >> k & 1 else 1 - c
            total += p * game.utility[player, a, mask, o]
        return total

    conv = 0.0
    for j in range(m):
        sets = [(a, s) for a in claims for s in range(game.sets(j))]
        for h in range(len(game.classes[j])):
            outs = [o for o in range(n_o) if game.cls[j, o] == h]
            mass = sum(game.prior[o] for o in outs)

            def mine(plays: list[np.ndarray], j: int = j, outs: list[int] = outs) -> float:
                return sum(
                    game.weight[j + 1, o] * sigma[0, a] * value(j + 1, a, o, plays)
                    for o in outs
                    for a in claims
                )

            now = mine(answers)
            best = now
            for choice in itertools.product((0, 1), repeat=len(sets)):
                pure = answers[j].copy()
                for (a, s), b in zip(sets, choice, strict=True):
                    pure[h, a, s] = (1 - b, b)
                best = max(best, mine([*answers[:j], pure, *answers[j + 1 :]]))
            conv += mass * (best - now)
    worth = [sum(game.weight[0, o] * value(0, a, o, answers) for o in range(n_o)) for a in claims]
    conv += max(worth) - sum(sigma[0, a] * w for a, w in zip(claims, worth, strict=True))
    return conv


@pytest.mark.parametrize("order", ["first-to-speak", "from-left"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_nash_conv_matches_a_brute_force_best_response(order: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    answerers = 2 + seed % 2  # three and four players
    utility = rng.uniform(-1, 1, size=(answerers + 1, len(cfr.ACTIONS), 2**answerers, 5))
    game = synthetic(order, utility, classes=2, outcomes=5, seed=seed)
    approx = cfr.solve(game, iterations=3 + seed, target=0, every=100)  # far from equilibrium
    assert approx.nash_conv > 0.01
    assert approx.nash_conv == pytest.approx(brute_nash_conv(approx.profile), abs=1e-9)


def three_players(order: str, multiple: str) -> cfr.MultiStage:
    document = tomllib.loads(THREE.read_text())
    document["suspected"] = {"me": 1, "bea": 1, "cal": 1}
    document["rulings"] = {RULING: order, "cunning-folk/multiple-challengers": multiple}
    log = log_of(document)
    base = stage_log(log, pending_claim(document, log))
    return cfr.build_multi_stage(base, "bea", 8, marks_table(F(-1, 2), F(1, 2)))  # C3


def test_several_challengers_each_equally_likely_first() -> None:
    # Everyone holds a suspected card; bea's good-elder claim in C3 is true where the card
    # is the good elder, and cal (her left) and I both challenge. Under first-challenger
    # only the first pays (ostracised). From the left that is cal, and my value is v (bea's
    # run against me). First-to-speak, cal or I spoke first, each half the time: my value
    # is (v + (-1)) / 2, I being ostracised when I spoke first.
    ge = cfr.ACTIONS.index("good-elder")
    left = three_players("from-left", "first-challenger")
    speak = three_players("first-to-speak", "first-challenger")
    me = left.players.index("me")
    true = [o for o in range(len(left.kind)) if left.types[left.kind[o]][1] == "good-elder"]
    assert true
    for o in true:
        v = left.utility[me, ge, 0b11, o]
        assert speak.utility[me, ge, 0b11, o] == pytest.approx((v - 1) / 2)
        assert len(speak.leaves[(ge, 0b11, o)]) == 2
    # one challenger, or every challenger paying: who spoke first does not matter
    assert np.array_equal(left.utility[:, :, :3], speak.utility[:, :, :3])
    each = three_players("from-left", "each-challenger")
    each_speak = three_players("first-to-speak", "each-challenger")
    assert np.array_equal(each.utility, each_speak.utility)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["cunning-folk", *args])
    return result.exit_code, result.stdout


@pytest.mark.parametrize("command", ["equilibrium", "advise"])
def test_two_players_the_readings_agree(command: str) -> None:
    # One answerer: nobody's answer comes before or beside his, so the readings agree.
    path = str(EXAMPLES / "two-players.toml")
    outs = []
    for order in ("from-left", "first-to-speak"):
        code, out = run(command, path, "--format", "json", "--ruling", f"{RULING}={order}")
        assert code == 0, out
        figures = json.loads(out)
        assert figures["rulings"][RULING] == order
        outs.append({k: v for k, v in figures.items() if k != "rulings"})
    assert outs[0] == outs[1]


def first_to_speak(command: str) -> tuple[dict, str]:
    """``command``'s JSON and text on the three-player example under first-to-speak."""
    ruling = ("--ruling", f"{RULING}=first-to-speak")
    code, out = run(command, str(THREE), "--format", "json", *ruling)
    assert code == 0, out
    code, text = run(command, str(THREE), *ruling)
    assert code == 0, text
    figures = json.loads(out)
    assert figures["finished"] is True
    return figures, text


def test_cli_three_players_first_to_speak() -> None:
    figures, text = first_to_speak("equilibrium")
    who = figures["assumptions"]["who_may_challenge"]
    assert "challenge-order=first-to-speak" in who and "from-left" not in who
    assert figures["stage_game"]["challenge_order"] == "first-to-speak"
    rows = figures["challenge_probability"].values()
    assert all(" (" not in key for row in rows for key in row)  # no earlier answers
    assert "equally likely to have spoken first" in text
    assert "from bea's left" not in text and "none seeing another's answer" in text.splitlines()[0]
    figures, text = first_to_speak("advise")
    who = figures["assumptions"]["answerers"]
    assert "challenge-order=first-to-speak" in who and "from-left" not in who
    others = figures["claim"]["answerers"]
    assert others["challenge_order"] == "first-to-speak"
    assert others["your_turn_probability"] == pytest.approx(1.0)
    assert [o["answers"] for o in others["others"]] == ["not seeing yours"]
    assert "nobody sees another's answer" in text
