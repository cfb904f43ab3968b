"""The shipped rulebooks: their text, their paths, and where a quote lies in them.

``ruleslawyer/data/rulebooks`` holds verbatim copies of the seed rulebooks. This
module knows nothing of findings, so :class:`~ruleslawyer.findings.Sentence` can
locate its quote here; :mod:`ruleslawyer.rulebook.books` builds on it for a designer's
own rulebook.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

RULEBOOK_DIR = "data/rulebooks"


@cache
def text(rulebook: str) -> str:
    """The full text of a shipped rulebook, by file name."""
    return resources.files("ruleslawyer").joinpath(RULEBOOK_DIR, rulebook).read_text("utf-8")


def path(rulebook: str) -> str:
    """The rulebook's path relative to the project root, for reports and SARIF."""
    return f"ruleslawyer/{RULEBOOK_DIR}/{rulebook}"


def spans_in(body: str, quote: str) -> list[tuple[int, int]]:
    """The 1-based first and last lines of every place ``quote`` is in ``body``.

    Whitespace is compared loosely (a quote may wrap across lines); an
    ellipsis ``...`` in the quote stands for omitted words.
    """
    parts = [r"\s+".join(re.escape(word) for word in part.split()) for part in quote.split("...")]
    pattern = r".*?".join(p for p in parts if p)
    out = []
    first, counted = 1, 0  # lines counted on from the last match: linear in the body
    for match in re.finditer(pattern, body, flags=re.DOTALL):
        first += body.count("\n", counted, match.start())
        counted = match.start()
        out.append((first, first + body.count("\n", match.start(), match.end())))
    return out


def span_in(body: str, quote: str) -> tuple[int, int] | None:
    """The first place ``quote`` is in ``body`` (see :func:`spans_in`), or None."""
    found = spans_in(body, quote)
    return found[0] if found else None


def shipped_span(rulebook: str, quote: str) -> tuple[int, int]:
    """The first and last lines of ``quote`` in the shipped ``rulebook``; missing is a bug."""
    found = span_in(text(rulebook), quote)
    if found is None:
        raise ValueError(f"quote not found in {rulebook}: {quote!r}")
    return found
