"""The analysis commands' input kinds and command lines (issue 28, part 2).

``advise`` (Kaelyfos, Cunning Folk, Twisted Cryptids), ``balance`` (all four games),
Cunning Folk ``equilibrium``, ``coverage``, and Twist of Fate's hidden cards
(``[[hidden]]`` tables) and horizons (``--horizon game --rounds N``): each kind mutates
one shipped example, read by the commands listed (``[0]`` the cheapest, run by the fast
suite). Every command line carries a budget small enough for a case's time limit; the
searches' defaults (``advise``'s 60 s, ``balance``'s 200 games) would not fit.
"""

from __future__ import annotations

from hypothesis import strategies as st

from tests.fuzz.harness import BOARD, ROOT, InputKind, example

JSON = ("--format", "json")
BUDGET = ("--max-seconds", "2")
DESIGNER_BOARD = example("examples/designer-repo/board.toml")
DESIGNER_RULEBOOK = example("examples/designer-repo/rules/kaelyfos.md")
# the command lines of both Twisted Cryptids advise kinds (a Day record, a last-round one)
CRYPTIDS_ADVISE = (
    (
        "twisted-cryptids",
        "advise",
        "{file}",
        "--samples",
        "4",
        "--exact-limit",
        "4",
        *JSON,
        *BUDGET,
    ),
    ("twisted-cryptids", "advise", "{file}", "--samples", "3", *BUDGET),
)

ANALYSIS_KINDS = {
    k.name: k
    for k in (
        InputKind(
            "kaelyfos-advise",
            example("examples/kaelyfos/advise.toml"),
            "position.toml",
            (
                ("kaelyfos", "advise", "{file}", *JSON, *BUDGET),
                ("kaelyfos", "advise", "{file}", "--triggers", "2", *BUDGET),
                ("kaelyfos", "advise", "{file}", "--open-ties", "worst", *JSON, *BUDGET),
            ),
        ),
        InputKind(
            "kaelyfos-balance",
            BOARD,
            "board.toml",
            (
                ("kaelyfos", "balance", "{file}", *JSON, *BUDGET),
                ("kaelyfos", "balance", "{file}", "--material", "1", *BUDGET),
                ("kaelyfos", "balance", "{file}", "--triggers", "2", *JSON, *BUDGET),
            ),
        ),
        InputKind(
            "cunning-folk-advise",
            example("examples/cunning-folk/pending-claim.toml"),
            "log.toml",
            (
                ("cunning-folk", "advise", "{file}", *JSON, *BUDGET),
                ("cunning-folk", "advise", "{file}", "--swap-odds", "3:1", *BUDGET),
            ),
        ),
        InputKind(
            "cunning-folk-equilibrium",
            example("examples/cunning-folk/bluff-or-not.toml"),
            "log.toml",
            (
                ("cunning-folk", "equilibrium", "{file}", "--cell", "C3", *JSON, *BUDGET),
                ("cunning-folk", "equilibrium", "{file}", *BUDGET),
                ("cunning-folk", "equilibrium", "{file}", "--cell", "A1", *JSON, *BUDGET),
            ),
        ),
        InputKind(
            "cunning-folk-balance",
            example("ruleslawyer/data/cunning-folk.toml"),
            "game.toml",
            (
                ("cunning-folk", "balance", "{file}", "--games", "2", *JSON, *BUDGET),
                (
                    "cunning-folk",
                    "balance",
                    "{file}",
                    "--games",
                    "2",
                    "--setup",
                    "scoundrels",
                    "--policies",
                    "random",
                    *JSON,
                    *BUDGET,
                ),
                ("cunning-folk", "balance", "{file}", "--games", "1", "--players", "4", *BUDGET),
            ),
        ),
        InputKind(
            "twisted-cryptids-advise",
            example("examples/twisted-cryptids/advise-day.toml"),
            "record.toml",
            CRYPTIDS_ADVISE,
        ),
        InputKind(
            "twisted-cryptids-advise-last",
            example("examples/twisted-cryptids/advise-last-round.toml"),
            "record.toml",
            CRYPTIDS_ADVISE,
        ),
        InputKind(
            "twisted-cryptids-balance",
            example("ruleslawyer/data/twisted-cryptids.toml"),
            "game.toml",
            (
                (
                    "twisted-cryptids",
                    "balance",
                    "{file}",
                    "--games",
                    "2",
                    "--players",
                    "2",
                    *JSON,
                    *BUDGET,
                ),
                (
                    "twisted-cryptids",
                    "balance",
                    "{file}",
                    "--games",
                    "1",
                    "--players",
                    "6",
                    *BUDGET,
                ),
                (
                    "twisted-cryptids",
                    "balance",
                    "{file}",
                    "--games",
                    "1",
                    "--players",
                    "3",
                    "--policy",
                    "advise",
                    "--agent-samples",
                    "2",
                    "--agent-exact-limit",
                    "2",
                    *JSON,
                    *BUDGET,
                ),
            ),
        ),
        InputKind(
            "twist-of-fate-balance",
            example("ruleslawyer/data/twist-of-fate.toml"),
            "deck.toml",
            (
                (
                    "twist-of-fate",
                    "balance",
                    "{file}",
                    "--games",
                    "1",
                    "--players",
                    "2",
                    "--policy",
                    "random",
                    *JSON,
                    *BUDGET,
                ),
                (
                    "twist-of-fate",
                    "balance",
                    "{file}",
                    "--games",
                    "1",
                    "--players",
                    "3",
                    "--iterations",
                    "3",
                    "--exact-plies",
                    "2",
                    *JSON,
                    *BUDGET,
                ),
                (
                    "twist-of-fate",
                    "balance",
                    "{file}",
                    "--games",
                    "2",
                    "--players",
                    "4",
                    "--policy",
                    "random",
                    *BUDGET,
                ),
            ),
        ),
        InputKind(
            "twist-of-fate-hidden",
            example("examples/twist-of-fate/hidden-card.toml"),
            "position.toml",
            (
                ("twist-of-fate", "solve", "{file}", "--solver", "reference", *JSON, *BUDGET),
                ("twist-of-fate", "solve", "{file}", "--threads", "1", *JSON, *BUDGET),
                (
                    "twist-of-fate",
                    "solve",
                    "{file}",
                    "--model",
                    "paranoid",
                    "--solver",
                    "reference",
                    *BUDGET,
                ),
            ),
        ),
        InputKind(
            "twist-of-fate-horizon",
            example(
                "examples/twist-of-fate/across-rounds.toml",
                ('deck = "two-card-deck.toml"', 'deck = "deck.toml"'),
            ),
            "position.toml",
            (
                (
                    "twist-of-fate",
                    "solve",
                    "{file}",
                    "--horizon",
                    "game",
                    "--rounds",
                    "1",
                    *JSON,
                    *BUDGET,
                ),
                (
                    "twist-of-fate",
                    "solve",
                    "{file}",
                    "--horizon",
                    "game",
                    "--rounds",
                    "3",
                    "--model",
                    "paranoid",
                    *JSON,
                    *BUDGET,
                ),
                ("twist-of-fate", "solve", "{file}", "--horizon", "game", *BUDGET),
            ),
            {"deck.toml": example("examples/twist-of-fate/two-card-deck.toml")},
        ),
        InputKind(
            "coverage-game-file",
            DESIGNER_BOARD,
            "board.toml",
            (
                ("coverage", "{file}", *JSON),
                ("coverage", "{file}", "--format", "markdown"),
                ("coverage", "{file}", "kaelyfos"),
            ),
            {"rules/kaelyfos.md": DESIGNER_RULEBOOK},
        ),
    )
}

# --- command lines: the analysis commands' options, hostile values among valid ones -------

NUMBERS = ["nan", "inf", "-inf", "-1", "0", "1e400", "\u00b2", "\u0663", " 1", "1_0", "0x10",
           "", "abc", "99999999999999999999999999999", "1.5"]  # fmt: skip
GAMES = ["kaelyfos", "cunning-folk", "twist-of-fate", "twisted-cryptids", "chess", "",
         "{dir}/board.toml", "{dir}/nothing.toml", "/dev/zero", "{dir}"]  # fmt: skip
EXAMPLES = ("kaelyfos/advise.toml", "cunning-folk/pending-claim.toml",
            "cunning-folk/bluff-or-not.toml", "twisted-cryptids/advise-day.toml",
            "twist-of-fate/hidden-card.toml", "twist-of-fate/across-rounds.toml")  # fmt: skip
FILES = ["{dir}/nothing.toml", "/dev/zero", "{dir}", "{dir}/board.toml", "",
         *(str(ROOT / "examples" / name) for name in EXAMPLES)]  # fmt: skip
COMMON_VALUES = {
    "--format": ["text", "json", "markdown", "sarif", ""],
    "--max-seconds": ["0.3", "1", "0", "-1", "nan", "inf", "1e-9", "\u00b2", "1e400"],
    "--ruling": ["kaelyfos/attack-removal=supply", "nosuch/point=x", "=", "\u202e"],
    "-o": ["{dir}/out.txt", "{dir}/board.toml", "{dir}", "{dir}/sub/out.txt"],
}
SEEDS = ["0", "1", "-1", str(2**63), str(2**63 - 1), "nan", "\u0663", "1e3"]
COUNTS = ["1", "2", "0", "-1", "3", *NUMBERS]
COMMANDS: dict[tuple[str, ...], tuple[list[str], dict[str, list[str]]]] = {
    ("kaelyfos", "advise"): (
        FILES,
        {"--triggers": ["1", "2", *NUMBERS], "--open-ties": ["uniform", "best", "x"]},
    ),
    ("kaelyfos", "balance"): (
        GAMES,
        {
            "--material": ["0", "1", "101", *NUMBERS],
            "--triggers": ["1", *NUMBERS],
            "--explorer": ["ada=scarab", "ada=nowhere", "=", "ada=", "x" * 300 + "=y"],
            "--open-ties": ["worst", "nope"],
        },
    ),
    ("cunning-folk", "advise"): (
        FILES,
        {"--swap-odds": ["1:1", "0:0", "3:", ":", "\u00b2:1", "1:-1", "10000000000:1", "a"]},
    ),
    ("cunning-folk", "equilibrium"): (
        FILES,
        {"--cell": ["C3", "A1", "D4", ""], "--swap-odds": ["1:1", "0:1", "nan:1"]},
    ),
    ("cunning-folk", "balance"): (
        GAMES,
        {
            "--games": COUNTS,
            "--seed": SEEDS,
            "--players": ["2", "3", "4", "5", "1", *NUMBERS],
            "--setup": ["standard", "bonus", "scoundrels", "x"],
            "--bonus": ["liar,pirate,vagrant", "", "liar,liar", "nope", ","],
            "--policies": ["random", "deduce", "advise", "random,random,advise", "x", ",", ""],
            "--max-moves": ["1", "0", "400", *NUMBERS],
        },
    ),
    ("twisted-cryptids", "advise"): (
        FILES,
        {"--samples": COUNTS, "--seed": SEEDS, "--exact-limit": COUNTS},
    ),
    ("twisted-cryptids", "balance"): (
        GAMES,
        {
            "--games": COUNTS,
            "--seed": SEEDS,
            "--players": ["2", "6", "7", "1", *NUMBERS],
            "--policy": ["random", "advise", "x"],
            "--agent-exact-limit": COUNTS,
            "--agent-samples": COUNTS,
        },
    ),
    ("twist-of-fate", "balance"): (
        GAMES,
        {
            "--games": COUNTS,
            "--seed": SEEDS,
            "--players": ["2", "3", "4", "2,4", "5", "", ",", "\u00b2", "nan"],
            "--policy": ["random", "uct", "random,uct", "x", "random,random,random"],
            "--iterations": COUNTS,
            "--exploration": ["0", "0.1", "1e6", "1e7", *NUMBERS],
            "--exact-plies": ["0", "1", "2", "8", *NUMBERS],
            "--max-rounds": ["1", "2", *NUMBERS],
        },
    ),
    ("twist-of-fate", "solve"): (
        FILES,
        {
            "--horizon": ["round", "game", "x"],
            "--rounds": ["0", "1", "2", "5", *NUMBERS],
            "--model": ["maxn", "paranoid"],
            "--solver": ["numba", "reference"],
            "--max-states": ["1", "10", "0", *NUMBERS],
            "--max-memory": ["0.01", "1", "0.001", *NUMBERS],
            "--threads": ["1", "2", "65", *NUMBERS],
        },
    ),
    ("coverage",): (GAMES, {}),
}
CHEAP = {  # options added unless drawn, so a valid command line stays small
    "--games": "2",
    "--max-seconds": "1",
    "--samples": "4",
    "--exact-limit": "4",
    "--agent-samples": "2",
    "--agent-exact-limit": "2",
    "--iterations": "3",
    "--exact-plies": "2",
    "--max-rounds": "3",
    "--max-moves": "60",
    "--solver": "reference",
    "--rounds": "1",
}


VALID_TARGETS = {
    ("kaelyfos", "advise"): ["kaelyfos/advise.toml"],
    ("kaelyfos", "balance"): ["kaelyfos", "{dir}/board.toml"],
    ("cunning-folk", "advise"): ["cunning-folk/pending-claim.toml"],
    ("cunning-folk", "equilibrium"): ["cunning-folk/bluff-or-not.toml"],
    ("cunning-folk", "balance"): ["cunning-folk"],
    ("twisted-cryptids", "advise"): ["twisted-cryptids/advise-day.toml"],
    ("twisted-cryptids", "balance"): ["twisted-cryptids"],
    ("twist-of-fate", "balance"): ["twist-of-fate"],
    ("twist-of-fate", "solve"): ["twist-of-fate/hidden-card.toml",
                                 "twist-of-fate/across-rounds.toml"],
    ("coverage",): ["kaelyfos", "cunning-folk", "twist-of-fate", "twisted-cryptids",
                    "{dir}/board.toml"],
}  # fmt: skip
VALID_VALUES = {  # per option, values a run does its work with (the others are refused)
    "--format": ["text", "json"], "-o": ["{dir}/out.txt", "{dir}/sub/out.txt"],
    "--ruling": ["kaelyfos/attack-removal=supply"], "--triggers": ["1", "2"],
    "--open-ties": ["uniform", "best", "worst"], "--material": ["0", "1", "3"],
    "--explorer": ["ada=glowing-fold"], "--swap-odds": ["1:1", "3:1", "0:1"],
    "--cell": ["C3", "A1"], "--games": ["1", "2", "3"], "--seed": ["0", "1", str(2**63 - 1)],
    "--setup": ["standard", "bonus", "scoundrels"], "--bonus": ["liar,pirate,vagrant"],
    "--policies": ["random", "deduce", "advise", "random,random,advise"],
    "--max-moves": ["1", "60"], "--samples": ["2", "3", "4"], "--exact-limit": ["1", "4"],
    "--agent-exact-limit": ["1", "2"], "--agent-samples": ["2", "3"],
    "--policy": ["random", "advise"],
    "--iterations": ["1", "3"], "--exploration": ["0", "0.1", "1e6"],
    "--exact-plies": ["0", "1", "2"], "--max-rounds": ["1", "2"],
    "--horizon": ["round", "game"], "--rounds": ["0", "1", "2"], "--model": ["maxn", "paranoid"],
    "--solver": ["numba", "reference"], "--max-states": ["1", "10", "1000"],
    "--max-memory": ["0.01", "1"], "--threads": ["1", "2"],
}  # fmt: skip
VALID_POLICIES = {  # --policy values a run works with, where they differ from VALID_VALUES
    ("twist-of-fate", "balance"): ["random", "uct"],
}
VALID_PLAYERS = {
    ("cunning-folk", "balance"): ["2", "3", "4"],
    ("twisted-cryptids", "balance"): ["2", "3", "6"],
    ("twist-of-fate", "balance"): ["2", "3", "2,4"],
}


def _target(name: str) -> str:
    return name if name in GAMES else str(ROOT / "examples" / name)


@st.composite
def analysis_command_line(draw: st.DrawFn) -> tuple[str, ...]:
    """One analysis command with one or two targets and up to five options: every value
    one a run works with (half the cases), or each valid or hostile; budgets and sizes not
    drawn are set small (:data:`CHEAP`)."""
    words = draw(st.sampled_from(sorted(COMMANDS)))
    targets, options = COMMANDS[words]
    valid = draw(st.booleans())
    values = {**COMMON_VALUES, **options}
    if words == ("coverage",):
        values = {"--format": ["text", "json", "markdown", "x"], "-o": COMMON_VALUES["-o"]}
    if valid:
        targets = [_target(t) for t in VALID_TARGETS[words]]
        players = {"--players": VALID_PLAYERS.get(words, [])}
        if words in VALID_POLICIES:
            players["--policy"] = VALID_POLICIES[words]
        known = {**VALID_VALUES, **players}
        values = {o: known[o] for o in values if known.get(o) and o != "--max-seconds"}
    most = 2 if words == ("coverage",) or not valid else 1  # one target, unless coverage
    args = [*words, *draw(st.lists(st.sampled_from(targets), min_size=1, max_size=most))]
    for option in draw(st.lists(st.sampled_from(sorted(values)), max_size=5)):
        args += [option, draw(st.sampled_from(values[option]))]
    if words != ("coverage",):
        for option, value in CHEAP.items():
            if option == "--solver" and "game" in args:
                continue  # --horizon game has one solver
            if option not in args and (option in options or option == "--max-seconds"):
                args += [option, value]
    return tuple(args)
