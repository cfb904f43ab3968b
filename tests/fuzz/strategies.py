"""Hypothesis strategies for hostile input files: mutations of the shipped examples.

A case starts from a real file (an example or a built-in game file) and
applies a few mutations, drawn by Hypothesis:

- structural, on the parsed document, keeping it TOML (or JSON): nudge a
  number a little (mostly still valid), drop or duplicate a list entry, delete
  a key, add an unknown key, or replace any value with a hostile one (huge,
  negative, non-finite, of the wrong type, a string with control or
  bidirectional characters, deep nesting, an empty list or table);
- textual, on the written file: cut it short, drop or repeat a line, insert
  stray bytes.

Documents are written back with :func:`toml_text` (inline tables and arrays
only: the same document, not the same layout).
"""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import strategies as st

Path_ = tuple[Any, ...]

HOSTILE_STRINGS = (
    "",
    " ",
    "x" * 300,
    "a\nb",
    "\u202eevil",
    "\x00",
    "\x01<&>'\"",
    "ünï—code",
    "../../etc/passwd",
    "/dev/zero",
    "kaelyfos",
    "none",
)
LARGE = (50, 1000, 10**6, 2**31, 2**63 - 1, 10**18)  # counts and sizes far past the examples
HOSTILE_INTS = (0, -1, 1, 2, 7, 2**31, 2**63 - 1, 2**63, -(2**63), 10**18, 10**30)

hostile_scalars = st.one_of(
    st.sampled_from(HOSTILE_INTS),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(HOSTILE_STRINGS),
    st.text(max_size=12),
    st.booleans(),
)
hostile_values = st.recursive(
    hostile_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["a", "id", "name", "x\ny", "\u202e"]), inner, max_size=3),
    ),
    max_leaves=6,
)


def paths(doc: Any, prefix: Path_ = ()) -> list[Path_]:
    """Every place in a document: keys of tables and indices of lists, depth first."""
    out: list[Path_] = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.append((*prefix, k))
            out.extend(paths(v, (*prefix, k)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.append((*prefix, i))
            out.extend(paths(v, (*prefix, i)))
    return out


def _parent(doc: Any, path: Path_) -> Any:
    for part in path[:-1]:
        doc = doc[part]
    return doc


@st.composite
def mutated(draw: st.DrawFn, doc: dict[str, Any], *, valid_only: bool = False) -> dict[str, Any]:
    """``doc`` after one to four mutations (``valid_only``: nudges, drops and repeats only)."""
    doc = json.loads(json.dumps(doc))  # a deep copy (TOML documents hold no dates here)
    ops = ["nudge", "nudge", "drop", "repeat", "scale"] if valid_only else [
        "nudge", "drop", "repeat", "scale", "delete", "unknown", "replace", "replace", "deep",
    ]  # fmt: skip
    for _ in range(draw(st.integers(1, 4))):
        places = paths(doc)
        if not places:
            break
        path = draw(st.sampled_from(places))
        parent, last = _parent(doc, path), path[-1]
        op = draw(st.sampled_from(ops))
        value = parent[last]
        if op == "nudge" and isinstance(value, int) and not isinstance(value, bool):
            parent[last] = value + draw(st.integers(-2, 2))
        elif op == "scale" and isinstance(value, int) and not isinstance(value, bool):
            parent[last] = draw(st.sampled_from(LARGE))
        elif op == "drop" and isinstance(parent, list):
            del parent[last]
        elif op == "repeat" and isinstance(parent, list):
            parent.insert(last, json.loads(json.dumps(value)))
        elif op == "delete" and isinstance(parent, dict):
            del parent[last]
        elif op == "unknown" and isinstance(value, dict):
            value[draw(st.sampled_from(["colour", "x\ny", "\u202eid", "game"]))] = draw(
                hostile_values
            )
        elif op == "replace":
            parent[last] = draw(hostile_values)
        elif op == "deep":
            depth = draw(st.sampled_from([30, 31, 40, 200]))
            # At most one deep value per document (200 levels), so that writing the
            # document stays within Python's recursion limit.
            if _depth(doc) + depth <= 250:
                parent[last] = _nest(value, depth)
    return doc


def _nest(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = [value]
    return value


def _depth(value: Any) -> int:
    """How deeply ``value`` nests lists and tables (iteratively: it may be deep)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return deepest


@st.composite
def text_mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` cut short, with a line dropped or repeated, or stray bytes inserted."""
    lines = text.splitlines(keepends=True)
    op = draw(st.sampled_from(["cut", "drop-line", "repeat-line", "insert"]))
    if op == "cut":
        return text[: draw(st.integers(0, len(text)))]
    if not lines:
        return text
    i = draw(st.integers(0, len(lines) - 1))
    if op == "drop-line":
        return "".join(lines[:i] + lines[i + 1 :])
    if op == "repeat-line":
        return "".join(lines[: i + 1] + lines[i:])
    junk = draw(st.sampled_from(["[", "]]", "=", '"', "\x00", "\ufeff", "[[node]]\n", "{", "\\"]))
    return "".join(lines[:i]) + junk + "".join(lines[i:])


def toml_text(doc: dict[str, Any]) -> str:
    """A TOML document equal to ``doc``: one ``key = value`` line per top-level key."""
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in doc.items())


def _key(name: str) -> str:
    bare = name and all(c.isascii() and (c.isalnum() or c in "-_") for c in name)
    return name if bare else _string(name)


def _value(item: Any) -> str:
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):
        if math.isnan(item):
            return "nan"
        if math.isinf(item):
            return "inf" if item > 0 else "-inf"
        return repr(item)
    if isinstance(item, str):
        return _string(item)
    if isinstance(item, list):
        return "[" + ", ".join(_value(v) for v in item) + "]"
    if isinstance(item, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in item.items()) + "}"
    raise TypeError(f"no TOML for {type(item).__name__}")


def _string(text: str) -> str:
    """A TOML basic string; a lone surrogate is written as its escape (invalid TOML, on purpose)."""
    out = []
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif " " <= c <= "~":
            out.append(c)
        elif ord(c) > 0xFFFF:
            out.append(f"\\U{ord(c):08x}")
        else:
            out.append(f"\\u{ord(c):04x}")
    return '"' + "".join(out) + '"'
