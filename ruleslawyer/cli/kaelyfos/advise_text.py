"""Plain-text rendering of ``kaelyfos advise``."""

from __future__ import annotations

from ruleslawyer.solvers.kaelyfos.advise import OPEN_TIES, Advice, Option, Value
from ruleslawyer.solvers.kaelyfos.joint import Order


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
    lines += _jointly(advice)
    return "\n".join(lines) + "\n"


def _readings(readings: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{p}={r}" for p, r in readings) or "the readings in force"


def _jointly(advice: Advice) -> list[str]:
    """The open rule points: every combination of their readings, or why not checked."""
    varied = advice.varied
    if not varied.finished:
        return [
            "open rule points: not every combination of their readings was checked (the "
            "--max-seconds budget ran out)"
        ]
    if not varied.points:
        return ["no open rule point changes a figure"]
    number = {o.label: i for i, o in enumerate(advice.ranking.options, 1)}
    points = ", ".join(varied.points)
    lines = [
        f"open rule points, every combination of their readings checked ({points}: "
        f"{varied.combinations} combinations):"
    ]
    if not varied.orders:
        lines.append("  no open rule point re-ranks the options, alone or together")
    else:
        best: dict[str, list[Order]] = {}
        for order in varied.orders:
            best.setdefault(order.options[0][1], []).append(order)
        others = sum(o.combinations for o in varied.orders)
        n = len(varied.orders)
        lines.append(
            f"  {others} of them re-rank the options ({n} other order{'s' * (n > 1)}); "
            "the best option under them, with the fewest readings that make it best:"
        )
        for label, orders in sorted(
            best.items(), key=lambda kv: -sum(o.combinations for o in kv[1])
        ):
            fewest = min(orders, key=lambda o: (len(o.readings), o.readings))
            name = f"{number[label]}. {label}" if label in number else label
            if number.get(label) == 1:
                name += " (still best; the others in another order)"
            count = sum(o.combinations for o in orders)
            lines.append(f"    {name}: {count} combinations ({_readings(fewest.readings)})")
    lines.append("  each option's worst case over them:")
    for i, (option, (value, where)) in enumerate(
        zip(advice.ranking.options, varied.worst, strict=True), 1
    ):
        lines.append(f"    {i}. {option.label}: {figures(value)} ({_readings(where)})")
    safest = advice.safest()
    if safest is not None:
        lines.append(f"  best in the worst case: {number[safest.label]}. {safest.label}")
    return lines
