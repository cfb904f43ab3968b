"""Issue 28: inputs stay inputs, and a game file's rulebook stays inside its repository.

No command writes over a file it read (the game file, the rulebook it names, a
baseline), through ``-o`` or as one of the files ``report --dir`` writes. A
``rulebook = "..."`` must name a regular UTF-8 text file, without NUL bytes, of at
most 2 MiB, inside the game file's folder or its git root, outside ``.git/`` and
with no line that looks like a credential (every line of a rulebook may be quoted into
text, JSON and SARIF). Each refusal: one line, exit 2, and the file left as it was.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.rulebook.books import MAX_RULEBOOK_BYTES

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "designer-repo"


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    target = tmp_path / "designer-repo"
    shutil.copytree(EXAMPLE, target)
    (target / ".git").mkdir()  # the git root: the repository's top
    monkeypatch.chdir(target)
    return target


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def one_line(result, *names: str) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: "), result.stderr
    assert all(name in result.stderr for name in names), result.stderr
    return result.stderr


def name_rulebook(repo: Path, value: str) -> None:
    board = repo / "board.toml"
    text = board.read_text("utf-8")
    board.write_text(text.replace('"rules/kaelyfos.md"', f'"{value}"', 1), "utf-8")


# --- the rulebook the game file names is an input -----------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("check", "board.toml", "-o", "rules/kaelyfos.md"),
        ("baseline", "board.toml", "-o", "rules/kaelyfos.md"),
        ("diff", "board.toml", "board.toml", "-o", "rules/kaelyfos.md"),
    ],
)
def test_no_output_overwrites_the_rulebook_the_game_file_names(repo: Path, args) -> None:
    rulebook = repo / "rules" / "kaelyfos.md"
    before = rulebook.read_bytes()
    one_line(run(*args), "kaelyfos.md", "an input of this command")
    assert rulebook.read_bytes() == before


def test_report_does_not_write_over_the_rulebook(repo: Path) -> None:
    # report board.toml --dir rules writes rules/board.md: a rulebook by that name is kept
    shutil.move(repo / "rules" / "kaelyfos.md", repo / "rules" / "board.md")
    name_rulebook(repo, "rules/board.md")
    before = (repo / "rules" / "board.md").read_bytes()
    one_line(run("report", "board.toml", "--dir", "rules"), "board.md", "an input of this command")
    assert (repo / "rules" / "board.md").read_bytes() == before


def test_report_does_not_replace_a_folder_holding_an_input(repo: Path) -> None:
    # the report's pictures go to <dir>/board/, replaced whole: a rulebook inside went too
    (repo / "out" / "board").mkdir(parents=True)
    shutil.move(repo / "rules" / "kaelyfos.md", repo / "out" / "board" / "rules.md")
    name_rulebook(repo, "out/board/rules.md")
    line = one_line(run("report", "board.toml", "--dir", "out"), "out/board", "rules.md")
    assert "a folder the output may replace" in line
    assert (repo / "out" / "board" / "rules.md").is_file()


def test_report_beside_the_rulebook_still_writes(repo: Path) -> None:
    result = run("report", "board.toml", "--dir", "reports")
    assert result.exit_code in (0, 1), result.output
    assert (repo / "reports" / "board.md").is_file()


def test_report_into_the_rulebooks_folder_writes_beside_it(repo: Path) -> None:
    # The README said this was refused; it is not, and need not be: no input is replaced.
    before = (repo / "rules" / "kaelyfos.md").read_bytes()
    result = run("report", "board.toml", "--dir", "rules", "--max-seconds", "1")
    assert result.exit_code in (1, 3), result.output
    assert (repo / "rules" / "board.md").is_file()
    assert (repo / "rules" / "kaelyfos.md").read_bytes() == before


# --- where and what a rulebook may be ----------------------------------------------------------

EXPECTED = "expected a Markdown or plain-text rulebook"


@pytest.mark.parametrize("value", ["/etc/passwd", "../outside.md"])
def test_a_rulebook_outside_the_repository_is_refused(repo: Path, value: str) -> None:
    (repo.parent / "outside.md").write_text("Secret.\n", "utf-8")
    name_rulebook(repo, value)
    line = one_line(
        run("check", "board.toml"), f"board.toml: rulebook: found '{value}', {EXPECTED}"
    )
    assert "inside the game file's folder or its git root" in line
    assert "Secret" not in line


def test_a_symlink_pointing_outside_is_refused(repo: Path) -> None:
    (repo.parent / "outside.md").write_text("Secret.\n", "utf-8")
    (repo / "rules" / "link.md").symlink_to(repo.parent / "outside.md")
    name_rulebook(repo, "rules/link.md")
    one_line(run("check", "board.toml"), "found 'rules/link.md'", "git root")


def test_a_rulebook_above_the_game_file_inside_its_git_root_is_read(repo: Path) -> None:
    (repo / "games").mkdir()
    board = repo / "games" / "board.toml"
    shutil.move(repo / "board.toml", board)
    board.write_text(board.read_text("utf-8").replace('"rules/', '"../rules/', 1), "utf-8")
    assert run("check", "games/board.toml").exit_code in (0, 1)


def test_without_a_git_root_only_the_game_files_folder_is_allowed(repo: Path) -> None:
    (repo / ".git").rmdir()
    (repo / "games").mkdir()
    board = repo / "games" / "board.toml"
    shutil.move(repo / "board.toml", board)
    board.write_text(board.read_text("utf-8").replace('"rules/', '"../rules/', 1), "utf-8")
    if any((p / ".git").exists() for p in repo.parents):
        pytest.skip("the temporary folder is inside a git repository")
    one_line(run("check", "games/board.toml"), "found '../rules/kaelyfos.md'", "git root")


@pytest.mark.parametrize(
    ("make", "found"),
    [
        (lambda p: p.write_bytes(b"# Rules\n\nA\x00B.\n"), "a NUL byte on line 3"),
        (lambda p: p.write_bytes(b"\xff\xfe#\x00 \x00R\x00"), "bytes that are not UTF-8"),
        (lambda p: p.mkdir(), "a directory"),
        (lambda p: os.mkfifo(p), "a FIFO, not a regular file"),
        (
            lambda p: p.write_bytes(b"x" * (MAX_RULEBOOK_BYTES + 1)),
            "2097153 bytes, more than 2097152",
        ),
        (lambda p: p.symlink_to(p), "Too many levels of symbolic links"),
    ],
    ids=["nul", "utf-16", "directory", "fifo", "over-2-MiB", "symlink-loop"],
)
def test_a_rulebook_that_is_not_text_is_one_line(repo: Path, make, found: str) -> None:
    make(repo / "rules" / "bad.md")
    name_rulebook(repo, "rules/bad.md")
    outcome: list = []
    worker = threading.Thread(
        target=lambda: outcome.append(run("check", "board.toml")), daemon=True
    )
    worker.start()
    worker.join(30)  # a FIFO used to block the read for ever
    assert outcome, "check blocked on the rulebook"
    one_line(outcome[0], f"board.toml: rulebook: found 'rules/bad.md', {EXPECTED} ({found}")


def test_a_device_is_refused_without_being_read(repo: Path) -> None:
    # /dev/zero used to be read for ever; inside the repository a link to it is refused too
    (repo / "rules" / "zero.md").symlink_to("/dev/zero")
    name_rulebook(repo, "rules/zero.md")
    began = time.monotonic()
    one_line(run("check", "board.toml"), "found 'rules/zero.md'")
    assert time.monotonic() - began < 30


def test_a_rulebook_of_exactly_the_cap_is_read(repo: Path) -> None:
    rulebook = repo / "rules" / "kaelyfos.md"
    text = rulebook.read_text("utf-8")
    padding = MAX_RULEBOOK_BYTES - len(text.encode("utf-8"))
    rulebook.write_text(text + "\n" * padding, "utf-8")
    assert rulebook.stat().st_size == MAX_RULEBOOK_BYTES
    assert run("check", "board.toml").exit_code in (0, 1)


def test_no_output_overwrites_the_deck_a_position_names(tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parents[1] / "examples" / "twist-of-fate"
    for name in ("across-rounds.toml", "two-card-deck.toml"):
        shutil.copy(examples / name, tmp_path / name)
    deck = tmp_path / "two-card-deck.toml"
    before = deck.read_bytes()
    result = run("twist-of-fate", "solve", str(tmp_path / "across-rounds.toml"), "-o", str(deck))
    one_line(result, "two-card-deck.toml", "an input of this command")
    assert deck.read_bytes() == before


def test_no_output_overwrites_a_baseline_it_read(repo: Path) -> None:
    before = (repo / "ruleslawyer-baseline.json").read_bytes()
    args = ("check", "board.toml", "--baseline", "ruleslawyer-baseline.json")
    one_line(run(*args, "-o", "ruleslawyer-baseline.json"), "an input of this command")
    assert (repo / "ruleslawyer-baseline.json").read_bytes() == before


# --- issue 38: no rulebook quotes a secret --------------------------------------------------------

TOKEN = "ghs_" + "Q" * 36  # what actions/checkout leaves in .git/config, base64-encoded there
CONFIG = (
    '[core]\n\tbare = false\n[http "https://github.com/"]\n'
    "\textraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX1FRUVFRUVFRUVFRUQ==\n"
)
RULE = "a text file outside .git/ (one the repository tracks, or a plain file)"


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_git_s_own_files_are_no_rulebook(repo: Path, fmt: str) -> None:
    """Found by issue 38: ``rulebook = ".git/config"`` quoted every line of it, the CI token
    ``actions/checkout`` persists there included, into text, JSON and SARIF."""
    (repo / ".git" / "config").write_text(CONFIG, "utf-8")
    name_rulebook(repo, ".git/config")
    result = run("check", "board.toml", "--format", fmt)
    line = one_line(result, "board.toml: rulebook: found '.git/config'", RULE)
    assert "inside .git/: git's own files, not a rulebook" in line
    assert "AUTHORIZATION" not in result.output and result.stdout == ""


def test_a_link_into_git_s_files_is_no_rulebook(repo: Path) -> None:
    (repo / ".git" / "config").write_text(CONFIG, "utf-8")
    (repo / "rules" / "config.md").symlink_to(repo / ".git" / "config")
    name_rulebook(repo, "rules/config.md")
    one_line(run("check", "board.toml"), "found 'rules/config.md'", "inside .git/")


@pytest.mark.parametrize(
    ("line", "what"),
    [
        (
            "\textraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46",
            "an HTTP authorization header",
        ),
        (f"url = https://x-access-token:{TOKEN}@github.com/o/r", "a URL with a password"),
        (f"The token is {TOKEN}.", "a GitHub token"),
        ("-----BEGIN OPENSSH PRIVATE KEY-----", "a private key"),
        ("password = hunter2hunter2", "a password or key assigned"),
    ],
    ids=["header", "url", "github", "key", "password"],
)
def test_a_rulebook_with_a_line_like_a_credential_is_refused_unquoted(
    repo: Path, line: str, what: str
) -> None:
    rulebook = repo / "rules" / "kaelyfos.md"
    text = rulebook.read_text("utf-8")
    rulebook.write_text(text + "\n" + line + "\n", "utf-8")
    number = text.count("\n") + 2
    for result in (run("check", "board.toml"), run("coverage", "board.toml")):
        said = one_line(result, "board.toml: rulebook: found 'rules/kaelyfos.md'", RULE)
        assert f"(line {number} looks like {what}; it is not shown)" in said
        assert line.strip()[-12:] not in result.output
    shipped = "../../ruleslawyer/data/rulebooks/unsettled-kaelyfos-rulebook.txt"
    diffed = run("diff", str(EXAMPLE / shipped), "rules/kaelyfos.md")
    one_line(diffed, "rules/kaelyfos.md: found 'rules/kaelyfos.md'", f"looks like {what}")


def test_the_shipped_rulebooks_look_like_no_credential() -> None:
    from ruleslawyer.rulebook.books import credential_line

    books = EXAMPLE.parents[1] / "ruleslawyer" / "data" / "rulebooks"
    for path in [*books.glob("*.txt"), EXAMPLE / "rules" / "kaelyfos.md"]:
        assert credential_line(path.read_text("utf-8")) is None, path
