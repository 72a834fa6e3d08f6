"""External Reversi engines as opponents for the benchmarks, driven through NBoard.

NTest and Edax both speak the NBoard protocol (NTest with no argument, Edax with
``-nboard``): lines on stdin and stdout, ``set depth N`` for the strength, ``set game
GGF`` for the position, ``go`` for a move, answered by ``=== MOVE``. Every move sends the
whole position (``BO[...]`` in the GGF), so the engine never has to follow our passes,
and ``ping``/``pong`` keeps question and answer in step. termgames' X is the GGF's black
(``*``), O is white.

The engines run without an opening book: a book would play the openings we hand out
from memory, and the point is the engines' search and evaluation. NTest reads its
settings from ``parameters.txt`` in its working directory, so it starts in a temporary
directory that links to its coefficients and resources beside a ``parameters.txt`` with
the book turned off (removed once NTest has read them); Edax is started with
``-book-usage off``.

Nothing here is a dependency of termgames: the binaries are built on our side only (see
docs/reversi-strength.md) and named with ``--ntest``/``--edax`` or TERMGAMES_NTEST /
TERMGAMES_EDAX.
"""

from __future__ import annotations

import os
import random
import selectors
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from benchmarks.reversi_notation import Choice, parse_square, square_name
from termgames.reversi.board import Position, Side

ENVIRONMENT = {"ntest": "TERMGAMES_NTEST", "edax": "TERMGAMES_EDAX"}
"""The environment variable naming each engine's binary when no option does."""
ANSWER_S = 600.0
"""How long to wait for any answer before deciding the engine is stuck."""


class EngineFailed(RuntimeError):
    """The external engine could not be started, died, or answered nonsense."""


def program_path(kind: str, given: str | None) -> Path:
    """The binary for ``kind``: as given, else from its environment variable."""
    where = given or os.environ.get(ENVIRONMENT[kind])
    if not where:
        raise ValueError(f"{kind}: give its binary with --{kind} PATH or {ENVIRONMENT[kind]}")
    path = Path(where).expanduser()
    if not (path.is_file() and os.access(path, os.X_OK)):
        raise ValueError(f"{kind}: {path} is not an executable file")
    return path


def _level(kind: str, level: str) -> int:
    if not level.isdigit() or not 1 <= int(level) <= 60:
        raise ValueError(f"{kind}:{level}: the depth or level is a number from 1 to 60")
    return int(level)


def check_external(kind: str, level: str, given: str | None) -> None:
    """ValueError, in one line, unless ``kind:level`` can be started with ``given``."""
    if kind not in ENVIRONMENT:
        raise ValueError(f"{kind}:{level}: an external engine is one of "
                         f"{', '.join(ENVIRONMENT)} (like ntest:4)")
    _level(kind, level)
    path = program_path(kind, given)
    if kind == "edax":
        _edax_home(path)


def ggf(position: Position) -> str:
    """The position as a one-position GGF game: black (``*``) is X, white (``O``) is O."""
    cells = "".join("*" if position.x >> square & 1 else "O" if position.o >> square & 1
                    else "-" for square in range(64))
    mover = "*" if position.turn is Side.X else "O"
    return (f"(;GM[Othello]PC[termgames]PB[X]PW[O]RE[?]TI[60:00//0]TY[8]"
            f"BO[8 {cells} {mover}];)")


def _ntest_home(program: Path) -> Path:
    """A temporary working directory for NTest: its files linked, its book turned off."""
    home = Path(tempfile.mkdtemp(prefix="termgames-ntest-"))
    source = program.parent
    for entry in source.iterdir():
        if entry.name != "parameters.txt":
            (home / entry.name).symlink_to(entry.resolve())
    parameters = (source / "parameters.txt")
    if not parameters.is_file():
        shutil.rmtree(home)
        raise EngineFailed(f"ntest: no parameters.txt beside {program} (run it from its "
                           "build directory, which links NTest's resources)")
    lines = parameters.read_text().splitlines()
    for number in (1, 2):  # the two computer players' lines: "JA s30 c1 c2 r1 r2 book cna ..."
        fields = lines[number].split()
        if len(fields) >= 8:
            fields[6] = "0"
            lines[number] = " ".join(fields)
    (home / "parameters.txt").write_text("\n".join(lines) + "\n")
    return home


def _edax_home(program: Path) -> Path:
    """The directory Edax must start in: the one holding data/eval.dat."""
    for home in (program.parent, program.parent.parent):
        if (home / "data" / "eval.dat").is_file():
            return home
    raise ValueError(f"edax: no data/eval.dat beside {program} or its parent folder")


class NBoardEngine:
    """An external engine at a fixed depth or level, one process for many moves."""

    def __init__(self, kind: str, level: str, given: str | None) -> None:
        check_external(kind, level, given)
        self.name = f"{kind}:{level}"
        self.kind = kind
        program = program_path(kind, given)
        self._temporary: Path | None = None
        self._pending = b""
        if kind == "ntest":
            self._temporary = home = _ntest_home(program)
            command = [str(program)]
        else:
            home = _edax_home(program)
            command = [str(program), "-nboard", "-n", "1", "-book-usage", "off", "-q"]
        try:
            self.process = subprocess.Popen(
                command, cwd=home, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as error:
            self._clean()
            raise EngineFailed(f"{self.name}: cannot start {program}: {error}") from None
        self._pings = 0
        self._send("nboard 2")
        self._send(f"set depth {_level(kind, level)}")
        self._sync()
        # NTest has read its settings, coefficients and tables by now: its directory can go
        # at once, so that a worker ended by the pool (no exit handlers) leaves none behind.
        self._clean()

    def _send(self, line: str) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except OSError:
            raise EngineFailed(f"{self.name} stopped taking commands") from None

    def _line(self) -> str:
        """The engine's next line (EngineFailed if it ends or says nothing for long)."""
        # Read from the descriptor into a buffer of our own: a buffered reader would take
        # several lines at once and the selector would then wait for more in vain.
        stdout = self.process.stdout
        assert stdout is not None
        while b"\n" not in self._pending:
            with selectors.DefaultSelector() as selector:
                selector.register(stdout, selectors.EVENT_READ)
                if not selector.select(ANSWER_S):
                    raise EngineFailed(f"{self.name} said nothing for {ANSWER_S:.0f} s")
            chunk = os.read(stdout.fileno(), 65536)
            if not chunk:
                raise EngineFailed(f"{self.name} ended (exit status {self.process.wait()})")
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode(errors="replace").strip()

    def _sync(self) -> None:
        """Wait until the engine has read everything sent so far."""
        self._pings += 1
        self._send(f"ping {self._pings}")
        while self._line() != f"pong {self._pings}":
            pass

    def choose(self, position: Position, _rng: random.Random) -> Choice:
        """The engine's move in ``position`` at its depth, with its score and node count."""
        self._send(f"set game {ggf(position)}")
        self._sync()
        self._send("go")
        nodes: int | None = None
        while True:
            line = self._line()
            if line.startswith("nodestats"):
                fields = line.split()
                if len(fields) > 1 and fields[1].isdigit():
                    nodes = int(fields[1])
            if not line.startswith("==="):
                continue
            answer = line[3:].split()
            if not answer:
                raise EngineFailed(f"{self.name} answered {line!r}")
            move, *rest = answer[0].split("/")
            score_text = rest[0] if rest else (answer[1] if len(answer) > 1 else "")
            try:
                square = parse_square(move)
            except ValueError:
                raise EngineFailed(f"{self.name} answered {line!r}") from None
            if not position.moves() >> square & 1:
                raise EngineFailed(f"{self.name} played {move}, which is not legal here")
            try:
                score: float | None = float(score_text)
            except ValueError:
                score = None
            return Choice(square, nodes=nodes, score=score)

    def _clean(self) -> None:
        if self._temporary is not None:
            shutil.rmtree(self._temporary, ignore_errors=True)
            self._temporary = None

    def close(self) -> None:
        """Ask the engine to quit, end it if it does not, and remove its directory."""
        if self.process.poll() is None:
            try:
                self._send("quit")
                self.process.wait(timeout=5)
            except (EngineFailed, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        self._clean()


def external_engine(kind: str, level: str, given: str | None) -> NBoardEngine:
    """``kind:level`` started (ValueError for a bad name, EngineFailed if it will not run)."""
    return NBoardEngine(kind, level, given)


def main() -> None:
    """Play one move of an external engine from the start: a check that it runs."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(description="Check that an external engine answers.")
    parser.add_argument("engine", help="ntest:DEPTH or edax:LEVEL")
    parser.add_argument("--ntest")
    parser.add_argument("--edax")
    options = parser.parse_args()
    kind, _, level = options.engine.partition(":")
    try:
        engine = external_engine(kind, level, getattr(options, kind, None))
    except (ValueError, EngineFailed) as error:
        print(f"reversi_external: {error}", file=sys.stderr)
        sys.exit(2 if isinstance(error, ValueError) else 1)
    try:
        started = time.perf_counter()
        choice = engine.choose(Position(), random.Random(0))

        print(f"{engine.name} plays {square_name(choice.square)} (score {choice.score}, "
              f"nodes {choice.nodes}) in {time.perf_counter() - started:.2f} s")
    except EngineFailed as error:
        print(f"reversi_external: {error}", file=sys.stderr)
        sys.exit(1)
    finally:
        engine.close()


if __name__ == "__main__":
    main()
