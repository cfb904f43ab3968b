"""JUnit XML: one test suite per game, one test case per finding (rule point or data rule).

A test case fails where its finding is at or above ``--fail-on``; resolved
points and info pass; an unfinished search that does not fail is skipped.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from ruleslawyer.checking import GameResult, effective_fail_on
from ruleslawyer.findings import Kind
from ruleslawyer.reports.words import compact


def render(results: Sequence[GameResult], fail_on: frozenset[Kind]) -> str:
    failing = effective_fail_on(fail_on)
    root = ET.Element("testsuites", name="ruleslawyer check")
    total = fails = 0
    for r in results:
        suite = ET.SubElement(root, "testsuite", name=r.game)
        n_fail = n_skip = 0
        for f in r.findings:
            case = ET.SubElement(suite, "testcase", classname=r.game, name=f.id)
            body = f.message
            if f.witness is not None:
                body += "\nwitness: " + compact(f.witness.to_json())
            if f.fails(failing):
                n_fail += 1
                node = ET.SubElement(case, "failure", type=f.kind.value, message=f.title)
                node.text = body
            elif not f.finished:
                n_skip += 1
                ET.SubElement(case, "skipped", message="search did not finish: " + f.title)
            else:
                out = ET.SubElement(case, "system-out")
                out.text = f"{f.kind.value}, {f.status}: {body}"
        suite.set("tests", str(len(r.findings)))
        suite.set("failures", str(n_fail))
        suite.set("errors", "0")
        suite.set("skipped", str(n_skip))
        total += len(r.findings)
        fails += n_fail
    root.set("tests", str(total))
    root.set("failures", str(fails))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
