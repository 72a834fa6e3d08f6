"""Helpers for the tests of what a host's operator sees and steers: the metrics a server
serves, read with Prometheus' own parser, and ``termgames admin`` run as a host would."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from tests.harness.serving import ROOT, Seat, Server

Families = dict[str, Any]
"""Metric families by name, as prometheus_client parses them."""


def metrics_url(server: Server, timeout: float = 10.0) -> str:
    """Where ``server`` serves its metrics, from the line it says once it does."""
    said = server.wait_said("metrics at ", timeout)
    return said.split("metrics at ", 1)[1].split()[0]


def fetch(url: str, method: str = "GET") -> tuple[int, dict[str, str], str]:
    """An HTTP request's status, headers and body (an error status too)."""
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def scrape(url: str) -> Families:
    """The metrics at ``url``, parsed by Prometheus' client library (which fails on
    anything the exposition format does not allow)."""
    status, headers, body = fetch(url)
    assert status == 200, body
    assert headers["Content-Type"].startswith("text/plain; version=0.0.4"), headers
    return {family.name: family for family in text_string_to_metric_families(body)}


def value(families: Families, sample: str, **labels: str) -> float | None:
    """The value of the series ``sample`` with exactly ``labels`` (None: no such series)."""
    family = families[sample.removesuffix("_total").removesuffix("_count")
                      .removesuffix("_sum").removesuffix("_bucket")]
    found = [point.value for point in family.samples
             if point.name == sample and point.labels == labels]
    return found[0] if found else None


def wait_for_metric(url: str, holds: Callable[[Families], bool], what: str,
                    timeout: float = 20.0) -> Families:
    """Scrape until ``holds``; the families then."""
    deadline = time.monotonic() + timeout
    while True:
        families = scrape(url)
        if holds(families):
            return families
        if time.monotonic() > deadline:
            raise AssertionError(f"the metrics never showed {what}")
        time.sleep(0.1)


def admin(home: Path, *arguments: str, user: int | None = None
          ) -> subprocess.CompletedProcess[str]:
    """``termgames admin ARGUMENTS`` as the host runs it, with the server's data folder
    (as another user, if ``user`` is a uid)."""
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith("TERMGAMES")}
    environment.update(TERMGAMES_HOME=str(home), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "termgames", "admin", *arguments],
                          capture_output=True, text=True, env=environment, check=False,
                          timeout=30, cwd="/", user=user)


def keep_everything(seat: Seat) -> list[bytes]:
    """Every byte ``seat`` receives from now on, kept (a screen shows only the last)."""
    kept: list[bytes] = []
    feed = seat.stream.feed

    def feeding(data: bytes) -> None:
        kept.append(data)
        feed(data)

    seat.stream.feed = feeding
    return kept


async def settle(seat: Seat) -> None:
    """Read a player's output until nothing more comes for a moment."""
    before = -1
    while before != seat.received:
        before = seat.received
        await seat.pump(0.3)
