"""Every witness of every game is reachable: rebuilt from a legal setup by the model's own
moves, or proved reachable another way (issue 25, part 3).

The witnesses are read from the committed reports (``reports/<game>.md``, held to what
``ruleslawyer report`` writes today by tests/test_reports_current.py). Each game's
replay lives with its tests; this file checks that every witness of every report is
replayed by one of them, and replays the Cunning Folk witnesses itself:

- Kaelyfos: tests/kaelyfos/test_witnesses.py (every position passes the legality test
  under the default readings and resolves as recorded; every timeline is one the marker
  can reach);
- Twisted Cryptids: tests/twisted_cryptids/test_witnesses.py (played move by move from
  the deal, or from a seed, every move legal);
- Twist of Fate: tests/twist_of_fate/test_witnesses.py (played from the set-up, every
  round start a chance outcome of the model, every move legal; read-only here);
- Cunning Folk: below, every move legal on the state machine from the dealt village,
  under a reading of the point; the scoundrels village size by counting.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ruleslawyer.models.cunning_folk.play import Rules, Table, legal_moves, start, step
from ruleslawyer.models.cunning_folk.village import POINTS, Setup
from tests.kaelyfos.test_witnesses import WITNESSES as KAELYFOS
from tests.twist_of_fate.test_witnesses import witnesses as twist_of_fate
from tests.twisted_cryptids.test_witnesses import CHECKS as TWISTED_CRYPTIDS

ROOT = Path(__file__).resolve().parents[1]


def witnessed(game: str) -> dict[str, list[Any]]:
    """Finding id -> the lines of JSON after "Witness:" in the committed report."""
    out = {}
    for section in (ROOT / "reports" / f"{game}.md").read_text("utf-8").split("\n## ")[1:]:
        point = section.split("\n", 1)[0].strip()
        if "\nWitness:" not in section:
            continue
        block = re.search(r"```json\n(.*?)\n```", section.split("\nWitness:", 1)[1], re.S)
        assert block is not None, point
        out[point] = [json.loads(line) for line in block.group(1).split("\n")]
    return out


@pytest.mark.parametrize(
    ("game", "replayed"),
    [
        ("kaelyfos", lambda: set(KAELYFOS)),
        ("twisted-cryptids", lambda: set(TWISTED_CRYPTIDS)),
        ("twist-of-fate", lambda: set(twist_of_fate())),
        ("cunning-folk", lambda: set(CUNNING_FOLK)),
    ],
)
def test_every_witness_of_every_game_is_replayed(game: str, replayed: Any) -> None:
    found = set(witnessed(game))
    assert found, game
    assert found <= replayed(), f"{game}: witnesses no replay covers: {found - replayed()}"


# --- Cunning Folk -----------------------------------------------------------------------


def _replays(setup: str, deal: dict[str, str], players: int, moves: list[str], rules: Rules):
    """The state after ``moves`` from ``deal``, each move legal when played (else None)."""
    village = tuple(deal.values())
    table = Table(Setup(setup, (tuple(sorted(village)),)), players, rules)
    state = start(table, village)
    for text in moves:
        move = text.split(" ", 1)[1]  # "P2 challenge": the model's move "challenge"
        if move not in legal_moves(table, state):
            return None
        state = step(table, state, move)
    return state


def _rules(point_id: str) -> list[Rules]:
    """The rules under each reading of the point (the defaults for a point without any)."""
    point = POINTS[point_id]
    names = point.reading_names or (None,)
    return [Rules.from_rulings({point_id: n} if n else {}) for n in names]


def _played(point_id: str, lines: list[Any]) -> None:
    position, moves = lines[0], lines[1]
    deals = [position["deal"]] if "deal" in position else [position["pirate-dealt"]]
    setup, players = position["setup"], position["players"]
    assert moves, point_id
    for deal in deals:
        # legal from the deal under at least one reading (a reading point's witness may
        # use a move only the other reading allows, as first-to-speak's early challenge)
        ends = [_replays(setup, deal, players, moves, rules) for rules in _rules(point_id)]
        assert any(end is not None for end in ends), (point_id, deal)


def _village_size(point_id: str, lines: list[Any]) -> None:
    # Proved by counting: 6 good and evil townsfolk plus one kept card per player fill the
    # 3x3 grid only with 3 players; the witness records the counts the game file prints.
    from ruleslawyer.gamefiles.source import load_source
    from ruleslawyer.models.cunning_folk.data import load_game_data

    data = load_game_data(load_source("cunning-folk"))
    counts = lines[0]
    assert counts["core"] == sum(data.scoundrel_core.values())
    assert counts["kept_per_player"] == data.kept_per_player
    assert counts["cells"] == data.columns * data.rows
    sizes = {n: counts["core"] + n * counts["kept_per_player"] for n in (2, 3, 4)}
    assert sizes[3] == counts["cells"] and sizes[2] != counts["cells"] != sizes[4]


CUNNING_FOLK = {
    **{p: _played for p in POINTS},
    "cunning-folk/scoundrels-village-size": _village_size,
}
CUNNING_FOLK_WITNESSES = witnessed("cunning-folk")


@pytest.mark.parametrize("point_id", sorted(CUNNING_FOLK_WITNESSES))
def test_cunning_folk_witness_is_reached_by_legal_moves(point_id: str) -> None:
    CUNNING_FOLK[point_id](point_id, CUNNING_FOLK_WITNESSES[point_id])


def test_an_illegal_move_fails_the_replay() -> None:
    # The replay can fail: the same opening with a challenge by the claimant himself.
    lines = CUNNING_FOLK_WITNESSES["cunning-folk/villager-challenge"]
    bad = [lines[0], ["P1 investigate A1", "P1 claim villager", "P1 swap A1 B1 same"]]
    with pytest.raises(AssertionError):
        _played("cunning-folk/villager-challenge", bad)
