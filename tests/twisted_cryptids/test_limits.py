"""Hostile Twisted Cryptids input (issue 16): limits enforced at load with one line, exit 2.

Each case is a minimal change to the built-in game file or to a small record; every one
was accepted (or ran out of time or memory) before the limits existed.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.gamefiles.source import builtin_path
from ruleslawyer.solvers.twisted_cryptids.record import record_to_toml
from tests.twisted_cryptids.test_stacks import small_record

CARDS = builtin_path("twisted-cryptids.toml").read_text()
MOVE = '{ op = "move", human = "hunters", count = 2 }'


def cards(tmp_path: Path, old: str, new: str) -> Path:
    assert old in CARDS
    path = tmp_path / "cards.toml"
    path.write_text(CARDS.replace(old, new, 1))
    return path


def one_line(args: list[str]) -> str:
    start = time.monotonic()
    result = CliRunner().invoke(cli, args)
    assert time.monotonic() - start < 20
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # 8 copies of a move effect: 30^8 ways to pick its Sites (today: 91 s, then 4 GB).
        (
            f"effect = [{MOVE}]",
            "effect = [" + ", ".join([MOVE] * 8) + "]",
            "should have at most 4 items after validation, not 8",
        ),
        # 3 moves and an attract: 30^3 * 6 = 162000 ways, within 4 effects but too many.
        (
            f"effect = [{MOVE}]",
            "effect = ["
            + ", ".join([MOVE] * 3)
            + ', { op = "attract", human = "hikers", count = 1 }]',
            "action: found 'strange-noise with 4 effects and 162000 ways to choose their Sites'",
        ),
        ("hikers = 4\nhunters = 4", f"hikers = {2**63 - 1}\nhunters = 4", "rest_area.hikers"),
        ('kind = "hoax"\ncount = 3', 'kind = "hoax"\ncount = 1000000', "sighting[1].count"),
        ("start_myth = 5 ", f"start_myth = {10**18} ", "start_myth"),
        ("hand_size = 5 ", "hand_size = 40 ", "hand_size: found 40"),
        ("rounds = 5 ", "rounds = 100000 ", "rounds: found 100000"),
    ],
)
def test_game_file_limits(tmp_path, old, new, expected):
    path = cards(tmp_path, old, new)
    line = one_line(["check", str(path)])
    assert line.startswith(f"error: {path}: ") and expected in line


def test_a_card_at_the_limit_loads(tmp_path):
    # two moves: 30 * 30 = 900 ways, the most accepted; a move and an attract more is not
    two = f"effect = [{MOVE}, {MOVE}]"
    path = cards(tmp_path, f"effect = [{MOVE}]", two)
    from ruleslawyer.gamefiles.source import load_source
    from ruleslawyer.models.twisted_cryptids.game import load_game

    assert len(load_game(load_source(str(path))).actions) == 82
    over = cards(
        tmp_path,
        f"effect = [{MOVE}]",
        two[:-1] + ', { op = "attract", human = "hikers", count = 1 }]',
    )
    assert "5400 ways" in one_line(["check", str(over)])


@pytest.mark.slow
def test_every_card_at_the_limit_check_ends_in_its_budget(tmp_path):
    # Every action card at the limit: a random game takes seconds, the seeded searches many
    # games; with a budget the check still ends, saying what it did not finish.
    two = f"effect = [{MOVE}, {MOVE}]"
    text = CARDS
    for old in (
        'effect = [{ op = "attract", human = "hikers", count = 2 }]',
        'effect = [{ op = "attract", human = "hunters", count = 2 }]',
        'effect = [{ op = "attract", human = "researchers", count = 2 }]',
        f"effect = [{MOVE}]",
    ):
        text = text.replace(old, two)
    heavy = tmp_path / "heavy.toml"
    heavy.write_text(text)
    start = time.monotonic()
    result = CliRunner().invoke(
        cli, ["check", str(heavy), "--max-seconds", "3", "--format", "json", "--fail-on", "none"]
    )
    assert result.exit_code == 3, result.output  # a search cut by the budget, nothing failing
    assert time.monotonic() - start < 120
    import json

    findings = json.loads(result.output)["games"][0]["findings"]
    assert any(not f["finished"] for f in findings)


def record(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "log.toml"
    path.write_text(text)
    return path


def test_record_game_must_be_twisted_cryptids(tmp_path):
    good = record_to_toml(small_record())
    for bad in ('"twisted-cryptids\\u0000"', '"kaelyfos"'):
        path = record(tmp_path, good.replace('"twisted-cryptids"', bad, 1))
        line = one_line(["twisted-cryptids", "stacks", str(path)])
        assert f"{path}: game: found" in line and "twisted-cryptids" in line


@pytest.mark.parametrize(
    ("old", "new", "place"),
    [
        ("myth = 10", f"myth = {10**30}", "player[0].myth: found 1000000000000000000000000000000"),
        ("humans = 8", f"humans = {2**63 - 1}", "player[0].humans: found 9223372036854775807"),
    ],
)
def test_record_count_limits(tmp_path, old, new, place):
    text = record_to_toml(small_record())
    assert old in text
    path = record(tmp_path, text.replace(old, new, 1))
    line = one_line(["twisted-cryptids", "stacks", str(path)])
    assert line.startswith(f"error: {path}: {place}, expected")


def test_stacks_rejects_a_game_file_check_calls_a_data_error(tmp_path):
    # Two identical symbols on the ridge: check reports a data error; stacks must not
    # analyse a record over that file.
    bad = cards(
        tmp_path, 'symbols = ["hunters", "researchers"]', 'symbols = ["hunters", "hunters"]'
    )
    result = CliRunner().invoke(cli, ["check", str(bad)])
    assert result.exit_code == 1 and "data-error" in result.output
    path = record(tmp_path, record_to_toml(small_record(reveals=(), known=(), game_file=bad.name)))
    line = one_line(["twisted-cryptids", "stacks", str(path)])
    assert line == (
        f"error: {bad}: site[2].symbols: found ['hunters', 'hunters'], expected two distinct kinds"
    )
