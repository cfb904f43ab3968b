"""No Kaelyfos answer depends on the order of a board's or a position's entries.

Each case writes the board file with its ``[[node]]``, ``[[edge]]`` and ``[[behavior]]``
blocks shuffled and the position file with its explorers, bloodsuckers and traps in
another order, and runs the command on both: the output is the same, byte for byte
(``check``: the same findings, whatever the board file's name).
"""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.gamefiles import tomlwriter

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "kaelyfos"
BUILT_IN = ROOT / "ruleslawyer" / "data" / "kaelyfos.toml"


def _shuffled(items: list, rng: random.Random) -> list:
    """``items`` in another order (reversed when the shuffle gives the same one back)."""
    out = list(items)
    rng.shuffle(out)
    return out if out != items or len(out) < 2 else out[::-1]


def _board(source: Path, rng: random.Random | None) -> str:
    doc = tomllib.loads(source.read_text("utf-8"))
    if rng is not None:
        for key in ("node", "edge", "behavior"):
            doc[key] = _shuffled(doc[key], rng)
    return tomlwriter.dumps(doc)


def _position(source: Path, rng: random.Random | None) -> str:
    doc = tomllib.loads(source.read_text("utf-8"))
    doc["board"] = "board.toml"
    if rng is not None:
        for key in ("explorers", "bloodsuckers"):
            if key in doc:
                doc[key] = dict(_shuffled(list(doc[key].items()), rng))
        if "traps" in doc:
            doc["traps"] = _shuffled(doc["traps"], rng)
    tables = {k: doc.pop(k) for k in ("card", "rulings") if k in doc}
    return tomlwriter.dumps(doc, tables=tables)


def _pair(tmp_path: Path, position: str, board: Path, seed: int) -> tuple[Path, Path]:
    """The position (with its board) as written, and with every list in another order."""
    out = []
    for name, rng in (("plain", None), ("shuffled", random.Random(seed))):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "board.toml").write_text(_board(board, rng), "utf-8")
        path = folder / "position.toml"
        path.write_text(_position(EXAMPLES / position, rng), "utf-8")
        out.append(path)
    return out[0], out[1]


def _run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.output


CASES = [
    ("step", "two-traps-step.toml", EXAMPLES / "two-traps-board.toml", ()),
    ("step", "move-order.toml", BUILT_IN, ()),
    ("step", "pheromone-tie.toml", BUILT_IN, ("--ruling", "kaelyfos/trap-tie=open")),
    ("advise", "two-traps-advise-destroy.toml", EXAMPLES / "two-traps-board.toml", ()),
    (
        "advise",
        "two-traps-advise-catch.toml",
        EXAMPLES / "two-traps-board.toml",
        ("--triggers", "2"),
    ),
    ("advise", "advise-readings-together.toml", BUILT_IN, ()),
]


@pytest.mark.parametrize(("command", "position", "board", "extra"), CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_entry_order_never_changes_the_output(
    tmp_path: Path, command: str, position: str, board: Path, extra: tuple[str, ...], seed: int
) -> None:
    plain, shuffled = _pair(tmp_path, position, board, seed)
    assert plain.read_text("utf-8") != shuffled.read_text("utf-8")
    for fmt in ("text", "json"):
        here = _run("kaelyfos", command, plain, *extra, "--format", fmt)
        there = _run("kaelyfos", command, shuffled, *extra, "--format", fmt)
        assert here[0] == 0, here[1]
        assert here == there


@pytest.mark.parametrize("board", [BUILT_IN, EXAMPLES / "two-traps-board.toml"])
def test_check_finds_the_same_whatever_the_board_order(tmp_path: Path, board: Path) -> None:
    findings = []
    for rng in (None, random.Random(7)):
        path = tmp_path / f"board-{len(findings)}.toml"
        path.write_text(_board(board, rng), "utf-8")
        code, out = _run("check", "--format", "json", path)
        assert code == 1, out
        (game,) = json.loads(out)["games"]
        for f in game["findings"]:
            if f.get("witness"):
                f["witness"]["position"].pop("board")
            f.pop("location", None)
        findings.append(game["findings"])
    assert findings[0] == findings[1]
