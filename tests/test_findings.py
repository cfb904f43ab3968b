from __future__ import annotations

import pytest

from ruleslawyer.errors import InputError
from ruleslawyer.findings import (
    DEFAULT_FAIL_ON,
    Kind,
    Reading,
    RulePoint,
    parse_kinds,
    parse_ruling_options,
    point_finding,
    reading_in_force,
    resolve_rulings,
)
from tests.conftest import ATTACK, SAMPLE_POINT


def test_parse_kinds_accepts_lists_and_none() -> None:
    assert parse_kinds("contradiction,gap") == DEFAULT_FAIL_ON
    assert parse_kinds(" gap , info ") == {Kind.GAP, Kind.INFO}
    assert parse_kinds("none") == frozenset()


def test_parse_kinds_rejects_unknown_kind_with_one_line() -> None:
    with pytest.raises(InputError) as err:
        parse_kinds("contradiction,typo")
    assert str(err.value).startswith("--fail-on: found 'typo', expected one of data-error")
    assert "\n" not in str(err.value)


def test_rulings_merge_cli_over_file_and_sort() -> None:
    merged = resolve_rulings(
        [SAMPLE_POINT],
        {"kaelyfos/sample": "supply"},
        {"kaelyfos/sample": "removed"},
        source="g.toml",
    )
    assert merged == {"kaelyfos/sample": "removed"}
    assert reading_in_force(SAMPLE_POINT, merged) == "removed"
    assert reading_in_force(SAMPLE_POINT, {}) == "supply"


@pytest.mark.parametrize(
    ("file_rulings", "cli", "message"),
    [
        ({"kaelyfos/nope": "x"}, {}, "g.toml: rulings.kaelyfos/nope: found 'kaelyfos/nope'"),
        ({"kaelyfos/sample": "x"}, {}, "g.toml: rulings.kaelyfos/sample: found 'x', expected one"),
        ({}, {"kaelyfos/sample": "x"}, "--ruling: kaelyfos/sample: found 'x', expected one of"),
    ],
)
def test_bad_rulings_name_their_origin(file_rulings, cli, message) -> None:
    with pytest.raises(InputError) as err:
        resolve_rulings([SAMPLE_POINT], file_rulings, cli, source="g.toml")
    assert str(err.value).startswith(message)


def test_parse_ruling_options() -> None:
    assert parse_ruling_options(["a/b=c", " d/e = f "]) == {"a/b": "c", "d/e": "f"}
    with pytest.raises(InputError, match="expected ID=READING"):
        parse_ruling_options(["a/b"])


def test_point_finding_kind_and_status() -> None:
    parted = point_finding(SAMPLE_POINT, rulings={}, parted=True, message="m")
    assert (parted.kind, parted.status) == (Kind.CONTRADICTION, "open")
    assert parted.fails(DEFAULT_FAIL_ON)
    calm = point_finding(SAMPLE_POINT, rulings={}, parted=False, message="m")
    assert calm.kind == Kind.INFO and not calm.fails(DEFAULT_FAIL_ON)
    # An unfinished search that saw nothing keeps the point's kind (no clean bill), but it is
    # "not finished", never a failure: nothing was shown either way (exit 3, not 1).
    cut = point_finding(SAMPLE_POINT, rulings={}, parted=False, message="m", finished=False)
    assert cut.kind == Kind.CONTRADICTION and not cut.fails(DEFAULT_FAIL_ON)
    assert cut.unfinished_phrase() == "not finished: incomplete, not a clean bill"
    ruled = point_finding(
        SAMPLE_POINT, rulings={SAMPLE_POINT.id: "supply"}, parted=True, message="m"
    )
    assert ruled.status == "resolved" and ruled.ruling == "supply"
    assert not ruled.fails(DEFAULT_FAIL_ON)


def test_rule_point_rejects_a_default_that_is_not_a_reading() -> None:
    with pytest.raises(ValueError, match="default"):
        RulePoint("g/p", "t", Kind.AMBIGUITY, (ATTACK,), (Reading("a", "a"),), default="b")
