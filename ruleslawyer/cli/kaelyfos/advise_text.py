"""Plain-text rendering of ``kaelyfos advise``."""

from __future__ import annotations

from ruleslawyer.solvers.kaelyfos.advise import OPEN_TIES, Advice, Option, Value, title


def figures(value: Value) -> str:
    """A value's figures: exact distress and nightmares (with decimals), the worst total."""
    return (
        f"distress {value.expected} (~{float(value.expected):.3f}), "
        f"nightmares {value.nightmares} (~{float(value.nightmares):.3f}), worst {value.worst}"
    )


def open_ties_line(met: list[str], ties: str) -> list[str]:
    """The line naming the open choices a card met (none: no line)."""
    if not met:
        return []
    return [
        f"choices the rules leave open, met on some draw ({OPEN_TIES}={ties}): " + ", ".join(met)
    ]


def _cut(finished: bool) -> str:
    """What a re-ranking the budget cut short says beside its heading."""
    return "" if finished else ", not finished (the budget ran out: the options ranked so far)"


def _option(rank: int, option: Option) -> str:
    return f"  {rank}. {option.label}: {figures(option.value)}"


def render_advice(advice: Advice) -> str:
    doc = advice.to_json()
    deck = ", ".join(f"{n} x{c}" if c > 1 else n for n, c in doc["deck_left"].items())
    lines = [
        f"model: {doc['model']}",
        f"behaviour cards: {doc['behaviour_cards']}",
        f"deck left: {deck or 'empty'}; spent: {', '.join(advice.spent) or 'none'}; "
        f"material: {advice.material}",
        f"finished: {'true' if advice.finished else 'false (the --max-seconds budget ran out)'}",
    ]
    lines += open_ties_line(doc["open_ties_met"], advice.ties)
    lines.append("options, best first:")
    lines += [_option(i, o) for i, o in enumerate(advice.ranking.options, 1)]
    if advice.then:
        lines.append("then, before the second trigger, after option 1 and each first card:")
        for f in advice.then:
            which = f" (result {f.result} of {f.results})" if f.results > 1 else ""
            lines.append(f"  {f.card}{which}: {f.label}")
    if advice.divergences:
        lines.append("open rule points whose other reading re-ranks the options:")
        for point, reading, other in advice.divergences:
            lines.append(f"  {point}={reading} ({title(point)}){_cut(other.finished)}:")
            lines += ["  " + _option(i, o) for i, o in enumerate(other.options, 1)]
    elif advice.finished:
        lines.append("no open rule point re-ranks the options")
    return "\n".join(lines) + "\n"
