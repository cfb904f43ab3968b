"""Budgets for searches, and progress on stderr for long ones."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ruleslawyer.errors import BudgetExceeded

# Seconds spent on one-time set-up that no budget counts: compiling the Twist of Fate
# search kernels (ruleslawyer.solvers.twist_of_fate). A budget bounds the search.
_NOT_COUNTED = [0.0]


def not_counted(seconds: float) -> None:
    """Leave ``seconds`` of set-up just spent out of every budget's time."""
    _NOT_COUNTED[0] += seconds


def _not_counted_yet() -> float:
    return _NOT_COUNTED[0]


@dataclass
class Budget:
    """How much work a search may do. ``None`` means unbounded.

    Searches call :meth:`spent` as they go and report ``finished: false``
    when it returns True before they are done. Set-up left out by
    :func:`not_counted` while the budget runs is not counted in its time.
    """

    max_seconds: float | None = None
    max_states: int | None = None
    started: float = field(default_factory=time.monotonic)
    set_up_before: float = field(default_factory=_not_counted_yet, repr=False)

    def elapsed(self) -> float:
        set_up = _NOT_COUNTED[0] - self.set_up_before
        return time.monotonic() - self.started - set_up

    def spent(self, states: int = 0) -> bool:
        if self.max_states is not None and states >= self.max_states:
            return True
        return self.max_seconds is not None and self.elapsed() >= self.max_seconds

    def remaining_seconds(self) -> float | None:
        if self.max_seconds is None:
            return None
        return max(0.0, self.max_seconds - self.elapsed())


class Progress:
    """A one-line progress counter on stderr, shown only when stderr is a TTY."""

    def __init__(self, label: str, total: int | None = None, *, every: float = 0.25) -> None:
        self.label = label
        self.total = total
        self.every = every
        self.enabled = sys.stderr.isatty()
        self._last = 0.0
        self._shown = False

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < self.every:
            return
        self._last = now
        of = f"/{self.total}" if self.total else ""
        sys.stderr.write(f"\r{self.label}: {done}{of}")
        sys.stderr.flush()
        self._shown = True

    def close(self) -> None:
        if self._shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


class Memo(dict[Any, Any]):
    """A search's memo that shows its size as progress and, every 1,024 entries,
    checks the budget: BudgetExceeded (naming ``label``) once it is spent."""

    def __init__(self, label: str, budget: Budget) -> None:
        super().__init__()
        self.label, self.budget = label, budget
        self.progress = Progress(label)

    def remember(self, key: Any, value: Any) -> Any:
        """Store ``value`` under ``key`` and return it."""
        self[key] = value
        if len(self) % 1024 == 0:
            self.progress.update(len(self))
            if self.budget.spent(len(self)):
                raise BudgetExceeded(self.label)
        return value

    def close(self) -> None:
        self.progress.close()


_WATCHED: ContextVar[Budget | None] = ContextVar("ruleslawyer_watched_budget", default=None)


@contextmanager
def watching(budget: Budget) -> Iterator[None]:
    """Let :func:`poll` see ``budget`` while the block runs: loops deep inside a search
    (in the models, which take no budget) poll it, so a run stops soon after its time."""
    token = _WATCHED.set(budget)
    try:
        yield
    finally:
        _WATCHED.reset(token)


def poll() -> None:
    """Raise :class:`BudgetExceeded` when the budget being watched is spent (cheap: call it
    in any loop whose turns can add up to seconds)."""
    budget = _WATCHED.get()
    if budget is not None and budget.spent():
        raise BudgetExceeded("the time budget")
