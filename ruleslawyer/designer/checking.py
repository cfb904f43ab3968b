"""Running the checks of one or more games and gathering their findings."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ruleslawyer import games
from ruleslawyer.budget import Budget
from ruleslawyer.errors import InputError
from ruleslawyer.findings import Finding, Kind, resolve_rulings
from ruleslawyer.gamefiles.source import GameSource, load_source
from ruleslawyer.rulebook import quotes as rulebook_quotes

PROVENANCE_WARNINGS = {
    "assumed": (
        "The game data is assumed, not printed: the publisher has not made it public, "
        "so findings that depend on it hold for this data, not necessarily for the printed game."
    ),
    "placeholder": (
        "The game data is a placeholder: values nobody published were invented to make "
        "the rules runnable. Supply the real values in a game file of your own."
    ),
}


@dataclass(frozen=True)
class GameResult:
    """The findings of one game file, with where they came from."""

    game: str
    title: str
    source: str
    provenance: str
    rulings: Mapping[str, str]
    findings: tuple[Finding, ...]
    rulebook: str
    rulebook_file: str | None = None  # the designer's own rulebook, when the game file names one
    baseline: tuple[Mapping[str, str], ...] | None = None  # the --baseline entries, when given

    @property
    def warning(self) -> str | None:
        return PROVENANCE_WARNINGS.get(self.provenance)

    def failing(self, fail_on: frozenset[Kind]) -> list[Finding]:
        return [f for f in self.findings if f.fails(effective_fail_on(fail_on))]

    def unfinished(self) -> list[Finding]:
        """Findings whose search ran out of budget: incomplete answers."""
        return [f for f in self.findings if not f.finished]


def effective_fail_on(fail_on: frozenset[Kind]) -> frozenset[Kind]:
    """``--fail-on`` plus ``data-error``: a broken game file always fails its check."""
    return fail_on | {Kind.DATA_ERROR}


def check_source(source: GameSource, cli_rulings: Mapping[str, str], budget: Budget) -> GameResult:
    """Run every check of ``source``'s game under its rulings and ``--ruling`` options."""
    info = games.get(source.game)
    points = info.rule_points()
    rulings = resolve_rulings(
        points, source.rulings(), _for_game(cli_rulings, info.id), source=source.display
    )
    findings = rulebook_quotes.apply(
        source, points, rulings, info.check_function()(source, rulings, budget)
    )
    findings = [*findings, *_coverage_gaps(source, info.rulebook)]
    order = {p.id: i for i, p in enumerate(points)}
    findings = sorted(
        findings,
        key=lambda f: (f.kind != Kind.DATA_ERROR, order.get(f.id, len(order)), f.id),
    )
    return GameResult(
        game=info.id,
        title=info.title,
        source=source.display,
        provenance=source.provenance,
        rulings=rulings,
        findings=tuple(findings),
        rulebook=info.rulebook,
        rulebook_file=book.display if (book := source.rulebook()) is not None else None,
    )


def _coverage_gaps(source: GameSource, rulebook: str) -> list[Finding]:
    """Gaps for the sentences of the designer's rulebook that nothing covers (none without one).

    Every quote of the game file's ``[coverage]`` table must be in that rulebook.
    """
    from ruleslawyer.rulebook import coverage

    book = source.rulebook()
    explained = source.coverage()
    if book is None:
        if explained:
            expected = 'a rulebook named in the file (rulebook = "...")'
            raise InputError(source.display, "coverage", next(iter(explained)), expected)
        return []
    present = {" ".join(text.split()) for _, text in coverage.sentences(book.text)}
    for quote in explained:
        if " ".join(quote.split()) not in present:
            expected = f"a sentence of {book.display}, verbatim"
            raise InputError(source.display, f"coverage.{quote}", quote, expected)
    return coverage.gap_findings(source.game, rulebook, book, explained)


def load_all(targets: Iterable[str]) -> list[GameSource]:
    """Read every target (all built-in games when none) before any search starts."""
    return [load_source(t) for t in (list(targets) or list(games.GAMES))]


def game_files(targets: Iterable[str]) -> list[str]:
    """The targets that are game files, for ``check --only-game-files`` (what pre-commit passes).

    Kept: a game id; a file that cannot be read as TOML (``check`` says why); a file whose
    ``game`` names a game, or a close misspelling of one (``check`` says "did you mean");
    a file without ``game`` holding the top-level tables of one game's files shaped as that
    game's are (:func:`_shaped_like`). Left out: position files, logs and records of play
    (they name a game too, and the command that reads them), and other TOML: a ``game``
    naming no game (``pyproject.toml``, another tool's settings), or a game's table names
    holding something else (``[[character]]`` of a role-playing sheet).
    """
    from ruleslawyer.gamefiles.kinds import input_file_kind
    from ruleslawyer.gamefiles.source import read_toml

    kept = []
    for target in targets:
        if target not in games.GAMES:
            try:
                _, doc = read_toml(target)
            except InputError:
                kept.append(target)
                continue
            if input_file_kind(doc) is not None:
                continue
            declared = doc.get("game")
            if declared is not None:
                if not isinstance(declared, str) or (
                    declared not in games.GAMES and games.closest(declared, games.GAMES) is None
                ):
                    continue
            elif not any(
                g.marker_keys <= doc.keys() and _shaped_like(doc, g) for g in games.GAMES.values()
            ):
                continue
        kept.append(target)
    return kept


def _shaped_like(document: Mapping[str, Any], game: games.GameInfo) -> bool:
    """Whether each of ``game``'s marker tables in ``document`` (``[[node]]``, ``[[character]]``)
    is a list of tables, one of which uses a key that table has in the game's built-in file
    besides ``name`` and ``id`` (a board's ``side``, a character's ``sides``)."""
    from ruleslawyer.gamefiles.source import builtin_path, read_toml

    _, shipped = read_toml(builtin_path(game.data_file))
    for key in game.marker_keys:
        value, model = document[key], shipped[key]
        if not isinstance(model, list):
            continue  # a table of named entries (Cunning Folk's compositions): its name suffices
        known = {k for entry in model for k in entry} - {"name", "id"}
        if not isinstance(value, list) or not any(
            isinstance(entry, dict) and known & entry.keys() for entry in value
        ):
            return False
    return True


def check_sources(
    sources: Sequence[GameSource],
    cli_rulings: Mapping[str, str],
    budget: Budget,
    progress: Callable[[str], None] | None = None,
) -> list[GameResult]:
    """Check each source; ``progress`` is told which game starts (for a terminal's stderr)."""
    validate_cli_rulings(sources, cli_rulings)
    results = []
    for i, s in enumerate(sources, start=1):
        if progress is not None:
            progress(f"checking {s.game} ({s.display}), {i} of {len(sources)} ...")
        results.append(check_source(s, cli_rulings, budget))
    return results


def validate_cli_rulings(sources: Sequence[GameSource], cli_rulings: Mapping[str, str]) -> None:
    """Every ``--ruling`` must name a rule point of a game being checked, and one of its
    readings (``check``, ``report``, ``diff`` and ``explain`` all ask this)."""
    points = {p.id: p for s in sources for p in games.get(s.game).rule_points()}
    for point_id in cli_rulings:
        if point_id not in points:
            raise InputError("--ruling", "", point_id, "a rule point id of a checked game")
    resolve_rulings(points.values(), {}, cli_rulings, source="--ruling")


def check_all(
    targets: Iterable[str],
    cli_rulings: Mapping[str, str],
    budget: Budget,
    progress: Callable[[str], None] | None = None,
) -> list[GameResult]:
    """Check each target (all built-in games when none)."""
    return check_sources(load_all(targets), cli_rulings, budget, progress)


def _for_game(cli_rulings: Mapping[str, str], game: str) -> dict[str, str]:
    return {k: v for k, v in cli_rulings.items() if k.split("/", 1)[0] == game}
