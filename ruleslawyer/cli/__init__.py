"""The ``ruleslawyer`` command line (click). Game groups load only when called."""

from __future__ import annotations

import os
import sys

INTERRUPTED = "interrupted: nothing reported"
_SCRIPT_NAMES = ("ruleslawyer", "ruleslawyer.exe", "ruleslawyer-script.py")


def _console_script() -> bool:
    """Whether this process is the ``ruleslawyer`` console script, importing this module."""
    argv = getattr(sys, "argv", None) or [""]
    return os.path.basename(argv[0]) in _SCRIPT_NAMES


def _interrupted_hook(kind: type[BaseException], value: BaseException, tb: object) -> None:
    """The console script's excepthook from its first import on: a Ctrl-C that escapes
    before :func:`main` handles it (the console script's own imports) ends the run as
    :func:`main` would, one line and exit 130, not a traceback and a kill by SIGINT."""
    if issubclass(kind, KeyboardInterrupt):
        try:
            sys.stderr.write(INTERRUPTED + "\n")
            sys.stderr.flush()
        finally:
            os._exit(130)
    sys.__excepthook__(kind, value, tb)  # type: ignore[arg-type]


if _console_script():
    sys.excepthook = _interrupted_hook


def main() -> None:
    """The console script: Ctrl-C even while the CLI is still being imported exits 130."""
    try:
        from ruleslawyer.cli.main import main as run
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
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
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        return  # the answer is out (common.answer_given)
    signal.signal(signal.SIGINT, _ignore)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _ignore(signum: int, frame: object) -> None:
    """A Ctrl-C once the run has ended: nothing to stop."""
