"""Source files as syntax trees, each parsed once a run: the rule tests (tests/rules/) read
every module of termgames, the tests and the benchmarks again and again, and parsing them
anew for each test was most of those tests' time."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def parsed(path: Path) -> ast.Module:
    """``path``'s syntax tree, shared by every test that asks: read it, never change it."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
