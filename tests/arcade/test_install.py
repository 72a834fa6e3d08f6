"""What a user installs, tested as a user gets it: the wheel and sdist built, installed
non-editable in fresh venvs, and every game started from outside the source tree.

Run with ``pytest -m install`` (``.ci/run`` does); the default run leaves it out because
it builds and installs for about a minute.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from termgames import __version__
from termgames.games import GAMES
from termgames.sokoban.format.bundled import BUNDLED
from tests.harness.readme import command
from tests.harness.terminal import Terminal

pytestmark = pytest.mark.install

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "termgames"
LEVELS = ROOT / "levels"
"""The level files, credits and licence; the wheel installs them as termgames/levels."""
INSTALL_TIMEOUT_S = 600


def run(args: list[str | Path], **options: object) -> subprocess.CompletedProcess[str]:
    """Run a command, failing the test with its output if it fails."""
    result = subprocess.run([str(arg) for arg in args], capture_output=True, text=True,
                            timeout=INSTALL_TIMEOUT_S, **options)  # type: ignore[call-overload]
    assert result.returncode == 0, f"{args} failed:\n{result.stdout}\n{result.stderr}"
    return result  # type: ignore[no-any-return]


def files_in(folder: Path, named_as: str) -> list[str]:
    """Every file in ``folder`` (what a build leaves aside), named as under ``named_as``."""
    return sorted(
        f"{named_as}/{path.relative_to(folder).as_posix()}" for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    )


def source_files() -> list[str]:
    """Every file the wheel must hold: the package's, and the level files of levels/."""
    return files_in(PACKAGE, "termgames") + files_in(LEVELS, "termgames/levels")


def wheel_files(wheel: Path) -> dict[str, str]:
    """The wheel's files outside its .dist-info, with a hash of each one's content."""
    with zipfile.ZipFile(wheel) as archive:
        return {name: hashlib.sha256(archive.read(name)).hexdigest()
                for name in archive.namelist()
                if not name.split("/")[0].endswith(".dist-info") and not name.endswith("/")}


def user_environment(home: Path, bin_dir: Path) -> dict[str, str]:
    """A user's environment with the venv first on PATH and no PYTHONPATH at all."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}",
               VIRTUAL_ENV=str(bin_dir.parent), HOME=str(home),
               TERMGAMES_HOME=str(home / "data"), TERM="xterm-256color",
               LANG="C.UTF-8", LC_ALL="C.UTF-8")
    return env


def fresh_venv(folder: Path) -> Path:
    """A new venv with its own pip; returns its bin folder."""
    venv.EnvBuilder(with_pip=True, clear=True).create(folder)
    return folder / ("Scripts" if os.name == "nt" else "bin")


def clean_copy(target: Path) -> Path:
    """The project's files as a clone would have them (tracked and unignored), nothing built."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, check=False)
    if listed.returncode == 0:
        for name in filter(None, listed.stdout.decode().split("\0")):
            source = ROOT / name
            if source.is_file():
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)
    else:  # not a git checkout: copy the tree without what builds and venvs leave behind
        shutil.copytree(ROOT, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns(
            ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache"))
    return target


@dataclass(frozen=True)
class Built:
    """The distributions built from the source tree, and the wheel built from the sdist."""

    wheel: Path
    sdist: Path
    wheel_from_sdist: Path


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """Build the sdist and the wheel from the tree, then a second wheel from the sdist."""
    # From a clean copy: a build/ folder left in the checkout by an earlier build would
    # slip stale modules into the wheel and hide a package the build no longer finds.
    source = clean_copy(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", out, source])
    wheel, = out.glob("*.whl")
    sdist, = out.glob("*.tar.gz")
    from_sdist = tmp_path_factory.mktemp("dist-from-sdist")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir",
         from_sdist, sdist])
    again, = from_sdist.glob("*.whl")
    return Built(wheel, sdist, again)


@dataclass(frozen=True)
class Installed:
    """A fresh venv holding the wheel, and a folder outside the checkout to run it from."""

    bin: Path
    elsewhere: Path
    env: dict[str, str]

    def termgames(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run the installed console script from outside the checkout."""
        return subprocess.run([str(self.bin / "termgames"), *args], capture_output=True,
                              text=True, cwd=self.elsewhere, env=self.env, timeout=120,
                              stdin=subprocess.DEVNULL, check=False)


@pytest.fixture(scope="module")
def installed(built: Built, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel installed non-editable in a fresh venv."""
    bin_dir = fresh_venv(tmp_path_factory.mktemp("venv") / "venv")
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    env = user_environment(elsewhere, bin_dir)
    run([bin_dir / "python", "-m", "pip", "install", "--quiet", built.wheel], env=env,
        cwd=elsewhere)
    return Installed(bin_dir, elsewhere, env)


@pytest.fixture
def game_terminal(installed: Installed) -> Iterator[list[Terminal]]:
    """Terminals to close at the end of the test."""
    started: list[Terminal] = []
    yield started
    for term in started:
        term.close()


def test_the_wheel_holds_every_file_of_the_package(built: Built) -> None:
    shipped = set(wheel_files(built.wheel))
    missing = [name for name in source_files() if name not in shipped]
    assert not missing, f"the wheel lacks {len(missing)} file(s): {', '.join(missing)}"
    tops = {name.split("/")[0] for name in shipped}
    assert tops == {"termgames"}, f"the wheel installs more than termgames: {sorted(tops)}"
    levels = {name for name in shipped if name.startswith("termgames/levels/")}
    assert levels == set(files_in(LEVELS, "termgames/levels")), sorted(levels)
    for entry in BUNDLED:
        assert f"termgames/levels/{entry.filename}" in levels, entry.filename
    assert {"termgames/levels/CREDITS", "termgames/levels/LICENSE-skinner-levels.txt"} <= levels


def test_the_sdist_holds_the_levels_folder(built: Built) -> None:
    with tarfile.open(built.sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    missing = [name for name in files_in(LEVELS, "levels") if name not in names]
    assert not missing, f"the sdist lacks {', '.join(missing)}"


def test_the_sdist_and_the_wheel_install_the_same_files(built: Built) -> None:
    direct, via_sdist = wheel_files(built.wheel), wheel_files(built.wheel_from_sdist)
    only_direct = sorted(set(direct) - set(via_sdist))
    only_sdist = sorted(set(via_sdist) - set(direct))
    assert not only_direct, f"missing when installed from the sdist: {', '.join(only_direct)}"
    assert not only_sdist, f"only installed from the sdist: {', '.join(only_sdist)}"
    differing = [name for name in direct if direct[name] != via_sdist[name]]
    assert not differing, f"different content from the sdist: {', '.join(differing)}"


def test_the_installed_package_is_the_one_that_runs(installed: Installed) -> None:
    result = run([installed.bin / "python", "-c", "import termgames; print(termgames.__file__)"],
                 cwd=installed.elsewhere, env=installed.env)
    location = Path(result.stdout.strip()).resolve()
    assert installed.bin.parent.resolve() in location.parents, location
    assert ROOT not in location.parents, location


def test_help_lists_every_registered_game(installed: Installed) -> None:
    result = installed.termgames("--help")
    assert result.returncode == 0, result.stderr
    commands = result.stdout.split("Commands:", 1)[1].split()
    for name in (spec.name for spec in GAMES):
        assert name in commands, f"'termgames --help' does not list {name}:\n{result.stdout}"


def test_python_m_termgames_gives_the_version(installed: Installed) -> None:
    result = run([installed.bin / "python", "-m", "termgames", "--version"],
                 cwd=installed.elsewhere, env=installed.env)
    assert result.stdout.strip() == f"termgames, version {__version__}"


@pytest.mark.parametrize("name", sorted(spec.name for spec in GAMES))
def test_every_game_starts_on_a_terminal_and_quits(
    installed: Installed, game_terminal: list[Terminal], name: str
) -> None:
    title = next(spec.title for spec in GAMES if spec.name == name)
    term = Terminal([name], installed.elsewhere, env=installed.env,
                    program=[str(installed.bin / "termgames")], cwd=installed.elsewhere)
    game_terminal.append(term)
    term.wait_for(title)
    term.press("q")
    assert term.wait_exit() == 0, term.text()


def test_every_game_starts_from_the_launcher(
    installed: Installed, game_terminal: list[Terminal]
) -> None:
    term = Terminal([], installed.elsewhere, env=installed.env,
                    program=[str(installed.bin / "termgames")], cwd=installed.elsewhere)
    game_terminal.append(term)
    entries = list(GAMES)
    term.wait_for(entries[-1].summary)
    for index, entry in enumerate(entries):
        term.wait_for(entries[-1].summary)
        # The menu comes back with the cursor on the game just played.
        term.press(*(["down"] if index else []), "enter")
        term.wait_until(lambda: any(entry.title in line for line in term.lines()[:2]),  # noqa: B023
                        f"{entry.title} to start")
        term.press("q")
    term.wait_for(entries[-1].summary)
    term.press("q")
    assert term.wait_exit() == 0, term.text()


def test_the_bundled_collections_check_from_the_installed_package(installed: Installed) -> None:
    result = installed.termgames("sokoban", "--check")
    assert result.returncode == 0, result.stdout + result.stderr
    for entry in BUNDLED:
        assert f"{entry.title} ({entry.filename}):" in result.stdout, result.stdout
    assert result.stdout.strip().splitlines()[-1].endswith("levels OK")


def test_the_installed_package_reads_its_own_levels(installed: Installed) -> None:
    result = run([installed.bin / "python", "-c", "from termgames.sokoban.format.bundled import "
                  "levels_folder; print(levels_folder())"],
                 cwd=installed.elsewhere, env=installed.env)
    folder = Path(result.stdout.strip()).resolve()
    assert folder.name == "levels" and folder.parent.name == "termgames", folder
    assert installed.bin.parent.resolve() in folder.parents, folder


def test_an_editable_install_reads_the_checkouts_levels(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    source = clean_copy(tmp_path_factory.mktemp("editable"))
    bin_dir = fresh_venv(tmp_path_factory.mktemp("editable-venv") / "venv")
    elsewhere = tmp_path_factory.mktemp("editable-elsewhere")
    env = user_environment(elsewhere, bin_dir)
    run([bin_dir / "python", "-m", "pip", "install", "--quiet", "-e", source], env=env,
        cwd=elsewhere)
    result = run([bin_dir / "python", "-c", "from termgames.sokoban.format.bundled import "
                  "levels_folder; print(levels_folder())"], cwd=elsewhere, env=env)
    assert Path(result.stdout.strip()) == (source / "levels").resolve()
    checked = run([bin_dir / "termgames", "sokoban", "--check"], cwd=elsewhere, env=env)
    for entry in BUNDLED:
        assert f"{entry.title} ({entry.filename}):" in checked.stdout, checked.stdout


def test_scores_works_with_stdout_piped(installed: Installed) -> None:
    result = installed.termgames("scores")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() and "Traceback" not in result.stderr


def test_serve_without_its_extra_says_how_to_install_it(installed: Installed) -> None:
    # The wheel alone has no asyncssh: the server is an optional extra.
    result = installed.termgames("serve", "--port", "0")
    assert result.returncode == 2
    assert result.stderr == ("termgames: termgames serve needs the server extra: "
                             "pip install 'termgames[serve]'\n")


def test_a_database_url_without_its_extra_says_how_to_install_it(
        installed: Installed) -> None:
    # Nor psycopg: PostgreSQL is an optional extra too.
    result = installed.termgames("scores", "--database-url", "postgresql://db.example/x")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == ("termgames: a PostgreSQL database needs the postgres extra: "
                             "pip install 'termgames[postgres]'\n")


def test_the_readme_play_command_starts_the_arcade(
    tmp_path_factory: pytest.TempPathFactory, game_terminal: list[Terminal]
) -> None:
    line = command("play")
    source = clean_copy(tmp_path_factory.mktemp("clone"))
    bin_dir = fresh_venv(tmp_path_factory.mktemp("newcomer") / "venv")
    env = user_environment(tmp_path_factory.mktemp("home"), bin_dir)
    term = Terminal([], source, env=env, program=["sh", "-c", line], cwd=source)
    game_terminal.append(term)
    term.wait_for("Enter play", timeout=INSTALL_TIMEOUT_S)  # the launcher's key line
    for entry in GAMES:
        term.wait_until(lambda: any(line.split()[:1] == [entry.title]  # noqa: B023
                                    for line in term.lines()), f"{entry.title} in the menu")
    term.press("q")
    assert term.wait_exit() == 0, term.text()
