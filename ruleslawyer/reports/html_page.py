"""One game's report as a self-contained HTML page.

The report's Markdown is rendered by markdown-it-py (CommonMark with tables);
headings get the anchors the summary table links to, and a paragraph that is
only a picture becomes a ``<figure>`` with the SVG inline, so the page loads
nothing from outside. The page itself is a Jinja2 template
(``templates/page.html``) that puts the provenance warning at the top.
Imported only by ``ruleslawyer report --format html``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import NamedTuple

import jinja2
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markupsafe import Markup

from ruleslawyer.designer.checking import GameResult
from ruleslawyer.reports.markdown import anchor, generated_note


def _heading_anchors(state: StateCore) -> None:
    """Give every heading the id the report's links use (a repeated one gets -2, -3, ...)."""
    seen: dict[str, int] = {}
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        slug = anchor(tokens[i + 1].content)
        seen[slug] = seen.get(slug, 0) + 1
        token.attrSet("id", slug if seen[slug] == 1 else f"{slug}-{seen[slug]}")


def _figures(svgs: Mapping[str, str]) -> Callable[[StateCore], None]:
    """A core rule turning a paragraph that is one known picture into an inline-SVG figure."""

    def rule(state: StateCore) -> None:
        tokens: list[Token] = []
        old = state.tokens
        i = 0
        while i < len(old):
            image = _lone_image(old, i)
            if image is not None and image.attrGet("src") in svgs:
                svg = svgs[str(image.attrGet("src"))]
                i += 3
                tokens.append(_html(f'<figure class="picture">{svg.strip()}<figcaption>'))
                if _is_caption(old, i):  # the next paragraph becomes the figure's caption
                    tokens.append(old[i + 1])
                    i += 3
                else:
                    tokens.append(_html(escape(image.content)))
                tokens.append(_html("</figcaption></figure>\n"))
                continue
            tokens.append(old[i])
            i += 1
        state.tokens = tokens

    return rule


def _lone_image(tokens: Sequence[Token], i: int) -> Token | None:
    if i + 2 >= len(tokens) or tokens[i].type != "paragraph_open":
        return None
    children = tokens[i + 1].children or []
    if tokens[i + 1].type == "inline" and len(children) == 1 and children[0].type == "image":
        return children[0]
    return None


def _is_caption(tokens: Sequence[Token], i: int) -> bool:
    """The paragraph at ``i`` is all in italics: the Markdown report's caption line."""
    if i + 2 >= len(tokens) or tokens[i].type != "paragraph_open":
        return False
    children = tokens[i + 1].children or []
    return len(children) >= 2 and children[0].type == "em_open" and children[-1].type == "em_close"


def _html(content: str) -> Token:
    token = Token("html_block", "", 0)
    token.content = content
    return token


TEST_ID = re.compile(r"^tests/\S+::\S+$")
_TEST_ID_BREAK = re.compile(r"(/|::|_)")


def _code_inline(self, tokens: Sequence[Token], idx: int, options, env) -> str:  # type: ignore[no-untyped-def]
    """Inline code; a test id (``tests/...py::test_...``) may end a line after a slash,
    ``::`` or an underscore (``<wbr>``, so a copied id stays whole), which keeps the
    coverage table's tests column inside the page; it has no shading, which would hide
    the underscores of the line above."""
    content = escape(tokens[idx].content)
    if TEST_ID.match(tokens[idx].content):
        breakable = _TEST_ID_BREAK.sub(r"\1<wbr>", content)
        return f'<code class="test-id">{breakable}</code>'
    return f"<code{self.renderAttrs(tokens[idx])}>{content}</code>"


def markdown_to_html(text: str, svgs: Mapping[str, str]) -> str:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.add_render_rule("code_inline", _code_inline)
    md.core.ruler.push("heading_anchors", _heading_anchors)
    md.core.ruler.push("figures", _figures(svgs))
    return md.render(text)


def _templates() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("ruleslawyer.reports", "templates"),
        autoescape=True,
        keep_trailing_newline=True,
    )


def page(
    result: GameResult, body_markdown: str, svgs: Mapping[str, str], command: str | None = None
) -> str:
    note = MarkdownIt("commonmark", {"html": False}).renderInline(generated_note(result, command))
    return (
        _templates()
        .get_template("page.html")
        .render(
            result=result,
            note=Markup(note),
            body=Markup(markdown_to_html(body_markdown, svgs)),
        )
    )


class IndexEntry(NamedTuple):
    """One game file's page, as the index lists it."""

    page: str  # the page's file name, relative to the index
    result: GameResult
    failing: int  # findings at or above --fail-on


def index_page(entries: Sequence[IndexEntry], command: str) -> str:
    """``index.html``: a link to every game file's page, with its finding counts."""
    return _templates().get_template("index.html").render(entries=entries, command=command)
