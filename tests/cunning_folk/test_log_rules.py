"""`deduce` honours the rulings in force and rejects logs no legal game produces.

Each case is worked out by hand from the rulebook sentence it cites; each failed on
the code before this change (rulings other than elder-face-up-picks were ignored, and
illegal logs were answered with a count of worlds).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.errors import InconsistentRecord
from ruleslawyer.models.cunning_folk.record import dump_log
from ruleslawyer.solvers.cunning_folk.deduce import deduce
from ruleslawyer.solvers.cunning_folk.worlds import face_up_after, filter_worlds, replay
from tests.cunning_folk.helpers import log_of, random_recording


def doc(*events: dict, setup: str = "standard", **keys) -> dict:
    return {"setup": setup, **keys, "players": ["me", "bea", "cal"], "event": list(events)}


def claim(player: str, cell: str, role: str, revealed: str | None = None) -> dict:
    event = {"type": "claim", "player": player, "cell": cell, "role": role}
    if revealed is not None:
        event |= {"challenged": True, "revealed": revealed}
    return event


def pick(player: str, cell: str, role: str) -> dict:
    return {"type": "reveal", "player": player, "cell": cell, "revealed": role}


def swap(player: str, a: str, b: str, **more) -> dict:
    return {"type": "swap", "player": player, "cells": [a, b], **more}


def run(tmp_path: Path, document: dict, *args: str):
    path = tmp_path / "log.toml"
    path.write_text(dump_log(document))
    return CliRunner().invoke(cli, ["cunning-folk", "deduce", str(path), *args])


def one_line(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# --- rulings in force ------------------------------------------------------------------

# "you cannot pass the turn by making no claim" when the card is the liar: bea's bluff is
# challenged and shows the liar in A1 (face up); then cal looks at A1 and passes.
LIAR_SHOWN = doc(
    claim("bea", "A1", "good-witch", revealed="liar"),
    {"type": "pass", "player": "cal", "cell": "A1"},
    setup="bonus",
    bonus=["liar"],
)


def test_pass_on_a_face_up_liar_breaks_must_claim(tmp_path: Path) -> None:
    line = one_line(run(tmp_path, LIAR_SHOWN))
    assert "event[1]: found 'pass cal A1'" in line
    assert "cunning-folk/liar-face-up=must-claim" in line


@pytest.mark.parametrize("where", ["option", "log"])
def test_pass_on_a_face_up_liar_is_legal_under_may_pass(tmp_path: Path, where: str) -> None:
    ruling = {"cunning-folk/liar-face-up": "may-pass"}
    if where == "log":
        result = run(tmp_path, {**LIAR_SHOWN, "rulings": ruling}, "--format", "json")
    else:
        args = ("--ruling", "cunning-folk/liar-face-up=may-pass", "--format", "json")
        result = run(tmp_path, LIAR_SHOWN, *args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    # A1 is the liar; the other 8 cells hold 2 good witches, the good elder, 2 evil
    # witches, the evil elder and 2 villagers: 8!/(2!·2!·2!) = 5040 worlds.
    assert out["worlds"] == 5040
    assert out["cells"]["A1"]["certain"] == "liar" and out["cells"]["A1"]["face_up"]
    assert out["rulings"] == ruling


# "Whenever you swap face-up townsfolk, turn them face-down." bea's evil-witch claim is
# challenged and true: A1 shows an evil witch. The other 8 cells: 2 good witches, good
# elder, evil witch, evil elder, 3 villagers: 8!/(2!·3!) = 3360 deals.
TRUE_WITCH = (claim("bea", "A1", "evil-witch", revealed="evil-witch"),)


def test_turn_down_hides_the_swap(tmp_path: Path) -> None:
    # Default reading: both cards turn face down whatever bea did, so the swap is hidden:
    # 2 · 3360 worlds; A1 still holds the evil witch unless swapped (3360), or when
    # swapped and B1 held the other evil witch (3360 · 1/8 = 420).
    result = run(tmp_path, doc(*TRUE_WITCH, swap("bea", "A1", "B1")), "--format", "json")
    out = json.loads(result.output)
    assert out["worlds"] == 6720
    assert out["cells"]["A1"]["face_up"] is False
    assert out["cells"]["A1"]["counts"]["evil-witch"] == 3780


def test_only_if_swapped_shows_a_swap_left_as_it_was(tmp_path: Path) -> None:
    # Under only-if-swapped a face-up card stays up when not swapped: everyone sees the
    # outcome, the log records it, and A1 stays a face-up evil witch in all 3360 worlds.
    ruling = ("--ruling", "cunning-folk/swap-face-up=only-if-swapped", "--format", "json")
    kept = doc(*TRUE_WITCH, swap("bea", "A1", "B1", swapped=False))
    out = json.loads(run(tmp_path, kept, *ruling).output)
    assert out["worlds"] == 3360
    assert out["cells"]["A1"] == {
        "face_up": True,
        "certain": "evil-witch",
        "counts": {"evil-witch": 3360},
        "why": [0],
    }
    moved = doc(*TRUE_WITCH, swap("bea", "A1", "B1", swapped=True))
    out = json.loads(run(tmp_path, moved, *ruling).output)
    assert out["cells"]["B1"]["certain"] == "evil-witch"
    assert out["cells"]["A1"]["face_up"] is False and out["cells"]["B1"]["face_up"] is False
    # The outcome is public there, so the log must say it ...
    line = one_line(run(tmp_path, doc(*TRUE_WITCH, swap("bea", "A1", "B1")), *ruling))
    assert "event[1].swapped: found nothing" in line and "only-if-swapped" in line
    # ... and under turn-down it is not, so another player's swap cannot say it.
    line = one_line(run(tmp_path, kept))
    assert "event[1].swapped: found False" in line


def test_may_decline_lets_an_earned_swap_go(tmp_path: Path) -> None:
    # "If no one challenges your claim, take the action": under must-act the swap must
    # follow the unchallenged evil-witch claim; under may-decline the turn may end.
    declined = doc(claim("bea", "A1", "evil-witch"), claim("cal", "B1", "good-witch"))
    line = one_line(run(tmp_path, declined))
    assert "event[1]: found 'claim cal B1 good-witch'" in line
    assert "the swap earned at event[0] first (cunning-folk/optional-action=must-act)" in line
    ok = run(tmp_path, declined, "--ruling", "cunning-folk/optional-action=may-decline")
    assert ok.exit_code == 0, ok.output


def test_elder_run_stop(tmp_path: Path) -> None:
    # "If it's evil, continue.": a good-elder run that found one evil card and then ends
    # without a failing pick or a win is legal only under may-stop.
    stopped = doc(
        claim("bea", "A1", "good-elder"),
        pick("bea", "A1", "evil-witch"),
        claim("cal", "B1", "good-witch"),
    )
    line = one_line(run(tmp_path, stopped))
    assert "cunning-folk/elder-run-stop=must-continue" in line
    ok = run(tmp_path, stopped, "--ruling", "cunning-folk/elder-run-stop=may-stop")
    assert ok.exit_code == 0, ok.output


def test_face_down_only_forbids_picking_a_face_up_card(tmp_path: Path) -> None:
    # bea's challenged true good-witch claim leaves A1 face up; cal's evil-elder run picks
    # it: counted under the default reading (A1 opposes the evil elder), illegal under
    # face-down-only.
    events = doc(
        claim("bea", "A1", "good-witch", revealed="good-witch"),
        claim("cal", "B2", "evil-elder"),
        pick("cal", "A1", "good-witch"),
    )
    assert run(tmp_path, events).exit_code == 0
    ruled = run(tmp_path, events, "--ruling", "cunning-folk/elder-face-up-picks=face-down-only")
    assert "elder-face-up-picks=face-down-only" in one_line(ruled)


# --- logs no legal game produces -------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "found", "rule"),
    [
        (  # "The vagrant trades places": no vagrant card in a standard game
            doc({"type": "trade", "player": "bea", "cells": ["A1", "B1"]}),
            "event[0]: found 'trade A1 B1'",
            "a standard game has no vagrant",
        ),
        (  # "The two evil witches let you rearrange two townsfolk": no evil-witch claim
            doc(claim("bea", "A1", "good-witch"), swap("bea", "A1", "B1")),
            "event[1]: found 'swap A1 B1'",
            "right after the same player's unchallenged or true evil-witch claim",
        ),
        (  # a bluffed evil witch caught by a challenge earns nothing
            doc(claim("bea", "A1", "evil-witch", revealed="villager"), swap("bea", "A1", "B1")),
            "event[1]: found 'swap A1 B1'",
            "evil-witch claim",
        ),
        (  # another player's swap
            doc(claim("bea", "A1", "evil-witch"), swap("cal", "A1", "B1")),
            "event[1]: found 'swap A1 B1'",
            "evil-witch claim",
        ),
        (  # a reveal outside any elder run
            doc({"type": "reveal", "cell": "B3", "revealed": "evil-elder"}),
            "event[0]: found 'reveal B3 evil-elder'",
            "a reveal only in an elder run",
        ),
        (  # a vagrant trade that does not move the vagrant's card
            doc(
                claim("bea", "A1", "vagrant"),
                {"type": "trade", "cells": ["B1", "B2"]},
                setup="bonus",
                bonus=["vagrant"],
            ),
            "event[1]: found 'trade B1 B2'",
            "a trade of the vagrant's cell A1",
        ),
        (  # the same card picked twice in one run
            doc(
                claim("bea", "A1", "good-elder"),
                pick("bea", "A1", "evil-witch"),
                pick("bea", "A1", "evil-witch"),
            ),
            "event[2]: found 'reveal bea A1 evil-witch'",
            "A1 is already picked in this run",
        ),
        (  # a run that found all three evil cards won: the game is over
            doc(
                claim("bea", "A1", "good-elder"),
                pick("bea", "A1", "evil-witch"),
                pick("bea", "B1", "evil-witch"),
                pick("bea", "C1", "evil-elder"),
                claim("cal", "B2", "good-witch"),
            ),
            "event[4]: found 'claim cal B2 good-witch'",
            "no event after the game ended (bea identified every card opposing the good-elder",
        ),
        (  # bea caught bluffing twice is ostracised and cannot play on
            doc(
                claim("bea", "A1", "good-witch", revealed="villager"),
                claim("bea", "B1", "good-witch", revealed="villager"),
                claim("bea", "C1", "good-witch"),
            ),
            "event[2]: found 'claim bea C1 good-witch'",
            "bea is ostracised",
        ),
        (  # scoundrels: an answer to a declaration must reveal a face-down card
            doc(
                claim("bea", "A1", "good-elder"),
                pick("bea", "A1", "evil-witch"),
                pick("cal", "A1", "evil-witch"),
                setup="scoundrels",
            ),
            "event[2]: found 'reveal cal A1 evil-witch'",
            "a face-down card",
        ),
        (  # scoundrels: answers go in turn order from the declarer's left (cal, then me):
            # once me, the last, has answered, the declaration stands and the game is over
            doc(
                claim("bea", "A1", "good-elder"),
                pick("bea", "A1", "evil-witch"),
                pick("me", "B1", "villager"),
                pick("cal", "B2", "villager"),
                setup="scoundrels",
            ),
            "event[3]: found 'reveal cal B2 villager'",
            "no event after the game ended (nobody found a card opposing bea's good-elder",
        ),
    ],
)
def test_illegal_log_is_one_line_naming_event_and_rule(
    tmp_path: Path, document: dict, found: str, rule: str
) -> None:
    line = one_line(run(tmp_path, document))
    assert f"log.toml: {found}" in line and rule in line, line


def test_a_declaration_answered_in_order_is_legal(tmp_path: Path) -> None:
    document = doc(
        claim("bea", "A1", "good-elder"),
        pick("bea", "A1", "evil-witch"),
        pick("cal", "B1", "villager"),
        pick("me", "B2", "villager"),
        setup="scoundrels",
    )
    assert run(tmp_path, document).exit_code == 0


@pytest.mark.parametrize(
    "seed", [*range(12), *(pytest.param(s, marks=pytest.mark.slow) for s in range(12, 150))]
)
def test_games_played_under_any_rulings_give_legal_logs(seed: int) -> None:
    # No false rejection: every log the state machine records under random readings
    # (written to its rulings table) is accepted, and the truth is among its worlds.
    setups = ("standard", "bonus", "scoundrels")
    recording = random_recording(seed, max_moves=40, setups=setups, any_rules=True)
    log = log_of(recording.document)
    assert replay(log, recording.deal, recording.hidden) == recording.final.village
    assert face_up_after(log) == recording.final.face_up
    worlds = filter_worlds(log)
    assert worlds.impossible is None and worlds.total > 0


def test_inconsistent_with_the_cards_is_still_named() -> None:
    with pytest.raises(InconsistentRecord, match=r"event\[2\]"):
        deduce(
            log_of(
                doc(
                    claim("bea", "A1", "good-witch", revealed="evil-elder"),
                    claim("cal", "B1", "good-witch", revealed="good-witch"),
                    claim("me", "C1", "good-witch", revealed="evil-elder"),
                )
            )
        )


# --- claims: any character may be claimed ------------------------------------------------


# "You can declare that you've found a villager if you like" and "You can lie about which
# character is on the card": a bonus game with all three villagers replaced still lets bea
# claim a villager, and a standard game lets her claim the pirate (not in the game). Each
# bluff is legal; challenged, it shows another card and earns her a suspected card.
@pytest.mark.parametrize(
    "document",
    [
        doc(claim("bea", "A1", "villager"), setup="bonus", bonus=["cat", "pirate", "vagrant"]),
        doc(
            claim("bea", "A1", "villager", revealed="cat"),
            setup="bonus",
            bonus=["cat", "pirate", "vagrant"],
        ),
        doc(claim("bea", "A1", "pirate")),
        doc(claim("bea", "A1", "pirate", revealed="villager")),
    ],
)
def test_a_claim_of_a_character_not_in_the_game_is_legal(tmp_path: Path, document: dict) -> None:
    result = run(tmp_path, document, "--format", "json")
    assert result.exit_code == 0, result.output


# --- the challenger of a true claim --------------------------------------------------------


# "If you were telling the truth ... The player who challenged you must take a suspected
# card ... If they already have a suspected card, then the card is flipped to the
# ostracized side and she or she is out of the game." Two players: bea challenges two
# true claims of mine, so she is ostracised and I win; a third claim comes after the end.
def two(*events: dict, **keys) -> dict:
    return {"setup": "standard", **keys, "players": ["me", "bea"], "event": list(events)}


def test_a_two_player_log_ends_with_the_challengers_second_miss(tmp_path: Path) -> None:
    first = claim("me", "A1", "good-witch", revealed="good-witch")
    second = claim("me", "B1", "evil-witch", revealed="evil-witch")
    after = {"type": "pass", "player": "me", "cell": "C1"}
    line = one_line(run(tmp_path, two(first, second, after)))
    assert "event[2]" in line and "no event after the game ended" in line
    assert "me was the only player left after event[1]" in line
    path = tmp_path / "log.toml"
    path.write_text(dump_log({**two(first, second, after), "perspective": "me"}))
    advised = CliRunner().invoke(cli, ["cunning-folk", "advise", str(path)])
    assert advised.exit_code == 2 and "no event after the game ended" in advised.stderr
    # One miss: bea holds one suspected card, so a table saying she holds none is refused.
    result = run(tmp_path, two(first, suspected={"bea": 0}))
    assert "suspected.bea" in one_line(result) and "at least 1" in one_line(result)


def test_named_challengers_take_the_card(tmp_path: Path) -> None:
    true = claim("bea", "A1", "good-witch", revealed="good-witch")
    twice = doc({**true, "challengers": ["cal"]}, {**true, "challengers": ["cal"]})
    cal = {"type": "pass", "player": "cal", "cell": "B1"}
    line = one_line(run(tmp_path, {**twice, "event": [*twice["event"], cal]}))
    assert "event[2]" in line and "cal is ostracised" in line
    line = one_line(run(tmp_path, {**twice, "event": [*twice["event"], twice["event"][0]]}))
    assert "event[2]" in line and "challengers still in the game (cal is ostracised)" in line
    # Not named in a three-player game: no suspected card is certain, the log goes on.
    assert run(tmp_path, doc(true, true, cal)).exit_code == 0
    bad = doc({**true, "challengers": ["bea"]})
    assert "event[0].challengers" in one_line(run(tmp_path, bad))
