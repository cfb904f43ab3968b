"""Writing output files so that no interrupt leaves one half-written or mixed.

A single file is written to a temporary file beside it and renamed over the
target (:func:`write_atomic`); a set of files (a report) is written whole to a
temporary directory and swapped in with interrupts held off (:func:`write_set`).
Neither overwrites a file the running command read as input.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ruleslawyer.errors import InputError
from ruleslawyer.gamefiles.inputs import was_read

_INTERRUPTED = threading.Event()  # set by Ctrl-C while a command runs (see noting_interrupts)
# Python runs a signal's handler at the next bytecode after the signal, so a Ctrl-C that
# came just before a hold began can still be handled inside it: the hold is kept here too.
_HOLD = {"depth": 0, "answered": False}


@contextlib.contextmanager
def noting_interrupts() -> Iterator[None]:
    """Note every Ctrl-C while the block runs, even one Python drops.

    Ctrl-C raises KeyboardInterrupt as usual, and is also noted; an interrupt
    raised inside a finaliser (a Z3 object's ``__del__``, where ctypes may wrap it in
    an ``ArgumentError``) is dropped by Python, silently here (no "Exception
    ignored" traceback), but being noted, it still stops every output
    (:func:`refuse_if_interrupted`). Main thread only; elsewhere a no-op.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def note(signum: int, frame: Any) -> None:
        if _HOLD["answered"]:
            return  # the answer is out: the run is not interrupted any more
        _INTERRUPTED.set()
        if not _HOLD["depth"]:
            signal.default_int_handler(signum, frame)

    def quiet(unraisable: Any) -> None:
        if not is_interrupt(unraisable.exc_value):
            hook(unraisable)

    _INTERRUPTED.clear()
    _HOLD.update(depth=0, answered=False)
    previous, hook = signal.signal(signal.SIGINT, note), sys.unraisablehook
    sys.unraisablehook = quiet
    try:
        yield
    finally:
        if signal.getsignal(signal.SIGINT) is note:  # not once the answer is out (ignored)
            signal.signal(signal.SIGINT, previous)
        sys.unraisablehook = hook


def is_interrupt(exc: BaseException | None) -> bool:
    """Is ``exc`` a Ctrl-C: KeyboardInterrupt, or the ``ctypes.ArgumentError`` that
    ctypes makes of one raised while it converted a call's arguments (a Z3 call, and
    so also a Z3 object's ``__del__``: "argument 1: KeyboardInterrupt: ")?"""
    if isinstance(exc, KeyboardInterrupt):
        return True
    return isinstance(exc, ctypes.ArgumentError) and "KeyboardInterrupt" in str(exc)


def refuse_if_interrupted() -> None:
    """Raise KeyboardInterrupt if Ctrl-C came while this command ran (even one dropped),
    unless its answer was already given (:func:`answer_out`)."""
    if _INTERRUPTED.is_set() and not _HOLD["answered"]:
        raise KeyboardInterrupt


@contextlib.contextmanager
def interrupts_noted_only() -> Iterator[None]:
    """Inside the block a Ctrl-C is noted, not raised (main thread only; else a no-op).

    When the outermost such block ends normally, a Ctrl-C noted in it is raised, unless
    the answer was given inside it: an answer is either wholly out, and the run's own
    exit stands, or not out at all, and the run is interrupted.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _HOLD["depth"] += 1
    try:
        yield
    finally:
        _HOLD["depth"] -= 1
    if not _HOLD["depth"]:
        refuse_if_interrupted()


def answer_out() -> None:
    """The command's answer is wholly out: a later Ctrl-C leaves its exit as it is."""
    _HOLD["answered"] = True


def refuse_input(path: Path, shown: str) -> None:
    """Refuse to write over a file the running command read (``check a.toml -o a.toml``)."""
    try:
        info = os.stat(path)
    except OSError:
        return  # nothing there (yet): not an input
    if was_read(info):
        raise InputError(shown, "", "an input of this command", "an output that is not an input")


def refuse_inputs_inside(folder: Path) -> None:
    """Refuse to replace a folder (a report's ``kaelyfos/``) holding a file the running
    command read: replacing the folder would delete it. Symbolic links are not followed."""
    if not os.path.isdir(folder) or os.path.islink(folder):
        return
    for parent, _, names in os.walk(folder):
        for name in sorted(names):
            try:
                info = os.stat(os.path.join(parent, name), follow_symlinks=False)
            except OSError:
                continue
            if was_read(info):
                raise InputError(
                    str(folder), "", f"{os.path.join(parent, name)}, an input of this command",
                    "a folder the output may replace (no input inside)",
                )  # fmt: skip


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path``: a temporary file in the same directory, renamed over it
    (over a symbolic link's target, as a plain write would)."""
    refuse_input(path, str(path))
    refuse_if_interrupted()
    if _special(path):  # /dev/stdout, /dev/null, a FIFO: write into it, never replace it
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as exc:
            raise _unwritable(path, exc) from None
        return
    target = Path(os.path.realpath(path))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    except OSError as exc:
        raise _unwritable(path, exc) from None
    temporary = Path(name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, _mode(target))
        os.replace(temporary, target)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise _unwritable(path, exc) from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write_set(directory: Path, files: Mapping[str, str]) -> None:
    """Write ``files`` (relative path -> text) into ``directory`` as one set.

    The set is written whole to a temporary directory inside ``directory`` (so every
    rename stays on its file system, a mount point's too); then each top-level entry it
    holds (``kaelyfos.md``, ``kaelyfos/``) replaces the old one of that name, with SIGINT
    and SIGTERM held off, so an interrupt leaves either the old set or the new one. Other
    entries of ``directory`` are kept; an old entry's stale pictures go with it.
    """
    for name in files:
        refuse_input(directory / name, str(directory / name))
    for top in sorted({Path(name).parts[0] for name in files}):
        refuse_inputs_inside(directory / top)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=directory, prefix=".ruleslawyer-new-"))
    except OSError as exc:
        raise _unwritable(directory, exc) from None
    try:
        fresh, old = staging / "new", staging / "old"
        old.mkdir()
        for name, text in files.items():
            target = fresh / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, "utf-8")
        tops = sorted({Path(name).parts[0] for name in files})
        with _signals_held():
            refuse_if_interrupted()
            for top in tops:
                if os.path.lexists(directory / top):
                    os.replace(directory / top, old / top)
                os.replace(fresh / top, directory / top)
    except OSError as exc:
        raise _unwritable(directory, exc) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def unwritable_text(text: str, encoding: str | None) -> InputError | None:
    """The error for ``text`` on a stream of ``encoding`` that cannot hold one of its
    characters (a cp1252 or Latin-1 console: ``Ł``, ``—``), or None when it can: said
    before anything is written, so no half answer goes out."""
    encoding = encoding or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError as exc:
        char = text[exc.start]
        line = text.count("\n", 0, exc.start) + 1
        return InputError(
            "stdout",
            f"line {line}",
            f"{char} (U+{ord(char):04X})",
            f"characters its encoding ({encoding}) can write: set PYTHONIOENCODING=utf-8, "
            "or write a file with -o (always UTF-8)",
        )
    except LookupError:  # an encoding Python does not know: let the stream say so
        return None
    return None


def unwritable_stdout(exc: OSError) -> InputError:
    """The error for a standard output that failed (a full disk, ``/dev/full``, a reader
    gone); the stream is pointed at ``/dev/null`` so that Python's own flush at exit does not
    fail again (a second message, exit 120)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    reason = exc.strerror or type(exc).__name__
    return InputError("stdout", "", reason, "a standard output that takes the whole answer")


def _special(path: Path) -> bool:
    """Whether ``path`` exists and is neither a regular file nor a directory."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _unwritable(path: Path, exc: OSError) -> InputError:
    return InputError(str(path), "", exc.strerror or type(exc).__name__, "a writable path")


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block is done (main thread only; else a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        with interrupts_noted_only():
            yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _mode(path: Path) -> int:
    """The mode a new file gets (as ``open`` would make it), or the old file's mode."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
