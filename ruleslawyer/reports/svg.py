"""A small, dependency-free SVG builder for report pictures.

Coordinates are rounded to one decimal so pictures are byte-for-byte
deterministic, and every picture parses as XML (a test checks each one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _attrs(attrs: dict[str, object]) -> str:
    return "".join(
        f" {k.rstrip('_').replace('_', '-')}={quoteattr(_n(v) if isinstance(v, float) else str(v))}"
        for k, v in attrs.items()
        if v is not None
    )


@dataclass
class Picture:
    """An SVG drawing built element by element."""

    width: float
    height: float
    title: str
    parts: list[str] = field(default_factory=list)

    def add(self, tag: str, text: str | None = None, **attrs: object) -> None:
        body = escape(text) if text is not None else None
        self.parts.append(
            f"<{tag}{_attrs(attrs)}>{body}</{tag}>"
            if body is not None
            else f"<{tag}{_attrs(attrs)}/>"
        )

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: object) -> None:
        self.add("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), **attrs)

    def circle(self, x: float, y: float, r: float, **attrs: object) -> None:
        self.add("circle", cx=float(x), cy=float(y), r=float(r), **attrs)

    def rect(self, x: float, y: float, w: float, h: float, **attrs: object) -> None:
        self.add("rect", x=float(x), y=float(y), width=float(w), height=float(h), **attrs)

    def text(self, x: float, y: float, words: str, **attrs: object) -> None:
        attrs.setdefault("font_family", "sans-serif")
        attrs.setdefault("font_size", 12)
        self.add("text", words, x=float(x), y=float(y), **attrs)

    def render(self) -> str:
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(self.width)}" '
            f'height="{_n(self.height)}" viewBox="0 0 {_n(self.width)} {_n(self.height)}">'
        )
        title = f"<title>{escape(self.title)}</title>"
        return "\n".join([head, title, *self.parts, "</svg>"]) + "\n"


_NARROW, _THIN, _WIDE = (
    set("ijl.,:;|!'()[] "),
    set("frt-/"),
    {"m": 1.0, "w": 0.84, "M": 0.9, "W": 1.0},
)


def text_width(words: str, size: float, bold: bool = False) -> float:
    """A generous estimate of the width of ``words`` in a sans-serif font (DejaVu Sans-like).

    Layouts use it to keep labels apart; the browser test measures the real boxes.
    """
    em = 0.0
    for ch in words:
        if ch in _WIDE:
            em += _WIDE[ch]
        elif ch in _NARROW:
            em += 0.34
        elif ch in _THIN:
            em += 0.44
        elif ch.isupper():
            em += 0.8
        else:
            em += 0.66
    return em * size * (1.1 if bold else 1.0)


def bar_chart(
    title: str, bars: Sequence[tuple[str, float]], *, width: float = 520, unit: str = ""
) -> str:
    """A horizontal bar chart: one labelled bar per (label, value)."""
    row = 22
    left = 170
    pic = Picture(width, 40 + row * max(1, len(bars)), title)
    pic.text(8, 20, title, font_weight="bold")
    top = max((v for _, v in bars), default=0) or 1
    for i, (label, value) in enumerate(bars):
        y = 32 + i * row
        pic.text(8, y + 13, label)
        pic.rect(left, y, (width - left - 70) * value / top, row - 6, fill="#4a7bb7")
        pic.text(left + (width - left - 70) * value / top + 4, y + 13, f"{_n(float(value))}{unit}")
    return pic.render()
