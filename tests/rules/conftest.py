"""The rule tests share one parse of each source while they run (tests/harness/sources.py)
and let the trees go when they are done: kept, they made every later test's garbage
collections scan them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.harness.sources import parsed


@pytest.fixture(autouse=True, scope="package")
def sources_parsed_once() -> Iterator[None]:
    """The trees ``parsed`` keeps, dropped after the last rule test."""
    yield
    parsed.cache_clear()
