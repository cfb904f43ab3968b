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
        # The run has ended (its answer written, or its interrupt reported): a Ctrl-C
        # while the interpreter shuts down must not turn that exit into a kill by SIGINT.
        # A handler that does nothing, not SIG_IGN: a Ctrl-C already caught but not yet
        # handled would then be reported as "ignored due to race condition", a traceback.
        signal.signal(signal.SIGINT, _ignore)
        # Then blocked: the interpreter's shutdown puts back the default handler, and a
        # Ctrl-C arriving after that would kill the finished run by SIGINT (exit -2).
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def _ignore(signum: int, frame: object) -> None:
    """A Ctrl-C once the run has ended: nothing to stop."""
