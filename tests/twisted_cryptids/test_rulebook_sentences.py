"""Known answers for rulebook sentences the coverage map traces here (data/coverage/).

Each test quotes its sentence and works the position out by hand on the built-in
(placeholder) game; test_model.py describes its Sites and Sightings, and its
``two_player_dusk`` (ann and bob, bob First Player in round 1, ridge the Encounter Site
with bob's Stack 1 and ann's Stack 1 there) is reused here.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import replace

from ruleslawyer.gamefiles.source import builtin_path
from ruleslawyer.models.twisted_cryptids.game import (
    SITE_COUNT,
    builtin_game,
    parse_game,
    structural_problems,
)
from ruleslawyer.models.twisted_cryptids.play import (
    BOXED,
    ON_STACK,
    KeepTrait,
    Move,
    Pass,
    Place,
    Play,
    Power,
    Refill,
    Resolve,
    Reveal,
    legal_moves,
    new_game,
    night_enter,
    step,
)
from tests.twisted_cryptids.test_model import two_player_dusk

GAME = builtin_game()


def _dealt():
    return new_game(GAME, ("ann", "bob"), ("bigfoot", "mothman"), seed=3)


def test_setup_deals_the_game_files_components() -> None:
    # Setup: the Wilderness "is composed of 6 Sites"; Humans on each Site and in the 3
    # Rest Areas (the game file's counts: not in the seed); "Shuffle the Action deck",
    # "shuffle the Event deck"; each player takes one Cryptid ("Return any remaining
    # Cryptids ... to the game box") and "place your Cryptid meeple on the Myth Track at 5
    # Myth"; "deal two" Hidden Traits "to each player"; three Stacks of three Sightings;
    # three Hiding Spots, none placed yet; "deal 5 cards from the Action deck to each
    # player. These cards will form your hand."
    state = _dealt()
    assert len(state.sites) == SITE_COUNT == 6
    assert state.sites == tuple(s.humans for s in GAME.sites) and state.rest == GAME.rest_area
    assert state.cryptids == (GAME.cryptid("bigfoot"), GAME.cryptid("mothman"))
    assert state.myth == (5, 5)
    assert [len(h) for h in state.hands] == [5, 5]
    actions = [*state.hands[0], *state.hands[1], *state.action_deck]
    assert sorted(actions) == list(range(len(GAME.actions))) and not state.discard
    assert sorted(state.event_deck) == list(range(len(GAME.events))) and not state.current_events
    dealt = [state.traits[p] for p in (0, 1)] + [state.discarded_traits[p] for p in (0, 1)]
    assert len(set(dealt)) == 4  # two different Hidden Traits each, none shared
    for stacks in state.stacks:
        assert [len(s) for s in stacks] == [3, 3, 3]
        assert sorted(x for s in stacks for x in s) == list(range(9))
    assert state.spots == ((ON_STACK,) * 3,) * 2 and state.phase == "traits"
    # another seed shuffles the decks otherwise
    other = new_game(GAME, ("ann", "bob"), ("bigfoot", "mothman"), seed=4)
    assert (other.action_deck, other.event_deck) != (state.action_deck, state.event_deck)


def test_a_wilderness_of_other_than_six_sites_is_a_data_error() -> None:
    # "The Wilderness (2) which is composed of 6 Sites": a game file with a seventh Site
    # breaks a structural rule (check reports it as a data-error).
    text = builtin_path("twisted-cryptids.toml").read_text("utf-8")
    first = text.index("[[site]]")
    end = text.index("[[", first + 1)
    site = text[first:end].replace('name = "', 'name = "another ', 1)
    doc = tomllib.loads(text[:first] + site + text[first:])
    game = parse_game(doc, "seven.toml")
    assert len(game.sites) == 7
    assert ("site", "found 7 Sites, expected 6") in structural_problems(game, doc)


def test_the_first_player_places_first_and_the_token_passes_each_round() -> None:
    # "Give the First Player token to the player who last visited a park. They start the
    # game as the First Player." (the first seat here). "In player order (starting with the
    # First Player ...), place one of your Hiding Spot tokens"; the token passes to the left
    # after each placement round, and "Once each player has drawn up to 5 cards, the First
    # Player passes the First Player token to the player on their left". Two players: ann
    # places first; after three placement rounds bob is First Player in round 1 (see
    # two_player_dusk), then ann in round 2, bob in round 3 ... Random legal moves.
    state = step(step(_dealt(), KeepTrait(0)), KeepTrait(0))
    assert state.phase == "setup" and state.first == 0 and state.actor() == 0
    rng = random.Random(0)
    firsts: dict[int, int] = {}
    phases: list[tuple[int, str]] = []
    powers = 0
    while state.phase != "over":
        if state.round and (state.round, state.phase) not in phases:
            phases.append((state.round, state.phase))
        if state.phase == "dawn":  # the Cryptid Power: "once per round"
            assert not any(state.power_used)
        powers += sum(state.power_used)
        firsts.setdefault(state.round, state.first)
        state = step(state, rng.choice(legal_moves(state)))
    assert firsts == {0: 0, 1: 1, 2: 0, 3: 1, 4: 0, 5: 1}
    assert powers  # some Power was used, and the next Dawn found it ready again
    # "You will play Twisted Cryptids over 5 rounds, and each round is divided into 4
    # phases: Dawn, Day, Dusk, and Night." (Dusk: choose and reveal; Night: its steps.)
    rounds = [r for r, _ in phases]
    assert sorted(set(rounds)) == [1, 2, 3, 4, 5] and rounds == sorted(rounds)
    for r in range(1, 6):
        seen = [p for n, p in phases if n == r]
        assert seen[:2] == ["dawn", "day"] and seen[-1] in ("night-move", "night-place", "refill")


def _day(state=None):
    """ann's first Day turn of round 1 (the state of two_player_dusk, before its passes)."""
    state = state or two_player_dusk()
    return replace(state, turn=0, first=0)


def test_day_actions_play_power_once_a_round_or_pass() -> None:
    # "In player order, on your turn you will take one of the following Actions: Play an
    # Action card from your hand. Discard an Action card to use your Cryptid Power. You only
    # may do this once per round. Pass the turn to the next player."
    state = _day()
    hand = state.hands[0]
    moves = legal_moves(state)
    assert moves[0] == Pass()
    assert {m.card for m in moves if isinstance(m, Play)} == set(range(len(hand)))
    assert {m.card for m in moves if isinstance(m, Power)} == set(range(len(hand)))
    power = next(m for m in moves if isinstance(m, Power))
    after = step(state, power)
    # the card is discarded, bob is next, and ann's Power is spent for the round
    assert after.hands[0] == hand[1:] and after.discard == (hand[0],) and after.actor() == 1
    after = step(after, Pass())
    assert after.actor() == 0
    assert not any(isinstance(m, Power) for m in legal_moves(after))
    assert any(isinstance(m, Play) for m in legal_moves(after))
    play = next(m for m in legal_moves(after) if isinstance(m, Play))
    played = step(after, play)
    assert played.discard == (hand[0], after.hands[0][play.card])
    assert played.hands[0] == after.hands[0][1:]


def test_the_last_sighting_of_a_stack_sends_its_spot_to_the_box() -> None:
    # "If, during Dusk, you reveal the final Sighting in one of your Stacks and now that
    # Stack is empty, return the corresponding Hiding Spot token to the game box. You will
    # not use this Hiding Spot for the remainder of the game." bob's Stack 1 (at the ridge,
    # the Encounter Site) holds one card, his decoy (id 5): he reveals it; his spot 1 goes
    # to the box, not back on its Stack, and no Night move or placement ever names it.
    dusk = two_player_dusk()
    stacks = (dusk.stacks[0], ((5,), *dusk.stacks[1][1:]))
    state = step(replace(dusk, stacks=stacks), Pass())
    assert state.phase == "reveal" and state.actor() == 1
    state = step(state, Reveal((5,)))
    assert state.spots[1][0] == BOXED and state.returned[1] == () and state.stacks[1][0] == ()
    state = step(state, Reveal())  # ann's reveal; then the Night
    rng = random.Random(1)
    while state.phase != "over":
        if state.actor() == 1 and state.phase in ("night-move", "night-place"):
            named = [m.token for m in legal_moves(state) if isinstance(m, (Move, Place))]
            assert 0 not in named
        state = step(state, rng.choice(legal_moves(state)))
    assert state.spots[1][0] == BOXED


def test_refill_draws_to_five_and_shuffles_the_discard_when_the_deck_runs_out() -> None:
    # "You may choose to discard any number of cards, then draw from the Action deck until
    # you have 5 cards in your hand." "If there are not enough cards in the deck ..., draw
    # any remaining cards in the Action deck, then shuffle the discard pile and place it
    # face down to form a new Action deck. Continue to draw until you have 5 cards in your
    # hand." ann holds 2 cards (a, b), the deck 1 card (c), the discard 4 (d..g). She
    # discards a: keeps b, draws c, then the 5 cards of the discard (d..g and a) form a new
    # deck: she draws 3 of them, 2 stay in the deck, the discard is empty.
    base = _day()
    a, b, c, d, e, f, g = range(7)
    state = replace(
        base,
        phase="refill",
        round=1,
        turn=0,
        hands=((a, b), base.hands[1]),
        action_deck=(c,),
        discard=(d, e, f, g),
    )
    assert len(legal_moves(state)) == 4  # every subset of the 2 cards to discard
    after = step(state, Refill((0,)))
    hand = after.hands[0]
    assert len(hand) == 5 and hand[:2] == (b, c)
    assert sorted(hand[2:] + after.action_deck) == [a, d, e, f, g] and after.discard == ()


def test_the_fifth_round_skips_the_refill_and_discards_the_hand() -> None:
    # "(If you are in the fifth round, skip this step and discard any remaining cards in
    # your hand.)" ann's refill step in the fifth Night: skipped, her hand discarded; bob's
    # Night steps follow (no refill either), then the game is over.
    base = _day()
    state = night_enter(replace(base, phase="refill", round=5, turn=0))
    assert state.hands[0] == () and state.discard == base.hands[0]
    while state.phase != "over":
        assert state.phase != "refill"
        state = step(state, legal_moves(state)[0])
    assert state.hands == ((), ()) and sorted(state.discard) == sorted(sum(base.hands, ()))


def test_dawn_resolves_the_event_before_the_day() -> None:
    # "At the start of the round, the First Player will flip the top card of the Event
    # deck, add it face up to the Current Event pile, and resolve the listed effects from
    # top to bottom." "The round will then continue to the Day." At the first Dawn of
    # two_player_dusk's game bob (First Player) flips tour-bus (attract 3 hikers) and puts
    # them on the ridge (3 + 2 + 2 Humans); the Day follows with the deck one card shorter.
    state = step(step(_dealt_like_dusk(), KeepTrait(0)), KeepTrait(0))
    while state.phase == "setup":
        state = step(state, legal_moves(state)[0])
    assert state.phase == "dawn" and state.actor() == state.first == 1
    top, deck = state.event_deck[0], state.event_deck
    assert GAME.events[top].name == "tour-bus" and not state.current_events
    after = step(state, Resolve((2,)))
    assert after.phase == "day" and after.current_events == (top,)
    assert after.event_deck == deck[1:] and after.sites[2] == (3, 2, 2)


def _dealt_like_dusk():
    from tests.twisted_cryptids.test_model import STACKS_ANN, STACKS_BOB

    return new_game(
        GAME, ("ann", "bob"), ("bigfoot", "mothman"), seed=0, stacks=(STACKS_ANN, STACKS_BOB)
    )


def test_the_setup_limit_on_own_sites_at_night_is_a_reading() -> None:
    # "You may not place a Hiding Spot token on a Site that already has one of your Hiding
    # Spot tokens" is printed among the setup placements; the Night says "place that Hiding
    # Spot on a different Site than the Site at which the Encounter occurred". After the
    # ridge Encounter of two_player_dusk bob's spot 1 is back on its Stack, his others on
    # the swamp and the observatory: binds (default): campground, lake, trailhead;
    # setup-only: his own swamp and observatory too (never the ridge).
    for reading, sites in (("binds", (0, 1, 3)), ("setup-only", (0, 1, 3, 4, 5))):
        state = step(two_player_dusk({"twisted-cryptids/night-own-site": reading}), Pass())
        state = step(step(state, Reveal((5,))), Reveal())
        assert state.phase == "night-place" and state.actor() == 1
        assert legal_moves(state) == tuple(Place(s, 0) for s in sites)
