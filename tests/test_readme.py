"""The README's two set-up-and-run commands, and .ci/run calling the test one verbatim.

What the README's console blocks print is tested by tests/test_docs.py.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("## Set up and run", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, flags=re.DOTALL)]


def test_readme_has_exactly_two_commands() -> None:
    commands = setup_commands()
    assert len(commands) == 2
    main_job, tests = commands
    assert "ruleslawyer check" in main_job
    assert "pytest" in tests
    assert all("\n" not in c for c in commands), "each command is one copy-paste line"


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert setup_commands()[1] in ci.splitlines()
