"""JUnit XML: one test suite per game, one test case per finding (rule point or data rule).

A test case fails where its finding is at or above ``--fail-on``; resolved
points and info pass; an unfinished search (never a failure) is skipped, saying
"not finished" or "not searched: data error at ...".
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from ruleslawyer.designer.checking import GameResult, effective_fail_on
from ruleslawyer.findings import Kind
from ruleslawyer.reports.words import compact

# characters XML 1.0 cannot hold at all, even escaped
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """``text`` with every character XML 1.0 cannot hold shown as its Python escape."""
    return _NOT_XML.sub(lambda m: repr(m.group())[1:-1], text)


def render(results: Sequence[GameResult], fail_on: frozenset[Kind]) -> str:
    failing = effective_fail_on(fail_on)
    root = ET.Element("testsuites", name="ruleslawyer check")
    total = fails = 0
    for r in results:
        suite = ET.SubElement(root, "testsuite", name=xml_text(r.game))
        n_fail = n_skip = 0
        for f in r.findings:
            case = ET.SubElement(suite, "testcase", classname=xml_text(r.game), name=xml_text(f.id))
            body = f.message
            if f.witness is not None:
                body += "\nwitness: " + compact(f.witness.to_json())
            if f.fails(failing):
                n_fail += 1
                node = ET.SubElement(case, "failure", type=f.kind.value, message=xml_text(f.title))
                node.text = xml_text(body)
            elif not f.finished:
                n_skip += 1
                skip = xml_text(f"{f.unfinished_phrase()}: {f.title}")
                ET.SubElement(case, "skipped", message=skip)
            else:
                out = ET.SubElement(case, "system-out")
                out.text = xml_text(f"{f.kind.value}, {f.status}: {body}")
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
