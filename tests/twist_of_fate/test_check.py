"""``ruleslawyer check twist-of-fate``: every rule point answered, witnesses replayable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.designer.checking import check_source
from ruleslawyer.findings import Kind
from ruleslawyer.gamefiles.source import load_source
from ruleslawyer.models.twist_of_fate.play import RULE_POINTS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def result():  # type: ignore[no-untyped-def]
    # No time budget: the searches are bounded by their seeded playout counts, so the
    # result is the committed report's, whatever the machine's load (about a minute of CPU).
    return check_source(load_source("twist-of-fate"), {}, Budget())


def test_one_finding_per_rule_point(result) -> None:  # type: ignore[no-untyped-def]
    assert [f.id for f in result.findings] == [p.id for p in RULE_POINTS]
    assert result.provenance == "placeholder" and result.warning


def test_contradiction_and_witnesses(result) -> None:  # type: ignore[no-untyped-def]
    by_id = {f.id: f for f in result.findings}
    finish = by_id["twist-of-fate/simultaneous-finish"]
    assert finish.kind == Kind.CONTRADICTION and finish.finished
    winners = {r: v["winner"] for r, v in finish.witness.results.items()}
    assert winners["tie-break"] != winners["active-first"]
    double = by_id["twist-of-fate/double-threshold"]
    assert double.kind == Kind.AMBIGUITY
    assert len({json.dumps(v, sort_keys=True) for v in double.witness.results.values()}) == 3
    assert by_id["twist-of-fate/self-play-count"].kind == Kind.INFO
    assert by_id["twist-of-fate/monks-penalty-trigger"].kind == Kind.INFO
    endless = by_id["twist-of-fate/endless-game"]
    assert endless.kind == Kind.NON_TERMINATION and endless.finished
    floor = by_id["twist-of-fate/monks-penalty-floor"].witness.results
    assert min(s["sanctuary"] for s in floor["negative"].values() if isinstance(s, dict)) == -1
    # no side of the built-in deck Gives and Takes one value: the order cannot matter
    order = by_id["twist-of-fate/gives-takes-order"]
    assert order.kind == Kind.INFO and order.finished and order.witness is None


def test_gives_takes_order_parts_on_a_deck_that_gives_and_takes_one_value(tmp_path: Path) -> None:
    text = (ROOT / "ruleslawyer/data/twist-of-fate.toml").read_text("utf-8")
    old = "  { gives = { luck = 1, shilling = 1 } },"
    assert old in text
    path = tmp_path / "deck.toml"
    new = "  { gives = { luck = 2, shilling = 1 }, takes = { luck = 1 } },"
    path.write_text(text.replace(old, new))
    from ruleslawyer.checks.twist_of_fate.scoring import gives_takes_order
    from ruleslawyer.models.twist_of_fate.files import load_deck
    from ruleslawyer.models.twist_of_fate.play import Rules

    order = gives_takes_order(load_deck(str(path)), Rules(), {}, 60.0)
    assert order.kind == Kind.AMBIGUITY and order.witness is not None
    results = order.witness.results
    assert set(results) == {"net", "gives-first", "takes-first"}
    assert len({json.dumps(v, sort_keys=True) for v in results.values()}) > 1


def test_unfinished_points_say_so(result) -> None:  # type: ignore[no-untyped-def]
    for f in result.findings:
        if not f.finished:
            assert f.witness is None and "searched" in f.message


def test_tiny_budget_never_claims_a_clean_bill() -> None:
    tiny = check_source(load_source("twist-of-fate"), {}, Budget(max_seconds=0.01))
    for f in tiny.findings:
        assert f.finished or f.kind != Kind.INFO


def test_data_errors_for_a_broken_deck(tmp_path: Path) -> None:
    text = (ROOT / "ruleslawyer/data/twist-of-fate.toml").read_text("utf-8")
    path = tmp_path / "deck.toml"
    path.write_text(text.replace('name = "Nancy"', 'name = "Fagin"'), "utf-8")
    run = CliRunner().invoke(cli, ["check", str(path), "--format", "json"])
    assert run.exit_code == 1
    findings = json.loads(run.output)["games"][0]["findings"]
    assert findings[0]["kind"] == "data-error"
    assert findings[0]["location"]["place"] == "character[4].name"
    assert findings[0]["location"]["line"] is not None


def test_bad_deck_type_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text('[[character]]\nname = "X"\nsides = [{ luck = "a", shilling = 1 }, {}]\n')
    run = CliRunner().invoke(cli, ["check", str(path)])
    assert run.exit_code == 2
    assert "character[0].sides[0].luck" in run.stderr


def test_self_play_count_claims_nothing_when_rounds_deal_fewer_cards() -> None:
    # self-played-pickup=opponents-only: a round can deal fewer than six cards a seat, so
    # the argument behind the 'info' does not hold; the finding must not claim it.
    from ruleslawyer.checks.twist_of_fate.check import _self_play_count
    from ruleslawyer.models.twist_of_fate.files import load_deck
    from ruleslawyer.models.twist_of_fate.play import Rules

    rulings = {"twist-of-fate/self-played-pickup": "opponents-only"}
    found = _self_play_count(load_deck("twist-of-fate"), Rules.from_rulings(rulings), rulings, 5)
    assert not found.finished and found.kind == Kind.AMBIGUITY
