"""The code's own rules, checked: only the runtime touches curses, and only its terminal
room changes a terminal's modes; signal handlers are installed where docs/architecture.md
says; each game's core imports nothing above it; screens reach no store; only the launch
context reads the terminal's size and the login name; no folder holds more than about 13
modules, and no function more than 60 lines. (How modules import each other:
test_module_rules.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.harness.sources import parsed

PACKAGE = Path(__file__).resolve().parents[2] / "termgames"
CORES = {
    "g2048": {"board", "state", "ai"},
    "maze": {"generate", "solve", "guide", "walk", "state", "solving", "saving"},
    "reversi": {"board", "match", "entry", "state", "settings", "thinking", "engine",
                "saving"},
    "sokoban": {"format", "game", "solver", "paths", "hints.heap", "hints.budget", "state",
                "solved", "course", "saving"},
}
"""Each game's core: its rules, outcomes and invariants, pure (no terminal, no store); a
module of a subpackage by its dotted name there, a subpackage by its name (all of it)."""
SHARED_PURE = {"termgames.direction", "termgames.outcome", "termgames.text",
               "termgames.bitset", "termgames.failures"}
"""What every core may use beside its own game's core: pure modules of no game."""


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_only_the_runtime_imports_curses() -> None:
    offenders = []
    for path in modules():
        if "runtime" in path.relative_to(PACKAGE).parts[:1]:
            continue
        for node in ast.walk(parsed(path)):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name == "curses" or name.startswith("curses.") for name in names):
                offenders.append(str(path.relative_to(PACKAGE)))
    assert offenders == []


def imported(path: Path, typing_too: bool = True) -> set[str]:
    """The modules ``path`` imports (those under ``if TYPE_CHECKING:`` only if
    ``typing_too``); a ``from package import module`` names the module."""
    names: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                if typing_too:
                    visit(node.body)
                continue
            for child in ast.walk(node):
                if isinstance(child, ast.Import):
                    names.update(alias.name for alias in child.names)
                elif isinstance(child, ast.ImportFrom) and child.module:
                    names.add(child.module)
                    names.update(f"{child.module}.{alias.name}" for alias in child.names)

    visit(parsed(path).body)
    return names


def above_the_core(game: str, names: set[str]) -> set[str]:
    """The names in ``names`` a core of ``game`` must not import: anything of termgames but
    its own core and the shared pure modules, and the terminal and the command line."""
    allowed = {f"termgames.{game}.{module}" for module in CORES[game]} | SHARED_PURE

    def fine(name: str) -> bool:  # an allowed module, a name in one, or a package of one
        return any(name == module or name.startswith(f"{module}.") or
                   module.startswith(f"{name}.") for module in allowed)

    return {name for name in names
            if (name.split(".")[0] == "termgames" and not fine(name))
            or name.split(".")[0] in ("curses", "click")}


def core_modules(game: str) -> dict[str, Path]:
    """Every module of ``game``'s core, by its dotted name in the game, with its file: a
    subpackage named in CORES brings all of its modules."""
    found: dict[str, Path] = {}
    for name in CORES[game]:
        path = PACKAGE / game / Path(*name.split("."))
        if path.is_dir():
            found.update({".".join(file.relative_to(PACKAGE / game).with_suffix("").parts)
                          .removesuffix(".__init__"): file for file in path.rglob("*.py")})
        else:
            found[name] = path.with_suffix(".py")
    return found


def test_each_core_imports_nothing_above_it() -> None:
    offenders = {f"{game}/{module}": sorted(bad) for game in CORES
                 for module, path in core_modules(game).items()
                 if (bad := above_the_core(game, imported(path)))}
    assert offenders == {}


def test_the_core_rule_sees_what_it_forbids() -> None:
    assert above_the_core("maze", {"termgames.runtime.draw", "curses", "termgames.maze.view",
                                   "termgames.store"}) == {
        "termgames.runtime.draw", "curses", "termgames.maze.view", "termgames.store"}
    assert above_the_core("maze", {"termgames.maze", "termgames.maze.walk", "termgames",
                                   "termgames.direction", "itertools"}) == set()


def test_no_screen_imports_a_store() -> None:
    """Screens reach records through their context and host, never the store's modules
    (a type named only for the checker is no import)."""
    screens = [*PACKAGE.glob("*/screen.py"), PACKAGE / "menu" / "scores.py",
               PACKAGE / "menu" / "launcher.py"]
    offenders = {str(path.relative_to(PACKAGE)): sorted(bad) for path in screens
                 if (bad := {name for name in imported(path, typing_too=False)
                             if name == "termgames.store" or
                             name.startswith("termgames.store.")})}
    assert offenders == {}


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
               for node in public(parsed(path).body)
               if ast.get_docstring(node) is None]
    assert missing == []


# What the terminal and the login say, which a game must take from its LaunchContext (a
# served game's terminal and player are the connection's, not this process's).
ENVIRONMENT_READS = ("curses.LINES", "curses.COLS", "get_terminal_size", '"LOGNAME"')
READERS = {
    "settings.py": frozenset(ENVIRONMENT_READS),  # the settings: the player, the data
    "commands/workers.py": frozenset({"get_terminal_size"}),  # a CLI report's progress bar
    "runtime/terminal/raw.py": frozenset({"get_terminal_size"}),  # the replay: no game, its own tty
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
                      for line, what in environment_reads(parsed(path))
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


# Who may look at the environment at all: the settings (the player, verified or not, the
# display options, the data folder, the database, whether the game is served), the terminal session
# (TERM, the locale the screen can show), the server building a game's environment from a
# connection, and the command line's own debugging switch. A game or the store reading it
# would bypass the context, as NO_COLOR and 'unverified' once did.
ENVIRONMENT_READERS = frozenset({
    "settings.py", "runtime/terminal/environment.py", "runtime/terminal/curses_session.py",
    "serve/seat/children.py", "serve/server.py", "cli.py"})


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
                 for line in reads_the_environment(parsed(path))]
    assert offenders == []


def test_the_environment_rule_sees_os_environ_and_getenv() -> None:
    source = "import os\nfrom os import environ, getenv\na = os.environ['X']\nb = os.getenv('Y')\n"
    assert reads_the_environment(ast.parse(source)) == [2, 2, 3, 4]


def test_no_folder_holds_more_than_about_thirteen_modules() -> None:
    """Past a dozen or so, a folder wants rooms (subpackages by concept), not more files.
    Its ``__init__`` and ``__main__`` are its face and its door, not rooms' worth."""
    crowded = {str(folder.relative_to(PACKAGE.parent)): count
               for folder in [PACKAGE, *(path.parent for path in PACKAGE.rglob("__init__.py"))]
               if (count := sum(1 for path in folder.glob("*.py")
                                if path.name not in ("__init__.py", "__main__.py"))) > 13}
    assert crowded == {}


MODE_CALLS = {"tty": {"setraw", "setcbreak"}, "termios": {"tcsetattr"},
              "curses": {"initscr", "endwin", "wrapper", "cbreak", "nocbreak", "raw",
                         "noraw", "echo", "noecho", "mousemask", "curs_set"}}
"""The calls that change how a terminal behaves, by the module that offers them."""


def calls(tree: ast.AST, offered: dict[str, set[str]]) -> list[int]:
    """The lines of ``module.function(...)`` calls in ``tree`` that ``offered`` names."""
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.attr in offered.get(node.func.value.id, set())]


def test_only_the_runtimes_terminal_room_changes_a_terminals_modes() -> None:
    found = {str(path.relative_to(PACKAGE)) for path in modules()
             if calls(parsed(path), MODE_CALLS)}
    assert found == {"runtime/terminal/curses_session.py", "runtime/terminal/raw.py"}


def test_the_terminal_mode_rule_sees_each_call() -> None:
    tree = ast.parse("import tty, curses\ntty.setraw(0)\ncurses.noecho()\nlen([])\n")
    assert calls(tree, MODE_CALLS) == [2, 3]


SIGNAL_INSTALLERS = {
    "runtime/terminal/signals.py", "runtime/terminal/raw.py", "commands/workers.py",
    "serve/command.py", "serve/arcade.py", "serve/seat/children.py",
    "serve/seat/spawner.py", "store/remote/broker.py", "web/command.py"}
"""Every module that installs a signal handler: the terminal's (a game's, and the replay's
resize), the report workers', the server's and its children's, the store's broker and the
web page's. No game installs one. docs/architecture.md lists them."""


def installs_signal_handlers(tree: ast.AST) -> list[int]:
    """The lines of ``signal.signal(...)`` and ``loop.add_signal_handler(...)`` in ``tree``."""
    return calls(tree, {"signal": {"signal"}}) + [
        node.lineno for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        and node.func.attr == "add_signal_handler"]


def test_signal_handlers_are_installed_where_the_architecture_says() -> None:
    found = {str(path.relative_to(PACKAGE)) for path in modules()
             if installs_signal_handlers(parsed(path))}
    assert found == SIGNAL_INSTALLERS
    architecture = (PACKAGE.parent / "docs" / "architecture.md").read_text("utf-8")
    assert sorted(path for path in found if f"termgames/{path}" not in architecture) == []


LONGEST_FUNCTION = 60
"""Lines from a function's ``def`` to its last line. Module length is not a rule (cohesion
and the rules above are); a function this long is doing more than one thing."""


def test_no_function_is_longer_than_sixty_lines() -> None:
    long = [f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} "
            f"({node.end_lineno - node.lineno + 1} lines)"
            for path in modules()
            for node in ast.walk(parsed(path))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno is not None
            and node.end_lineno - node.lineno + 1 > LONGEST_FUNCTION]
    assert long == []
