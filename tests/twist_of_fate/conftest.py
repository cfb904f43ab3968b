"""Every Twist of Fate test runs with the search kernels compiled first (tests/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _kernels_first(compiled_kernels: None) -> None:
    """Before the first test of this folder: the kernels, compiled once."""
