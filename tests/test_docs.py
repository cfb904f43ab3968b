"""Documentation tests: every console block of the READMEs runs as shown (tests/docs.py).

The first tests check the harness itself on minimal inputs; ``test_console_block`` runs
every block of README.md, the examples' READMEs, tests/README.md and (commands only)
benchmarks/README.md, one test per block, named ``FILE:LINE``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import docs


def _block(text: str, path: str = "README.md") -> docs.Block:
    (block,) = docs.parse(text, path)
    return block


def test_parse_reads_commands_outputs_exit_codes_and_options() -> None:
    text = (
        "Intro\n\n```sh\nnot a test\n```\n\n"
        "```console slow cwd=examples\n$ echo a \\\n  b\na b\n$ false\n[exit 1]\n```\n"
    )
    block = _block(text)
    assert (block.line, block.slow, block.cwd) == (7, True, "examples")
    first, second = block.commands
    assert (first.line, first.text, first.shown, first.exit_code) == (8, "echo a b", ("a b",), 0)
    assert (second.text, second.shown, second.exit_code) == ("false", (), 1)


def test_parse_takes_the_indent_of_a_block_in_a_list_item_off() -> None:
    block = _block("1. Step:\n\n   ```console\n   $ echo x\n   x\n   ```\n")
    assert block.indent == "   "
    assert block.commands[0].shown == ("x",)


def test_parse_skips_a_console_block_quoted_inside_a_longer_fence() -> None:
    text = "````markdown\n```console\n$ false\n```\n````\n\n```console\n$ true\n```\n"
    (block,) = docs.parse(text, "README.md")
    assert (block.line, block.commands[0].text) == (7, "true")


def test_parse_refuses_a_console_block_without_a_command() -> None:
    with pytest.raises(ValueError, match=r"README.md:2: found a console block not starting"):
        docs.parse("```console\nno dollar\n```\n", "README.md")
    with pytest.raises(ValueError, match=r"found 'fast' after console"):
        docs.parse("```console fast\n$ true\n```\n", "README.md")


def test_benchmarks_readme_blocks_check_commands_only() -> None:
    assert _block("```console\n$ true\n```\n", "benchmarks/README.md").commands_only
    assert not _block("```console\n$ true\n```\n", "README.md").commands_only


def test_masks_timings_and_absolute_paths_only() -> None:
    assert docs.mask("seconds: 4.87") == docs.mask("seconds: 0.5")
    assert docs.mask("solved in 0.4 s (12 ms a tier), 3 min") == (
        "solved in <time> (<time> a tier), <time>"
    )
    assert docs.mask("wrote /tmp/x-1/reports/a.html") == "wrote <path>"
    # figures, fractions and relative paths are compared as they are
    for line in ("1/12 = 0.0833", "examples/kaelyfos/advise.toml", "seed 7 s1", "2 seats"):
        assert docs.mask(line) == line


def test_ellipsis_matches_any_number_of_lines() -> None:
    assert docs.matches(["a", "...", "z"], ["a", "z"])
    assert docs.matches(["a", "...", "z"], ["a", "b", "c", "z"])
    assert docs.matches(["...", "z"], ["x", "z"])
    assert not docs.matches(["a", "...", "z"], ["a", "b"])
    assert not docs.matches(["a"], ["a", "b"])
    assert docs.matches(["took 1.5 s"], ["took 0.2 s"])


def test_update_keeps_elisions_and_masked_text_and_replaces_what_changed() -> None:
    shown = ["head took 1.5 s", "...", "3 finding(s) at or above", "end"]
    actual = ["head took 0.2 s", "x", "y", "4 finding(s) at or above", "end", "new line"]
    assert docs.updated(shown, actual) == [
        "head took 1.5 s",
        "...",
        "4 finding(s) at or above",
        "end",
        "new line",
    ]
    assert docs.updated(["a", "gone", "b"], ["a", "b"]) == ["a", "b"]
    assert docs.updated(["...", "total 3"], ["x", "total 4"]) == ["...", "total 4"]


def test_drift_shows_file_line_and_a_unified_diff() -> None:
    block = _block("text\n```console\n$ echo hi\nhello\n```\n")
    message = docs.drift(block, block.commands[0], docs.Run(("hi",), 1))
    assert message is not None
    assert message.startswith("README.md:3: the output of `echo hi` has drifted")
    assert "--- README.md:4 (shown)" in message
    assert "-hello\n+hi\n+[exit 1]" in message
    assert docs.drift(block, block.commands[0], docs.Run(("hello",), 0)) is None


def test_update_rewrites_outputs_in_place(tmp_path: Path, monkeypatch) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(
        "1. Step\n\n   ```console\n   $ printf 'a\\n\\nb\\n'; exit 2\n   old\n   ```\n"
        "```console\n$ echo same\nsame\n```\n"
    )
    monkeypatch.setattr(docs, "ROOT", tmp_path)
    assert docs.update_file(readme, "README.md", include_slow=False) == 1
    assert readme.read_text() == (
        "1. Step\n\n   ```console\n   $ printf 'a\\n\\nb\\n'; exit 2\n   a\n\n   b\n"
        "   [exit 2]\n   ```\n```console\n$ echo same\nsame\n```\n"
    )
    assert docs.update_file(readme, "README.md", include_slow=False) == 0


def test_a_command_runs_in_a_copy_with_the_venv(tmp_path: Path) -> None:
    (tmp_path / "data.txt").write_text("kept\n")
    block = _block("```console cwd=sub\n$ cat ../data.txt; echo new > ../data.txt; pwd\n```\n")
    (tmp_path / "sub").mkdir()
    ((_, run),) = list(docs.run_block(block, tmp_path))
    assert run.output == ("kept", f"{docs.SHOWN_ROOT}/sub") and run.exit_code == 0
    assert (tmp_path / "data.txt").read_text() == "kept\n"  # the copy was written, not this


def test_untested_commands_are_found() -> None:
    text = "```text\n$ ruleslawyer check\n```\n```sh\nruleslawyer x\npip y\n```\n"
    assert docs.untested_commands(text, "R.md") == ["R.md:2", "R.md:5"]
    assert docs.untested_commands("```console\n$ true\n```\n", "R.md") == []
    # an sh block a test runs as written names it; a name no test answers to is not enough
    run = "```sh tested-by=tests/test_designer_ci.py\nruleslawyer x\n```\n"
    assert docs.untested_commands(run, "R.md") == []
    for fence in ("sh tested-by=tests/nothing.py", "sh tested-by=tests/test_cli.py"):
        assert docs.untested_commands(f"```{fence}\nruleslawyer x\n```\n", "R.md") == ["R.md:2"]


def test_every_command_shown_is_in_a_console_block() -> None:
    # a command in a text or sh block would escape the documentation tests
    found = [
        where
        for name in docs.doc_files()
        for where in docs.untested_commands((docs.ROOT / name).read_text("utf-8"), name)
    ]
    assert found == []


def test_every_documentation_file_is_found() -> None:
    files = docs.doc_files()
    assert {"README.md", "tests/README.md", "benchmarks/README.md"} <= set(files)
    assert "examples/designer-repo/README.md" in files


BLOCKS = docs.all_blocks()


@pytest.mark.parametrize(
    "block",
    [pytest.param(b, id=b.id, marks=[pytest.mark.slow] if b.slow else []) for b in BLOCKS],
)
def test_console_block(block: docs.Block, compiled_kernels: None) -> None:
    # the Twist of Fate kernels compiled before the first block's clock (docs.FAST_TIMEOUT)
    failures = [
        message
        for command, run in docs.run_block(block)
        if (message := docs.drift(block, command, run))
    ]
    assert not failures, "\n\n".join(failures)


def test_every_link_to_a_benchmark_names_a_section_of_benchmarks_readme() -> None:
    import re

    headings = {
        docs.anchor(line)
        for line in (docs.ROOT / "benchmarks" / "README.md").read_text("utf-8").splitlines()
        if line.startswith("#")
    }
    readme = (docs.ROOT / "README.md").read_text("utf-8")
    links = re.findall(r"\]\(benchmarks/README\.md#([^)]+)\)", readme)
    assert links and sorted(set(links) - headings) == []
