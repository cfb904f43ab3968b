"""The tiered engine (``--engine dask``) under faults: bad numbers, damaged, locked,
read-only and full work directories, interrupts. Each through the CLI, in this process
(``--workers 0``) unless a real process is the point; a full disk and a read-only one
on a real small tmpfs (mounting needs root: skipped without it)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.errors import InputError
from ruleslawyer.models.twist_of_fate.files import load_position
from ruleslawyer.models.twist_of_fate.play import Rules
from ruleslawyer.solvers.twist_of_fate import memory
from ruleslawyer.solvers.twist_of_fate.dask import Engine, InProcess
from tests.twist_of_fate.test_dask import engine_answer, memory_answer

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

# Three cards left, one a player: tiers of 1, 12, 128 and 1259 states (1400 in all);
# in partitions of 100 states the last two tiers have 2 and 14 partitions
SMALL = """\
deck = "twist-of-fate"
active = "ann"

[[player]]
name = "ann"
luck = 3
shilling = 1
sanctuary = 2
hand = ["Nancy"]
in_front = ["Bill Sikes", "Fagin", "Mr. Bumble", "The Artful Dodger"]

[[player]]
name = "bob"
luck = 2
shilling = 3
sanctuary = 3
hand = ["Fagin"]
in_front = ["Nancy", "Mr. Brownlow", "The Artful Dodger", "Mr. Bumble"]

[[player]]
name = "cat"
luck = 0
shilling = 2
sanctuary = 1
hand = ["Mr. Bumble"]
in_front = ["Mr. Brownlow", "Nancy", "Fagin", "Bill Sikes"]
"""


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("position") / "small.toml"
    path.write_text(SMALL)
    return path


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["twist-of-fate", "solve", "--model", "paranoid", *args])
    return result.exit_code, result.stdout, result.stderr


def _dask(position: Path, work: Path, *more: str) -> tuple[int, str, str]:
    return _cli(
        str(position), "--engine", "dask", "--workers", "0", "--work-dir", str(work),
        "--partition-states", "100", "--format", "json", *more,
    )  # fmt: skip


def _expected(position: Path) -> dict:
    return memory_answer(load_position(position), Rules())


def _answer(out: str) -> dict:
    report = json.loads(out)
    assert report["finished"] is True
    return {key: report[key] for key in ("guaranteed_sanctuary", "end_states", "states")}


def _known(position: Path) -> dict:
    expected = _expected(position)
    # by the memory solver, and as the tiers add up (1 + 12 + 128 + 1259)
    assert (expected["guaranteed_sanctuary"], expected["states"]) == (3, 1400)
    return {key: expected[key] for key in ("guaranteed_sanctuary", "end_states", "states")}


def _one_line(code: int, err: str, *named: str) -> None:
    assert code == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    for name in named:
        assert name in err, err


# ---- numbers ----


@pytest.mark.parametrize(
    "option, value",
    [
        ("--max-disk", "nan"),
        ("--max-disk", "inf"),
        ("--max-disk", "-inf"),
        ("--max-disk", "1e300"),
        ("--max-disk", "0"),
        ("--worker-memory", "nan"),
        ("--worker-memory", "inf"),
        ("--worker-memory", "1e400"),
        ("--worker-memory", "0.1"),  # below the 1 GiB a worker and its task need
        ("--worker-memory", "5000"),
    ],
)
def test_dask_sizes_out_of_range_are_one_line(small: Path, option: str, value: str) -> None:
    code, _, err = _cli(str(small), "--engine", "dask", option, value)
    _one_line(code, err, option, repr(value))


def test_more_workers_than_processors_is_refused_before_any_starts(small: Path) -> None:
    most = memory.usable_processors()
    code, _, err = _cli(str(small), "--engine", "dask", "--workers", str(most + 1))
    _one_line(code, err, "--workers", f"at most {most}")


# ---- damaged work directories ----


@pytest.fixture(scope="module")
def finished(small: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A work directory of a finished run of SMALL."""
    work = tmp_path_factory.mktemp("finished") / "work"
    code, _, err = _dask(small, work)
    assert code == 0, err
    return work


def _flip_first_value(work: Path) -> Path:
    path = work / "tier-0000" / "values-00000.npy"
    values = np.load(path)
    values[0] ^= 1
    np.save(path, values)
    return path


def _duplicate_tier(work: Path) -> Path:
    path = work / "manifest.json"
    doc = json.loads(path.read_text())
    doc["tiers"].insert(2, doc["tiers"][2])
    path.write_text(json.dumps(doc))
    return path


def _truncate(path: Path) -> Path:
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size - 8)
    return path


def _fifo(path: Path) -> Path:
    path.unlink()
    os.mkfifo(path)
    return path


def _directory(path: Path) -> Path:
    path.unlink()
    path.mkdir()
    return path


def _delete(path: Path) -> Path:
    path.unlink()
    return path


def _ends(work: Path) -> Path:
    (path,) = work.glob("ends-*.npy")
    return _delete(path)


DAMAGE: dict[str, Callable[[Path], Path]] = {
    "end states deleted": _ends,
    "tier-0 values altered": _flip_first_value,
    "manifest entry duplicated": _duplicate_tier,
    "states file truncated": lambda w: _truncate(w / "tier-0003" / "states-00005.npy"),
    "values file truncated": lambda w: _truncate(w / "tier-0002" / "values-00001.npy"),
    "manifest truncated": lambda w: _truncate(w / "manifest.json"),
    "manifest a FIFO": lambda w: _fifo(w / "manifest.json"),
    "manifest a directory": lambda w: _directory(w / "manifest.json"),
    "states file a FIFO": lambda w: _fifo(w / "tier-0001" / "states-00000.npy"),
    "states file deleted": lambda w: _delete(w / "tier-0003" / "states-00013.npy"),
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_work_directory_is_refused_naming_the_file(
    small: Path, finished: Path, tmp_path: Path, damage: str
) -> None:
    work = tmp_path / "work"
    shutil.copytree(finished, work)
    assert _dask(small, work, "--resume")[0] == 0  # whole, it resumes to the answer
    damaged = DAMAGE[damage](work)
    code, out, err = _dask(small, work, "--resume")
    _one_line(code, err, str(damaged))
    assert out == ""


def test_a_damaged_unfinished_run_is_refused_and_whole_resumes(small: Path, tmp_path: Path) -> None:
    work = tmp_path / "work"
    code, out, err = _dask(small, work, "--max-states", "100")  # stops after tier 2
    assert code == 3, err
    assert len(json.loads(out)["tiers"]) == 3
    saved = (work / "tier-0002" / "states-00000.npy").read_bytes()
    (work / "tier-0002" / "states-00000.npy").write_bytes(saved[:-8] + bytes(8))
    _one_line(*_dask(small, work, "--resume")[::2], "tier-0002/states-00000.npy", "checksum")
    (work / "tier-0002" / "states-00000.npy").write_bytes(saved)
    code, out, err = _dask(small, work, "--resume")
    assert code == 0, err
    assert _answer(out) == _known(small)


# ---- a folder holding other files: refused, left as it was (fuzz round 4: the tiers were
# written over them, the position itself included when it had a tier file's name) ----


@pytest.mark.parametrize(
    "held", ["notes.txt", "tier-0002/notes.txt", "tier-0001/states-00000.npy", "tier-0000"]
)
def test_a_work_directory_holding_other_files_is_refused_and_left_as_it_was(
    small: Path, tmp_path: Path, held: str
) -> None:
    work = tmp_path / "work"
    (work / held).parent.mkdir(parents=True)
    (work / held).write_text(SMALL)  # tier-0000: a file where the engine makes a folder
    position = work / held if held.endswith(".npy") else small  # the position, in there
    code, out, err = _dask(position, work)
    _one_line(code, err, held)
    assert out == "" and (work / held).read_text() == SMALL
    assert sorted(p.relative_to(work).as_posix() for p in work.rglob("*")) == sorted(
        {held, *(p.as_posix() for p in Path(held).parents if p != Path("."))}
    )  # no lock, no tier left behind


def test_a_finished_run_with_a_file_added_is_refused_on_resume(
    small: Path, finished: Path, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    shutil.copytree(finished, work)
    (work / "tier-0003" / "mine.npy").write_bytes(b"the designer's")
    _one_line(*_dask(small, work, "--resume")[::2], "tier-0003/mine.npy", "did not write")


# ---- one run at a time ----


def test_a_second_run_in_a_directory_in_use_is_refused_and_the_first_is_unharmed(
    small: Path, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    first = Engine(load_position(small), Rules(), InProcess(), work, partition_states=100)
    for more in ((), ("--resume",)):
        code, _, err = _dask(small, work, *more)
        _one_line(code, err, str(work / "lock"), "another run")
    assert engine_answer(first) == _expected(small)
    code, out, err = _dask(small, work, "--resume")  # the lock is let go at the end
    assert code == 0, err
    assert _answer(out) == _known(small)


# ---- the work directory's file system: read-only, full ----


@contextlib.contextmanager
def _tmpfs(path: Path, size: str) -> Iterator[Path]:
    """A real tmpfs of ``size`` at ``path`` (skipped where mounting is not allowed)."""
    path.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("mounting a small tmpfs needs root")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


def _remount(path: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(path)], check=True)


def test_a_full_disk_is_one_line_and_resumes_to_the_answer(small: Path, tmp_path: Path) -> None:
    # tmpfs gives each file a page at least: 40 KiB hold the first tiers, not the last
    with _tmpfs(tmp_path / "fs", "40k") as fs:
        work = fs / "work"
        code, out, err = _dask(small, work)
        _one_line(code, err, f"{work}: disk full", "bytes", "free", "--resume")
        assert out == ""
        assert json.loads((work / "manifest.json").read_text())["tiers"]  # whole tiers kept
        assert not list(work.rglob(".*.tmp"))  # no half-written file left
        _remount(fs, "size=4m")  # space freed
        code, out, err = _dask(small, work, "--resume")
        assert code == 0, err
        assert _answer(out) == _known(small)
        assert json.loads(out)["resumed_from_tier"] >= 1


def test_a_read_only_work_directory_is_one_line(small: Path, tmp_path: Path) -> None:
    with _tmpfs(tmp_path / "fs", "1m") as fs:
        (fs / "empty").mkdir()
        _remount(fs, "ro")
        for work in (fs / "empty", fs / "new"):
            code, _, err = _dask(small, work)
            _one_line(code, err, str(work), "Read-only file system")


def test_an_unwritable_lock_is_one_line(small: Path, tmp_path: Path) -> None:
    # without root's tmpfs: the lock's place taken by a directory
    work = tmp_path / "work"
    (work / "lock").mkdir(parents=True)
    code, _, err = _dask(small, work)
    _one_line(code, err, str(work / "lock"))


# ---- an interrupt at a tier, then --resume ----


def test_an_interrupt_at_a_tier_then_resume_gives_the_answer(tmp_path: Path) -> None:
    position = ROOT / "ruleslawyer" / "data" / "positions" / "twist-of-fate-3p-6.toml"
    work = tmp_path / "work"
    command = [
        str(BIN / "ruleslawyer"), "twist-of-fate", "solve", str(position), "--model", "paranoid",
        "--engine", "dask", "--workers", "0", "--work-dir", str(work),
        "--partition-states", "3000", "--format", "json",
    ]  # fmt: skip
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def tiers() -> int:
        try:
            return len(json.loads((work / "manifest.json").read_text())["tiers"])
        except (OSError, ValueError):
            return 0

    deadline = time.monotonic() + 120
    while tiers() < 3 and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert run.poll() is None, "the run ended before it could be interrupted"
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=10)  # Ctrl-C honoured within seconds
    assert run.returncode == 130, err
    assert out == "" and "Traceback" not in err and f"kept in {work}" in err
    resumed = subprocess.run([*command, "--resume"], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    report = json.loads(resumed.stdout)
    assert report["resumed_from_tier"] >= 3
    assert {key: report[key] for key in _expected(position)} == _expected(position)


def test_engine_refuses_a_damaged_directory_with_an_input_error(
    small: Path, finished: Path, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    shutil.copytree(finished, work)
    _flip_first_value(work)
    with pytest.raises(InputError, match=r"values-00000\.npy: checksum"):
        Engine(load_position(small), Rules(), InProcess(), work, resume=True)
    # refused, it let the lock go: a repaired directory resumes
    shutil.copy2(finished / "tier-0000" / "values-00000.npy", work / "tier-0000")
    assert Engine(load_position(small), Rules(), InProcess(), work, resume=True).solve().finished


# ---- --scheduler naming something that is no Dask scheduler (fuzz round 4: a 75-line
# traceback, a 3 EiB allocation for an HTTP server's first bytes, or a hang until Ctrl-C
# for a server that waits for its client to speak first) ----

# What a Dask scheduler sends first on a new connection (captured from distributed 2026.8's
# LocalCluster): the frames' length, one frame, its length, the msgpack of its handshake.
DASK_GREETING = (
    b":\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00*\x00\x00\x00\x00\x00\x00"
    b"\x00\x83\xabcompression\xc0\xa6python\x93\x03\x0b\x07\xafpickle-protocol\x05"
)


@contextlib.contextmanager
def _server(greeting: bytes | None, close: bool = True) -> Iterator[str]:
    """A TCP server on loopback that sends ``greeting`` (None: nothing) to each client, then
    closes (or holds the connection open); its address."""
    import socket
    import threading

    listener = socket.create_server(("127.0.0.1", 0))
    held = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = listener.accept()
                if greeting:
                    conn.sendall(greeting)
                if close:
                    conn.close()
                else:
                    held.append(conn)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        with contextlib.suppress(OSError):
            listener.shutdown(socket.SHUT_RDWR)  # wakes the accept: nothing listens any more
        listener.close()
        for conn in held:
            conn.close()


@pytest.mark.parametrize(
    "greeting, close, said",
    [
        (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", True, "does not speak Dask's"),
        (b"\xff" * 64, True, "does not speak Dask's"),  # a length of 2**64 - 1
        (None, True, "no greeting"),  # closed at once
        (None, False, "no greeting within 0.2 s"),  # waits for the client to speak first
        (DASK_GREETING[:20], True, "no greeting"),  # cut short
    ],
    ids=["http", "huge-length", "closed", "silent", "cut-short"],
)
def test_a_scheduler_address_that_is_no_dask_scheduler_is_one_line(
    small: Path, monkeypatch, greeting: bytes | None, close: bool, said: str
) -> None:
    from ruleslawyer.solvers.twist_of_fate import dask

    monkeypatch.setattr(dask, "PROBE_SECONDS", 0.2)  # the test's own server: at once or never
    with _server(greeting, close) as address:
        code, out, err = _cli(str(small), "--engine", "dask", "--scheduler", address)
    _one_line(code, err, "--scheduler", address, said)
    assert out == ""


def test_a_dask_greeting_passes_the_probe() -> None:
    from ruleslawyer.solvers.twist_of_fate.dask import probe_scheduler

    with _server(DASK_GREETING) as address:
        probe_scheduler(address)  # no error: Dask's client takes it from here
    with pytest.raises(InputError, match="Connection refused"):
        probe_scheduler(address)  # closed now
