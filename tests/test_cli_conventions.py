"""What people expect of a command line: NO_COLOR, help that names file formats, words
instead of Python values, a documented exit code for unfinished searches, suggestions
for typos, what was written, and progress only on a terminal."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer import games
from ruleslawyer.cli import common
from ruleslawyer.cli.main import cli
from ruleslawyer.designer.explaining import explain
from ruleslawyer.findings import DEFAULT_FAIL_ON
from ruleslawyer.reports import renderer

ROOT = Path(__file__).resolve().parents[1]
TINY = str(ROOT / "examples/kaelyfos/tiny-board.toml")
REPR = re.compile(r"\b(None|True|False)\b")


def run(*args: str, **kwargs) -> object:
    return CliRunner().invoke(cli, list(args), **kwargs)


def test_no_color_is_honoured() -> None:
    coloured = run("check", TINY, "--fail-on", "none", color=True)
    assert "\x1b[" in coloured.output  # a terminal gets colour ...
    plain = run("check", TINY, "--fail-on", "none", color=True, env={"NO_COLOR": "1"})
    assert "\x1b[" not in plain.output  # ... NO_COLOR the same words without it
    assert plain.output == re.sub(r"\x1b\[[0-9;]*m", "", coloured.output)


COMMANDS_READING_FILES = (
    ["check"],
    ["report"],
    ["baseline"],
    ["diff"],
    ["explain"],
    ["coverage"],
    ["kaelyfos", "step"],
    ["cunning-folk", "deduce"],
    ["cunning-folk", "advise"],
    ["cunning-folk", "equilibrium"],
    ["twist-of-fate", "solve"],
    ["twisted-cryptids", "stacks"],
    ["twisted-cryptids", "advise"],
)


@pytest.mark.parametrize("command", COMMANDS_READING_FILES, ids=" ".join)
def test_help_names_the_file_format_and_an_example(command: list[str]) -> None:
    out = run(*command, "--help").output
    lines = [line.strip() for line in out.splitlines()]
    # Two lines: what the file holds (NAME: ... TOML or its keys), then where examples are.
    names = re.compile(r"^(FILE|LOG|LOG\.toml|POSITION\.toml|RECORD|OLD, NEW|ID): ")
    start = next(i for i, line in enumerate(lines) if names.match(line))
    block = " ".join(lines[start : start + 2])
    assert "examples/" in block, out
    for path in re.findall(r"examples/[\w./*-]+", block):
        assert list(ROOT.glob(path.rstrip(".").split(" ")[0])), path  # the examples exist


def test_game_typos_get_did_you_mean() -> None:
    check = run("check", "kaelyfs")
    assert check.exit_code == 2 and "did you mean 'kaelyfos'?" in check.stderr
    group = run("twistd-cryptids", "stacks")
    assert group.exit_code == 2 and "did you mean 'twisted-cryptids'?" in group.output
    far = run("check", "chess")
    assert far.exit_code == 2 and "did you mean" not in far.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["kaelyfos", "step", "x.toml", "--bogus"], "No such option '--bogus'"),
        (["--bogus"], "No such option '--bogus'"),
        (["kaelyfos", "step"], "Missing argument 'POSITION.toml'"),
        (["check", "--format", "xml", "kaelyfos"], "Invalid value for '--format'"),
        (["kaelyfos", "nosuch"], "No such command 'nosuch'"),
    ],
)
def test_usage_errors_are_one_line(args: list[str], says: str) -> None:
    done = run(*args)
    assert done.exit_code == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("error: ") and says in done.stderr
    assert "--help`)" in done.stderr and "Usage:" not in done.output


def test_explain_bad_id_points_to_list() -> None:
    for bad in ("chess", "kaelyfos/nonsense", "kaelyfos/atack-removal"):
        done = run("explain", bad)
        assert done.exit_code == 2
        assert "expected a rule point id (`ruleslawyer explain --list`)" in done.stderr
        assert done.stderr.count("\n") == 1
    assert (
        "did you mean 'kaelyfos/attack-removal'?" in run("explain", "kaelyfos/atack-removal").stderr
    )
    listed = run("explain", "--list")
    assert listed.exit_code == 0
    ids = [line.split()[0] for line in listed.output.splitlines()]
    assert ids == [p.id for info in games.GAMES.values() for p in info.rule_points()]


@pytest.mark.parametrize(
    ("path", "command"),
    [
        ("examples/kaelyfos/pheromone-tie.toml", "ruleslawyer kaelyfos step"),
        ("examples/cunning-folk/table-talk.toml", "ruleslawyer cunning-folk deduce"),
        ("examples/twist-of-fate/brownlow.toml", "ruleslawyer twist-of-fate solve"),
        ("examples/twisted-cryptids/six-player-end.toml", "ruleslawyer twisted-cryptids stacks"),
    ],
)
def test_check_on_an_input_file_names_its_command(path: str, command: str) -> None:
    done = run("check", str(ROOT / path))
    assert done.exit_code == 2 and done.stderr.count("\n") == 1
    assert f"read this one with `{command} {ROOT / path}`" in done.stderr


def test_every_written_file_is_named_on_stderr(tmp_path: Path) -> None:
    out = tmp_path / "sub" / "out.json"
    done = run("check", TINY, "--format", "json", "-o", str(out), "--fail-on", "none")
    assert done.exit_code == 0 and done.stdout == ""
    assert done.stderr == f"wrote {out}\n" and out.is_file()
    base = tmp_path / "base.json"
    done = run("baseline", TINY, "-o", str(base))
    assert done.stderr.startswith(f"wrote {base}: ") and base.is_file()
    record = tmp_path / "game.toml"
    done = run("twisted-cryptids", "simulate", "--players", "3", "--rounds", "1", "-o", str(record))
    assert done.exit_code == 0 and done.stderr == f"wrote {record}\n"


def test_unfinished_search_says_so_and_exits_3() -> None:
    done = run("check", "twisted-cryptids", "--fail-on", "none", "--max-seconds", "0.000001")
    assert done.exit_code == 3, done.output
    assert "search(es) not finished" in done.stdout
    assert "; not finished: incomplete, not a clean bill" in done.stdout


def fail_lines(text: str) -> list[str]:
    return [line.split()[2].rstrip(":") for line in text.splitlines() if line.startswith("FAIL ")]


@pytest.mark.parametrize("fmt", ["text", "sarif"])
def test_points_a_budget_cut_short_are_not_finished_never_fail(fmt: str) -> None:
    # Every gap and contradiction of Twist of Fate is found by search: with no time to
    # search, none is shown either way, so nothing fails and the check exits 3 (not 1).
    done = run("check", "twist-of-fate", "--max-seconds", "0.000001", "--format", fmt)
    assert done.exit_code == 3, done.output
    if fmt == "text":
        assert fail_lines(done.stdout) == [] and "not finished" in done.stdout
    else:
        results = json.loads(done.stdout)["runs"][0]["results"]
        assert {r["level"] for r in results} <= {"warning", "note"}
        incomplete = [r["properties"].get("incomplete", "") for r in results]
        assert any(words.startswith("not finished") for words in incomplete)


def test_a_budget_fails_only_what_was_found() -> None:
    # The Sinkhole token's gap needs no search; the searched points are not finished.
    done = run("check", "twisted-cryptids", "--max-seconds", "0.000001")
    assert done.exit_code == 1, done.output
    assert fail_lines(done.stdout) == ["twisted-cryptids/sinkhole-token"]
    assert "not finished" in done.stdout


BROKEN = {  # one structural error in each game's file: (built-in file, text, replaced by, place)
    "kaelyfos": ("kaelyfos.toml", 'between = ["scarab",', 'between = ["nowhere",', "edge["),
    "cunning-folk": ("cunning-folk.toml", "columns = 3", "columns = 4", "(grid)"),
    "twisted-cryptids": (
        "twisted-cryptids.toml",
        'symbols = ["hikers", "hunters"]',
        'symbols = ["hikers", "hikers"]',
        "(site[0].symbols)",
    ),
}


@pytest.mark.parametrize("game", sorted(BROKEN))
def test_points_skipped_for_a_data_error_say_so(tmp_path: Path, game: str) -> None:
    name, old, new, place = BROKEN[game]
    text = (ROOT / "ruleslawyer" / "data" / name).read_text("utf-8")
    assert old in text
    board = tmp_path / name
    board.write_text(text.replace(old, new, 1), "utf-8")
    done = run("check", str(board))
    assert done.exit_code == 1, done.output
    assert "budget" not in done.stdout and "not finished" not in done.stdout
    skipped = re.findall(r"; not searched: data error at (\S+) (\(.*\))", done.stdout)
    assert skipped and all(f.rsplit(":", 1)[0] == str(board) for f, _ in skipped)
    assert all(place in where for _, where in skipped)
    assert "point(s) not searched: the game file has data errors" in done.stdout


def test_progress_only_on_a_terminal(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stderr.isatty", lambda: False, raising=False)
    common.progress("checking x ...")
    assert capsys.readouterr().err == ""

    class Terminal:
        text = ""

        def isatty(self) -> bool:
            return True

        def write(self, s: str) -> int:
            Terminal.text += s
            return len(s)

        def flush(self) -> None:
            pass

    monkeypatch.setattr("sys.stderr", Terminal())
    common.progress("checking x ...")
    assert Terminal.text == "checking x ...\n"


def _without_quotes(text: str) -> str:
    return re.sub(r"“[^”]*”", "", text)  # rulebook sentences are quoted as written


def test_text_output_has_no_python_values(builtin_results) -> None:
    results = list(builtin_results.values())
    texts = [renderer("text")(results, DEFAULT_FAIL_ON)]
    for result in results:
        info = games.get(result.game)
        points = {p.id: p for p in info.rule_points()}
        texts += [explain(points[f.id], f, result) for f in result.findings if f.id in points]
    for args in (
        ["kaelyfos", "step", "examples/kaelyfos/pheromone-tie.toml"],
        ["kaelyfos", "step", "examples/kaelyfos/swarm.toml"],
        ["cunning-folk", "deduce", "examples/cunning-folk/table-talk.toml"],
        ["cunning-folk", "advise", "examples/cunning-folk/pending-claim.toml"],
        ["cunning-folk", "equilibrium", "examples/cunning-folk/bluff-or-not.toml", "--cell", "C3"],
        ["twist-of-fate", "solve", "examples/twist-of-fate/brownlow.toml"],
        ["twist-of-fate", "solve", "examples/twist-of-fate/brownlow.toml", "--max-states", "2"],
        ["twisted-cryptids", "stacks", "examples/twisted-cryptids/six-player-end.toml"],
    ):
        done = run(*args[:2], str(ROOT / args[2]), *args[3:])
        assert done.exit_code in (0, 3), done.output
        texts.append(done.stdout)
    for text in texts:
        assert not REPR.findall(_without_quotes(text)), REPR.findall(_without_quotes(text))


def test_the_page_libraries_load_only_for_an_html_report() -> None:
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from ruleslawyer.cli.main import cli\n"
        "for args in (['--help'], ['report', '--help'], ['explain', '--list']):\n"
        "    try:\n"
        "        cli(args, prog_name='ruleslawyer')\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(sorted(m for m in ('jinja2', 'markdown_it') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip().endswith("[]"), out.stdout[-200:]


PROCESS = re.compile(
    r"\bissue [0-9]+|\bthe issue\b|shared/seeds|\bintegrator\b|\bengineers?\b", re.IGNORECASE
)


def test_nothing_user_facing_mentions_the_project_process() -> None:
    # What a user reads: the READMEs, examples, committed reports, the package's own text
    # (help, messages) and the reasons tests give for skipping.
    files = [ROOT / "README.md", *ROOT.glob("benchmarks/*"), *ROOT.glob("examples/**/*")]
    files += [*ROOT.glob("reports/**/*"), *ROOT.glob("ruleslawyer/**/*.py")]
    files += [*ROOT.glob("ruleslawyer/data/*.toml"), *ROOT.glob("ruleslawyer/data/coverage/*.toml")]
    found = [
        f"{p.relative_to(ROOT)}: {m.group(0)}"
        for p in files
        if p.is_file() and p.suffix in {".md", ".py", ".toml", ".json", ".yaml", ".yml", ".svg"}
        for m in PROCESS.finditer(p.read_text("utf-8"))
    ]
    for p in ROOT.glob("tests/**/*.py"):
        for reason in re.findall(r"skip(?:if)?\((?:[^()]|\([^()]*\))*\)", p.read_text("utf-8")):
            found += [f"{p.relative_to(ROOT)}: {m.group(0)}" for m in PROCESS.finditer(reason)]
    assert found == []


def test_report_of_an_unfinished_search_exits_3(tmp_path: Path, monkeypatch) -> None:
    from dataclasses import replace

    from ruleslawyer.designer.checking import GameResult
    from ruleslawyer.findings import Kind, Reading, RulePoint, point_finding

    point = RulePoint("kaelyfos/x", "x", Kind.GAP, (), (Reading("a", "a"),), "a")
    cut = point_finding(point, rulings={}, parted=False, message="m", finished=False)
    result = GameResult("kaelyfos", "K", "k.toml", "assumed", {}, (cut,), "book.txt")
    monkeypatch.setattr("ruleslawyer.designer.checking.check_sources", lambda *a, **k: [result])
    from ruleslawyer.reports.files import Page

    page = Page({"k.md": "k\n"}, True)
    monkeypatch.setattr("ruleslawyer.reports.files.page_files", lambda *a: page)
    done = run("report", "kaelyfos", "--dir", str(tmp_path / "out"))
    assert done.exit_code == 3, done.output  # not finished: never 1, never 0
    assert (tmp_path / "out" / "k.md").read_text("utf-8") == "k\n"
    found = replace(cut, finished=True, kind=Kind.GAP)
    monkeypatch.setattr(
        "ruleslawyer.designer.checking.check_sources",
        lambda *a, **k: [replace(result, findings=(found,))],
    )
    assert run("report", "kaelyfos", "--dir", str(tmp_path / "out")).exit_code == 1


def test_help_lists_every_exit_code_the_readme_lists() -> None:
    text = " ".join(run("--help").output.split())
    readme = (ROOT / "README.md").read_text("utf-8").split("### Exit codes", 1)[1]
    codes = re.findall(r"^\| (\d+) \|", readme.split("\n\n", 2)[1], re.M)
    assert codes == ["0", "1", "2", "3", "130"]
    for code in codes:
        assert re.search(rf"\b{code} [a-z]", text), (code, text)
    assert "130 interrupted (Ctrl-C)" in text


def test_check_markdown_names_check_as_what_wrote_it() -> None:
    done = run("check", "twist-of-fate", "--format", "markdown", "--fail-on", "gap")
    assert done.exit_code in (0, 1), done.output
    assert "Generated by `ruleslawyer check twist-of-fate --format markdown --fail-on gap`" in (
        done.stdout
    )
    assert "ruleslawyer report" not in done.stdout
