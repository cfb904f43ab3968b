"""Fuzzing the analysis commands (advise, balance, equilibrium, coverage, Twist of Fate's
hidden cards and horizons) and their command lines, through the CLI in process.

The same contract and the same knobs as ``test_fuzz.py``: a seeded run of a few cases per
kind in the fast suite, ``-m slow`` for the long randomized run
(``RULESLAWYER_FUZZ_EXAMPLES`` cases per kind). Counts tried are in tests/fuzz/README.md.
"""

from __future__ import annotations

import json
import tempfile
import tomllib
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.fuzz.analysis import ANALYSIS_KINDS, analysis_command_line
from tests.fuzz.harness import InputKind, run_case, verdict
from tests.fuzz.strategies import mutated, toml_text
from tests.fuzz.test_fuzz import COMMON, FAST_EXAMPLES, LINES, SLOW_EXAMPLES, case, check_case

FAST_KINDS = 3  # cases per kind in the fast suite: twelve kinds, a second or two each


def run_and_judge(kind: InputKind, text: str, command: tuple[str, ...]) -> None:
    """:func:`check_case`, counting each exit code as a Hypothesis event (shown by
    ``--hypothesis-show-statistics``: how many cases did their work, how many were refused)."""
    with tempfile.TemporaryDirectory(prefix="ruleslawyer-fuzz-") as tmp:
        result, names, args = run_case(kind, text, command, Path(tmp))
        problem = verdict(result, args, names)
    event(f"exit {result.exit_code}")
    if problem is not None:
        pytest.fail(f"{kind.name}: {' '.join(command)}\n--- file ---\n{text[:3000]}\n{problem}")


@pytest.mark.parametrize("name", sorted(ANALYSIS_KINDS))
@settings(max_examples=FAST_KINDS, derandomize=True, **COMMON)
@given(data=st.data())
def test_fuzz_analysis_fast(name: str, data: st.DataObject) -> None:
    kind = ANALYSIS_KINDS[name]
    text, command = data.draw(case(kind, commands=1))
    check_case(kind, text, command)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ANALYSIS_KINDS))
@settings(max_examples=SLOW_EXAMPLES, **COMMON)
@given(data=st.data())
def test_fuzz_analysis_slow(name: str, data: st.DataObject) -> None:
    kind = ANALYSIS_KINDS[name]
    text, command = data.draw(case(kind, commands=len(kind.commands)))
    run_and_judge(kind, text, command)


@settings(max_examples=FAST_EXAMPLES, derandomize=True, **COMMON)
@given(args=analysis_command_line())
def test_fuzz_analysis_command_lines_fast(args: tuple[str, ...]) -> None:
    check_case(LINES, "", args)


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, **COMMON)
@given(args=analysis_command_line())
def test_fuzz_analysis_command_lines_slow(args: tuple[str, ...]) -> None:
    run_and_judge(LINES, "", args)


# --- a finished answer must be right: the two Twist of Fate solvers agree on hidden cards -----

HIDDEN = ANALYSIS_KINDS["twist-of-fate-hidden"]
SOLVERS = (
    ("twist-of-fate", "solve", "{file}", "--solver", "reference", "--format", "json"),
    ("twist-of-fate", "solve", "{file}", "--threads", "1", "--format", "json"),
)
NOT_COMPARED = ("states", "seconds")  # how each solver got there, not the answer


def solvers_disagree(text: str) -> str | None:
    """Where the reference and the Numba solver, both finished, give different answers on a
    position with hidden cards (or a run that broke the contract)."""
    answers = []
    for command in SOLVERS:
        with tempfile.TemporaryDirectory(prefix="ruleslawyer-fuzz-") as tmp:
            result, names, args = run_case(
                HIDDEN, text, (*command, "--max-seconds", "5"), Path(tmp)
            )
        problem = verdict(result, args, names)
        if problem is not None:
            return problem
        if result.exit_code != 0:
            event(f"exit {result.exit_code}")
            return None  # refused (both solvers read the same file) or unfinished
        doc = json.loads(result.stdout)
        answers.append({k: v for k, v in doc.items() if k not in NOT_COMPARED})
    event("both finished: compared")
    if answers[0] != answers[1]:
        differ = sorted(k for k in answers[0] if answers[0][k] != answers[1].get(k))
        return f"the solvers disagree on {differ}"
    return None


@st.composite
def hidden_position(draw: st.DrawFn) -> str:
    """The hidden-card example after mostly valid mutations (counts, hands, candidates)."""
    doc = tomllib.loads(HIDDEN.base())
    return toml_text(draw(mutated(doc, valid_only=True)))


def check_agreement(text: str) -> None:
    problem = solvers_disagree(text)
    if problem is not None:
        pytest.fail(f"twist-of-fate-hidden, both solvers\n--- file ---\n{text[:3000]}\n{problem}")


@settings(max_examples=FAST_KINDS, derandomize=True, **COMMON)
@given(text=hidden_position())
def test_fuzz_hidden_solvers_agree_fast(text: str) -> None:
    check_agreement(text)


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, **COMMON)
@given(text=hidden_position())
def test_fuzz_hidden_solvers_agree_slow(text: str) -> None:
    check_agreement(text)


def test_the_verdict_reads_the_answer_written_by_o(tmp_path: Path) -> None:
    # found by the analysis command lines: `advise ... -o out.txt --max-seconds 1` ran out of
    # budget (exit 3) and said so in out.txt, not on stdout; the verdict judges that file
    from click.testing import CliRunner, Result

    def result(code: int, err: str) -> Result:
        return Result(CliRunner(), b"", err.encode(), err.encode(), None, code, SystemExit(code))

    out = tmp_path / "out.txt"
    args = ("twisted-cryptids", "advise", "r.toml", "-o", str(out), "--max-seconds", "1")
    out.write_text("actor: ann\nfinished: false\n")
    assert verdict(result(3, f"wrote {out}\n"), args, ["r.toml"]) is None
    assert verdict(result(0, f"wrote {out}\n"), args, ["r.toml"])  # unfinished, exit 0
    out.write_text("actor: ann\nfinished: true\n")
    assert verdict(result(3, f"wrote {out}\n"), args, ["r.toml"])  # exit 3, finished
    assert verdict(result(0, f"wrote {out}\n"), args, ["r.toml"]) is None
    # click takes the last -o: `-o r.toml -o out.txt` wrote out.txt, never the input
    (tmp_path / "r.toml").write_text("game = 1\n")
    twice = ("no-schema", "kaelyfos", "-o", str(tmp_path / "r.toml"), "-o", str(out))
    out.write_text('{"schema_version": 1}')
    assert verdict(result(0, f"wrote {out}\n"), (*twice, "--format", "json"), ["r.toml"]) is None
