"""The surfaces of issue 38's fuzz round (item 5): input kinds and strategies for them.

- Cunning Folk ``equilibrium`` on a claim still pending, with three and four players;
- ``coverage`` and ``check`` on a designer's own rulebook, its Markdown text mutated;
- Twist of Fate ``solve --every-move``; Twisted Cryptids ``advise --later-turns``;
- ``kaelyfos balance`` where one draw branches thousands of ways (its budget);
- odd encodings of the input files (UTF-16, a byte-order mark, Latin-1, cp1252, CR line
  ends, NUL and stray bytes) and of stdout (an encoding the answer's characters are not in,
  a full disk, a reader gone).

The kinds follow :mod:`tests.fuzz.harness`'s contract; ``[0]`` of each kind's commands is
the cheapest (the fast suite's).
"""

from __future__ import annotations

from hypothesis import strategies as st

from tests.fuzz.harness import InputKind, example
from tests.fuzz.strategies import HOSTILE_STRINGS, text_mutated

JSON = ("--format", "json")
BUDGET = ("--max-seconds", "2")

PENDING_CLAIM = "examples/cunning-folk/pending-claim.toml"
PLAYERS_3 = '["me", "bea", "cal"]'
# The shipped board naming its rulebook beside it (the case's files sit in one folder).
BOOK_BOARD = example(
    "examples/designer-repo/board.toml", ('rulebook = "rules/kaelyfos.md"', 'rulebook = "book.md"')
)
# The tiny board with 30 black markers and a card spawning 20 on nest A with no move: with
# four explorers on a nest, one draw splits 20 distress four ways (1,771 splits).
CROWDED = example(
    "examples/kaelyfos/tiny-board.toml",
    ("supply = 4", "supply = 30"),
    ('spawn = ["C", "B", "A"]\nmove = 1', "spawn = [" + ", ".join(['"A"'] * 20) + "]\nmove = 0"),
)
EVERY_MOVE = ("--model", "paranoid", "--every-move")
SAMPLED = ("--samples", "3", "--exact-limit", "3", "--format", "json")
CREW = tuple(f"--explorer={name}=bony-protrusion" for name in ("ada", "ben", "cy", "di"))

SURFACE_KINDS = {
    k.name: k
    for k in (
        InputKind(
            "cunning-folk-equilibrium-3p",
            example(PENDING_CLAIM),
            "log.toml",
            (
                ("cunning-folk", "equilibrium", "{file}", *BUDGET),
                ("cunning-folk", "equilibrium", "{file}", *JSON, *BUDGET),
                ("cunning-folk", "equilibrium", "{file}", "--swap-odds", "3:1", *JSON, *BUDGET),
            ),
        ),
        InputKind(
            "cunning-folk-equilibrium-4p",
            example(PENDING_CLAIM, (PLAYERS_3, '["me", "bea", "cal", "dee"]')),
            "log.toml",
            (
                ("cunning-folk", "equilibrium", "{file}", *BUDGET),
                ("cunning-folk", "equilibrium", "{file}", *JSON, *BUDGET),
            ),
        ),
        InputKind(
            "designer-rulebook-text",
            example("examples/designer-repo/rules/kaelyfos.md"),
            "book.md",
            (
                ("coverage", "{dir}/board.toml", *JSON),
                ("coverage", "{dir}/board.toml", "--format", "markdown"),
                ("check", "{dir}/board.toml", "--max-seconds", "1", "--format", "sarif"),
                ("check", "{dir}/board.toml", "--max-seconds", "1", *JSON),
            ),
            {"board.toml": BOOK_BOARD},
        ),
        InputKind(
            "twist-of-fate-every-move",
            example("examples/twist-of-fate/brownlow.toml"),
            "position.toml",
            (
                ("twist-of-fate", "solve", "{file}", *EVERY_MOVE, *JSON, *BUDGET),
                ("twist-of-fate", "solve", "{file}", *EVERY_MOVE, "--threads", "1", *BUDGET),
            ),
        ),
        InputKind(
            "twisted-cryptids-later-turns",
            example("examples/twisted-cryptids/advise-day.toml"),
            "record.toml",
            (
                ("twisted-cryptids", "advise", "{file}", "--later-turns", "0", *BUDGET),
                ("twisted-cryptids", "advise", "{file}", "--later-turns", "1", *SAMPLED, *BUDGET),
                ("twisted-cryptids", "advise", "{file}", "--later-turns", "3", *JSON, *BUDGET),
            ),
        ),
        InputKind(
            "kaelyfos-balance-crowded",
            CROWDED,
            "board.toml",
            (
                ("kaelyfos", "balance", "{file}", *CREW, *JSON, *BUDGET),
                ("kaelyfos", "balance", "{file}", *CREW, "--triggers", "2", *BUDGET),
                ("kaelyfos", "balance", "{file}", *CREW[:2], "--material", "3", *JSON, *BUDGET),
            ),
        ),
    )
}

# Kinds whose file is not TOML: mutated as text only.
TEXT_KINDS = frozenset({"designer-rulebook-text"})


@st.composite
def prose_mutated(draw: st.DrawFn, text: str) -> str:
    """A rulebook's text edited as a designer might (a word changed, a sentence added or
    repeated, a heading dropped) or hostilely (a hostile string in a line), or
    :func:`text_mutated`."""
    lines = text.splitlines(keepends=True)
    how = draw(st.sampled_from(["word", "sentence", "repeat", "heading", "hostile", "text"]))
    if how == "text" or not lines:
        return draw(text_mutated(text))
    i = draw(st.integers(0, len(lines) - 1))
    line = lines[i]
    if how == "word" and line.split():
        words = line.split(" ")
        j = draw(st.integers(0, len(words) - 1))
        words[j] = draw(st.sampled_from(["bloodsucker", "never", "may", "—", "“moves”", ""]))
        lines[i] = " ".join(words)
    elif how == "sentence":
        lines.insert(i, "A new rule: each explorer draws two waking nightmares at once.\n")
    elif how == "repeat":
        lines.insert(i, line)
    elif how == "heading":
        headings = [k for k, x in enumerate(lines) if x.startswith("#")]
        if headings:
            del lines[draw(st.sampled_from(headings))]
    else:
        lines[i] = line.rstrip("\n") + draw(st.sampled_from(HOSTILE_STRINGS)) + "\n"
    return "".join(lines)


ENCODINGS = ("utf-16", "utf-8-sig", "latin-1", "cp1252", "crlf", "cr", "nul", "stray-byte")


@st.composite
def reencoded(draw: st.DrawFn, text: str) -> tuple[str, str]:
    """``text`` written another way (see :data:`ENCODINGS`), returned as the text whose
    ``surrogateescape`` UTF-8 encoding is those bytes (what the harness writes), and the
    way's name. Latin-1 and cp1252 first put accented names in, so the bytes differ."""
    how = draw(st.sampled_from(ENCODINGS))
    accented = text.replace("bea", "Béa").replace("Nancy", "Nancé").replace("board", "bőard")
    if how == "utf-16":
        data = text.encode("utf-16")
    elif how == "utf-8-sig":
        data = text.encode("utf-8-sig")
    elif how in ("latin-1", "cp1252"):
        data = accented.encode(how, errors="replace")
    elif how == "crlf":
        data = text.replace("\n", "\r\n").encode()
    elif how == "cr":
        data = text.replace("\n", "\r").encode()
    else:
        at = draw(st.integers(0, len(text)))
        junk = "\x00" if how == "nul" else draw(st.sampled_from(["\udc80", "\udcff", "\udce9"]))
        return text[:at] + junk + text[at:], how
    return data.decode("utf-8", errors="surrogateescape"), how


# --- stdout: encodings the answer may not fit, and streams that fail ----------------------

STDOUT_COMMANDS = (
    ("games",),
    ("explain", "--list"),
    ("explain", "kaelyfos/attack-removal"),
    ("check", "cunning-folk"),
    ("check", "cunning-folk", "--format", "markdown"),
    ("kaelyfos", "step", "{dir}/crew.toml"),  # an explorer Łucja: Ł is not in cp1252
    ("coverage", "kaelyfos"),
    ("kaelyfos", "step", "{examples}/kaelyfos/tiny-position.toml"),
    ("cunning-folk", "deduce", "{examples}/cunning-folk/table-talk.toml"),
    ("cunning-folk", "deduce", "{examples}/cunning-folk/table-talk.toml", *JSON),
)
CHARSETS = ("utf-8", "latin-1", "cp1252", "ascii", "utf-16", "koi8-r", "mac-roman", "cp437")
STREAM_FAULTS = ("full", "closed")
