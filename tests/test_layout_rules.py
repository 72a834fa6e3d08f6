"""The code's own rules, checked: only the runtime touches curses, only the launch context
reads the terminal's size and the login name, and modules stay small."""

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


# What the terminal and the login say, which a game must take from its LaunchContext (a
# served game's terminal and player are the connection's, not this process's).
ENVIRONMENT_READS = ("curses.LINES", "curses.COLS", "get_terminal_size", '"LOGNAME"')
READERS = {
    "runtime/context.py": frozenset(ENVIRONMENT_READS),  # builds the LaunchContext
    "runtime/workers.py": frozenset({"get_terminal_size"}),  # a CLI report's progress bar
}


def environment_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) for each read of ENVIRONMENT_READS in ``tree``, however it is spelt:
    ``curses.LINES``, ``from curses import COLS``, ``os.get_terminal_size``,
    ``from shutil import get_terminal_size``, ``"LOGNAME"`` or ``'LOGNAME'``."""
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr in ("LINES", "COLS")
                and isinstance(node.value, ast.Name) and node.value.id == "curses"):
            found.append((node.lineno, f"curses.{node.attr}"))
        elif isinstance(node, ast.ImportFrom) and node.module == "curses":
            found += [(node.lineno, f"curses.{alias.name}") for alias in node.names
                      if alias.name in ("LINES", "COLS")]
        elif isinstance(node, ast.ImportFrom):
            found += [(node.lineno, alias.name) for alias in node.names
                      if alias.name == "get_terminal_size"]
        elif isinstance(node, ast.Attribute) and node.attr == "get_terminal_size":
            found.append((node.lineno, "get_terminal_size"))
        elif isinstance(node, ast.Constant) and node.value == "LOGNAME":
            found.append((node.lineno, '"LOGNAME"'))
    return found


def test_only_the_launch_context_reads_the_terminal_size_and_the_login() -> None:
    offenders = []
    for path in modules():
        name = path.relative_to(PACKAGE).as_posix()
        allowed = READERS.get(name, frozenset())
        offenders += [f"{name}:{line} {what}"
                      for line, what in environment_reads(ast.parse(path.read_text("utf-8")))
                      if what not in allowed]
    assert offenders == []


def test_the_environment_rule_sees_each_spelling() -> None:
    source = """
import curses, os, shutil
from curses import LINES, COLS
from shutil import get_terminal_size
rows, cols = curses.LINES, curses.COLS
width = os.get_terminal_size().columns or shutil.get_terminal_size().columns
user = os.environ.get("LOGNAME") or os.environ['LOGNAME']
# LOGNAME in a comment, or "the LOGNAME variable" in text, reads nothing
"""
    assert sorted(what for _, what in environment_reads(ast.parse(source))) == sorted([
        "curses.LINES", "curses.COLS", "get_terminal_size", "curses.LINES", "curses.COLS",
        "get_terminal_size", "get_terminal_size", '"LOGNAME"', '"LOGNAME"'])


# Who may look at the environment at all: the code that builds the launch context (the
# player, verified or not, the display options, the data folder), the terminal session
# (TERM, the locale the screen can show), the server building a game's environment from a
# connection, and the command line's own debugging switch. A game or the store reading it
# would bypass the context, as NO_COLOR and 'unverified' once did.
ENVIRONMENT_READERS = frozenset({
    "runtime/context.py", "runtime/environment.py", "runtime/terminal.py",
    "serve/children.py", "serve/server.py", "cli.py"})


def reads_the_environment(tree: ast.AST) -> list[int]:
    """Lines that touch ``os.environ`` or call ``os.getenv``/``getenv``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv") and \
                isinstance(node.value, ast.Name) and node.value.id == "os":
            found.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            found += [node.lineno for alias in node.names
                      if alias.name in ("environ", "getenv")]
    return found


def test_only_the_context_the_session_and_the_server_read_the_environment() -> None:
    offenders = [f"{name}:{line}" for path in modules()
                 if (name := path.relative_to(PACKAGE).as_posix()) not in ENVIRONMENT_READERS
                 for line in reads_the_environment(ast.parse(path.read_text("utf-8")))]
    assert offenders == []


def test_the_environment_rule_sees_os_environ_and_getenv() -> None:
    source = "import os\nfrom os import environ, getenv\na = os.environ['X']\nb = os.getenv('Y')\n"
    assert reads_the_environment(ast.parse(source)) == [2, 2, 3, 4]
