"""Reading TOML game, position and log files, with errors that name the place.

Every loader here raises :class:`~ruleslawyer.errors.InputError` with the
file, the key path (``node[3].side``), what was found and what was expected.

A game file is loaded in one pass down the layers (:func:`load_source`): find the
file, read its TOML (:mod:`~ruleslawyer.gamefiles.inputs`), decide its kind
(:mod:`~ruleslawyer.gamefiles.kinds`) and its game (:mod:`ruleslawyer.games`, the
registry), build the :class:`GameSource`. Each game's model validates the document
later, against its own schema (:func:`validate`).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ruleslawyer.errors import InputError, Shown, UnknownGameError, suggestion
from ruleslawyer.gamefiles.inputs import check_nesting, nearby, read_text, regular_file, too_deep
from ruleslawyer.gamefiles.kinds import input_file_kind, reject_input_file
from ruleslawyer.games import GAMES, get

if TYPE_CHECKING:
    from pydantic import BaseModel

M = TypeVar("M", bound="BaseModel")

PROVENANCES = ("printed", "assumed", "placeholder")

# Keys any game file may carry for the designer's workflow; read_toml sets them
# aside so each game's own schema sees only its own keys (see GameSource.designer).
DESIGNER_KEYS = ("rulebook", "edits", "coverage")


def read_toml(path: str | Path, *, display: str | None = None) -> tuple[str, dict[str, Any]]:
    """Read and parse a TOML file; return its text and document."""
    shown = display or str(path)
    text = read_text(path, shown, "a readable TOML file")
    try:
        document = tomllib.loads(text)
    except RecursionError:
        raise too_deep(shown) from None
    except tomllib.TOMLDecodeError as exc:
        if text.startswith("\ufeff"):  # what some Windows editors put first: TOML has none
            found = "a byte-order mark (U+FEFF) before the first line"
            raise InputError(shown, "line 1", found, "TOML saved as UTF-8 without a BOM") from None
        message = str(exc)
        where = re.search(r"\(at (line \d+, column \d+)\)", message)
        place = where.group(1) if where else ""
        what = re.sub(r"\s*\(at .*\)$", "", message)
        raise InputError(shown, place, what, "valid TOML") from None
    except ValueError:  # an integer of more digits than Python converts
        raise InputError(shown, "", "a number too long", "valid TOML") from None
    check_nesting(document, shown)
    return text, {k: v for k, v in document.items() if k not in DESIGNER_KEYS}


def read_reference(
    value: str,
    *,
    referrer: str,
    key: str,
    folder: Path | None,
    noun: str,
    tables: str,
    built_in: tuple[str, str] | None = None,
) -> tuple[str, dict[str, Any]]:
    """Read the TOML file that ``referrer`` names at ``key``, a ``noun`` file (a deck, a
    board, a game file) holding ``tables``: ``value``, the id of ``built_in`` (id, file in
    ``ruleslawyer/data``) or a path relative to ``folder`` (the referring file's folder;
    None: a command-line argument, taken as it is). Return the path to show and the
    document.

    A file that is not there or cannot be a file (a folder, a device, too large), or that is
    a position, log or record, is the referring file's error, at ``key``, with the nearest
    name beside it or the built-in id ("did you mean"); a problem inside the file it names
    names that file.
    """
    what = f"a {noun} file (TOML: {tables})"
    if built_in is not None:
        what = f"the built-in {noun} '{built_in[0]}' or {what}"
        if value == built_in[0]:
            display = f"ruleslawyer/data/{built_in[1]}"
            return display, read_toml(builtin_path(built_in[1]), display=display)[1]
    if folder is not None:
        what = f"{what}, its path relative to {referrer}"
    path = Path(value)
    if folder is not None and not path.is_absolute():
        path = folder / path
    display = str(path)
    ids = () if built_in is None else (built_in[0],)
    try:
        regular_file(path, display, what)
    except InputError as exc:
        if exc.found == "no such file":
            expected = f"{what}{nearby(path, value, ids, referrer)}"
        else:
            expected = exc.expected
        if folder is None:
            raise InputError(display, "", exc.found, expected) from None
        raise InputError(referrer, key, Shown(f"{value!r} ({exc.found})"), expected) from None
    _, document = read_toml(path, display=display)
    kind = input_file_kind(document)
    if kind is not None:
        found = Shown(f"{value!r} ({kind[0]})")
        raise InputError(referrer or display, key if referrer else "", found, what)
    return display, document


def builtin_path(name: str) -> Path:
    """Path of a built-in data file in ``ruleslawyer/data``."""
    return Path(str(resources.files("ruleslawyer").joinpath("data", name)))


@dataclass(frozen=True)
class GameSource:
    """A game file, read and parsed: a built-in one or a designer's own."""

    game: str
    path: Path
    display: str
    built_in: bool
    text: str
    document: Mapping[str, Any]

    @property
    def provenance(self) -> str:
        value = self.document.get("provenance", "placeholder")
        if value not in PROVENANCES:
            raise InputError(self.display, "provenance", value, " | ".join(PROVENANCES))
        return str(value)

    def rulings(self) -> dict[str, str]:
        """The file's ``[rulings]`` table (validated as strings; ids checked later)."""
        table = self.document.get("rulings", {})
        if not isinstance(table, Mapping):
            raise InputError(self.display, "rulings", table, "a table of ID = READING")
        for key, value in table.items():
            if not isinstance(value, str):
                raise InputError(self.display, f"rulings.{key}", value, "a reading name (string)")
        return dict(table)

    def line(self, place: str) -> int | None:
        return locate(self.text, place)

    @property
    def designer(self) -> dict[str, Any]:
        """The designer's keys of the file (``rulebook``, ``[edits]``), set aside by read_toml."""
        document = tomllib.loads(self.text)
        return {k: document[k] for k in DESIGNER_KEYS if k in document}

    def rulebook(self) -> Any:
        """The designer's own rulebook the file names, or None (the shipped one is used)."""
        from ruleslawyer.rulebook.books import load_designer

        value = self.designer.get("rulebook")
        if value is None:
            return None
        return load_designer(value, self.display, self.path.parent)

    def edits(self) -> dict[str, str]:
        """The file's ``[edits]`` table: rule point id -> the rulebook edit that settled it."""
        table = self.designer.get("edits", {})
        if not isinstance(table, Mapping):
            raise InputError(self.display, "edits", table, 'a table of ID = "the edit, in words"')
        for key, value in table.items():
            if not isinstance(value, str) or not value.strip():
                raise InputError(self.display, f"edits.{key}", value, "the edit, in words (string)")
        return dict(table)

    def coverage(self) -> dict[str, str]:
        """The file's ``[coverage]`` table: a sentence of its own rulebook -> what covers it."""
        table = self.designer.get("coverage", {})
        if not isinstance(table, Mapping):
            expected = 'a table of "the sentence" = "what covers it, in words"'
            raise InputError(self.display, "coverage", table, expected)
        for key, value in table.items():
            if not isinstance(value, str) or not value.strip():
                expected = "what covers the sentence, in words (string)"
                raise InputError(self.display, f"coverage.{key}", value, expected)
        return dict(table)

    def table_line(self, table: str, key: str) -> int | None:
        """The 1-based line of ``key = ...`` inside ``[table]`` (keys may be quoted)."""
        inside = False
        pattern = re.compile(rf"\s*(\"{re.escape(key)}\"|'{re.escape(key)}'|{re.escape(key)})\s*=")
        for number, line in enumerate(self.text.splitlines(), start=1):
            stripped = line.strip()
            if stripped.startswith("["):
                inside = stripped == f"[{table}]"
            elif inside and pattern.match(line):
                return number
        return None


def load_source(target: str) -> GameSource:
    """Resolve a CLI target (a game id or a TOML path) to a :class:`GameSource`: where the
    file is, its TOML, its kind and game, in that order."""
    if target in GAMES:
        info = GAMES[target]
        path = builtin_path(info.data_file)
        display = f"ruleslawyer/data/{info.data_file}"
        text, document = read_toml(path, display=display)
        return GameSource(info.id, path, display, built_in=True, text=text, document=document)
    path = Path(target)
    if not os.path.lexists(target):  # never raises; "" is not "."
        if path.suffix != ".toml":
            get(target)  # raises: neither a game id nor a file
        expected = f"a game id ({', '.join(GAMES)}) or a game file path"
        raise InputError(target, "", "no such file", expected + nearby(path, also=tuple(GAMES)))
    text, document = read_toml(path, display=target)
    game = identify(document, target)
    return GameSource(game, path, target, built_in=False, text=text, document=document)


def identify(document: Mapping[str, Any], source: str) -> str:
    """Which game a parsed file belongs to: its ``game`` key, else its marker keys (a
    position, log or record is refused, naming the command that reads it)."""
    reject_input_file(document, source)
    declared = document.get("game")
    if declared is not None:
        if not isinstance(declared, str) or declared not in GAMES:
            hint = suggestion(declared, GAMES) if isinstance(declared, str) else ""
            raise UnknownGameError(source, "game", declared, f"one of {', '.join(GAMES)}{hint}")
        return str(declared)
    matches = [g.id for g in GAMES.values() if g.marker_keys <= document.keys()]
    if len(matches) == 1:
        return matches[0]
    raise UnknownGameError(
        source, "game", "no game key", f'a top-level game = "<id>" ({", ".join(GAMES)})'
    )


def validate(model: type[M], document: Mapping[str, Any], source: str) -> M:
    """Validate a parsed document against a pydantic model; one clear InputError on failure."""
    from pydantic import ValidationError

    try:
        return model.model_validate(document)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        place = format_place(error["loc"])
        kind = error["type"]
        if kind == "missing":
            raise InputError(source, place, None, "a value (this key is required)") from None
        if kind == "extra_forbidden":
            raise InputError(source, place, place.rsplit(".", 1)[-1], "no such key here") from None
        expected = re.sub(r"^(Input should be|Value error,)\s*", "", error["msg"])
        raise InputError(source, place, error.get("input"), expected) from None


def format_place(loc: tuple[Any, ...]) -> str:
    """``("node", 3, "side")`` -> ``node[3].side``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def locate(text: str, place: str) -> int | None:
    """Best-effort 1-based line of a key path like ``node[3].side`` in TOML text."""
    lines = text.splitlines()
    header = next((i for i, line in enumerate(lines) if line.strip() == f"[{place}]"), None)
    if header is not None:  # a dotted table header such as [composition.standard]
        return header + 1
    start = 0
    for part in [p for p in re.split(r"\.(?![^\[]*\])", place) if p]:
        m = re.fullmatch(r"([\w-]+)(?:\[(\d+)\])?", part)
        if m is None:
            return None
        key, index = m.group(1), m.group(2)
        if index is not None:
            headers = [i for i in range(start, len(lines)) if lines[i].strip() == f"[[{key}]]"]
            if int(index) < len(headers):
                start = headers[int(index)]
                continue
        found = next(
            (
                i
                for i in range(start, len(lines))
                if re.match(rf"\s*(\[{re.escape(key)}\]|\"?{re.escape(key)}\"?\s*=)", lines[i])
            ),
            None,
        )
        if found is None:
            return start + 1 if start else None
        start = found
    return start + 1
