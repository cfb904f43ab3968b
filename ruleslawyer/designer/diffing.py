"""What an edit to a game file changes: findings, witnesses, rulings and solver answers."""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ruleslawyer import games
from ruleslawyer.budget import Budget
from ruleslawyer.designer.checking import (
    GameResult,
    check_source,
    effective_fail_on,
    validate_cli_rulings,
)
from ruleslawyer.errors import InputError
from ruleslawyer.findings import Finding, Kind
from ruleslawyer.gamefiles.source import GameSource, load_source
from ruleslawyer.schemas import dumps


@dataclass(frozen=True)
class Diff:
    game: str
    old: GameResult
    new: GameResult
    appeared: tuple[Finding, ...]
    disappeared: tuple[Finding, ...]
    status_changed: tuple[tuple[Finding, Finding], ...]  # same point and kind, ruled or un-ruled
    witness_changed: tuple[tuple[Finding, Finding], ...]
    rulings: Mapping[str, tuple[str | None, str | None]]
    analysis: Mapping[str, tuple[Any, Any]]

    def failing(self, fail_on: frozenset[Kind]) -> list[Finding]:
        """New or reopened findings at or above ``--fail-on``: what makes ``diff`` exit 1."""
        new = [*self.appeared, *(b for _, b in self.status_changed)]
        return [f for f in new if f.fails(effective_fail_on(fail_on))]

    @property
    def finished(self) -> bool:
        """False when a search on either side ran out of its budget: the diff may miss or
        invent differences there."""
        return not (self.old.unfinished() or self.new.unfinished())

    @property
    def empty(self) -> bool:
        return (
            not (self.appeared or self.disappeared or self.witness_changed or self.rulings)
            and not self.analysis
        )


def diff_files(old: str, new: str, cli_rulings: Mapping[str, str], budget: Budget) -> Diff:
    old_source, new_source = load_source(old), load_source(new)
    if old_source.game != new_source.game:
        raise InputError(
            new, "game", new_source.game, f"the same game as {old} ({old_source.game})"
        )
    validate_cli_rulings([old_source, new_source], cli_rulings)
    old_result = check_source(old_source, cli_rulings, budget)
    new_result = check_source(new_source, cli_rulings, budget)
    game = old_source.game

    def by_print(result: GameResult) -> dict[str, Finding]:
        return {f.fingerprint(game): f for f in result.findings}

    before, after = by_print(old_result), by_print(new_result)
    changed = tuple(
        (before[p], after[p])
        for p in after
        if p in before
        and _comparable(before[p], old_source.display) != _comparable(after[p], new_source.display)
    )
    ids = sorted(set(old_result.rulings) | set(new_result.rulings))
    rulings = {
        i: (old_result.rulings.get(i), new_result.rulings.get(i))
        for i in ids
        if old_result.rulings.get(i) != new_result.rulings.get(i)
    }
    a = _analysis(old_source, old_result, new_result)
    b = _analysis(new_source, old_result, new_result)
    answers = {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}
    gone = [f for p, f in before.items() if p not in after]
    came = [f for p, f in after.items() if p not in before]
    was = {(f.id, f.kind): f for f in gone}
    flipped = tuple((was[(f.id, f.kind)], f) for f in came if (f.id, f.kind) in was)
    moved = {id(f) for pair in flipped for f in pair}
    return Diff(
        game=game,
        old=old_result,
        new=new_result,
        appeared=tuple(f for f in came if id(f) not in moved),
        disappeared=tuple(f for f in gone if id(f) not in moved),
        status_changed=flipped,
        witness_changed=changed,
        rulings=rulings,
        analysis=answers,
    )


def _analysis(source: GameSource, *results: GameResult) -> dict[str, Any]:
    """A game's solver answers on a fixed set of positions, under ``source``.

    A game's checks module may define ``analysis(source, rulings)`` (answers on
    positions of its own choosing, e.g. benchmark positions) and
    ``replay(source, rulings, position)`` (the answer for a witness position,
    or None where the position does not fit the file). Witness positions come
    from both versions' findings, so both files answer the same questions.
    """
    module = importlib.import_module(games.get(source.game).checks)
    rulings = dict(next(r.rulings for r in results if r.source == source.display))
    answers: dict[str, Any] = {}
    fixed = getattr(module, "analysis", None)
    if fixed is not None:
        answers.update(fixed(source, rulings))
    replay = getattr(module, "replay", None)
    if replay is not None:
        seen: set[str] = set()
        for result, label in zip(results, ("old", "new"), strict=True):
            for f in result.findings:
                if f.witness is None:
                    continue
                position = f.witness.to_json()["position"]
                key = json.dumps(position, sort_keys=True)
                if key in seen:
                    continue
                seen.add(key)
                answers[f"{f.id} witness ({label})"] = replay(source, rulings, position)
    return answers


def _witness(finding: Finding) -> Any:
    return finding.witness.to_json() if finding.witness else None


def _comparable(finding: Finding, source: str) -> str:
    """The witness as text, with the game file's own name (which witnesses may cite) masked."""
    return json.dumps(_witness(finding), sort_keys=True).replace(json.dumps(source)[1:-1], "<file>")


def to_json(d: Diff, fail_on: frozenset[Kind]) -> dict[str, Any]:
    failing = {id(f) for f in d.failing(fail_on)}
    return {
        "game": d.game,
        "old": d.old.source,
        "new": d.new.source,
        "appeared": [{**f.to_json(), "fails": id(f) in failing} for f in d.appeared],
        "disappeared": [f.to_json() for f in d.disappeared],
        "status_changed": [
            {
                "id": b.id,
                "kind": b.kind.value,
                "old": a.status,
                "new": b.status,
                "fails": id(b) in failing,
            }
            for a, b in d.status_changed
        ],
        "witness_changed": [
            {"id": b.id, "kind": b.kind.value, "old": _witness(a), "new": _witness(b)}
            for a, b in d.witness_changed
        ],
        "rulings": {k: {"old": a, "new": b} for k, (a, b) in d.rulings.items()},
        "analysis": {k: {"old": a, "new": b} for k, (a, b) in d.analysis.items()},
        "finished": d.finished,
    }


def render(d: Diff, fail_on: frozenset[Kind], fmt: str) -> str:
    if fmt == "json":
        return dumps(to_json(d, fail_on), ensure_ascii=False)
    bullet = "-" if fmt == "markdown" else " "
    lines = [f"{'# ' if fmt == 'markdown' else ''}{d.game}: {d.old.source} -> {d.new.source}", ""]
    failing = {id(f) for f in d.failing(fail_on)}

    def section(title: str, rows: list[str]) -> None:
        if rows:
            lines.append(f"{'## ' if fmt == 'markdown' else ''}{title}")
            lines.extend(f"{bullet} {row}" for row in rows)
            lines.append("")

    section(
        "Appeared",
        [
            f"{'FAIL ' if id(f) in failing else ''}[{f.kind.value}] {f.id}: {f.message}"
            for f in d.appeared
        ],
    )
    section("Disappeared", [f"[{f.kind.value}] {f.id}: {f.title}" for f in d.disappeared])
    section(
        "Status changed",
        [
            f"{'FAIL ' if id(b) in failing else ''}[{b.kind.value}] {b.id}: "
            f"{a.status} -> {b.status}"
            for a, b in d.status_changed
        ],
    )
    section(
        "Witness changed", [f"[{b.kind.value}] {b.id}: {b.message}" for _, b in d.witness_changed]
    )
    section(
        "Rulings", [f"{k}: {a or '(none)'} -> {b or '(none)'}" for k, (a, b) in d.rulings.items()]
    )
    section(
        "Solver answers changed",
        [f"{k}: {json.dumps(a)} -> {json.dumps(b)}" for k, (a, b) in d.analysis.items()],
    )
    if d.empty:
        lines.append("No differences.")
    lines.append(f"{len(failing)} new finding(s) at or above --fail-on")
    if not d.finished:
        lines.append(
            "finished: false (a search ran out of its budget: differences there may be "
            "missing or not real)"
        )
    return "\n".join(lines) + "\n"
