"""Turns of play as a hypothesis state machine: cards, explorers moving, traps built.

Each card's result becomes the next position, so invariants are checked across
many turns, not one card: every black marker stays accounted for, no trap holds
2 bloodsuckers (it would have been destroyed), traps fit their build sites, and
with the Scarab closed no bloodsucker ever stands on it.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from ruleslawyer.models.kaelyfos.points import RULE_POINTS
from ruleslawyer.models.kaelyfos.resolve import Card, Position, Trap, step
from tests.kaelyfos.helpers import NESTS, board

NODES = board().node_ids
READINGS = {p.id: p.reading_names for p in RULE_POINTS if p.readings}


class Turns(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.position = Position(
            board=board(),
            nests=NESTS,
            supply=board().supply,
            card=Card((), 0),
            explorers=(("ada", "scarab"), ("ben", "scarab")),
        )
        self.rulings: dict[str, str] = {}
        self.scarab_opened = False  # once open, a bloodsucker may be left standing on it

    @rule(point=st.sampled_from(sorted(READINGS)), data=st.data())
    def rule_on(self, point: str, data) -> None:
        self.rulings[point] = data.draw(st.sampled_from(READINGS[point]))
        self.scarab_opened |= self.rulings.get("kaelyfos/scarab-passable") == "yes"

    @rule(spawn=st.lists(st.sampled_from("ABC"), max_size=3), move=st.integers(0, 3))
    def play_card(self, spawn: list[str], move: int) -> None:
        card = Card(tuple(spawn), move)
        result = step(Position(**{**self.position.__dict__, "card": card}), self.rulings).result
        self.position = Position(
            board=board(),
            nests=NESTS,
            supply=result.supply,
            card=card,
            explorers=self.position.explorers,
            bloodsuckers=result.bloodsuckers,
            traps=result.traps,
            removed_from_play=result.removed_from_play,
        )

    @rule(who=st.sampled_from(["ada", "ben"]), where=st.sampled_from(NODES))
    def explorer_moves(self, who: str, where: str) -> None:
        crew = dict(self.position.explorers)
        crew[who] = where
        self.position = Position(
            **{**self.position.__dict__, "explorers": tuple(sorted(crew.items()))}
        )

    @precondition(lambda self: any(self._free_site(n) for _, n in self.position.explorers))
    @rule(data=st.data())
    def build_trap(self, data) -> None:
        # Traps: "If you are on a node with an empty build site, you may build a trap".
        sites = [n for _, n in self.position.explorers if self._free_site(n)]
        node = data.draw(st.sampled_from(sites))
        traps = (*self.position.traps, Trap(node, 0))
        self.position = Position(**{**self.position.__dict__, "traps": traps})

    def _free_site(self, node: str) -> bool:
        used = sum(1 for t in self.position.traps if t.node == node)
        return used < board().node(node).build_sites

    @invariant()
    def markers_are_conserved(self) -> None:
        assert self.position.markers() == board().supply

    @invariant()
    def traps_hold_at_most_one_and_fit(self) -> None:
        assert all(0 <= t.caught <= 1 for t in self.position.traps)
        per_node = Counter(t.node for t in self.position.traps)
        assert all(n <= board().node(node).build_sites for node, n in per_node.items())

    @invariant()
    def closed_scarab_stays_empty(self) -> None:
        if not self.scarab_opened:
            assert board().scarab not in dict(self.position.bloodsuckers)


Turns.TestCase.settings = settings(max_examples=40, stateful_step_count=25, deadline=None)
TestTurns = Turns.TestCase
