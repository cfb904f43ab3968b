"""Twisted Cryptids ``advise``, the model a player faces: the last round reaches the printed
end-of-game scoring, the actor's later choices are their best, ``--ruling`` and the open rule
points; a hypothesis differential test against the plain reference."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ruleslawyer.cli.main import cli
from ruleslawyer.models.twisted_cryptids.game import builtin_game
from ruleslawyer.models.twisted_cryptids.play import Pass, State, legal_moves, step
from ruleslawyer.solvers.twisted_cryptids.advise import advise, sampled_worlds
from ruleslawyer.solvers.twisted_cryptids.position import position_state
from ruleslawyer.solvers.twisted_cryptids.record import load_record, parse_record
from ruleslawyer.solvers.twisted_cryptids.reference import Reference, brute_force, plain_means
from ruleslawyer.solvers.twisted_cryptids.simulate import deal
from tests.twisted_cryptids.small import assert_matches, late_position, small_game

GAME = builtin_game()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "twisted-cryptids"
LAST = EXAMPLES / "advise-last-round.toml"


def _means(result: dict) -> dict[str, tuple[float, float]]:
    return {
        r["move"]: (r["score_change"]["mean"], r["leader_score_change"]["mean"])
        for r in result["choices"]
    }


def test_last_round_real_deal_reveal_is_not_recommended() -> None:
    # advise-last-round.toml, by hand (the board of advise-day.toml, two rounds later):
    # round 5 of 5, ann's (and the game's) last Day turn; the horizon is the end of the game.
    # ann now: 9 Myth + 7 x 2 unrevealed Real Deals + recluse (1 hidden hoax: +2) = 25;
    # bob: 10 Myth + 7 x 2 = 24 and a Hidden Trait ann cannot see.
    # - grant-money on campground: campground (0,1,3) = 4 Humans is the Encounter; ann reveals
    #   her known real-deal: 2*3 - 2*1 = +4 Myth, but "+7 per unrevealed Real Deal" at the end
    #   is lost: 4 - 7 = -3, 22 against bob's 24 or more: she cannot win (in every world, and
    #   whatever bob does).
    # - Pass: lake (2,0,1) = 3 is the Encounter, where ann has no Hiding Spot: her score does
    #   not change; bob reveals the top of his Stack 1, and a Real Deal there (2 of his 5)
    #   costs him its 7: she can win.
    record, game = load_record(LAST)
    state, hidden = position_state(record, game, "last")
    result = advise(state, hidden=hidden, exact_limit=1000)
    assert result["scoring"] == "final" and "end-of-game" in result["score"]
    assert result["mode"] == "exact" and result["worlds"] == 60
    rows = {r["move"]: r for r in result["choices"]}
    worst = rows["ann plays grant-money on campground"]
    assert worst["win_chance"]["mean"] == 0.0 and worst["score_change"]["mean"] == -3.0
    assert worst["worst_case"] == {"win_chance": 0.0, "score_change": -3.0}
    assert rows["ann: pass"]["score_change"]["mean"] == 0.0
    assert rows["ann: pass"]["win_chance"]["mean"] > 0.4
    assert result["choices"][-1]["move"] == "ann plays grant-money on campground"


def test_round_three_counts_myth_only() -> None:
    record, game = load_record(EXAMPLES / "advise-day.toml")
    state, hidden = position_state(record, game, "day")
    result = advise(state, hidden=hidden, exact_limit=1000)
    assert result["scoring"] == "myth" and result["horizon"].startswith("to the end of this")
    assert result["choices"][0]["move"] == "ann plays grant-money on campground"


def test_actor_picks_the_tied_site_they_prefer() -> None:
    # advise-day.toml with ann First Player, her real-deal under lake and bob's Stack 1 under
    # campground (2,0,2) = 4 Humans. grant-money on lake makes lake (0,1,3) = 4: a tie, and ann
    # (First Player) chooses. The first tied Site (campground, bob reveals, ann +0) was the old
    # policy; her best is lake: her real-deal 2*3 - 2*1 = +4 (round 3: Myth counted).
    # Pass: campground alone, bob's top of 7 (real-deal 2, hoax 2, decoy 1, look-alike 2):
    # real-deal 2*2 = 4, hoax 2 - 2 = 0, decoy -2, look-alike +2: (8 + 0 - 2 + 4)/7 = 10/7.
    text = (EXAMPLES / "advise-day.toml").read_text("utf-8")
    for old, new in (
        ('first_player = "bob"', 'first_player = "ann"'),
        ("campground = [0, 1, 1]", "campground = [2, 0, 2]"),
        ("lake = [2, 0, 1]", "lake = [0, 1, 1]"),
        ('ann = ["campground", "ridge", "trailhead"]', 'ann = ["lake", "ridge", "trailhead"]'),
        ('bob = ["lake", "observatory", "swamp"]', 'bob = ["campground", "observatory", "swamp"]'),
    ):
        assert old in text
        text = text.replace(old, new)
    import tomllib

    record = parse_record(tomllib.loads(text), "tie")
    state, hidden = position_state(record, GAME, "tie")
    got = _means(advise(state, hidden=hidden, exact_limit=1000))
    assert got["ann plays grant-money on lake"] == (4.0, 0.0)
    assert got["ann: pass"] == (0.0, round(10 / 7, 4))


def _later_turn_record(text: str | None = None) -> tuple[State, object]:
    """advise-day.toml at ann's second Day turn of round 3 (her third, the round's last, still
    to come) with rockslide and grant-money in hand."""
    import tomllib

    text = (EXAMPLES / "advise-day.toml").read_text("utf-8") if text is None else text
    for old, new in (
        ("day_turn = 3 ", "day_turn = 2 "),
        ('hand = ["grant-money"]', 'hand = ["rockslide", "grant-money"]'),
    ):
        assert old in text
        text = text.replace(old, new)
    record = parse_record(tomllib.loads(text), "later")
    return position_state(record, GAME, "later")


def test_a_later_own_day_turn_changes_the_ranking() -> None:
    # advise-day.toml (round 3: Myth counted at this Dusk), but ann is at her second Day turn
    # with rockslide (extract 1 hiker from a Site, 1 hunter from a Site) and grant-money
    # (attract 2 researchers); her third turn comes after bob's pass. Her real-deal tops
    # Stack 1 at campground (0,1,1); lake (2,0,1) holds bob's Stack 1 (his 7 unrevealed:
    # real-deal 2, hoax 2, decoy 1, look-alike 2: at lake +2, +1, -2, +2). The Encounter is
    # the Site with most Humans; on a tie bob, the First Player, chooses, for himself: lake
    # unless his top there is his decoy (then campground, where he has no Hiding Spot: 0).
    # Myth of ann's real-deal: 2 per researcher - 2 per hunter.
    # - grant-money on campground now, then rockslide taking a hiker off lake and the hunter
    #   off campground (or the other way round: rockslide first): campground (0,0,3) = 3
    #   beats lake (1,0,1) = 2: +6 for sure.
    # - Pass: her last turn plays grant-money on campground: (0,1,3) = 4: +4.
    # - rockslide with both off campground: (0,0,1); grant-money there next makes a 3-3 tie
    #   with lake, which bob takes unless his top is the decoy: +6 x 1/7, bob 10/7.
    # - with her last turn passing (--later-turns 0): grant-money on campground +4 (the old
    #   policy's best), rockslide on lake, campground leaves lake the Encounter: +0.
    state, hidden = _later_turn_record()
    full = advise(state, hidden=hidden, exact_limit=1000)
    assert full["later_day_turns"] == full["later_day_turns_chosen"] == 1
    got = _means(full)
    assert got["ann plays grant-money on campground"] == (6.0, 0.0)
    assert got["ann plays rockslide on lake, campground"] == (6.0, 0.0)
    assert got["ann: pass"] == (4.0, 0.0)
    assert got["ann plays rockslide on campground, campground"] == (
        round(6 / 7, 4),
        round(10 / 7, 4),
    )
    # the ties at +6 are listed by their words, not by the order of the moves
    assert [r["move"] for r in full["choices"][:2]] == [
        "ann plays grant-money on campground",
        "ann plays rockslide on lake, campground",
    ]
    # the same position with her later Day turn passing (the old policy): another ranking
    passing = advise(state, hidden=hidden, exact_limit=1000, later_turns=0)
    assert passing["later_day_turns"] == 1 and passing["later_day_turns_chosen"] == 0
    assert "--later-turns 0" in passing["policy"] and "--later-turns" not in full["policy"]
    old = _means(passing)
    assert old["ann plays grant-money on campground"] == (4.0, 0.0)
    assert old["ann plays rockslide on lake, campground"][0] == 0.0
    assert old["ann: pass"] == (0.0, round(8 / 7, 4))
    assert passing["choices"][0]["move"] == "ann plays grant-money on campground"


def test_cli_later_turns_is_stated_and_checked(tmp_path: Path) -> None:
    text = (EXAMPLES / "advise-day.toml").read_text("utf-8")
    text = text.replace("day_turn = 3 ", "day_turn = 2 ")
    record = tmp_path / "later.toml"
    record.write_text(text, "utf-8")
    runner = CliRunner()
    out = runner.invoke(cli, ["twisted-cryptids", "advise", str(record), "--later-turns", "0"])
    assert out.exit_code == 0, out.output
    assert "later Day turns of the actor this round: 1, chosen 0" in out.output
    assert "(--later-turns 0)" in out.output
    bad = runner.invoke(cli, ["twisted-cryptids", "advise", str(record), "--later-turns", "4"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def _lines(state: State, actor: int, cap: int) -> int:
    """The lines of play to the end of the Day (every move of the actor's, the others'
    passing; one outside the Day), counted up to just past ``cap``."""
    if state.phase != "day":
        return 1
    if state.actor() != actor:
        return _lines(step(state, Pass()), actor, cap)
    total = 0
    for move in legal_moves(state):
        total += _lines(step(state, move), actor, cap - total)
        if total > cap:
            break
    return total


def _small_position(
    seed: int, start: int, cards: int, last: bool, other: str = "hoax", cap: int = 3_000
) -> State | None:
    """A position of seeded 2-player game ``seed`` of the small game (as ``simulate --moves``
    plays them, from move ``start``) where advise may be asked and the reference is quick:
    the actor holding only the first ``cards`` cards of their hand, the reference's worlds
    times the actor's lines of Day play at most ``cap`` (in the last round, whose Night both
    players choose too, no card in hand and at most 300 worlds)."""
    game = small_game(other=other)
    phases = ("day", "choose", "reveal")
    state = late_position(game, seed, start, 0 if last else cards, phases, last)
    if state is None:
        return None
    worlds = len(Reference(state).worlds)
    if last:
        return state if worlds <= 300 else None
    actor = state.actor()
    assert actor is not None
    return state if worlds * _lines(state, actor, cap) <= cap else None


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    seed=st.integers(0, 10_000),
    start=st.integers(25, 70),
    later=st.sampled_from([None, 0, 1]),
    cards=st.integers(0, 2),
    last=st.booleans(),
    other=st.sampled_from(["hoax", "decoy"]),
)
def test_differential_against_plain_reference(
    seed: int, start: int, later: int | None, cards: int, last: bool, other: str
) -> None:
    # the whole model against the plain reference: the actor's later choices, the other
    # player's (a tie, reveal targets with decoys, the last Night), the last round's chance
    # to win over every deal of Hidden Traits, the worst case
    state = _small_position(seed, start, cards, last, other)
    assume(state is not None)
    assert state is not None
    fast = advise(state, exact_limit=100_000, later_turns=later)
    assert fast["mode"] == "exact" and fast["finished"]
    assert_matches(fast, brute_force(state, later))


def test_cli_ruling_is_applied_and_stated() -> None:
    runner = CliRunner()
    args = ["twisted-cryptids", "advise", str(LAST), "--format", "json"]
    out = runner.invoke(cli, [*args, "--ruling", "twisted-cryptids/myth-floor=negative"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["rulings"]["twisted-cryptids/myth-floor"] == "negative"
    assert "end-of-game scoring" in doc["model"] and doc["policy"] in doc["model"]
    assert "twisted-cryptids/myth-floor" not in {
        d["point"] for d in doc["open_rule_points_changing_the_ranking"]
    }
    text = runner.invoke(
        cli,
        [
            "twisted-cryptids",
            "advise",
            str(LAST),
            "--ruling",
            "twisted-cryptids/myth-floor=negative",
        ],
    ).output
    assert "rulings: twisted-cryptids/myth-floor=negative" in text
    assert "score counted (each figure: its expected change): the printed end-of-game" in text


@pytest.mark.parametrize(
    ("ruling", "message"),
    [
        ("twisted-cryptids/myth-floor=sideways", "found 'sideways', expected one of"),
        ("nothing=here", "found 'nothing', expected a rule point id"),
        ("no-equals", "found 'no-equals', expected ID=READING"),
    ],
)
def test_cli_bad_ruling_one_line_exit_2(ruling: str, message: str) -> None:
    out = CliRunner().invoke(cli, ["twisted-cryptids", "advise", str(LAST), "--ruling", ruling])
    assert out.exit_code == 2
    assert "Traceback" not in out.output and len(out.output.strip().splitlines()) == 1
    assert message in out.output


def test_open_rule_point_that_changes_the_ranking_is_listed() -> None:
    # A last-round Dawn of a seeded game (seed 6, 60 moves): bob resolves hunting-season's
    # second effect. Under encounter-site-scope=busiest-site the ranking differs (listed with
    # its own ranking, equal to advise under that ruling); event-chooser=player-order would
    # have ann resolve it: another player's question, named and not ranked.
    from ruleslawyer.solvers.twisted_cryptids.advise import advise_readings
    from ruleslawyer.solvers.twisted_cryptids.simulate import position

    state = position(GAME, 2, 6, 60)
    # bob's three Day turns to come pass (choosing them is test_a_later_own_day_turn_...'s)
    result = advise_readings(state, {}, exact_limit=60, later_turns=0)
    assert result["finished"] and result["open_rule_points_tried"]
    listed = {
        (d["point"], d["reading"]): d for d in result["open_rule_points_changing_the_ranking"]
    }
    key = ("twisted-cryptids/encounter-site-scope", "busiest-site")
    assert key in listed
    direct = advise(
        replace(state, rulings=(("twisted-cryptids/encounter-site-scope", "busiest-site"),)),
        exact_limit=60,
        later_turns=0,
    )
    assert listed[key]["choices"] == direct["choices"] != result["choices"]
    assert (
        "twisted-cryptids/event-chooser=player-order"
        in result["readings_with_another_player_to_act"]
    )
    assert all(p != "twisted-cryptids/event-chooser" for p, _ in listed)


def _day_position(seed: int, start: int, cards: int) -> State | None:
    """The first Day turn from move ``start`` of seeded 2-player game ``seed`` of the small
    game, before the last round, with a later Day turn of the actor's still to come, the actor
    holding the first ``cards`` cards of their hand, with few enough lines of Day play for the
    reference."""
    game = small_game()
    state = deal(game, 2, seed)
    rng = random.Random(seed)
    moves = 0
    while state.phase != "over" and state.round < game.rounds:
        actor = state.actor()
        if moves >= start and state.phase == "day" and actor is not None and state.turn < 4:
            hands = tuple(h[:cards] if p == actor else h for p, h in enumerate(state.hands))
            small = replace(state, hands=hands)
            worlds = len(Reference(small).worlds)
            if worlds * _lines(small, actor, 3_000 // worlds) <= 3_000:
                return small
        state = step(state, rng.choice(legal_moves(state)))
        moves += 1
    return None


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    seed=st.integers(0, 10_000),
    start=st.integers(10, 60),
    cards=st.integers(1, 2),
    later=st.sampled_from([None, 1]),
)
def test_later_day_turns_against_plain_reference(
    seed: int, start: int, cards: int, later: int | None
) -> None:
    # Day positions with the actor's later Day turns to choose (cards in hand), against the
    # plain reference with the actor weighing the same 5 sampled worlds (the actor's later
    # choices the best over those worlds in both; the other player's beliefs exact)
    state = _day_position(seed, start, cards)
    assume(state is not None)
    assert state is not None
    actor = state.actor()
    assert actor is not None
    fast = advise(state, exact_limit=1, samples=5, seed=seed, later_turns=later)
    assert fast["later_day_turns"] >= 1 and fast["finished"]
    worlds = list(sampled_worlds(state, actor, 5, seed))
    assert_matches(fast, plain_means(state, worlds, later_turns=later))
