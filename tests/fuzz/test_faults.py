"""Fuzzing the Dask engine's options and work directory, designer rulebooks and report
directories through the CLI, in process (tests/fuzz/faults.py lays out each case).

The fast suite runs a few seeded cases of each kind; ``-m slow`` runs half of
``RULESLAWYER_FUZZ_EXAMPLES`` (default 2,000) per kind. Counts tried are in
tests/fuzz/README.md. A failure prints the plan, which replays the case:
``problem_of(plan)``.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from tests.fuzz.faults import PLANS, Unavailable, problem_of

FAST_EXAMPLES = 3  # per kind in the fast suite
# per kind, -m slow: half of RULESLAWYER_FUZZ_EXAMPLES (a case here runs a whole check,
# report or tiered search over several files: 0.3 to 5 s)
SLOW_EXAMPLES = int(os.environ.get("RULESLAWYER_FUZZ_EXAMPLES", "2000")) // 2
COMMON: dict[str, Any] = dict(
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)


def check_plan(plan: tuple[Any, ...]) -> None:
    try:
        problem = problem_of(plan)
    except Unavailable:
        reject()  # a read-only or full file system needs root to mount
    if problem is not None:
        pytest.fail(f"{plan!r:.3000}\n{problem}")


@pytest.mark.parametrize("name", sorted(PLANS))
@settings(max_examples=FAST_EXAMPLES, derandomize=True, **COMMON)
@given(data=st.data())
def test_faults_fast(name: str, data: st.DataObject) -> None:
    check_plan(data.draw(PLANS[name], label="plan"))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PLANS))
@settings(max_examples=SLOW_EXAMPLES, **COMMON)
@given(data=st.data())
def test_faults_slow(name: str, data: st.DataObject) -> None:
    check_plan(data.draw(PLANS[name], label="plan"))


# ---- what the runs found: each minimal case, kept ----


def _one_line(result: Any, *named: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for name in named:
        assert name in lines[0], lines[0]


def _run_in(folder: Any, *args: str) -> Any:
    from click.testing import CliRunner

    from ruleslawyer.cli.main import cli

    here = os.getcwd()
    os.chdir(folder)
    try:
        return CliRunner().invoke(cli, list(args))
    finally:
        os.chdir(here)


def test_an_empty_work_dir_is_refused_not_the_current_directory(tmp_path: Any) -> None:
    # found by dask-options: --work-dir "" became "." and a run wrote its tiers (and a
    # --resume looked for its manifest) in the current directory
    from tests.fuzz.faults import small_position

    for more in ((), ("--resume",)):
        result = _run_in(
            tmp_path, "twist-of-fate", "solve", str(small_position()), "--engine", "dask",
            "--workers", "0", "--work-dir", "", *more,
        )  # fmt: skip
        _one_line(result, "--work-dir", "found ''")
    assert list(tmp_path.iterdir()) == []


def test_an_empty_report_dir_is_refused_not_the_current_directory(tmp_path: Any) -> None:
    # found by report-dir: report --dir "" wrote its pages into the current directory
    result = _run_in(tmp_path, "report", "kaelyfos", "--dir", "", "--max-seconds", "0.2")
    _one_line(result, "--dir", "found ''")
    assert list(tmp_path.iterdir()) == []


def test_tiny_partitions_are_refused(tmp_path: Any) -> None:
    # found by dask-options: --partition-states 1 on 1,400 states made 131,072 file reads
    # in a tier and ran for minutes; a partition aims at 100 states at least
    from tests.fuzz.faults import small_position

    result = _run_in(
        tmp_path, "twist-of-fate", "solve", str(small_position()), "--engine", "dask",
        "--workers", "0", "--partition-states", "99",
    )  # fmt: skip
    _one_line(result, "--partition-states", "at least 100")


def test_a_rulebook_path_with_a_nul_byte_is_one_line(tmp_path: Any) -> None:
    # found by designer-rulebook: rulebook = "rules\u0000x.md" gave a ValueError traceback
    from tests.fuzz.faults import TINY_BOARD

    game = tmp_path / "board.toml"
    game.write_text('rulebook = "rules\\u0000x.md"\n' + TINY_BOARD.read_text("utf-8"))
    result = _run_in(tmp_path, "check", str(game), "--max-seconds", "1")
    _one_line(result, str(game), "rulebook", "x00")


def test_sections_of_a_long_markdown_rulebook_are_found_in_one_pass(monkeypatch: Any) -> None:
    # found by designer-rulebook: a 2 MiB rulebook ran past 30 s, its sections looked up
    # for each of 18,000 uncovered sentences by reading back line by line to a heading
    from ruleslawyer.rulebook import books as rulebooks

    matched = [0]
    heading = rulebooks._HEADING

    class Counting:
        def match(self, text: str) -> Any:
            matched[0] += 1
            return heading.match(text)

    monkeypatch.setattr(rulebooks, "_HEADING", Counting())
    lines = ["# Rules", *(f"Rule {i} holds." for i in range(5000)), "## Late", "Last."]
    book = rulebooks.DesignerRulebook("rules/long.md", "\n".join(lines))
    assert book.section_at(5001, "x") == "Rules" and book.section_at(5003, "x") == "Late"
    assert [book.section_at(line, "x") for line in (0, 1, 2)] == ["x", "Rules", "Rules"]
    for line in range(1, len(lines) + 1):
        book.section_at(line, "")
    assert matched[0] == len(lines)  # each line read once, not once per lookup


@pytest.mark.slow
def test_a_taken_dashboard_port_says_nothing_on_stderr(tmp_path: Any) -> None:
    # found by dask-options and dask-workdir: with port 8787 taken (another cluster on the
    # machine), a local cluster warned on stderr over three lines, around the error line
    import contextlib
    import socket
    import warnings

    from tests.fuzz.faults import small_position

    with contextlib.ExitStack() as stack:
        # a warning reaches stderr outside pytest, which records them instead
        seen = stack.enter_context(warnings.catch_warnings(record=True))
        warnings.simplefilter("always")
        with contextlib.suppress(OSError):  # taken already, as in the runs: as good
            taken = stack.enter_context(socket.socket())
            taken.bind(("", 8787))
            taken.listen()
        result = _run_in(
            tmp_path, "twist-of-fate", "solve", str(small_position()), "--engine", "dask",
            "--model", "paranoid", "--workers", "1", "--work-dir", str(tmp_path / "w"),
            "--partition-states", "100",
            "--format", "json",
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stderr == "", result.stderr
    assert not [w for w in seen if "already in use" in str(w.message)]


def test_a_markdown_rulebook_on_one_long_line_is_placed_in_one_pass() -> None:
    # found by designer-rulebook: the example on one line of 500 KB, forty times: that
    # line is its only heading, and placing each quote lowered it again for every place
    # the quote is found (8,934 times, past 30 s)
    from ruleslawyer.findings import Sentence
    from ruleslawyer.rulebook import books as rulebooks
    from tests.fuzz.faults import EXAMPLE_BOOK

    body = EXAMPLE_BOOK.read_text("utf-8").replace("\n", " ") * 40
    book = rulebooks.DesignerRulebook("rules/kaelyfos.md", body)
    quote = "Each bloodsucker moves the amount indicated, toward the nearest explorer."
    placed = book.place(Sentence("x.txt", "Bloodsuckers", quote))
    assert placed.line == 1 and placed.section.startswith("Kaelyfos: the long gut")
    assert list(book._lowered.values()) == [book.section_at(1, "").lower()]
    plan = ("rulebook", "rules/kaelyfos.md", "one-line", "", 290,
            ("baseline", "{game}", "--max-seconds", "1", "-o", "{root}/baseline.json"))  # fmt: skip
    assert problem_of(plan) is None
