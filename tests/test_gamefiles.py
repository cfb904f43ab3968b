from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict

from ruleslawyer.errors import InputError
from ruleslawyer.gamefiles.source import format_place, locate, read_toml, validate


class Node(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    side: Literal["exterior", "interior"]


class Board(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    node: list[Node]


BOARD = """name = "b"

[[node]]
id = "a"
side = "exterior"

[[node]]
id = "b"
side = "outside"
"""


def test_read_toml_reports_syntax_errors_with_line(tmp_path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "b"\nside = \n')
    with pytest.raises(InputError) as err:
        read_toml(path)
    assert str(err.value).startswith(f"{path}: line 2, column 8: found ")
    assert str(err.value).endswith("expected valid TOML")


def test_read_toml_missing_file(tmp_path) -> None:
    with pytest.raises(InputError, match="found 'no such file'"):
        read_toml(tmp_path / "nope.toml")


def test_validate_names_place_found_and_expected(tmp_path) -> None:
    path = tmp_path / "board.toml"
    path.write_text(BOARD)
    _, doc = read_toml(path)
    with pytest.raises(InputError) as err:
        validate(Board, doc, "board.toml")
    assert (
        str(err.value)
        == "board.toml: node[1].side: found 'outside', expected 'exterior' or 'interior'"
    )
    assert locate(BOARD, "node[1].side") == 9


def test_validate_unknown_and_missing_keys() -> None:
    with pytest.raises(
        InputError, match=r"node\[0\]\.colour: found 'colour', expected no such key"
    ):
        validate(Board, {"name": "b", "node": [{"id": "a", "side": "interior", "colour": 1}]}, "f")
    with pytest.raises(InputError, match="f: name: found nothing, expected a value"):
        validate(Board, {"node": []}, "f")


def test_format_place() -> None:
    assert format_place(("node", 3, "side")) == "node[3].side"
    assert format_place(("rulings",)) == "rulings"


def test_the_kinds_of_file_have_their_readers_keys() -> None:
    """``check`` tells a position, log or record from a game file by its keys: each kind's
    keys are its reader's (the pydantic model's fields), so a key added there counts."""
    from ruleslawyer.gamefiles.kinds import COMMON, KINDS
    from ruleslawyer.graphs.board import BoardSpec
    from ruleslawyer.models.cunning_folk.data import _GameFile
    from ruleslawyer.models.cunning_folk.log import _LogDoc
    from ruleslawyer.models.kaelyfos.files import PositionSpec, TimelineSpec
    from ruleslawyer.models.twist_of_fate.files import DeckDoc, PositionDoc
    from ruleslawyer.models.twisted_cryptids.game import _schema as game_schema
    from ruleslawyer.solvers.twisted_cryptids.record import _schema as record_schema

    def keys(model) -> frozenset[str]:
        return frozenset(model.model_fields) - COMMON

    record = keys(record_schema())
    position = keys(PositionSpec)
    assert {what: found for what, _, found in KINDS} == {
        "a Kaelyfos board": keys(BoardSpec),
        "a Kaelyfos position": position,
        "a Kaelyfos advice file": position - {"card", "actions"} | {"material", "spent"},
        "a Kaelyfos timeline": keys(TimelineSpec),
        "a Cunning Folk game file": keys(_GameFile),
        "a Cunning Folk log of play": keys(_LogDoc),
        "a Twist of Fate deck": keys(DeckDoc),
        "a Twist of Fate position": keys(PositionDoc),
        "a Twisted Cryptids game file": keys(game_schema()["GameDoc"]),
        "a Twisted Cryptids record of play": record - {"position"},
        "a Twisted Cryptids record with a [position]": record,
    }


@pytest.mark.parametrize(
    "example, command",
    [
        ("examples/kaelyfos/tiny-board.toml", ["check"]),
        ("examples/kaelyfos/tiny-board.toml", ["check", "--only-game-files"]),
        ("examples/cunning-folk/table-talk.toml", ["cunning-folk", "deduce"]),
    ],
)
def test_a_byte_order_mark_is_named_as_the_reason(tmp_path, example, command) -> None:
    # It was refused as 'line 1, column 1: found Invalid statement' (fuzz round 4).
    from click.testing import CliRunner

    from ruleslawyer.cli.main import cli

    path = tmp_path / Path(example).name
    path.write_bytes(b"\xef\xbb\xbf" + (Path(__file__).parents[1] / example).read_bytes())
    done = CliRunner().invoke(cli, [*command, str(path)])
    assert done.exit_code == 2, done.output
    assert done.stderr == (
        f"error: {path}: line 1: found 'a byte-order mark (U+FEFF) before the first line', "
        "expected TOML saved as UTF-8 without a BOM\n"
    )
