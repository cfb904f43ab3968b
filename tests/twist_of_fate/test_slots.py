"""The memory solver's slots: one word (the packed state with its value above it) where
the value fits, two words otherwise; the answer never depends on which."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ruleslawyer.models.twist_of_fate.files import Position, load_position
from ruleslawyer.models.twist_of_fate.play import Rules
from ruleslawyer.solvers.twist_of_fate import kernel as k
from ruleslawyer.solvers.twist_of_fate import memory, tiers
from tests.twist_of_fate.test_solve import positions

POSITIONS = Path(__file__).resolve().parents[2] / "ruleslawyer" / "data" / "positions"


def test_shipped_positions_get_one_word_slots() -> None:
    # 3p-12's states need 49 bits (the packing test's field widths); its root seat's
    # Sanctuary runs over 3 bits, so a value needs 2 * 3 + 2 = 8 bits: 49 + 1 + 8 <= 64
    for name, bits in (("3p-6", 40), ("3p-9", 43), ("3p-12", 49), ("2p-10", 47)):
        position = load_position(POSITIONS / f"twist-of-fate-{name}.toml")
        prob = tiers.problem(position, Rules())
        assert prob.lay.bits == bits
        assert prob.slot_width == 1, name
        params = prob.enc.params
        assert params[k.P_VSHIFT] == bits + 1
        top = int(params[k.P_VSHIFT]) + int(params[k.P_VMASK]).bit_length()
        assert top <= 64, name


def test_a_value_survives_the_narrowing_of_a_one_word_slot() -> None:
    position = load_position(POSITIONS / "twist-of-fate-3p-9.toml")
    prob = tiers.problem(position, Rules())
    params = prob.enc.params
    low, zw = int(params[k.P_ZLOW]), int(params[k.P_ZW])
    for g in range(low, low + (1 << zw)):
        for r in range(g, low + (1 << zw)):
            for gw, pw in ((0, 0), (0, 1), (1, 1)):
                val = g | (r << 7) | (gw << 14) | (pw << 15)
                kw = (1 << prob.lay.bits) - 1 | int(params[k.P_MARK])  # every key bit set
                w0, _ = k.slot_words(kw, val, params, 1)
                assert w0 & params[k.P_KMASK] == kw
                assert k._widen((w0 >> params[k.P_VSHIFT]) & params[k.P_VMASK], params) == val


def _both(position: Position, rules: Rules, threads: int = 1) -> tuple[Any, Any]:
    one = memory.solve(position, rules, threads=threads, slot_width=1)
    two = memory.solve(position, rules, threads=threads, slot_width=2)
    return one, two


def test_one_and_two_word_slots_agree_on_the_shipped_3p6() -> None:
    position = load_position(POSITIONS / "twist-of-fate-3p-6.toml")
    one, two = _both(position, Rules(), threads=2)
    assert one.finished and two.finished
    assert one.answer() == two.answer()
    assert (one.states, one.end_states) == (163_968, 42_147)  # benchmarks/README.md


@given(positions())
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
def test_one_and_two_word_slots_agree(case: tuple[Position, Rules]) -> None:
    position, rules = case
    prob = tiers.problem(position, rules)
    one, two = _both(position, rules)
    assert one.answer() == two.answer()
    default = memory.solve(position, rules, threads=1)
    assert default.answer() == (one if prob.slot_width == 1 else two).answer()


@st.composite
def opened_nodes(draw: st.DrawFn) -> tuple[tiers.Problem, int, int]:
    """A position's problem and the kernel's words of a state reached from its root by
    a few drawn plays, with each seat's Sanctuary then moved by up to two either way
    (so that some children's Sanctuaries leave their packed range)."""
    position, rules = draw(positions())
    prob = tiers.problem(position, rules)
    k1, k2 = prob.enc.root
    for _ in range(draw(st.integers(0, 6))):
        kids = _children(prob, k1, k2)
        if not kids:
            break
        k1, k2, _ = kids[draw(st.integers(0, len(kids) - 1))]
    for s in range(len(position.state.seats)):
        at = k.SEAT_BITS * s + k.Z_SHIFT
        z = (k1 >> at) & 63
        moved = min(63, max(0, z + draw(st.integers(-2, 2))))
        k1 = (k1 & ~(63 << at)) | (moved << at)
    return prob, k1, k2


def _children(prob: tiers.Problem, k1: int, k2: int) -> list[tuple[int, int, int]]:
    """The kernel's children of a node (``_open``): their words and packed state."""
    frame, kid, dummy = tiers._scratch(prob)
    frame[0, k.F_K1], frame[0, k.F_K2] = k1, k2
    enc, lay = prob.enc, prob.lay
    k._open(frame, kid, 0, *enc[1:], dummy, dummy, lay.parts, lay.head)
    return [
        (int(kid[0, b]), int(kid[0, b + 1]), int(kid[0, b + k.K_W]))
        for b in range(0, int(frame[0, k.F_N]) * k.KID, k.KID)
    ]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opened_nodes())
def test_children_packed_from_the_parents_word_are_packed(
    case: tuple[tiers.Problem, int, int],
) -> None:
    # _open packs most children by replacing the changed fields' parts of the node's
    # word: each must be the field-by-field pack of the child's own words (with the
    # marker bit), or NOT_PACKED exactly when a field is out of its range
    prob, k1, k2 = case
    lay = prob.lay
    parent = int(tiers.pack(k1, k2, lay.fields, lay.head, lay.to_local))
    assume(parent != k.NOT_PACKED)  # the kernel opens only nodes that packed
    mark = int(prob.enc.params[k.P_MARK])
    for c1, c2, kw in _children(prob, k1, k2):
        full = int(tiers.pack(c1, c2, lay.fields, lay.head, lay.to_local))
        assert kw == (k.NOT_PACKED if full == k.NOT_PACKED else full | mark)


def test_a_main_table_of_one_word_slots_fills_to_seven_eighths() -> None:
    # one-word slots: the main table doubles only past 7/8 load (eight slots to a cache
    # line); two-word slots double at half load and fill to 0.8 when they cannot
    cap = memory.FIRST_CAPACITY
    roomy = 1 << 30
    one = memory.Tables(cap, roomy, width=1)
    two = memory.Tables(cap, roomy, width=2)
    assert one.limits() == (cap * 7 // 8, cap // 2, cap // 2)
    assert two.limits() == (cap // 2, cap // 2, cap // 2)
    # room for no doubling at all (the three tables take 4 * cap words): fill up
    tight = 4 * cap * 8
    one = memory.Tables(cap, tight, width=1)
    two = memory.Tables(cap, tight + cap * 8, width=2)
    assert not one.can_grow("main") and not two.can_grow("main")
    assert one.limits()[0] == cap * 7 // 8
    assert two.limits()[0] == int(cap * 0.8)


@pytest.mark.slow  # a 3p-9 solve: about 15 s of one processor
def test_3p9_main_table_holds_its_states_in_two_to_the_24_slots() -> None:
    # 14,325,334 internal nodes (benchmarks/README.md): past half of 2^24 slots, below
    # 7/8 of them, so a table doubling at 7/8 load stops at 2^24 slots (128 MiB)
    position = load_position(POSITIONS / "twist-of-fate-3p-9.toml")
    stats: dict[str, Any] = {}
    result = memory.solve(position, Rules(), threads=2, stats=stats)
    assert result.finished and stats["main"] == 14_325_334
    assert stats["main_slots"] == 1 << 24
