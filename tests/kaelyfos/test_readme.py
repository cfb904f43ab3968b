"""The README's Kaelyfos section shows files that load (its console blocks are run by
tests/test_docs.py)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from ruleslawyer.graphs.board import BoardSpec
from ruleslawyer.models.kaelyfos.files import PositionSpec, TimelineSpec

ROOT = Path(__file__).resolve().parents[2]
SECTION = (ROOT / "README.md").read_text("utf-8").split("## Unsettled: Kaelyfos", 1)[1]
SECTION = SECTION.split("\n## ", 1)[0]


def test_file_snippets_validate() -> None:
    board, position, timeline, advice = re.findall(r"```toml\n(.*?)```", SECTION, flags=re.DOTALL)
    BoardSpec.model_validate(tomllib.loads(board))
    PositionSpec.model_validate(tomllib.loads(position))
    TimelineSpec.model_validate(tomllib.loads(timeline))
    doc = tomllib.loads(advice)
    assert isinstance(doc.pop("material"), int) and isinstance(doc.pop("spent"), list)
    PositionSpec.model_validate({**doc, "card": {"spawn": [], "move": 0}})
