"""Documentation tests: every console block of the READMEs, run and compared.

A fenced block whose info string starts with ``console`` is a test. Its lines that
start with ``$ `` are commands (a trailing ``\\`` continues one onto the next line);
the lines after a command, up to the next command, are what it prints (stdout and
stderr together). Conventions (tests/README.md, "Documentation tests"):

- ``[exit N]`` as the last line of a command's output: the command exits N; without
  it, the command must exit 0.
- a line ``...`` stands for any number of lines (none included) the README leaves out.
- timings (``seconds: 1.23``, ``0.4 s``, ``12 ms``, ``3 min``) and absolute paths are
  masked on both sides before comparing, so the README may show any value there.
- words after ``console`` in the info string: ``slow`` (a long block, over ~5 s on
  the shared machine, so that the fast blocks together stay under a minute: it runs
  under ``pytest -m slow``) and ``cwd=DIR`` (run from DIR of the copy,
  relative to its root; without it, from the root, or for an example's README from
  the example's folder).
- ``$ cd DIR`` changes the directory for the block's later commands.

Each block runs in its own temporary copy of the repository, with the ``ruleslawyer``
(and ``.venv/bin/python``) of the environment running the tests. In
``benchmarks/README.md`` only the commands are checked, not the figures: each runs
with ``--help`` appended and must exit 0 (the command and every option exist).

``python -m tests.docs --update [FILE ...]`` rewrites the shown outputs in place from
real runs, keeping ``...`` elisions and the README's text of masked values;
``python -m tests.docs`` alone lists the blocks and checks them, printing a unified
diff per drifted command.
"""

from __future__ import annotations

import argparse
import difflib
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ELLIPSIS = "..."
EXIT = re.compile(r"^\[exit (\d+)\]$")
# files whose console blocks are compared (README.md, every example's README, the tests')
OUTPUT_FILES = ("README.md", "tests/README.md")
OUTPUT_GLOBS = ("examples/**/README.md",)
# files whose console blocks are checked for their commands only (figures vary by run)
COMMAND_FILES = ("benchmarks/README.md",)
# A guard against a command that hangs, not a speed test: a fast block takes seconds once
# the Twist of Fate kernels are compiled (test_console_block has them compiled first), and
# a busy machine may stretch that many times over.
FAST_TIMEOUT = 600
SHOWN_ROOT = "/path/to/ruleslawyer"  # the copy's path as an updated README shows it
SLOW_TIMEOUT = 1800
COPY_IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", ".pytest_cache", ".ruff_cache", "*.egg-info", ".hypothesis"
)

MASKS: tuple[tuple[re.Pattern[str], str], ...] = (
    # a duration: "seconds: 1.23", "in 0.4 s", "12 ms", "3 min", "2.5 seconds"
    (re.compile(r"(?<=seconds: )\d+(?:\.\d+)?"), "<time>"),
    (
        re.compile(
            r"(?<![\w.])\d+(?:\.\d+)?(?:\s?(?:s|ms|µs|min|h)|\s(?:seconds?|minutes?))(?![\w/])"
        ),
        "<time>",
    ),
    # what a run's memory peaked at ("peak memory per worker: 0 204 MiB, 1 199 MiB")
    (re.compile(r"(?<=^peak memory per worker: ).*"), "<memory>"),
    # an absolute path (a temporary directory, the copy of the repository, a home)
    (re.compile(r"(?<![\w.:/~-])/(?:[\w.@+-]+/)*[\w.@+-]+/?"), "<path>"),
)


def elided(line: str) -> bool:
    """Whether the line is ``...`` (indented or not): any number of lines."""
    return line.strip() == ELLIPSIS


def mask(line: str) -> str:
    """The line with every timing and absolute path replaced by a placeholder."""
    for pattern, placeholder in MASKS:
        line = pattern.sub(placeholder, line)
    return line.rstrip()


@dataclass(frozen=True)
class Command:
    """One ``$`` command of a block and the lines shown after it."""

    line: int  # 1-based line of the ``$`` in the file
    text: str  # the command, continuation lines joined
    shown: tuple[str, ...]  # the shown output, without the [exit N] line
    exit_code: int
    first: int  # 0-based index in the file of the first output line
    end: int  # 0-based index one past the last output line ([exit N] included)


@dataclass(frozen=True)
class Block:
    """One ``console`` block of a documentation file."""

    path: str  # relative to the repository root
    line: int  # 1-based line of the opening fence
    commands: tuple[Command, ...]
    slow: bool
    cwd: str
    commands_only: bool
    indent: str = ""  # the fence's indent (a block in a list item), taken off every line

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Run:
    """What a command printed and how it exited."""

    output: tuple[str, ...]
    exit_code: int


def doc_files(root: Path = ROOT) -> list[str]:
    """Every documentation file whose console blocks are tests, relative to root."""
    names = {*OUTPUT_FILES, *COMMAND_FILES}
    for pattern in OUTPUT_GLOBS:
        names.update(p.relative_to(root).as_posix() for p in root.glob(pattern))
    return sorted(n for n in names if (root / n).is_file())


FENCE = re.compile(r"^( *)(`{3,})([^`]*)$")


def parse(text: str, path: str) -> list[Block]:
    """The console blocks of one Markdown text (fences of three backticks, indented
    in a list item or not)."""
    lines = text.split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        indent, ticks = fence.group(1), fence.group(2)
        closing = re.compile(rf"^ *{ticks}`*\s*$")  # as long as the opening one, or longer
        close = next((j for j in range(i + 1, len(lines)) if closing.match(lines[j])), None)
        if close is None:
            raise ValueError(f"{path}:{i + 1}: found an unclosed fence, expected a closing {ticks}")
        words = fence.group(3).split()
        if words and words[0] == "console":
            options = words[1:]
            unknown = [w for w in options if w != "slow" and not w.startswith("cwd=")]
            if unknown:
                raise ValueError(
                    f"{path}:{i + 1}: found {unknown[0]!r} after console, "
                    "expected 'slow' or 'cwd=DIR'"
                )
            here = Path(path).parent.as_posix() if path.startswith("examples/") else "."
            cwd = next((w[4:] for w in options if w.startswith("cwd=")), here)
            body = [line.removeprefix(indent) for line in lines[:close]]
            blocks.append(
                Block(
                    path=path,
                    line=i + 1,
                    commands=_commands(body, i + 1, close, path),
                    slow="slow" in options,
                    cwd=cwd,
                    commands_only=path in COMMAND_FILES,
                    indent=indent,
                )
            )
        i = close + 1
    return blocks


def _commands(lines: list[str], start: int, close: int, path: str) -> tuple[Command, ...]:
    if start >= close or not lines[start].startswith("$ "):
        raise ValueError(f"{path}:{start + 1}: found a console block not starting with '$ '")
    commands: list[Command] = []
    i = start
    while i < close:
        line_no = i + 1
        parts = [lines[i][2:]]
        while parts[-1].endswith("\\") and i + 1 < close:
            i += 1
            parts[-1] = parts[-1][:-1].rstrip()
            parts.append(lines[i].strip())
        i += 1
        first = i
        while i < close and not lines[i].startswith("$ "):
            i += 1
        shown = list(lines[first:i])
        exit_code = 0
        if shown and (m := EXIT.match(shown[-1])):
            exit_code = int(m.group(1))
            shown.pop()
        commands.append(Command(line_no, " ".join(parts), tuple(shown), exit_code, first, i))
    return tuple(commands)


def untested_commands(text: str, path: str) -> list[str]:
    """``FILE:LINE`` of every command shown outside a console block, where the harness
    would not run it: a ``$ `` line in any other block, or an ``sh`` line calling
    ``ruleslawyer``, unless the block names the test that runs it as written
    (```` ```sh tested-by=tests/FILE.py ````, a file that finds the block by that name)."""
    found: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        closing = re.compile(rf"^ *{fence.group(2)}`*\s*$")
        close = next((j for j in range(i + 1, len(lines)) if closing.match(lines[j])), len(lines))
        words = fence.group(3).split() or [""]
        if words[0] not in ("console", "markdown") and not tested_by(words):
            for j in range(i + 1, close):
                line = lines[j].strip()
                if line.startswith("$ ") or (words[0] == "sh" and line.startswith("ruleslawyer ")):
                    found.append(f"{path}:{j + 1}")
        i = close + 1
    return found


def tested_by(words: list[str]) -> str | None:
    """The test named by a fence's ``tested-by=tests/FILE.py``, when that file exists and
    names the fence too (it runs the block's commands itself), else None."""
    for word in words[1:]:
        if word.startswith("tested-by="):
            test = ROOT / word.split("=", 1)[1]
            if test.is_file() and word in test.read_text("utf-8"):
                return str(test)
    return None


def all_blocks(root: Path = ROOT) -> list[Block]:
    return [b for name in doc_files(root) for b in parse((root / name).read_text("utf-8"), name)]


# --- comparing -----------------------------------------------------------------------


def matches(shown: Sequence[str], actual: Sequence[str]) -> bool:
    """Whether the actual lines are the shown ones after masking, ``...`` matching any
    number of lines."""
    pattern = tuple(ELLIPSIS if elided(line) else mask(line) for line in shown)
    lines = tuple(mask(line) for line in actual)

    @functools.cache
    def at(p: int, a: int) -> bool:
        if p == len(pattern):
            return a == len(lines)
        if pattern[p] == ELLIPSIS:
            return any(at(p + 1, k) for k in range(a, len(lines) + 1))
        return a < len(lines) and pattern[p] == lines[a] and at(p + 1, a + 1)

    return at(0, 0)


def updated(shown: Sequence[str], actual: Sequence[str]) -> list[str]:
    """The shown lines brought up to the actual ones: a line equal after masking keeps
    the README's text, ``...`` keeps eliding what falls between its neighbours, a
    changed line is replaced, a new line added, a line gone dropped."""
    if matches(shown, actual):
        return list(shown)
    kept = [i for i, line in enumerate(shown) if not elided(line)]
    a = [mask(shown[i]) for i in kept]
    b = [mask(line) for line in actual]
    pairs: dict[int, tuple[int, bool]] = {}  # shown index -> (actual index, exact)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs.update({kept[i1 + k]: (j1 + k, True) for k in range(i2 - i1)})
        elif tag == "replace":  # pair similar lines in order: a changed figure, say
            j = j1
            for i in range(i1, i2):
                for k in range(j, j2):
                    if difflib.SequenceMatcher(None, a[i], b[k]).ratio() >= 0.6:
                        pairs[kept[i]] = (k, False)
                        j = k + 1
                        break
    out: list[str] = []
    next_actual = 0
    in_gap = False
    for i, line in enumerate(shown):
        if elided(line):
            out.append(line)
            in_gap = True
            continue
        if i not in pairs:
            continue  # gone from the output
        j, exact = pairs[i]
        if not in_gap:
            out.extend(actual[next_actual:j])
        out.append(line if exact else actual[j])
        next_actual, in_gap = j + 1, False
    if not in_gap:
        out.extend(actual[next_actual:])
    return out


def expected_lines(command: Command) -> list[str]:
    exit_line = [f"[exit {command.exit_code}]"] if command.exit_code else []
    return [*command.shown, *exit_line]


def new_lines(command: Command, run: Run) -> list[str]:
    exit_line = [f"[exit {run.exit_code}]"] if run.exit_code else []
    return [*updated(command.shown, run.output), *exit_line]


def drift(block: Block, command: Command, run: Run) -> str | None:
    """None when the run agrees with the README, else a message with a unified diff."""
    if block.commands_only:
        if run.exit_code == 0:
            return None
        return (
            f"{block.path}:{command.line}: `{command.text} --help` exited {run.exit_code}, "
            "expected 0:\n" + "\n".join(run.output)
        )
    if run.exit_code == command.exit_code and matches(command.shown, run.output):
        return None
    diff = difflib.unified_diff(
        expected_lines(command),
        new_lines(command, run),
        fromfile=f"{block.path}:{command.first + 1} (shown)",
        tofile=f"$ {command.text} (actual)",
        lineterm="",
    )
    return (
        f"{block.path}:{command.line}: the output of `{command.text}` has drifted "
        "(`python -m tests.docs --update` rewrites it):\n" + "\n".join(diff)
    )


def anchor(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading: lower case, punctuation but ``-`` and
    ``_`` dropped, each space a ``-``."""
    text = heading.lstrip("#").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


# --- running --------------------------------------------------------------------------


def copy_repository(root: Path, into: Path) -> Path:
    """A copy of the repository's files (no .git, no caches) whose ``.venv`` is the
    environment running the tests."""
    target = into / "repo"
    shutil.copytree(root, target, ignore=COPY_IGNORE, symlinks=True)
    (target / ".venv").symlink_to(Path(sys.prefix))
    return target


def environment() -> dict[str, str]:
    env = dict(os.environ)
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    env.update(NO_COLOR="1", PYTHONUNBUFFERED="1", COLUMNS="100", TERM="dumb")
    env.pop("FORCE_COLOR", None)
    return env


def run_block(block: Block, root: Path = ROOT) -> Iterator[tuple[Command, Run]]:
    """Each command of the block run in a fresh copy of the repository, in order."""
    with tempfile.TemporaryDirectory(prefix="ruleslawyer-docs-") as tmp:
        copy = copy_repository(root, Path(tmp))
        cwd = copy / block.cwd
        env = environment()
        for command in block.commands:
            if command.text.startswith("cd "):
                cwd = (cwd / command.text[3:].strip()).resolve()
                yield command, Run((), 0)
                continue
            text = f"{command.text} --help" if block.commands_only else command.text
            done = subprocess.run(
                ["bash", "-c", text],
                cwd=cwd,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=SLOW_TIMEOUT if block.slow else FAST_TIMEOUT,
            )
            output = done.stdout.replace(str(copy), SHOWN_ROOT)
            lines = output.split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            yield command, Run(tuple(lines), done.returncode)


def update_file(path: Path, name: str, include_slow: bool) -> int:
    """Rewrite the shown outputs of one file from real runs; the number of commands
    whose output changed."""
    text = path.read_text("utf-8")
    lines = text.split("\n")
    changes: list[tuple[Command, list[str]]] = []
    for block in parse(text, name):
        if block.commands_only or (block.slow and not include_slow):
            continue
        for command, run in run_block(block):
            new = [block.indent + line if line else line for line in new_lines(command, run)]
            if new != lines[command.first : command.end]:
                changes.append((command, new))
    for command, new in sorted(changes, key=lambda c: -c[0].first):
        lines[command.first : command.end] = new
    if changes:
        path.write_text("\n".join(lines), "utf-8")
    return len(changes)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.docs", description=__doc__)
    parser.add_argument("files", nargs="*", help="documentation files (default: all)")
    parser.add_argument("--update", action="store_true", help="rewrite drifted outputs")
    parser.add_argument("--slow", action="store_true", help="include blocks marked slow")
    args = parser.parse_args(argv)
    names = args.files or doc_files()
    if args.update:
        for name in names:
            changed = update_file(ROOT / name, name, args.slow)
            print(f"{name}: {changed} output(s) rewritten")
        return 0
    failed = 0
    for name in names:
        for block in parse((ROOT / name).read_text("utf-8"), name):
            if block.slow and not args.slow:
                print(f"{block.id}: slow, skipped (--slow runs it)")
                continue
            for command, run in run_block(block):
                message = drift(block, command, run)
                if message:
                    failed += 1
                    print(message)
    print(f"{failed} command(s) drifted")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
