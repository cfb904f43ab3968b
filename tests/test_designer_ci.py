"""The example designer repository's CI, as shipped: the GitHub workflow and the pre-commit hook.

The fast tests read the workflow and the hook definitions and run their
commands through the CLI. The slow ones run real ``pre-commit`` in a
temporary git repository holding a copy of the example, with the hook
installed from this checkout (its committed HEAD): pre-commit builds the
hook's environment with pip, which takes from 20 s to 2 minutes here on a
cold cache (environments are kept in ``$XDG_CACHE_HOME/ruleslawyer-tests``).
"""

from __future__ import annotations

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


def test_workflow_installs_ruleslawyer_from_the_commit_the_hook_pins() -> None:
    env = workflow()["env"]
    steps = workflow()["jobs"]["ruleslawyer"]["steps"]
    installs = [s["run"] for s in steps if "pip install" in s.get("run", "")]
    assert installs == [
        'python -m pip install "ruleslawyer @ git+${RULESLAWYER_REPO}@${RULESLAWYER_REV}"'
    ]
    assert re.fullmatch(r"[0-9a-f]{40}", env["RULESLAWYER_REV"])
    assert (env["RULESLAWYER_REPO"], env["RULESLAWYER_REV"]) == (
        hook_config()["repo"],
        hook_config()["rev"],
    )


def test_the_pinned_commit_is_in_this_repository_and_has_what_the_example_uses() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: cannot look up the pinned commit")
    rev = hook_config()["rev"]
    done = subprocess.run(["git", "cat-file", "-e", f"{rev}^{{commit}}"], cwd=ROOT)
    assert done.returncode == 0, f"{rev} is not a commit of this repository: pin one that is"
    hooks = yaml.safe_load(git("show", f"{rev}:.pre-commit-hooks.yaml"))
    assert [h["id"] for h in hooks] == ["ruleslawyer-check"]
    assert "--only-game-files" in hooks[0]["entry"]
    gamefiles = git("show", f"{rev}:ruleslawyer/gamefiles.py")
    assert "DESIGNER_KEYS" in gamefiles  # rulebook = ...
    assert '"coverage")' in gamefiles  # the board's [coverage] table


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
    assert result.exit_code == 1  # the board's two known gaps, without the baseline
    assert "— board.toml" in result.output and "ruleslawyer/data/" not in result.output
    # A commit with no game file in it checks nothing (not every built-in game).
    only_other = CliRunner().invoke(cli, hook_command(published_hook(), ["pyproject.toml"])[1:])
    assert only_other.exit_code == 0 and "nothing to check" in only_other.stderr
    assert hook_command(published_hook(), ["rules/kaelyfos.md"]) == []  # not run at all


def test_example_hook_rechecks_the_board_when_its_rulebook_changes(repo: Path) -> None:
    hook = {**published_hook(), **hook_config()["hooks"][0]}
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


def pre_commit(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": pre_commit_home()}
    env.pop("VIRTUAL_ENV", None)
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


@pytest.mark.slow
def test_pre_commit_passes_then_blocks_a_commit_of_a_broken_board(git_repo: Path) -> None:
    config = git_repo / ".pre-commit-config.yaml"
    text = config.read_text("utf-8")
    text = text.replace(hook_config()["repo"], str(ROOT)).replace(
        hook_config()["rev"], git("rev-parse", "HEAD")
    )
    config.write_text(text, "utf-8")
    git("add", "-A", cwd=git_repo)
    passing = pre_commit("run", "--all-files", cwd=git_repo)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "ruleslawyer check" in passing.stdout and "Passed" in passing.stdout
    git("commit", "-q", "-m", "the board", cwd=git_repo)

    installed = pre_commit("install", cwd=git_repo)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    board = git_repo / "board.toml"
    board.write_text(board.read_text("utf-8").split("\n[rulings]")[0] + CROSSING, "utf-8")
    git("add", "board.toml", cwd=git_repo)
    env = {**os.environ, "PRE_COMMIT_HOME": pre_commit_home()}
    blocked = subprocess.run(
        ["git", "commit", "-m", "a second edge across the halves"],
        cwd=git_repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert blocked.returncode != 0, blocked.stdout + blocked.stderr
    assert "kaelyfos/data/halves" in blocked.stdout + blocked.stderr
    assert git("rev-list", "--count", "HEAD", cwd=git_repo) == "1"  # the commit did not happen


@pytest.mark.slow
def test_pre_commit_try_repo_uses_the_hook_defaults(git_repo: Path) -> None:
    (git_repo / "pyproject.toml").write_text('[project]\nname = "my-game"\n', "utf-8")
    git("add", "-A", cwd=git_repo)
    tried = pre_commit("try-repo", str(ROOT), "ruleslawyer-check", "--all-files", cwd=git_repo)
    out = tried.stdout + tried.stderr
    # Without the baseline the board's known contradiction and gap fail; pyproject.toml is left out.
    assert tried.returncode == 1, out
    assert "— board.toml" in out and "FAIL [gap] kaelyfos/move-order" in out
    assert (
        "ruleslawyer/data/" not in out
        and "pyproject.toml" not in out.split("ruleslawyer check")[-1]
    )
