"""The pydantic base for every game file, position file and log: strict, no unknown keys.

Imported only by the loaders (pydantic stays off the ``--help`` path).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class StrictModel(BaseModel):
    """No extra keys, no type coercion: a TOML value of the wrong type is an error."""

    model_config = ConfigDict(extra="forbid", strict=True)
