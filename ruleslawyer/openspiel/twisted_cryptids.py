"""Twisted Cryptids as the OpenSpiel game ``ruleslawyer_twisted_cryptids``.

Sequential, imperfect information, general-sum, explicit chance. The rules are the
model's (:mod:`ruleslawyer.models.twisted_cryptids.play`): its legal moves, in its order,
are the acting player's actions (the Hidden Trait kept, every Hiding Spot placement, every
Event effect's Sites, every Day action with its Sites, the First Player's choice among
tied Sites, each reveal with its Sites, the Night moves and placements, every refill
discard), and its ``step`` plays them. What the model draws from a seed is chance here,
one card at a time, each card left equally likely: each player's Stacks (Sighting by
Sighting, top first), the two Hidden Traits each is dealt, the hands, the Event flipped
at each Dawn, and the cards a refill draws (from the Action deck, then from the discard
pile the model reshuffles when the deck runs out). Identical cards are one outcome (its
probability their share of the pool). The decks stay in no order until a card is drawn.

Returns, from the game's own end (:func:`~ruleslawyer.models.twisted_cryptids.play.winners`):
"The player with the greatest total Myth wins the game"; a tie goes to "the tied player
with the most Humans" on the Sites where they have Hiding Spots (counted where
``twisted-cryptids/tie-break-count`` reads); players still tied are "both legends": 1 to
every winner, shared or not, 0 to every other player.

Information: each player's information state and observation are
:func:`~ruleslawyer.models.twisted_cryptids.knowledge.information_state` (the public view
and their own Stacks, hand and Hidden Traits; not a history of moves: two histories that
leave the same views give the same string). ``resample_from_infostate`` draws a world the
player cannot tell apart (:func:`~ruleslawyer.models.twisted_cryptids.knowledge.sample_world`).

Parameters: ``players`` (2-6, default 2; seat k plays the game file's k-th Cryptid),
``game`` (a game id or file; its ``[rulings]`` first), ``record`` (a record with a
``[position]``, the file ``twisted-cryptids advise`` reads, to play on from: what its
perspective does not see is dealt by chance first, see :data:`RECORD_DEAL`) and
``rulings`` (``ID:READING`` entries; these win).

Actions (``S`` Sites, ``T`` the most ways any card of the game offers to choose its Sites,
``H`` the largest hand): the ranges below in this order, each move's number inside its
range from its fields: keep a Hidden Trait (2), place Hiding Spot ``t`` on ``s``
(``3 S``), resolve the Event's effect (``T``: the index of its Sites among the model's
target choices), pass, play hand card ``i`` (``H T``), use the Power discarding ``i``
(``H T``), choose the Encounter Site (``S``), reveal (``T``), stay, move Hiding Spot ``t``
to ``s`` (``3 S``), stuck, refill discarding a set of hand cards (``2^H``: the set as a
bit mask). Chance outcomes: a card's index in the game file's list (the first of its
identical copies left).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pyspiel

from ruleslawyer.errors import InputError
from ruleslawyer.models.twisted_cryptids import knowledge
from ruleslawyer.models.twisted_cryptids.game import (
    STACK_DEPTH,
    STACKS,
    Effect,
    Game,
    load_game,
    structural_problems,
    target_count,
)
from ruleslawyer.models.twisted_cryptids.play import (
    Choose,
    GameMove,
    KeepTrait,
    Move,
    Pass,
    Place,
    Play,
    Power,
    Refill,
    Resolve,
    State,
    Stay,
    Stuck,
    describe,
    legal_moves,
    new_game,
    step,
    target_choices,
    winners,
)
from ruleslawyer.models.twisted_cryptids.points import RULE_POINTS
from ruleslawyer.openspiel import adapter

NAME = "ruleslawyer_twisted_cryptids"
GAME_ID = "twisted-cryptids"
PARAMETERS = {"players": 2, "game": GAME_ID, "record": "", "rulings": ""}
NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")
RETURNS = (
    "1 to the winner (the greatest total Myth; a tie to the tied player with the most Humans "
    "on the Sites where they have Hiding Spots, counted as twisted-cryptids/tie-break-count "
    "reads); players still tied are all legends: 1 to each; 0 to every other player"
)
RECORD_DEAL = (
    "dealt by chance first: the other players' unrevealed Sightings over their unrevealed "
    "slots (those the record knows kept), their Hidden Traits (not the perspective's, not the "
    "excluded ones; the perspective's too when the record does not name it) and a full hand "
    "each from the Action cards the perspective does not hold (the record gives neither the "
    "other hands' sizes nor the discard pile: nothing discarded yet); the Event deck holds "
    "every Event not face up now"
)


@dataclass(frozen=True)
class Slot:
    """A card chance deals: from ``pool`` to ``player``'s Stack slot, Hidden Trait (``place``
    0 kept, 1 returned) or hand, or a refill's draw."""

    pool: str  # sighting | trait | action | pile
    player: int
    place: int = 0

    @property
    def key(self) -> str:
        """The pool's name in :attr:`Deal.pools` (each player's Sightings their own)."""
        return f"sighting:{self.player}" if self.pool == "sighting" else self.pool


@dataclass(frozen=True)
class Deal:
    """Cards chance deals one at a time before the model's state is whole: the slots, the
    cards of each pool at the start (sorted), the cards dealt so far and, for a refill's
    draws, the refill."""

    slots: tuple[Slot, ...]
    pools: tuple[tuple[str, tuple[int, ...]], ...]
    picks: tuple[int, ...] = ()
    refill: Refill | None = None

    def left(self, slot: Slot | None = None) -> tuple[int, ...]:
        """The cards ``slot``'s pool still holds (default: the next slot's)."""
        slot = slot or self.slots[len(self.picks)]
        taken = {c for s, c in zip(self.slots, self.picks, strict=False) if s.key == slot.key}
        return tuple(c for c in dict(self.pools)[slot.key] if c not in taken)


@dataclass(frozen=True)
class Table:
    """The game: the model's state, the last round whose Event was flipped (a later Dawn
    flips by chance first), and the cards being dealt (``deal``)."""

    state: State
    flipped: int
    deal: Deal | None = None


class TwistedCryptids(adapter.Machine):
    """The model as OpenSpiel drives it, from ``first`` (see the module doc)."""

    def __init__(
        self,
        first: Table,
        known: Mapping[int, frozenset[tuple[int, int, int]]] | None = None,
        out_of_play: tuple[int, ...] = (),
    ) -> None:
        self.first, self.known, self.out_of_play = first, dict(known or {}), out_of_play
        self.perspective = next(iter(self.known), None)
        state = first.state
        game = state.game
        self.game, self.n = game, state.n
        self.sites = len(game.sites)
        sightings = max(len(c.sightings) for c in game.cryptids)
        self.most_targets = max(_target_counts(game, self.sites), default=1)
        self.hand = max(game.hand_size, *(len(h) for h in state.hands))
        self.ranges = _ranges(self.sites, self.most_targets, self.hand)
        self.num_players = self.n
        self.num_distinct_actions = sum(size for _, size in self.ranges)
        self.max_chance_outcomes = max(sightings, len(game.traits), len(game.actions),
                                       len(game.events), 1)  # fmt: skip
        self.stochastic = True
        self.utility = adapter.GameType.Utility.GENERAL_SUM
        self.min_utility, self.max_utility = 0.0, 1.0
        deals = 0 if first.deal is None else len(first.deal.slots)
        per_round = 4 + 3 * self.n + 1 + self.n + (1 + STACKS) * self.n + self.n
        draws = (game.hand_size + 1) * self.n + 1
        self.max_game_length = deals + 3 * self.n + game.rounds * (per_round + draws)

    # --- building ---------------------------------------------------------------------

    @classmethod
    def from_parameters(cls, params: Mapping[str, Any]) -> TwistedCryptids:
        players = params["players"]
        if not 2 <= players <= 6:
            raise InputError("OpenSpiel parameter", "players", players, "2 to 6")
        if params["record"]:
            return _from_record(params)
        from ruleslawyer.gamefiles.source import load_source

        source = load_source(params["game"])
        if source.game != GAME_ID:
            raise InputError(params["game"], "game", source.game, "a twisted-cryptids game file")
        game = load_game(source)
        problems = structural_problems(game, source.document)
        if problems:
            place, message = problems[0]
            expected = "a game file `ruleslawyer check` finds no data error in"
            raise InputError(source.display, place, message, expected)
        if players > len(game.cryptids):
            expected = f"at most {len(game.cryptids)} (the Cryptids of {source.display})"
            raise InputError("OpenSpiel parameter", "players", players, expected)
        chosen = adapter.rulings(RULE_POINTS, source.rulings(), params["rulings"], source.display)
        return cls(new_table(game, players, chosen))

    def with_state(self, state: State) -> Table:
        """A model state of a game played elsewhere (every card dealt, the Event face up)."""
        return Table(state, state.round)

    # --- the adapter's questions -----------------------------------------------------

    def initial(self) -> Table:
        return self.first

    def player(self, table: Table) -> int:
        state = table.state
        if table.deal is not None:
            return adapter.CHANCE
        if state.phase == "over":
            return adapter.TERMINAL
        if state.phase == "dawn" and state.round > table.flipped:
            return adapter.CHANCE
        actor = state.actor()
        return adapter.TERMINAL if actor is None else actor

    def moves(self, table: Table) -> list[tuple[int, GameMove]]:
        state = table.state
        return [(self.action(state, m), m) for m in legal_moves(state)]

    def action(self, state: State, move: GameMove) -> int:
        """The action id of ``move`` (legal in ``state``)."""
        base = dict(_bases(self.ranges))
        s, t = self.sites, self.most_targets
        if isinstance(move, KeepTrait):
            return base["keep"] + move.card
        if isinstance(move, Place):
            return base["place"] + move.token * s + move.site
        if isinstance(move, Move):
            return base["move"] + move.token * s + move.site
        if isinstance(move, Choose):
            return base["choose"] + move.site
        if isinstance(move, Refill):
            return base["refill"] + sum(1 << i for i in move.discard)
        if isinstance(move, (Pass, Stay, Stuck)):
            return base[type(move).__name__.lower()]
        index = _target_index(*self._effects(state, move), self.sites)[move.targets]
        if isinstance(move, (Play, Power)):
            kind = "play" if isinstance(move, Play) else "power"
            return base[kind] + move.card * t + index
        return base["resolve" if isinstance(move, Resolve) else "reveal"] + index

    def _effects(self, state: State, move: GameMove) -> tuple[tuple[Effect, ...], int | None]:
        """The effects ``move`` chooses Sites for, and the Encounter Site they may be fixed at."""
        g = state.game
        player = state.actor()
        assert player is not None
        if isinstance(move, Play):
            return g.actions[state.hands[player][move.card]].effect, None
        if isinstance(move, Power):
            return g.cryptids[state.cryptids[player]].power, None
        if isinstance(move, Resolve):
            return g.events[state.event_deck[0]].effect[state.dawn_step :][:1], None
        token = state.spots[player].index(state.encounter)
        sighting = g.cryptids[state.cryptids[player]].sightings[state.stacks[player][token][0]]
        return sighting.effect, state.encounter

    def play(self, table: Table, move: GameMove) -> Table:
        state = table.state
        if isinstance(move, Refill):
            deal = self._refill_deal(state, move)
            if deal.slots:
                return replace(table, deal=deal)
        return replace(table, state=step(state, move, checked=False))

    def _refill_deal(self, state: State, move: Refill) -> Deal:
        """The cards a refill draws, by chance: from the deck, then (the deck run out) from
        the discard pile with the cards just discarded, as the model reshuffles it."""
        player = state.actor()
        assert player is not None
        hand = state.hands[player]
        need = state.game.hand_size - (len(hand) - len(move.discard))
        deck = tuple(sorted(state.action_deck))
        from_deck = min(max(need, 0), len(deck))
        slots = [Slot("action", player)] * from_deck
        pools = [("action", deck)]
        if need > len(deck):
            pile = tuple(sorted((*state.discard, *(hand[i] for i in move.discard))))
            slots += [Slot("pile", player)] * min(need - len(deck), len(pile))
            pools.append(("pile", pile))
        return Deal(tuple(slots), tuple(pools), refill=move)

    def chances(self, table: Table) -> list[tuple[int, float, Table]]:
        if table.deal is not None:
            left = table.deal.left()
            slot = table.deal.slots[len(table.deal.picks)]
            return [(c, share, self._dealt(table, c)) for c, share in self._groups(slot, left)]
        state = table.state
        outcomes = []
        for event, share in self._groups(Slot("event", -1), state.event_deck):
            rest = list(state.event_deck)
            rest.remove(event)
            flipped = replace(state, event_deck=(event, *sorted(rest)))
            outcomes.append((event, share, Table(flipped, state.round)))
        return outcomes

    def _card(self, slot: Slot, card: int) -> Any:
        g = self.game
        if slot.pool == "sighting":
            return g.cryptids[self.first.state.cryptids[slot.player]].sightings[card]
        if slot.pool == "trait":
            return g.traits[card]
        if slot.pool == "event":
            return g.events[card]
        return g.actions[card]

    def _groups(self, slot: Slot, left: Sequence[int]) -> list[tuple[int, float]]:
        """The outcomes of dealing one of ``left``: identical cards as one (the first left),
        each with its share of the pool; ascending."""
        firsts: dict[Any, int] = {}
        counts: Counter[int] = Counter()
        for c in sorted(left):
            first = firsts.setdefault(self._card(slot, c), c)
            counts[first] += 1
        return [(c, counts[c] / len(left)) for c in sorted(counts)]

    def _dealt(self, table: Table, card: int) -> Table:
        deal = table.deal
        assert deal is not None
        deal = replace(deal, picks=(*deal.picks, card))
        if len(deal.picks) < len(deal.slots):
            return replace(table, deal=deal)
        if deal.refill is not None:
            return Table(self._refilled(table.state, deal), table.flipped)
        return Table(_dealt_state(table.state, deal), table.flipped)

    def _refilled(self, state: State, deal: Deal) -> State:
        """The model's refill, with the cards chance drew: the model's step decides how many
        come from where and what is left in the discard pile; the hand holds the cards
        drawn, the deck what its pool has left."""
        assert deal.refill is not None
        player = state.actor()
        assert player is not None
        after = step(state, deal.refill, checked=False)
        hand = state.hands[player]
        kept = tuple(c for i, c in enumerate(hand) if i not in deal.refill.discard)
        deck = deal.left(deal.slots[-1])
        drawn = (*kept, *deal.picks)
        if len(after.hands[player]) != len(drawn) or len(after.action_deck) != len(deck):
            raise AssertionError("the model's refill drew another number of cards")
        hands = (*after.hands[:player], drawn, *after.hands[player + 1 :])
        return replace(after, hands=hands, action_deck=deck)

    def returns(self, table: Table) -> tuple[float, ...]:
        best = winners(table.state)
        return tuple(1.0 if p in best else 0.0 for p in range(self.n))

    def move_text(self, table: Table, move: GameMove) -> str:
        """The model's words, with the hand cards named by place (copies of a card differ)."""
        state = table.state
        hand = state.hands[state.actor() or 0]
        if isinstance(move, Refill):
            cards = ", ".join(f"{self.game.actions[hand[i]].name} (card {i + 1})"
                              for i in move.discard)  # fmt: skip
            return describe(state, move) + f": {cards or 'nothing'}"
        if isinstance(move, (Play, Power)):
            return describe(state, move) + f" (hand card {move.card + 1})"
        return describe(state, move)

    def chance_text(self, table: Table, outcome: int, after: Table) -> str:
        state, g = table.state, self.game
        if table.deal is None:
            return f"round {state.round}: the Event flipped is {g.events[outcome].name}"
        slot = table.deal.slots[len(table.deal.picks)]
        who = state.players[slot.player]
        if slot.pool == "sighting":
            return f"{who}'s next Stack slot: {self._card(slot, outcome).kind}"
        if slot.pool == "trait":
            return f"{who} is dealt Hidden Trait {g.traits[outcome].name}"
        source = "the reshuffled discard pile" if slot.pool == "pile" else "the Action deck"
        return f"{who} draws {g.actions[outcome].name} from {source}"

    def text(self, table: Table) -> str:
        state, g = table.state, self.game
        names = [s.name for s in g.sites]
        lines = [f"round {state.round}, phase {state.phase}; first player "
                 f"{state.players[state.first]}"]  # fmt: skip
        if table.deal is not None:
            lines.append(f"dealing: {len(table.deal.picks)} of {len(table.deal.slots)} cards")
        for p, name in enumerate(state.players):
            spots = ", ".join(names[s] if s >= 0 else "stack" if s == -1 else "boxed"
                              for s in state.spots[p])  # fmt: skip
            lines.append(f"{name}: Myth {state.myth[p]}; Hiding Spots {spots}")
        lines.append(
            "Sites: " + ", ".join(f"{n} {list(h)}" for n, h in zip(names, state.sites, strict=True))
        )
        if state.phase == "over":
            lines.append("winners: " + ", ".join(state.players[p] for p in winners(state)))
        return "\n".join(lines) + "\n"

    def information_state(self, state: adapter.ModelState, player: int) -> str:
        table = state.model
        if table.deal is not None:
            return f"player {player}: cards being dealt\n"
        flipped = table.state.round <= table.flipped
        seen = knowledge.information_state(table.state, player, flipped=flipped)
        return f"player {player}\npublic {seen.public!r}\nprivate {seen.private!r}\n"

    def observation(self, state: adapter.ModelState, player: int) -> str:
        return self.information_state(state, player)

    def resample(self, table: Table, player: int, rng: random.Random) -> Table:
        world = knowledge.sample_world(
            table.state,
            player,
            rng,
            known=self.known.get(player, ()),
            out_of_play=self.out_of_play if player == self.perspective else (),
        )
        return replace(table, state=world)


def _ranges(sites: int, targets: int, hand: int) -> tuple[tuple[str, int], ...]:
    """The action ranges, in the order of their ids (see the module doc)."""
    return (
        ("keep", 2), ("place", STACKS * sites), ("resolve", targets), ("pass", 1),
        ("play", hand * targets), ("power", hand * targets), ("choose", sites),
        ("reveal", targets), ("stay", 1), ("move", STACKS * sites), ("stuck", 1),
        ("refill", 1 << hand),
    )  # fmt: skip


@functools.lru_cache(maxsize=64)
def _bases(ranges: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    out, at = [], 0
    for name, size in ranges:
        out.append((name, at))
        at += size
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _target_index(
    effects: tuple[Effect, ...], at: int | None, sites: int
) -> dict[tuple[int, ...], int]:
    """Each choice of Sites for ``effects`` and its index in the model's order."""
    return {t: i for i, t in enumerate(target_choices(effects, sites, at=at))}


def _target_counts(game: Game, sites: int) -> list[int]:
    lists = [c.power for c in game.cryptids] + [
        s.effect for c in game.cryptids for s in c.sightings
    ]
    lists += [c.effect for c in game.actions]
    lists += [e for card in game.events for e in ((x,) for x in card.effect)]
    return [target_count(effects, sites) for effects in lists]


def new_table(game: Game, players: int, rulings: Mapping[str, str]) -> Table:
    """A new game of the first ``players`` Cryptids, before chance deals it."""
    cryptids = tuple(c.name for c in game.cryptids[:players])
    state = new_game(game, NAMES[:players], cryptids, rulings=rulings)
    state = replace(
        state,
        stacks=(((-1,) * STACK_DEPTH,) * STACKS,) * players,  # every slot dealt by chance
        traits=(0,) * players,
        discarded_traits=(0,) * players,
        hands=((),) * players,
        action_deck=(),
        event_deck=tuple(range(len(game.events))),
    )
    slots: list[Slot] = []
    pools: list[tuple[str, tuple[int, ...]]] = []
    for p in range(players):
        size = len(game.cryptids[state.cryptids[p]].sightings)
        slots += [Slot("sighting", p, i) for i in range(size)]
        pools.append((f"sighting:{p}", tuple(range(size))))
    slots += [Slot("trait", p, k) for p in range(players) for k in (0, 1)]
    slots += [Slot("action", p) for p in range(players) for _ in range(game.hand_size)]
    pools += [
        ("trait", tuple(range(len(game.traits)))),
        ("action", tuple(range(len(game.actions)))),
    ]
    return Table(state, 0, Deal(tuple(slots), tuple(pools)))


def _dealt_state(state: State, deal: Deal) -> State:
    """The model's state with the cards of ``deal`` in their places: Sightings into the
    open Stack slots (-1) in order (Stacks in order, each top first; the slots holding a
    card keep it), Hidden Traits, hands; the Action deck what its pool
    has left, in no order."""
    stacks = [list(map(list, rows)) for rows in state.stacks]
    traits, returned = list(state.traits), list(state.discarded_traits)
    hands = [list(h) for h in state.hands]
    open_slots = {p: [(j, i) for j, row in enumerate(rows) for i, s in enumerate(row) if s < 0]
                  for p, rows in enumerate(state.stacks)}  # fmt: skip
    taken: set[int] = set()
    for slot, card in zip(deal.slots, deal.picks, strict=True):
        if slot.pool == "sighting":
            j, i = open_slots[slot.player].pop(0)
            stacks[slot.player][j][i] = card
        elif slot.pool == "trait":
            (traits if slot.place == 0 else returned)[slot.player] = card
        else:
            hands[slot.player].append(card)
            taken.add(card)
    deck = tuple(c for c in dict(deal.pools).get("action", ()) if c not in taken)
    return replace(
        state,
        stacks=tuple(tuple(tuple(s) for s in rows) for rows in stacks),
        traits=tuple(traits),
        discarded_traits=tuple(returned),
        hands=tuple(tuple(h) for h in hands),
        action_deck=deck if "action" in dict(deal.pools) else state.action_deck,
    )


def _from_record(params: Mapping[str, Any]) -> TwistedCryptids:
    """The game from a record's ``[position]``: what its perspective does not see dealt by
    chance (:data:`RECORD_DEAL`)."""
    from ruleslawyer.solvers.twisted_cryptids.position import excluded_traits, position_state
    from ruleslawyer.solvers.twisted_cryptids.record import load_record

    if params["game"] != GAME_ID:
        found = f"game={params['game']}"
        raise InputError("OpenSpiel parameter", "game", found, "none with a record (its own)")
    path = str(params["record"])
    chosen = adapter.rulings(RULE_POINTS, {}, params["rulings"], path)
    record, game = load_record(path, chosen)
    if len(record.players) != params["players"]:
        found = f"players={params['players']}"
        expected = f"players={len(record.players)}, as {path} has"
        raise InputError("OpenSpiel parameter", "players", found, expected)
    state, hidden = position_state(record, game, path, chosen)
    me = state.players.index(record.perspective)
    slots: list[Slot] = []
    pools: list[tuple[str, tuple[int, ...]]] = []
    stacks = list(state.stacks)
    known: set[tuple[int, int, int]] = set()
    for h in hidden:
        rows, at = [], 0
        formed = knowledge.formed_slots(state, h.player)
        for size in h.sizes:
            rows.append(tuple(-1 if s is None else s for s in h.fixed[at : at + size]))
            at += size
        for (j, d), s in zip(formed, h.fixed, strict=True):
            if s is not None:
                known.add((h.player, j, d))
        stacks[h.player] = tuple(rows)
        slots += [Slot("sighting", h.player)] * len(h.free)
        pools.append((f"sighting:{h.player}", tuple(sorted(h.free))))
    out = set(excluded_traits(record, game))
    named = next(p for p in record.players if p.name == record.perspective).trait is not None
    traits = tuple(t for t in range(len(game.traits)) if t not in out)
    if named:
        traits = tuple(t for t in traits if t != state.traits[me])
    dealt = [p for p in range(state.n) if p != me or not named]
    if len(traits) < len(dealt):
        raise InputError(path, "excluded_traits", f"{len(traits)} Hidden Traits left",
                         f"at least {len(dealt)} to deal")  # fmt: skip
    slots += [Slot("trait", p) for p in dealt]
    pools.append(("trait", traits))
    mine = Counter(state.hands[me])
    actions = tuple(c for c in range(len(game.actions)) if not mine[c])
    size = min(game.hand_size, len(actions) // max(1, state.n - 1))
    slots += [Slot("action", p) for p in range(state.n) if p != me for _ in range(size)]
    pools.append(("action", actions))
    events = tuple(range(len(game.events)))
    top = state.event_deck[:1] if state.phase == "dawn" else ()
    table = replace(
        state,
        stacks=tuple(stacks),
        event_deck=(*top, *(e for e in events if e not in top)),
        discarded_traits=(None,) * state.n,
    )
    first = Table(table, table.round, Deal(tuple(slots), tuple(pools)))
    return TwistedCryptids(first, {me: frozenset(known)}, tuple(sorted(out)))


def load(
    *,
    players: int = 2,
    game: str = GAME_ID,
    record: str = "",
    rulings: Mapping[str, str] | None = None,
) -> adapter.ModelGame:
    """The registered game with these parameters (``pyspiel.load_game`` under its name)."""
    params = {"players": players, "game": game, "record": record,
              "rulings": adapter.pair_text(rulings or {})}  # fmt: skip
    return pyspiel.load_game(NAME, params)


def game_of(game: Game, players: int, rulings: Mapping[str, str]) -> adapter.ModelGame:
    """The game of ``game`` in memory (a file's, or one built by a program) for ``players``:
    the game ``load_game`` gives for its file; its machine also takes a model state of a
    game played elsewhere (:meth:`TwistedCryptids.with_state`)."""
    machine = TwistedCryptids(new_table(game, players, rulings))
    params = {**PARAMETERS, "players": players, "game": "(in memory)",
              "rulings": adapter.pair_text(rulings)}  # fmt: skip
    return adapter.game_of(NAME, machine, params)


adapter.register(
    NAME,
    "ruleslawyer: Twisted Cryptids",
    PARAMETERS,
    TwistedCryptids.from_parameters,
    players=(2, 6),
    information=adapter.GameType.Information.IMPERFECT_INFORMATION,
)
