"""The code's own rules, checked: only the runtime touches curses, and modules stay small."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "termgames"
MAX_LINES = 400


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_only_the_runtime_imports_curses() -> None:
    offenders = []
    for path in modules():
        if path.parent.name == "runtime":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name == "curses" or name.startswith("curses.") for name in names):
                offenders.append(str(path.relative_to(PACKAGE)))
    assert offenders == []


def test_no_module_is_over_400_lines() -> None:
    long = {str(path.relative_to(PACKAGE)): count for path in modules()
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def public(body: list[ast.stmt]) -> list[ast.FunctionDef | ast.ClassDef]:
    """Module-level functions and classes, and their classes' methods, not nested ones."""
    found: list[ast.FunctionDef | ast.ClassDef] = []
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            found.append(node)
            if isinstance(node, ast.ClassDef):
                found.extend(public(node.body))
    return found


def test_every_public_function_and_class_says_what_it_does() -> None:
    missing = [f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}"
               for path in modules()
               for node in public(ast.parse(path.read_text(encoding="utf-8")).body)
               if ast.get_docstring(node) is None]
    assert missing == []
