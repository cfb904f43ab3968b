"""Twisted Cryptids hidden Stacks: which Sightings can lie where, given a record of play.

Each player's nine Sightings lie in three Stacks of three; the record says
which slots were revealed as what, and what the perspective player knows.
An *arrangement* of a player assigns a Sighting kind to every unrevealed
slot so that the kinds used are exactly the player's cards not yet revealed
(cards of one kind are interchangeable) and every known slot holds its kind.
Players' arrangements are independent, so each player is solved alone:

- Z3 (``z3_player``) models every slot as an integer kind; it decides
  consistency, finds the first reveal no arrangement fits, and bounds the
  Real Deals left hidden at the end (future reveals come off Stack tops, at
  most one a round) and the final Myth (Myth now + 7 per hidden Real Deal +
  the Hidden Trait bonus, with an unknown trait ranging over those still
  possible);
- the counts are combinatorics over the multiset of the remaining cards:
  the free slots take a multiset permutation of what is left, so a slot holds
  kind ``k`` in ``multinomial(left - k)`` arrangements. No model enumeration.

:func:`brute_force` is the plain reference (every distinct permutation, one
by one) the tests and benchmark compare against; :func:`z3_enumerate_counts`
counts by enumerating Z3 models with blocking clauses, for small cross-checks.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ruleslawyer.errors import InconsistentRecord
from ruleslawyer.models.twisted_cryptids.game import STACK_DEPTH, STACKS, Game, Trait
from ruleslawyer.models.twisted_cryptids.knowledge import multinomial
from ruleslawyer.solvers.twisted_cryptids.record import Record
from ruleslawyer.solvers.z3util import check

SLOTS = STACKS * STACK_DEPTH


@dataclass(frozen=True)
class PlayerView:
    """One player's hidden Stacks as the record shows them."""

    name: str
    kinds: tuple[str, ...]  # the kinds of the player's Cryptid, sorted
    deck: tuple[int, ...]  # how many Sightings of each kind the Cryptid has
    revealed: tuple[str | None, ...]  # per slot (stack * 3 + position): the kind revealed
    known: tuple[str | None, ...]  # per slot: the kind known privately
    depth: tuple[int, ...]  # per Stack: how many were revealed
    reveals_left: int  # rounds still to play (each may reveal at most one Sighting)
    myth: int
    traits: tuple[Trait, ...]  # the Hidden Traits this player may hold
    real_deal: str
    real_deal_bonus: int

    def hidden_slots(self) -> tuple[int, ...]:
        return tuple(i for i in range(SLOTS) if self.revealed[i] is None)

    def left(self) -> Counter[str]:
        """Kinds not yet revealed (may go negative in an inconsistent record)."""
        left = Counter(dict(zip(self.kinds, self.deck, strict=True)))
        left.subtract(k for k in self.revealed if k is not None)
        return left


def views(record: Record, game: Game, *, display: str = "record") -> tuple[PlayerView, ...]:
    """Build every player's view, raising :class:`InconsistentRecord` at the first bad entry."""
    names = [p.name for p in record.players]
    taken = {p.trait for p in record.players if p.trait is not None}
    excluded = taken | set(record.excluded_traits)
    slots: dict[str, list[str | None]] = {n: [None] * SLOTS for n in names}
    known: dict[str, list[str | None]] = {n: [None] * SLOTS for n in names}
    depth = {n: [0] * STACKS for n in names}

    def build(name: str) -> PlayerView:
        entry = record.players[names.index(name)]
        cryptid = game.cryptids[game.cryptid(entry.cryptid)]
        counts = cryptid.kinds()
        kinds = tuple(sorted(counts))
        if entry.trait is not None:
            traits = (game.traits[game.trait(entry.trait)],)
        else:
            traits = tuple(t for t in game.traits if t.name not in excluded) or game.traits
        return PlayerView(
            name=name,
            kinds=kinds,
            deck=tuple(counts[k] for k in kinds),
            revealed=tuple(slots[name]),
            known=tuple(known[name]),
            depth=tuple(depth[name]),
            reveals_left=game.rounds - record.rounds_played,
            myth=entry.myth,
            traits=traits,
            real_deal=game.real_deal,
            real_deal_bonus=game.real_deal_bonus,
        )

    for i, k in enumerate(record.known):  # in order: the first entry too many is blamed
        slot = (k.stack - 1) * STACK_DEPTH + (k.position - 1)
        if known[k.player][slot] not in (None, k.sighting):
            raise InconsistentRecord(
                display,
                f"known[{i}]",
                f"{k.sighting!r} for {k.player} stack {k.stack} position {k.position}",
                f"{known[k.player][slot]!r}, as an earlier known entry says",
            )
        known[k.player][slot] = k.sighting
        view = build(k.player)
        if not _consistent(view):
            total = dict(zip(view.kinds, view.deck, strict=True)).get(k.sighting, 0)
            raise InconsistentRecord(
                display,
                f"known[{i}]",
                f"{k.sighting!r} for {k.player} stack {k.stack} position {k.position}",
                f"known Sightings that fit the player's nine cards ({k.player} has "
                f"{total} {k.sighting!r}, {known[k.player].count(k.sighting)} now known)",
            )
    seen_rounds: set[tuple[str, int]] = set()
    for i, r in enumerate(record.reveals):
        what = f"{r.player} revealing {r.sighting!r} from stack {r.stack} in round {r.round}"
        if (r.player, r.round) in seen_rounds:
            raise InconsistentRecord(
                display,
                f"reveal[{i}]",
                what,
                "at most one reveal per player per round (one Encounter a round)",
            )
        seen_rounds.add((r.player, r.round))
        d = depth[r.player][r.stack - 1]
        if d >= STACK_DEPTH:
            raise InconsistentRecord(
                display,
                f"reveal[{i}]",
                what,
                f"a Stack with a card left (stack {r.stack} was emptied and its Hiding Spot boxed)",
            )
        slot = (r.stack - 1) * STACK_DEPTH + d
        slots[r.player][slot] = r.sighting
        depth[r.player][r.stack - 1] = d + 1
        view = build(r.player)
        if not _consistent(view):
            raise InconsistentRecord(display, f"reveal[{i}]", what, _why(view, slot))
    return tuple(build(n) for n in names)


def _why(view: PlayerView, slot: int) -> str:
    kind = view.revealed[slot]
    if view.left()[kind or ""] < 0:
        total = view.deck[view.kinds.index(kind)] if kind in view.kinds else 0
        return f"a Sighting the player still has ({view.name} has only {total} {kind!r})"
    if view.known[slot] not in (None, kind):
        return f"{view.known[slot]!r}, the Sighting known to lie in that slot"
    total = view.deck[view.kinds.index(kind)] if kind in view.kinds else 0
    placed = sum(
        1 for i in range(SLOTS) if (view.revealed[i] or view.known[i]) == kind and i != slot
    )
    if placed >= total:
        return (
            f"a Sighting the player still has ({view.name} has {total} {kind!r}, "
            f"{placed} revealed or known in other slots)"
        )
    return "a reveal some arrangement of the player's cards fits"


# --- consistency and bounds with Z3 ------------------------------------------------------


def _consistent(view: PlayerView) -> bool:
    """Fast exact test (the combinatorial count is positive); Z3 agrees, see z3_player."""
    return arrangements(view) > 0


def z3_player(view: PlayerView) -> dict[str, Any]:
    """Z3: consistency, and min/max of hidden Real Deals at the end and of the final Myth."""
    import z3

    slot = [z3.Int(f"{view.name}_s{i}") for i in range(SLOTS)]
    future = [z3.Int(f"{view.name}_f{j}") for j in range(STACKS)]
    base: list[Any] = []
    for i, var in enumerate(slot):
        base.append(z3.And(var >= 0, var < len(view.kinds)))
        for fixed in {view.revealed[i], view.known[i]} - {None}:
            base.append(var == view.kinds.index(fixed or ""))
    for k, count in enumerate(view.deck):
        base.append(z3.Sum([z3.If(v == k, 1, 0) for v in slot]) == count)
    for j in range(STACKS):
        base.append(z3.And(future[j] >= 0, future[j] <= STACK_DEPTH - view.depth[j]))
    base.append(z3.Sum(future) <= view.reveals_left)

    def hidden_at_end(i: int) -> Any:
        j, pos = divmod(i, STACK_DEPTH)
        return pos >= view.depth[j] + future[j]

    def count_hidden(kind: str) -> Any:
        if kind not in view.kinds:
            return z3.IntVal(0)
        k = view.kinds.index(kind)
        return z3.Sum([z3.If(z3.And(hidden_at_end(i), v == k), 1, 0) for i, v in enumerate(slot)])

    def count_revealed(kind: str) -> Any:
        if kind not in view.kinds:
            return z3.IntVal(0)
        k = view.kinds.index(kind)
        return z3.Sum(
            [z3.If(z3.Not(hidden_at_end(i)), z3.If(v == k, 1, 0), 0) for i, v in enumerate(slot)]
        )

    deals = z3.Int(f"{view.name}_deals")
    base.append(deals == count_hidden(view.real_deal))
    bonus = z3.Int(f"{view.name}_bonus")
    options = []
    for t in view.traits:
        what, _, arg = t.objective.partition(":")
        if what == "revealed":
            amount = count_revealed(arg)
        elif what == "hidden":
            amount = count_hidden(arg)
        else:  # Humans or Hiding Spots at the end: not in the record, any amount
            free = z3.Int(f"{view.name}_{t.name}_amount")
            base.append(free >= 0)
            amount = free
        options.append(bonus == _score(t, amount))
    base.append(z3.Or(options))
    final = view.myth + view.real_deal_bonus * deals + bonus

    opt = z3.Optimize()
    opt.set(priority="box")  # every objective optimised on its own, in one call
    opt.add(base)
    handles = {
        (name, sense): (opt.minimize(expr) if sense == "min" else opt.maximize(expr))
        for name, expr in (("real_deals_hidden", deals), ("final_myth", final))
        for sense in ("min", "max")
    }
    if check(opt) != z3.sat:
        return {"consistent": False}
    out: dict[str, Any] = {"consistent": True}
    for (name, sense), handle in handles.items():
        value = opt.lower(handle) if sense == "min" else opt.upper(handle)
        out.setdefault(name, {})[sense] = value.as_long()
    return out


def _score(trait: Trait, amount: Any) -> Any:
    import z3

    expr: Any = z3.IntVal(0)
    for least, myth in trait.bonus:  # ascending thresholds: the last reached wins
        expr = z3.If(amount >= least, myth, expr)
    return expr


# --- exact counts by combinatorics ---------------------------------------------------------


def _free(view: PlayerView) -> tuple[Counter[str], tuple[int, ...]] | None:
    """What the free (unrevealed, not known) slots must hold, and which slots they are."""
    left = view.left()
    free = []
    for i in view.hidden_slots():
        if view.known[i] is None:
            free.append(i)
        else:
            left[view.known[i] or ""] -= 1
    if any(v < 0 for v in left.values()):
        return None
    return left, tuple(free)


def arrangements(view: PlayerView) -> int:
    """How many kind assignments to the unrevealed slots fit the record."""
    got = _free(view)
    if got is None:
        return 0
    for i in range(SLOTS):  # a revealed slot contradicting a known one
        if view.revealed[i] is not None and view.known[i] not in (None, view.revealed[i]):
            return 0
    return multinomial(got[0].values())


def slot_counts(view: PlayerView) -> tuple[dict[str, int] | str, ...]:
    """Per slot: the revealed kind, or the number of arrangements with each kind there."""
    total = arrangements(view)
    got = _free(view)
    out: list[dict[str, int] | str] = []
    for i in range(SLOTS):
        if view.revealed[i] is not None:
            out.append(view.revealed[i] or "")
        elif view.known[i] is not None:
            out.append({k: (total if k == view.known[i] else 0) for k in view.kinds})
        else:
            assert got is not None
            left = got[0]
            row = {}
            for k in view.kinds:
                less = Counter(left)
                less[k] -= 1
                row[k] = multinomial(less.values()) if left[k] > 0 else 0
            out.append(row)
    return tuple(out)


# --- the whole analysis ------------------------------------------------------------------


def analyse(record: Record, game: Game, *, display: str = "record") -> dict[str, Any]:
    """The ``stacks`` JSON: per-player slot counts, arrangements and bounds; possible winners."""
    players: dict[str, Any] = {}
    bounds: dict[str, tuple[int, int]] = {}
    for view in views(record, game, display=display):
        solved = z3_player(view)
        if not solved["consistent"]:  # the exact count said yes; Z3 must agree
            raise InconsistentRecord(display, "reveal", view.name, "a record Z3 can satisfy")
        counts = slot_counts(view)
        stacks = [
            [
                {"revealed": c} if isinstance(c, str) else {"counts": c}
                for c in counts[j * STACK_DEPTH : (j + 1) * STACK_DEPTH]
            ]
            for j in range(STACKS)
        ]
        players[view.name] = {
            "stacks": stacks,
            "arrangements": arrangements(view),
            "real_deals_hidden": solved["real_deals_hidden"],
            "final_myth": solved["final_myth"],
        }
        bounds[view.name] = (solved["final_myth"]["min"], solved["final_myth"]["max"])
    tallies = {p.name: p.humans for p in record.players}
    winners = possible_winners(bounds, tallies)
    return {
        "players": players,
        "possible_winners": winners,
        "winner_decided": len(winners) == 1,
    }


def possible_winners(
    bounds: Mapping[str, tuple[int, int]], tallies: Mapping[str, int | None]
) -> list[str]:
    """Players who win (or share the win) when they reach their maximum and everyone else
    stays at their minimum, the tie-break (Humans at their Sites) applied where it is known."""
    out = []
    for p, (_, best) in bounds.items():
        ok = True
        for q, (low, _) in bounds.items():
            if q == p:
                continue
            if low > best:
                ok = False
            elif low == best:
                mine, theirs = tallies.get(p), tallies.get(q)
                if mine is not None and theirs is not None and theirs > mine:
                    ok = False
            if not ok:
                break
        if ok:
            out.append(p)
    return out


# --- references -----------------------------------------------------------------------------


def brute_force(view: PlayerView) -> tuple[int, tuple[dict[str, int] | str, ...], tuple[int, int]]:
    """Reference: every distinct permutation of the remaining cards, one by one.

    Returns (arrangements, per-slot counts, (min, max) Real Deals hidden at the end).
    """
    hidden = view.hidden_slots()
    pool = [k for k in view.kinds for _ in range(max(0, view.left()[k]))]
    counts = {i: Counter[str]() for i in hidden}
    total = 0
    deals: list[tuple[int, int]] = []
    if len(pool) == len(hidden):
        for perm in distinct_permutations(Counter(pool), len(pool)):
            fill = dict(zip(hidden, perm, strict=True))
            if any(view.known[i] not in (None, k) for i, k in fill.items()):
                continue
            if any(
                view.known[i] not in (None, view.revealed[i])
                for i in range(SLOTS)
                if view.revealed[i] is not None
            ):
                continue
            total += 1
            for i, k in fill.items():
                counts[i][k] += 1
            deals.append(_fewest_and_most_deals(view, fill))
    out: list[dict[str, int] | str] = []
    for i in range(SLOTS):
        if view.revealed[i] is not None:
            out.append(view.revealed[i] or "")
        else:
            out.append({k: counts[i][k] for k in view.kinds})
    low = min((d[0] for d in deals), default=0)
    high = max((d[1] for d in deals), default=0)
    return total, tuple(out), (low, high)


def distinct_permutations(left: Counter[str], size: int) -> Iterable[tuple[str, ...]]:
    """Every distinct ordering of the multiset ``left`` (of ``size`` items), in sorted order."""
    if size == 0:
        yield ()
        return
    for kind in sorted(k for k, v in left.items() if v > 0):
        left[kind] -= 1
        for rest in distinct_permutations(left, size - 1):
            yield (kind, *rest)
        left[kind] += 1


def _fewest_and_most_deals(view: PlayerView, fill: Mapping[int, str]) -> tuple[int, int]:
    """Over every way later rounds can reveal Stack tops: fewest and most Real Deals hidden."""
    results = []
    ranges = [range(STACK_DEPTH - view.depth[j] + 1) for j in range(STACKS)]
    for future in itertools.product(*ranges):
        if sum(future) > view.reveals_left:
            continue
        n = 0
        for i, k in fill.items():
            j, pos = divmod(i, STACK_DEPTH)
            if pos >= view.depth[j] + future[j] and k == view.real_deal:
                n += 1
        results.append(n)
    return (min(results), max(results))


def z3_enumerate_counts(
    view: PlayerView, *, limit: int = 100_000
) -> tuple[int, dict[int, Counter[str]]]:
    """Count arrangements by enumerating Z3 models one by one (blocking each): small cases only."""
    import z3

    hidden = view.hidden_slots()
    var = {i: z3.Int(f"s{i}") for i in hidden}
    solver = z3.Solver()
    left = view.left()
    for i, v in var.items():
        solver.add(z3.And(v >= 0, v < len(view.kinds)))
        if view.known[i] is not None:
            solver.add(v == view.kinds.index(view.known[i] or ""))
    for k, kind in enumerate(view.kinds):
        solver.add(z3.Sum([z3.If(v == k, 1, 0) for v in var.values()]) == max(left[kind], 0))
        if left[kind] < 0:
            solver.add(z3.BoolVal(False))
    for i in range(SLOTS):
        if view.revealed[i] is not None and view.known[i] not in (None, view.revealed[i]):
            solver.add(z3.BoolVal(False))
    counts = {i: Counter[str]() for i in hidden}
    total = 0
    while total < limit and check(solver) == z3.sat:
        model = solver.model()
        values = {i: model.eval(v, model_completion=True).as_long() for i, v in var.items()}
        total += 1
        for i, k in values.items():
            counts[i][view.kinds[k]] += 1
        solver.add(z3.Or([v != values[i] for i, v in var.items()]) if var else z3.BoolVal(False))
    return total, counts
