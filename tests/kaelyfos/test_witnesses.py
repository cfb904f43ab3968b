"""Every committed Kaelyfos witness is a position a game reaches, and replays as recorded.

The witnesses are read from the committed ``reports/kaelyfos.md`` (the JSON position
after "Witness:" and the table of results under it): each is checked against
:func:`ruleslawyer.models.kaelyfos.setup.illegal` (a card of the deck, a deal of the
nests, pieces only where they can stand), then resolved with ``kaelyfos step`` under
each reading (or, for a gap, each option of its choice) and compared with the record.
Timeline witnesses (a marker, an advance, the deck split into left and revealed) replay
with ``kaelyfos advance``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.gamefiles.tomlwriter import dumps
from ruleslawyer.models.kaelyfos.files import parse_position, parse_timeline
from ruleslawyer.models.kaelyfos.points import POINTS_BY_ID
from ruleslawyer.models.kaelyfos.setup import deck_cards, illegal, nest_deals

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "reports" / "kaelyfos.md"


def committed_witnesses() -> dict[str, tuple[dict, dict[str, dict]]]:
    """Point id -> (position document, reading or option label -> recorded result)."""
    out = {}
    for section in REPORT.read_text("utf-8").split("\n## ")[1:]:
        point = section.split("\n", 1)[0].strip()
        if "Witness:" not in section:
            continue
        block = re.search(r"```json\n(.*?)\n```", section.split("Witness:", 1)[1], re.S)
        assert block, point
        rows = re.findall(r"^\| `([^`]*)` \| `(\{.*\})` \|$", section, re.M)
        out[point] = (json.loads(block.group(1)), {k: json.loads(v) for k, v in rows})
    return out


WITNESSES = committed_witnesses()


def test_the_report_has_witnesses() -> None:
    assert len(WITNESSES) >= 8


@pytest.mark.parametrize("point", sorted(WITNESSES))
def test_witness_is_a_legal_position(point: str) -> None:
    doc, _ = WITNESSES[point]
    if "marker" in doc:
        # A timeline: the deck and the cards revealed before are the board's deck, split.
        loaded = parse_timeline(doc, "witness", ROOT)
        names = sorted(b.name for b in loaded.board.behaviors)
        assert sorted(loaded.timeline.deck + loaded.timeline.revealed) == names
        assert loaded.timeline.marker <= max(loaded.board.triggers)
        # One card per trigger on or before the marker (parse_timeline refuses more).
        reached = sum(1 for t in loaded.board.triggers if t <= loaded.timeline.marker)
        assert len(loaded.timeline.revealed) <= reached
        return
    position = parse_position(doc, "witness", ROOT).position
    assert illegal(position) == []
    # The card is a behaviour card of the board's deck and the nests one of its deals.
    assert position.card in deck_cards(position.board)
    assert position.nests in nest_deals(position.board)


@pytest.mark.parametrize("point", sorted(WITNESSES))
def test_witness_replays_as_recorded(point: str, tmp_path: Path) -> None:
    doc, recorded = WITNESSES[point]
    doc = dict(doc)
    command = "advance" if "marker" in doc else "step"
    tables = {"card": doc.pop("card")} if command == "step" else None
    path = tmp_path / "witness.toml"
    path.write_text(dumps(doc, tables=tables), "utf-8")
    readings = POINTS_BY_ID[point].reading_names
    assert len(recorded) >= 2 and len({json.dumps(r) for r in recorded.values()}) >= 2
    for label, expected in recorded.items():
        # "open (toward x)": the reading "open" leaves a choice, shown option by option
        reading, _, option = label.partition(" (")
        args = ["kaelyfos", command, str(path), "--format", "json"]
        if readings:
            assert reading in readings, label
            args += ["--ruling", f"{point}={reading}"]
        run = CliRunner().invoke(cli, args)
        assert run.exit_code == 0, run.output
        out = json.loads(run.output)
        if readings and option:
            options = {
                o["option"]: o["result"]
                for c in out["choices"]
                if c["point"] == point
                for o in c["options"]
            }
            assert options[option.removesuffix(")")] == expected, label
        elif readings:
            assert out["result"] == expected, label
        else:
            options = {
                o["option"]: o["result"]
                for c in out["choices"]
                if c["point"] == point
                for o in c["options"]
            }
            assert options[label] == expected, label
