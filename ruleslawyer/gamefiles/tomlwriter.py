"""A small TOML writer for the files ruleslawyer reads (the standard library only reads TOML).

Enough for game and position files: strings, integers, booleans, lists and
inline tables as values; top-level keys, tables and arrays of tables as
sections. ``tomllib.loads(dumps(doc)) == doc`` for such documents.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def key(name: str) -> str:
    """A TOML key, quoted when it is not bare."""
    return name if _BARE.match(name) else json.dumps(name)


def value(item: Any) -> str:
    """One TOML value on one line."""
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, str):
        return json.dumps(item, ensure_ascii=False)
    if isinstance(item, Mapping):
        inner = ", ".join(f"{key(k)} = {value(v)}" for k, v in item.items())
        return f"{{ {inner} }}" if inner else "{}"
    if isinstance(item, Sequence):
        return "[" + ", ".join(value(v) for v in item) + "]"
    raise TypeError(f"cannot write {type(item).__name__} as TOML")


def dumps(
    top: Mapping[str, Any],
    *,
    tables: Mapping[str, Mapping[str, Any]] | None = None,
    arrays: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    header: str = "",
) -> str:
    """Write top-level keys, then ``[table]`` sections, then ``[[array]]`` sections."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    lines += [f"{key(k)} = {value(v)}" for k, v in top.items()]
    for name, table in (tables or {}).items():
        lines += ["", f"[{key(name)}]"]
        lines += [f"{key(k)} = {value(v)}" for k, v in table.items()]
    for name, rows in (arrays or {}).items():
        for row in rows:
            lines += ["", f"[[{key(name)}]]"]
            lines += [f"{key(k)} = {value(v)}" for k, v in row.items()]
    return "\n".join(lines) + "\n"
