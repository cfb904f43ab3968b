"""The rulebooks the rule points quote: the shipped copies, and a designer's own.

``ruleslawyer/data/rulebooks`` holds verbatim copies of the seed rulebooks.
Rule points quote sentences from them; :func:`line_of` finds where a quote
sits so reports (and SARIF) can point at it.

A game file may name the designer's own rulebook (``rulebook =
"rules/kaelyfos.md"``, Markdown or plain text). :class:`DesignerRulebook`
locates every quote there (line and section), and for a quote that is no
longer there verbatim, :func:`nearest` finds the sentence most like it
(difflib), so the designer can see what became of it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from ruleslawyer.errors import InputError
from ruleslawyer.findings import Sentence
from ruleslawyer.shipped_rulebooks import span_in, spans_in, text


def find(sentence: Sentence) -> int | None:
    """The 1-based line where the quote starts in its shipped rulebook, or None."""
    found = span_in(text(sentence.rulebook), sentence.text)
    return found[0] if found else None


def line_of(sentence: Sentence) -> int:
    """Like :func:`find`, but a missing quote is a programming error."""
    line = find(sentence)
    if line is None:
        raise ValueError(f"quote not found in {sentence.rulebook}: {sentence.text!r}")
    return line


_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_MARKUP = re.compile(r"^\s*(?:[#>]+|[-*+•]|\d+[.)])\s+|[*_`]+")
# A sentence runs to its full stop (a stop followed by a space, a quote or the end: not
# the dot in "board.toml" or "e.g."), across line breaks but not into a blank line, a
# heading or a new list item; a line with no full stop (a heading, a list entry) is a
# sentence of its own.
_NEW_BLOCK = r"\n(?!\s*\n)(?!\s*(?:[-*+•#>]|\d+[.)])\s)"
_BODY = r"(?:[^.!?\n]|[.!?](?=[^\s\"'”’).!?]))"
_SENTENCE = re.compile(rf"{_BODY}+(?:{_NEW_BLOCK}{_BODY}*)*[.!?]+[\"'”’)]*|{_BODY}+[.!?]*(?=\n|$)")


@dataclass(frozen=True)
class Candidate:
    """A sentence (or a run of sentences) of a rulebook, for fuzzy matching."""

    text: str
    line: int
    section: str
    score: float


@dataclass(frozen=True)
class DesignerRulebook:
    """A designer's own rulebook, named by their game file.

    ``display`` is the path as reports show it: relative to where the game
    file's own path is relative to.
    """

    display: str
    text: str

    @property
    def markdown(self) -> bool:
        return self.display.lower().endswith((".md", ".markdown"))

    def section_at(self, line: int, default: str) -> str:
        """The Markdown heading above ``line`` (1-based), else ``default``."""
        if not self.markdown:
            return default
        lines = self.text.splitlines()
        for i in range(min(line, len(lines)) - 1, -1, -1):
            m = _HEADING.match(lines[i])
            if m:
                return m.group(2)
        return default

    def place(self, sentence: Sentence) -> Sentence:
        """``sentence`` located in this rulebook (``line`` None when it is not there verbatim).

        Where the words are there more than once, the place under a heading
        that starts like the section the rule point names is preferred.
        """
        found = spans_in(self.text, sentence.text)
        if not found:
            return Sentence(sentence.rulebook, sentence.section, sentence.text, file=self.display)
        wanted = sentence.section.split(" (")[0].lower()
        first, last = next(
            (
                span
                for span in found
                if self.section_at(span[0], "").lower().startswith(wanted) and wanted
            ),
            found[0],
        )
        return Sentence(
            sentence.rulebook,
            self.section_at(first, sentence.section),
            sentence.text,
            file=self.display,
            line=first,
            end_line=last,
        )

    def nearest(self, quote: str) -> Candidate | None:
        """The sentence (or run of as many sentences as the quote has) most like ``quote``."""
        pieces = _sentences(self.text)
        if not pieces:
            return None
        want = _plain(quote.replace("...", " "))
        width = max(1, len(re.findall(r"[.!?](?:\s|$)", quote)))
        best: Candidate | None = None
        for i in range(len(pieces)):
            run = pieces[i : i + width]
            joined = " ".join(p[1] for p in run)
            matcher = difflib.SequenceMatcher(None, want, joined, autojunk=False)
            if best is not None and matcher.quick_ratio() <= best.score:
                continue
            score = matcher.ratio()
            if best is None or score > best.score:
                line = run[0][0]
                best = Candidate(joined, line, self.section_at(line, ""), score)
        return best


def _plain(text: str) -> str:
    """Text without Markdown markup and with single spaces, for comparison."""
    return " ".join(" ".join(_MARKUP.sub("", line) for line in text.splitlines()).split())


def _sentences(body: str) -> list[tuple[int, str]]:
    """Every sentence of ``body`` with its 1-based first line, headings left out."""
    out = []
    for m in _SENTENCE.finditer(body):
        first = body.count("\n", 0, m.start()) + 1
        raw = m.group(0)
        lead = len(raw) - len(raw.lstrip())
        first += raw.count("\n", 0, lead)
        if _HEADING.match(raw.strip("\n")):
            continue
        words = _plain(raw)
        if words and not re.fullmatch(r"\d+[.)]", words):  # a numbered list's "1."
            out.append((first, words))
        label, colon, rest = words.partition(": ")
        if colon and rest and label.upper() == label:  # "BLOODSUCKERS ATTACK: Each ..."
            out.append((first, rest))
    return out


def read(path: Path, shown: str, *, origin: str, place: str) -> DesignerRulebook:
    """Read a designer's rulebook; errors name ``origin`` (the file or option that named it)."""
    expected = "a Markdown or plain-text rulebook"
    try:
        body = path.read_text("utf-8")
    except FileNotFoundError:
        raise InputError(origin, place, shown, f"{expected} (no such file)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(origin, place, shown, f"{expected} ({type(exc).__name__})") from None
    return DesignerRulebook(display=shown, text=body)


def load_designer(value: object, game_file: str, base: Path) -> DesignerRulebook:
    """Read the rulebook a game file names (``rulebook = "..."``, relative to the game file)."""
    if not isinstance(value, str) or not value.strip():
        expected = "a Markdown or plain-text rulebook path, relative to the game file"
        raise InputError(game_file, "rulebook", value, expected)
    shown = (Path(game_file).parent / value).as_posix()
    book = read(base / value, value, origin=game_file, place="rulebook")
    return DesignerRulebook(display=shown, text=book.text)
