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
import os
import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from ruleslawyer.errors import InputError
from ruleslawyer.findings import Sentence
from ruleslawyer.gamefiles.inputs import nearby, read_text
from ruleslawyer.rulebook.shipped import span_in, spans_in, text


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

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    @cached_property
    def _headings(self) -> list[str | None]:
        """For each line, the Markdown heading at or above it (None: none yet)."""
        out: list[str | None] = []
        heading = None
        for row in self.lines:
            m = _HEADING.match(row)
            if m:
                heading = m.group(2)
            out.append(heading)
        return out

    @cached_property
    def _lowered(self) -> dict[str, str]:
        """Each heading in lower case, worked out once (a heading may be a long line)."""
        return {h: h.lower() for h in set(self._headings) if h is not None}

    def section_at(self, line: int, default: str) -> str:
        """The Markdown heading above ``line`` (1-based), else ``default``."""
        if not self.markdown:
            return default
        at = min(line, len(self.lines)) - 1
        heading = self._headings[at] if at >= 0 else None
        return default if heading is None else heading

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
                if wanted and self._lowered.get(self.section_at(span[0], ""), "").startswith(wanted)
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
        best_i, best_score = closest(want, _index(self.text), width)
        run = pieces[best_i : best_i + width]
        line = run[0][0]
        return Candidate(" ".join(p[1] for p in run), line, self.section_at(line, ""), best_score)


MAX_COMPARED = 200  # exact comparisons (difflib's ratio) per quote at most


@dataclass(frozen=True)
class _Index:
    """Every sentence of a rulebook's body, as arrays to bound many comparisons at once."""

    texts: tuple[str, ...]
    lengths: Any  # numpy int64[n]: each sentence's length in characters
    codes: Any  # numpy uint32: the code points of every sentence, sorted
    owners: Any  # numpy int64: the sentence each of ``codes`` comes from


@lru_cache(maxsize=4)
def _index(body: str) -> _Index:
    import numpy as np

    texts = tuple(text for _, text in _sentences(body))
    lengths = np.array([len(t) for t in texts], dtype=np.int64)
    codes = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32)
    owners = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
    order = np.argsort(codes)  # the order within one character does not count
    return _Index(texts, lengths, codes[order], owners[order])


def closest(want: str, index: _Index, width: int, most: int = MAX_COMPARED) -> tuple[int, float]:
    """The first sentence of the run of ``width`` sentences (fewer at the end) most like
    ``want`` by difflib's ``ratio()``, and that ratio; the first of equals wins.

    Two upper bounds of ``ratio()`` spare most exact ratios. ``quick_ratio()`` (the
    characters two texts share, in any order) is worked out for every run at once from
    the sentences' character counts; runs are taken from the highest down, stopping
    once none can beat the best. The longest common subsequence (bit-parallel) bounds
    the characters difflib's matching blocks can cover, in order: a run it shows cannot
    beat the best is passed over. At most ``most`` exact ratios (and 16 times as many
    subsequences) are taken: a rulebook whose sentences all rearrange the same letters
    cannot make the search quadratic.
    """
    import numpy as np

    n = len(index.texts)
    starts = np.arange(n)
    ends = np.minimum(starts + width, n)
    spaces = ends - starts - 1  # the runs' sentences are joined by one space
    total = np.concatenate(([0], np.cumsum(index.lengths)))
    lengths = total[ends] - total[starts] + spaces
    shared = np.zeros(n, dtype=np.int64)
    for char, wanted in Counter(want).items():
        code = ord(char)
        lo, hi = np.searchsorted(index.codes, np.array([code, code + 1], dtype=np.uint32))
        counts = np.concatenate(([0], np.cumsum(np.bincount(index.owners[lo:hi], minlength=n))))
        have = counts[ends] - counts[starts] + (spaces if char == " " else 0)
        shared += np.minimum(have, wanted)
    size = lengths + len(want)
    bounds = np.where(size > 0, 2.0 * shared / np.maximum(size, 1), 1.0)
    masks: dict[str, int] = {}
    for at, char in enumerate(want):
        masks[char] = masks.get(char, 0) | (1 << at)
    best_score, best_i, compared = -1.0, -1, 0
    for i in np.argsort(-bounds, kind="stable")[: most * 16].tolist():
        if bounds[i] < best_score or compared == most:
            break
        joined = " ".join(index.texts[i : i + width])
        common = _common_subsequence(masks, len(want), joined)
        if size[i] and 2.0 * common / int(size[i]) < best_score:
            continue
        compared += 1
        score = difflib.SequenceMatcher(None, want, joined, autojunk=False).ratio()
        if score > best_score or (score == best_score and i < best_i):
            best_score, best_i = score, i
    return best_i, best_score


def _common_subsequence(masks: dict[str, int], length: int, text: str) -> int:
    """The length of the longest common subsequence of ``text`` and the string of
    ``length`` characters whose positions of each character ``masks`` holds
    (Allison-Dix, Hyyrö: one step of big-integer arithmetic per character of ``text``)."""
    full = (1 << length) - 1
    v = full
    for char in text:
        u = v & masks.get(char, 0)
        v = ((v + u) | (v - u)) & full
    return length - v.bit_count()


def _plain(text: str) -> str:
    """Text without Markdown markup and with single spaces, for comparison."""
    return " ".join(" ".join(_MARKUP.sub("", line) for line in text.splitlines()).split())


@lru_cache(maxsize=4)
def _sentences(body: str) -> list[tuple[int, str]]:
    """Every sentence of ``body`` with its 1-based first line, headings left out."""
    out = []
    line, counted = 1, 0  # lines counted on from the last sentence: linear in the body
    for m in _SENTENCE.finditer(body):
        line += body.count("\n", counted, m.start())
        counted = m.start()
        first = line
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


MAX_RULEBOOK_BYTES = 2 * 2**20  # the largest designer rulebook read (2 MiB)

# Lines a rulebook never holds: what a credential looks like (its text is never shown).
CREDENTIALS = (
    ("a private key", re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----")),
    (
        "an HTTP authorization header",
        re.compile(r"(?i)\bauthorization\s*:\s*(?:basic|bearer|token)\s+[A-Za-z0-9+/=._~-]{8,}"),
    ),
    ("a URL with a password", re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@")),
    (
        "a GitHub token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})"),
    ),
    ("a GitLab token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
    ("a Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("an AWS access key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    (
        "a password or key assigned",
        re.compile(
            r"(?i)\b(?:password|passwd|api[_-]?key|access[_-]?token|client[_-]?secret)"
            r"\s*[:=]\s*[\"']?[^\s\"']{8,}"
        ),
    ),
)
RULE = (
    "a Markdown or plain-text rulebook: a text file outside .git/ (one the repository "
    "tracks, or a plain file), no line of which looks like a credential"
)


def credential_line(text: str) -> tuple[int, str] | None:
    """The first line of ``text`` that looks like a credential (1-based) and what it looks
    like, or None."""
    found = [(m.start(), what) for what, pattern in CREDENTIALS if (m := pattern.search(text))]
    if not found:
        return None
    at, what = min(found)
    return text.count("\n", 0, at) + 1, what


def read(
    path: Path, shown: str, *, origin: str, place: str, within: tuple[Path, ...] = ()
) -> DesignerRulebook:
    """Read a designer's rulebook; errors name ``origin`` (the file or option that named it).

    It must be a regular file (no device, FIFO or directory) of at most
    :data:`MAX_RULEBOOK_BYTES`, UTF-8 text without NUL bytes, and, when ``within``
    names folders, resolve (symbolic links followed) to a file inside one of them.
    It may not be inside a ``.git`` folder (git's own files: its config holds the CI's
    token) nor hold a line that looks like a credential (:data:`CREDENTIALS`), since
    every line of a rulebook may be quoted into reports: :data:`RULE`.
    The file is remembered as an input, so no output of the command overwrites it.
    """
    expected = "a Markdown or plain-text rulebook"
    if within and not _inside(path, within):
        where = "inside the game file's folder or its git root (symbolic links followed)"
        raise InputError(origin, place, shown, f"{expected} {where}")
    if ".git" in Path(os.path.realpath(path)).parts:
        why = "inside .git/: git's own files, not a rulebook"
        raise InputError(origin, place, shown, f"{RULE} ({why})")
    try:
        body = read_text(path, shown, expected, MAX_RULEBOOK_BYTES)
    except InputError as exc:
        found = exc.found if exc.place == "" else f"{exc.found} at {exc.place}"
        if str(found).endswith(" bytes"):  # the size: say the cap too
            found = f"{found}, more than {MAX_RULEBOOK_BYTES}"
        hint = nearby(path, shown, skip=origin) if exc.found == "no such file" else ""
        raise InputError(origin, place, shown, f"{expected} ({found}){hint}") from None
    if "\0" in body:
        line = body.count("\n", 0, body.index("\0")) + 1
        raise InputError(origin, place, shown, f"{expected} (a NUL byte on line {line}: not text)")
    secret = credential_line(body)
    if secret is not None:
        line, what = secret
        why = f"line {line} looks like {what}; it is not shown"
        raise InputError(origin, place, shown, f"{RULE} ({why})")
    return DesignerRulebook(display=shown, text=body)


def _inside(path: Path, folders: tuple[Path, ...]) -> bool:
    """Whether ``path``, its symbolic links followed, names something inside one of ``folders``."""
    real = Path(os.path.realpath(path))
    return any(real.is_relative_to(os.path.realpath(folder)) for folder in folders)


def git_root(folder: Path) -> Path | None:
    """The nearest folder at or above ``folder`` holding ``.git`` (a repository or worktree)."""
    here = Path(os.path.realpath(folder))
    for candidate in (here, *here.parents):
        if os.path.lexists(candidate / ".git"):
            return candidate
    return None


def load_designer(value: object, game_file: str, base: Path) -> DesignerRulebook:
    """Read the rulebook a game file names (``rulebook = "..."``, relative to the game file,
    inside its folder or its git root)."""
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        expected = "a Markdown or plain-text rulebook path, relative to the game file"
        raise InputError(game_file, "rulebook", value, expected)
    shown = (Path(game_file).parent / value).as_posix()
    root = git_root(base)
    within = (base,) if root is None else (base, root)
    book = read(base / value, value, origin=game_file, place="rulebook", within=within)
    return DesignerRulebook(display=shown, text=book.text)
