"""The tiered engine for Twist of Fate: tiers of states on disk, partitions scheduled by Dask.

Every play puts one card from a hand on the table, so the states split into
tiers by cards played, and a play leads from tier k to tier k + 1 only. The
engine enumerates tier by tier (forward), then values the states tier by tier
from the last one back to the root (backward), with the in-memory solver's
paranoid values. Each tier is a set of partition files in the work directory,
one sorted numpy array of packed words (see :mod:`~ruleslawyer.solvers.twist_of_fate.tiers`) per
partition; a state's partition is a hash of its word.

Forward, for tier k: each partition of tier k is expanded (its children split by
partition of tier k + 1 and deduplicated, one file per pair of partitions), then
each partition of tier k + 1 merges its files and deduplicates them. Backward,
for tier k: each partition of tier k expands its states again and gathers its
children's values from the partitions of tier k + 1 they fall in (a partitioned
join: one child partition at a time, memory-mapped), then combines them. A task
holds one partition of one tier and at most one partition of the next.

A task writes its files under a temporary name and renames them, so a task run
twice (its worker died, the client restarted) writes the same files; the
manifest records each tier once all of its tasks are done, with every file's
count of states, size and SHA-256, and a checksum of its own; ``--resume``
verifies all of it before continuing from there, and refuses a damaged
directory. A lock file keeps a second run out of a directory in use. The work
directory must be one that every worker sees (the same machine, or a shared
file system).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
import resource
import shutil
import signal
import socket
import stat
import threading
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ruleslawyer.budget import Budget, Progress
from ruleslawyer.errors import InputError
from ruleslawyer.gamefiles.inputs import was_read
from ruleslawyer.models.twist_of_fate.files import Position
from ruleslawyer.models.twist_of_fate.play import Rules, seat_names
from ruleslawyer.solvers.twist_of_fate import tiers
from ruleslawyer.solvers.twist_of_fate.common import SolveResult, move_json, unfinished
from ruleslawyer.solvers.twist_of_fate.maxn import Analysis, analysis_of_words, paranoid_json

CHUNK = 1 << 20  # children expanded at a time in one task
PARTITION_STATES = 1 << 21  # the states a partition aims at
# A value task gathers the values of this many children (of many chunks) at a time:
# one join per partition of the next tier and batch, so a tier of many partitions is
# mapped and read once per batch, not once per chunk (see value_task).
JOIN_BATCH = 1 << 23
MAX_PARTITIONS = 1 << 10
WAIT_SECONDS = 2.0  # how often a running tier checks the time budget
MANIFEST = "manifest.json"
MANIFEST_MOST = 64 << 20  # bytes: a manifest of 1,024 tiers of 1,024 partitions is ~30 MB
LOCK = "lock"
# 2: checksums and counts of every file, the manifest's own checksum; 3: a state's value
# is the max^n kernel's paranoid value word (the outcome-ranked vector and the bounds)
VERSION = 3
FULL = (errno.ENOSPC, errno.EDQUOT)


# ---- the tasks (run on the workers) ----


def _no_space(path: Path, needed: int) -> OSError:
    """The error of a full disk, with the bytes the file needed and the bytes free (an
    OSError: it travels back from a worker as it is)."""
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        free = 0
    text = f"no space left on the device: the file needs {needed:,} bytes, {free:,} free"
    return OSError(errno.ENOSPC, text, str(path))


def _write_whole(path: Path, write: Callable[[Any], None], needed: int) -> int:
    """Write ``path`` whole or not at all (a temporary file renamed); its size. A full
    disk leaves no temporary file and says how many bytes the file needed."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            write(f)
        size = tmp.stat().st_size
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        if exc.errno in FULL:
            raise _no_space(path, needed) from None
        raise
    return size


def _save(path: Path, array: np.ndarray) -> dict[str, Any]:
    """Write ``array`` to ``path`` whole or not at all; its record for the manifest:
    ``count`` (its length), ``bytes`` and ``sha256`` of the file."""
    array = np.ascontiguousarray(array)

    def write(f: Any) -> None:  # np.save's file, by plain writes (a full disk: ENOSPC)
        fmt = np.lib.format
        fmt.write_array_header_1_0(f, fmt.header_data_from_array_1_0(array))
        f.write(array.data)

    size = _write_whole(path, write, array.nbytes + 128)
    with open(path, "rb") as f:  # the header; the data is the array's memory
        digest = hashlib.sha256(f.read(size - array.nbytes))
    digest.update(array)
    return {"count": int(array.shape[0]), "bytes": size, "sha256": digest.hexdigest()}


def _tier_dir(work: Path, k: int) -> Path:
    return work / f"tier-{k:04d}"


def _words_file(work: Path, k: int, i: int) -> Path:
    return _tier_dir(work, k) / f"states-{i:05d}.npy"


def _values_file(work: Path, k: int, i: int) -> Path:
    return _tier_dir(work, k) / f"values-{i:05d}.npy"


def _shuffle_files(work: Path, k: int, i: int) -> tuple[Path, Path]:
    """The children of tier ``k - 1``'s partition ``i``, grouped by their partition of
    tier ``k`` (one sorted run per partition), and where each run starts."""
    folder = work / f"tier-{k:04d}.in"
    return folder / f"from-{i:05d}.npy", folder / f"from-{i:05d}.starts.npy"


def _who(began: float) -> dict[str, Any]:
    """Which worker ran a task, its peak resident memory so far, and the task's CPU
    seconds (this thread's since ``began``: Dask's own threads not counted)."""
    try:
        from distributed import get_worker

        name = str(get_worker().name)
    except (ImportError, ValueError):
        name = "client"
    # ru_maxrss: KiB on Linux
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {"worker": name, "peak": peak, "cpu": time.thread_time() - began}


def expand_task(prob: tiers.Problem, work: Path, k: int, i: int, parts: int) -> dict[str, Any]:
    """Expand tier ``k``'s partition ``i``: its children, deduplicated, one file per
    partition of tier ``k + 1``; and the end states among its states."""
    began = time.thread_time()
    parents = np.load(_words_file(work, k, i))
    buckets: list[list[np.ndarray]] = [[] for _ in range(parts)]
    ends: list[np.ndarray] = []
    children = 0
    for c in tiers.expand_chunks(prob, parents, CHUNK):
        children += c.children.shape[0]
        for j, part in enumerate(tiers.split(c.children, parts)):
            buckets[j].append(tiers.distinct(part))
        ends.append(tiers.distinct(c.ends))
    # written even when empty: every partition of tier k + 1 reads every one
    runs = [_union(b) for b in buckets]
    starts = np.cumsum([0] + [r.shape[0] for r in runs])
    data, index = _shuffle_files(work, k + 1, i)
    written = _save(data, np.concatenate(runs))["bytes"] + _save(index, starts)["bytes"]
    return {"ends": _union(ends), "children": children, "bytes": written, **_who(began)}


def merge_task(work: Path, k: int, j: int, sources: int) -> dict[str, Any]:
    """Tier ``k``'s partition ``j``: the union of what tier ``k - 1``'s partitions sent it."""
    began = time.thread_time()
    runs = []
    for i in range(sources):
        data, index = _shuffle_files(work, k, i)
        starts = np.load(index)
        runs.append(np.load(data, mmap_mode="r")[starts[j] : starts[j + 1]])
    words = _union(runs)
    record = _save(_words_file(work, k, j), words)
    return {"states": record["count"], "bytes": record["bytes"], "file": record, **_who(began)}


def value_task(prob: tiers.Problem, work: Path, k: int, i: int, parts: int) -> dict[str, Any]:
    """The values of tier ``k``'s partition ``i`` (tier ``k + 1``, in ``parts``
    partitions, already valued). Its states are expanded again, chunk by chunk, and
    their children's values gathered :data:`JOIN_BATCH` children at a time: one
    join per partition of tier ``k + 1`` and batch."""
    began = time.thread_time()
    parents = np.load(_words_file(work, k, i))
    values = np.empty(parents.shape[0], dtype=np.int64)
    batch: list[tiers.Chunk] = []
    size = 0

    def flush() -> None:
        start, stop = batch[0].start, batch[-1].stop
        children = np.concatenate([c.children for c in batch])
        fanout = np.concatenate([c.fanout for c in batch])
        child_values = lookup(work, k + 1, parts, children, prob.lay.bits)
        values[start:stop] = tiers.combine(prob, parents[start:stop], fanout, child_values)

    for c in tiers.expand_chunks(prob, parents, CHUNK):
        batch.append(c)
        size += c.children.shape[0]
        if size >= JOIN_BATCH:
            flush()
            batch, size = [], 0
    if batch:
        flush()
    record = _save(_values_file(work, k, i), values)
    return {"bytes": record["bytes"], "file": record, **_who(began)}


def lookup(work: Path, k: int, parts: int, words: np.ndarray, bits: int) -> np.ndarray:
    """The values of ``words`` (states of tier ``k``, packed in ``bits`` bits): the
    words grouped by partition, then one partition at a time memory-mapped, joined
    and unmapped (so a task holds the pages of one partition at most)."""
    if words.shape[0] == 0:
        return np.empty(0, dtype=np.int64)
    q = tiers.queries(words, parts, bits)
    found = np.empty(words.shape[0], dtype=np.int64)
    for j in range(parts):
        if q.bounds[j] == q.bounds[j + 1]:
            continue
        known = np.load(_words_file(work, k, j), mmap_mode="r")
        known_values = np.load(_values_file(work, k, j), mmap_mode="r")
        if tiers.join_group(known, known_values, q, j, found) >= 0:
            raise InputError(
                str(_words_file(work, k, j)), "states", "a state missing", "every child of tier"
            )
        del known, known_values
    return tiers.ungroup(q, found)


def _union(arrays: list[np.ndarray]) -> np.ndarray:
    if not arrays:
        return np.empty(0, dtype=np.int64)
    return tiers.distinct(np.concatenate(arrays), runs=True)


# ---- scheduling ----


class Cut(Exception):
    """The budget ran out while a tier's tasks ran: the tier is not recorded (its files
    are redone by ``--resume``)."""


class Runner(Protocol):
    def map(
        self, fn: Callable[..., Any], calls: list[tuple[Any, ...]], budget: Budget | None = None
    ) -> list[Any]: ...


class InProcess:
    """Runs the tasks one after another in this process (``--workers 0``)."""

    name = "in-process"

    def map(
        self, fn: Callable[..., Any], calls: list[tuple[Any, ...]], budget: Budget | None = None
    ) -> list[Any]:
        out = []
        for call in calls:
            if budget is not None and budget.spent():
                raise Cut
            out.append(fn(*call))
        return out


class DaskRunner:
    """Runs the tasks on a Dask cluster; a task whose worker dies runs again elsewhere."""

    def __init__(self, client: Any, name: str) -> None:
        self.client, self.name = client, name

    def map(
        self, fn: Callable[..., Any], calls: list[tuple[Any, ...]], budget: Budget | None = None
    ) -> list[Any]:
        """The tasks' results; :class:`Cut` (the tasks cancelled) once ``budget`` is spent.
        A task that failed (a full disk) cancels the others; one that killed its
        worker every time it ran (Dask's ``KilledWorker``) is an :class:`InputError`."""
        if not calls:
            return []
        from distributed import KilledWorker, wait

        futures = self.client.map(fn, *zip(*calls, strict=True), pure=False)
        try:
            while budget is not None:
                try:
                    wait(futures, timeout=WAIT_SECONDS)
                    break
                except TimeoutError:
                    if budget.spent():
                        raise Cut from None
            return self.client.gather(futures)
        except KilledWorker:
            raise InputError(
                self.name,
                "workers",
                "a task whose worker died each time it ran it (out of memory?)",
                "workers with the memory a task needs (a larger --worker-memory, "
                "or a smaller --partition-states)",
            ) from None
        finally:
            self.client.cancel(futures)  # those still running, after a failure or a cut


@dataclass
class Run:
    """What the manifest records of a run, and how far it got. A file's record is its
    ``count`` (states or values), ``bytes`` and ``sha256``."""

    digest: str
    tiers: list[dict[str, Any]] = field(default_factory=list)  # tiers complete on disk
    forward_done: bool = False
    valued: int | None = None  # the lowest tier with values (None: none yet)
    bytes_written: int = 0
    value_seconds: dict[str, float] = field(default_factory=dict)  # tier -> its value pass
    values: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # tier -> its files
    ends: dict[str, Any] | None = None  # the end states found so far: name and record

    @property
    def states(self) -> int:
        return sum(t["states"] for t in self.tiers)

    def to_json(self) -> dict[str, Any]:
        doc = {
            "version": VERSION,
            "digest": self.digest,
            "tiers": self.tiers,
            "forward_done": self.forward_done,
            "valued": self.valued,
            "bytes_written": self.bytes_written,
            "value_seconds": self.value_seconds,
            "values": self.values,
            "ends": self.ends,
        }
        return {**doc, "checksum": _checksum(doc)}


def _checksum(doc: dict[str, Any]) -> str:
    """The manifest's own checksum: SHA-256 of its other fields as canonical JSON."""
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _digest(prob: tiers.Problem) -> str:
    """What identifies the search: the kernel's tables and the packing."""
    h = hashlib.sha256()
    for array in (*prob.enc[1:], *prob.lay[:4]):
        h.update(np.ascontiguousarray(array).tobytes())
    h.update(repr(prob.enc.root).encode())
    return h.hexdigest()


def _write_json(path: Path, doc: dict[str, Any]) -> None:
    text = json.dumps(doc, indent=1).encode()
    _write_whole(path, lambda f: f.write(text), len(text))


def _disk(work: Path) -> int:
    return sum(f.stat().st_size for f in work.rglob("*") if f.is_file())


def _work_error(work: Path, exc: OSError) -> InputError:
    """One line for a file operation in the work directory that failed."""
    where = exc.filename or str(work)
    if exc.errno in FULL:
        return InputError(
            str(work),
            "disk full",
            f"{where}: {exc.strerror}",
            "more free space under the work directory (the whole tiers are kept: "
            "free some, then run again with --resume)",
        )
    return InputError(
        str(work),
        "",
        f"{where}: {exc.strerror or exc}",
        "a work directory this run can read and write",
    )


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def _open_regular(path: Path, what: str) -> int:
    """A descriptor of ``path``, refused (one line) unless a regular file: never follows
    a symbolic link, never waits on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        raise InputError(str(path), "", "no file", what) from None
    except OSError as exc:
        found = "a symbolic link" if exc.errno == errno.ELOOP else exc.strerror
        raise InputError(str(path), "", found, what) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise InputError(str(path), "", _kind(mode), what)
    return fd


def _verify(path: Path, record: dict[str, Any]) -> None:
    """``path`` is the file ``record`` describes: its size, its SHA-256 and its count."""
    fd = _open_regular(path, "the file the manifest records")
    with os.fdopen(fd, "rb") as f:
        size = os.fstat(fd).st_size
        if size != record["bytes"]:
            raise InputError(
                str(path),
                "size",
                f"{size:,} bytes",
                f"{record['bytes']:,}, as the manifest records",
            )
        try:
            np.lib.format.read_magic(f)
            count = np.lib.format.read_array_header_1_0(f)[0]
        except ValueError:
            count = None
        f.seek(0)
        digest = hashlib.file_digest(f, "sha256").hexdigest()
    if digest != record["sha256"]:
        raise InputError(
            str(path),
            "checksum",
            "contents changed since written",
            "the SHA-256 the manifest records",
        )
    if count != (record["count"],):
        raise InputError(
            str(path), "count", count, f"({record['count']},), as the manifest records"
        )


_SHA = re.compile(r"[0-9a-f]{64}")
_ENDS = re.compile(r"ends-\d{4}\.npy")


def _record(x: Any) -> dict[str, Any]:
    """A file's record as the manifest holds it; a ValueError if it is not one."""
    ok = (
        isinstance(x, dict)
        and set(x) == {"count", "bytes", "sha256"}
        and all(isinstance(x[key], int) and x[key] >= 0 for key in ("count", "bytes"))
        and isinstance(x["sha256"], str)
        and _SHA.fullmatch(x["sha256"])
    )
    if not ok:
        raise ValueError(f"a file record {x!r:.80}")
    return x


def _read_manifest(manifest: Path) -> dict[str, Any]:
    """The manifest's fields, its checksum verified; refused in one line otherwise."""
    expected = "a manifest this engine wrote"
    fd = _open_regular(manifest, expected)
    with os.fdopen(fd, "rb") as f:
        if os.fstat(fd).st_size > MANIFEST_MOST:
            raise InputError(
                str(manifest), "", f"{os.fstat(fd).st_size:,} bytes", f"{expected} (smaller)"
            )
        raw = f.read()
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise InputError(str(manifest), "", str(exc)[:80], expected) from None
    if not isinstance(doc, dict):
        raise InputError(str(manifest), "", type(doc).__name__, f"{expected} (an object)")
    if doc.get("version") != VERSION:
        raise InputError(
            str(manifest), "version", doc.get("version"), f"{VERSION}, the version of this engine"
        )
    checksum = doc.pop("checksum", None)
    try:
        ok = checksum == _checksum(doc)
    except (ValueError, TypeError):
        ok = False
    if not ok:
        raise InputError(
            str(manifest),
            "checksum",
            "contents changed since written",
            "the checksum the manifest records",
        )
    return doc


def _check_run(run: Run) -> None:
    """The manifest's records agree with each other; a ValueError naming the first that does not."""
    top = len(run.tiers) - 1
    if top < 0:
        raise ValueError("no tier")
    for k, t in enumerate(run.tiers):
        files = [_record(r) for r in t["files"]]
        if t["tier"] != k or t["partitions"] != len(files) or not files:
            raise ValueError(f"tier {k}: its number or partitions")
        if t["states"] != sum(r["count"] for r in files) or t["bytes"] != sum(
            r["bytes"] for r in files
        ):
            raise ValueError(f"tier {k}: its states or bytes")
    if run.tiers[0]["states"] != 1:
        raise ValueError("tier 0: not the root alone")
    if run.valued is not None and not (run.forward_done and 0 <= run.valued <= top):
        raise ValueError(f"valued: {run.valued!r}")
    valued = range(top + 1 if run.valued is None else run.valued, top + 1)
    if sorted(run.values) != sorted(str(k) for k in valued):
        raise ValueError("values: the tiers valued")
    for k in valued:
        counts = [_record(r)["count"] for r in run.values[str(k)]]
        if counts != [r["count"] for r in run.tiers[k]["files"]]:
            raise ValueError(f"values of tier {k}: their counts")
    if (run.ends is None) != (top == 0 and not run.forward_done):
        raise ValueError("ends")
    if run.ends is not None:
        _record({key: v for key, v in run.ends.items() if key != "name"})
        if not _ENDS.fullmatch(run.ends["name"]):
            raise ValueError("ends: its name")


# The names this engine gives what it writes in a work directory (and its temporary files)
_TMP = r"\..+\.\d+\.tmp"
_OWN_TOP = re.compile(rf"tier-\d{{4}}(\.in)?|ends-\d{{4}}\.npy|{MANIFEST}|{LOCK}|{_TMP}")
_OWN_INSIDE = re.compile(rf"(states|values|from)-\d{{5}}(\.starts)?\.npy|{_TMP}")


def _refuse_foreign(work: Path) -> None:
    """Refuse a work directory holding anything this engine would not have written there
    (a file of the user's, a folder of another program's), or a file this command read:
    the tiers are written over whatever has their names, and a tier's folder is replaced
    whole. Its own folders must be folders, not links (never followed)."""
    expected = "an empty work directory, or one only this engine has written in"
    for entry in sorted(os.scandir(work), key=lambda e: e.name):
        inside = entry.name.startswith("tier-")
        if not _OWN_TOP.fullmatch(entry.name):
            found = "a file this engine did not write"
        elif inside and not entry.is_dir(follow_symlinks=False):
            found = f"{_kind(entry.stat(follow_symlinks=False).st_mode)}, not a tier's folder"
        elif was_read(entry.stat(follow_symlinks=False)):
            found = "a file this command reads"
        else:
            found = ""
        if found:
            raise InputError(str(work), entry.name, found, expected)
        for sub in sorted(os.scandir(entry.path), key=lambda e: e.name) if inside else ():
            if not _OWN_INSIDE.fullmatch(sub.name):
                found = "a file this engine did not write"
            elif was_read(sub.stat(follow_symlinks=False)):
                found = "a file this command reads"
            else:
                continue
            raise InputError(str(work), f"{entry.name}/{sub.name}", found, expected)


def _open_run(work: Path, digest: str, resume: bool) -> Run:
    manifest = work / MANIFEST
    if not os.path.lexists(manifest):
        if resume and work.exists() and any(p.name != LOCK for p in work.iterdir()):
            raise InputError(str(work), MANIFEST, "no manifest", "a work directory to resume")
        return Run(digest)
    if not resume:
        raise InputError(
            str(work),
            MANIFEST,
            "the files of an earlier run",
            "an empty work directory, or --resume",
        )
    doc = _read_manifest(manifest)
    try:
        run = Run(
            doc["digest"],
            doc["tiers"],
            doc["forward_done"] is True,
            doc["valued"],
            doc["bytes_written"],
            dict(doc["value_seconds"]),
            dict(doc["values"]),
            doc["ends"],
        )
        _check_run(run)
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:
        raise InputError(
            str(manifest), "manifest", str(exc)[:120], "a manifest this engine wrote"
        ) from None
    if run.digest != digest:
        raise InputError(
            str(manifest), "digest", "another position, rulings or version", "the same search"
        )
    for t in run.tiers:
        for i, record in enumerate(t["files"]):
            _verify(_words_file(work, t["tier"], i), record)
    for k, records in run.values.items():
        for i, record in enumerate(records):
            _verify(_values_file(work, int(k), i), record)
    if run.ends is not None:
        _verify(work / run.ends["name"], {k: v for k, v in run.ends.items() if k != "name"})
    return run


def _lock(work: Path) -> int:
    """Hold the work directory's lock file for this run (released when its descriptor
    closes, or the process ends); refused in one line while another run holds it."""
    path = work / LOCK
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise InputError(
            str(path),
            "",
            "another run working in this directory",
            "one run at a time in a work directory (wait for it to end)",
        ) from None
    return fd


def _partitions(run: Run, target: int) -> int:
    """How many partitions the next tier gets: its size guessed from the last growth."""
    last = run.tiers[-1]["states"]
    growth = last / run.tiers[-2]["states"] if len(run.tiers) > 1 else 64.0
    guess = last * max(1.0, growth)
    return int(min(MAX_PARTITIONS, max(1, -(-guess // target))))


class Engine:
    """One tiered search: its problem, work directory, runner, budget and record."""

    def __init__(
        self,
        position: Position,
        rules: Rules,
        runner: Runner,
        work: Path,
        *,
        budget: Budget | None = None,
        resume: bool = False,
        max_disk: int | None = None,
        partition_states: int = PARTITION_STATES,
    ) -> None:
        self.position, self.rules, self.runner, self.work = position, rules, runner, work
        self.budget = budget or Budget()
        self.max_disk, self.target = max_disk, partition_states
        self.prob = tiers.problem(position, rules)
        self.root = tiers.root_word(self.prob)
        self.lock: int | None = None
        try:
            work.mkdir(parents=True, exist_ok=True)
            _refuse_foreign(work)
            self.lock = _lock(work)
            self.run = _open_run(work, _digest(self.prob), resume)
            for stale in work.rglob(".*.tmp"):  # of a task whose worker died mid-write
                stale.unlink()
        except OSError as exc:
            self.unlock()
            raise _work_error(work, exc) from None
        except BaseException:
            self.unlock()
            raise
        self.resumed_from = len(self.run.tiers) if resume and self.run.tiers else None
        self.peaks: dict[str, int] = {}
        self.task_cpu: dict[str, float] = {}
        self.progress = Progress("twist-of-fate dask")
        self.began = time.perf_counter()
        self.analysis: Analysis | None = None  # set by a finished run's answer()

    # -- bookkeeping --

    def unlock(self) -> None:
        """Let another run into the work directory."""
        if self.lock is not None:
            os.close(self.lock)
            self.lock = None

    def _note(self, results: Iterable[dict[str, Any]]) -> None:
        for r in results:
            self.run.bytes_written += r["bytes"]
            self.peaks[r["worker"]] = max(self.peaks.get(r["worker"], 0), r["peak"])
            self.task_cpu[r["worker"]] = self.task_cpu.get(r["worker"], 0.0) + r["cpu"]

    def _save_run(self) -> None:
        _write_json(self.work / MANIFEST, self.run.to_json())
        for old in self.work.glob("ends-*.npy"):  # only the manifest's is kept
            if self.run.ends is None or old.name != self.run.ends["name"]:
                old.unlink()

    def _ends(self) -> np.ndarray:
        if self.run.ends is None:
            return np.empty(0, dtype=np.int64)
        return np.load(self.work / self.run.ends["name"])

    def _show(self, stage: str) -> None:
        rate = self.run.states / max(1e-9, time.perf_counter() - self.began)
        self.progress.label = (
            f"twist-of-fate dask: {stage} | {rate:,.0f} states/s | "
            f"disk {_disk(self.work) / 2**20:,.0f} MiB | states"
        )
        self.progress.update(self.run.states)

    def _over_budget(self) -> bool:
        if self.budget.spent(self.run.states):
            return True
        return self.max_disk is not None and _disk(self.work) >= self.max_disk

    # -- the passes --

    def forward(self) -> bool:
        """Enumerate tiers until one has no children; False if the budget ran out."""
        run, work = self.run, self.work
        if not run.tiers:
            shutil.rmtree(_tier_dir(work, 0), ignore_errors=True)
            r = _save(_words_file(work, 0, 0), np.array([self.root], dtype=np.int64))
            run.tiers.append(
                {"tier": 0, "partitions": 1, "states": 1, "bytes": r["bytes"], "seconds": 0.0,
                 "files": [r]}
            )  # fmt: skip
            run.bytes_written += r["bytes"]
            self._save_run()
        while not run.forward_done:
            if self._over_budget():
                return False
            k = len(run.tiers) - 1
            began = time.perf_counter()
            self._show(f"tier {k + 1}")
            parts, sources = _partitions(run, self.target), run.tiers[k]["partitions"]
            for stale in (_tier_dir(work, k + 1), work / f"tier-{k + 1:04d}.in"):
                shutil.rmtree(stale, ignore_errors=True)
            calls = [(self.prob, work, k, i, parts) for i in range(sources)]
            expanded = self.runner.map(expand_task, calls, self.budget)
            self._note(expanded)
            # the end states among tiers 0..k, in a file of their own: the manifest names
            # the one it recorded, which stays until the manifest names the next
            ends = _union([self._ends(), *(r["ends"] for r in expanded)])
            name = f"ends-{k:04d}.npy"
            run.ends = {"name": name, **_save(work / name, ends)}
            if sum(r["children"] for r in expanded) == 0:
                shutil.rmtree(work / f"tier-{k + 1:04d}.in", ignore_errors=True)  # all empty
                run.forward_done = True
                self._save_run()
                break
            merged = self.runner.map(
                merge_task, [(work, k + 1, j, sources) for j in range(parts)], self.budget
            )
            self._note(merged)
            shutil.rmtree(work / f"tier-{k + 1:04d}.in", ignore_errors=True)
            states = sum(r["states"] for r in merged)
            tier_bytes = sum(r["bytes"] for r in merged)
            seconds = round(time.perf_counter() - began, 3)
            run.tiers.append(
                {
                    "tier": k + 1,
                    "partitions": parts,
                    "states": states,
                    "bytes": tier_bytes,
                    "seconds": seconds,
                    "files": [r["file"] for r in merged],
                }
            )
            self._save_run()
        return True

    def backward(self) -> bool:
        """Value every tier from the last to the root; False if the budget ran out."""
        run = self.run
        top = len(run.tiers) - 1
        start = top if run.valued is None else run.valued - 1
        for k in range(start, -1, -1):
            if self.budget.spent():
                return False
            began = time.perf_counter()
            self._show(f"values of tier {k}")
            parts = run.tiers[k + 1]["partitions"] if k < top else 1
            calls = [(self.prob, self.work, k, i, parts) for i in range(run.tiers[k]["partitions"])]
            valued = self.runner.map(value_task, calls, self.budget)
            self._note(valued)
            run.values[str(k)] = [r["file"] for r in valued]
            run.valued = k
            run.value_seconds[str(k)] = round(time.perf_counter() - began, 3)
            self._save_run()
        return True

    def _children(self, word: int, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The children of the state ``word`` (in move order), their move indices and
        their value words, from tier ``k``'s files."""
        (c,) = tiers.expand_chunks(
            self.prob, np.array([word], dtype=np.int64), CHUNK, with_moves=True
        )
        parts = self.run.tiers[k]["partitions"]
        values = lookup(self.work, k, parts, c.children, self.prob.lay.bits)
        assert c.moves is not None
        return c.children, c.moves, values

    def answer(self) -> SolveResult:
        """The root's values, its best move and the principal line, from the files of
        every tier the line goes through; the analysis (every root move's value, the
        line) in :attr:`analysis`. The line is the memory solver's: at each state the
        first child, in move order, whose vector one ply earlier is the state's."""
        from ruleslawyer.solvers.twist_of_fate import maxn_kernel as mk
        from ruleslawyer.solvers.twist_of_fate.memory import _decode

        pos, run = self.position, self.run
        state = pos.state
        top = int(np.load(_values_file(self.work, 0, 0))[0])
        root_words = [-1] * self.prob.n_moves
        line: list[int] = []
        word, value = self.root, top
        for k in range(1, len(run.tiers)):
            children, moves, values = self._children(word, k)
            if k == 1:
                for m, v in zip(moves.tolist(), values.tolist(), strict=True):
                    root_words[m] = v
            before = [int(mk.shift(np.int64(v), state.players)) & mk.VEC_MASK for v in values]
            if value & mk.VEC_MASK not in before:
                break
            j = before.index(value & mk.VEC_MASK)
            line.append(int(moves[j]))
            word, value = int(children[j]), int(values[j])
            if word & tiers.LEAF_FLAG:
                break
        seconds = time.perf_counter() - self.began
        self.analysis = analysis_of_words(
            pos, self.rules, "paranoid", root_words, line, run.states, seconds
        )
        g, r, gw, pw = _decode((top >> mk.P_SHIFT) & 0xFFFF)
        names = seat_names(state, pos.names)
        move = self.analysis.line[0][0] if self.analysis.line else None
        return SolveResult(
            player=pos.names[state.active],
            guaranteed_sanctuary=g,
            best_move=move_json(move, state.active, names, pos.deck) if move else None,
            reachable_max_sanctuary=r,
            guaranteed_win=gw,
            possible_win=pw,
            end_states=int(self._ends().shape[0]),
            states=run.states,
            seconds=seconds,
            finished=True,
        )

    def solve(self) -> SolveResult:
        """The answer, or an unfinished result once the budget ran out. A file operation
        that failed (a full disk) is one line naming the file: the tiers recorded stay
        whole for ``--resume``. The work directory's lock is let go at the end."""
        try:
            if self.forward() and self.backward():
                return self.answer()
        except Cut:
            pass  # the tier under way stays unrecorded: --resume redoes it
        except OSError as exc:
            raise _work_error(self.work, exc) from None
        finally:
            self.progress.close()
            self.unlock()
        name = self.position.names[self.position.state.active]
        return unfinished(name, self.run.states, time.perf_counter() - self.began)

    def report(self, result: SolveResult) -> dict[str, Any]:
        """The JSON of a run: the memory solver's fields (``solve --model paranoid``:
        the paranoid bounds, the outcome-ranked best move, every move's value and the
        line), then the engine's own."""
        analysis = self.analysis
        if analysis is None or not result.finished:
            analysis = Analysis("paranoid", (), (), result.states, result.seconds, False)
        return {
            **paranoid_json(self.position, analysis, result),
            "engine": "dask",
            "runner": self.runner.name,
            # per tier: its states, partitions and bytes of its files; the seconds its
            # expansion and merge took, and its value pass (None: not run in this
            # run's record, such as a tier recorded before these were)
            "tiers": [
                {
                    "tier": t["tier"],
                    "states": t["states"],
                    "partitions": t["partitions"],
                    "bytes": t.get("bytes"),
                    "seconds": t.get("seconds"),
                    "value_seconds": self.run.value_seconds.get(str(t["tier"])),
                }
                for t in self.run.tiers
            ],
            "bytes_written": self.run.bytes_written,
            "disk_bytes": _disk(self.work),
            "peak_memory_per_worker": dict(sorted(self.peaks.items())),
            # CPU seconds of this run's tasks per worker (the task's own thread: the
            # rest of a worker's CPU is Dask's and the process's start-up)
            "task_cpu_seconds_per_worker": {
                w: round(s, 3) for w, s in sorted(self.task_cpu.items())
            },
            "resumed_from_tier": self.resumed_from,
            "work_dir": str(self.work),
        }


# ---- the command's entry ----


def connect(workers: int | None, scheduler: str | None, worker_memory: int) -> tuple[Runner, Any]:
    """A runner, and what to close after: ``workers`` = 0 runs in this process, else
    a local cluster of that many worker processes, or the cluster at ``scheduler``."""
    if scheduler is None and workers == 0:
        return InProcess(), None
    import logging

    from distributed import Client, LocalCluster

    if scheduler is not None:
        probe_scheduler(scheduler)
        try:
            client = Client(scheduler, timeout="10s")
        except Exception as exc:  # whatever Dask makes of what answers there: one line
            found = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
            raise InputError("--scheduler", scheduler, found, "a running Dask scheduler") from None
        return DaskRunner(client, f"scheduler {scheduler}"), client
    import dask

    # Dask starts its workers with MALLOC_TRIM_THRESHOLD_ set, which turns off glibc's
    # adaptive mmap threshold: every large numpy array is then mapped afresh and its
    # pages faulted in (on 3p-9 system time went from 2 s in one process to 12 s)
    environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ"))
    environ.pop("MALLOC_TRIM_THRESHOLD_", None)
    quiet = {
        "distributed.nanny.pre-spawn-environ": environ,
        # a worker samples its task's stack every 10 ms for Dask's profile, and
        # checks its memory every 100 ms: CPU taken from the tasks, on two cores
        "distributed.worker.profile.enabled": False,
        "distributed.worker.memory.monitor-interval": "1s",
        "distributed.admin.system-monitor.interval": "2s",
        # the tasks hold their arrays, not Dask: nothing to spill, and a worker paused
        # near its limit would wait for ever; past 95% its nanny ends it (KilledWorker)
        "distributed.worker.memory.target": False,
        "distributed.worker.memory.spill": False,
        "distributed.worker.memory.pause": False,
        "distributed.worker.preload": [__name__],  # dask_setup: Ctrl-C left to the client
    }
    cluster = None
    try:
        with dask.config.set(quiet), warnings.catch_warnings():
            # the scheduler serves HTTP even with no dashboard (asked for a free port below);
            # a port taken makes Dask warn on stderr, where only one error line may go
            warnings.filterwarnings("ignore", r"Port \d+ is already in use", UserWarning)
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                memory_limit=worker_memory,
                dashboard_address=None,
                # its HTTP routes still start: on a free port of loopback, not 8787
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                # the workers' own complaints (a heartbeat lost as a run ends): what
                # fails reaches the client as an exception, said in one line
                silence_logs=logging.CRITICAL,
            )
            client = Client(cluster)
    except KeyboardInterrupt:
        if cluster is not None:
            cluster.close()
        raise
    return DaskRunner(client, f"local cluster of {workers} worker processes"), cluster


PROBE_SECONDS = 10.0  # how long --scheduler's address may take to connect and greet
GREETING_MOST = 1 << 20  # bytes: a Dask handshake is about 60


def probe_scheduler(address: str) -> None:
    """Refuse, in one line, a TCP ``--scheduler`` address where no Dask scheduler answers,
    before Dask's client meets it: Dask reads the first 8 bytes any server sends as a length
    to allocate (an HTTP server's "HTTP/1.1" asked for 3 EiB) and waits without end for a
    server that waits for its client to speak first. A Dask scheduler (or any Dask server)
    greets first: a frame of its handshake (length, frame count, frame lengths, msgpack
    naming ``pickle-protocol``). Other transports (``tls://``, ``ucx://``) are left to Dask."""
    from distributed.comm.addressing import parse_address, parse_host_port

    expected = "the address of a running Dask scheduler (tcp://HOST:PORT)"
    try:
        scheme, location = parse_address(address)
        if scheme != "tcp":
            return
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as exc:
        raise InputError("--scheduler", "", address, f"{expected}: {exc}") from None

    def read(conn: socket.socket, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = conn.recv(min(size - len(data), 1 << 16))
            if not chunk:
                said = f"closed after {len(data)} bytes, no greeting"
                raise ConnectionError(errno.ECONNRESET, said)
            data += chunk
        return data

    try:
        with socket.create_connection((host, port), timeout=PROBE_SECONDS) as conn:
            head = read(conn, 8)
            size = int.from_bytes(head, "little")
            body = read(conn, size) if 16 <= size <= GREETING_MOST else b""
    except TimeoutError:
        said = f"no greeting within {PROBE_SECONDS:g} s (a server that waits for its client)"
        raise InputError("--scheduler", address, said, expected) from None
    except (OSError, OverflowError, ValueError) as exc:
        said = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise InputError("--scheduler", address, said, expected) from None
    frames = int.from_bytes(body[:8], "little")
    lengths = [int.from_bytes(body[8 + 8 * i : 16 + 8 * i], "little") for i in range(frames)]
    if not (0 < frames <= 64 and sum(lengths) == size - 8 - 8 * frames) or (
        b"pickle-protocol" not in body
    ):
        said = f"a server that does not speak Dask's protocol (it sent {(head + body)[:24]!r})"
        raise InputError("--scheduler", address, said, expected)


def dask_setup(worker: Any) -> None:
    """Run in each local worker process as it starts (Dask's preload of this module):
    Ctrl-C, which a terminal sends the whole process group, is for the client alone;
    it stops the workers itself."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def solve(
    position: Position,
    rules: Rules,
    budget: Budget,
    *,
    workers: int | None,
    scheduler: str | None,
    work_dir: Path | None,
    resume: bool,
    max_disk: int | None = None,
    worker_memory: int = 4 << 30,
    partition_states: int = PARTITION_STATES,
) -> dict[str, Any]:
    """Solve on Dask; the report (:meth:`Engine.report`). A work directory of its own
    (no ``work_dir``) is removed after a finished or interrupted run and kept after an
    unfinished one (the report names it) or a failed one that left whole tiers (the
    error names the directory)."""
    import tempfile

    if resume and work_dir is None:
        raise InputError("--resume", "", "no --work-dir", "the --work-dir of the run to resume")
    own = work_dir is None
    try:
        work = Path(tempfile.mkdtemp(prefix="ruleslawyer-tiers-")) if own else Path(work_dir)
    except OSError as exc:
        raise _work_error(Path(tempfile.gettempdir()), exc) from None
    closing = None
    try:
        runner, closing = connect(workers, scheduler, worker_memory)
        engine = Engine(
            position,
            rules,
            runner,
            work,
            budget=budget,
            resume=resume,
            max_disk=max_disk,
            partition_states=partition_states,
        )
        result = engine.solve()
        out = engine.report(result)
    except BaseException as exc:
        # a directory of its own: kept only when the error names it for --resume
        if own and (isinstance(exc, KeyboardInterrupt) or not (work / MANIFEST).exists()):
            shutil.rmtree(work, ignore_errors=True)
        raise
    finally:
        if closing is not None:
            closing.close()
    if own and result.finished:
        shutil.rmtree(work, ignore_errors=True)
        out["work_dir"] = None
    return out


def render_text(report: dict[str, Any]) -> str:
    """The engine's lines after the solver's ``--format text``."""
    tiers_line = " ".join(str(t["states"]) for t in report["tiers"])
    peaks = ", ".join(
        f"{w} {b / 2**20:,.0f} MiB" for w, b in report["peak_memory_per_worker"].items()
    )
    lines = [
        f"engine: dask ({report['runner']})",
        f"states per tier: {tiers_line}",
        f"bytes written: {report['bytes_written']:,}",
        f"peak memory per worker: {peaks}",
    ]
    if report["work_dir"]:
        lines.append(f"work dir: {report['work_dir']}")
    return "\n".join(lines) + "\n"
