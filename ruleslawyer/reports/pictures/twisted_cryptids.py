"""Twisted Cryptids pictures: the relocation deadlock on the Sites, and a ``stacks`` answer.

Both are drawn from data the checks and solvers produce: the deadlock from the
witness of ``twisted-cryptids/relocation-deadlock`` (where every player's spots
are, the Encounter Site, the cap), the Stacks from ``analyse`` on the record of a
seeded random game with the game file's cards (the first player's view).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ruleslawyer.designer.checking import GameResult
from ruleslawyer.gamefiles.source import GameSource
from ruleslawyer.reports.svg import Picture, text_width

DEADLOCK = "twisted-cryptids/relocation-deadlock"
STACKS_GAME = (4, 3, 2)  # (players, seed, rounds played) of the record the Stacks picture reads
SITE_W = 150.0
PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
KIND_COLOURS = ("#4caf50", "#e53935", "#9e9e9e", "#1e88e5", "#fb8c00", "#8e24aa", "#00897b")


def deadlock_picture(position: Mapping[str, Any]) -> str:
    """Each Site with the players' spots on it; why the returning player can place nowhere."""
    sites = list(position["humans_at_dusk"])
    spots: Mapping[str, Sequence[str]] = position["hiding_spots"]
    players = list(spots)
    cap, encounter, returning = position["cap"], position["encounter"], position["returning"]
    width = max(20 + SITE_W * len(sites), 640)
    most = max(sum(site in spots[p] for p in players) for site in sites)
    site_h = 80.0 + 20 * most
    title = (
        f"{position['players']} players, cap {cap}: {returning}'s spot returned from "
        f"{encounter} finds no Site"
    )
    pic = Picture(width, site_h + 110, title)
    pic.text(10, 20, title, font_weight="bold")
    for i, site in enumerate(sites):
        x, y = 10 + i * SITE_W, 36
        here = [p for p in players if site in spots[p]]
        is_encounter = site == encounter
        pic.rect(
            x,
            y,
            SITE_W - 10,
            site_h,
            fill="#fff3c4" if is_encounter else "#fff",
            stroke="#000" if is_encounter else "#999",
            stroke_width=2 if is_encounter else 1,
        )
        pic.text(x + 6, y + 17, site, font_weight="bold")
        pic.text(x + 6, y + 33, f"{position['humans_at_dusk'][site]} Humans at Dusk", font_size=12)
        for j, player in enumerate(here):
            colour = PLAYER_COLOURS[players.index(player) % len(PLAYER_COLOURS)]
            pic.circle(x + 14, y + 50 + j * 20, 6, fill=colour)
            pic.text(x + 26, y + 54 + j * 20, player, font_size=12)
        if is_encounter:
            why = "Encounter Site"
        elif returning in here:
            why = f"{returning} is here"
        elif len(here) >= cap:
            why = f"full: {len(here)} of {cap}"
        else:
            why = "open"
        pic.text(
            x + 6,
            y + site_h - 10,
            f"✗ {why}" if why != "open" else "✓ open",
            font_size=12,
            fill="#c00" if why != "open" else "#080",
        )
    pic.text(
        10,
        site_h + 62,
        f"{returning} must place the returned spot on a Site other than "
        f"{encounter}, without another of their own spots,",
        font_size=12,
    )
    pic.text(
        10,
        site_h + 78,
        f"and where fewer than {cap} players have spots: every Site is ruled out.",
        font_size=12,
    )
    return pic.render()


def stacks_picture(answer: Mapping[str, Any], title: str) -> str:
    """Each player's three Stacks, top first: revealed cards named, hidden ones as shares."""
    players: Mapping[str, Any] = answer["players"]
    kinds = sorted(
        {k for p in players.values() for st in p["stacks"] for s in st for k in s.get("counts", {})}
        | {
            s["revealed"]
            for p in players.values()
            for st in p["stacks"]
            for s in st
            if "revealed" in s
        }
    )
    colour = {k: KIND_COLOURS[i % len(KIND_COLOURS)] for i, k in enumerate(kinds)}
    depth = max(len(st) for p in players.values() for st in p["stacks"])
    cell_w, cell_h, gap = 88.0, 34.0, 14.0
    player_w = 3 * cell_w + gap
    height = 70 + depth * cell_h + 46
    width = max(20 + player_w * len(players), text_width(title, 12, bold=True) + 20)
    pic = Picture(width, height + 18 * len(players) + 6, title)
    pic.text(10, 20, title, font_weight="bold")
    for i, (name, p) in enumerate(players.items()):
        x0 = 10 + i * player_w
        pic.text(
            x0, 42, f"{name}: {p['arrangements']} arrangement(s)", font_weight="bold", font_size=12
        )
        for j, stack in enumerate(p["stacks"]):
            x = x0 + j * cell_w
            pic.text(x, 60, f"stack {j + 1}", font_size=12)
            for k, slot in enumerate(stack):
                y = 66 + k * cell_h
                pic.rect(x, y, cell_w - 6, cell_h - 4, fill="#fff", stroke="#999")
                if "revealed" in slot:
                    pic.rect(
                        x,
                        y,
                        cell_w - 6,
                        cell_h - 4,
                        fill=colour[slot["revealed"]],
                        fill_opacity=0.35,
                    )
                    pic.text(x + 4, y + 19, slot["revealed"], font_size=12, font_weight="bold")
                    continue
                total = sum(slot["counts"].values()) or 1
                left = x
                for kind, n in sorted(slot["counts"].items()):
                    share = (cell_w - 6) * n / total
                    if share:
                        pic.rect(left, y + 4, share, cell_h - 12, fill=colour[kind])
                    left += share
    y = 66 + depth * cell_h + 16
    for i, kind in enumerate(kinds):
        pic.rect(10 + i * 110, y - 10, 12, 12, fill=colour[kind])
        pic.text(26 + i * 110, y, kind, font_size=12)
    winners = ", ".join(answer["possible_winners"]) or "nobody"
    decided = "decided" if answer["winner_decided"] else "not decided"
    pic.text(
        10,
        y + 22,
        f"possible winners: {winners} ({decided}); top of each Stack first; "
        "hidden slots: share of arrangements with each kind there",
        font_size=12,
    )
    for i, (name, p) in enumerate(players.items()):
        myth, deals = p["final_myth"], p["real_deals_hidden"]
        pic.text(
            10,
            y + 44 + 18 * i,
            f"{name}: final Myth {myth['min']}..{myth['max']}, "
            f"Real Deals hidden {deals['min']}..{deals['max']}",
            font_size=12,
        )
    return pic.render()


def stacks_answer(source: GameSource) -> tuple[dict[str, Any], str] | None:
    """``analyse`` on a seeded random game's record, or None where the file cannot be played."""
    from ruleslawyer.errors import RulesLawyerError
    from ruleslawyer.models.twisted_cryptids.game import load_game
    from ruleslawyer.solvers.twisted_cryptids.record import record_from_state
    from ruleslawyer.solvers.twisted_cryptids.simulate import random_game
    from ruleslawyer.solvers.twisted_cryptids.stacks import analyse

    players, seed, rounds = STACKS_GAME
    game = load_game(source)
    if len(game.cryptids) < players:
        return None
    try:
        record = record_from_state(random_game(game, players, seed, rounds=rounds), 0)
        answer = analyse(record, game, display="simulated record")
    except RulesLawyerError:
        return None
    title = (
        f"ruleslawyer twisted-cryptids stacks: {players} players after {record.rounds_played} "
        f"round(s), seen by {record.perspective} (seed {seed})"
    )
    return answer, title


def pictures(source: GameSource, result: GameResult) -> list[tuple[str, str, str, str | None]]:
    out: list[tuple[str, str, str, str | None]] = []
    for f in result.findings:
        if f.id == DEADLOCK and f.witness is not None and "hiding_spots" in f.witness.position:
            caption = f"{f.id}: {f.witness.description}"
            out.append(("relocation-deadlock", caption, deadlock_picture(f.witness.position), f.id))
    found = stacks_answer(source)
    if found is not None:
        answer, title = found
        caption = (
            f"What twisted-cryptids stacks answers on a simulated game "
            f"({title.split(': ', 1)[1]}): which hidden Sighting can lie in each slot, "
            "by share of the consistent arrangements."
        )
        out.append(("stacks", caption, stacks_picture(answer, title), None))
    return out
