"""The tiered engine on a real Dask cluster: a scheduler and two worker processes on
127.0.0.1, started and stopped here. A worker killed mid-run, and a client killed
mid-run then resumed, still give the memory solver's answer."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ruleslawyer.models.twist_of_fate.files import load_position
from ruleslawyer.models.twist_of_fate.play import Rules
from tests.twist_of_fate.test_dask import memory_answer

ROOT = Path(__file__).resolve().parents[2]
POSITION = ROOT / "ruleslawyer" / "data" / "positions" / "twist-of-fate-3p-6.toml"
BIN = Path(sys.executable).parent
WAIT = 120.0


class Cluster:
    def __init__(self, tmp: Path) -> None:
        self.file = tmp / "scheduler.json"
        self.procs: list[subprocess.Popen] = []
        self.scheduler = self._start(
            "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
            "--scheduler-file", str(self.file),
        )  # fmt: skip
        _until(self.file.exists, "the scheduler file")
        self.address = json.loads(self.file.read_text())["address"]
        worker = ("worker", "--scheduler-file", str(self.file), "--nthreads", "1")
        local = ("--no-nanny", "--host", "127.0.0.1", "--no-dashboard")
        self.workers = [self._start(*worker, *local, "--name", f"w{i}") for i in range(2)]
        from distributed import Client

        with Client(self.address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=WAIT)

    def _start(self, *args: str) -> subprocess.Popen:
        proc = subprocess.Popen(
            [str(BIN / "dask"), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.procs.append(proc)
        return proc

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.kill()
                proc.wait(30)


def _until(ready, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + WAIT
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


pytestmark = pytest.mark.slow  # about a minute each on a quiet 2-core machine


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    c = Cluster(tmp_path)
    try:
        yield c
    finally:
        c.stop()


def _solve(cluster: Cluster, work: Path, *more: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            str(BIN / "ruleslawyer"), "twist-of-fate", "solve", str(POSITION),
            "--model", "paranoid", "--engine", "dask",
            "--scheduler", cluster.address, "--work-dir", str(work), "--partition-states", "3000",
            "--format", "json", *more,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip


def _tiers_done(work: Path) -> int:
    try:
        return len(json.loads((work / "manifest.json").read_text())["tiers"])
    except (OSError, ValueError):
        return 0


def _expected() -> dict:
    return memory_answer(load_position(POSITION), Rules())


def _answer(report: dict) -> dict:
    return {key: report[key] for key in _expected()}


def test_worker_killed_mid_run_same_answer(cluster: Cluster, tmp_path: Path) -> None:
    work = tmp_path / "work"
    run = _solve(cluster, work)
    _until(lambda: _tiers_done(work) >= 4 or run.poll() is not None, "tier 3 on disk")
    assert run.poll() is None, "the run ended before a worker could be killed"
    victim = cluster.workers[0]
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait(30)
    out, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    report = json.loads(out)
    assert report["finished"] is True
    assert _answer(report) == _expected()
    # the survivor did work after the kill: it wrote tiers 4 to 6 and every value file
    assert [t["tier"] for t in report["tiers"]] == list(range(7))


def test_client_killed_mid_run_then_resumed_same_answer(cluster: Cluster, tmp_path: Path) -> None:
    work = tmp_path / "work"
    run = _solve(cluster, work)
    _until(lambda: _tiers_done(work) >= 3 or run.poll() is not None, "tier 2 on disk")
    assert run.poll() is None, "the run ended before the client could be killed"
    run.send_signal(signal.SIGKILL)
    run.wait(30)
    done = _tiers_done(work)
    assert 3 <= done <= 7
    resumed = _solve(cluster, work, "--resume")
    out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    report = json.loads(out)
    assert report["resumed_from_tier"] == done
    assert _answer(report) == _expected()


def _local(work: Path, *more: str) -> subprocess.Popen:
    """A run on a local cluster of two worker processes, in a process group of its own
    (as a terminal's Ctrl-C reaches the client and its workers)."""
    return subprocess.Popen(
        [
            str(BIN / "ruleslawyer"), "twist-of-fate", "solve", str(POSITION),
            "--model", "paranoid", "--engine", "dask", "--workers", "2",
            "--work-dir", str(work), "--partition-states", "3000", "--format", "json", *more,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )  # fmt: skip


def test_ctrl_c_on_a_local_cluster_is_honoured_quietly_then_resume(tmp_path: Path) -> None:
    work = tmp_path / "work"
    run = _local(work, "--worker-memory", "1")  # the documented minimum
    _until(lambda: _tiers_done(work) >= 3 or run.poll() is not None, "tier 2 on disk")
    assert run.poll() is None, "the run ended before it could be interrupted"
    os.killpg(run.pid, signal.SIGINT)  # the client and its workers, as a terminal does
    out, err = run.communicate(timeout=15)
    assert run.returncode == 130, err
    # the client's lines only: no worker's traceback
    assert out == "" and "Traceback" not in err and len(err.splitlines()) == 2, err
    resumed = _local(work, "--resume", "--worker-memory", "1")
    out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    report = json.loads(out)
    assert report["resumed_from_tier"] >= 3
    assert _answer(report) == _expected()


def test_a_task_that_kills_its_worker_each_time_is_one_line() -> None:
    from distributed import Client, LocalCluster

    from ruleslawyer.errors import InputError
    from ruleslawyer.solvers.twist_of_fate.dask import DaskRunner

    with (
        LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        runner = DaskRunner(client, "a local cluster")
        assert runner.map(abs, [(-1,)]) == [1]
        # the worker process exits in the task, as one the nanny ends at its memory limit
        with pytest.raises(InputError, match="died each time") as caught:
            runner.map(os._exit, [(1,)])
        assert "--worker-memory" in str(caught.value) and len(str(caught.value).splitlines()) == 1
