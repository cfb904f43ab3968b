"""The README's Kaelyfos section shows real output and files that load."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.graphs.board import BoardSpec
from ruleslawyer.models.kaelyfos.files import PositionSpec, TimelineSpec

ROOT = Path(__file__).resolve().parents[2]
SECTION = (ROOT / "README.md").read_text("utf-8").split("## Unsettled: Kaelyfos", 1)[1]
SECTION = SECTION.split("\n## ", 1)[0]


def test_step_example_output_is_real() -> None:
    blocks = re.findall(r"```console\n\$ ruleslawyer (.*?)\n(.*?)```", SECTION, flags=re.DOTALL)
    assert len(blocks) == 4  # step, advance, advise, balance
    for command, printed in blocks:
        result = CliRunner().invoke(cli, command.split())
        assert result.exit_code == 0
        assert result.output == printed


def test_file_snippets_validate() -> None:
    board, position, timeline, advice = re.findall(r"```toml\n(.*?)```", SECTION, flags=re.DOTALL)
    BoardSpec.model_validate(tomllib.loads(board))
    PositionSpec.model_validate(tomllib.loads(position))
    TimelineSpec.model_validate(tomllib.loads(timeline))
    doc = tomllib.loads(advice)
    assert isinstance(doc.pop("material"), int) and isinstance(doc.pop("spent"), list)
    PositionSpec.model_validate({**doc, "card": {"spawn": [], "move": 0}})
