"""The ``ruleslawyer`` command line (click). Game groups load only when called."""

from __future__ import annotations

import signal
import sys


def main() -> None:
    """The console script: Ctrl-C even while the CLI is still being imported exits 130."""
    try:
        from ruleslawyer.cli.main import main as run
    except KeyboardInterrupt:
        print("interrupted: nothing reported", file=sys.stderr)
        sys.exit(130)
    try:
        run()
    finally:
        _quiet_from_here()


def _quiet_from_here() -> None:
    """The run has ended (its answer written, or its interrupt reported): a Ctrl-C from
    now on must not turn that exit into a kill by SIGINT. SIG_IGN in the end, because
    the interpreter's shutdown puts the default action back wherever a Python function
    handles SIGINT. A Ctrl-C already caught but not yet handled must meet a handler that
    does nothing first: with SIG_IGN it is reported as "ignored due to race condition",
    a traceback. So: the no-op handler, SIGINT blocked in this thread, the no-op given
    its chance to run, then SIG_IGN (which also drops a Ctrl-C left pending)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        return  # the answer is out (common.answer_given)
    signal.signal(signal.SIGINT, _ignore)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _ignore(signum: int, frame: object) -> None:
    """A Ctrl-C once the run has ended: nothing to stop."""
