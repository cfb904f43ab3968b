"""Every Cunning Folk command's JSON validates against its shipped schema in every shape it
takes: pending claims with 2, 3 and 4 players, none, a run in progress (yours, another's),
a villager claim's readings, the cell of her choice or given, and a budget cut short.
(tests/test_schemas.py runs one shape of each command.)"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.cunning_folk.record import dump_log
from ruleslawyer.schemas import schema

ROOT = Path(__file__).resolve().parents[2]
CF = ROOT / "examples" / "cunning-folk"


def players(name: str, n: int, tmp: Path) -> str:
    """The example with ``n`` players (the extra ones have done nothing)."""
    document = tomllib.loads((CF / name).read_text())
    document["players"] = ["me", "bea", "cal", "dan"][:n]
    path = tmp / f"{n}-{name}"
    path.write_text(dump_log(document))
    return str(path)


def others_run(tmp: Path) -> str:
    """A log ending inside bea's good-elder run (one pick made), seen from me."""
    document = {
        "setup": "standard",
        "players": ["me", "bea", "cal"],
        "perspective": "me",
        "event": [
            {"type": "pass", "player": "me", "cell": "B2", "saw": "evil-witch"},
            {"type": "claim", "player": "bea", "cell": "C3", "role": "good-elder"},
            {"type": "reveal", "player": "bea", "cell": "B2", "revealed": "evil-witch"},
        ],
    }
    path = tmp / "others-run.toml"
    path.write_text(dump_log(document))
    return str(path)


FIRST_TO_SPEAK = "cunning-folk/challenge-order=first-to-speak"
SHAPES = [
    ("deduce", lambda t: [str(CF / "table-talk.toml")], {0}),
    ("deduce", lambda t: [str(CF / "thirty-events.toml"), "--max-seconds", "1e-9"], {3}),
    ("advise", lambda t: [str(CF / "two-players.toml")], {0}),
    ("advise", lambda t: [str(CF / "pending-claim.toml")], {0}),
    ("advise", lambda t: [players("pending-claim.toml", 4, t)], {0}),
    ("advise", lambda t: [str(CF / "thirty-events.toml")], {0}),
    ("advise", lambda t: [str(CF / "my-run.toml")], {0}),
    ("advise", lambda t: [others_run(t)], {0}),
    ("advise", lambda t: [str(CF / "no-villagers.toml")], {0}),
    ("advise", lambda t: [str(CF / "pending-claim.toml"), "--max-seconds", "1e-9"], {3}),
    ("equilibrium", lambda t: [str(CF / "bluff-or-not.toml")], {0}),
    ("equilibrium", lambda t: [str(CF / "bluff-or-not.toml"), "--cell", "C3"], {0}),
    ("equilibrium", lambda t: [str(CF / "two-players.toml")], {0}),
    ("equilibrium", lambda t: [str(CF / "pending-claim.toml")], {0}),
    ("equilibrium", lambda t: [players("pending-claim.toml", 4, t)], {0}),
    ("equilibrium", lambda t: [str(CF / "two-players.toml"), "--max-seconds", "1e-9"], {3}),
    # issue 38's fuzz: three and four players, a pending claim, other odds, cut short
    ("equilibrium", lambda t: [str(CF / "pending-claim.toml"), "--swap-odds", "3:1"], {0}),
    ("equilibrium", lambda t: [str(CF / "pending-claim.toml"), "--max-seconds", "1e-9"], {3}),
    ("equilibrium", lambda t: [players("pending-claim.toml", 4, t), "--max-seconds", "1e-9"], {3}),
    ("balance", lambda t: ["--games", "2", "--players", "2"], {0}),
    ("balance", lambda t: ["--games", "1", "--setup", "scoundrels", "--policies", "random"], {0}),
    ("balance", lambda t: ["--games", "2", "--max-seconds", "1e-9"], {3}),
    # the claim stage under cunning-folk/challenge-order=first-to-speak
    ("advise", lambda t: [str(CF / "pending-claim.toml"), "--ruling", FIRST_TO_SPEAK], {0}),
    ("equilibrium", lambda t: [str(CF / "pending-claim.toml"), "--ruling", FIRST_TO_SPEAK], {0}),
]


def run(command: str, args: list[str], codes: set[int], monkeypatch) -> dict:
    monkeypatch.chdir(ROOT)
    done = CliRunner().invoke(cli, ["cunning-folk", command, *args, "--format", "json"])
    assert done.exit_code in codes, done.output
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("command", "args", "codes"),
    SHAPES,
    ids=[f"{c}-{k}" for k, (c, _, _) in enumerate(SHAPES)],
)
def test_every_shape_fits_its_schema(command, args, codes, tmp_path, monkeypatch) -> None:
    document = run(command, args(tmp_path), codes, monkeypatch)
    assert next(iter(document)) == "schema_version"
    jsonschema.Draft202012Validator(schema(f"cunning-folk-{command}")).validate(document)


def test_the_schemas_reject_what_issue_38_found(monkeypatch) -> None:
    # A pending claim is an object (cell, role, event), never a bare string; three or four
    # players carry their value and NashConv; the two-player figures are exact strings.
    equilibrium = schema("cunning-folk-equilibrium")
    validator = jsonschema.Draft202012Validator(equilibrium)
    two = run("equilibrium", [str(CF / "two-players.toml")], {0}, monkeypatch)
    assert not list(validator.iter_errors(two))
    assert list(validator.iter_errors({**two, "pending_claim": "evil-witch"}))
    assert list(validator.iter_errors({k: v for k, v in two.items() if k != "value"}))
    three = run("equilibrium", [str(CF / "pending-claim.toml")], {0}, monkeypatch)
    assert not list(validator.iter_errors(three))
    assert list(validator.iter_errors({k: v for k, v in three.items() if k != "nash_conv"}))
    advise = jsonschema.Draft202012Validator(schema("cunning-folk-advise"))
    found = run("advise", [str(CF / "two-players.toml")], {0}, monkeypatch)
    broken = {**found, "claim": {**found["claim"], "best": "maybe"}}
    assert list(advise.iter_errors(broken))


@pytest.mark.parametrize("n", [3, 4])
def test_a_cfr_cut_short_fits_the_schema(n, tmp_path, monkeypatch) -> None:
    # The budget ends CFR+ after its first 100 iterations, before its NashConv target:
    # the figures reached are printed, marked unfinished (exit 3), in the schema's shape.
    from ruleslawyer.solvers.cunning_folk import cfr

    class Spent:
        def spent(self, states: int = 0) -> bool:
            return True

    solve = cfr.solve
    monkeypatch.setattr(cfr, "solve", lambda g, budget: solve(g, target=0, budget=Spent()))
    document = run("equilibrium", [players("pending-claim.toml", n, tmp_path)], {3}, monkeypatch)
    assert document["finished"] is False and document["stopped"] == cfr.TIME_BUDGET
    assert isinstance(document["worlds"], int) and document["pending_claim"]["cell"] == "C3"
    jsonschema.Draft202012Validator(schema("cunning-folk-equilibrium")).validate(document)
