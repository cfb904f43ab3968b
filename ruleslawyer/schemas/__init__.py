"""The contract of every command's JSON output: one JSON Schema per command, shipped here.

``<command>.json`` (``check``, ``diff``, ``baseline``, ``kaelyfos-step``, ...,
the game's commands joined by ``-``) describes what ``--format json`` prints
(``baseline``: the file it writes). Every such output starts with
``"schema_version"``: :data:`SCHEMA_VERSION`, raised when a field is removed or
renamed (a new field does not raise it). SARIF keeps to the SARIF 2.1.0 schema
and carries no ``schema_version``. The tests validate each command's output
against its schema with ``jsonschema``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

SCHEMA_VERSION = 1
COMMANDS = (
    "check",
    "diff",
    "baseline",
    "coverage",
    "kaelyfos-step",
    "kaelyfos-advance",
    "kaelyfos-advise",
    "kaelyfos-balance",
    "cunning-folk-deduce",
    "cunning-folk-advise",
    "cunning-folk-balance",
    "cunning-folk-equilibrium",
    "twist-of-fate-solve",
    "twist-of-fate-balance",
    "twisted-cryptids-stacks",
    "twisted-cryptids-advise",
    "twisted-cryptids-balance",
)


def versioned(doc: Mapping[str, Any]) -> dict[str, Any]:
    """``doc`` with ``schema_version`` first."""
    return {"schema_version": SCHEMA_VERSION, **doc}


def dumps(doc: Mapping[str, Any], *, ensure_ascii: bool = True) -> str:
    """A command's JSON output: ``doc`` versioned, indented, one trailing newline."""
    return json.dumps(versioned(doc), indent=2, ensure_ascii=ensure_ascii) + "\n"


def schema(command: str) -> dict[str, Any]:
    """The JSON Schema of ``command``'s JSON output (a name of :data:`COMMANDS`)."""
    if command not in COMMANDS:
        raise KeyError(command)
    text = resources.files(__package__).joinpath(f"{command}.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded
