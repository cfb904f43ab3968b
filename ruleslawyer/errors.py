"""The exceptions ruleslawyer raises. Every one derives from :class:`RulesLawyerError`.

Messages name the offending thing, where it is, what was found and what was
expected, so the CLI can print ``str(error)`` as one line and exit 2.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


class RulesLawyerError(Exception):
    """Root of every error ruleslawyer raises on purpose."""


class InputError(RulesLawyerError):
    """A file or option is malformed or breaks a structural rule.

    ``InputError(source, place, found, expected)`` renders as
    ``source: place: found X, expected Y``.
    """

    def __init__(
        self,
        source: str | Path,
        place: str,
        found: object,
        expected: str,
    ) -> None:
        self.source = str(source)
        self.place = place
        self.found = found
        self.expected = expected
        super().__init__(self.line())

    def line(self) -> str:
        where = f"{self.source}: {self.place}" if self.place else self.source
        return printable(f"{where}: found {_show(self.found)}, expected {self.expected}")


class Shown(str):
    """A found value already put in words (``'deck.toml' (no such file)``): shown as it is,
    not quoted again."""

    def __repr__(self) -> str:
        return str(self)


class UnknownGameError(InputError):
    """A game id or file that names no registered game."""


class IllegalMove(RulesLawyerError):
    """A move that the rules do not allow in this state."""


class InconsistentRecord(InputError):
    """A log or record of play that no game consistent with the rules can produce."""


class BudgetExceeded(RulesLawyerError):
    """A search ran out of its budget; callers report ``finished: false``."""


MAX_SHOWN = 200  # characters of a value echoed in a message


def printable(text: str) -> str:
    """``text`` safe to print as one line: every character that is not printable
    (newlines, tabs, control and bidirectional format characters, NUL) becomes its
    Python escape (``\\n``, ``\\u202e``), so an echoed key can neither split nor
    reverse the line. Every error message passes through here."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _show(value: object) -> str:
    """``None`` (and the empty string) read as "nothing"; other values as their repr,
    cut to :data:`MAX_SHOWN` characters."""
    if value is None or value == "":
        return "nothing"
    shown = repr(value)
    if len(shown) > MAX_SHOWN:
        shown = shown[: MAX_SHOWN - 1] + "…"
    return shown


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The one of ``choices`` that ``word`` is most likely a typo of, if any is close."""
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def suggestion(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest of ``choices``, or nothing."""
    close = closest(word, choices)
    return f"; did you mean '{close}'?" if close else ""
