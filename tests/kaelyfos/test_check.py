"""``ruleslawyer check kaelyfos`` and ``ruleslawyer kaelyfos step`` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.budget import Budget
from ruleslawyer.checks.kaelyfos import check, positions
from ruleslawyer.cli.main import cli
from ruleslawyer.gamefiles.source import load_source
from ruleslawyer.gamefiles.tomlwriter import dumps
from ruleslawyer.models.kaelyfos.points import NOT_MODELLED

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def report() -> dict:
    result = CliRunner().invoke(cli, ["check", "kaelyfos", "--format", "json"])
    assert result.exit_code == 1, result.output
    (game,) = json.loads(result.output)["games"]
    return game


def _finding(game: dict, point: str) -> dict:
    return next(f for f in game["findings"] if f["id"] == point)


def test_attack_removal_is_a_contradiction_with_a_witness(report: dict) -> None:
    f = _finding(report, "kaelyfos/attack-removal")
    assert (f["kind"], f["status"], f["finished"]) == ("contradiction", "open", True)
    results = f["witness"]["results"]
    assert set(results) == {"supply", "removed-from-play"}
    assert results["supply"]["supply"] == results["removed-from-play"]["supply"] + 1


def test_every_point_parts_or_is_proved_quiet_on_the_built_in_board(report: dict) -> None:
    kinds = {f["id"]: f["kind"] for f in report["findings"]}
    assert kinds["kaelyfos/pheromone-tie"] == kinds["kaelyfos/move-order"] == "gap"
    assert kinds["kaelyfos/unreachable-explorer"] == "info"
    # Four behaviour cards, two triggers, one card per trigger reached: no reachable
    # timeline reaches a trigger with the deck empty, so the readings never part.
    assert kinds["kaelyfos/exhausted-deck"] == "info"
    assert {
        kinds[p]
        for p in kinds
        if p
        not in (
            "kaelyfos/attack-removal",
            "kaelyfos/pheromone-tie",
            "kaelyfos/move-order",
            "kaelyfos/unreachable-explorer",
            "kaelyfos/exhausted-deck",
            "kaelyfos/which-trap",
            *NOT_MODELLED,
        )
    } == {"ambiguity"}
    # One build site per node: no node ever holds two traps (proved without searching).
    assert kinds["kaelyfos/which-trap"] == "info"
    # Rules out of the model's reach are info findings that say so.
    assert {kinds[p] for p in NOT_MODELLED} == {"info"}


@pytest.mark.parametrize(
    "point",
    [
        "kaelyfos/attack-removal",
        "kaelyfos/trap-distance-tie",
        "kaelyfos/stop-at-explorer",
        "kaelyfos/pheromone-tie",
        "kaelyfos/move-order",
        "kaelyfos/scarab-passable",
    ],
)
def test_witnesses_replay_with_step(report: dict, point: str, tmp_path) -> None:
    # Write the witness as a position file; step must reproduce each reading's result.
    witness = _finding(report, point)["witness"]
    doc = dict(witness["position"])
    card = doc.pop("card")
    path = tmp_path / "w.toml"
    path.write_text(dumps(doc, tables={"card": card}), "utf-8")
    for label, expected in witness["results"].items():
        args = ["kaelyfos", "step", str(path), "--format", "json"]
        if point.split("/")[1] not in ("pheromone-tie", "move-order"):
            args += ["--ruling", f"{point}={label}"]
        out = json.loads(CliRunner().invoke(cli, args).output)
        if "--ruling" in args:
            assert out["result"] == expected
        else:
            (choice,) = [c for c in out["choices"] if c["point"] == point]
            assert {o["option"]: o["result"] for o in choice["options"]}[label] == expected


def test_witness_is_smallest(report: dict) -> None:
    # No position with fewer pieces parts attack-removal: it needs an explorer to attack,
    # and the search found it with one piece at move 1.
    w = _finding(report, "kaelyfos/attack-removal")["witness"]["position"]
    assert len(w["explorers"]) == 1 and not w["bloodsuckers"] and not w["traps"]
    assert w["card"]["move"] == 1


def test_ruling_resolves_the_point() -> None:
    result = CliRunner().invoke(
        cli,
        ["check", "kaelyfos", "--format", "json", "--ruling", "kaelyfos/attack-removal=supply"],
    )
    (game,) = json.loads(result.output)["games"]
    f = _finding(game, "kaelyfos/attack-removal")
    assert f["status"] == "resolved" and game["rulings"] == {"kaelyfos/attack-removal": "supply"}


def test_budget_cut_is_unfinished_never_clean() -> None:
    findings = check(load_source("kaelyfos"), {}, Budget(max_states=1))
    open_points = [f for f in findings if f.witness is None and f.searched]
    assert open_points and all(not f.finished for f in open_points)
    assert all(f.kind.value != "info" for f in open_points)


def test_positions_come_smallest_first() -> None:
    from itertools import islice

    from ruleslawyer.graphs.board import parse_board

    source = load_source("kaelyfos")
    board = parse_board(source.document, source.display)
    sizes = [
        (
            len(p.explorers)
            + sum(n for _, n in p.bloodsuckers)
            + sum(1 + t.caught for t in p.traps)
            + len(p.actions),
            p.card.move,
        )
        for p in islice(positions(board), 5000)
    ]
    assert sizes == sorted(sizes)


def test_step_json_shape() -> None:
    result = CliRunner().invoke(
        cli, ["kaelyfos", "step", str(ROOT / "examples/kaelyfos/swarm.toml"), "--format", "json"]
    )
    assert result.exit_code == 0
    out = json.loads(result.output)
    assert set(out) == {"schema_version", "finished", "rulings", "result", "divergences", "choices"}
    assert out["finished"] is True
    assert set(out["result"]) == {
        "bloodsuckers",
        "traps",
        "supply",
        "removed_from_play",
        "trap_tokens",
        "distress",
        "nightmares",
    }
    assert out["rulings"]["kaelyfos/attack-removal"] == "supply"
    assert {d["point"] for d in out["divergences"]} >= {"kaelyfos/attack-removal"}
    for d in out["divergences"]:
        assert set(d) == {"point", "reading", "result"}


def test_step_text_names_the_result() -> None:
    result = CliRunner().invoke(
        cli, ["kaelyfos", "step", str(ROOT / "examples/kaelyfos/swarm.toml")]
    )
    assert result.exit_code == 0
    assert result.output.startswith("result:\n  bloodsuckers: 2 exterior-facedown-2")


@pytest.mark.parametrize("example", sorted((ROOT / "examples" / "kaelyfos").glob("*.toml")))
def test_examples_run(example: Path) -> None:
    if "board" in example.name:
        args = ["check", str(example)]
    elif "timeline" in example.name:
        args = ["kaelyfos", "advance", str(example)]
    elif "advise" in example.name:
        args = ["kaelyfos", "advise", str(example)]
    else:
        args = ["kaelyfos", "step", str(example)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code in ((0, 1) if args[0] == "check" else (0,)), result.output


def test_proofs_settle_points_a_board_cannot_part(tmp_path) -> None:
    import dataclasses

    from ruleslawyer.graphs.board import dump_board
    from tests.kaelyfos.helpers import board

    b = board()
    distinct = tuple(
        dataclasses.replace(e, dots=(2 * i + 1, 2 * i + 2)) for i, e in enumerate(b.edges)
    )
    path = tmp_path / "distinct.toml"
    path.write_text(dump_board(dataclasses.replace(b, edges=distinct)), "utf-8")
    findings = {f.id: f for f in check(load_source(str(path)), {}, Budget())}
    tie = findings["kaelyfos/pheromone-tie"]
    assert (tie.kind.value, tie.finished, tie.searched) == ("info", True, 0)
    tiny = {
        f.id: f
        for f in check(load_source(str(ROOT / "examples/kaelyfos/tiny-board.toml")), {}, Budget())
    }
    assert tiny["kaelyfos/scarab-passable"].kind.value == "info"
    assert tiny["kaelyfos/attack-removal"].witness is not None


def test_unreachable_gap_appears_when_face_down_cards_close() -> None:
    findings = {
        f.id: f
        for f in check(load_source("kaelyfos"), {"kaelyfos/unrevealed-passable": "no"}, Budget())
    }
    gap = findings["kaelyfos/unreachable-explorer"]
    assert gap.kind.value == "gap" and gap.witness is not None
    assert gap.witness.position["explorers"]  # someone stands where no path leads


def test_kaelyfos_group_help_is_light() -> None:
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from ruleslawyer.cli.main import cli\n"
        "try:\n"
        "    cli(['kaelyfos', '--help'], prog_name='ruleslawyer')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('z3', 'numba', 'networkx', 'pydantic') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert "step" in out and out.strip().endswith("[]"), out


def test_step_rulings_layer_board_then_position_then_option(tmp_path) -> None:
    import dataclasses

    from ruleslawyer.graphs.board import dump_board
    from tests.kaelyfos.helpers import board

    ruled = dataclasses.replace(
        board(), rulings=(("kaelyfos/attack-removal", "removed-from-play"),)
    )
    (tmp_path / "b.toml").write_text(dump_board(ruled), "utf-8")
    example = (ROOT / "examples/kaelyfos/pheromone-tie.toml").read_text("utf-8")
    (tmp_path / "p.toml").write_text(example.replace('"kaelyfos"', '"b.toml"', 1), "utf-8")

    def run(*extra: str) -> dict:
        args = ["kaelyfos", "step", str(tmp_path / "p.toml"), "--format", "json", *extra]
        return json.loads(CliRunner().invoke(cli, args).output)

    out = run()
    assert out["rulings"]["kaelyfos/attack-removal"] == "removed-from-play"
    assert out["result"]["removed_from_play"] == 1 and not out["divergences"]
    out = run("--ruling", "kaelyfos/attack-removal=supply")
    assert out["result"]["removed_from_play"] == 0


def test_a_default_against_the_faq_says_why(report: dict) -> None:
    # FAQ: 'Bloodsuckers caught in traps count as "bloodsuckers" where effects are
    # concerned.' The default trapped-attack=no leans the other way, so its finding must
    # say why (the Traps sentence) and how to follow the FAQ instead.
    f = _finding(report, "kaelyfos/trapped-attack")
    assert f["readings"][0]["name"] == "no"
    assert 'The FAQ leans toward "yes"' in f["message"]
    assert "even if explorers are also present" in f["message"]
    assert "--ruling kaelyfos/trapped-attack=yes" in f["message"]
