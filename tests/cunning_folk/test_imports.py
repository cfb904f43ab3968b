"""`ruleslawyer --help` stays fast: the Cunning Folk CLI group and model import no heavy module."""

from __future__ import annotations

import subprocess
import sys


def test_cli_group_and_models_import_no_solver_libraries() -> None:
    code = (
        "import sys\n"
        "import ruleslawyer.cli.main, ruleslawyer.cli.cunning_folk.commands\n"
        "import ruleslawyer.models.cunning_folk.village, ruleslawyer.models.cunning_folk.play\n"
        "print(sorted(m for m in ('z3', 'numpy', 'numba', 'pydantic') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_knowledge_needs_no_solver() -> None:
    # The per-player information state is a model: a later OpenSpiel game builds its
    # information_state_string from it, with no solver library loaded.
    code = (
        "import sys\n"
        "import ruleslawyer.models.cunning_folk.knowledge\n"
        "print(sorted(m for m in ('z3', 'numpy', 'numba', 'scipy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
