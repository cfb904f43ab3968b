"""Rule points, readings, findings and witnesses: the words every check speaks.

A :class:`RulePoint` is a place where a rulebook is ambiguous, contradicts
itself or is silent. It quotes its sentences verbatim from a rulebook in
``ruleslawyer/data/rulebooks`` (a test checks every quote is found there),
names its readings, and says which reading is the default.

A check turns rule points into :class:`Finding` objects, each with the
smallest concrete :class:`Witness` it found where the readings part.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from ruleslawyer.errors import InputError


class Kind(StrEnum):
    """What a finding says about the rules, in the order reports list them."""

    DATA_ERROR = "data-error"
    CONTRADICTION = "contradiction"
    AMBIGUITY = "ambiguity"
    GAP = "gap"
    DEAD_RULE = "dead-rule"
    NON_TERMINATION = "non-termination"
    INFO = "info"


DEFAULT_FAIL_ON: frozenset[Kind] = frozenset({Kind.CONTRADICTION, Kind.GAP})


def parse_kinds(text: str) -> frozenset[Kind]:
    """Parse ``--fail-on`` text: comma-separated kinds, or ``none``."""
    names = [part.strip() for part in text.split(",")]
    if names == ["none"]:  # spelled out: an empty value is an error, not "none"
        return frozenset()
    known = {k.value: k for k in Kind}
    kinds = set()
    for name in names:
        if name not in known:
            raise InputError("--fail-on", "", name, f"one of {', '.join(known)} or none")
        kinds.add(known[name])
    return frozenset(kinds)


@dataclass(frozen=True)
class Sentence:
    """A verbatim quote from a rulebook: its file, its section and its words.

    ``rulebook`` names the shipped rulebook the rule point was written
    against. ``file`` is set when the quote has been located in a designer's
    own rulebook instead (see :mod:`ruleslawyer.rulebook.books`): ``line`` and
    ``end_line`` are then where it is there, or None when it is no longer
    there verbatim.
    """

    rulebook: str
    section: str
    text: str
    file: str | None = None
    line: int | None = None
    end_line: int | None = None

    def where(self) -> tuple[str, int | None, int | None]:
        """The file the quote is read from, and its first and last lines (None: not there)."""
        if self.file is not None:
            return self.file, self.line, self.end_line
        from ruleslawyer.rulebook import shipped

        first, last = shipped.shipped_span(self.rulebook, self.text)
        return shipped.path(self.rulebook), first, last

    def to_json(self) -> dict[str, Any]:
        file, line, _ = self.where()
        return {
            "rulebook": self.rulebook,
            "file": file,
            "section": self.section,
            "line": line,
            "text": self.text,
        }


@dataclass(frozen=True)
class Reading:
    """One named way to resolve a rule point."""

    name: str
    summary: str


@dataclass(frozen=True)
class RulePoint:
    """A place where the rulebook is ambiguous, contradicts itself or is silent.

    ``kind`` is what the point is when its readings part (or, for a gap, when
    the situation is reachable). ``readings`` is empty for a point that no
    ruling can settle; ``default`` names the reading used when no ruling is made.
    """

    id: str
    title: str
    kind: Kind
    sentences: tuple[Sentence, ...]
    readings: tuple[Reading, ...] = ()
    default: str | None = None

    def __post_init__(self) -> None:
        names = [r.name for r in self.readings]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.id}: duplicate reading names {names}")
        if self.readings and self.default not in names:
            raise ValueError(f"{self.id}: default {self.default!r} is not one of {names}")

    @property
    def game(self) -> str:
        return self.id.split("/", 1)[0]

    @property
    def reading_names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.readings)


@dataclass(frozen=True)
class Witness:
    """The smallest concrete situation where readings part.

    ``position`` is a JSON-able description a person (or the CLI) can replay;
    ``moves`` the moves leading to the situation, if any; ``results`` maps each
    reading (or option, for a gap) to what happens under it.
    """

    description: str
    position: Mapping[str, Any]
    results: Mapping[str, Any]
    moves: tuple[Any, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "description": self.description,
            "position": _plain(self.position),
            "moves": _plain(list(self.moves)),
            "results": _plain(self.results),
        }


@dataclass(frozen=True)
class Location:
    """A place in a game file: ``place`` is a key path such as ``node[3].side``."""

    file: str
    place: str
    line: int | None = None


@dataclass(frozen=True)
class Finding:
    """What a check reports about one rule point (or one structural rule)."""

    id: str
    kind: Kind
    title: str
    message: str
    status: str = "open"  # "open" | "resolved"
    sentences: tuple[Sentence, ...] = ()
    readings: tuple[Reading, ...] = ()
    ruling: str | None = None
    witness: Witness | None = None
    finished: bool = True
    searched: int | None = None
    location: Location | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    subject: str | None = None  # what a data error is about, in words free of positions
    baselined: bool = False  # already present in the --baseline file
    edit: str | None = None  # the rulebook edit (game file's [edits]) that settled it
    not_searched: str | None = None  # why the point was skipped ("data error at FILE:LINE ...")

    def fails(self, fail_on: frozenset[Kind]) -> bool:
        """Whether this finding counts against ``--fail-on``.

        A resolved or baselined finding never fails. Neither does an unfinished
        search: it is "not finished" (exit 3 when nothing else fails), never a
        FAIL, since nothing was shown either way.
        """
        return (
            self.finished and self.status == "open" and not self.baselined and self.kind in fail_on
        )

    def unfinished_phrase(self) -> str | None:
        """What a report says of an incomplete answer: not searched (and why), or not finished."""
        if self.not_searched is not None:
            return f"not searched: {self.not_searched}"
        if not self.finished:
            return "not finished: incomplete, not a clean bill"
        return None

    def fingerprint(self, game: str) -> str:
        """A stable identity for baselines: the point, its kind and status, and what it is about.

        It never depends on line numbers, table indices or timings, so
        reordering a game file leaves it unchanged. The status is part of it:
        a point that was resolved in the baseline and is open now is new.
        """
        import hashlib
        import json
        import re

        about = self.subject
        if about is None and self.kind == Kind.DATA_ERROR:
            about = re.sub(r"\[\d+\]|\bline \d+", "", self.message)
        payload = json.dumps([game, self.id, self.kind.value, self.status, about or ""])
        return hashlib.sha256(payload.encode()).hexdigest()[:20]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind.value,
            "status": self.status,
            "title": self.title,
            "message": self.message,
            "sentences": [s.to_json() for s in self.sentences],
            "readings": [{"name": r.name, "summary": r.summary} for r in self.readings],
            "ruling": self.ruling,
            "witness": self.witness.to_json() if self.witness else None,
            "finished": self.finished,
        }
        if self.searched is not None:
            out["searched"] = self.searched
        if self.location is not None:
            out["location"] = {
                "file": self.location.file,
                "place": self.location.place,
                "line": self.location.line,
            }
        if self.extra:
            out["extra"] = _plain(self.extra)
        if self.baselined:
            out["baselined"] = True
        if self.edit is not None:
            out["edit"] = self.edit
        if self.not_searched is not None:
            out["not_searched"] = self.not_searched
        return out


def point_finding(
    point: RulePoint,
    *,
    rulings: Mapping[str, str],
    parted: bool,
    message: str,
    witness: Witness | None = None,
    finished: bool = True,
    searched: int | None = None,
    kind: Kind | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Finding:
    """Build the finding for ``point`` from what its search found.

    ``parted`` says whether the readings were seen to give different results
    (or, for a gap, whether the situation was reached). A point whose readings
    never part in a finished search is ``info``; an unfinished search keeps the
    point's own kind, because nothing was shown to be harmless. A point with a
    ruling is ``resolved``.
    """
    if kind is None:
        kind = point.kind if (parted or not finished) else Kind.INFO
    ruling = rulings.get(point.id)
    return Finding(
        id=point.id,
        kind=kind,
        title=point.title,
        message=message,
        status="resolved" if ruling is not None else "open",
        sentences=point.sentences,
        readings=point.readings,
        ruling=ruling,
        witness=witness,
        finished=finished,
        searched=searched,
        extra=extra or {},
    )


def not_searched(
    point: RulePoint, *, rulings: Mapping[str, str], errors: Sequence[Finding]
) -> Finding:
    """The finding of ``point`` left unsearched because the game file has data ``errors``."""
    found = point_finding(point, rulings=rulings, parted=False, finished=False, message="")
    return skipped_for(found, errors)


def skipped_for(finding: Finding, errors: Sequence[Finding]) -> Finding:
    """``finding`` as a point not searched for the data ``errors``: not finished, and saying
    where the first error is (no budget ran out). A message of its own (what could be
    decided without the broken data) is kept after that."""
    first = next(e for e in errors if e.kind == Kind.DATA_ERROR)
    where = "the game file"
    if first.location is not None:
        line = f":{first.location.line}" if first.location.line else ""
        where = f"{first.location.file}{line} ({first.location.place})"
    why = f"data error at {where}"
    message = f"Not searched: {why}."
    if finding.message and not finding.message.startswith("Not searched"):
        message += f" {finding.message}"  # what was decided without the broken data
    return replace(finding, message=message, finished=False, searched=0, not_searched=why)


def not_modelled(point: RulePoint, rulings: Mapping[str, str], reason: str) -> Finding:
    """The ``info`` finding of a rule sentence out of the model's reach: says so, and why."""
    return point_finding(
        point,
        rulings=rulings,
        parted=True,
        kind=Kind.INFO,
        message=f"Not modelled: this rule is out of the model's reach. {reason}",
        searched=0,
    )


def data_error(
    game: str,
    check: str,
    title: str,
    location: Location,
    message: str,
    *,
    subject: str | None = None,
) -> Finding:
    """A structural rule broken by a game file, reported as a ``data-error`` finding.

    ``subject`` names what is wrong by content (node ids, card names), never by
    position, so the finding's fingerprint survives reordering the file; it
    defaults to the message with indices and line numbers stripped.
    """
    return Finding(
        id=f"{game}/data/{check}",
        kind=Kind.DATA_ERROR,
        title=title,
        message=message,
        location=location,
        subject=subject,
    )


def resolve_rulings(
    points: Iterable[RulePoint],
    file_rulings: Mapping[str, str],
    cli_rulings: Mapping[str, str],
    *,
    source: str,
) -> dict[str, str]:
    """Merge a game file's ``[rulings]`` with ``--ruling`` options (which win).

    Unknown point ids and readings are input errors naming where they came from.
    """
    by_id = {p.id: p for p in points}
    merged: dict[str, str] = {}
    for origin, table in ((source, file_rulings), ("--ruling", cli_rulings)):
        for point_id, reading in table.items():
            place = f"rulings.{point_id}" if origin == source else point_id
            point = by_id.get(point_id)
            if point is None:
                raise InputError(origin, place, point_id, f"a rule point id ({', '.join(by_id)})")
            if not point.readings:
                raise InputError(
                    origin, place, point_id, "a rule point with readings (this one has none)"
                )
            if reading not in point.reading_names:
                raise InputError(origin, place, reading, f"one of {', '.join(point.reading_names)}")
            merged[point_id] = reading
    return dict(sorted(merged.items()))


def reading_in_force(point: RulePoint, rulings: Mapping[str, str]) -> str:
    """The reading used for ``point``: its ruling, else its default."""
    reading = rulings.get(point.id, point.default)
    if reading is None:
        raise ValueError(f"{point.id} has no readings")
    return reading


def parse_ruling_options(options: Iterable[str]) -> dict[str, str]:
    """Parse repeated ``--ruling ID=READING`` options."""
    out: dict[str, str] = {}
    for text in options:
        point_id, sep, reading = text.partition("=")
        if not sep or not point_id.strip() or not reading.strip():
            raise InputError("--ruling", "", text, "ID=READING")
        out[point_id.strip()] = reading.strip()
    return out


def _plain(value: Any) -> Any:
    """Turn tuples, frozensets and mappings into JSON-able lists and dicts."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    if hasattr(value, "to_json"):
        return value.to_json()
    return value
