"""Twisted Cryptids ``advise``: no answer depends on the order of entries in the game file or
the record. Each example record is written again with its game file's Sites, Sightings,
Cryptids, Action and Event cards and Hidden Traits listed in another order, its players
rotated (the same seating, another first entry), its reveals (within a round), known
Sightings, Sites, Hiding Spots and hand shuffled: the advice (every figure, the ranking, the
open rule points that change it) is the same."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.gamefiles.source import builtin_path
from ruleslawyer.gamefiles.tomlwriter import dumps

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "twisted-cryptids"
LISTS = ("site", "sighting", "cryptid", "action", "event", "trait")


def _shuffled(items: list[Any], rng: random.Random) -> list[Any]:
    out = list(items)
    rng.shuffle(out)
    if len(out) > 1 and out == items:  # never the file's own order
        out = out[1:] + out[:1]
    return out


def _game_file(rng: random.Random) -> str:
    doc = tomllib.loads(builtin_path("twisted-cryptids.toml").read_text("utf-8"))
    top = {k: v for k, v in doc.items() if not isinstance(v, (list, dict))}
    tables = {k: v for k, v in doc.items() if isinstance(v, dict)}
    arrays = {k: _shuffled(doc[k], rng) for k in LISTS if k in doc}
    return dumps(top, tables=tables, arrays=arrays)


def _record(path: Path, rng: random.Random) -> str:
    doc = tomllib.loads(path.read_text("utf-8"))
    players = doc.pop("player")
    turn = rng.randrange(1, len(players))
    doc["game_file"] = "cards.toml"
    position = doc.pop("position")
    for name in ("sites", "spots"):
        position[name] = dict(_shuffled(list(position[name].items()), rng))
    position["hand"] = _shuffled(position["hand"], rng)
    arrays = {
        "player": players[turn:] + players[:turn],  # the same seating from another seat
        # a record is a history: its reveals stay in round order, shuffled within a round
        "reveal": sorted(_shuffled(doc.pop("reveal"), rng), key=lambda r: r["round"]),
        "known": _shuffled(doc.pop("known"), rng),
    }
    return dumps(doc, tables={"position": position}, arrays=arrays)


def _advice(path: Path) -> dict[str, Any]:
    out = CliRunner().invoke(
        cli, ["twisted-cryptids", "advise", str(path), "--format", "json", "--exact-limit", "1000"]
    )
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    doc.pop("position")
    return doc


@pytest.mark.parametrize("name", ["tie-break", "last-round-win", "advise-day", "advise-last-round"])
def test_advice_does_not_depend_on_the_order_of_entries(name: str, tmp_path: Path) -> None:
    source = EXAMPLES / f"{name}.toml"
    want = _advice(source)
    for seed in (1, 2):
        rng = random.Random(seed)
        (tmp_path / "cards.toml").write_text(_game_file(rng), "utf-8")
        record = tmp_path / f"{name}-{seed}.toml"
        record.write_text(_record(source, rng), "utf-8")
        assert _advice(record) == want
