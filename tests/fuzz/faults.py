"""Fuzz cases of the commands that read or write more than one file: the Twist of Fate
Dask engine (its options and its work directory), the designer rulebook a game file
names, and the directory ``report`` writes into.

A case is a plan drawn by Hypothesis (a tuple of words and numbers, printed on a
failure so it can be replayed with :func:`problem_of`): its ``build_*`` function lays
out its files in a fresh directory, :func:`invoke` runs the command line in process
from an empty current directory, and :func:`judge` says what went wrong, beyond
:func:`tests.fuzz.harness.verdict`'s contract:

- a finished Twist of Fate answer equals the memory solver's on the same position;
- no input is changed (the game file, its rulebook, the position, a file outside the
  case's folder that a symbolic link points at), and nothing is written into the
  current directory;
- nothing outside the game file's folder is read into an output (the sentinel's
  words never show);
- a report that exits 0 or 1 left its page in the directory it was given.

Read-only and full file systems are real small tmpfs mounts (root only: without root
those plans are rejected, not run).
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from hypothesis import strategies as st

from ruleslawyer.cli.main import cli
from tests.fuzz.harness import (
    CASE_BYTES,
    CASE_SECONDS,
    ROOT,
    CaseTooBig,
    memory_limit,
    time_limit,
    verdict,
)
from tests.fuzz.strategies import mutated, text_mutated
from tests.twist_of_fate.test_dask_faults import SMALL

SENTINEL = "SENTINEL-OUTSIDE-THE-GAME-FOLDER"  # the words of a file no output may show
EXAMPLE_BOOK = ROOT / "examples" / "designer-repo" / "rules" / "kaelyfos.md"
TINY_BOARD = ROOT / "examples" / "kaelyfos" / "tiny-board.toml"


class Unavailable(Exception):
    """The plan needs what this machine does not allow (mounting a tmpfs without root)."""


# ---- the case's directory ----


@dataclass
class Case:
    """A laid-out case: its folder, the command line, and the files it must leave alone."""

    root: Path
    args: list[str] = field(default_factory=list)
    inputs: dict[Path, bytes] = field(default_factory=dict)  # path -> contents before the run
    expect_page: Path | None = None  # report: the page a run that exits 0 or 1 leaves
    outside_refused: bool = False  # the rulebook path resolves outside: must exit 2
    outside_named: bool = False  # the command line names the outside file itself
    holders: list[int] = field(default_factory=list)  # descriptors held through the run
    mounts: list[Path] = field(default_factory=list)

    def keep(self, *paths: Path) -> None:
        for path in paths:
            with contextlib.suppress(OSError):
                if path.is_file() and not path.is_symlink():
                    self.inputs[path] = path.read_bytes()


@contextlib.contextmanager
def case_dir() -> Iterator[Case]:
    tmp = Path(tempfile.mkdtemp(prefix="ruleslawyer-fuzz-faults-"))
    case = Case(tmp)
    (tmp / "outside.md").write_text(f"{SENTINEL}. It is not the game's rulebook.\n")
    case.keep(tmp / "outside.md")
    try:
        yield case
    finally:
        for fd in case.holders:
            os.close(fd)
        for mount in reversed(case.mounts):
            subprocess.run(["umount", "-l", str(mount)], capture_output=True)
        for path in tmp.rglob("*"):  # read-only leftovers, so the folder can go
            with contextlib.suppress(OSError):
                if path.is_dir() and not path.is_symlink():
                    path.chmod(0o755)
        shutil.rmtree(tmp, ignore_errors=True)


def tmpfs(case: Case, path: Path, size: str) -> Path:
    """A real tmpfs of ``size`` at ``path``; :class:`Unavailable` without root."""
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        raise Unavailable("mounting a tmpfs needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True
    )
    if done.returncode != 0:
        raise Unavailable(done.stderr.decode(errors="replace"))
    case.mounts.append(path)
    return path


def read_only(path: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(path)], check=True, capture_output=True)


def special(path: Path, what: str, target: Path | None = None) -> Path:
    """Make ``path`` a file of another kind: a directory, a FIFO, a symbolic link loop,
    a link to ``target``, an empty file."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if what == "dir":
        path.mkdir()
    elif what == "fifo":
        os.mkfifo(path)
    elif what == "loop":
        path.symlink_to(path.name)
    elif what == "link":
        assert target is not None
        path.symlink_to(target)
    elif what == "empty":
        path.write_bytes(b"")
    else:
        raise ValueError(what)
    return path


# ---- running and judging ----


def invoke(args: Sequence[str], cwd: Path) -> Result:
    """Run ``args`` from ``cwd`` (a folder of its own: nothing may be written there)."""
    cwd.mkdir()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with time_limit(CASE_SECONDS), memory_limit(CASE_BYTES) as over:
            result = CliRunner().invoke(cli, list(args))
    finally:
        os.chdir(here)
    if over:
        result.exception = CaseTooBig(f"no memory bound: the process grew past {CASE_BYTES} bytes")
    return result


def judge(case: Case, result: Result, *, known: dict[str, Any] | None = None) -> str | None:
    """What went wrong with the run of ``case``, or None."""
    args = case.args
    budgeted = [*args, "--max-states", "0"] if "--max-disk" in args else args
    problem = verdict(result, budgeted, [str(case.root)])
    if problem:
        return problem
    stray = sorted(p.name for p in (case.root / "cwd").iterdir())
    if stray:
        return f"written into the current directory, which no option named: {stray}"
    for path, before in case.inputs.items():
        try:
            after = path.read_bytes()
        except OSError as exc:
            return f"an input is gone: {path}: {exc}"
        if after != before:
            return f"an input was changed: {path}"
    written = [result.output]
    if case.expect_page is not None and result.exit_code in (0, 1):
        page = case.expect_page
        if not page.is_file() or page.is_symlink():
            return f"exit {result.exit_code} but no page at {page}"
        written.append(page.read_text("utf-8", errors="replace"))
    if not case.outside_named and any(SENTINEL in text for text in written):
        return "a file outside the game file's folder was read into the output"
    if case.outside_refused and result.exit_code != 2:
        return f"a rulebook outside the game file's folder was read (exit {result.exit_code})"
    if known is not None and result.exit_code == 0:
        return _wrong_answer(result.stdout, args, known)
    return None


def _wrong_answer(out: str, args: Sequence[str], known: dict[str, Any]) -> str | None:
    if "json" in args:
        report = json.loads(out)
        got = {key: report.get(key) for key in known}
        if report.get("finished") is not True or got != known:
            return f"exit 0 with a wrong or unfinished answer: {got} != {known}"
        return None
    lines = [
        f"guaranteed_sanctuary: {known['guaranteed_sanctuary']}",
        f"end_states: {known['end_states']}",
        f"states: {known['states']:,}",
    ]
    missing = [line for line in lines if line not in out and line.replace(",", "") not in out]
    if missing or "finished: yes" not in out:
        return f"exit 0 without the known answer ({missing}): {out[-1500:]!r}"
    return None


# ---- Twist of Fate on Dask: options ----


@cache
def small_position() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="ruleslawyer-fuzz-small-"))
    atexit.register(shutil.rmtree, folder, True)
    path = folder / "small.toml"
    path.write_text(SMALL)
    return path


@cache
def known_answer() -> dict[str, Any]:
    """The memory solver's answer for SMALL (3 guaranteed, 1,400 states)."""
    from ruleslawyer.models.twist_of_fate.files import load_position
    from ruleslawyer.models.twist_of_fate.play import Rules
    from ruleslawyer.solvers.twist_of_fate import memory

    answer = memory.solve(load_position(small_position()), Rules()).answer()
    assert (answer["guaranteed_sanctuary"], answer["states"]) == (3, 1400)
    return answer


@cache
def loopback_scheduler() -> str:
    """The address of a scheduler on loopback with one worker process (started once)."""
    from distributed import LocalCluster

    cluster = LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    )
    atexit.register(cluster.close)
    return str(cluster.scheduler_address)


# per option: values a user would give, then hostile ones
DASK_VALUES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "--workers": (
        ("0", "0", "0", "1"),
        ("-1", "64", "257", "1.5", "nan", "", "²", "0x1", " 0"),
    ),
    "--max-disk": (
        ("0.001", "1", "0.5", "1e-3"),
        ("nan", "inf", "-inf", "-1", "0", "0.0009", "1e300", "abc", "", "0.000001", "٣"),
    ),
    "--worker-memory": (("1", "2", "1.5"), ("0.1", "0", "nan", "inf", "5000", "-1", "1e400")),
    "--partition-states": (("100", "1000", "250"), ("1", "0", "-5", "1e3", "9" * 20, "99")),
    "--max-states": (("100", "1", "13", "1399", "1400"), ("0", "-1", "1e9", "nan")),
    "--max-seconds": (("30", "0.5", "5"), ("0", "nan", "-1", "1e-9", "inf")),
    "--scheduler": (
        ("{loopback}",),
        ("", "tcp://127.0.0.1:1", "nonsense", "inproc://x", "tcp://localhost:99999"),
    ),
    "--format": (("json", "text"), ("xml", "")),
}
WORK_DIRS = (
    *("none", "new", "new", "nested", "empty", "file", "fifo", "devnull", "blank"),
    *("symlink-dir", "symlink-loop", "position", "finished", "unfinished", "read-only"),
    *("full", "locked"),
)


@st.composite
def dask_plan(draw: st.DrawFn) -> tuple[Any, ...]:
    """Options for ``twist-of-fate solve SMALL --engine dask``: mostly ``--workers 0``,
    sometimes a local worker process or the loopback scheduler, and hostile values."""
    chosen = draw(st.sets(st.sampled_from(sorted(DASK_VALUES)), max_size=4))
    options = []
    for option in sorted(chosen):
        valid, hostile = DASK_VALUES[option]
        pool = valid if draw(st.integers(0, 2)) else hostile
        options.append((option, draw(st.sampled_from(pool))))
    alone = "--scheduler" not in chosen or draw(st.integers(0, 4)) == 0
    if alone and "--workers" not in chosen:  # no --workers: 2 processes, too slow here
        options.append(("--workers", "0"))
    work = draw(st.sampled_from(WORK_DIRS))
    resume = draw(st.integers(0, 2)) == 0
    return ("dask", tuple(options), work, resume)


def build_dask(case: Case, plan: tuple[Any, ...]) -> None:
    _, options, work_kind, resume = plan
    position = small_position()
    case.keep(position)
    args = ["twist-of-fate", "solve", str(position), "--model", "paranoid", "--engine", "dask"]
    for option, value in options:
        if value == "{loopback}":
            value = loopback_scheduler()
        args += [option, value]
    if not any(o == "--partition-states" for o, _ in options):
        args += ["--partition-states", "100"]
    work = work_dir(case, work_kind)
    if work is not None:
        args += ["--work-dir", work]
    if resume:
        args.append("--resume")
    case.args = args


def work_dir(case: Case, kind: str) -> str | None:
    """A ``--work-dir`` of ``kind`` under the case's folder (None: no option)."""
    root = case.root / "w"
    if kind == "none":
        return None
    if kind == "blank":
        return ""
    if kind == "devnull":
        return "/dev/null"
    if kind == "position":
        return str(small_position())
    if kind == "new":
        return str(root)
    if kind == "nested":
        return str(root / "a" / "b")
    if kind == "empty":
        root.mkdir()
    elif kind == "file":
        root.write_text("not a directory\n")
        case.keep(root)
    elif kind == "fifo":
        special(root, "fifo")
    elif kind == "symlink-dir":
        (case.root / "real").mkdir()
        special(root, "link", case.root / "real")
    elif kind == "symlink-loop":
        special(root, "loop")
    elif kind in ("finished", "unfinished"):
        shutil.copytree(earlier_run(kind), root)
    elif kind == "locked":
        shutil.copytree(earlier_run("unfinished"), root)
        hold_lock(case, root)
    elif kind == "read-only":
        fs = tmpfs(case, case.root / "fs", "1m")
        shutil.copytree(earlier_run("unfinished"), fs / "w")
        read_only(fs)
        return str(fs / "w")
    elif kind == "full":
        fs = tmpfs(case, case.root / "fs", "40k")
        return str(fs / "w")
    else:
        raise ValueError(kind)
    return str(root)


def hold_lock(case: Case, work: Path) -> None:
    """Hold ``work``'s lock as a run working there would (read-only: the file system can
    still be remounted read-only; held already, it stays held)."""
    fd = os.open(work / "lock", os.O_RDONLY | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return
    case.holders.append(fd)


@cache
def earlier_run(kind: str) -> Path:
    """The work directory of a run of SMALL: finished, or stopped after tier 2."""
    folder = Path(tempfile.mkdtemp(prefix=f"ruleslawyer-fuzz-{kind}-"))
    atexit.register(shutil.rmtree, folder, True)
    work = folder / "w"
    more = ["--max-states", "100"] if kind == "unfinished" else []
    args = ["twist-of-fate", "solve", str(small_position()), "--model", "paranoid"]
    args += ["--engine", "dask", "--workers", "0", "--work-dir", str(work)]
    args += ["--partition-states", "100", "--format", "json", *more]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == (3 if more else 0), result.output
    return work


# ---- Twist of Fate on Dask: a damaged work directory, resumed ----

DAMAGES = ("truncate", "flip", "delete", "replace", "manifest", "stale", "extra", "locked")
REPLACEMENTS = ("dir", "fifo", "loop", "link-other", "link-zero", "link-outside", "empty")


@st.composite
def workdir_plan(draw: st.DrawFn) -> tuple[Any, ...]:
    """A finished or unfinished work directory of SMALL with one to three damages, then
    ``--resume`` (sometimes not, sometimes on a worker process, sometimes read-only or
    on a full disk)."""
    start = draw(st.sampled_from(["finished", "unfinished"]))
    damages = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(DAMAGES))
        which = draw(st.integers(0, 10**6))
        if kind == "truncate":
            damages.append((kind, which, draw(st.floats(0, 1))))
        elif kind == "flip":
            damages.append((kind, which, draw(st.floats(0, 1)), draw(st.integers(1, 255))))
        elif kind == "replace":
            damages.append((kind, which, draw(st.sampled_from(REPLACEMENTS))))
        elif kind == "delete":
            damages.append((kind, which))
        elif kind == "manifest":
            doc = json.loads((earlier_run(start) / "manifest.json").read_text())
            doc.pop("checksum")
            damages.append((kind, draw(mutated(doc)), draw(st.booleans())))
        else:
            damages.append((kind,))
    resume = draw(st.integers(0, 9)) > 0
    workers = draw(st.sampled_from(["0"] * 9 + ["1"]))
    place = draw(st.sampled_from(["here"] * 8 + ["read-only", "full"]))
    free = draw(st.integers(0, 64)) << 10  # on a full disk: the bytes left free
    return ("workdir", start, tuple(damages), resume, workers, place, free)


def build_workdir(case: Case, plan: tuple[Any, ...]) -> None:
    _, start, damages, resume, workers, place, free = plan
    if place == "here":
        work = case.root / "w"
    else:
        fs = tmpfs(case, case.root / "fs", "1m")
        work = fs / "w"
    shutil.copytree(earlier_run(start), work)
    for damage in damages:
        damage_work(case, work, damage)
    if place == "full":
        fill(case.root / "fs" / "ballast", free)
    if place == "read-only":
        read_only(case.root / "fs")
    position = small_position()
    case.keep(position)
    case.args = [
        "twist-of-fate", "solve", str(position), "--model", "paranoid", "--engine", "dask",
        "--workers", workers, "--work-dir", str(work), "--partition-states", "100",
        "--format", "json", *(["--resume"] if resume else []),
    ]  # fmt: skip


def fill(ballast: Path, free: int) -> None:
    """Fill the file system of ``ballast`` until about ``free`` bytes are left."""
    with open(ballast, "wb") as f:
        left = shutil.disk_usage(ballast.parent).free - free
        with contextlib.suppress(OSError):
            while left > 0:
                f.write(bytes(min(left, 4096)))
                f.flush()
                left -= 4096


def damage_work(case: Case, work: Path, damage: tuple[Any, ...]) -> None:
    from ruleslawyer.solvers.twist_of_fate.dask import _checksum

    kind = damage[0]
    files = sorted(p for p in work.rglob("*") if p.is_file() and not p.is_symlink())
    files = [p for p in files if p.name != "lock"]
    if not files and kind in ("truncate", "flip", "delete", "replace"):
        return
    if kind == "truncate":
        path = files[damage[1] % len(files)]
        size = path.stat().st_size
        with open(path, "r+b") as f:
            f.truncate(int(size * damage[2]) if size else 0)
    elif kind == "flip":
        path = files[damage[1] % len(files)]
        data = bytearray(path.read_bytes())
        if data:
            at = min(len(data) - 1, int(len(data) * damage[2]))
            data[at] ^= damage[3]
            path.write_bytes(bytes(data))
    elif kind == "delete":
        files[damage[1] % len(files)].unlink()
    elif kind == "replace":
        path, what = files[damage[1] % len(files)], damage[2]
        others = [p for p in files if p != path] or [path]
        if what == "link-other":
            special(path, "link", others[damage[1] % len(others)])
        elif what == "link-zero":
            special(path, "link", Path("/dev/zero"))
        elif what == "link-outside":
            special(path, "link", case.root / "outside.md")
        else:
            special(path, what)
    elif kind == "manifest":
        doc, reseal = dict(damage[1]), damage[2]
        if reseal:  # as if the engine wrote it: its own checksum agrees
            with contextlib.suppress(ValueError, TypeError):
                doc["checksum"] = _checksum(doc)
        text = json.dumps(doc, ensure_ascii=False)
        manifest = work / "manifest.json"
        if manifest.is_symlink() or manifest.is_dir():
            return
        manifest.write_text(text, errors="surrogateescape")
    elif kind == "stale":
        (work / "tier-0001" / ".states-00000.npy.1.tmp").parent.mkdir(exist_ok=True)
        (work / "tier-0001" / ".states-00000.npy.1.tmp").write_bytes(b"\x93NUMPY half")
    elif kind == "extra":
        (work / "notes.txt").write_text("a file the designer left here\n")
    elif kind == "locked":
        hold_lock(case, work)
    else:
        raise ValueError(kind)


# ---- designer rulebooks a game file names ----

BOOK_PATHS = (
    *("rules/kaelyfos.md",) * 8,
    *("missing.md", "rules", "fifo.md", "loop.md", "link-out.md", "link-in.md"),
    *("/dev/zero", "/etc/passwd", "../outside.md", "{absolute}", "rules/../../outside.md"),
    *("", "  ", "rules\u0000x.md", "a" * 5000, "rules/kaelyfos.md/", "~/x.md", "42"),
    *("rules/kaelyfos.md\n", "dev-zero-link.md"),
)
BOOK_BODIES = (
    *("example", "mutated", "mutated", "drifted", "binary", "utf16", "bom", "nul"),
    *("huge", "at-cap", "crlf", "one-line", "empty", "latin1"),
)
BOOK_COMMANDS = (
    ("check", "{game}", "--max-seconds", "1", "--format", "json"),
    ("check", "{game}", "--max-seconds", "1", "--format", "sarif"),
    ("check", "{game}", "--max-seconds", "1", "--format", "junit"),
    ("check", "{game}", "--max-seconds", "1"),
    ("report", "{game}", "--max-seconds", "1", "--dir", "{root}/out"),
    ("baseline", "{game}", "--max-seconds", "1", "-o", "{root}/game/rules/kaelyfos.md"),
    ("baseline", "{game}", "--max-seconds", "1", "-o", "{root}/baseline.json"),
    ("diff", "{example}", "{book}", "--format", "json"),
    ("check", "{game}", "-o", "{book}", "--max-seconds", "1"),
)


@st.composite
def rulebook_plan(draw: st.DrawFn) -> tuple[Any, ...]:
    """A game file naming a rulebook by a hostile path, holding a hostile body."""
    path = draw(st.sampled_from(BOOK_PATHS))
    body = draw(st.sampled_from(BOOK_BODIES))
    text = ""
    if body == "mutated":
        text = draw(text_mutated(EXAMPLE_BOOK.read_text("utf-8")))
    seed = draw(st.integers(0, 2**32 - 1))
    command = draw(st.sampled_from(BOOK_COMMANDS))
    return ("rulebook", path, body, text, seed, command)


def book_bytes(body: str, text: str, seed: int) -> bytes:
    import random

    from ruleslawyer.rulebook.books import MAX_RULEBOOK_BYTES
    from tests.test_rulebooks import drifted_rulebook

    example = EXAMPLE_BOOK.read_text("utf-8")
    rng = random.Random(seed)
    if body == "example":
        return example.encode()
    if body == "mutated":
        return text.encode("utf-8", errors="surrogateescape")
    if body == "drifted":
        return drifted_rulebook(rng.choice([1024, 16 << 10, 256 << 10])).encode()
    if body == "binary":
        return rng.randbytes(rng.choice([1, 100, 5000]))
    if body == "utf16":
        return example.encode("utf-16")
    if body == "bom":
        return b"\xef\xbb\xbf" + example.encode()
    if body == "nul":
        at = rng.randrange(len(example))
        return (example[:at] + "\0" + example[at:]).encode()
    if body == "huge":
        return (example * (MAX_RULEBOOK_BYTES // len(example) + 2)).encode()
    if body == "at-cap":
        return drifted_rulebook(MAX_RULEBOOK_BYTES - 4096).encode()[: MAX_RULEBOOK_BYTES - 8]
    if body == "crlf":
        return example.replace("\n", "\r\n").encode()
    if body == "one-line":
        return (example.replace("\n", " ") * 40).encode()
    if body == "empty":
        return b""
    if body == "latin1":
        return example.encode("latin-1", errors="replace")
    raise ValueError(body)


def game_file(case: Case, rulebook: str | None) -> Path:
    """The tiny Kaelyfos board in ``root/game``, naming ``rulebook`` (TOML-escaped)."""
    game = case.root / "game"
    game.mkdir(exist_ok=True)
    line = "" if rulebook is None else f"rulebook = {json.dumps(rulebook, ensure_ascii=False)}\n"
    if rulebook == "42":
        line = "rulebook = 42\n"
    path = game / "board.toml"
    path.write_text(line + TINY_BOARD.read_text("utf-8"), "utf-8")
    case.keep(path)
    return path


def build_rulebook(case: Case, plan: tuple[Any, ...]) -> None:
    _, value, body, text, seed, command = plan
    book = case.root / "game" / "rules" / "kaelyfos.md"
    book.parent.mkdir(parents=True)
    book.write_bytes(book_bytes(body, text, seed))
    case.keep(book)
    game = case.root / "game"
    if value == "{absolute}":
        value = str(book)
    elif value == "fifo.md":
        special(game / value, "fifo")
    elif value == "loop.md":
        special(game / value, "loop")
    elif value == "link-out.md":
        special(game / value, "link", case.root / "outside.md")
    elif value == "link-in.md":
        special(game / value, "link", book)
    elif value == "dev-zero-link.md":
        special(game / value, "link", Path("/dev/zero"))
    named = game / value if value and "\0" not in value else None
    if named is not None:
        with contextlib.suppress(OSError, ValueError):
            real = Path(os.path.realpath(named))
            case.outside_refused = named.exists() and not real.is_relative_to(game.resolve())
    path = game_file(case, value)
    example = case.root / "example.md"
    example.write_text(EXAMPLE_BOOK.read_text("utf-8"))
    case.keep(example)
    shown = str(named) if named is not None else str(book)
    fill = {"game": str(path), "root": str(case.root), "example": str(example), "book": shown}
    case.args = [a.format(**fill) for a in command]
    if command[0] == "diff":  # a rulebook named on the command line is the user's to read
        case.outside_refused, case.outside_named = False, True
    if command[0] == "report":
        case.expect_page = case.root / "out" / "board.md"


# ---- report output directories ----

OUT_DIRS = (
    *("new", "new", "nested", "game", "rules", "board-file", "book-file", "devnull"),
    *("blank", "read-only", "full", "fifo", "loop", "through-file", "existing"),
)
PAGE_FILES = ("board.md", "board.html", "index.html", "board", "board/board.svg")
PAGE_KINDS = ("dir", "fifo", "loop", "link-outside", "link-board", "link-book", "empty", "text")


@st.composite
def report_plan(draw: st.DrawFn) -> tuple[Any, ...]:
    """``report`` of a game file naming its rulebook, into a hostile ``--dir``: a file,
    an input's folder, read-only, full, or holding pages of odd kinds already."""
    where = draw(st.sampled_from(OUT_DIRS))
    pages = draw(
        st.lists(
            st.tuples(st.sampled_from(PAGE_FILES), st.sampled_from(PAGE_KINDS)),
            max_size=3,
            unique_by=lambda p: p[0],
        )
    )
    fmt = draw(st.sampled_from(["markdown", "html"]))
    two = draw(st.integers(0, 4)) == 0  # a second game file of the same name
    return ("report", where, tuple(pages), fmt, two)


def build_report(case: Case, plan: tuple[Any, ...]) -> None:
    _, where, pages, fmt, two = plan
    game = case.root / "game"
    (game / "rules").mkdir(parents=True)
    book = game / "rules" / "kaelyfos.md"
    book.write_text(EXAMPLE_BOOK.read_text("utf-8"))
    case.keep(book)
    board = game_file(case, "rules/kaelyfos.md")
    targets = [str(board)]
    if two:
        other = case.root / "other" / "board.toml"
        other.parent.mkdir()
        other.write_text(TINY_BOARD.read_text("utf-8"))
        case.keep(other)
        targets.append(str(other))
    out = {
        "new": case.root / "out",
        "nested": case.root / "out" / "a" / "b",
        "game": game,
        "rules": game / "rules",
        "board-file": board,
        "book-file": book,
        "through-file": board / "out",
        "existing": case.root / "out",
        "fifo": case.root / "out",
        "loop": case.root / "out",
    }.get(where)
    if where == "fifo":
        special(case.root / "out", "fifo")
    elif where == "loop":
        special(case.root / "out", "loop")
    elif where == "read-only":
        out = tmpfs(case, case.root / "fs", "1m")
    elif where == "full":
        out = tmpfs(case, case.root / "fs", "16k")
    if out is not None and where not in ("board-file", "book-file", "through-file"):
        for name, kind in pages:
            page = out / name
            if where in ("fifo", "loop"):
                break
            if kind == "text":
                with contextlib.suppress(OSError):  # under a page made a file or a link
                    page.parent.mkdir(parents=True, exist_ok=True)
                    if not page.is_dir():
                        page.write_text("an earlier page\n")
                continue
            target = {
                "link-outside": case.root / "outside.md",
                "link-board": board,
                "link-book": book,
            }.get(kind)
            with contextlib.suppress(OSError):
                special(page, "link" if target else kind, target)
    if where == "read-only":
        read_only(case.root / "fs")
    shown = {"devnull": "/dev/null", "blank": ""}.get(where, str(out))
    case.args = ["report", *targets, "--dir", shown, "--format", fmt, "--max-seconds", "1"]
    if out is not None and where not in ("board-file", "book-file", "through-file"):
        case.expect_page = out / ("board.html" if fmt == "html" else "board.md")


BUILD = {
    "dask": build_dask,
    "workdir": build_workdir,
    "rulebook": build_rulebook,
    "report": build_report,
}
PLANS = {
    "dask-options": dask_plan(),
    "dask-workdir": workdir_plan(),
    "designer-rulebook": rulebook_plan(),
    "report-dir": report_plan(),
}


def problem_of(plan: tuple[Any, ...]) -> str | None:
    """Lay out ``plan``, run it and judge it: what went wrong, or None."""
    with case_dir() as case:
        BUILD[plan[0]](case, plan)
        known = known_answer() if plan[0] in ("dask", "workdir") else None
        result = invoke(case.args, case.root / "cwd")
        return judge(case, result, known=known)
