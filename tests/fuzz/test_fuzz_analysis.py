"""Fuzzing the analysis commands (advise, balance, equilibrium, coverage, Twist of Fate's
hidden cards and horizons) and their command lines, through the CLI in process.

The same contract and the same knobs as ``test_fuzz.py``: a seeded run of a few cases per
kind in the fast suite, ``-m slow`` for the long randomized run
(``RULESLAWYER_FUZZ_EXAMPLES`` cases per kind). Counts tried are in tests/fuzz/README.md.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fuzz.analysis import ANALYSIS_KINDS, analysis_command_line
from tests.fuzz.test_fuzz import COMMON, FAST_EXAMPLES, LINES, SLOW_EXAMPLES, case, check_case

FAST_KINDS = 3  # cases per kind in the fast suite: twelve kinds, a second or two each


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
    check_case(kind, text, command)


@settings(max_examples=FAST_EXAMPLES, derandomize=True, **COMMON)
@given(args=analysis_command_line())
def test_fuzz_analysis_command_lines_fast(args: tuple[str, ...]) -> None:
    check_case(LINES, "", args)


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, **COMMON)
@given(args=analysis_command_line())
def test_fuzz_analysis_command_lines_slow(args: tuple[str, ...]) -> None:
    check_case(LINES, "", args)
