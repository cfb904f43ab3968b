"""The Cunning Folk game file: the card counts of each setup, checked and typed.

``ruleslawyer/data/cunning-folk.toml`` is the built-in one (every count is
printed in the rulebook). A designer's file has the same shape; its top-level
``composition`` table marks it as a Cunning Folk file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from ruleslawyer.errors import InputError
from ruleslawyer.gamefiles.schema import StrictModel
from ruleslawyer.gamefiles.source import GameSource, validate
from ruleslawyer.models.cunning_folk.village import CELLS, MIN_PLAYERS, ROLES, Setup, cards_of

MAX_COUNT = len(CELLS)  # no role can have more cards than the village has cells


class _Grid(StrictModel):
    columns: int
    rows: int


class _Bonus(StrictModel):
    characters: list[str]
    replaces: str


class _Scoundrels(StrictModel):
    core: dict[str, int]
    pool: dict[str, int]
    dealt_per_player: int
    kept_per_player: int


class _GameFile(StrictModel):
    game: Literal["cunning-folk"] | None = None
    provenance: str
    grid: _Grid
    composition: dict[str, dict[str, int]]
    bonus: _Bonus
    scoundrels: _Scoundrels
    rulings: dict[str, str] = {}


@dataclass(frozen=True)
class GameData:
    columns: int
    rows: int
    standard: Setup
    bonus_characters: tuple[str, ...]
    replaces: str
    scoundrel_core: Mapping[str, int]
    scoundrel_pool: Mapping[str, int]
    dealt_per_player: int
    kept_per_player: int


def load_game_data(source: GameSource) -> GameData:
    """Validate a parsed game file; malformed input is an :class:`InputError`."""
    doc = validate(_GameFile, source.document, source.display)
    where = source.display
    if "standard" not in doc.composition:
        raise InputError(where, "composition.standard", "nothing", "the standard village counts")
    for name in doc.composition:
        if name != "standard":
            raise InputError(where, f"composition.{name}", name, "only composition.standard")
    tables = {
        "composition.standard": doc.composition["standard"],
        "scoundrels.core": doc.scoundrels.core,
        "scoundrels.pool": doc.scoundrels.pool,
    }
    for place, table in tables.items():
        for role, count in table.items():
            if role not in ROLES:
                raise InputError(where, f"{place}.{role}", role, f"a role ({', '.join(ROLES)})")
            if not 1 <= count <= MAX_COUNT:
                raise InputError(
                    where,
                    f"{place}.{role}",
                    count,
                    f"a count of 1 to {MAX_COUNT} (the village has {MAX_COUNT} cells; "
                    "leave out a role with no cards)",
                )
    for i, role in enumerate([*doc.bonus.characters, doc.bonus.replaces]):
        place = f"bonus.characters[{i}]" if i < len(doc.bonus.characters) else "bonus.replaces"
        if role not in ROLES:
            raise InputError(where, place, role, f"a role ({', '.join(ROLES)})")
        if role in doc.bonus.characters[:i]:
            raise InputError(where, place, role, "each bonus character once")
    pool = sum(doc.scoundrels.pool.values())
    deal = doc.scoundrels.dealt_per_player
    if not 1 <= deal <= pool // MIN_PLAYERS:
        raise InputError(
            where,
            "scoundrels.dealt_per_player",
            deal,
            f"1 to {pool // MIN_PLAYERS} (the pool of {pool} cards dealt to {MIN_PLAYERS} players)",
        )
    if not 1 <= doc.scoundrels.kept_per_player <= deal:
        raise InputError(
            where,
            "scoundrels.kept_per_player",
            doc.scoundrels.kept_per_player,
            f"1 to {deal} (a player keeps some of the {deal} cards dealt to them)",
        )
    for key in ("columns", "rows"):
        if not 1 <= getattr(doc.grid, key) <= MAX_COUNT:
            raise InputError(where, f"grid.{key}", getattr(doc.grid, key), f"1 to {MAX_COUNT}")
    return GameData(
        columns=doc.grid.columns,
        rows=doc.grid.rows,
        standard=Setup("standard", (cards_of(doc.composition["standard"]),)),
        bonus_characters=tuple(doc.bonus.characters),
        replaces=doc.bonus.replaces,
        scoundrel_core=dict(doc.scoundrels.core),
        scoundrel_pool=dict(doc.scoundrels.pool),
        dealt_per_player=doc.scoundrels.dealt_per_player,
        kept_per_player=doc.scoundrels.kept_per_player,
    )
