"""Every committed Twisted Cryptids witness (``reports/twisted-cryptids.md``) replayed from
a legal setup, its recorded result checked under each reading.

The replay does not call the searches that found the witnesses: a witness with moves is
replayed by finding, at each step, the legal move the model describes in those words (so
every move is legal from the deal); a seeded witness is replayed from its deal and seed
(``position.replay``), every move checked by ``step``. The recorded results are then
recomputed by stepping the model under each reading.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ruleslawyer.checks.twisted_cryptids.check import night_spots
from ruleslawyer.models.twisted_cryptids.game import builtin_game
from ruleslawyer.models.twisted_cryptids.play import (
    Move,
    Pass,
    Place,
    Refill,
    State,
    Stuck,
    describe,
    final_scores,
    legal_moves,
    night_enter,
    step,
    tie_break_humans,
    winners,
)
from ruleslawyer.solvers.twisted_cryptids.simulate import deal, replay

REPORT = Path(__file__).resolve().parents[2] / "reports" / "twisted-cryptids.md"
GAME = builtin_game()
NAMES = [s.name for s in GAME.sites]


def committed() -> dict[str, dict[str, Any]]:
    """Per finding id: the witness's position, moves and per-reading results."""
    out: dict[str, dict[str, Any]] = {}
    for section in REPORT.read_text("utf-8").split("\n## ")[1:]:
        point = section.split("\n", 1)[0].strip()
        block = re.search(r"```json\n(.*?)\n```", section, re.S)
        if block is None:
            continue
        lines = block.group(1).split("\n")
        rows = re.findall(r"^\| `([^`]+)` \| `(.*)` \|$", section, re.M)
        out[point] = {
            "position": json.loads(lines[0]),
            "moves": json.loads(lines[1]) if len(lines) > 1 else [],
            "results": {k: json.loads(v) for k, v in rows},
        }
    return out


WITNESSES = committed()


def ruled(state: State, point: str, reading: str) -> State:
    rulings = dict(state.rulings)
    rulings[f"twisted-cryptids/{point}"] = reading
    return replace(state, rulings=tuple(sorted(rulings.items())))


def by_description(state: State, moves: list[str], *, refills: bool = False) -> State:
    """Play ``moves`` (the model's own words), each the one legal move so described
    (``refills``: the list leaves out refills that keep the hand)."""
    for text in moves:
        while refills and state.phase == "refill" and not text.endswith("draws up"):
            state = step(state, Refill())
        if text == "the Day: every player passes three times":
            while state.phase == "day":
                state = step(state, Pass())
            continue
        matching = [m for m in legal_moves(state) if describe(state, m) == text]
        assert matching, f"no legal move reads {text!r} in phase {state.phase}"
        state = step(state, matching[0])
    return state


def seeded(position: dict[str, Any]) -> tuple[State, Any]:
    r = position["replay"]
    return replay(GAME, r["players"], r["seed"], r["moves_before"], r["rulings"])


def test_every_witness_of_the_report_is_replayed():
    assert set(WITNESSES) == set(CHECKS)


def check_deadlock(w: dict[str, Any]) -> None:
    pos = w["position"]
    state = by_description(deal(GAME, pos["players"], 0), w["moves"][:-2])
    # stopped where the returning player must place: the Night's first steps of others done
    state = by_description(state, w["moves"][-2:])
    while state.phase != "night-place":
        state = step(state, legal_moves(state)[0])
    assert state.players[state.actor() or 0] == pos["returning"]
    assert NAMES[state.encounter or 0] == pos["encounter"]
    assert legal_moves(state) == (Stuck(),)
    assert w["results"]["constrained"]["legal Sites"] == []
    free = legal_moves(ruled(state, "night-placement-limits", "free"))
    assert [NAMES[m.site] for m in free] == w["results"]["free"]["legal Sites"]
    assert all(isinstance(m, Place) for m in free)


def check_optional_move(w: dict[str, Any]) -> None:
    pos = w["position"]
    players = len(pos["hiding_spots"])
    for reading, result in w["results"].items():
        state = deal(GAME, players, 0, {"twisted-cryptids/optional-move-constraints": reading})
        state = by_description(state, w["moves"])
        assert state.phase == "night-move" and state.players[state.actor() or 0] == pos["mover"]
        # The position printed is the Night position the move is made in, not the setup.
        assert night_spots(state) == pos["hiding_spots"]
        target = NAMES.index(pos["target"])
        legal = any(isinstance(m, Move) and m.site == target for m in legal_moves(state))
        assert ("legal" if legal else "illegal (the cap)") == result


def check_own_site(w: dict[str, Any]) -> None:
    # "You may not place a Hiding Spot token on a Site that already has one of your Hiding
    # Spot tokens" (Setup): under binds the Night move onto the mover's other Site is not
    # legal; under setup-only it is. Replayed move by move from the deal.
    pos = w["position"]
    for reading, result in w["results"].items():
        state = deal(
            GAME, len(pos["hiding_spots"]), 0, {"twisted-cryptids/night-own-site": reading}
        )
        state = by_description(state, w["moves"])
        assert state.phase == "night-move" and state.players[state.actor() or 0] == pos["mover"]
        assert night_spots(state) == pos["hiding_spots"]
        target = NAMES.index(pos["target"])
        assert target in state.spots[state.actor() or 0]
        legal = any(isinstance(m, Move) and m.site == target for m in legal_moves(state))
        assert ("legal" if legal else "illegal (one of your spots there)") == result
    assert w["results"] == {"binds": "illegal (one of your spots there)", "setup-only": "legal"}


def check_myth_floor(w: dict[str, Any]) -> None:
    state, move = seeded(w["position"])
    p = state.actor() or 0
    for reading, result in w["results"].items():
        assert step(ruled(state, "myth-floor", reading), move).myth[p] == result


def check_scope(w: dict[str, Any]) -> None:
    state, move = seeded(w["position"])
    for reading, result in w["results"].items():
        after = step(ruled(state, "encounter-site-scope", reading), move)
        if after.phase == "choose":
            at: Any = [NAMES[s] for s in after.tied]
        elif after.encounter is None:
            at = "no Encounter"
        else:
            at = [NAMES[after.encounter]]
        assert result == {"encounter at": at}


def check_tie_break(w: dict[str, Any]) -> None:
    state, move = seeded(w["position"])
    after = step(state, move)
    assert after.phase == "over"
    for reading, result in w["results"].items():
        end = ruled(after, "tie-break-count", reading)
        scores = dict(zip(end.players, final_scores(end), strict=True))
        assert scores == result["final_scores"]
        assert [end.players[p] for p in winners(end)] == result["winners"]
        for name, tally in result.get("tally", {}).items():
            assert tie_break_humans(end, end.players.index(name)) == tally


def check_reveal_order(w: dict[str, Any]) -> None:
    state, move = seeded(w["position"])
    p = state.actor() or 0
    for reading, result in w["results"].items():
        assert step(ruled(state, "dusk-reveal-order", reading), move).myth[p] == result


def check_night_order(w: dict[str, Any]) -> None:
    state, move = seeded(w["position"])
    after = step(state, move)
    pos = w["position"]
    site = NAMES.index(pos["site"])
    racers = (after.players.index(pos["places"]), after.players.index(pos["may_move"]))
    assert all(site not in after.spots[p] for p in racers)
    for reading, result in w["results"].items():
        night = night_enter(
            ruled(replace(after, phase="night-move", turn=0), "night-order", reading)
        )
        night = by_description(night, result["moves"], refills=True)
        while night.phase in ("night-move", "night-place", "refill"):  # the rest: refills
            night = step(night, legal_moves(night)[0])
        holders = [night.players[p] for p in racers if site in night.spots[p]]
        assert holders == result[pos["site"]]


def check_event_chooser(w: dict[str, Any]) -> None:
    state, _ = seeded(w["position"])
    assert GAME.events[state.event_deck[0]].name == w["position"]["event"]
    for reading, result in w["results"].items():
        st = ruled(state, "event-chooser", reading)
        choosers = []
        while st.phase == "dawn":
            choosers.append(st.players[st.actor() or 0])
            st = step(st, legal_moves(st)[0])
        assert choosers == result["chosen by"]


def check_boxed(w: dict[str, Any]) -> None:
    state, move = seeded(w["position"])
    after = step(state, move)
    p = after.players.index(w["position"]["player"])
    for reading, result in w["results"].items():
        st = night_enter(ruled(after, "boxed-spot-move", reading))
        offered = st.phase == "night-move" and st.actor() == p
        assert offered == result["optional move"]
        sites = sorted({NAMES[m.site] for m in legal_moves(st) if isinstance(m, Move)})
        assert (sites if offered else []) == result["Sites to move to"]


def check_player_count(w: dict[str, Any]) -> None:
    from ruleslawyer.errors import IllegalMove

    for reading, result in w["results"].items():
        try:
            deal(GAME, w["position"]["players"], 0, {"twisted-cryptids/player-count": reading})
        except IllegalMove:
            assert result.startswith("not a legal player count")
        else:
            assert result.startswith("a legal game")


def check_sinkhole(w: dict[str, Any]) -> None:
    from ruleslawyer.rulebook import books as rulebooks

    lines = rulebooks.text("twisted-cryptids-rules.txt").splitlines()
    mentions = [i for i, t in enumerate(lines, start=1) if "sinkhole" in t.lower()]
    assert mentions == w["position"]["component_list_lines"]
    assert w["position"]["rule_lines"] == []


CHECKS = {
    "twisted-cryptids/relocation-deadlock": check_deadlock,
    "twisted-cryptids/night-placement-limits": check_deadlock,
    "twisted-cryptids/optional-move-constraints": check_optional_move,
    "twisted-cryptids/night-own-site": check_own_site,
    "twisted-cryptids/myth-floor": check_myth_floor,
    "twisted-cryptids/encounter-site-scope": check_scope,
    "twisted-cryptids/tie-break-count": check_tie_break,
    "twisted-cryptids/dusk-reveal-order": check_reveal_order,
    "twisted-cryptids/night-order": check_night_order,
    "twisted-cryptids/event-chooser": check_event_chooser,
    "twisted-cryptids/boxed-spot-move": check_boxed,
    "twisted-cryptids/player-count": check_player_count,
    "twisted-cryptids/sinkhole-token": check_sinkhole,
}


@pytest.mark.parametrize("point", sorted(CHECKS))
def test_committed_witness_replays(point):
    assert point in WITNESSES, f"{point} has no witness in {REPORT.name}"
    CHECKS[point](WITNESSES[point])


def _spot_lists(position: Any) -> list[list[str]]:
    """Every list of one player's Hiding Spots in a witness position."""
    if isinstance(position, dict):
        out = []
        for key, value in position.items():
            if key.startswith("hiding_spots") and isinstance(value, list):
                out.append(value)
            elif key.startswith("hiding_spots") and isinstance(value, dict):
                out += list(value.values())
        return out
    return []


def test_witness_spots_are_listed_in_stack_order() -> None:
    # "Each Stack will correspond to one of your numbered Hiding Spot tokens": a witness lists
    # a player's Hiding Spots as Stacks 1..3, each a Site, "on a Stack" or "boxed"
    witnesses = committed()
    lists = [s for w in witnesses.values() for s in _spot_lists(w["position"])]
    assert len(lists) >= 10
    assert all(len(spots) == 3 for spots in lists)
    boxed = witnesses["twisted-cryptids/boxed-spot-move"]["position"]
    assert boxed["hiding_spots"][boxed["boxed_stack"] - 1] == "boxed"
    # replayed: the tie-break-count witness's spots before the last Night, Stack by Stack
    pos = witnesses["twisted-cryptids/tie-break-count"]["position"]
    state, move = seeded(pos)
    state = step(state, move)
    for p, name in enumerate(state.players):
        for j, site in enumerate(state.snapshot[p]):
            shown = pos["hiding_spots_before_final_night"][name][j]
            assert shown == (NAMES[site] if site >= 0 else "on a Stack")
