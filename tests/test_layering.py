"""The layering, read from the source with ``ast``: the game engines import nothing from the app,
the recognizer or the board; the recognizer imports no game engine (only a game's public
observation type); nothing imports a command-line module; no import circles.

Imports under ``if TYPE_CHECKING:`` are left out: they never run.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("host", "vision")
GAMES = ("host.trains", "host.express", "host.trainline", "host.rollecate")
"""The game packages: engines, rules, referees (pure code)."""
GAME_MAY_USE = frozenset({"host.errors", "host.deck", "host.turns", "host.turn_order",
                          "host.engine", "host.jsonl", "host.referee"})
"""What a game may import besides its own package: errors, deck data, turn order and its words,
the engines' shared base, JSON lines, the referee contract."""
VISION_MAY_USE = frozenset({"host.errors", "host.deck"})
"""What the recognizer may import from the host besides a game's observation type."""
OBSERVATION_LEANS_ON = frozenset({"observation", "rules", "cards", "moves", "discard"})
"""What a game's observation type may pull in (its constants, cards and move words), and so
all of a game the recognizer may load: never its state, engine or referee."""
CLI_MODULES = frozenset({"host.cli", "host.board.cli", "vision.cli"})
"""Command-line modules: entry points, imported by nobody (``host.cli`` loads the others by
name)."""
FORBIDDEN_IN_GAMES = ("cv2", "serial", "numpy", "vision", "host.board", "host.web")
"""Libraries and parts a game engine never touches."""


def module_name(path: Path) -> str:
    """``host/trains/game.py`` -> ``host.trains.game``; a package's ``__init__`` is the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> dict[str, Path]:
    """Every module of the app and the recognizer, by name."""
    return {module_name(path): path
            for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported(tree: ast.AST, name: str, is_package: bool) -> set[str]:
    """Every module a module's code imports when it runs (dotted names, as written, plus
    ``package.name`` for ``from package import name``)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                here = here[: len(here) - node.level + 1]
                base = ".".join([*here, base] if base else here)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph(files: Mapping[str, Path]) -> dict[str, set[str]]:
    """Each module's imports: modules of ours by name, anything else as written."""
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        names = imported(tree, name, path.name == "__init__.py")
        ours = {found for found in names if found in files}
        # ``from host.trains.rules import LINE_LENGTH`` names a constant, not a module.
        others = {found for found in names
                  if found not in files and not any(found.startswith(f"{mine}.")
                                                    for mine in ours)}
        graph[name] = ours | others
    return graph


def in_package(module: str, package: str) -> bool:
    """True if ``module`` is ``package`` or inside it."""
    return module == package or module.startswith(f"{package}.")


def game_of(module: str) -> str | None:
    """The game package a module belongs to, if any."""
    return next((game for game in GAMES if in_package(module, game)), None)


def engine_violations(graph: Mapping[str, set[str]]) -> list[str]:
    """Imports by a game's modules of anything but its own package and what games may use."""
    bad = []
    for module, imports in sorted(graph.items()):
        game = game_of(module)
        if game is None:
            continue
        for target in sorted(imports):
            outside = (target.split(".")[0] in PACKAGES and not in_package(target, game)
                       and target not in GAME_MAY_USE)
            forbidden = any(in_package(target, part) for part in FORBIDDEN_IN_GAMES)
            if outside or forbidden:
                bad.append(f"{module} imports {target}")
    return bad


def closure(graph: Mapping[str, set[str]], start: Iterable[str]) -> set[str]:
    """Every module reached from ``start`` through imports."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo.extend(target for target in graph.get(module, ()) if target in graph)
    return seen


def vision_violations(graph: Mapping[str, set[str]]) -> list[str]:
    """The recognizer importing the host beyond a game's observation type, or loading (through
    that type) any of a game's state, engine or referee."""
    bad = []
    for module, imports in sorted(graph.items()):
        if not in_package(module, "vision"):
            continue
        for target in sorted(imports):
            if not in_package(target, "host") or target in VISION_MAY_USE:
                continue
            if game_of(target) is None or target.rsplit(".", 1)[-1] != "observation":
                bad.append(f"{module} imports {target}")
    vision = [module for module in graph if in_package(module, "vision")]
    for module in sorted(closure(graph, vision)):
        if game_of(module) is not None and module.rsplit(".", 1)[-1] not in OBSERVATION_LEANS_ON:
            bad.append(f"the recognizer loads {module}")
    return bad


def cli_violations(graph: Mapping[str, set[str]]) -> list[str]:
    """Imports of a command-line module (``__main__`` starting the command line excepted)."""
    return [f"{module} imports {target}" for module, imports in sorted(graph.items())
            if not module.endswith("__main__")
            for target in sorted(imports & CLI_MODULES) if target != module]


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected groups of modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph.get(module, ())):
            if target not in graph:
                continue
            if target not in index:
                connect(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1 or module in graph.get(module, ()):
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            connect(module)
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(sources())


def test_the_graph_sees_the_imports_it_judges(graph: dict[str, set[str]]) -> None:
    assert "host.trains.position" in graph["host.trains.referee"]
    assert "host.table_runner" in graph["host.cli"]  # ``from host import table_runner``
    assert "host.trains.rules" not in graph["vision.pipeline"]
    assert len(graph) > 80


def test_the_game_engines_import_nothing_from_the_app_vision_or_the_board(
    graph: dict[str, set[str]],
) -> None:
    assert engine_violations(graph) == []


def test_the_recognizer_imports_no_game_engine(graph: dict[str, set[str]]) -> None:
    assert vision_violations(graph) == []


def test_nothing_imports_a_command_line_module(graph: dict[str, set[str]]) -> None:
    assert cli_violations(graph) == []


def test_there_are_no_import_circles(graph: dict[str, set[str]]) -> None:
    assert circles(graph) == []


def test_each_rule_catches_a_planted_violation(graph: dict[str, set[str]]) -> None:
    planted = {module: set(imports) for module, imports in graph.items()}
    planted["host.trains.position"].add("vision.pipeline")
    planted["vision.zones_of_some_game"] = {"host.rollecate.state"}
    planted["host.play"].add("vision.cli")
    planted["vision.readings"].add("vision.pipeline")
    assert engine_violations(planted) == ["host.trains.position imports vision.pipeline"]
    assert "vision.zones_of_some_game imports host.rollecate.state" in vision_violations(planted)
    assert "the recognizer loads host.rollecate.state" in vision_violations(planted)
    assert cli_violations(planted) == ["host.play imports vision.cli"]
    assert ["vision.pipeline", "vision.readings"] in circles(planted)
