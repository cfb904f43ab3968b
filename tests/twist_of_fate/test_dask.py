"""The tiered engine (``--engine dask``): its packing, and the same answers as the memory solver."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleslawyer.cli.main import cli
from ruleslawyer.errors import InputError
from ruleslawyer.models.twist_of_fate.files import Position, load_position
from ruleslawyer.models.twist_of_fate.play import Rules, Seat, State
from ruleslawyer.solvers.twist_of_fate import dask as dask_engine
from ruleslawyer.solvers.twist_of_fate import encoding, tiers
from ruleslawyer.solvers.twist_of_fate import kernel as k
from ruleslawyer.solvers.twist_of_fate.dask import Engine, InProcess
from ruleslawyer.solvers.twist_of_fate.maxn import paranoid_json, paranoid_solve
from tests.twist_of_fate.test_solve import DECK, NAMES, positions

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = ROOT / "ruleslawyer" / "data" / "positions"


@st.composite
def packable_states(draw: st.DrawFn) -> tuple[tiers.Layout, int, int]:
    """A position's layout, and the kernel's two words of any state the layout has room
    for, built field by field from the kernel's documented bit positions (not by pack)."""
    position, rules = draw(positions())
    lay = tiers.layout(position, rules)
    state = position.state
    vectors, _ = encoding.multisets(len(DECK.characters), max(len(s.hand) for s in state.seats))
    rows = iter(lay.fields.tolist())

    def within(row: list[int], top: int) -> int:
        _, width, lowest = row
        return draw(st.integers(lowest, min(top, lowest + (1 << width) - 1)))

    k1 = k.MARK1
    for s in range(len(state.seats)):
        next(rows)  # Luck and Shilling: every pair fits
        luck, shilling = draw(st.integers(0, 4)), draw(st.integers(0, 4))
        z, count = within(next(rows), 63), within(next(rows), 7)
        seat = luck | (shilling << 3) | (z << k.Z_SHIFT) | (count << k.COUNT_SHIFT)
        k1 |= seat << (k.SEAT_BITS * s)
    hb = int(lay.head[2])
    k2 = 1 << k.MARK2_SHIFT
    for p in range(state.players):
        next(rows)
        held = [state.seats[p].hand.count(n) for n in DECK.names]
        hand = tuple(draw(st.integers(0, h)) for h in held)
        k2 |= vectors.index(hand) << (hb * p)
    k1 |= draw(st.integers(0, state.players - 1)) << k.ACT_SHIFT
    k2 |= draw(st.integers(0, len(state.seats))) << (hb * state.players)
    return lay, k1, k2


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(packable_states())
def test_packing_round_trip_is_lossless(case: tuple[tiers.Layout, int, int]) -> None:
    lay, k1, k2 = case
    word = int(tiers.pack(k1, k2, lay.fields, lay.head, lay.to_local))
    assert 0 <= word < 1 << tiers.STATE_BITS
    assert word < 1 << lay.bits
    back = tiers.unpack(word, lay.fields, lay.head, lay.to_global)
    assert (int(back[0]), int(back[1])) == (k1, k2)


def test_pack_refuses_a_field_out_of_its_range() -> None:
    position = load_position(POSITIONS / "twist-of-fate-3p-9.toml")
    lay = tiers.layout(position, Rules())
    k1, k2 = encoding.encode(position, Rules()).root
    assert tiers.pack(k1, k2, lay.fields, lay.head, lay.to_local) >= 0
    # Ann's count toward the limit is 3 at the root (lowest of its field): 2 is below it
    low = (k1 & ~(7 << k.COUNT_SHIFT)) | (2 << k.COUNT_SHIFT)
    assert tiers.pack(low, k2, lay.fields, lay.head, lay.to_local) == -1


def _too_big() -> Position:
    # Four players with six different cards each and room for them: 4 x (5 + 4 + 3) bits
    # of seats, 4 x 6 bits of hands (64 sub-hands each), 2 + 3 more: 77 > 62 bits.
    seats = tuple(Seat(hand=DECK.sort(list(NAMES[:6]))) for _ in range(4))
    state = State(seats=seats, players=4, active=0, starter=0)
    return Position(state, ("ann", "bob", "cat", "dan"), DECK, {})


def test_position_that_does_not_fit_one_word_is_an_input_error() -> None:
    with pytest.raises(InputError, match="fit 62 bits"):
        tiers.layout(_too_big(), Rules())


def memory_answer(position: Position, rules: Rules) -> dict:
    """What ``solve --model paranoid`` answers with the memory engine (JSON), but the
    seconds: the paranoid bounds, the outcome-ranked best move and value, every move's
    value and the line."""
    out = paranoid_json(position, *paranoid_solve(position, rules, threads=1))
    assert out["finished"]
    del out["seconds"]
    return out


def engine_answer(engine: Engine) -> dict:
    """The same fields from a tiered run to its end."""
    result = engine.solve()
    assert result.finished and engine.analysis is not None
    out = paranoid_json(engine.position, engine.analysis, result)
    del out["seconds"]
    return out


def _tiered(position: Position, rules: Rules, partition_states: int) -> dict:
    with tempfile.TemporaryDirectory() as work:
        tiered = Engine(position, rules, InProcess(), Path(work), partition_states=partition_states)
        return engine_answer(tiered)


def _agree(case: tuple[Position, Rules], partition_states: int) -> None:
    # 40 states a partition splits every tier of a few hundred states into several
    # partitions: the dedup and the join must then cross partitions.
    position, rules = case
    assert _tiered(position, rules, partition_states) == memory_answer(position, rules)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(most=4), st.sampled_from((1 << 21, 40)))
def test_tiered_engine_agrees_with_memory_solver(
    case: tuple[Position, Rules], partition_states: int
) -> None:
    _agree(case, partition_states)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(most=6), st.sampled_from((1, 4, 16)))
def test_tiered_engine_agrees_with_memory_solver_more(
    case: tuple[Position, Rules], parts: int
) -> None:
    # Up to six cards make anything from a few states to a few hundred thousand: the
    # partitions are sized from the memory solver's count, so that an average tier
    # splits into about ``parts`` of them (a fixed size of 40 or 400 states made tens
    # of thousands of runs a tier in the largest cases: minutes an example)
    position, rules = case
    exact = memory_answer(position, rules)
    n_tiers = sum(len(seat.hand) for seat in position.state.seats) + 1
    partition_states = max(20, exact["states"] // n_tiers // parts)
    assert _tiered(position, rules, partition_states) == exact


def test_shipped_3p_6_same_answer_both_engines() -> None:
    position = load_position(POSITIONS / "twist-of-fate-3p-6.toml")
    assert _tiered(position, Rules(), 20_000) == memory_answer(position, Rules())


@pytest.mark.slow
@pytest.mark.parametrize("name", ["3p-9", "2p-10"])
def test_shipped_positions_same_answer_both_engines(name: str) -> None:
    position = load_position(POSITIONS / f"twist-of-fate-{name}.toml")
    assert _tiered(position, Rules(), 1 << 21) == memory_answer(position, Rules())


def _cli(*args: str) -> tuple[int, str, str]:
    """``twist-of-fate solve`` under the paranoid model, the one both engines compute."""
    result = CliRunner().invoke(cli, ["twist-of-fate", "solve", "--model", "paranoid", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_dask_json_is_the_memory_json_plus_the_engine(tmp_path: Path) -> None:
    position = str(POSITIONS / "twist-of-fate-3p-6.toml")
    code, out, _ = _cli(position, "--exhaustive", "--format", "json")
    memory = json.loads(out)
    assert memory["search"] == "exhaustive"
    code, out, err = _cli(position, "--engine", "dask", "--workers", "0", "--format", "json")
    assert code == 0, err
    tiered = json.loads(out)
    # every field of the memory engine's, in the same order and with the same values
    # (the paranoid bounds, the outcome-ranked best move and value, every move's value,
    # the line), but the seconds; then the engine's own
    assert list(tiered)[: len(memory)] == list(memory)
    del memory["seconds"], tiered["seconds"]
    assert {key: tiered[key] for key in memory} == memory
    assert tiered["engine"] == "dask"
    assert "outcome-ranked" in tiered["utility"] and tiered["moves"] and tiered["line"]
    # six cards left: tiers 0..6, the root alone in tier 0, every state in one tier
    assert [t["tier"] for t in tiered["tiers"]] == list(range(7))
    assert tiered["tiers"][0]["states"] == 1
    assert sum(t["states"] for t in tiered["tiers"]) == memory["states"]
    assert tiered["bytes_written"] > 8 * memory["states"]
    assert tiered["work_dir"] is None  # its own temporary directory, removed
    # per tier: its files' bytes (8 a state and the header), seconds of both passes
    for t in tiered["tiers"]:
        assert t["bytes"] > 8 * t["states"]
        assert t["seconds"] >= 0 and t["value_seconds"] >= 0
    assert list(tiered["task_cpu_seconds_per_worker"]) == ["client"]  # --workers 0
    assert tiered["task_cpu_seconds_per_worker"]["client"] > 0


def test_budget_stops_between_tiers_and_resume_finishes(tmp_path: Path) -> None:
    position = str(POSITIONS / "twist-of-fate-3p-6.toml")
    work = tmp_path / "work"
    common = ("--engine", "dask", "--workers", "0", "--work-dir", str(work), "--format", "json")
    code, out, err = _cli(position, *common, "--max-states", "5000", "--partition-states", "9000")
    assert code == 3, err  # unfinished: the README's exit code for a search its budget ended
    stopped = json.loads(out)
    assert stopped["finished"] is False and stopped["guaranteed_sanctuary"] is None
    done_tiers = len(stopped["tiers"])
    assert 1 < done_tiers < 7 and (work / "manifest.json").exists()
    code, out, err = _cli(position, *common, "--partition-states", "9000")
    assert code == 2 and "--resume" in err  # a used work dir needs --resume
    code, out, err = _cli(position, *common, "--resume", "--partition-states", "9000")
    assert code == 0, err
    resumed = json.loads(out)
    assert resumed["resumed_from_tier"] == done_tiers
    exact = memory_answer(load_position(position), Rules())
    assert {key: resumed[key] for key in exact} == exact


def test_resume_of_another_position_is_refused(tmp_path: Path) -> None:
    work = tmp_path / "work"
    common = ("--engine", "dask", "--workers", "0", "--work-dir", str(work))
    code, _, err = _cli(str(POSITIONS / "twist-of-fate-3p-6.toml"), *common, "--max-states", "10")
    assert code == 3, err
    code, _, err = _cli(str(POSITIONS / "twist-of-fate-3p-9.toml"), *common, "--resume")
    assert code == 2
    assert "manifest.json" in err and "the same search" in err and len(err.splitlines()) == 1


def test_dask_options_need_the_dask_engine(tmp_path: Path) -> None:
    position = str(POSITIONS / "twist-of-fate-3p-6.toml")
    # the exhaustive search in this process: --workers is the Dask engine's
    code, _, err = _cli(position, "--exhaustive", "--workers", "2")
    assert code == 2 and "--workers needs --engine dask" in err
    # the pruned search splits its root moves over workers (test_pruned_split.py):
    # it takes --workers, but the Dask engine's own options still need that engine
    code, _, err = _cli(position, "--workers", "0", "--max-disk", "1")
    assert code == 2 and "--max-disk needs --engine dask" in err
    code, _, err = _cli(position, "--engine", "dask", "--workers", "2", "--scheduler", "x:1")
    assert code == 2


def test_cli_position_too_big_for_one_word_exits_2(tmp_path: Path) -> None:
    from ruleslawyer.models.twist_of_fate.files import dumps, position_document

    path = tmp_path / "big.toml"
    path.write_text(dumps(position_document(_too_big())))
    code, _, err = _cli(str(path), "--engine", "dask", "--workers", "0")
    assert code == 2 and "62 bits" in err and len(err.splitlines()) == 1


@settings(deadline=None)  # the first call compiles the kernel's function
@given(packable_states())
def test_pack_by_table_is_pack(case: tuple[tiers.Layout, int, int]) -> None:
    # the kernel packs children with the table of field parts; it must be pack itself
    lay, k1, k2 = case
    fast = k.pack_by(k1, k2, lay.parts, lay.head)
    assert fast == tiers.pack(k1, k2, lay.fields, lay.head, lay.to_local)


def test_pack_by_table_refuses_a_field_out_of_its_range() -> None:
    position = load_position(POSITIONS / "twist-of-fate-3p-9.toml")
    lay = tiers.layout(position, Rules())
    k1, k2 = encoding.encode(position, Rules()).root
    assert k.pack_by(k1, k2, lay.parts, lay.head) >= 0
    shilling_7 = k1 | (7 << 3)  # seat 0's Shilling 7: not a value the rules reach
    assert k.pack_by(shilling_7, k2, lay.parts, lay.head) == -1


@st.composite
def join_cases(draw: st.DrawFn) -> tuple[int, list[int], list[int], int]:
    """States of ``bits`` bits (some flagged leaves), often crowded into a few values so
    that many share the key bits :func:`queries` keeps; picks among them; a stray word."""
    bits = draw(st.integers(1, 62))
    base = draw(st.integers(0, (1 << bits) - 1))
    word = st.one_of(
        st.integers(0, (1 << bits) - 1), st.integers(base, min(base + 600, (1 << bits) - 1))
    )
    flagged = st.tuples(word, st.booleans()).map(
        lambda wf: wf[0] | (int(tiers.LEAF_FLAG) if wf[1] else 0)
    )
    known = sorted(draw(st.sets(flagged, max_size=300)))
    picks = draw(st.lists(st.integers(0, 299), max_size=400))
    return bits, known, picks, draw(flagged)


@settings(max_examples=300, deadline=None)
@given(join_cases())
def test_join_finds_each_value_like_a_dict(case: tuple[int, list[int], list[int], int]) -> None:
    """The sorted-key join against a dict; a word missing from ``known`` is reported."""
    bits, known_list, picks, stray = case
    known = np.array(known_list, dtype=np.int64)
    values = np.arange(known.shape[0], dtype=np.uint16) * 7 + 1
    table = dict(zip(known_list, values.tolist(), strict=True))
    want = np.array([known[p % known.shape[0]] for p in picks] if known.size else [], np.int64)
    out = np.full(want.shape[0], -1, dtype=np.int64)
    assert tiers.join(known, values, want, out, bits) == -1
    assert out.tolist() == [table[int(w)] for w in want]
    if stray not in table:
        with_stray = np.insert(want, want.shape[0] // 2, np.int64(stray))
        out2 = np.empty(with_stray.shape[0], dtype=np.int64)
        assert tiers.join(known, values, with_stray, out2, bits) >= 0


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, (1 << 40) - 1), max_size=500), st.integers(1, 9))
def test_queries_group_words_by_partition_each_group_sorted(words: list[int], parts: int) -> None:
    """Every word lands once, in its partition's group; each group's keys ascend with
    its words (the order :func:`join` walks ``known`` in); ungroup undoes the grouping."""
    array = np.array(words, dtype=np.int64)
    q = tiers.queries(array, parts, 40)
    owner = tiers.partition_of(array, parts)
    mask = (1 << q.index_bits) - 1
    for j in range(parts):
        group = q.grouped[q.bounds[j] : q.bounds[j + 1]]
        keys = q.keys[q.bounds[j] : q.bounds[j + 1]]
        assert sorted((keys & mask).tolist()) == list(range(group.shape[0]))
        assert group[keys & mask].tolist() == sorted(group.tolist())
        assert all(tiers.partition_of(group, parts) == j)
    assert np.array_equal(tiers.ungroup(q, q.grouped), array)
    assert np.array_equal(q.owner, owner)


def test_value_pass_in_batches_of_one_chunk_same_answer_and_lookup_finds_each_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Small chunks, a join per chunk and many partitions give the memory solver's
    answer; a lookup of a whole tier's states, shuffled, finds each one's value in the
    files."""
    position = load_position(POSITIONS / "twist-of-fate-3p-6.toml")
    monkeypatch.setattr(dask_engine, "CHUNK", 4096)  # about 40 parents a chunk
    monkeypatch.setattr(dask_engine, "JOIN_BATCH", 1)
    engine = Engine(position, Rules(), InProcess(), tmp_path, partition_states=20_000)
    assert engine_answer(engine) == memory_answer(position, Rules())
    assert not list(tmp_path.glob("*.in"))  # no shuffle files left after a finished run
    tier = max(t["tier"] for t in engine.run.tiers if t["partitions"] > 2)
    parts = engine.run.tiers[tier]["partitions"]
    files = dask_engine._words_file, dask_engine._values_file
    words, values = (
        np.concatenate([np.load(f(tmp_path, tier, j)) for j in range(parts)]) for f in files
    )
    shuffle = np.random.default_rng(7).permutation(words.shape[0])
    got = dask_engine.lookup(tmp_path, tier, parts, words[shuffle], engine.prob.lay.bits)
    assert np.array_equal(got, values[shuffle].astype(np.int64))
