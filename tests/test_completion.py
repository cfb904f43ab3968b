"""Shell completion, run for real: the console script answers ``_RULESLAWYER_COMPLETE``
as each shell's script asks it, and a real bash sources the script and completes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from ruleslawyer.games import GAMES

HEAVY = ("z3", "numba", "dask", "llvmlite")


def complete(shell: str, words: list[str], **extra: str) -> list[str]:
    """What ``ruleslawyer`` answers to a completion request (bash: ``type,value`` lines)."""
    env = {
        **os.environ,
        "_RULESLAWYER_COMPLETE": f"{shell}_complete",
        "COMP_WORDS": "\n".join(words),
        "COMP_CWORD": str(len(words) - 1),
        **extra,
    }
    done = subprocess.run(
        [sys.executable, "-m", "ruleslawyer"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.splitlines()


def test_game_names_then_files() -> None:
    assert complete("bash", ["ruleslawyer", "check", "tw"]) == [
        "file,tw",  # first: bash lists files only when no game name matches
        "plain,twist-of-fate",
        "plain,twisted-cryptids",
    ]
    assert complete("bash", ["ruleslawyer", "report", "kaelyfos", "c"]) == [
        "file,c",
        "plain,cunning-folk",
    ]
    balance = complete("bash", ["ruleslawyer", "cunning-folk", "balance", ""])
    assert balance == ["file,", "plain,cunning-folk"]


def test_commands_and_game_groups() -> None:
    assert complete("bash", ["ruleslawyer", "twist"]) == [
        "plain,twist-of-fate",
        "plain,twisted-cryptids",
    ]
    assert "plain,advise" in complete("bash", ["ruleslawyer", "twist-of-fate", ""])


def test_rule_point_ids() -> None:
    assert complete("bash", ["ruleslawyer", "explain", "kaelyfos/attack"]) == [
        "plain,kaelyfos/attack-removal"
    ]
    every = complete("bash", ["ruleslawyer", "explain", ""])
    assert len(every) == sum(len(g.rule_points()) for g in GAMES.values())


def test_rulings_complete_ids_then_readings_of_the_games_in_play() -> None:
    assert complete("bash", ["ruleslawyer", "check", "--ruling", "kaelyfos/attack"]) == [
        "plain,kaelyfos/attack-removal=supply",
        "plain,kaelyfos/attack-removal=removed-from-play",
    ]
    # a game group, or game ids before the option, narrow the ids to that game
    in_group = complete("bash", ["ruleslawyer", "cunning-folk", "balance", "--ruling", ""])
    assert in_group and all(v.startswith("plain,cunning-folk/") for v in in_group)
    named = complete("bash", ["ruleslawyer", "check", "twist-of-fate", "--ruling", ""])
    assert named and all(v.startswith("plain,twist-of-fate/") for v in named)
    # zsh keeps ID=READING one word, and shows each reading's summary
    assert complete("zsh", ["ruleslawyer", "check", "--ruling", "twist-of-fate/carry-over=r"]) == [
        "plain",
        "twist-of-fate/carry-over=reset-each-round",
        "Every round begins, like the game, with both cards at 0.",
    ]


def test_bash_splits_at_equals_and_gets_the_reading_part_back() -> None:
    # bash hands `--ruling kaelyfos/attack-removal=su` over as three words (COMP_WORDBREAKS)
    words = ["ruleslawyer", "check", "--ruling", "kaelyfos/attack-removal", "=", "su"]
    assert complete("bash", words) == ["plain,supply"]  # what replaces bash's word "su"
    assert complete("bash", words[:-1]) == [  # the word is "=": it is replaced too
        "plain,=supply",
        "plain,=removed-from-play",
    ]


def test_fish_gets_help_text() -> None:
    words = ["ruleslawyer", "explain", "twisted-cryptids/sink"]
    out = complete("fish", words, COMP_CWORD="twisted-cryptids/sink")
    assert out == [
        "plain,twisted-cryptids/sinkhole-token\t"
        "The Sinkhole token is listed among the components but no rule uses it"
    ]


def test_completion_imports_no_heavy_library() -> None:
    code = (
        "import sys\n"
        "from ruleslawyer.cli.main import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}), file=sys.stderr)"
    )
    env = {
        **os.environ,
        "_RULESLAWYER_COMPLETE": "bash_complete",
        "COMP_WORDS": "ruleslawyer check kaelyfos --ruling kaelyfos/",
        "COMP_CWORD": "4",
    }
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert "plain,kaelyfos/attack-removal=supply" in done.stdout
    assert done.stderr.strip() == "[]"


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash on this machine")
def test_a_real_bash_sources_the_script_and_completes(tmp_path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "ruleslawyer"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m ruleslawyer "$@"\n', "utf-8")
    script.chmod(0o755)
    run = (
        'eval "$(_RULESLAWYER_COMPLETE=bash_source ruleslawyer)"\n'
        "COMP_WORDS=(ruleslawyer check --ruling kaelyfos/attack-removal = re)\n"
        "COMP_CWORD=5\n"
        "_ruleslawyer_completion ruleslawyer\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", run], env=env, capture_output=True, text=True
    )
    assert done.stdout.splitlines() == ["removed-from-play"], done.stderr
