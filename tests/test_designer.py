"""The designer's workflow, run on the example repository under examples/designer-repo.

Each test copies the example to a temporary folder and runs the commands its
README shows, through the real CLI.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "designer-repo"
CROSSING = '\n[[edge]]\nbetween = ["bony-protrusion", "vesicle-cluster"]\ndots = [0, 0]\n'


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    target = tmp_path / "designer-repo"
    shutil.copytree(EXAMPLE, target)
    monkeypatch.chdir(target)
    return target


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def ci_check(*extra: str):
    return run("check", "board.toml", "--baseline", "ruleslawyer-baseline.json", *extra)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_example_is_green_against_its_baseline(repo: Path) -> None:
    assert run("check", "board.toml").exit_code == 1  # the known gaps fail without the baseline
    result = ci_check()
    assert result.exit_code == 0, result.output
    assert "0 finding(s) at or above --fail-on" in result.output


def test_committed_baseline_is_what_baseline_writes(repo: Path) -> None:
    result = run("baseline", "board.toml", "-o", "fresh.json")
    assert result.exit_code == 0, result.output
    assert (repo / "fresh.json").read_text() == (repo / "ruleslawyer-baseline.json").read_text()


def test_a_second_edge_across_the_halves_fails_with_a_data_error(repo: Path) -> None:
    (repo / "board.toml").write_text(
        (repo / "board.toml").read_text().split("\n[rulings]")[0] + CROSSING
    )
    result = ci_check("--format", "json")
    assert result.exit_code == 1
    findings = json.loads(result.output)["games"][0]["findings"]
    errors = [f for f in findings if f["fails"] and f["kind"] == "data-error"]
    assert [f["id"] for f in errors] == ["kaelyfos/data/halves"]
    assert "vesicle-cluster" in errors[0]["message"]


def test_a_ruling_turns_a_failing_check_green(repo: Path) -> None:
    board = repo / "board.toml"
    edit(board, '"kaelyfos/attack-removal" = "supply"\n', "")
    failed = ci_check()
    assert failed.exit_code == 1
    assert "FAIL [contradiction] kaelyfos/attack-removal" in failed.output
    # The designer settles the point again, in the file or on the command line.
    assert ci_check("--ruling", "kaelyfos/attack-removal=removed-from-play").exit_code == 0
    edit(board, "[rulings]\n", '[rulings]\n"kaelyfos/attack-removal" = "supply"\n')
    assert ci_check().exit_code == 0


def test_fingerprints_survive_reordering_the_file(repo: Path) -> None:
    board = repo / "board.toml"
    text = board.read_text()
    head, rest = text.split("[[node]]", 1)
    tables = re.split(r"\n(?=\[\[|\[rulings\])", "[[node]]" + rest)
    nodes = [t for t in tables if t.startswith("[[node]]")]
    others = [t for t in tables if not t.startswith("[[node]]")]
    board.write_text(head + "\n".join(list(reversed(nodes)) + others) + "\n")
    assert board.read_text() != text
    assert run("baseline", "board.toml", "-o", "reordered.json").exit_code == 0
    prints = lambda p: [f["fingerprint"] for f in json.loads(Path(p).read_text())["findings"]]  # noqa: E731
    assert prints("reordered.json") == prints("ruleslawyer-baseline.json")
    assert ci_check().exit_code == 0


def test_baseline_errors_are_one_line(repo: Path) -> None:
    (repo / "bad.json").write_text('{"format": "something-else"}')
    result = run("check", "board.toml", "--baseline", "bad.json")
    assert result.exit_code == 2
    assert (
        result.stderr
        == "error: bad.json: format: found 'something-else', expected 'ruleslawyer-baseline/1'\n"
    )
    assert run("check", "board.toml", "--baseline", "nope.json").exit_code == 2


def test_diff_shows_what_an_edit_changes(repo: Path) -> None:
    shutil.copy(repo / "board.toml", repo / "old.toml")
    same = run("diff", "old.toml", "board.toml")
    assert same.exit_code == 0 and "No differences." in same.output
    # Un-ruling the contradiction makes it appear as an open finding: exit 1.
    edit(repo / "board.toml", '"kaelyfos/attack-removal" = "supply"\n', "")
    worse = run("diff", "old.toml", "board.toml", "--format", "json")
    assert worse.exit_code == 1
    doc = json.loads(worse.output)
    assert doc["rulings"] == {"kaelyfos/attack-removal": {"old": "supply", "new": None}}
    assert doc["appeared"] == [] and doc["disappeared"] == []
    assert doc["status_changed"] == [
        {
            "id": "kaelyfos/attack-removal",
            "kind": "contradiction",
            "old": "resolved",
            "new": "open",
            "fails": True,
        }
    ]
    # The reverse edit only resolves things: exit 0.
    assert run("diff", "board.toml", "old.toml").exit_code == 0


def test_diff_rejects_files_of_different_games(repo: Path, tmp_path) -> None:
    other = tmp_path / "other.toml"
    other.write_text('game = "nonesuch"\n')
    result = run("diff", "board.toml", str(other))
    assert result.exit_code == 2


def test_explain_prints_sentences_readings_ruling_and_witness(repo: Path) -> None:
    result = run("explain", "kaelyfos/attack-removal", "--game-file", "board.toml")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "is returned to the supply" in out and "is then removed from play" in out
    assert "supply [default, your ruling]" in out
    assert "Where the readings part:" in out and "removed-from-play: {" in out
    unknown = run("explain", "kaelyfos/nonsense")
    assert unknown.exit_code == 2
    assert "expected a rule point id (`ruleslawyer explain --list`)" in unknown.stderr


def test_diff_replays_witness_positions_on_both_boards(repo: Path) -> None:
    # The trap-tie witness: a bloodsucker spawned on the bony protrusion reaches the
    # exterior orifice with a trap two steps away each way. Its exit toward the face-down
    # card carries 2 dots, toward the interior orifice 1, so the tie rule sends it to the
    # face-down card; 3 dots toward the interior orifice send it there instead.
    shutil.copy(repo / "board.toml", repo / "old.toml")
    edit(
        repo / "board.toml",
        'between = ["exterior-orifice", "interior-orifice"]\ndots = [1, 3]',
        'between = ["exterior-orifice", "interior-orifice"]\ndots = [3, 3]',
    )
    result = run("diff", "old.toml", "board.toml", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    changed = doc["analysis"]["kaelyfos/trap-tie witness (old)"]
    assert changed["old"]["bloodsuckers"] == {"exterior-facedown-2": 1}
    assert changed["new"]["bloodsuckers"] == {"interior-orifice": 1}
