"""The rulebooks the rule points quote, shipped inside the package.

``ruleslawyer/data/rulebooks`` holds verbatim copies of the seed rulebooks.
Rule points quote sentences from them; :func:`line_of` finds where a quote
sits so reports (and SARIF) can point at it.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ruleslawyer.findings import Sentence

RULEBOOK_DIR = "data/rulebooks"


@cache
def text(rulebook: str) -> str:
    """The full text of a shipped rulebook, by file name."""
    return resources.files("ruleslawyer").joinpath(RULEBOOK_DIR, rulebook).read_text("utf-8")


def path(rulebook: str) -> str:
    """The rulebook's path relative to the project root, for reports and SARIF."""
    return f"ruleslawyer/{RULEBOOK_DIR}/{rulebook}"


def find(sentence: Sentence) -> int | None:
    """The 1-based line where the quote starts, or None when it is not in the rulebook.

    Whitespace is compared loosely; an ellipsis ``...`` in the quote stands
    for omitted words.
    """
    body = text(sentence.rulebook)
    parts = [
        r"\s+".join(re.escape(word) for word in part.split()) for part in sentence.text.split("...")
    ]
    pattern = r".*?".join(p for p in parts if p)
    match = re.search(pattern, body, flags=re.DOTALL)
    if match is None:
        return None
    return body.count("\n", 0, match.start()) + 1


def line_of(sentence: Sentence) -> int:
    """Like :func:`find`, but a missing quote is a programming error."""
    line = find(sentence)
    if line is None:
        raise ValueError(f"quote not found in {sentence.rulebook}: {sentence.text!r}")
    return line
