"""Plain-text rendering of ``kaelyfos balance``."""

from __future__ import annotations

from ruleslawyer.cli.kaelyfos.advise_text import figures, open_ties_line
from ruleslawyer.solvers.kaelyfos.advise import ZERO, title
from ruleslawyer.solvers.kaelyfos.balance import Balance


def render_balance(result: Balance) -> str:
    doc = result.to_json()
    deck = ", ".join(f"{n} x{c}" if c > 1 else n for n, c in result.deck)
    consulted = ", ".join(f"{p}={result.rulings[p]}" for p in doc["rule_points_consulted"])
    lines = [
        f"model: {doc['model']}",
        f"behaviour cards: {doc['behaviour_cards']}; deck: {deck}",
        f"readings consulted: {consulted or 'none'}",
        f"finished: {'true' if result.finished else 'false (the --max-seconds budget ran out)'}"
        f"; deals done: {len(result.rows)} of {result.deals}",
    ]
    lines += open_ties_line(doc["open_ties_met"], result.ties)
    lines.append("per nest deal:")
    for row in result.rows:
        nests = " ".join(f"{letter}={node}" for letter, node in row.nests)
        lines.append(f"  {nests}: {figures(row.value)}; crew first: {row.label}")
        lines += [f"    first card {name}: {figures(v)}" for name, v in row.cards]
    overall = result.overall()
    if overall is None:
        lines.append("per first card and overall: not given (not every deal was done)")
    else:
        lines.append("per first card, mean over the deals:")
        lines += [f"  {name}: {figures(v)}" for name, v in result.per_card()]
        lines.append(f"overall: {figures(overall)}")
    if result.divergences:
        lines.append("open rule points whose other reading changes the figures:")
        for point, reading, other in result.divergences:
            lines.append(f"  {point}={reading} ({title(point)}):")
            lines += [f"    {name}: {figures(v)}" for name, v in other.per_card()]
            lines.append(f"    overall: {figures(other.overall() or ZERO)}")
    elif result.finished:
        lines.append("no open rule point changes the figures")
    if not result.finished and overall is not None:
        lines.append("open rule points: not every other reading was tried (the budget ran out)")
    return "\n".join(lines) + "\n"
