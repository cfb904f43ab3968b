"""``kaelyfos balance``: a hand-worked tiny board, the brute-force reference, the CLI."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.models.kaelyfos.files import load_board
from ruleslawyer.models.kaelyfos.points import in_force
from ruleslawyer.models.kaelyfos.resolve import Card, Position
from ruleslawyer.models.kaelyfos.setup import explorer_sites
from ruleslawyer.solvers.kaelyfos.advise import TIE_READINGS
from ruleslawyer.solvers.kaelyfos.balance import balance
from ruleslawyer.solvers.kaelyfos.reference import reference_balance
from tests.kaelyfos.helpers import board
from tests.kaelyfos.test_advise import _permuted

ROOT = Path(__file__).resolve().parents[2]
TINY = (ROOT / "examples/kaelyfos/tiny-board.toml").read_text()
ONE_AND_ALL = TINY.split("[[behavior]]")[0] + (
    '[[behavior]]\nname = "One"\nspawn = ["A"]\nmove = 1\n\n'
    '[[behavior]]\nname = "All"\nspawn = ["C", "B", "A"]\nmove = 1\n'
)


def _tiny(tmp_path: Path) -> Path:
    path = tmp_path / "one-and-all.toml"
    path.write_text(ONE_AND_ALL)
    return path


def _figures(value) -> tuple[Fraction, Fraction, int]:
    return value.key()


def test_hand_worked_tiny_board(tmp_path: Path) -> None:
    # A line: scarab - glowing fold - bony protrusion - exterior orifice - interior
    # orifice - vesicle cluster; the nests go on the fold, the protrusion and the cluster.
    # ada on the bony protrusion, no material. "All" (spawn C, B, A; move 1) puts one
    # bloodsucker on each nest: the protrusion's starts on ada and stays, the fold's
    # moves 1 onto ada, the cluster's moves 1 to the interior orifice: 2 distress, 1
    # nightmare (one a turn), whatever the deal. "One" (spawn A; move 1): 1 distress when
    # A is on the protrusion or the fold (4 of the 6 deals), 0 on the cluster.
    b, _ = load_board(str(_tiny(tmp_path)))
    out = balance(b, (("ada", "bony-protrusion"),), 0, 1, {})
    assert out.finished and len(out.rows) == 6
    for row in out.rows:
        one = 0 if dict(row.nests)["A"] == "vesicle-cluster" else 1
        cards = {n: _figures(v) for n, v in row.cards}
        assert cards == {"All": (2, 1, 2), "One": (one, one, one)}
        assert _figures(row.value) == (Fraction(2 + one, 2), Fraction(1 + one, 2), 2)
        assert row.label == "nothing"
    per_card = {n: _figures(v) for n, v in out.per_card()}
    assert per_card == {"All": (2, 1, 2), "One": (Fraction(2, 3), Fraction(2, 3), 1)}
    overall = out.overall()
    assert overall is not None and _figures(overall) == (Fraction(4, 3), Fraction(5, 6), 2)


def test_the_start_on_the_scarab_is_never_attacked(tmp_path: Path) -> None:
    # "Bloodsuckers completely ignore the Scarab and any explorers on it."
    for b in (load_board(str(_tiny(tmp_path)))[0], board()):
        out = balance(b, (), 0, 2, {})
        assert out.explorers == (("crew", "scarab"),) and not out.stated
        assert all(_figures(v)[0] == 0 for r in out.rows for _, v in r.cards)
        assert "the crew on the Scarab" in out.model()


@st.composite
def _placements(draw) -> tuple[tuple[str, str], ...]:
    nodes = draw(st.lists(st.sampled_from(explorer_sites(board())), min_size=1, max_size=2))
    return tuple((f"e{i}", n) for i, n in enumerate(nodes))


@settings(max_examples=12, deadline=None)
@given(
    _placements(),
    st.integers(0, 1),
    st.integers(1, 2),
    st.sampled_from(
        [{}, {"kaelyfos/spawn-into-trap": "caught"}, {"kaelyfos/nightmare-limit": "per-crew"}]
    ),
    st.sampled_from(list(TIE_READINGS)),
)
def test_matches_brute_force(
    placed: tuple[tuple[str, str], ...],
    material: int,
    triggers: int,
    rulings: dict[str, str],
    ties: str,
) -> None:
    b = board()
    out = balance(b, placed, material, triggers, rulings, Budget(), ties)
    start = Position(b, (), b.supply, Card((), 0), tuple(sorted(placed)))
    brute = reference_balance(start, material, triggers, in_force(rulings), ties)
    assert sorted(brute) == [r.nests for r in out.rows]
    for row in out.rows:
        options = brute[row.nests]
        # the crew's first option is the best sequence the brute force finds...
        assert min(total for total, _ in options.values()) == row.value.key()
        # ...and its figures given each first card are the brute force's for that sequence
        total, per_card = options[row.actions]
        assert total == row.value.key()
        assert per_card == {n: v.key() for n, v in row.cards}


def test_block_order_never_changes_the_figures() -> None:
    placed = (("ada", "bony-protrusion"), ("ben", "exterior-orifice"))
    here = balance(board(), placed, 1, 2, {}).to_json()
    for seed in (1, 2):
        assert balance(_permuted(seed), placed, 1, 2, {}).to_json() == here


ARGS = ["kaelyfos", "balance", "--explorer", "ada=bony-protrusion", "--material", "1"]


def test_cli_text_json_and_output(tmp_path: Path) -> None:
    runner = CliRunner()
    text = runner.invoke(cli, ARGS)
    assert text.exit_code == 0, text.output
    assert text.output.startswith("model: every deal of the nests A, B, C")
    assert "between triggers the explorers stay put" in text.output
    assert "discovery die and the nightmare cards are not in the seed" in text.output
    assert "exact (every deal and every card enumerated, nothing sampled)" in text.output
    assert text.output == runner.invoke(cli, ARGS).output  # deterministic
    doc = json.loads(runner.invoke(cli, [*ARGS, "--format", "json"]).output)
    assert doc["finished"] is True and doc["exact"] is True and doc["deals_done"] == 6
    assert set(doc["per_first_card"]) == {"Frenzy", "Hunt", "Prowl", "Swarm"}
    out = tmp_path / "balance.txt"
    assert runner.invoke(cli, [*ARGS, "-o", str(out)]).exit_code == 0
    assert out.read_text() == text.output


def test_cli_ruling_changes_the_figures() -> None:
    runner = CliRunner()
    plain = json.loads(runner.invoke(cli, [*ARGS, "--format", "json"]).output)
    ruled = runner.invoke(
        cli, [*ARGS, "--format", "json", "--ruling", "kaelyfos/spawn-into-trap=caught"]
    )
    doc = json.loads(ruled.output)
    assert doc["rulings"]["kaelyfos/spawn-into-trap"] == "caught"
    assert doc["overall"] != plain["overall"]


def test_cli_unfinished_exits_3() -> None:
    result = CliRunner().invoke(cli, [*ARGS, "--triggers", "6", "--max-seconds", "1e-9"])
    assert result.exit_code == 3, result.output
    assert "finished: false" in result.output
    assert "per first card and overall: not given" in result.output


def test_cli_sampled_policies_add_up_and_replay() -> None:
    # --policy random: sampled games through the OpenSpiel game, every figure labelled
    # with its sample; the same seed gives the same bytes.
    args = [*ARGS, "--policy", "random", "--games", "40", "--seed", "3", "--format", "json"]
    first, again = CliRunner().invoke(cli, args), CliRunner().invoke(cli, args)
    assert first.exit_code == 0 and first.output == again.output
    doc = json.loads(first.output)
    assert (doc["policy"], doc["exact"], doc["games"], doc["seed"]) == ("random", False, 40, 3)
    assert doc["sampled"] == "sampled: 40 games" and doc["finished"] is True
    assert sum(m["n"] for m in doc["per_first_card"].values()) == 40
    assert sum(row["distress"]["n"] for row in doc["per_deal"]) == 40
    low, high = doc["distress"]["interval95"]
    assert 0 <= low <= doc["distress"]["mean"] <= high
    cut = CliRunner().invoke(cli, [*ARGS, "--policy", "random", "--max-seconds", "1e-9"])
    assert cut.exit_code == 3 and "distress: no games" in cut.output
    assert cut.output.endswith("finished: false (the --max-seconds budget ran out)\n")


def test_cli_mcts_crew_reaches_the_exact_figures(tmp_path: Path) -> None:
    # The tiny board's one card is certain: per deal, the crew's best play gives a fixed
    # distress (the exact figures of --policy advise). OpenSpiel's MCTS crew, searching
    # the OpenSpiel game, plays that well in every sampled game: each deal's sampled
    # distress is the exact one, every time.
    board = str(ROOT / "examples/kaelyfos/tiny-board.toml")
    base = ["kaelyfos", "balance", board, "--explorer", "ada=bony-protrusion", "--material", "1"]
    exact = json.loads(CliRunner().invoke(cli, [*base, "--format", "json"]).output)
    sampled = CliRunner().invoke(cli, [*base, "--policy", "mcts", "--games", "12",
                                       "--simulations", "60", "--format", "json"])  # fmt: skip
    doc = json.loads(sampled.output)
    assert doc["agent"]["simulations"] == 60 and doc["agent"]["uct_c"] == 2.0
    figures = {tuple(sorted(r["nests"].items())): r for r in exact["per_deal"]}
    for row in doc["per_deal"]:
        want = figures[tuple(sorted(row["nests"].items()))]["expected_distress_float"]
        assert row["distress"]["mean"] == want and row["distress"]["most"] == want
    text = CliRunner().invoke(cli, [*base, "--policy", "mcts", "--games", "2"]).output
    assert "agent mcts: OpenSpiel's MCTS" in text and "sampled: 2 games" in text


def test_cli_sampled_options_need_their_policy() -> None:
    for args, needle in (
        (["--games", "5"], "--games and --seed need --policy mcts or random"),
        (["--policy", "mcts", "--open-ties", "worst"], "--open-ties worst is for --policy advise"),
        (["--policy", "random", "--simulations", "5"], "need --policy mcts"),
        (["--policy", "clever"], "clever"),
    ):
        result = CliRunner().invoke(cli, [*ARGS, *args])
        assert result.exit_code == 2 and needle in result.output, (args, result.output)


def test_bad_input_one_line(tmp_path: Path) -> None:
    no_deck = tmp_path / "no-deck.toml"
    no_deck.write_text(TINY.split("[[behavior]]")[0])
    cases = [
        (["--explorer", "ada"], "options: --explorer[0]:"),
        (["--explorer", "ada=nowhere"], "options: --explorer[0]: found 'nowhere'"),
        (["--explorer", "ada=scarab", "--explorer", "ada=glowing-fold"], "--explorer[1]"),
        ([str(no_deck)], f"{no_deck}: behavior:"),
        ([str(tmp_path / "missing.toml")], "missing.toml"),
    ]
    for args, expected in cases:
        result = CliRunner().invoke(cli, ["kaelyfos", "balance", *args])
        assert result.exit_code == 2, (args, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0], (args, result.output)


def test_divergences_are_the_figures_under_that_reading() -> None:
    placed = (("ada", "bony-protrusion"), ("ben", "exterior-orifice"))
    out = balance(board(), placed, 1, 1, {})
    points = {p: (r, other) for p, r, other in out.divergences}
    assert "kaelyfos/trapped-attack" in points
    reading, other = points["kaelyfos/trapped-attack"]
    ruled = balance(board(), placed, 1, 1, {"kaelyfos/trapped-attack": reading})
    assert (ruled.per_card(), ruled.overall()) == (other.per_card(), other.overall())
    assert "kaelyfos/trapped-attack" not in {p for p, _, _ in ruled.divergences}
    assert ruled.overall() != out.overall()
