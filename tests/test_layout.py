"""The package's layout: a handful of shared modules at the root, a folder per concern,
a subpackage per game in every layer, and no import circle.

Every import between the package's modules counts, the ones inside functions too
(a lazy import still closes a circle when both ends run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

from ruleslawyer import games

PACKAGE = Path(__file__).resolve().parents[1] / "ruleslawyer"
LAYERS = ("models", "solvers", "checks", "cli", "graphs", "reports", "openspiel")
# what the package's root holds: the modules every layer shares, nothing else
ROOT_MODULES = {"__init__", "__main__", "errors", "findings", "budget", "games"}
# one folder per concern, and what it holds (a module of a concern lives in its folder)
CONCERNS = {
    "rulebook": {"books", "shipped", "quotes", "coverage"},  # the rulebook text and its coverage
    "gamefiles": {"source", "kinds", "inputs", "outputs", "schema", "tomlwriter"},
    "designer": {"checking", "baseline", "diffing", "explaining"},  # the designer's workflow
}
GAME_NAMES = tuple(sorted(g.replace("-", "_") for g in games.GAMES))
MOST_FILES = 12


def _modules() -> dict[str, Path]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def import_graph() -> nx.DiGraph:
    """Module -> every package module it imports (at the top or inside a function)."""
    modules = _modules()
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    targets.append(full if full in modules else node.module)
            elif isinstance(node, ast.Import):
                targets += [alias.name for alias in node.names]
            graph.add_edges_from((name, t) for t in targets if t in modules and t != name)
    return graph


def test_import_graph_sees_lazy_imports() -> None:
    # the CLI loads each game's group inside a function: the graph must still see it
    graph = import_graph()
    assert graph.has_edge("ruleslawyer.cli.twist_of_fate.commands", "ruleslawyer.cli.common")
    assert graph.has_edge(
        "ruleslawyer.solvers.twist_of_fate.memory", "ruleslawyer.solvers.twist_of_fate.kernel"
    )


def test_no_import_circle() -> None:
    graph = import_graph()
    circles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert circles == []


def test_the_root_holds_only_the_shared_modules() -> None:
    assert {p.stem for p in PACKAGE.glob("*.py")} == ROOT_MODULES


@pytest.mark.parametrize("concern", sorted(CONCERNS))
def test_each_concern_has_its_folder(concern: str) -> None:
    folder = PACKAGE / concern
    assert (folder / "__init__.py").is_file(), folder
    held = {p.stem for p in folder.glob("*.py")} - {"__init__"}
    assert CONCERNS[concern] <= held, (concern, sorted(held))
    assert not any(concern in name for name in held), (concern, sorted(held))  # short names


def test_a_game_file_loads_in_one_pass_down() -> None:
    # the registry reads no file: loading goes gamefiles.source -> kinds, inputs, games,
    # and nothing below it calls back up into the loader
    graph = import_graph()
    assert set(graph.successors("ruleslawyer.games")) == {"ruleslawyer.errors"}
    below = {"ruleslawyer.gamefiles.kinds", "ruleslawyer.gamefiles.inputs", "ruleslawyer.games"}
    assert below <= set(graph.successors("ruleslawyer.gamefiles.source"))
    for module in below:
        assert "ruleslawyer.gamefiles.source" not in nx.descendants(graph, module), module


@pytest.mark.parametrize("layer", LAYERS + tuple(sorted(CONCERNS)))
def test_layer_folders_stay_small(layer: str) -> None:
    for folder in [PACKAGE / layer, *(p for p in (PACKAGE / layer).rglob("*") if p.is_dir())]:
        if folder.name == "__pycache__" or folder.name == "templates":
            continue
        files = [p for p in folder.iterdir() if p.suffix == ".py" and p.name != "__init__.py"]
        assert len(files) <= MOST_FILES, (folder, sorted(p.name for p in files))


@pytest.mark.parametrize("layer", ("models", "solvers", "checks", "cli"))
def test_each_game_has_one_name_and_its_own_room(layer: str) -> None:
    root = PACKAGE / layer
    for path in root.rglob("*.py"):
        rel = path.relative_to(root)
        stem = path.stem
        if len(rel.parts) == 1:
            # at the layer's root: a game's single module is named for the game alone;
            # anything else there is shared and names no game
            assert stem in GAME_NAMES or not any(g in stem for g in GAME_NAMES), rel
            assert not stem.startswith("cryptid"), rel
        else:
            assert rel.parts[0] in GAME_NAMES, rel  # a subpackage is a game's
            assert not any(g in stem for g in GAME_NAMES), rel  # no name repeats its game
            assert not stem.startswith("cryptid"), rel


def test_references_are_told_apart_by_the_tree() -> None:
    for path in (PACKAGE / "solvers").rglob("*.py"):
        if "reference" in path.stem:
            assert path.stem == "reference" or path.parent.name == "reference", path
        if path.parent.name == "reference":
            assert path.parent.parent.name in GAME_NAMES, path
