"""The log format: written logs read back the same, and parse to the same events."""

from __future__ import annotations

import tomllib

from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.models.cunning_folk.log import parse_log
from ruleslawyer.models.cunning_folk.record import dump_log
from tests.cunning_folk.helpers import random_recording


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), setup=st.sampled_from(["standard", "bonus", "scoundrels"]))
def test_dump_then_load_round_trips(seed: int, setup: str) -> None:
    document = random_recording(seed, max_moves=25, setups=(setup,)).document
    text = dump_log(document)
    assert tomllib.loads(text) == document
    assert dump_log(tomllib.loads(text)) == text
    log = parse_log(tomllib.loads(text), "log.toml")
    assert len(log.events) == len(document["event"])
    assert log.setup.name == setup
