"""Reading input files safely: regular files only, bounded in size and nesting.

Every loader (TOML game, position, log and record files; JSON baselines) reads
through :func:`read_text`, so a path naming a device or a FIFO is refused
without being opened (no read, no block), and :func:`check_nesting` bounds how
deeply a parsed document may nest, so no input can exhaust the stack.

The files read while a command runs are remembered (:func:`tracking`), so that
``-o`` can refuse to overwrite one of them (:mod:`ruleslawyer.gamefiles.outputs`).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import stat
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from ruleslawyer.errors import InputError, suggestion

MAX_FILE_BYTES = 4 * 2**20  # the largest input file accepted (4 MiB)
MAX_NESTING = 32  # the deepest nesting of tables/arrays (TOML) or objects/arrays (JSON)

# (device, inode) of every file read by the command now running; None outside a command
_READ: ContextVar[set[tuple[int, int]] | None] = ContextVar("ruleslawyer_inputs", default=None)


@contextlib.contextmanager
def tracking() -> Iterator[set[tuple[int, int]]]:
    """Remember the files read inside this block (one command run)."""
    seen: set[tuple[int, int]] = set()
    token = _READ.set(seen)
    try:
        yield seen
    finally:
        _READ.reset(token)


def was_read(info: os.stat_result) -> bool:
    """Whether the file with this ``stat`` was read as an input of the running command."""
    seen = _READ.get()
    return seen is not None and (info.st_dev, info.st_ino) in seen


def regular_file(
    path: str | Path, shown: str, expected: str, max_bytes: int = MAX_FILE_BYTES
) -> os.stat_result:
    """``stat`` of ``path``, which must be an existing regular file of at most ``max_bytes``
    (never opened here)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise InputError(shown, "", "no such file", expected + nearby(path)) from None
    except (OSError, ValueError) as exc:  # name too long, NUL byte, no permission, ...
        raise InputError(shown, "", _reason(exc), expected) from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(shown, "", "a directory", expected)
    if not stat.S_ISREG(info.st_mode):
        raise InputError(shown, "", f"a {_kind(info.st_mode)}, not a regular file", expected)
    if info.st_size > max_bytes:
        raise InputError(
            shown, "", f"{info.st_size} bytes", f"{expected} of at most {max_bytes} bytes"
        )
    return info


MAX_NEARBY = 1000  # names of a folder compared for a "did you mean" at most


def nearby(
    path: str | Path, value: str | None = None, also: tuple[str, ...] = (), skip: str = ""
) -> str:
    """``"; did you mean 'x'?"`` for a file that is not there: the name beside ``path`` (or
    of ``also``, such as built-in ids) most like the one written (``value``, default
    ``path``), written the same way, never the file ``skip`` (the file that named it); or
    nothing. At most :data:`MAX_NEARBY` names are read."""
    written = str(path) if value is None else value
    prefix = os.path.dirname(written)
    folder = Path(path).parent
    try:
        with os.scandir(folder) as entries:
            names = sorted(itertools.islice((e.name for e in entries), MAX_NEARBY))
    except (OSError, ValueError):
        names = []
    if skip:
        names = [n for n in names if os.path.realpath(folder / n) != os.path.realpath(skip)]
    candidates = [os.path.join(prefix, name) for name in names]
    return suggestion(written, [c for c in (*also, *candidates) if c != written])


def read_text(path: str | Path, shown: str, expected: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a regular input file, with one-line errors naming ``shown``."""
    info = regular_file(path, shown, expected, max_bytes)
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise InputError(shown, "", _reason(exc), expected) from None
    if len(data) > max_bytes:  # grew since stat
        raise InputError(shown, "", "a file still growing", f"{expected} of fixed size")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            shown, f"byte {exc.start}", "bytes that are not UTF-8", f"a UTF-8 {expected}"
        ) from None
    seen = _READ.get()
    if seen is not None:
        seen.add((info.st_dev, info.st_ino))
    return text


def check_nesting(document: Any, shown: str) -> None:
    """Refuse a document nested deeper than :data:`MAX_NESTING` (walked without recursion)."""
    stack: list[tuple[Any, int, str]] = [(document, 0, "")]
    while stack:
        value, depth, place = stack.pop()
        if isinstance(value, dict):
            children = [(v, f"{place}.{k}" if place else str(k)) for k, v in value.items()]
        elif isinstance(value, list):
            children = [(v, f"{place}[{i}]") for i, v in enumerate(value)]
        else:
            continue
        if depth >= MAX_NESTING:
            raise InputError(
                shown, place, f"nesting deeper than {MAX_NESTING} levels", "a shallower document"
            )
        stack.extend((v, depth + 1, p) for v, p in children)


def too_deep(shown: str) -> InputError:
    """The error for a document whose parser ran out of stack."""
    return InputError(
        shown, "", f"nesting deeper than {MAX_NESTING} levels", "a shallower document"
    )


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return type(exc).__name__


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISSOCK, "socket"),
    ):
        if test(mode):
            return name
    return "special file"
