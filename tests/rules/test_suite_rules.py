"""How the suite and the benchmarks are put together, checked on their source: the tests
are laid out like the code (a package per wing, each test module in one, named after what
it tests, no two of the same name); helpers live in tests/harness/ (terminal.py,
screens.py, boards.py, stores.py, serving.py, processes.py, states.py, drivers.py,
fake.py, storm.py and the rest), never in a test module another module imports;
``Start`` is defined once, beside ``Terminal``; and no module patches ``sys.path``
(benchmarks/ is a package run with ``python -m``).

Every import counts, at the top or inside a function."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.harness.sources import parsed

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")])
"""Every module of the suite and of the benchmarks."""


def named(path: Path) -> str:
    """``/…/tests/arcade/test_cli.py`` -> ``tests/arcade/test_cli.py``, for messages."""
    return str(path.relative_to(ROOT))


def imports_of_test_modules(tree: ast.AST) -> Iterator[str]:
    """The test modules (``tests.test_*``, ``tests.WING.test_*``) an import in ``tree``
    names, at any depth: as ``import tests.g2048.test_x``, ``from tests.g2048.test_x import
    y``, ``from tests.g2048 import test_x`` or, from inside tests/, ``from .test_x import
    y``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ("tests." * (node.level > 0)) + (node.module or "")
            names = [base.rstrip("."), *(f"{base.rstrip('.')}.{alias.name}"
                                         for alias in node.names)]
        else:
            continue
        yield from (name for name in names if name.startswith("tests.")
                    and any(part.startswith("test_") for part in name.split(".")))


def definitions_of(tree: ast.AST, name: str) -> Iterator[int]:
    """The lines where ``tree`` binds ``name`` by assignment, a def or a class, at any
    depth."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                yield node.lineno
            continue
        else:
            continue
        if any(isinstance(target, ast.Name) and target.id == name for target in targets):
            yield node.lineno


def test_the_finders_find_what_they_look_for() -> None:
    tree = ast.parse("import tests.maze.test_a\nfrom tests.web.test_b import c\n"
                     "from tests.g2048 import test_d\nfrom .test_e import f\n"
                     "from tests.harness.screens import g\n"
                     "def later():\n    from tests.test_h import i\n")
    found = set(imports_of_test_modules(tree))
    assert {"tests.maze.test_a", "tests.web.test_b", "tests.g2048.test_d", "tests.test_e",
            "tests.test_h"} <= found
    assert not any(name.startswith("tests.harness") for name in found)
    tree = ast.parse("Start = 1\nStart: int = 2\ndef Start(): pass\nStarted = 3\n")
    assert list(definitions_of(tree, "Start")) == [1, 2, 3]


@pytest.mark.parametrize("path", SOURCES, ids=named)
def test_no_module_imports_a_test_module(path: Path) -> None:
    """A helper two modules share lives in a helper module; a test module is imported by
    nobody (pytest collects it), so moving or deleting a test never breaks another."""
    found = sorted(set(imports_of_test_modules(parsed(path))))
    assert not found, f"{named(path)} imports test modules {found}: move what it uses " \
                      "to a helper module"


def test_start_is_defined_only_beside_terminal() -> None:
    """``Start``, the ``terminal`` fixture's type, is tests/harness/terminal.py's alone."""
    places = [f"{named(path)}:{line}" for path in SOURCES
              for line in definitions_of(parsed(path), "Start")]
    assert [place.split(":")[0] for place in places] == ["tests/harness/terminal.py"], places


@pytest.mark.parametrize("path", SOURCES, ids=named)
def test_no_module_sets_the_import_path(path: Path) -> None:
    """Benchmarks run as ``python -m benchmarks.NAME`` from the root, tests under pytest:
    both find ``termgames``, ``tests`` and ``benchmarks`` with no ``sys.path`` patched."""
    tree = parsed(path)
    touched = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute)
               and node.attr == "path" and isinstance(node.value, ast.Name)
               and node.value.id == "sys"]
    assert not touched, f"{named(path)} uses sys.path at lines {touched}"


TESTS = ROOT / "tests"
WINGS = ("g2048", "reversi", "sokoban", "maze", "serve", "store", "web", "runtime", "arcade",
         "rules")
"""The folders of test modules: one per wing of termgames, the arcade as a whole, and the
rules."""
SHARED = ("harness", "tinygame")
"""The folders of what the tests share: the helpers, and the fifth game
(tests/arcade/test_fifth_game.py)."""


def test_the_tests_are_laid_out_like_the_code() -> None:
    """tests/ holds its conftest.py and a package per wing; a wing's package holds test
    modules (and a conftest.py where one is needed); every other module is a helper in
    tests/harness/ or part of the fifth game."""
    folders = sorted(path.name for path in TESTS.iterdir()
                     if path.is_dir() and not path.name.startswith(("_", ".")))
    assert folders == sorted((*WINGS, *SHARED))
    assert sorted(path.name for path in TESTS.glob("*.py")) == ["__init__.py", "conftest.py"]
    assert [folder for folder in folders if not (TESTS / folder / "__init__.py").is_file()] == []
    misplaced = [named(path) for folder in folders for path in (TESTS / folder).rglob("*.py")
                 if path.name not in ("__init__.py", "conftest.py")
                 and path.name.startswith("test_") != (folder in WINGS)]
    assert misplaced == [], "test modules go in a wing's folder, helpers in tests/harness/"


def test_test_modules_have_names_of_their_own_that_say_what_they_test() -> None:
    """No two test modules share a name (a failure's module name says which), and none is
    named after an issue or a pass rather than what it tests."""
    modules = sorted(path for wing in WINGS for path in (TESTS / wing).glob("test_*.py"))
    names = [path.stem for path in modules]
    assert sorted({name for name in names if names.count(name) > 1}) == []
    vague = ("issue", "regression", "bug", "feel")
    assert [named(path) for path in modules if any(word in path.stem for word in vague)] == []
