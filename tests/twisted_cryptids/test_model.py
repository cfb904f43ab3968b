"""Known-answer tests of the Twisted Cryptids round structure, worked out by hand.

Built-in (placeholder) data used throughout: Sites 0 campground (hikers 2, hunters 2),
1 lake (hikers 2, researchers 2), 2 ridge (hunters 2, researchers 2), 3 trailhead
(hikers 2, hunters 2), 4 observatory (hikers 2, researchers 2), 5 swamp (hunters 2,
researchers 2); Rest Areas 4/4/4. Sighting ids per Cryptid: 0-1 real-deal
(+2 per researcher, -2 per hunter), 2-4 hoax (+1 hiker, -1 researcher; extract 1
researcher), 5-6 decoy (+1 hunter, -1 hiker; move 1 hunter), 7-8 look-alike.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ruleslawyer.errors import IllegalMove
from ruleslawyer.models.twisted_cryptids.game import Effect, builtin_game
from ruleslawyer.models.twisted_cryptids.play import (
    BOXED,
    ON_STACK,
    Choose,
    KeepTrait,
    Pass,
    Place,
    Resolve,
    Reveal,
    Stuck,
    apply_effects,
    apply_myth,
    encounter_candidates,
    final_scores,
    legal_moves,
    legal_sites,
    new_game,
    player_cap,
    step,
    target_choices,
    winners,
)

GAME = builtin_game()
# ann's Stack 1 starts with a real-deal, bob's with a decoy.
STACKS_ANN = ((0, 2, 3), (1, 4, 5), (6, 7, 8))
STACKS_BOB = ((5, 0, 1), (2, 3, 4), (6, 7, 8))


def two_player_dusk(rulings=None):
    """Setup, Dawn and Day of a 2-player game, stopped at the last Pass before Dusk.

    First Player ann places first; the token passes after each of the three
    placement rounds (ann -> bob -> ann -> bob), so bob is First Player in round 1.
    ann: ridge, lake, campground; bob: ridge, swamp, observatory (token k on the k-th).
    """
    state = new_game(
        GAME,
        ("ann", "bob"),
        ("bigfoot", "mothman"),
        seed=0,
        stacks=(STACKS_ANN, STACKS_BOB),
        rulings=rulings,
    )
    sites = {0: (2, 1, 0), 1: (2, 5, 4)}
    assert state.phase == "traits"
    state = step(step(state, KeepTrait(0)), KeepTrait(0))
    while state.phase == "setup":
        p = state.actor()
        k = sum(state.placed[p])
        state = step(state, Place(sites[p][k], k))
    assert state.first == 1 and state.round == 1 and state.phase == "dawn"
    # seed 0 flips tour-bus (attract 3 hikers); bob puts them on the ridge: 3+2+2 = 7 Humans.
    assert GAME.events[state.event_deck[0]].name == "tour-bus"
    state = step(state, Resolve((2,)))
    assert state.sites[2] == (3, 2, 2) and state.rest == (1, 4, 4)
    for _ in range(3 * 2 - 1):
        state = step(state, Pass())
    return state


def test_encounter_reveals_and_night_placement_by_hand():
    state = step(two_player_dusk(), Pass())
    # ridge (7) beats lake, campground, swamp, observatory (4 each): no tie, no choice.
    assert state.encounter == 2 and state.phase == "reveal"
    # Reveals in player order from the First Player: bob, then ann.
    assert state.actor() == 1
    # bob's decoy: +1 per hunter (2), -1 per hiker (3) = -1 -> 4 Myth; moves a hunter to swamp.
    state = step(state, Reveal((5,)))
    assert state.myth == (5, 4)
    assert state.sites[2] == (3, 1, 2) and state.sites[5] == (0, 3, 2)
    # ann's real-deal sees the ridge after bob's effect: +2*2 researchers -2*1 hunter = +2.
    assert state.actor() == 0
    state = step(state, Reveal())
    assert state.myth == (7, 4)
    assert state.spots == ((ON_STACK, 1, 0), (ON_STACK, 5, 4))
    # Night, bob first: not the ridge (Encounter), not swamp/observatory (his own).
    assert state.phase == "night-place" and state.actor() == 1
    assert legal_moves(state) == (Place(0, 0), Place(1, 0), Place(3, 0))
    with pytest.raises(IllegalMove):
        step(state, Place(2, 0))
    state = step(state, Place(3, 0))
    state = step(state, legal_moves(state)[0])  # bob's refill (discard nothing)
    # ann: not the ridge, not lake or campground; trailhead is fine (no cap with 2 players).
    assert state.actor() == 0 and state.phase == "night-place"
    assert legal_moves(state) == (Place(3, 0), Place(4, 0), Place(5, 0))


def test_dusk_reveal_order_readings_by_hand():
    # as-encountered: ann's real-deal scores the ridge as the Encounter began (hunters 2,
    # researchers 2): +4 - 4 = 0, although bob's decoy has moved a hunter away.
    state = step(two_player_dusk({"twisted-cryptids/dusk-reveal-order": "as-encountered"}), Pass())
    state = step(state, Reveal((5,)))
    assert state.myth == (5, 4)  # bob scored the same Humans under both readings
    state = step(state, Reveal())
    assert state.myth == (5, 4)
    assert state.sites[2] == (3, 1, 2)


def test_tied_encounter_is_the_first_players_choice():
    state = two_player_dusk()
    flat = replace(state, sites=((2, 2, 0), (2, 0, 2), (0, 2, 2), (2, 2, 0), (2, 0, 2), (0, 2, 2)))
    state = step(flat, Pass())
    # Every occupied Site has 4 Humans: the First Player (bob) picks among the five occupied.
    assert state.phase == "choose" and state.actor() == 1
    assert legal_moves(state) == (Choose(0), Choose(1), Choose(2), Choose(4), Choose(5))
    state = step(state, Choose(0))
    # Only ann has a spot at the campground.
    assert state.encounter == 0 and state.revealers() == (0,)


def test_encounter_candidates_under_both_readings():
    sites = ((5, 0, 0), (1, 0, 0), (2, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0))
    spots = ((1, 2, ON_STACK), (2, BOXED, ON_STACK))
    # Site 0 is busiest but has no spot: among the occupied Sites, site 2 (2 Humans) wins.
    assert encounter_candidates(sites, spots, "among-hiding-spots") == (2,)
    assert encounter_candidates(sites, spots, "busiest-site") == ()
    assert encounter_candidates(sites, ((ON_STACK,),), "among-hiding-spots") == ()


def test_partial_resolution():
    sites = ((2, 0, 1), (0, 0, 0))
    rest = (1, 0, 5)
    # Attract 3 hikers with 1 in the Rest Area: 1 arrives. Extract 2 researchers from a Site
    # holding 1: 1 leaves. Move 3 hikers holding 3 after the attract: all 3 move.
    effects = (Effect("attract", 0, 3), Effect("extract", 2, 2), Effect("move", 0, 3))
    after, pool = apply_effects(sites, rest, effects, (0, 0, 0, 1))
    assert after == ((0, 0, 0), (3, 0, 0)) and pool == (0, 0, 6)


def test_caps_and_own_site_rule():
    assert [player_cap(n) for n in range(2, 7)] == [None, None, 3, 4, 4]
    assert player_cap(3, "cap-3") == 3
    state = new_game(GAME, ("a", "b", "c", "d"), ("bigfoot", "mothman", "jackalope", "cryptid-5"))
    board = (
        (0, ON_STACK, ON_STACK),
        (0, ON_STACK, ON_STACK),
        (0, 1, ON_STACK),
        (1, ON_STACK, ON_STACK),
    )
    state = replace(state, spots=board)
    # Site 0 has 3 players (the 4-player cap); d has a spot at 1.
    assert legal_sites(state, 3) == (2, 3, 4, 5)
    assert legal_sites(state, 3, away_from=4) == (2, 3, 5)


def test_myth_floor_readings():
    assert apply_myth(3, -8, "floor-at-zero") == 0
    assert apply_myth(3, -8, "negative") == -5
    assert apply_myth(3, 4, "floor-at-zero") == 7


def end_state():
    state = new_game(GAME, ("ann", "bob"), ("bigfoot", "mothman"), seed=0)
    # ann revealed hoax, hoax and a real-deal; bob revealed nothing.
    return replace(
        state,
        phase="over",
        round=5,
        myth=(9, 20),
        traits=(GAME.trait("prankster"), GAME.trait("territorial")),
        stacks=(((1, 5), (6, 7), (8,)), ((0, 1, 2), (3, 4, 5), (6, 7, 8))),
        revealed=(((0, 2, 1), (1, 3, 2), (2, 0, 3)), ()),
        spots=((0, 1, BOXED), (3, 4, 5)),
    )


def test_end_scoring_by_hand():
    state = end_state()
    # ann: 9 Myth + 7 * 1 unrevealed real-deal (id 1) + prankster (2 hoaxes revealed -> 4) = 20.
    # bob: 20 + 7 * 2 real-deals + territorial (3 spots on the board -> 5) = 39.
    assert final_scores(state) == (20, 39)
    assert winners(state) == (1,)


def test_tie_break_by_hand():
    tied = replace(end_state(), myth=(17, 9))
    # ann 17 + 7 + 4 = 28; bob 9 + 14 + 5 = 28: a tie.
    assert final_scores(tied) == (28, 28)
    # Humans where their spots are: ann at campground + lake (4 + 4 = 8), bob at
    # trailhead + observatory + swamp (12): bob wins the tie.
    assert winners(tied) == (1,)
    # ann's boxed spot back on the ridge: 12 each, both are legends.
    even = replace(tied, spots=((0, 1, 2), (3, 4, 5)))
    assert final_scores(even) == (28, 28)
    assert winners(even) == (0, 1)


def test_stuck_is_the_only_move_when_no_site_is_legal():
    state = new_game(GAME, ("a", "b", "c", "d"), ("bigfoot", "mothman", "jackalope", "cryptid-5"))
    spots = ((ON_STACK, 1, 3), (2, 4, 5), (2, 4, 5), (2, 4, 5))
    state = replace(
        state,
        phase="night-place",
        round=1,
        turn=0,
        spots=spots,
        encounter=0,
        returned=((0,), (), (), ()),
    )
    assert legal_moves(state) == (Stuck(),)
    after = step(state, Stuck())
    assert after.stuck == ((1, 0),) and after.spots[0][0] == ON_STACK


def test_night_placement_limits_readings_by_hand():
    # 4 players, cap 3. ann's spot 1 returned from the Encounter at campground (0); her
    # other spots are on lake (1) and trailhead (3); bob, cat and dan fill ridge, observatory
    # and swamp (2, 4, 5) to the cap. "place that Hiding Spot on a different Site than the
    # Site at which the Encounter occurred": under "constrained" the setup cap also binds,
    # and no Site is left (the relocation-deadlock gap); under "free" only the Encounter
    # Site and her own Sites are barred: ridge, observatory and swamp.
    state = new_game(GAME, ("a", "b", "c", "d"), ("bigfoot", "mothman", "jackalope", "cryptid-5"))
    night = replace(
        state,
        phase="night-place",
        round=1,
        turn=0,
        spots=((ON_STACK, 1, 3), (2, 4, 5), (2, 4, 5), (2, 4, 5)),
        encounter=0,
        returned=((0,), (), (), ()),
    )
    assert legal_moves(night) == (Stuck(),)
    free = replace(night, rulings=(("twisted-cryptids/night-placement-limits", "free"),))
    assert legal_moves(free) == (Place(2, 0), Place(4, 0), Place(5, 0))
    after = step(free, Place(4, 0))
    assert after.spots[0] == (4, 1, 3) and after.site_players(4) == 4


def test_before_final_night_counts_the_same_spots_for_traits_and_tie_break():
    # The tie of test_tie_break_by_hand (28 each), but bob's third spot came back at the
    # fifth Dusk and was placed on the swamp that Night: at the start of the fifth Night his
    # spots were trailhead and observatory only. "before-final-night" counts the end from
    # those spots for everything the end counts: bob's territorial trait sees 2 spots
    # (bonus 2, not 5), so bob has 9 + 14 + 2 = 25 and ann wins 28 to 25 outright. Counting
    # the old spots for the tally alone (today's main) left 28-28 and a tally of 8-8.
    tied = replace(end_state(), myth=(17, 9), snapshot=((0, 1, BOXED), (3, 4, ON_STACK)))
    assert final_scores(tied) == (28, 28) and winners(tied) == (1,)
    before = replace(tied, rulings=(("twisted-cryptids/tie-break-count", "before-final-night"),))
    assert final_scores(before) == (28, 25)
    assert winners(before) == (0,)


FOUR = ("a", "b", "c", "d"), ("bigfoot", "mothman", "jackalope", "cryptid-5")


def night_start(rulings=()):
    """4 players (cap 3), First Player a, the Encounter was at campground (0) where a alone
    revealed: a's spot 1 is back on its Stack, her others on lake (1) and ridge (2). b and c
    hold trailhead, observatory, swamp (3, 4, 5); d holds lake, ridge, observatory. So
    trailhead and swamp have room for one more player, observatory is full (b, c, d)."""
    state = new_game(GAME, *FOUR, seed=0)
    return replace(
        state,
        rulings=tuple(rulings),
        phase="night-move",
        round=1,
        turn=0,
        spots=((ON_STACK, 1, 2), (3, 4, 5), (3, 4, 5), (1, 2, 4)),
        encounter=0,
        returned=((0,), (), (), ()),
    )


def test_night_order_readings_by_hand():
    from ruleslawyer.models.twisted_cryptids.play import Move, Stay, night_enter

    # "In player order, take the following steps": each-player: a (no optional move: her
    # spot is on a Stack) places first, on trailhead or swamp (not campground, the
    # Encounter; not lake or ridge, her own; not observatory, full).
    each_player = night_enter(night_start())
    assert each_player.phase == "night-place" and each_player.actor() == 0
    assert legal_moves(each_player) == (Place(3, 0), Place(5, 0))
    # a takes trailhead; later, d may not move there (3 players: the cap).
    state = step(each_player, Place(3, 0))
    while not (state.phase == "night-move" and state.actor() == 3):
        state = step(state, Stay() if state.phase == "night-move" else legal_moves(state)[0])
    assert Move(0, 3) not in legal_moves(state) and Move(0, 0) in legal_moves(state)
    # each-step: every optional move first (b, c, d), then a's placement. d takes
    # trailhead first, and a is left with swamp only.
    state = night_enter(night_start((("twisted-cryptids/night-order", "each-step"),)))
    assert state.phase == "night-move" and state.actor() == 1
    state = step(step(state, Stay()), Stay())
    assert state.actor() == 3
    state = step(state, Move(0, 3))
    assert state.phase == "night-place" and state.actor() == 0
    assert legal_moves(state) == (Place(5, 0),)


def test_boxed_spot_move_readings_by_hand():
    from ruleslawyer.models.twisted_cryptids.play import Move, night_enter

    # b revealed the last Sighting of Stack 1 at this Dusk (round 3): his spot 1 is in the
    # box, none is on a Stack. "If you do not have a Hiding Spot token on one of your Stacks,
    # you may move": may-move offers him the move; no-move skips it.
    state = new_game(GAME, ("a", "b"), ("bigfoot", "mothman"), seed=0)
    state = replace(
        state,
        phase="night-move",
        round=3,
        turn=0,
        first=1,
        spots=((0, 1, 2), (BOXED, 4, 5)),
        stacks=(state.stacks[0], ((), *state.stacks[1][1:])),
        revealed=((), ((0, 5, 1), (0, 0, 2), (0, 1, 3))),
        encounter=3,
    )
    may = night_enter(state)
    assert may.phase == "night-move" and may.actor() == 1
    assert Move(1, 3) in legal_moves(may)
    ruled = replace(state, rulings=(("twisted-cryptids/boxed-spot-move", "no-move"),))
    no = night_enter(ruled)
    assert no.phase == "refill" and no.actor() == 1


def test_event_chooser_readings_by_hand():
    # hunting-season: attract 2 hunters, then move 1 hiker. The effects are resolved top to
    # bottom, one move each: first the attract's Site (6 choices), then the move's two Sites
    # (6 * 5 = 30). first-player: the First Player (a) chooses both; player-order: a the
    # first, b the second.
    season = next(i for i, e in enumerate(GAME.events) if e.name == "hunting-season")
    for reading, second in (("first-player", 0), ("player-order", 1)):
        state = new_game(GAME, *FOUR, seed=0, rulings={"twisted-cryptids/event-chooser": reading})
        state = replace(state, phase="dawn", round=1, event_deck=(season,))
        assert state.actor() == 0 and len(legal_moves(state)) == 6
        state = step(state, Resolve((0,)))
        assert state.sites[0] == (2, 4, 0) and state.phase == "dawn"
        assert state.actor() == second and len(legal_moves(state)) == 30
        state = step(state, Resolve((0, 1)))
        assert state.sites[0] == (1, 4, 0) and state.sites[1] == (3, 0, 2)
        assert state.phase == "day" and state.current_events == (season,)


def test_player_count_readings():
    ruled = {"twisted-cryptids/player-count": "four-to-six"}
    with pytest.raises(IllegalMove, match="3 players is not a legal player count"):
        new_game(GAME, ("a", "b", "c"), ("bigfoot", "mothman", "jackalope"), rulings=ruled)
    assert new_game(GAME, *FOUR, rulings=ruled).n == 4
    assert new_game(GAME, ("a", "b", "c"), ("bigfoot", "mothman", "jackalope")).n == 3


def cards_with(old: str, new: str):
    import tomllib

    from ruleslawyer.gamefiles.source import builtin_path
    from ruleslawyer.models.twisted_cryptids.game import parse_game

    text = builtin_path("twisted-cryptids.toml").read_text()
    assert old in text
    return parse_game(tomllib.loads(text.replace(old, new, 1)), "cards.toml")


def test_myth_depending_on_the_distribution_of_humans():
    # "gaining (or losing) Myth depending on the distribution of Humans at the Site of the
    # Encounter as specified on the Sighting card": a look-alike worth +3 when hikers
    # outnumber each other kind and -4 when any hunter is there (no Myth per Human).
    game = cards_with(
        'kind = "look-alike"\ncount = 2\nmyth = { hikers = 1, hunters = -1 }',
        'kind = "look-alike"\ncount = 2\n'
        'myth_if = [{ most = "hikers", myth = 3 }, { at_least = { hunters = 1 }, myth = -4 }]',
    )
    look = game.cryptids[0].sightings[7]
    assert look.kind == "look-alike" and look.myth == (0, 0, 0)
    assert look.myth_for((3, 1, 0)) == 3 - 4  # hikers most, and a hunter
    assert look.myth_for((2, 0, 1)) == 3
    assert look.myth_for((1, 1, 1)) == -4  # a three-way tie: nobody has the most
    assert look.myth_for((0, 0, 5)) == 0
    # old files read as before: linear Myth, no conditional terms
    assert GAME.cryptids[0].sightings[7].myth_for((3, 1, 0)) == 3 - 1


def test_sighting_effects_beyond_the_encounter_site():
    # A hoax that attracts a researcher to a Site the revealer picks, and a decoy that pulls
    # a hunter from a chosen Site to the Encounter Site.
    game = cards_with(
        'effect = [{ op = "extract", human = "researchers", count = 1 }]',
        'effect = [{ op = "attract", human = "researchers", count = 1, at = "chosen" }]',
    )
    hoax = game.cryptids[0].sightings[2]
    assert [t for t in target_choices(hoax.effect, 6, at=2)] == [(s,) for s in range(6)]
    sites = ((2, 2, 0), (2, 0, 2), (0, 2, 2), (2, 2, 0), (2, 0, 2), (0, 2, 2))
    after, rest = apply_effects(sites, (4, 4, 4), hoax.effect, (0,), at=2)
    assert after[0] == (2, 2, 1) and after[2] == (0, 2, 2) and rest == (4, 4, 3)
    decoy_game = cards_with(
        'effect = [{ op = "move", human = "hunters", count = 1 }]',
        'effect = [{ op = "move", human = "hunters", count = 1, at = "chosen", to = "encounter" }]',
    )
    decoy = decoy_game.cryptids[0].sightings[5]
    # from any Site but the Encounter Site (2), to the Encounter Site
    assert target_choices(decoy.effect, 6, at=2) == ((0,), (1,), (3,), (4,), (5,))
    after, _ = apply_effects(sites, (4, 4, 4), decoy.effect, (3,), at=2)
    assert after[3] == (2, 1, 0) and after[2] == (0, 3, 2)
    # the built-in decoy still moves from the Encounter Site to a chosen one
    assert target_choices(GAME.cryptids[0].sightings[5].effect, 6, at=2) == (
        (0,),
        (1,),
        (3,),
        (4,),
        (5,),
    )
    after, _ = apply_effects(sites, (4, 4, 4), GAME.cryptids[0].sightings[5].effect, (3,), at=2)
    assert after[2] == (0, 1, 2) and after[3] == (2, 3, 0)


def test_each_player_chooses_one_of_two_hidden_traits():
    # "deal two to each player. Have each player choose one of them and place it face down
    # ..., then return any remaining Hidden Trait cards to the game box."
    state = new_game(GAME, ("ann", "bob"), ("bigfoot", "mothman"), seed=0)
    dealt = tuple((state.traits[p], state.discarded_traits[p]) for p in range(2))
    assert state.phase == "traits" and state.actor() == 0
    assert legal_moves(state) == (KeepTrait(0), KeepTrait(1))
    state = step(state, KeepTrait(1))  # ann keeps her second card
    assert state.actor() == 1
    state = step(state, KeepTrait(0))  # bob keeps his first
    assert state.phase == "setup"
    assert state.traits == (dealt[0][1], dealt[1][0])
    assert state.discarded_traits == (dealt[0][0], dealt[1][1])


def test_is_legal_agrees_with_the_list_of_legal_moves():
    from ruleslawyer.models.twisted_cryptids.play import Play, Power, is_legal
    from ruleslawyer.solvers.twisted_cryptids.simulate import random_game

    state = random_game(GAME, 3, 5, rounds=1)  # the start of round 2
    while state.phase != "day":
        state = step(state, legal_moves(state)[0])
    legal = legal_moves(state)
    assert all(is_legal(state, m) for m in legal)
    candidates = [
        kind(card, targets)
        for kind in (Play, Power)
        for card in range(-1, 7)
        for targets in ((), (0,), (6,), (0, 0), (0, 1), (1, 0))
    ]
    assert [m for m in candidates if is_legal(state, m)] == [m for m in candidates if m in legal]


def test_target_choices_match_their_count_and_conserve_humans():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from ruleslawyer.models.twisted_cryptids.game import target_count

    effect = st.builds(
        Effect,
        op=st.sampled_from(["attract", "extract", "move"]),
        human=st.integers(0, 2),
        count=st.integers(1, 4),
        at=st.sampled_from(["chosen", "encounter"]),
        to=st.sampled_from(["chosen", "encounter"]),
    ).filter(lambda e: not (e.op == "move" and e.at == e.to == "encounter"))  # a data error
    triple = st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3))

    @settings(max_examples=60, deadline=None)
    @given(
        st.lists(effect, max_size=2),
        st.integers(0, 5),
        st.lists(triple, min_size=6, max_size=6),
        triple,
    )
    def prop(effects, encounter, sites, rest):
        effects = tuple(effects)
        choices = target_choices(effects, 6, at=encounter)
        assert len(choices) == len(set(choices)) == target_count(effects, 6)
        for targets in choices[:: max(1, len(choices) // 7)]:
            after, pool = apply_effects(tuple(sites), rest, effects, targets, at=encounter)
            for h in range(3):
                assert pool[h] + sum(s[h] for s in after) == rest[h] + sum(s[h] for s in sites)
                assert pool[h] >= 0 and all(s[h] >= 0 for s in after)

    prop()
