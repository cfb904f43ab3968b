"""A hypothesis state machine plays random Twisted Cryptids games with the built-in data
and checks the rulebook's invariants after every move."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from ruleslawyer.models.twisted_cryptids.game import builtin_game
from ruleslawyer.models.twisted_cryptids.play import (
    BOXED,
    final_scores,
    legal_moves,
    player_cap,
    step,
)
from ruleslawyer.solvers.twisted_cryptids.simulate import deal

GAME = builtin_game()
TOTAL = GAME.total_humans()


class CryptidGame(RuleBasedStateMachine):
    @initialize(
        players=st.integers(2, 6),
        seed=st.integers(0, 10_000),
        rulings=st.fixed_dictionaries(
            {
                "twisted-cryptids/myth-floor": st.sampled_from(["floor-at-zero", "negative"]),
                "twisted-cryptids/optional-move-constraints": st.sampled_from(
                    ["constrained", "free"]
                ),
                "twisted-cryptids/small-game-cap": st.sampled_from(["no-cap", "cap-3"]),
                "twisted-cryptids/night-placement-limits": st.sampled_from(["constrained", "free"]),
                "twisted-cryptids/night-order": st.sampled_from(["each-player", "each-step"]),
                "twisted-cryptids/event-chooser": st.sampled_from(["first-player", "player-order"]),
                "twisted-cryptids/boxed-spot-move": st.sampled_from(["may-move", "no-move"]),
            }
        ),
    )
    def start(self, players, seed, rulings):
        self.state = deal(GAME, players, seed, rulings)
        self.free = "free" in (
            rulings["twisted-cryptids/optional-move-constraints"],
            rulings["twisted-cryptids/night-placement-limits"],
        )
        self.floor = rulings["twisted-cryptids/myth-floor"] == "floor-at-zero"

    @rule(pick=st.integers(0, 10**6), burst=st.integers(1, 60))
    def play(self, pick, burst):
        for i in range(burst):
            moves = legal_moves(self.state)
            if not moves:
                break
            self.state = step(self.state, moves[(pick + 7919 * i) % len(moves)])

    @invariant()
    def humans_are_conserved(self):
        s = self.state
        for h in range(3):
            assert s.rest[h] + sum(site[h] for site in s.sites) == TOTAL[h]
            assert s.rest[h] >= 0 and all(site[h] >= 0 for site in s.sites)

    @invariant()
    def no_site_over_its_cap_and_no_two_own_spots(self):
        s = self.state
        cap = player_cap(s.n, s.reading("twisted-cryptids/small-game-cap"))
        for own in s.spots:
            on = [x for x in own if x >= 0]
            assert len(on) == len(set(on))
        if cap is not None and not self.free:
            assert all(s.site_players(site) <= cap for site in range(len(s.sites)))

    @invariant()
    def at_most_one_encounter_per_round(self):
        rounds = [r for r, _ in self.state.encounters]
        assert len(rounds) == len(set(rounds))
        assert all(1 <= r <= GAME.rounds for r in rounds)

    @invariant()
    def nine_sightings_per_cryptid(self):
        s = self.state
        for p in range(s.n):
            held = [x for stack in s.stacks[p] for x in stack]
            shown = [x for _, x, _ in s.revealed[p]]
            assert sorted(held + shown) == list(range(9))
            # a Hiding Spot is boxed exactly when its Stack is empty
            for token, stack in enumerate(s.stacks[p]):
                assert (s.spots[p][token] == BOXED) == (not stack)
            # one reveal per player per round
            per_round = Counter(r for _, _, r in s.revealed[p])
            assert all(v == 1 for v in per_round.values())

    @invariant()
    def myth_and_hands(self):
        s = self.state
        if self.floor:
            assert all(m >= 0 for m in s.myth)
        assert all(len(h) <= GAME.hand_size for h in s.hands)
        if s.phase == "over":
            assert all(h == () for h in s.hands)
            assert len(final_scores(s)) == s.n


CryptidGame.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestCryptidGame = CryptidGame.TestCase
