"""The games as OpenSpiel games: importing this package registers them with ``pyspiel``.

``pyspiel.load_game("ruleslawyer_twist_of_fate")``, ``"ruleslawyer_kaelyfos"`` and
``"ruleslawyer_twisted_cryptids"`` (with or without parameters) then give games whose
states are the project's own model states, driven by the model's functions through one adapter
(:mod:`~ruleslawyer.openspiel.adapter`). This package is the only place ``pyspiel``
is imported; nothing on the path of ``ruleslawyer --help`` imports it.
"""

from __future__ import annotations

from ruleslawyer.openspiel import cunning_folk, kaelyfos, twist_of_fate, twisted_cryptids

GAMES = (cunning_folk.NAME, kaelyfos.NAME, twist_of_fate.NAME, twisted_cryptids.NAME)

__all__ = ["GAMES"]
