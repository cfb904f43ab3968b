"""Ctrl-C at random times during real runs: exit 130, nothing reported, no file changed.

Each case starts the CLI as a subprocess, sends SIGINT after a seeded random
delay, and then requires one of two things: the run was interrupted (exit 130,
nothing on stdout, every output file as it was before), or it had already
finished (its output is exactly that of an uninterrupted run). Before the fix
an interrupt inside Z3 was swallowed: ``check twisted-cryptids`` went on and
reported a changed finding as finished.

The fast suite interrupts each command once; ``-m slow`` many times.
"""

from __future__ import annotations

import filecmp
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STARTUP = 0.5  # seconds: Python starting, before the console script's first line
EXIT_INTERRUPTED = 130


def cli(*args: str) -> list[str]:
    return [sys.executable, "-c", "from ruleslawyer.cli import main; main()", *args]


def interrupted_run(args: list[str], delay: float, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    with subprocess.Popen(
        args,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # Ctrl-C's default action, even when this test runs where SIGINT is ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    ) as process:
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=300)
    return subprocess.CompletedProcess(args, process.returncode, out, err)


def snapshot(directory: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


# command, whether it writes one file (-o) or a report directory
CASES = {
    "check": (["check", "twisted-cryptids", "--format", "json", "-o", "out/result.json"], 25),
    "check-stdout": (["check", "twisted-cryptids", "cunning-folk", "--format", "json"], 25),
    "baseline": (["baseline", "kaelyfos", "cunning-folk", "-o", "out/baseline.json"], 8),
    "report": (["report", "kaelyfos", "cunning-folk", "--dir", "out"], 10),
    "solve": (
        [
            "twist-of-fate",
            "solve",
            str(ROOT / "ruleslawyer" / "data" / "positions" / "twist-of-fate-3p-9.toml"),
            "--format",
            "json",
            "--threads",
            "1",
            "-o",
            "out/solve.json",
        ],
        10,
    ),
}


def _prepare(tmp_path: Path, name: str) -> Path:
    """A working directory whose out/ holds an older output (which must survive intact)."""
    work = tmp_path / name
    (work / "out").mkdir(parents=True)
    (work / "out" / "result.json").write_text('{"old": true}\n')
    (work / "out" / "baseline.json").write_text('{"old": true}\n')
    (work / "out" / "solve.json").write_text('{"old": true}\n')
    (work / "out" / "kaelyfos.md").write_text("old report\n")
    (work / "out" / "kaelyfos").mkdir()
    (work / "out" / "kaelyfos" / "old.svg").write_text("<svg/>\n")
    return work


def _uninterrupted(tmp_path: Path, name: str) -> tuple[subprocess.CompletedProcess, Path]:
    work = _prepare(tmp_path, name + "-reference")
    args, _ = CASES[name]
    done = subprocess.run(cli(*args), cwd=work, capture_output=True, text=True, timeout=900)
    return done, work


def check_interrupt(tmp_path: Path, name: str, delay: float, reference: dict) -> None:
    args, _ = CASES[name]
    work = _prepare(tmp_path, f"{name}-{delay!r}")
    before = snapshot(work / "out")
    result = interrupted_run(cli(*args), delay, work)
    assert "Traceback" not in result.stderr, result.stderr
    if result.returncode == EXIT_INTERRUPTED:
        assert result.stdout == "", "an interrupted run reported something"
        assert snapshot(work / "out") == before, "an interrupted run changed its outputs"
        assert result.stderr.strip().endswith("interrupted: nothing reported"), result.stderr
        return
    # it finished before the signal: exactly the uninterrupted answer
    if name not in reference:
        reference[name] = _uninterrupted(tmp_path, name)
    done, done_work = reference[name]
    assert result.returncode == done.returncode, (result.returncode, result.stderr)
    if "--format" in args and "-o" not in args:
        assert result.stdout == done.stdout
    assert _without_timings(snapshot(work / "out")) == _without_timings(snapshot(done_work / "out"))


def _without_timings(files: dict[str, bytes]) -> dict[str, bytes]:
    import json

    out = {}
    for name, data in files.items():
        if name.endswith("solve.json"):
            doc = json.loads(data)
            doc.pop("seconds", None)
            data = json.dumps(doc).encode()
        out[name] = data
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_interrupt_per_command(tmp_path, name) -> None:
    rng = random.Random(f"16-{name}")
    _, longest = CASES[name]
    delay = STARTUP + rng.uniform(0.2, min(longest, 3.0))
    check_interrupt(tmp_path, name, delay, {})


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_many_interrupts_per_command(tmp_path, name) -> None:
    rng = random.Random(f"16-many-{name}")
    _, longest = CASES[name]
    reference: dict = {}
    for _ in range(12):
        check_interrupt(tmp_path, name, STARTUP + rng.uniform(0.0, longest), reference)


def test_helpers_compare_what_they_claim(tmp_path) -> None:
    """The snapshot helper sees a change of content and a file added (so the tests can fail)."""
    (tmp_path / "a").write_text("1")
    first = snapshot(tmp_path)
    (tmp_path / "a").write_text("2")
    assert snapshot(tmp_path) != first
    shutil.copy(tmp_path / "a", tmp_path / "b")
    assert filecmp.cmp(tmp_path / "a", tmp_path / "b") and len(snapshot(tmp_path)) == 2


# ---- Ctrl-C in the first milliseconds (fuzz round 4: a KeyboardInterrupt traceback, exit 1
# or a kill by SIGINT, never 130) ----

SCRIPT = Path(sys.executable).parent / "ruleslawyer"  # the console script pip made

# A sitecustomize that stands for a Ctrl-C landing at one place of the console script's
# start: while an import of the given module runs, before or after its code.
LANDING = """\
import importlib.abc, os, sys
where, when = os.environ["RULESLAWYER_TEST_CTRL_C"].split(":")

class Lands(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != where:
            return None
        if when == "before":
            raise KeyboardInterrupt
        sys.meta_path.remove(self)
        from importlib.util import find_spec
        spec = find_spec(name)
        run = spec.loader.exec_module
        def exec_module(module):
            run(module)
            raise KeyboardInterrupt
        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, Lands())
"""


@pytest.mark.skipif(not SCRIPT.exists(), reason="no console script beside this Python")
@pytest.mark.parametrize(
    "landing",
    [
        "ruleslawyer.cli:after",  # the console script's own import, its first code run
        "click:before",  # main() importing the command line
        "ruleslawyer.cli.main:after",
        "ruleslawyer.games:before",
    ],
)
def test_ctrl_c_while_the_console_script_starts_is_exit_130(tmp_path, landing) -> None:
    (tmp_path / "sitecustomize.py").write_text(LANDING)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "RULESLAWYER_TEST_CTRL_C": landing}
    done = subprocess.run([str(SCRIPT), "games"], capture_output=True, text=True, env=env)
    assert (done.returncode, done.stdout) == (EXIT_INTERRUPTED, ""), done.stderr
    assert done.stderr == "interrupted: nothing reported\n"


@pytest.mark.skipif(not SCRIPT.exists(), reason="no console script beside this Python")
def test_ctrl_c_in_the_first_50_ms_never_passes_through_ruleslawyer(tmp_path) -> None:
    """Real signals at seeded times over the first 50 ms. Before the console script's first
    import of ruleslawyer, Python handles Ctrl-C itself (a kill by SIGINT, which a shell
    reports as 130, or Python's own start-up traceback: outside this package's reach);
    from that import on, exit 130 with one line, or the whole answer."""
    rng = random.Random("38-first-50-ms")
    outcomes = []
    for _ in range(12):
        delay = rng.uniform(0.0, 0.05)
        done = interrupted_run([str(SCRIPT), "games"], delay, tmp_path)
        outcomes.append((round(delay * 1000), done.returncode))
        assert f"{os.sep}ruleslawyer{os.sep}" not in done.stderr, done.stderr  # no frame of ours
        if done.returncode == EXIT_INTERRUPTED:
            assert (done.stdout, done.stderr) == ("", "interrupted: nothing reported\n")
        elif done.returncode == 0:
            assert done.stdout.split()[0] == "kaelyfos"  # finished first: the whole answer
        else:  # Python's own start-up, before any code of this package ran
            assert done.stdout == "" and done.returncode in (-signal.SIGINT, 1), outcomes
