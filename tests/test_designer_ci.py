"""The example designer repository's CI, as shipped: the GitHub workflow and the pre-commit hook.

The fast tests read the workflow and the hook definitions and run their
commands through the CLI. The slow ones run the example as a user does: they
build this checkout's wheel, put it where the workflow installs it from
(``wheels/``) in a temporary git repository holding a copy of the example, run
every ``run:`` step of the workflow in order in a fresh virtual environment
(pip installs the wheel and its dependencies: 1 to 3 minutes here), and run
the hook with real ``pre-commit``; both pass as shipped and fail once the
board gains a contradiction. ``pre-commit try-repo`` runs the hook this
repository publishes (pre-commit builds its environment with pip, 20 s to 2
minutes here on a cold cache; environments are kept in
``$XDG_CACHE_HOME/ruleslawyer-tests``). ``.ci/run`` runs the slow ones with every
other slow test, to the end.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from ruleslawyer.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "designer-repo"
CROSSING = '\n[[edge]]\nbetween = ["bony-protrusion", "vesicle-cluster"]\ndots = [0, 0]\n'


def workflow() -> dict:
    return yaml.safe_load((EXAMPLE / ".github" / "workflows" / "rules.yml").read_text("utf-8"))


def hook_config() -> dict:
    (repo,) = yaml.safe_load((EXAMPLE / ".pre-commit-config.yaml").read_text("utf-8"))["repos"]
    return repo


def published_hook() -> dict:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    return hook


def git(*args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    target = tmp_path / "designer-repo"
    shutil.copytree(EXAMPLE, target)
    monkeypatch.chdir(target)
    return target


def test_workflow_installs_the_committed_wheel_with_current_actions() -> None:
    text = (EXAMPLE / ".github" / "workflows" / "rules.yml").read_text("utf-8")
    steps = workflow()["jobs"]["ruleslawyer"]["steps"]
    installs = [s["run"] for s in steps if "pip install" in s.get("run", "")]
    assert installs == ["python -m pip install wheels/ruleslawyer-*.whl"]
    # no invented address, no pinned commit: it says how to make the wheel until a release
    assert not re.search(r"https?://|git\+|\b[0-9a-f]{40}\b", text)
    assert "python -m pip wheel --no-deps -w wheels" in text
    used = {s["uses"].split("@")[0]: int(s["uses"].split("@v")[1]) for s in steps if "uses" in s}
    assert used["actions/checkout"] >= 4 and used["actions/setup-python"] >= 5
    assert used["github/codeql-action/upload-sarif"] >= 4


def test_hook_runs_the_installed_ruleslawyer_with_no_invented_address() -> None:
    assert hook_config()["repo"] == "local"
    (hook,) = hook_config()["hooks"]
    assert hook["language"] == "system" and hook["entry"].startswith("ruleslawyer check ")
    text = (EXAMPLE / ".pre-commit-config.yaml").read_text("utf-8")
    assert not re.search(r"https?://|\b[0-9a-f]{40}\b", text)


def test_workflow_commands_run_as_shipped(repo: Path) -> None:
    steps = workflow()["jobs"]["ruleslawyer"]["steps"]
    commands = [shlex.split(s["run"]) for s in steps if s.get("run", "").startswith("ruleslawyer")]
    assert len(commands) == 2
    for command in commands:
        result = CliRunner().invoke(cli, command[1:])
        assert result.exit_code == 0, result.output
    sarif = (repo / "ruleslawyer.sarif").read_text("utf-8")
    assert '"baselineState": "unchanged"' in sarif and '"uri": "rules/kaelyfos.md"' in sarif


def hook_command(hook: dict, files: list[str]) -> list[str]:
    """The command pre-commit runs for ``hook``: entry, args, then the files it matches."""
    passed = [f for f in files if re.search(hook["files"], f)]
    if not passed:
        return []
    names = passed if hook.get("pass_filenames", True) else []
    return [*shlex.split(hook["entry"]), *hook.get("args", []), *names]


def test_hook_defaults_check_the_committed_game_files_not_the_builtin_games(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[project]\nname = "my-game"\n', "utf-8")
    command = hook_command(published_hook(), ["board.toml", "pyproject.toml", "rules/kaelyfos.md"])
    assert command[:2] == ["ruleslawyer", "check"] and command[-2:] == [
        "board.toml",
        "pyproject.toml",
    ]
    result = CliRunner().invoke(cli, command[1:])
    # the repository's ruleslawyer-baseline.json accepts the board's known findings
    assert result.exit_code == 0, result.output
    assert "— board.toml" in result.output and "ruleslawyer/data/" not in result.output
    (repo / "ruleslawyer-baseline.json").unlink()  # without one, the known gap fails
    result = CliRunner().invoke(cli, command[1:])
    assert result.exit_code == 1 and "FAIL [gap] kaelyfos/move-order" in result.output
    # A commit with no game file in it checks nothing (not every built-in game).
    only_other = CliRunner().invoke(cli, hook_command(published_hook(), ["pyproject.toml"])[1:])
    assert only_other.exit_code == 0 and "nothing to check" in only_other.stderr
    assert hook_command(published_hook(), ["rules/kaelyfos.md"]) == []  # not run at all


def test_example_hook_rechecks_the_board_when_its_rulebook_changes(repo: Path) -> None:
    (hook,) = hook_config()["hooks"]
    command = hook_command(hook, ["rules/kaelyfos.md"])
    assert command[-1] == "board.toml" and "--baseline" in command
    assert CliRunner().invoke(cli, command[1:]).exit_code == 0
    rulebook = repo / "rules" / "kaelyfos.md"
    rulebook.write_text(rulebook.read_text().replace("is then removed from play", "is discarded"))
    assert CliRunner().invoke(cli, command[1:]).exit_code == 1  # a quoted sentence changed


# --- real pre-commit --------------------------------------------------------------------------


def pre_commit_home() -> str:
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return str(cache / "ruleslawyer-tests" / "pre-commit")


def pre_commit(*args: str, cwd: Path, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": pre_commit_home()}
    env.pop("VIRTUAL_ENV", None)
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.fixture
def git_repo(tmp_path) -> Path:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: pre-commit installs the hook from this repository")
    target = tmp_path / "designer-repo"
    shutil.copytree(EXAMPLE, target)
    git("init", "-q", cwd=target)
    git("config", "user.email", "designer@example.org", cwd=target)
    git("config", "user.name", "A Designer", cwd=target)
    return target


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """This checkout's wheel, and a virtual environment's bin directory to install it in.

    The environment is new and empty, as a CI runner's Python is: the workflow's own
    install step puts the wheel and its dependencies in it.
    """
    where = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(where), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = where.glob("ruleslawyer-*.whl")
    env_dir = tmp_path_factory.mktemp("runner") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, timeout=300)
    return wheel, env_dir / "bin"


def user_repo(git_repo: Path, wheel: Path) -> Path:
    """The example as a designer keeps it: the wheel in wheels/, everything committed."""
    (git_repo / "wheels").mkdir()
    shutil.copy(wheel, git_repo / "wheels" / wheel.name)
    git("add", "-A", cwd=git_repo)
    git("commit", "-q", "-m", "the board", cwd=git_repo)
    return git_repo


def runner_path(bin_dir: Path) -> str:
    return f"{bin_dir}{os.pathsep}{os.environ['PATH']}"


def run_workflow(repo: Path, bin_dir: Path) -> list[tuple[str, int | None]]:
    """Every ``run:`` step of the workflow in order, as GitHub runs them: bash with -e and
    pipefail in the checkout, ``python`` the set-up one; after a failure only the steps
    with ``if: always()`` run. Returns each step's name and exit status (None: skipped)."""
    env = {**os.environ, "PATH": runner_path(bin_dir)}
    env.pop("VIRTUAL_ENV", None)
    failed = False
    ran: list[tuple[str, int | None]] = []
    for step in workflow()["jobs"]["ruleslawyer"]["steps"]:
        if "run" not in step:
            continue
        if failed and "always()" not in str(step.get("if", "success()")):
            ran.append((step["name"], None))
            continue
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert done.returncode in (0, 1), (step["name"], done.stdout[-2000:], done.stderr[-2000:])
        ran.append((step["name"], done.returncode))
        failed = failed or done.returncode != 0
    return ran


def seed_contradiction(repo: Path) -> None:
    """Un-rule ``kaelyfos/attack-removal``: the rulebook's contradiction is open, and new."""
    board = repo / "board.toml"
    text = board.read_text("utf-8")
    ruling = '"kaelyfos/attack-removal" = "supply"\n'
    assert ruling in text
    board.write_text(text.replace(ruling, ""), "utf-8")


@pytest.mark.slow
def test_workflow_steps_pass_as_shipped_and_fail_on_a_contradiction(
    git_repo: Path, installed: tuple[Path, Path]
) -> None:
    wheel, bin_dir = installed
    repo = user_repo(git_repo, wheel)
    steps = run_workflow(repo, bin_dir)
    assert [status for _, status in steps] == [0, 0, 0], steps
    assert (bin_dir / "ruleslawyer").exists()  # the install step put it in the runner's Python
    sarif = json.loads((repo / "ruleslawyer.sarif").read_text("utf-8"))
    states = {r.get("baselineState") for r in sarif["runs"][0]["results"]}
    assert states == {"unchanged"}  # the baseline matches today's findings, every one

    seed_contradiction(repo)
    steps = run_workflow(repo, bin_dir)
    # the install passes, the check fails the job, the log step (if: always()) still runs
    assert [status for _, status in steps] == [0, 1, 0], steps
    sarif = json.loads((repo / "ruleslawyer.sarif").read_text("utf-8"))
    new = [r["ruleId"] for r in sarif["runs"][0]["results"] if r["baselineState"] == "new"]
    assert new == ["kaelyfos/attack-removal"]


@pytest.mark.slow
def test_pre_commit_passes_as_shipped_and_blocks_a_contradiction_and_a_broken_board(
    git_repo: Path, installed: tuple[Path, Path]
) -> None:
    wheel, bin_dir = installed
    repo = user_repo(git_repo, wheel)
    # what the README says to do first: install the wheel where you commit
    setup = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "-q", str(repo / "wheels" / wheel.name)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert setup.returncode == 0, setup.stderr[-2000:]
    path = runner_path(bin_dir)
    passing = pre_commit("run", "--all-files", cwd=repo, path=path)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "ruleslawyer check" in passing.stdout and "Passed" in passing.stdout

    seed_contradiction(repo)
    failing = pre_commit("run", "--all-files", cwd=repo, path=path)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "FAIL [contradiction] kaelyfos/attack-removal" in failing.stdout
    git("checkout", "board.toml", cwd=repo)

    installed_hook = pre_commit("install", cwd=repo, path=path)
    assert installed_hook.returncode == 0, installed_hook.stdout + installed_hook.stderr
    board = repo / "board.toml"
    board.write_text(board.read_text("utf-8").split("\n[rulings]")[0] + CROSSING, "utf-8")
    git("add", "board.toml", cwd=repo)
    env = {**os.environ, "PRE_COMMIT_HOME": pre_commit_home(), "PATH": path}
    blocked = subprocess.run(
        ["git", "commit", "-m", "a second edge across the halves"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert blocked.returncode != 0, blocked.stdout + blocked.stderr
    assert "kaelyfos/data/halves" in blocked.stdout + blocked.stderr
    assert git("rev-list", "--count", "HEAD", cwd=repo) == "1"  # the commit did not happen


@pytest.mark.slow
def test_pre_commit_try_repo_uses_the_hook_defaults(git_repo: Path) -> None:
    (git_repo / "pyproject.toml").write_text('[project]\nname = "my-game"\n', "utf-8")
    shutil.copy(EXAMPLE.parent / "twisted-cryptids" / "six-player-end.toml", git_repo)
    git("add", "-A", cwd=git_repo)
    tried = pre_commit("try-repo", str(ROOT), "ruleslawyer-check", "--all-files", "--verbose",
                       cwd=git_repo)  # fmt: skip
    out = tried.stdout + tried.stderr
    # The README's command passes on the example: its baseline accepts the known gap;
    # pyproject.toml and the record of play are left out, the built-in games never checked.
    assert tried.returncode == 0, out
    assert "— board.toml" in out and "0 finding(s) at or above --fail-on" in out
    checked = out.split("ruleslawyer check")[-1]
    assert "ruleslawyer/data/" not in out and "six-player-end" not in checked
    assert "pyproject.toml" not in checked


# The published hook's entry passes every staged .toml; these are not game files, and
# blocked the commit (exit 2) before (fuzz round 4).
NOT_GAME_FILES = {
    "record.toml": (EXAMPLE.parent / "twisted-cryptids" / "six-player-end.toml").read_text(),
    "settings.toml": '[tool.scores]\ngame = "chess"\nplayers = 2\n',
    "sheet.toml": '[[character]]\nname = "Brannoc"\nclass = "ranger"\nlevel = 3\n',
    "graph.toml": '[[node]]\nid = "a"\n[[node]]\nid = "b"\n[[edge]]\nfrom = "a"\nto = "b"\n',
    "position.toml": (EXAMPLE.parent / "twist-of-fate" / "brownlow.toml").read_text(),
}


def test_only_game_files_leaves_out_records_and_other_toml(repo: Path) -> None:
    for name, text in NOT_GAME_FILES.items():
        (repo / name).write_text(text, "utf-8")
    done = CliRunner().invoke(cli, ["check", "--only-game-files", *NOT_GAME_FILES])
    assert done.exit_code == 0 and "nothing to check" in done.stderr, done.output
    # beside them the board is checked, and alone decides the exit
    board = CliRunner().invoke(cli, ["check", "--only-game-files", "board.toml", *NOT_GAME_FILES])
    assert board.exit_code == 1 and "— board.toml" in board.output and "record" not in board.output


def test_only_game_files_keeps_game_files_that_need_fixing(repo: Path) -> None:
    (repo / "typo.toml").write_text('game = "kaelyfo"\n', "utf-8")
    typo = CliRunner().invoke(cli, ["check", "--only-game-files", "typo.toml"])
    assert typo.exit_code == 2 and "did you mean 'kaelyfos'" in typo.stderr
    deck = '[[character]]\nname = "Nancy"\nsides = [{ luck = 9, shilling = 0 }]\n'
    (repo / "deck.toml").write_text(deck, "utf-8")  # shaped as a deck: checked, refused
    assert CliRunner().invoke(cli, ["check", "--only-game-files", "deck.toml"]).exit_code == 2


def test_only_game_files_keeps_exactly_the_shipped_game_files() -> None:
    from ruleslawyer.designer.checking import game_files
    from ruleslawyer.errors import InputError
    from ruleslawyer.gamefiles.source import load_source

    shipped = [*ROOT.glob("examples/**/*.toml"), *ROOT.glob("ruleslawyer/data/**/*.toml")]
    for path in sorted(shipped):
        try:
            load_source(str(path))
            loads = True
        except InputError:
            loads = False  # a position, log, record, coverage or timeline file
        assert bool(game_files([str(path)])) == loads, path


# --- the README's steps from an empty folder (issue 38 item 6) ----------------------------


FROM_NOTHING = "```sh tested-by=tests/test_designer_ci.py\n"  # the block's fence


def from_nothing() -> list[tuple[str, int]]:
    """The README's "A new repository, from nothing" block: each command (a heredoc with its
    lines) and the exit its comment gives (``# exit N``; 0 without one)."""
    text = (ROOT / "README.md").read_text("utf-8")
    section = text.split("### A new repository, from nothing", 1)[1]
    lines = section.split(FROM_NOTHING, 1)[1].split("```", 1)[0].splitlines()
    commands, i = [], 0
    while i < len(lines):
        command, i = lines[i], i + 1
        heredoc = re.search(r"<<'?(\w+)'?", command)
        while heredoc and i < len(lines):
            command, i = f"{command}\n{lines[i]}", i + 1
            if lines[i - 1] == heredoc.group(1):
                break
        said = re.search(r"#\s*exit (\d+)", command.splitlines()[0])
        commands.append((command, int(said.group(1)) if said else 0))
    return commands


def test_the_from_nothing_steps_are_read_as_commands() -> None:
    steps = from_nothing()
    assert steps[0][0].startswith("mkdir ") and steps[1] == ("git init", 0)
    assert [code for _, code in steps if code] == [1, 1]  # the check, the blocked commit
    said = "\n".join(command for command, _ in steps)
    for needed in ("git init", "pip install pre-commit", "pre-commit install", "git commit"):
        assert needed in said
    (heredoc,) = [c for c, _ in steps if "<<" in c]
    assert heredoc.endswith("\nEOF") and "id: ruleslawyer-check" in heredoc


def snapshot_repository(target: Path) -> Path:
    """This checkout as it is now (tracked and new files), committed in a repository of its
    own: what a designer's clone of ruleslawyer is, for the steps' ``$RULESLAWYER``."""
    for name in git("ls-files", "-co", "--exclude-standard").splitlines():
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    git("init", "-q", cwd=target)
    git("add", "-A", cwd=target)
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "snapshot",
        cwd=target)  # fmt: skip
    return target


@pytest.mark.slow
def test_the_readme_from_nothing_to_a_blocked_commit(tmp_path: Path) -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the steps clone ruleslawyer with pre-commit")
    ruleslawyer = snapshot_repository(tmp_path / "ruleslawyer")
    python = tmp_path / "python-only"  # `python` is a plain Python 3.11+, as on a new machine
    python.mkdir()
    (python / "python").symlink_to(sys._base_executable)
    steps = from_nothing()
    script = "".join(f'{command}\necho "@@ exit $?"\n' for command, _ in steps)
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")},
        "PATH": f"{python}{os.pathsep}{os.environ['PATH']}",
        "RULESLAWYER": str(ruleslawyer),
        "PRE_COMMIT_HOME": pre_commit_home(),
        **{f"GIT_{who}_{what}": value for who in ("AUTHOR", "COMMITTER")
           for what, value in (("NAME", "A Designer"), ("EMAIL", "designer@example.org"))},
    }  # fmt: skip
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-c", script],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,  # pip installs ruleslawyer twice (the shell's, the hook's); no compile
    )
    out = done.stdout + done.stderr
    exits = [int(code) for code in re.findall(r"^@@ exit (\d+)$", done.stdout, re.M)]
    assert exits == [code for _, code in steps], (exits, out[-4000:])
    board = work / "my-board"
    assert git("log", "--format=%s", cwd=board) == "The board, its rulebook and its baseline"
    assert "FAIL [data error] kaelyfos/data/halves" in out  # the hook's refusal, shown
    assert "ruleslawyer check" in out and "Passed" in out  # the first commit's hook run
    assert git("status", "--porcelain", cwd=board) == "M board.toml"  # the edit, uncommitted
