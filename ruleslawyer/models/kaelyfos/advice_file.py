"""Kaelyfos advice files (the ``advise`` command's input).

An advice file is a position file (see :mod:`ruleslawyer.models.kaelyfos.files`)
without a ``[card]`` or pending ``actions`` (the cards come from the board's
behaviour deck, the actions are what ``advise`` chooses), plus ``material`` (the
crew's material, 1 per trap built) and ``spent`` (the behaviour cards already
revealed, out of the deck).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ruleslawyer.errors import InputError
from ruleslawyer.gamefiles.kinds import require_kind
from ruleslawyer.gamefiles.source import read_toml
from ruleslawyer.graphs.board import MAX_BEHAVIORS
from ruleslawyer.models.kaelyfos.files import parse_position
from ruleslawyer.models.kaelyfos.state import Position

MAX_MATERIAL = 100


@dataclass(frozen=True)
class AdviceFile:
    position: Position
    material: int
    spent: tuple[str, ...]
    rulings: tuple[tuple[str, str], ...] = ()


def load_advice(path: str | Path) -> AdviceFile:
    """Read and check an advice file."""
    path = Path(path)
    source = str(path)
    _, doc = read_toml(path, display=source)
    doc = dict(doc)
    for key, why in (
        ("card", "no [card]: advise draws the cards from the board's behaviour deck"),
        ("actions", "no actions: advise chooses the free actions"),
    ):
        if key in doc:
            raise InputError(source, key, key, why)
    require_kind(doc, source, "a Kaelyfos advice file")
    material = doc.pop("material", None)
    if type(material) is not int or not 0 <= material <= MAX_MATERIAL:
        raise InputError(source, "material", material, f"an integer 0-{MAX_MATERIAL}")
    spent = doc.pop("spent", [])
    if not isinstance(spent, list) or len(spent) > MAX_BEHAVIORS:
        raise InputError(
            source, "spent", spent, f"a list of at most {MAX_BEHAVIORS} behaviour card names"
        )
    loaded = parse_position({**doc, "card": {"spawn": [], "move": 0}}, source, path.parent)
    board = loaded.position.board
    if not board.behaviors:
        raise InputError(
            source,
            "board",
            f"{doc.get('board', 'kaelyfos')} with no [[behavior]] cards",
            "a board whose behaviour deck advise can draw from",
        )
    printed = Counter(b.name for b in board.behaviors)
    used: Counter[str] = Counter()
    for i, name in enumerate(spent):
        used[name if isinstance(name, str) else ""] += 1
        if not isinstance(name, str) or used[name] > printed[name]:
            raise InputError(
                source,
                f"spent[{i}]",
                name,
                f"a behaviour card of the board not already listed "
                f"({', '.join(printed) or 'the board has none'})",
            )
    return AdviceFile(loaded.position, material, tuple(spent), loaded.rulings)
