"""The Numba solver's tables: growing in place keeps every entry findable, and
tables grow early while memory allows."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.models.twist_of_fate.files import load_position
from ruleslawyer.models.twist_of_fate.play import Rules
from ruleslawyer.solvers.twist_of_fate import kernel as k
from ruleslawyer.solvers.twist_of_fate import memory
from ruleslawyer.solvers.twist_of_fate.memory import StateTable, Tables

FIRST = 1 << 10
POSITIONS = Path(__file__).resolve().parents[2] / "ruleslawyer" / "data" / "positions"


BITS = 50  # packed states of 50 bits, the marker bit above, then the value
MARK = 1 << BITS


def _params() -> np.ndarray:
    params = np.zeros(k.NPARAMS, dtype=np.int64)
    params[k.P_MARK] = MARK
    params[k.P_KMASK] = (MARK << 1) - 1
    params[k.P_VSHIFT] = BITS + 1
    params[k.P_VMASK] = (1 << 10) - 1
    params[k.P_ZLOW] = k.Z_OFF - 3  # Sanctuary -3..12 at the root seat
    params[k.P_ZW] = 4
    return params


def _value(n: int) -> int:
    """A value in the kernel's 16-bit encoding that fits the range of :func:`_params`."""
    low = k.Z_OFF - 3
    return (low + n % 16) | ((low + (n >> 4) % 16) << 7) | (((n >> 8) & 3) << 14)


@cache
def _clumped() -> tuple[int, ...]:
    """Keys whose home slots are the last 16 of the first table: one long run of full
    slots into the pad, which splits between both ends of the grown table."""
    out = []
    x = 0
    while len(out) < 600:
        if k.slot_hash(x | MARK) % FIRST >= FIRST - 16:
            out.append(x | MARK)
        x += 1
    return tuple(out)


@pytest.mark.parametrize("width", [1, 2])
@pytest.mark.parametrize("parts", [1, 2, 3])
@given(
    st.sets(st.integers(0, MARK - 1), max_size=700),
    st.sets(st.integers(0, 599), max_size=600),
)
@settings(max_examples=30, deadline=None)
def test_growing_in_place_keeps_every_entry(
    width: int, parts: int, xs: set[int], clumped: set[int]
) -> None:
    params = _params()
    kmask = int(params[k.P_KMASK])
    table = StateTable(FIRST, 1 << 24, width, kmask)
    keys = sorted({x | MARK for x in xs} | {_clumped()[i] for i in clumped})
    for n, kw in enumerate(keys):
        w0, w1 = k.slot_words(kw, _value(n), params, width)
        assert k.insert(table.array, kw, w0, w1, k.slot_hash(kw), kmask) == 1
        # a second insert of the same state finds it
        assert k.insert(table.array, kw, w0, w1, k.slot_hash(kw), kmask) == 0
    with ThreadPoolExecutor(parts) as pool:
        for _ in range(3):
            assert table.grow(pool, parts)
            arr = table.array
            assert arr.shape[1] == width
            assert int((arr[:, 0] != k.EMPTY_KEY).sum()) == len(keys)
            assert arr[-1, 0] == k.EMPTY_KEY
            for n, kw in enumerate(keys):
                assert k.find(arr, kw, k.slot_hash(kw), params) == _value(n)
            assert k.find(arr, MARK << 1, k.slot_hash(MARK << 1), params) == -1
    assert table.capacity == FIRST << 3


@pytest.mark.parametrize("width", [1, 2])
@given(
    st.lists(st.integers(0, 599), min_size=2, max_size=300, unique=True),
    st.integers(0, 299),
    st.sets(st.integers(0, MARK - 1), max_size=300),
)
@settings(max_examples=30, deadline=None)
def test_a_probe_may_start_where_an_earlier_one_for_the_state_ended(
    width: int, order: list[int], split: int, others: set[int]
) -> None:
    # The search keeps the empty slot where a child's first probe ended and starts its
    # later probe and its insert there (run_start). Keys clumped at the end of the
    # table make long runs; the child is absent at its first probe, others (some in
    # its run) are put in before its insert: it must then be found from its home
    # slot, not be put in twice; and after the table grows the kept slot is not used.
    params = _params()
    kmask = int(params[k.P_KMASK])
    table = StateTable(FIRST, 1 << 24, width, kmask)
    clumped = [_clumped()[i] for i in order]
    kw, first = clumped[0], clumped[1:]
    split = min(split, len(first))
    for n, key in enumerate(first[:split]):
        k.insert(
            table.array, key, *k.slot_words(key, _value(n), params, width), k.slot_hash(key), kmask
        )
    h = k.slot_hash(kw)
    i, found = k.locate(table.array, kw, kmask, h & k.home_mask(table.array))
    assert not found and table.array[i, 0] == k.EMPTY_KEY
    mark = k.run_mark(table.array, i)
    later = first[split:] + sorted({x | MARK for x in others} - {kw})
    for n, key in enumerate(later):
        k.insert(
            table.array, key, *k.slot_words(key, _value(n), params, width), k.slot_hash(key), kmask
        )
    start = k.run_start(table.array, mark, h)
    assert start == i
    # the same answer as a probe from the home slot: the same empty slot
    home = h & k.home_mask(table.array)
    assert k.locate(table.array, kw, kmask, start) == k.locate(table.array, kw, kmask, home)
    w0, w1 = k.slot_words(kw, _value(7), params, width)
    assert k.insert_from(table.array, kw, w0, w1, start, kmask) == 1
    assert k.insert_from(table.array, kw, w0, w1, start, kmask) == 0
    assert k.insert(table.array, kw, w0, w1, h, kmask) == 0
    assert k.find(table.array, kw, h, params) == _value(7)
    assert table.grow(None, 1)
    assert k.run_start(table.array, mark, h) == h & k.home_mask(table.array)
    assert k.find(table.array, kw, h, params) == _value(7)


def test_a_table_reserves_its_largest_size_but_uses_only_its_first_rows() -> None:
    table = StateTable(FIRST, 1 << 30)
    assert table.array.shape == (FIRST + k.PAD, 1)
    assert not np.any(table.array)


def test_tables_double_at_half_load_and_fill_further_only_when_they_cannot() -> None:
    # two-word slots (one-word main tables fill to 7/8: see test_slots)
    roomy = Tables(FIRST, 1 << 30, width=2)
    assert roomy.limits() == (FIRST // 2, FIRST // 2, FIRST // 2)
    tight = Tables(FIRST, roomy.nbytes, width=2)  # no room to double anything
    assert not tight.can_grow("main") and not tight.can_grow("ends")
    assert tight.limits() == (int(0.8 * FIRST),) * 3


def test_a_search_out_of_memory_fills_its_tables_before_it_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(memory, "FIRST_CAPACITY", 1 << 17)
    position = load_position(POSITIONS / "twist-of-fate-3p-6.toml")
    stats: dict[str, Any] = {}
    first = Tables(1 << 17, 1 << 40).nbytes
    result = memory.solve(position, Rules(), max_table_bytes=first, threads=1, stats=stats)
    # 121,821 internal states: more than the table (one-word slots) takes at 7/8 load
    assert not result.finished and stats["stopped"] == "memory"
    assert stats["main"] == (1 << 17) * 7 // 8


def test_a_system_that_refuses_a_large_reservation_gets_a_smaller_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # strict overcommit refuses mappings beyond the commit limit, touched or not
    real = memory._memory
    limit = 8 * (4 * FIRST + k.PAD)

    def strict(size: int) -> Any:
        if size > limit:
            raise OSError(12, "Cannot allocate memory")
        return real(size)

    monkeypatch.setattr(memory, "_memory", strict)
    table = StateTable(FIRST, 1 << 30)
    assert table.rows * 8 <= limit
    tables = Tables(FIRST, 1 << 30)
    assert tables.can_grow("main")
    assert tables.grow("main") and tables.can_grow("main")
    assert tables.grow("main") and not tables.can_grow("main")
    assert tables.limits()[0] == 4 * FIRST * 7 // 8  # one-word slots: filled to 7/8
