"""The designer's own rulebook: quotes located there, changed quotes reported, edits recorded.

Runs on a copy of examples/designer-repo, whose board.toml names
rules/kaelyfos.md (the printed Kaelyfos rules in Markdown).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.cli.main import cli
from ruleslawyer.findings import Sentence
from ruleslawyer.games import GAMES
from ruleslawyer.rulebook.books import DesignerRulebook

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "designer-repo"
EXAMPLE_CARD = "on their node and is then removed from play."
EDITED_CARD = "on their node and is returned to the supply."
EDIT = (
    '\n[edits]\n"kaelyfos/attack-removal" = '
    '"rules v3: the example card returns attackers to the supply, as the Attack step does"\n'
)

BOOK = DesignerRulebook(
    "rules/game.md",
    "# Game\n\n## Setup\n\nShuffle the deck.\nDeal five cards\nto each player.\n\n"
    "## Turns\n\n- MOVE: Move one space. Then draw a card.\n- Pass if you cannot move.\n",
)


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    target = tmp_path / "designer-repo"
    shutil.copytree(EXAMPLE, target)
    monkeypatch.chdir(target)
    return target


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def findings(*args: str) -> list[dict]:
    result = run("check", "board.toml", "--format", "json", *args)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)["games"][0]["findings"]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_place_finds_line_and_heading_across_a_line_break() -> None:
    # "Deal five cards / to each player." wraps: it starts on line 6, under "## Setup".
    placed = BOOK.place(Sentence("x.txt", "Dealing", "Deal five cards to each player."))
    assert (placed.file, placed.line, placed.end_line, placed.section) == (
        "rules/game.md",
        6,
        7,
        "Setup",
    )
    gone = BOOK.place(Sentence("x.txt", "Turns", "Move two spaces."))
    assert gone.line is None and gone.file == "rules/game.md"


def test_nearest_sentence_is_the_edited_one_without_its_label() -> None:
    # The list item's label "MOVE:" is not part of the sentence the quote is compared with.
    near = BOOK.nearest("Move two spaces.")
    assert near is not None and (near.text, near.line, near.section) == (
        "Move one space.",
        11,
        "Turns",
    )
    assert BOOK.nearest("Deal six cards to each player.").line == 6


def test_every_quote_is_located_in_the_designers_rulebook(repo: Path) -> None:
    book = (repo / "rules" / "kaelyfos.md").read_text("utf-8").splitlines()
    located = [s for f in findings() for s in f["sentences"]]
    assert located and all(s["file"] == "rules/kaelyfos.md" for s in located)
    for s in located:  # the quote's first words are on the line it names
        assert " ".join(s["text"].split()[:4]) in book[s["line"] - 1]
    markdown = run("check", "board.toml", "--format", "markdown").output
    assert "(`rules/kaelyfos.md:" in markdown and "ruleslawyer/data/rulebooks" not in markdown


def test_a_changed_sentence_is_a_data_error_with_the_nearest_sentence(repo: Path) -> None:
    edit(repo / "rules" / "kaelyfos.md", EXAMPLE_CARD, EDITED_CARD)
    result = run("check", "board.toml", "--baseline", "ruleslawyer-baseline.json")
    assert result.exit_code == 1
    assert "FAIL [data error] kaelyfos/data/rulebook-quote" in result.output
    stale = [f for f in findings() if f["id"] == "kaelyfos/data/rulebook-quote"]
    assert len(stale) == 1
    assert stale[0]["fails"] and stale[0]["extra"]["point"] == "kaelyfos/attack-removal"
    assert "re-check the point" in stale[0]["message"]
    # The example card (line 34, under Bloodsuckers) now says what the Attack step says.
    nearest = stale[0]["extra"]["nearest"]
    assert (nearest["line"], nearest["section"]) == (34, "Bloodsuckers")
    assert nearest["text"].endswith(EDITED_CARD)
    assert stale[0]["location"] == {"file": "board.toml", "place": "rulebook", "line": 5}
    explained = run("explain", "kaelyfos/attack-removal", "--game-file", "board.toml").output
    assert "no longer in rules/kaelyfos.md verbatim" in explained


def test_an_edit_in_the_game_file_resolves_the_point_and_its_changed_quote(repo: Path) -> None:
    edit(repo / "rules" / "kaelyfos.md", EXAMPLE_CARD, EDITED_CARD)
    (repo / "board.toml").write_text((repo / "board.toml").read_text() + EDIT)
    result = run("check", "board.toml", "--baseline", "ruleslawyer-baseline.json")
    assert result.exit_code == 0, result.output
    by_id = {f["id"]: f for f in findings()}
    for point in ("kaelyfos/data/rulebook-quote", "kaelyfos/attack-removal"):
        assert by_id[point]["status"] == "resolved" and by_id[point]["edit"].startswith("rules v3")
    assert "resolved by the rulebook edit 'rules v3" in result.output
    # Both sentences of the contradiction now read the same: the example card's is the Attack's.
    edited = by_id["kaelyfos/attack-removal"]["extra"]["edited"]
    assert edited["read_the_same"] is True
    assert edited["sentences_now"][0].endswith(EDITED_CARD)
    markdown = run("check", "board.toml", "--format", "markdown").output
    assert "Its sentences now read the same." in markdown


@pytest.mark.parametrize(
    ("change_rulebook", "drop_ruling", "expected"),
    [
        (False, False, "expected an edit of rules/kaelyfos.md that changed a sentence"),
        (True, True, "expected a ruling for kaelyfos/attack-removal in [rulings]"),
    ],
)
def test_an_edit_that_does_not_fit_is_one_line_of_bad_input(
    repo: Path, change_rulebook: bool, drop_ruling: bool, expected: str
) -> None:
    if change_rulebook:
        edit(repo / "rules" / "kaelyfos.md", EXAMPLE_CARD, EDITED_CARD)
    if drop_ruling:
        edit(repo / "board.toml", '"kaelyfos/attack-removal" = "supply"\n', "")
    (repo / "board.toml").write_text((repo / "board.toml").read_text() + EDIT)
    result = run("check", "board.toml")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: board.toml: edits.kaelyfos/attack-removal: found ")
    assert expected in result.stderr and result.stderr.count("\n") == 1


def test_a_missing_rulebook_is_one_line_of_bad_input(repo: Path) -> None:
    edit(repo / "board.toml", 'rulebook = "rules/kaelyfos.md"', 'rulebook = "rules/nope.md"')
    result = run("check", "board.toml")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: board.toml: rulebook: found 'rules/nope.md', expected a Markdown or plain-text "
        "rulebook (no such file); did you mean 'rules/kaelyfos.md'?\n"
    )


def test_diff_of_two_rulebook_versions_lists_the_points_whose_sentences_changed(
    repo: Path,
) -> None:
    new = repo / "rules" / "kaelyfos-v4.md"
    text = (repo / "rules" / "kaelyfos.md").read_text("utf-8")
    # Two edits: the example card's attack, and the trap's capacity (which move-order quotes).
    # A third only moves a quoted sentence down a line: listed as moved, not as changed.
    text = text.replace(EXAMPLE_CARD, EDITED_CARD)
    text = text.replace(
        "caught 2 bloodsuckers it is destroyed", "caught 3 bloodsuckers it is destroyed"
    )
    text = text.replace("#### Spawn\n", "#### Spawn\n\nSpawning happens first.\n")
    new.write_text(text, "utf-8")
    result = run("diff", "rules/kaelyfos.md", "rules/kaelyfos-v4.md", "--format", "json")
    assert result.exit_code == 1, result.output
    doc = json.loads(result.output)
    assert doc["game"] == "kaelyfos"  # inferred: the file holds Kaelyfos quotes
    assert doc["points_to_recheck"] == ["kaelyfos/attack-removal", "kaelyfos/move-order"]
    changed = {c["point"]: c for c in doc["changes"] if c["change"] == "changed"}
    assert changed["kaelyfos/move-order"]["nearest"]["text"] == (
        "If a trap has caught 3 bloodsuckers it is destroyed."
    )
    moved = [c for c in doc["changes"] if c["change"] == "moved"]
    assert moved and all(c["new"]["line"] == c["old"]["line"] + 2 for c in moved)
    text_out = run("diff", "rules/kaelyfos.md", "rules/kaelyfos-v4.md").output
    assert (
        "2 rule point(s) whose sentences changed: kaelyfos/attack-removal, kaelyfos/move-order"
        in (text_out)
    )
    # The reverse direction only restores sentences: nothing to re-check, exit 0.
    back = run("diff", "rules/kaelyfos-v4.md", "rules/kaelyfos.md")
    assert back.exit_code == 0 and "Sentences back in the rulebook" in back.output


def test_diff_of_rulebooks_with_no_game_asks_for_one(repo: Path) -> None:
    (repo / "notes.txt").write_text("Nothing quoted here.\n", "utf-8")
    result = run("diff", "notes.txt", "notes.txt")
    assert result.exit_code == 2 and "expected --game" in result.stderr
    assert run("diff", "notes.txt", "notes.txt", "--game", "kaelyfos").exit_code == 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_plain_text_copy_of_the_shipped_rulebook_holds_every_quote(game, tmp_path) -> None:
    # Any game's file may name its own rulebook; a verbatim copy (plain text, so sections
    # come from the rule points) places every quote on the line the shipped one has.
    from ruleslawyer.gamefiles.source import builtin_path, load_source
    from ruleslawyer.rulebook import books as rulebooks
    from ruleslawyer.rulebook.quotes import drifts

    info = GAMES[game]
    (tmp_path / "rules.txt").write_text(rulebooks.text(info.rulebook), "utf-8")
    board = tmp_path / "game.toml"
    body = builtin_path(info.data_file).read_text("utf-8")
    board.write_text(
        f'rulebook = "rules.txt"\ngame = "{game}"\n' + body.replace(f'game = "{game}"\n', ""),
        "utf-8",
    )
    source = load_source(str(board))
    book = source.rulebook()
    points = info.rule_points()
    assert drifts(points, book) == []
    for point in points:
        for sentence in point.sentences:
            placed = book.place(sentence)
            assert placed.file.endswith("rules.txt") and placed.section == sentence.section
            assert placed.line == rulebooks.line_of(sentence)


def _example_sentences() -> tuple[DesignerRulebook, list[tuple[int, str]]]:
    from ruleslawyer.rulebook.books import _sentences

    book = DesignerRulebook("rules/kaelyfos.md", (EXAMPLE / "rules" / "kaelyfos.md").read_text())
    flat = " ".join(book.text.split())
    return book, [
        (line, text)
        for line, text in _sentences(book.text)
        if len(text.split()) >= 8 and text in flat  # no Markdown markup inside
    ]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_nearest_finds_a_sentence_again_after_one_word_changes(data) -> None:
    book, sentences = _example_sentences()
    line, text = data.draw(st.sampled_from(sentences))
    words = text.split()
    i = data.draw(st.integers(0, len(words) - 1))
    changed = " ".join([*words[:i], "zzyzx", *words[i + 1 :]])
    near = book.nearest(changed)
    assert near is not None and near.line == line and text.endswith(near.text)
    assert book.place(Sentence("x.txt", "", text)).line == line  # and verbatim, it is found
