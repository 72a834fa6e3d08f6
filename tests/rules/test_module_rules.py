"""How termgames' modules may depend on each other, checked on their source: no import
circles, no click in the runtime, and no game named where every game is iterated.

Every import counts, wherever it is written: at the top, inside a function (a lazy
import is a dependency all the same; the forked child of ``serve`` calling back into
``cli`` was one), and under ``if TYPE_CHECKING`` (a circle of types still means that
neither module can be read, or changed, without the other: ``spec`` and
``runtime.screen`` were one). What is not counted is Python's implicit import of a
module's parent package (``termgames.g2048.cli`` loads ``termgames.g2048`` first): a
package's ``__init__`` naming its own modules lazily, as every game's SPEC does, is
how a package is meant to work, not a circle.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

from termgames.games import GAMES
from tests.harness.sources import parsed

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "termgames"
KNOWN_CIRCLES: list[set[str]] = []
"""Circles still to break; each must still exist (else remove it here). None is left: the
last, 2048's bitboard and tablefile, ended when the row tables' definitions moved below
both (``termgames.g2048.ai.rows``)."""


def module_name(path: Path) -> str:
    """``termgames/runtime/app.py`` -> ``termgames.runtime.app``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Every module of termgames, by name."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def typing_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:`` in ``tree``."""
    return {id(inner) for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for statement in node.body for inner in ast.walk(statement)}


def imported(tree: ast.AST, known: dict[str, Path] | None = None,
             types: bool = True) -> Iterator[str]:
    """Every module an import in ``tree`` names (``from a import b`` names ``a.b`` when
    that is one of the ``known`` modules, else ``a``), at any depth; with ``types``
    False, not those under ``if TYPE_CHECKING``."""
    skipped = set() if types else typing_only(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                yield full if known is not None and full in known else node.module


@functools.cache
def graph(types: bool = True) -> dict[str, set[str]]:
    """Each termgames module's imports of other termgames modules (with ``types``
    False, only those made when the program runs); built once a run, read, never changed."""
    known = modules()
    return {name: {target for target in imported(parsed(path), known, types)
                   if target in known and target != name}
            for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(edges[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(group)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_circle_finder_finds_a_circle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(edges) == [{"a", "b", "c"}]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_termgames_imports_itself_round_a_circle() -> None:
    found = circles(graph())
    assert [group for group in found if group not in KNOWN_CIRCLES] == []
    assert [group for group in KNOWN_CIRCLES if group not in found] == []


def test_nothing_under_runtime_imports_click() -> None:
    """Not directly, nor through any termgames module it loads as it runs: the runtime
    runs a game whoever starts it (the CLI, the server, a test). Types named for a
    checker alone (the contract's ``click.Command``) load nothing."""
    edges = graph(types=False)
    known = modules()

    @functools.cache  # each module is reached from many starts: parsed once
    def uses_click(name: str) -> bool:
        tree = parsed(known[name])
        return any(target.split(".")[0] == "click"
                   for target in imported(tree, types=False))

    offenders = []
    for start in (name for name in known if name.startswith("termgames.runtime")):
        seen, todo = {start}, [start]
        while todo:
            name = todo.pop()
            if uses_click(name):
                offenders.append(f"{start} (through {name})" if name != start else start)
                break
            for target in edges[name] - seen:
                seen.add(target)
                todo.append(target)
    assert offenders == []


def rooms() -> list[str]:
    """Every room: a package inside a wing (``termgames.sokoban.solver``,
    ``termgames.serve.door``, ``termgames.sokoban.solver.board``), whose ``__init__`` is
    its one face."""
    return [name for name, path in modules().items()
            if path.name == "__init__.py" and name.count(".") >= 2]


def past_a_face(edges: dict[str, set[str]], rooms: list[str]) -> list[str]:
    """Each import of a module inside a room by a module outside it."""
    def inside(name: str, room: str) -> bool:
        return name.startswith(room + ".")

    return sorted(f"{name} imports {target}" for name, targets in edges.items()
                  for target in targets for room in rooms
                  if inside(target, room) and not (name == room or inside(name, room)))


def test_the_face_rule_sees_an_import_past_a_face() -> None:
    edges = {"t.a.room": {"t.a.room.inner"}, "t.a.room.inner": {"t.a.room.deep"},
             "t.a.room.deep": set(), "t.a.other": {"t.a.room.inner", "t.a.room"}}
    assert past_a_face(edges, ["t.a.room"]) == ["t.a.other imports t.a.room.inner"]
    edges["t.a.room.inner"] = {"t.a.room.deep.most"}  # a room in a room has a face too
    assert past_a_face(edges, ["t.a.room", "t.a.room.deep"]) == [
        "t.a.other imports t.a.room.inner", "t.a.room.inner imports t.a.room.deep.most"]


def test_no_module_outside_a_room_imports_past_its_face() -> None:
    """A room's own modules are its business: everything else in termgames imports the
    room's face (its ``__init__``), never one of its modules. The tests, benchmarks and
    tools may look inside."""
    found = rooms()
    assert {"termgames.sokoban.solver", "termgames.sokoban.solver.board",
            "termgames.serve.door", "termgames.runtime.terminal"} <= set(found)
    assert past_a_face(graph(), found) == []
    assert "termgames.sokoban.solver" in graph()["termgames.sokoban.hints.assist"]


LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("the ground floor", frozenset({
        "termgames", "termgames.bitset", "termgames.clock", "termgames.direction",
        "termgames.failures", "termgames.logline", "termgames.outcome", "termgames.text"})),
    ("the store", frozenset({"termgames.store"})),
    ("the contract and the settings", frozenset({
        "termgames.scoreboard", "termgames.spec", "termgames.settings",
        "termgames.standings", "termgames.daily"})),
    ("the runtime", frozenset({"termgames.runtime"})),
    ("the commands' shared parts", frozenset({"termgames.commands"})),
    ("the games", frozenset(".".join(spec.create.__module__.split(".")[:2])
                            for spec in GAMES)),
    ("the arcade", frozenset({"termgames.games", "termgames.menu", "termgames.replay",
                              "termgames.serve", "termgames.web"})),
    ("the command line", frozenset({"termgames.cli", "termgames.__main__"})),
)
"""The house from the ground up (docs/architecture.md draws it): a module may import its
own layer and those below, never one above."""


def layer_of(name: str) -> int | None:
    """The layer ``name`` stands on, counted from the ground; None if no layer claims it."""
    for number, (_, members) in enumerate(LAYERS):
        if name in members or any(name.startswith(member + ".") for member in members
                                  if member != "termgames"):
            return number
    return None


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Each import from a lower layer to a higher one."""
    return sorted(f"{name} ({LAYERS[low][0]}) imports {target} ({LAYERS[high][0]})"
                  for name, targets in edges.items() for target in targets
                  if (low := layer_of(name)) is not None
                  and (high := layer_of(target)) is not None and high > low)


def test_every_module_stands_on_a_layer() -> None:
    """A new wing is placed on purpose, in LAYERS and in docs/architecture.md."""
    assert [name for name in modules() if layer_of(name) is None] == []


def test_no_import_runs_up_from_a_lower_layer() -> None:
    assert upward(graph()) == []
    # The rule sees what it forbids: the store reaching for the runtime.
    assert upward({"termgames.store.sqlite": {"termgames.runtime.screen"}}) == [
        "termgames.store.sqlite (the store) imports termgames.runtime.screen (the runtime)"]


APART: list[tuple[str, str]] = [
    ("termgames.store", "termgames.runtime"), ("termgames.spec", "termgames.runtime"),
    ("termgames.settings", "termgames.runtime"), ("termgames.web", "termgames.runtime"),
    ("termgames.web", "termgames.serve")]
"""Wings kept apart, whatever their layers: the store, the settings and the contract know
no terminal, and the web page runs without a terminal or a server (the live-sessions file
both read is the store's, ``termgames/store/live.py``)."""


@pytest.mark.parametrize(("importer", "imported_wing"), APART,
                         ids=[f"{a.split('.')[-1]}-{b.split('.')[-1]}" for a, b in APART])
def test_wings_kept_apart_import_nothing_of_each_other(importer: str,
                                                        imported_wing: str) -> None:
    def within(name: str, wing: str) -> bool:
        return name == wing or name.startswith(wing + ".")

    offenders = sorted(f"{name} imports {target}" for name, targets in graph().items()
                       if within(name, importer)
                       for target in targets if within(target, imported_wing))
    assert offenders == []


SERVING_AND_STORMS = [ROOT / "termgames" / "serve", ROOT / "termgames" / "web",
                      ROOT / "tests" / "harness" / "storm.py",
                      ROOT / "tests" / "arcade" / "test_storms.py"]


@pytest.mark.parametrize("place", SERVING_AND_STORMS, ids=lambda path: path.name)
def test_serve_and_the_storms_name_no_game(place: Path) -> None:
    """They iterate GAMES: no game's name as text, and no import of a game's package."""
    names = {spec.name for spec in GAMES}
    packages = {spec.create.__module__ for spec in GAMES}  # each game's package
    found = []
    for path in [place] if place.is_file() else sorted(place.rglob("*.py")):
        tree = parsed(path)
        found += [f"{path.name}:{node.lineno} {node.value!r}" for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and node.value in names]
        found += [f"{path.name}: imports {target}" for target in imported(tree)
                  if any(target == package or target.startswith(f"{package}.")
                         for package in packages)]
    assert packages and found == []
