"""SARIF that GitHub code scanning accepts: Microsoft's SARIF Multitool with the GitHub rules.

The Multitool (npm package ``@microsoft/sarif-multitool``) is installed once
into a cache folder (``$XDG_CACHE_HOME/ruleslawyer-tests``, else
``~/.cache/ruleslawyer-tests``) and run as ``validate --rule-kind "Sarif;Gh"``
on every built-in game's SARIF and on the designer example's. Any result at
level ``error`` fails the test (warnings such as "no informationUri" are
allowed: the tool has no home page that exists).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.findings import DEFAULT_FAIL_ON
from ruleslawyer.games import GAMES
from ruleslawyer.reports import renderer

VERSION = "5.7.0"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "designer-repo"


def _cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ruleslawyer-tests" / f"sarif-multitool-{VERSION}"


@pytest.fixture(scope="session")
def multitool() -> Path:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: the SARIF Multitool is an npm package")
    folder = _cache()
    folder.mkdir(parents=True, exist_ok=True)
    platform = {"linux": "linux", "darwin": "darwin", "win32": "win32"}[sys.platform]
    name = "Sarif.Multitool.exe" if platform == "win32" else "Sarif.Multitool"
    binary = folder / "node_modules" / "@microsoft" / f"sarif-multitool-{platform}" / name
    with open(folder / ".lock", "w") as lock:  # pytest-xdist workers install once between them
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not binary.exists():
            subprocess.run(
                [npm, "install", "--no-audit", "--no-fund", "--prefix", str(folder),
                 f"@microsoft/sarif-multitool@{VERSION}"],
                check=True,
                capture_output=True,
                timeout=600,
            )  # fmt: skip
        binary.chmod(0o755)  # npm may skip the package's own chmod (install scripts off)
    return binary


def validate(multitool: Path, sarif: Path) -> list[dict]:
    """The Multitool's findings on ``sarif`` (its own SARIF log, read back)."""
    out = sarif.with_suffix(".validation.sarif")
    done = subprocess.run(
        [str(multitool), "validate", "--rule-kind", "Sarif;Gh", "--log", "ForceOverwrite",
         "-o", str(out), str(sarif)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "DOTNET_CLI_TELEMETRY_OPTOUT": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(out.read_text("utf-8"))["runs"][0].get("results", [])


def errors(found: list[dict]) -> list[str]:
    return [
        f"{r['ruleId']}: {r['message'].get('arguments', r['message'].get('text'))}"
        for r in found
        if r.get("level", "warning") == "error"
    ]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_builtin_game_sarif_passes_the_github_rules(game, builtin_results, multitool, tmp_path):
    sarif = tmp_path / f"{game}.sarif"
    sarif.write_text(renderer("sarif")([builtin_results[game]], DEFAULT_FAIL_ON), "utf-8")
    found = validate(multitool, sarif)
    assert errors(found) == []


def test_the_multitool_catches_a_rule_without_help(builtin_results, multitool, tmp_path):
    # The check above could pass vacuously if the Multitool ignored the GitHub rules.
    doc = json.loads(renderer("sarif")([builtin_results["kaelyfos"]], DEFAULT_FAIL_ON))
    del doc["runs"][0]["tool"]["driver"]["rules"][0]["help"]
    sarif = tmp_path / "broken.sarif"
    sarif.write_text(json.dumps(doc), "utf-8")
    assert any(e.startswith("GH2012") for e in errors(validate(multitool, sarif)))


@pytest.mark.parametrize("own_rulebook", [True, False])
def test_designer_sarif_with_a_baseline_passes_the_github_rules(
    own_rulebook, multitool, tmp_path, monkeypatch
):
    repo = tmp_path / "designer-repo"
    shutil.copytree(EXAMPLE, repo)
    monkeypatch.chdir(repo)
    if not own_rulebook:  # then sentences point at the shipped rulebooks, through a base id
        board = repo / "board.toml"
        lines = board.read_text("utf-8").splitlines(keepends=True)
        text = "".join(x for x in lines if not x.startswith("rulebook ="))
        # the [coverage] table accounts for sentences of the designer's own rulebook: gone too
        text = re.sub(r"\n\[coverage\]\n(?:(?!\[).*\n?)*", "\n", text)
        board.write_text(text, "utf-8")
    # One baseline entry gone (so that finding is new), one extra (so it is absent now).
    baseline = json.loads((repo / "ruleslawyer-baseline.json").read_text("utf-8"))
    baseline["findings"][0]["fingerprint"] = "0" * 20
    (repo / "ruleslawyer-baseline.json").write_text(json.dumps(baseline), "utf-8")
    result = CliRunner().invoke(
        cli,
        ["check", "board.toml", "--baseline", "ruleslawyer-baseline.json", "--format", "sarif",
         "-o", "out.sarif"],
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.output
    doc = json.loads((repo / "out.sarif").read_text("utf-8"))
    states = {r["baselineState"] for r in doc["runs"][0]["results"]}
    assert states == {"new", "unchanged", "absent"}
    assert ("originalUriBaseIds" in doc["runs"][0]) is not own_rulebook
    assert errors(validate(multitool, repo / "out.sarif")) == []
