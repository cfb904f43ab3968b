"""Twisted Cryptids ``advise``, the model a player faces: the last round reaches the printed
end-of-game scoring, the actor's later choices are their best, ``--ruling`` and the open rule
points; a hypothesis differential test against the plain reference."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from math import factorial
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ruleslawyer.cli.main import cli
from ruleslawyer.models.twisted_cryptids.game import builtin_game
from ruleslawyer.models.twisted_cryptids.play import State, legal_moves, step
from ruleslawyer.solvers.twisted_cryptids.advise import (
    advise,
    hidden_of_state,
    sampled_worlds,
)
from ruleslawyer.solvers.twisted_cryptids.position import brute_force as record_brute_force
from ruleslawyer.solvers.twisted_cryptids.position import position_state
from ruleslawyer.solvers.twisted_cryptids.record import load_record, parse_record
from ruleslawyer.solvers.twisted_cryptids.reference import brute_force, plain_means
from ruleslawyer.solvers.twisted_cryptids.simulate import deal

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
    # - grant-money on campground: campground (0,1,3) = 4 Humans is the Encounter; ann reveals
    #   her known real-deal: 2*3 - 2*1 = +4 Myth, but "+7 per unrevealed Real Deal" at the end
    #   is lost: 4 - 7 = -3. Her Hidden Trait (recluse: hidden hoaxes) keeps its one hoax.
    # - Pass: lake (2,0,1) = 3 is the Encounter; bob reveals the top of his Stack 1, each of his
    #   5 unrevealed kinds (real-deal 2, hoax 1, decoy 1, look-alike 1) with chance count/5:
    #   real-deal 2*1 - 7 = -5, hoax 2 - 1 = +1, decoy -2, look-alike +2: (-10 + 1)/5 = -1.8.
    # - on lake (2,0,3): real-deal 6 - 7 = -1, hoax -1, decoy -2, look-alike +2: -3/5 = -0.6.
    # - on ridge (2 Humans) or on trailhead, observatory, swamp (a 3-3 tie with lake, which bob,
    #   the First Player, takes as the first tied Site): as Pass.
    record, game = load_record(LAST)
    state, hidden = position_state(record, game, "last")
    result = advise(state, hidden=hidden, exact_limit=1000)
    assert result["scoring"] == "final" and "end-of-game" in result["score"]
    assert result["mode"] == "exact" and result["worlds"] == 60
    pass_ = (0.0, -1.8)
    assert _means(result) == {
        "ann: pass": pass_,
        "ann plays grant-money on ridge": pass_,
        "ann plays grant-money on trailhead": pass_,
        "ann plays grant-money on observatory": pass_,
        "ann plays grant-money on swamp": pass_,
        "ann plays grant-money on lake": (0.0, -0.6),
        "ann plays grant-money on campground": (-3.0, 0.0),
    }
    assert result["choices"][0]["move"] == "ann: pass"
    assert result["choices"][-1]["move"] == "ann plays grant-money on campground"
    ref = record_brute_force(record, game)
    assert set(ref) == set(_means(result))
    for move, pair in _means(result).items():
        assert pair == pytest.approx(ref[move], abs=1e-4)


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
    # Stack 1 at campground (0,1,1); lake (2,0,1) holds bob's Stack 1; the Encounter is the
    # Site with most Humans, bob (First Player) taking the first tied Site (campground).
    # Myth of ann's real-deal: 2 per researcher - 2 per hunter.
    # - rockslide's hunter from campground now, grant-money there at her last turn (or the
    #   other way round): campground (0,0,3) = 3 ties lake, campground is taken: +6.
    # - grant-money on campground with her last turn passing: (0,1,3) = 4: +4 (all the old
    #   policy saw; rockslide on campground alone left lake the Encounter: ann +0).
    # - Pass: her last turn plays grant-money on campground: +4, bob +0.
    # - grant-money on lake: (2,0,3) = 5; nothing her last card does brings campground to 5:
    #   ann +0, bob reveals at lake.
    state, hidden = _later_turn_record()
    full = advise(state, hidden=hidden, exact_limit=1000)
    assert full["later_day_turns"] == full["later_day_turns_chosen"] == 1
    got = _means(full)
    assert got["ann plays rockslide on campground, campground"] == (6.0, 0.0)
    assert got["ann plays grant-money on campground"] == (6.0, 0.0)
    assert got["ann: pass"] == (4.0, 0.0)
    assert got["ann plays grant-money on lake"][0] == 0.0
    assert full["choices"][0]["move"] == "ann plays rockslide on campground, campground"
    # the same position with her later Day turn passing (the old policy): another ranking
    passing = advise(state, hidden=hidden, exact_limit=1000, later_turns=0)
    assert passing["later_day_turns"] == 1 and passing["later_day_turns_chosen"] == 0
    assert "--later-turns 0" in passing["policy"] and "--later-turns" not in full["policy"]
    old = _means(passing)
    assert old["ann plays grant-money on campground"] == (4.0, 0.0)
    assert old["ann plays rockslide on campground, campground"][0] == 0.0
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
    first; one outside the Day), counted up to just past ``cap``."""
    if state.phase != "day":
        return 1
    if state.actor() != actor:
        return _lines(step(state, legal_moves(state)[0]), actor, cap)
    total = 0
    for move in legal_moves(state):
        total += _lines(step(state, move), actor, cap - total)
        if total > cap:
            break
    return total


def _cost(state: State, cap: int = 3_000) -> int:
    actor = state.actor()
    assert actor is not None
    ids = factorial(sum(len(h.free) for h in hidden_of_state(state, actor)))
    return ids * _lines(state, actor, cap // ids) if ids <= cap else ids


def _small_position(seed: int, start: int, cards: int) -> State | None:
    """The first position from move ``start`` of seeded 2-player game ``seed`` (random moves,
    as ``simulate --moves`` plays them) where advise may be asked and the reference is quick,
    the actor holding only the first ``cards`` cards of their hand (every later Day turn of
    theirs is a choice: with a full hand the reference's Day lines run to millions)."""
    state = deal(GAME, 2, seed)
    rng = random.Random(seed)
    moves = 0
    while state.phase != "over":
        # positions advise reads (a last-round Dawn's reference takes minutes: left out)
        if moves >= start and state.phase in ("day", "choose", "reveal"):
            actor = state.actor()
            hands = tuple(h[:cards] if p == actor else h for p, h in enumerate(state.hands))
            small = replace(state, hands=hands)
            if _cost(small) <= 3_000:
                return small
        state = step(state, rng.choice(legal_moves(state)))
        moves += 1
    return None


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    seed=st.integers(0, 10_000),
    start=st.integers(25, 90),
    later=st.sampled_from([None, 0, 1]),
    cards=st.integers(0, 2),
)
def test_differential_against_plain_reference(
    seed: int, start: int, later: int | None, cards: int
) -> None:
    state = _small_position(seed, start, cards)
    assume(state is not None)
    assert state is not None
    fast = advise(state, exact_limit=100_000, later_turns=later)
    assert fast["mode"] == "exact" and fast["finished"]
    ref = brute_force(state, later)
    assert set(ref) == {r["move"] for r in fast["choices"]}
    for move, (mine, leader) in _means(fast).items():
        assert mine == pytest.approx(ref[move][0], abs=1e-4)
        assert leader == pytest.approx(ref[move][1], abs=1e-4)


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
    """The first Day turn from move ``start`` of seeded 2-player game ``seed`` with a later
    Day turn of the actor's still to come, the actor holding the first ``cards`` cards of
    their hand, with few enough lines of Day play for the reference."""
    state = deal(GAME, 2, seed)
    rng = random.Random(seed)
    moves = 0
    while state.phase != "over":
        actor = state.actor()
        if moves >= start and state.phase == "day" and actor is not None and state.turn < 4:
            hands = tuple(h[:cards] if p == actor else h for p, h in enumerate(state.hands))
            small = replace(state, hands=hands)
            if _lines(small, actor, 300) <= 300:
                return small
        state = step(state, rng.choice(legal_moves(state)))
        moves += 1
    return None


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    seed=st.integers(0, 10_000),
    start=st.integers(10, 80),
    cards=st.integers(1, 2),
    later=st.sampled_from([None, 1]),
)
def test_later_day_turns_against_plain_reference(
    seed: int, start: int, cards: int, later: int | None
) -> None:
    # Day positions with the actor's later Day turns to choose (cards in hand), against the
    # plain reference over the same 5 sampled worlds (the actor's later choices the best
    # over those worlds in both)
    state = _day_position(seed, start, cards)
    assume(state is not None)
    assert state is not None
    actor = state.actor()
    assert actor is not None
    fast = advise(state, exact_limit=1, samples=5, seed=seed, later_turns=later)
    assert fast["later_day_turns"] >= 1 and fast["finished"]
    worlds = list(sampled_worlds(state, actor, 5, seed))
    ref = plain_means(state, worlds, later_turns=later)
    assert set(ref) == {r["move"] for r in fast["choices"]}
    for move, (mine, leader) in _means(fast).items():
        assert mine == pytest.approx(ref[move][0], abs=1e-4)
        assert leader == pytest.approx(ref[move][1], abs=1e-4)
