"""Issue 25: the Monks pronoun and the 2-player variant's leftover cards, worked out by hand."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.models.twist_of_fate.files import Position, dumps, load_deck
from ruleslawyer.models.twist_of_fate.play import (
    FACE_DOWN,
    FACE_UP,
    LUCK,
    Move,
    Rules,
    Seat,
    State,
    chance_outcomes,
    step,
)
from ruleslawyer.solvers.twist_of_fate import memory
from ruleslawyer.solvers.twist_of_fate.horizon import draw_count
from ruleslawyer.solvers.twist_of_fate.reference import solve as reference

DECK = load_deck("twist-of-fate")
RULES = Rules()
PLAYER = replace(RULES, monks_pronoun="the-player")
SET_ASIDE = replace(RULES, leftover_cards="set-aside")
FULL = ("Nancy", "Fagin", "Bill Sikes", "Mr. Bumble", "The Artful Dodger", "Mr. Brownlow")

# --- monks-pronoun ----------------------------------------------------------------------
# "Should a player play a card on "Monks" that results in him gaining a Sanctuary Point,
# the active player also loses a Sanctuary Point."
#
# Ann (Sanctuary 3, 2 Luck) holds Nancy, her last card; Bob is full, so she plays on the
# Monks (0/0). Nancy side 1 facing the Monks: they get +1 Luck -1 Shilling (1/0, no score);
# Ann takes side 0, +2 Luck: 4 Luck, she scores (4) and her Luck resets. "him" the Monks:
# they did not gain, no penalty, Ann stays on 4. "him" the player: Ann gained, she loses
# the point again: 3.
PLAYER_SCORES = State(
    seats=(Seat(luck=2, sanctuary=3, hand=("Nancy",)), Seat(in_front=FULL), Seat()),
    players=2,
    active=0,
    starter=0,
)
NANCY_ON_MONKS = Move("Nancy", 2, FACE_UP, side=1)
# Ann (3, 1 Luck) plays Mr. Bumble side 0 (+1/+1) facing the Monks at 3/3: they reach 4/4
# and gain two points; Ann takes side 1 (-1 Luck): no score. "him" the Monks: Ann loses a
# point (2); "him" the player: she gained nothing, she keeps 3.
MONKS_SCORE = State(
    seats=(
        Seat(luck=1, sanctuary=3, hand=("Mr. Bumble",)),
        Seat(in_front=FULL),
        Seat(luck=3, shilling=3),
    ),
    players=2,
    active=0,
    starter=0,
)
BUMBLE_ON_MONKS = Move("Mr. Bumble", 2, FACE_UP, side=0)


def test_the_player_scoring_on_the_monks_costs_the_point_only_when_him_is_the_player() -> None:
    monks = step(PLAYER_SCORES, NANCY_ON_MONKS, DECK, RULES)
    assert [(s.luck, s.shilling, s.sanctuary) for s in monks.seats[::2]] == [(0, 0, 4), (1, 0, 0)]
    player = step(PLAYER_SCORES, NANCY_ON_MONKS, DECK, PLAYER)
    assert player.seats[0].sanctuary == 3 and player.seats[2].sanctuary == 0


def test_the_monks_scoring_costs_the_point_only_when_him_is_the_monks() -> None:
    monks = step(MONKS_SCORE, BUMBLE_ON_MONKS, DECK, RULES)
    assert (monks.seats[0].sanctuary, monks.seats[2].sanctuary) == (2, 2)
    player = step(MONKS_SCORE, BUMBLE_ON_MONKS, DECK, PLAYER)
    assert (player.seats[0].sanctuary, player.seats[2].sanctuary) == (3, 2)


def test_the_player_reading_follows_the_penalty_size_and_a_score_elsewhere_costs_nothing() -> None:
    # Face down on the Monks, Ann raising Luck (2 -> 3): no score, no penalty either way.
    quiet = Move("Nancy", 2, FACE_DOWN, player_raises=LUCK, target_raises=LUCK)
    assert step(PLAYER_SCORES, quiet, DECK, PLAYER).seats[0].sanctuary == 3
    # Ann at 3/3 plays Mr. Bumble side 1 facing the Monks: she takes +1/+1, 4/4, two points
    # (5); one-point takes one back (4), per-point both (3).
    double = replace(
        MONKS_SCORE,
        seats=(replace(MONKS_SCORE.seats[0], luck=3, shilling=3), *MONKS_SCORE.seats[1:]),
    )
    move = Move("Mr. Bumble", 2, FACE_UP, side=1)
    assert step(double, move, DECK, PLAYER).seats[0].sanctuary == 4
    per_point = replace(PLAYER, monks_penalty_size="per-point")
    assert step(double, move, DECK, per_point).seats[0].sanctuary == 3
    assert step(double, move, DECK, RULES).seats[0].sanctuary == 5


@pytest.mark.parametrize("solve", [reference.solve, memory.solve])
def test_both_solvers_honour_the_pronoun(solve) -> None:  # type: ignore[no-untyped-def]
    # Ann's best under the-monks: Nancy side 1, 4 (no other play scores). Under the-player
    # every play ends on 3.
    position = Position(PLAYER_SCORES, ("ann", "bob"), DECK, {})
    assert solve(position, RULES).guaranteed_sanctuary == 4
    assert solve(position, PLAYER).guaranteed_sanctuary == 3
    double = Position(MONKS_SCORE, ("ann", "bob"), DECK, {})
    # Mr. Bumble side 1 facing the Monks (-1 Luck: 2/3) and Ann +1/+1 (2/1): no score
    # anywhere, 3 under both; side 0 costs a point only under the-monks.
    assert solve(double, RULES).guaranteed_sanctuary == 3
    assert solve(double, PLAYER).guaranteed_sanctuary == 3
    assert reference.solve(double, PLAYER).answer() == memory.solve(double, PLAYER).answer()


DOC = {
    "deck": "twist-of-fate",
    "active": "ann",
    "player": [
        {"name": "ann", "luck": 2, "sanctuary": 3, "hand": ["Nancy"]},
        {"name": "bob", "in_front": list(FULL)},
    ],
    "monks": {},
}


@pytest.mark.parametrize(("reading", "sanctuary"), [("the-monks", 4), ("the-player", 3)])
def test_cli_solve_with_the_ruling(tmp_path: Path, reading: str, sanctuary: int) -> None:
    path = tmp_path / "pronoun.toml"
    path.write_text(dumps(DOC), "utf-8")
    ruling = f"twist-of-fate/monks-pronoun={reading}"
    run = CliRunner().invoke(
        cli, ["twist-of-fate", "solve", str(path), "--format", "json", "--ruling", ruling]
    )
    assert run.exit_code == 0, run.output
    assert json.loads(run.output)["value"]["ann"]["sanctuary"] == sanctuary


def test_cli_refuses_an_unknown_pronoun_reading(tmp_path: Path) -> None:
    path = tmp_path / "pronoun.toml"
    path.write_text(dumps(DOC), "utf-8")
    run = CliRunner().invoke(
        cli, ["twist-of-fate", "solve", str(path), "--ruling", "twist-of-fate/monks-pronoun=bob"]
    )
    assert run.exit_code == 2
    assert "Traceback" not in run.output


# --- leftover-cards ---------------------------------------------------------------------
# "Once the second round is finished, ... the new starting player takes three random cards
# from the six unused cards from the previous round, saving the other three for the
# following round. The other player takes three random cards currently in front of "Monks"
# and saves the other three for the following round."
#
# The end of round 2 (Ann started it; Bob starts round 3): the unused pile is six Fagins,
# the Monks hold six Nancys. Bob draws three Fagins, Ann three Nancys (one draw each: the
# cards are alike). Saved: three Fagins and three Nancys. merged: they are round 3's six
# unused cards; set-aside: they leave the game, round 3 has no unused card.
ROUND_2_END = State(
    seats=(
        Seat(in_front=FULL),
        Seat(in_front=FULL),
        Seat(in_front=("Nancy",) * 6),
    ),
    players=2,
    active=1,
    starter=0,
    round=2,
    unused=("Fagin",) * 6,
)


def test_leftover_cards_readings_at_the_end_of_round_2() -> None:
    [(_, merged)] = chance_outcomes(ROUND_2_END, DECK, RULES)
    [(_, aside)] = chance_outcomes(ROUND_2_END, DECK, SET_ASIDE)
    assert merged.seats[:2] == aside.seats[:2]
    assert merged.seats[1].hand == DECK.sort((*FULL, "Fagin", "Fagin", "Fagin"))
    assert merged.seats[0].hand == DECK.sort((*FULL, "Nancy", "Nancy", "Nancy"))
    assert merged.unused == DECK.sort(("Nancy",) * 3 + ("Fagin",) * 3)
    assert aside.unused == ()


def test_after_set_aside_the_next_starter_draws_nothing() -> None:
    # The end of round 3 (Bob started it; Ann starts round 4) with no unused card: Ann holds
    # only the six cards picked up; Bob draws three of the Monks' six (two cards alike: 4
    # distinct draws, C(6,3) = 20 equally likely in all).
    monks = ("Nancy", "Nancy", "Nancy", "Fagin", "Fagin", "Fagin")
    end = replace(
        ROUND_2_END, round=3, starter=1, active=0, unused=(),
        seats=(*ROUND_2_END.seats[:2], Seat(in_front=monks)),
    )  # fmt: skip
    outcomes = chance_outcomes(end, DECK, SET_ASIDE)
    assert sum(w for w, _ in outcomes) == 20 == draw_count(end)
    assert len(outcomes) == 4
    for _, nxt in outcomes:
        assert nxt.active == 0 and nxt.seats[0].hand == DECK.sort(FULL)
        assert len(nxt.seats[1].hand) == 9 and nxt.unused == ()


def test_the_horizon_counts_the_draws_the_reading_leaves() -> None:
    # The end of round 3 after round 2's draws: merged, Ann draws 3 of the six saved cards
    # and Bob 3 of the Monks' six (20 x 20); set-aside, only Bob draws (20).
    for rules, count in ((RULES, 20 * 20), (SET_ASIDE, 20)):
        [(_, nxt)] = chance_outcomes(ROUND_2_END, DECK, rules)
        assert draw_count(replace(nxt, seats=ROUND_2_END.seats)) == count


# --- the checks --------------------------------------------------------------------------


def test_check_finds_where_the_pronoun_readings_part() -> None:
    from ruleslawyer.checks.twist_of_fate.scoring import monks_pronoun
    from ruleslawyer.findings import Kind

    found = monks_pronoun(DECK, RULES, {}, 60.0)
    assert found.kind == Kind.AMBIGUITY and found.finished and found.witness is not None
    assert found.sentences[0].text.startswith('Should a player play a card on "Monks"')
    results = found.witness.results
    assert (
        set(results) == {"the-monks", "the-player"}
        and results["the-monks"] != results["the-player"]
    )
    # only the active player's Sanctuary differs, by the penalty point
    active = found.witness.position["active"]
    diff = {k for k in results["the-monks"] if results["the-monks"][k] != results["the-player"][k]}
    assert diff == {active}
    assert (
        abs(results["the-monks"][active]["sanctuary"] - results["the-player"][active]["sanctuary"])
        == 1
    )


def test_check_reports_the_leftover_cards_gap() -> None:
    from ruleslawyer.checks.twist_of_fate.rounds import leftover_cards
    from ruleslawyer.findings import Kind

    found = leftover_cards(DECK, RULES, {}, 60.0)
    assert found.kind == Kind.GAP and found.finished and found.witness is not None
    assert "saves the other three for the following round" in found.sentences[1].text
    assert found.witness.position["round"] == 2
    ruled = leftover_cards(DECK, SET_ASIDE, {"twist-of-fate/leftover-cards": "set-aside"}, 60.0)
    assert ruled.ruling == "set-aside"


def test_the_horizon_says_who_draws_under_set_aside() -> None:
    from ruleslawyer.solvers.twist_of_fate.horizon import chance_text

    assert "set-aside" not in chance_text({400}, RULES)
    assert "only the other player draws" in chance_text({20, 400}, SET_ASIDE)


def test_a_position_with_unused_cards_after_round_2_is_refused_under_set_aside(
    tmp_path: Path,
) -> None:
    doc = {
        **DOC,
        "round": 3,
        "starter": "ann",
        "unused": ["Fagin", "Fagin", "Fagin", "Nancy", "Nancy", "Nancy"],
    }
    path = tmp_path / "round3.toml"
    path.write_text(dumps(doc), "utf-8")
    args = ["twist-of-fate", "solve", str(path), "--format", "json"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    aside = "twist-of-fate/leftover-cards=set-aside"
    run = CliRunner().invoke(cli, [*args, "--ruling", aside])
    assert run.exit_code == 2 and "Traceback" not in run.output
    [line] = run.output.strip().splitlines()
    assert "round3.toml" in line and "unused" in line and "6 unused cards" in line
