"""Two traps on one node (a board with two build sites there): the crew's choice of which
to destroy, and ``kaelyfos/which-trap`` (which one catches a bloodsucker), through the CLI.

The board is ``examples/kaelyfos/two-traps-board.toml``: the six face-up cards in a line
(Scarab, glowing fold, bony protrusion, exterior orifice, interior orifice, vesicle
cluster), two build sites on the exterior orifice, two trap tokens, a deck of two Creeps
(spawn nothing, move 1).
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleslawyer.budget import Budget
from ruleslawyer.cli.main import cli
from ruleslawyer.models.kaelyfos.files import load_position
from ruleslawyer.models.kaelyfos.points import in_force
from ruleslawyer.models.kaelyfos.resolve import Action, Card, Position, Trap, resolve, step
from ruleslawyer.solvers.kaelyfos.advise import rank
from ruleslawyer.solvers.kaelyfos.reference import reference_options

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "kaelyfos"
X = "exterior-orifice"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.output


def _json(*args: str) -> dict:
    code, out = _run(*args, "--format", "json")
    assert code == 0, out
    return json.loads(out)


def _copy(tmp_path: Path, name: str, old: str = "", new: str = "") -> Path:
    """An example beside a copy of the board, with ``old`` replaced by ``new``."""
    (tmp_path / "two-traps-board.toml").write_text(
        (EXAMPLES / "two-traps-board.toml").read_text("utf-8"), "utf-8"
    )
    text = (EXAMPLES / name).read_text("utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new), "utf-8")
    return path


def test_step_lists_which_trap_catches_it() -> None:
    # The bloodsucker on the bony protrusion moves 1 onto the exterior orifice, which holds
    # an empty trap and one holding 1: "it is instantly trapped ...; place it on the trap
    # token", but there are two. Into the empty trap: both hold 1 (supply 4, no token
    # free). Into the other: it has caught 2 and "is destroyed. Return it and the
    # bloodsuckers to the supply": supply 6, its token free again. Nobody chooses (the
    # default reading, open); under which-trap=crew the crew does.
    doc = _json("kaelyfos", "step", EXAMPLES / "two-traps-step.toml")
    (choice,) = doc["choices"]
    assert choice["point"] == "kaelyfos/which-trap"
    assert choice["decided_by"] == "nobody: the rules are silent"
    into = {o["option"]: o["result"] for o in choice["options"]}
    assert into["into the empty trap"]["traps"] == [
        {"node": X, "caught": 1},
        {"node": X, "caught": 1},
    ]
    assert into["into the empty trap"]["supply"] == 4
    assert into["into the trap holding 1"]["traps"] == [{"node": X, "caught": 0}]
    assert into["into the trap holding 1"]["supply"] == 6
    assert into["into the trap holding 1"]["trap_tokens"] == 1
    crew = _json(
        "kaelyfos", "step", EXAMPLES / "two-traps-step.toml", "--ruling", "kaelyfos/which-trap=crew"
    )
    assert crew["choices"][0]["decided_by"] == "crew"
    assert crew["choices"][0]["options"] == choice["options"]


def test_the_order_traps_are_listed_in_changes_nothing(tmp_path: Path) -> None:
    listed = '{ node = "exterior-orifice", caught = 1 }, { node = "exterior-orifice", caught = 0 }'
    swapped = '{ node = "exterior-orifice", caught = 0 }, { node = "exterior-orifice", caught = 1 }'
    path = _copy(tmp_path, "two-traps-step.toml", listed, swapped)
    assert _run("kaelyfos", "step", path) == _run(
        "kaelyfos", "step", EXAMPLES / "two-traps-step.toml"
    )
    for name in ("two-traps-advise-destroy.toml", "two-traps-advise-catch.toml"):
        text = (EXAMPLES / name).read_text("utf-8")
        old = listed if listed in text else swapped
        path = _copy(tmp_path, name, old, swapped if old == listed else listed)
        args = ("--triggers", "2", "--format", "json")
        assert _run("kaelyfos", "advise", path, *args) == _run(
            "kaelyfos", "advise", EXAMPLES / name, *args
        )


def test_a_destroy_in_a_position_file_is_the_crews_choice_of_trap() -> None:
    # ben on the exterior orifice destroys a trap before the card (no bloodsucker moves:
    # the card's move is 0). Which one is his: the empty one (the half-full trap stays) or
    # the one holding 1 (its bloodsucker goes to the supply: "Return it and the
    # bloodsuckers to the supply", kaelyfos/destroyed-bloodsuckers=supply).
    loaded = load_position(EXAMPLES / "two-traps-step.toml")
    position = replace(
        loaded.position,
        explorers=(("ben", X),),
        bloodsuckers=(),
        supply=5,
        actions=(Action("destroy", "ben"),),
        card=replace(loaded.position.card, move=0),
    )
    (choice,) = step(position).choices
    decision, results = choice
    assert decision.crew and decision.point is None
    assert decision.labels == ("the empty trap", "the trap holding 1")
    assert [r.traps for r in results] == [(Trap(X, 1),), (Trap(X, 0),)]
    assert [r.supply for r in results] == [5, 6]
    # a destroy naming its target takes that trap, and no choice is left
    aimed = replace(position, actions=(Action("destroy", "ben", Trap(X, 1)),))
    assert step(aimed).choices == () and step(aimed).result == results[1]


def test_caught_bloodsuckers_leave_their_own_traps() -> None:
    # kaelyfos/caught-move=yes: "it leaves its trap ... and moves like a free one". Two
    # traps on the exterior orifice hold 1 each; ben on the interior orifice next to it;
    # move 1. Each caught bloodsucker leaves its own trap and steps onto ben's node: both
    # traps end empty, ben takes 2.
    loaded = load_position(EXAMPLES / "two-traps-step.toml")
    position = replace(
        loaded.position,
        explorers=(("ben", "interior-orifice"),),
        bloodsuckers=(),
        traps=(Trap(X, 1), Trap(X, 1)),
        supply=4,
    )
    chosen = in_force({"kaelyfos/caught-move": "yes"})
    result = resolve(position, chosen).result
    assert result.traps == (Trap(X, 0), Trap(X, 0))
    assert dict(result.distress) == {"ben": 2}


def test_advise_destroys_the_half_full_trap_and_rebuilds_elsewhere() -> None:
    # examples/kaelyfos/two-traps-advise-destroy.toml (its comment works the figures): ben
    # destroys the trap holding 1 and ada builds with the freed token: 0. The empty trap
    # destroyed instead: 1 (the half-full trap takes one bloodsucker and is destroyed,
    # the second attacks ben). Doing nothing: 1 (ada is attacked).
    doc = _json("kaelyfos", "advise", EXAMPLES / "two-traps-advise-destroy.toml")
    values = {o["option"]: (o["expected_distress"], o["worst_distress"]) for o in doc["options"]}
    best = (
        "ben destroys on exterior-orifice (the trap holding 1), then ada builds on interior-orifice"
    )
    assert doc["options"][0]["option"] == best
    assert values[best] == ("0", 0)
    assert values[
        "ben destroys on exterior-orifice (the empty trap), then ada builds on interior-orifice"
    ] == ("1", 1)
    assert values["nothing"] == ("1", 1)
    assert doc["options"][0]["actions"][0] == {
        "action": "destroy",
        "by": "ben",
        "trap": {"node": X, "caught": 1},
    }


def test_advise_ranks_which_trap_under_each_reading() -> None:
    # examples/kaelyfos/two-traps-advise-catch.toml, 2 triggers, both Creeps (spawn nothing,
    # move 1). Doing nothing now: the first Creep moves the bloodsucker on the bony
    # protrusion onto ben's node (caught) and the four on the glowing fold onto the bony
    # protrusion. Which trap caught it:
    # - the one holding 1: destroyed, its token free; ben builds a second trap beside the
    #   empty one (1 material): the second Creep's four are all caught (1 + 1 + 2): 0;
    # - the empty one: both hold 1, no token; the best is to destroy one and build again
    #   (holding 1 and 0: room for 3): the fourth attacks ben: 1.
    # open (default): advise/open-ties=uniform 1/2, worst 1, best 0; crew: the crew puts
    # it in the half-full trap: 0.
    path = EXAMPLES / "two-traps-advise-catch.toml"
    figures = {}
    for extra in ([], ["--open-ties", "worst"], ["--open-ties", "best"]):
        doc = _json("kaelyfos", "advise", path, "--triggers", "2", *extra)
        figures[tuple(extra)] = {o["option"]: o["expected_distress"] for o in doc["options"]}
        assert doc["open_ties_met"] == ["kaelyfos/which-trap"]
    assert figures[()]["nothing"] == "1/2"
    assert figures[("--open-ties", "worst")]["nothing"] == "1"
    assert figures[("--open-ties", "best")]["nothing"] == "0"
    crew = _json(
        "kaelyfos", "advise", path, "--triggers", "2", "--ruling", "kaelyfos/which-trap=crew"
    )
    assert crew["options"][0] == {
        **crew["options"][0],
        "option": "nothing",
        "expected_distress": "0",
    }
    assert crew["open_ties_met"] == []
    assert Fraction(figures[()]["nothing"]) == Fraction(1, 2)


def test_check_reports_which_trap_with_a_witness() -> None:
    code, out = _run(
        "check", EXAMPLES / "two-traps-board.toml", "--format", "json", "--fail-on", "none"
    )
    assert code == 0, out
    (game,) = json.loads(out)["games"]
    found = next(f for f in game["findings"] if f["id"] == "kaelyfos/which-trap")
    assert (found["kind"], found["status"]) == ("gap", "open")
    results = found["witness"]["results"]
    assert set(results) == {"into the empty trap", "into the trap holding 1"}
    assert results["into the empty trap"] != results["into the trap holding 1"]
    # the built-in board has one build site per node: proved quiet, no search
    code, out = _run("check", "kaelyfos", "--format", "json")
    (game,) = json.loads(out)["games"]
    found = next(f for f in game["findings"] if f["id"] == "kaelyfos/which-trap")
    assert found["kind"] == "info" and "two build sites" in found["message"]


def _board_with_cards():
    """The example board with a varied deck: Creep x2, Surge (spawn B, A; move 2), Lurk
    (spawn C; move 0)."""
    import tomllib

    from ruleslawyer.graphs.board import parse_board, require_sound

    doc = tomllib.loads((EXAMPLES / "two-traps-board.toml").read_text("utf-8"))
    doc["behavior"] += [
        {"name": "Surge", "spawn": ["B", "A"], "move": 2},
        {"name": "Lurk", "spawn": ["C"], "move": 0},
    ]
    return require_sound(parse_board(doc, "two traps"), "two traps")


BOARD = _board_with_cards()
FACE_UP = [n for n in BOARD.node_ids if n != BOARD.scarab]
SITES = [n for n in FACE_UP if BOARD.node(n).build_sites]


@st.composite
def two_trap_positions(draw) -> Position:
    """A position on the two-traps board; the exterior orifice may hold two traps."""
    crew = draw(st.lists(st.sampled_from(BOARD.node_ids), min_size=1, max_size=2))
    free = draw(st.dictionaries(st.sampled_from(FACE_UP), st.integers(1, 2), max_size=2))
    double = draw(st.booleans())
    if double:
        traps = (Trap(X, draw(st.integers(0, 1))), Trap(X, draw(st.integers(0, 1))))
    else:
        sites = draw(st.lists(st.sampled_from(SITES), unique=True, max_size=2))
        traps = tuple(Trap(n, draw(st.integers(0, 1))) for n in sites)
    used = sum(free.values()) + sum(t.caught for t in traps)
    if used > BOARD.supply:
        free, used = {}, sum(t.caught for t in traps)
    return Position(
        board=BOARD,
        nests=(("A", "vesicle-cluster"), ("B", "bony-protrusion"), ("C", "glowing-fold")),
        supply=draw(st.integers(0, BOARD.supply - used)),
        card=Card((), 0),
        explorers=tuple((f"e{i}", n) for i, n in enumerate(crew)),
        bloodsuckers=tuple(sorted(free.items())),
        traps=tuple(draw(st.permutations(traps))),
    )


@settings(max_examples=30, deadline=None)
@given(
    two_trap_positions(),
    st.lists(st.sampled_from(["Creep", "Surge", "Lurk", "Hatch"]), unique=True, max_size=3),
    st.integers(1, 2),
    st.integers(0, 1),
    st.sampled_from(
        [
            {},
            {"kaelyfos/which-trap": "crew"},
            {"kaelyfos/trapped-attack": "yes", "kaelyfos/spawn-into-trap": "caught"},
            {"kaelyfos/caught-move": "yes", "kaelyfos/destroyed-token": "spent"},
        ]
    ),
    st.sampled_from(["uniform", "worst", "best"]),
)
def test_two_trap_advice_matches_brute_force(
    start: Position, spent: list[str], triggers: int, material: int, rulings, ties: str
) -> None:
    chosen = in_force(rulings)
    ranking = rank(start, material, tuple(spent), triggers, chosen, Budget(), ties)
    brute = reference_options(start, material, tuple(spent), triggers, chosen, ties)
    assert ranking.finished
    for option in ranking.options:
        assert option.value.key() == brute[option.actions]
    assert min(brute.values()) == ranking.options[0].value.key()
    # the order the traps are listed in never shows
    flipped = replace(start, traps=start.traps[::-1])
    again = rank(flipped, material, tuple(spent), triggers, chosen, Budget(), ties)
    assert [(o.label, o.value) for o in again.options] == [
        (o.label, o.value) for o in ranking.options
    ]
