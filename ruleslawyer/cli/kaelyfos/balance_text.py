"""Plain-text rendering of ``kaelyfos balance``."""

from __future__ import annotations

from ruleslawyer.cli.kaelyfos.advise_text import figures, open_ties_line
from ruleslawyer.solvers.balance_stats import mean_interval_text
from ruleslawyer.solvers.kaelyfos.advise import ZERO, title
from ruleslawyer.solvers.kaelyfos.balance import Balance, Sampled


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


def render_sampled(result: Sampled) -> str:
    """``kaelyfos balance --policy mcts`` (or ``random``) as text."""
    doc = result.to_json()
    agent = doc["agent"]
    lines = [
        f"model: {doc['model']}",
        f"behaviour cards: {doc['behaviour_cards']}",
        f"agent {agent['text']}",
        *(f"  {key}: {agent[key]}" for key in ("evaluator", "seed") if key in agent),
        f"rulings: {', '.join(f'{k}={v}' for k, v in doc['rulings'].items()) or 'none'}",
        f"seed: {doc['seed']}",
        f"{doc['sampled']} ({doc['games_asked']} asked); figures: mean [95% interval]",
        f"distress: {mean_interval_text(doc['distress'])}",
        f"waking nightmares: {mean_interval_text(doc['nightmares'])}",
        "per first card, distress:",
        *(f"  {name}: {mean_interval_text(m)}" for name, m in doc["per_first_card"].items()),
        "per nest deal, distress:",
        *(
            f"  {' '.join(f'{k}={v}' for k, v in row['nests'].items())}: "
            f"{mean_interval_text(row['distress'])}"
            for row in doc["per_deal"]
        ),
        *(() if doc["per_deal"] else ("  none: no game played",)),
        f"finished: {'true' if result.finished else 'false (the --max-seconds budget ran out)'}",
    ]
    return "\n".join(lines) + "\n"
