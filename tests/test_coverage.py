"""Rulebook coverage: every sentence of the four shipped rulebooks has an entry that holds.

Every modelled, rule-point and partly entry names the tests that exercise it, as
pytest node ids; :func:`unknown_tests` finds an entry that names none, or a test that
does not exist (the test files parsed with ``ast``, nothing run).

The designer half runs on a copy of examples/designer-repo: a new sentence in
its rulebook that nothing covers makes ``check`` fail and ``diff`` name it.
"""

from __future__ import annotations

import ast
import json
import shutil
from collections.abc import Iterable
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.games import GAMES
from ruleslawyer.rulebook import coverage
from ruleslawyer.rulebook.shipped import spans_in, text

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "designer-repo"
NEW_SENTENCE = "Bloodsuckers attack explorers on the Scarab."


def _functions(module: Path) -> set[str]:
    tree = ast.parse(module.read_text("utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}


def node_ids(module: Path) -> set[str]:
    """The pytest node ids a test module defines, below its path: ``test_x``,
    ``TestX::test_y``, and ``TestX::runTest`` for ``TestX = Machine.TestCase`` (a
    hypothesis state machine). Parametrised tests by their function's name."""
    ids = set()
    for node in ast.parse(module.read_text("utf-8")).body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            ids.add(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            ids |= {
                f"{node.name}::{m.name}"
                for m in node.body
                if isinstance(m, ast.FunctionDef) and m.name.startswith("test_")
            }
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute):
            if node.value.attr != "TestCase":
                continue
            ids |= {f"{t.id}::runTest" for t in node.targets if isinstance(t, ast.Name)}
    return ids


def unknown_tests(rows: Iterable[coverage.Entry], root: Path = ROOT) -> list[str]:
    """What is wrong with the tests the entries name: a modelled, rule-point or partly
    entry that names none, or a node id that is not a test of a file under ``tests/``."""
    problems = []
    defined: dict[Path, set[str]] = {}
    for entry in rows:
        if entry.status in coverage.TESTED and not entry.tests:
            problems.append(f"{entry.status} names no test: {entry.quote}")
        for test in entry.tests:
            file, sep, name = test.partition("::")
            path = root / file
            if not (sep and file.startswith("tests/") and path.is_file()):
                problems.append(f"no test file {file!r}: {test}")
                continue
            if path not in defined:
                defined[path] = node_ids(path)
            if name not in defined[path]:
                problems.append(f"no test {name!r} in {file}: {test}")
    return problems


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_entry_holds(game: str) -> None:
    body = text(GAMES[game].rulebook)
    point_ids = {p.id for p in GAMES[game].rule_points()}
    for entry in coverage.entries(game):
        assert spans_in(body, entry.quote), entry.quote
        assert entry.status in coverage.STATUSES, entry
        if entry.status == "rule-point":
            assert entry.points and set(entry.points) <= point_ids, entry
        if entry.status == "modelled":
            assert entry.code, entry
        if entry.status == "partly":
            assert entry.code or entry.points, entry
        assert set(entry.points) <= point_ids, entry
        for ref in entry.code:
            path, _, name = ref.partition(":")
            module = ROOT / "ruleslawyer" / path
            assert module.is_file() and name in _functions(module), ref
        if entry.status in ("partly", "not-modelled"):
            assert len(entry.reason.split()) >= 5, entry  # what is left out, in words
        if entry.status == "not-rule-stating":
            assert entry.reason in coverage.NOT_RULE_REASONS, entry
        if entry.status not in coverage.TESTED:
            assert not (entry.tests or entry.code or entry.points), entry


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_covered_sentence_names_tests_that_exist(game: str) -> None:
    assert unknown_tests(coverage.entries(game)) == []


def test_a_missing_or_unknown_test_name_is_caught() -> None:
    quote = "If a trap has caught 2 bloodsuckers it is destroyed."
    step = "tests/kaelyfos/test_step.py"
    rows = [
        coverage.Entry(quote, "modelled", code=("models/kaelyfos/move.py:move_all",)),
        coverage.Entry(quote, "rule-point", points=("kaelyfos/move-order",), tests=(step,)),
        coverage.Entry(quote, "partly", tests=(f"{step}::test_no_such_test",), reason="x"),
        coverage.Entry(quote, "modelled", tests=("tests/kaelyfos/test_nowhere.py::test_x",)),
        coverage.Entry(quote, "modelled", tests=("ruleslawyer/rulebook/coverage.py::entries",)),
        coverage.Entry(quote, "modelled", tests=(f"{step}::test_second_catch_destroys_the_trap",)),
        coverage.Entry(quote, "not-modelled", reason="outside the model, no test needed"),
    ]
    assert unknown_tests(rows) == [
        f"modelled names no test: {quote}",
        f"no test file {step!r}: {step}",
        f"no test 'test_no_such_test' in {step}: {step}::test_no_such_test",
        "no test file 'tests/kaelyfos/test_nowhere.py': tests/kaelyfos/test_nowhere.py::test_x",
        "no test file 'ruleslawyer/rulebook/coverage.py': "
        "ruleslawyer/rulebook/coverage.py::entries",
    ]


def test_node_ids_of_classes_and_state_machines(tmp_path: Path) -> None:
    module = tmp_path / "test_m.py"
    module.write_text(
        "def test_a(): ...\ndef helper(): ...\nclass TestB:\n    def test_c(self): ...\n"
        "class Machine: ...\nTestMachine = Machine.TestCase\n"
    )
    assert node_ids(module) == {"test_a", "TestB::test_c", "TestMachine::runTest"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_sentence_unexplained(game: str) -> None:
    said = [s for _, s in coverage.sentences(text(GAMES[game].rulebook))]
    quoted = [e.quote for e in coverage.entries(game)]
    assert quoted == said  # every sentence, once, in rulebook order


def test_sentences_count_a_labelled_sentence_once() -> None:
    body = "BLOODSUCKERS ATTACK: Each bloodsucker attacks.\nIn that order.\nIn that order.\n"
    assert coverage.sentences(body) == [
        (1, "BLOODSUCKERS ATTACK: Each bloodsucker attacks."),
        (2, "In that order."),
    ]


def test_cli_text_counts_and_json() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["coverage", "twist-of-fate"])
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    rows = coverage.entries("twist-of-fate")
    assert first.startswith(f"twist-of-fate: {len(rows)} sentences: ")
    assert (
        '  [rule point] The other player takes three random cards currently in front of "Monks"'
        in result.output
    )
    doc = json.loads(runner.invoke(cli, ["coverage", "--format", "json"]).output)["games"]
    assert [d["game"] for d in doc] == list(GAMES)
    for d in doc:
        assert sum(d["counts"].values()) == d["sentences_total"] == len(d["sentences"])


def test_cli_markdown_to_file(tmp_path: Path) -> None:
    out = tmp_path / "coverage.md"
    result = CliRunner().invoke(cli, ["coverage", "kaelyfos", "--format", "markdown", "-o", out])
    assert result.exit_code == 0, result.output
    md = out.read_text("utf-8")
    assert md.startswith("# Rulebook coverage: kaelyfos\n")
    assert "| Set aside secret cards A & B until referenced. | not modelled |" in md


def test_cli_shows_the_tests_and_what_a_partly_sentence_leaves_out() -> None:
    runner = CliRunner()
    text = runner.invoke(cli, ["coverage", "twisted-cryptids"]).output
    day = "  [partly] In player order, on your turn you will take one of the following Actions:"
    block = text.split(day, 1)[1].split("\n  [", 1)[0].splitlines()
    assert block[2].startswith("      left out: advise takes every Day turn of another player")
    assert block[3].startswith("      tests: tests/twisted_cryptids/test_rulebook_sentences.py::")
    tie = "  [modelled] If multiple Sites tie for the most Humans, the First Player chooses"
    block = text.split(tie, 1)[1].split("\n  [", 1)[0].splitlines()
    assert not any(x.startswith("      left out:") for x in block)
    assert "test_advise_players.py::test_first_player_breaks_a_tie_for_himself" in block[2]
    doc = json.loads(runner.invoke(cli, ["coverage", "kaelyfos", "--format", "json"]).output)
    rows = {r["quote"]: r for r in doc["games"][0]["sentences"]}
    row = rows["If a trap has caught 2 bloodsuckers it is destroyed."]
    assert row["tests"][0] == "tests/kaelyfos/test_step.py::test_second_catch_destroys_the_trap"
    nightmare = rows["Then return the nightmare card to the bottom of the deck."]
    assert nightmare["status"] == "not-modelled" and "tests" not in nightmare
    md = runner.invoke(cli, ["coverage", "kaelyfos", "--format", "markdown"]).output
    line = next(x for x in md.splitlines() if x.startswith("| Separate the remaining environment"))
    cells = [c.strip() for c in line.strip("|").split(" | ")]
    assert cells[1] == "partly" and "what a face-down card shows" in cells[3]
    assert "test_standing.py::test_a_move_of_one_ends_where_illegal_accepts_it" in cells[4]
    line = next(x for x in md.splitlines() if x.startswith("| You may destroy a trap"))
    cells = [c.strip() for c in line.strip("|").split(" | ")]
    assert cells[1] == "rule point" and "kaelyfos/destroyed-token" in cells[2] and not cells[3]
    assert "test_two_traps.py::test_a_destroy_in_a_position_file_is_the_crews_choice" in cells[4]


def test_the_report_lists_partly_rows_with_what_they_leave_out() -> None:
    lines = coverage.section("cunning-folk", full=False)
    assert lines[0] == "## Rulebook coverage: cunning-folk"
    rows = [x for x in lines if x.startswith("| ") and "| partly |" in x]
    assert len(rows) == coverage.counts(coverage.entries("cunning-folk"))["partly"] > 0
    scoundrels = next(x for x in rows if x.startswith("| Choose one of the cards you're dealt"))
    assert "coin flip" in scoundrels and "test_prior_and_limits.py::" in scoundrels


def test_cli_bad_game_is_one_line() -> None:
    result = CliRunner().invoke(cli, ["coverage", "kaelyfoss"])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert "kaelyfoss" in result.output


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    target = tmp_path / "designer-repo"
    shutil.copytree(EXAMPLE, target)
    return target


def _run(repo: Path, *args: str) -> tuple[int, str]:
    import os

    here = os.getcwd()
    os.chdir(repo)
    try:
        result = CliRunner().invoke(cli, list(args))
    finally:
        os.chdir(here)
    return result.exit_code, result.output


def test_unmodified_example_has_no_uncovered_sentence(repo: Path) -> None:
    code, out = _run(repo, "coverage", "board.toml")
    assert code == 0, out
    assert "0 sentence(s) of rules/kaelyfos.md that nothing covers" in out
    code, out = _run(repo, "check", "board.toml", "--baseline", "ruleslawyer-baseline.json")
    assert code == 0, out
    assert "uncovered-sentence" not in out


def test_new_uncovered_sentence_fails_check_and_diff_names_it(repo: Path) -> None:
    rules = repo / "rules" / "kaelyfos.md"
    shutil.copy(rules, repo / "old-rules.md")
    old = "- Bloodsuckers completely ignore the Scarab and any explorers on it."
    body = rules.read_text("utf-8")
    assert old in body
    rules.write_text(body.replace(old, f"{old} {NEW_SENTENCE}"), "utf-8")
    line = next(n for n, t in enumerate(rules.read_text().splitlines(), 1) if NEW_SENTENCE in t)

    code, out = _run(repo, "check", "board.toml", "--baseline", "ruleslawyer-baseline.json")
    assert code == 1, out
    assert "FAIL [gap] kaelyfos/coverage/uncovered-sentence" in out
    assert f"“{NEW_SENTENCE}” (Reference & FAQ, rules/kaelyfos.md:{line})" in out

    code, diffed = _run(repo, "diff", "old-rules.md", "rules/kaelyfos.md")
    assert code == 1, diffed
    assert f"“{NEW_SENTENCE}” (rules/kaelyfos.md:{line})" in diffed

    # Saying what covers it in the game file's [coverage] table settles it.
    board = repo / "board.toml"
    board.write_text(
        board.read_text("utf-8") + f'"{NEW_SENTENCE}" = "not modelled: house rule, not tested"\n'
    )
    code, out = _run(repo, "check", "board.toml", "--baseline", "ruleslawyer-baseline.json")
    assert code == 0, out


def test_coverage_table_quote_not_in_rulebook_is_bad_input(repo: Path) -> None:
    board = repo / "board.toml"
    board.write_text(board.read_text("utf-8") + '"No such sentence." = "flavour"\n')
    code, out = _run(repo, "check", "board.toml")
    assert code == 2, out
    assert len(out.strip().splitlines()) == 1
    assert "board.toml" in out and "coverage.No such sentence." in out


def test_coverage_file_json_lists_uncovered(repo: Path) -> None:
    code, out = _run(repo, "coverage", "board.toml", "--format", "json")
    assert code == 0, out
    (doc,) = json.loads(out)["games"]
    assert doc["game"] == "kaelyfos"
    assert doc["rulebook"] == "rules/kaelyfos.md"
    assert doc["uncovered"] == []


@pytest.mark.parametrize(
    ("table", "place"),
    [
        ("coverage = 3\n", "coverage"),  # not a table
        ('[coverage]\n"Place the crew on the Scarab." = ""\n', "coverage.Place the crew"),
    ],
)
def test_bad_coverage_table_is_one_line(repo: Path, table: str, place: str) -> None:
    board = repo / "board.toml"
    text = board.read_text("utf-8").split("\n[coverage]", 1)[0]
    if table.startswith("coverage ="):  # a top-level key goes before the first table
        text = table + text
    else:
        text += "\n" + table
    board.write_text(text, "utf-8")
    code, out = _run(repo, "check", "board.toml")
    assert code == 2, out
    assert len(out.strip().splitlines()) == 1
    assert f"board.toml: {place}" in out or place in out


def test_coverage_table_without_rulebook_is_bad_input(tmp_path: Path) -> None:
    board = (EXAMPLE / "board.toml").read_text("utf-8")
    board = board.replace('rulebook = "rules/kaelyfos.md"', "").split("\n[coverage]", 1)[0]
    path = tmp_path / "board.toml"
    path.write_text(board + '\n[coverage]\n"Some sentence." = "flavour"\n', "utf-8")
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 2, result.output
    assert "expected a rulebook named in the file" in result.output
