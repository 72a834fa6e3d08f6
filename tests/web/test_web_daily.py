"""The web page's periods and days: the front page cut to today or this week (UTC) by
plain links, a page per day's challenge with its boards and streaks, bad addresses
refused; in a real browser as well as over HTTP."""

from __future__ import annotations

import subprocess
import time
from datetime import timedelta
from pathlib import Path

import pytest

from termgames.daily import day_of, variant_of
from termgames.store.sqlite import SQLiteStore
from tests.harness.stores import store_at
from tests.web.test_web import Fetch, fetch, start_web

__all__ = ["fetch"]  # the fixture

DAY_S = 86_400.0


@pytest.fixture
def dated(isolated_home: Path) -> Path:
    """Results of 40 days ago, of 8 days ago (another ISO week), and of now; today's
    challenge played by dora, with her streak."""
    now = time.time()
    when = [now]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SQLiteStore, "clock", lambda self: when[0])
        store = store_at(isolated_home)
        try:
            for run, days_ago in (("olga", 40), ("wendy", 8), ("tina", 0)):
                when[0] = now - days_ago * DAY_S
                store.record_score(run, "2048", "4x4, goal 2048", 100 + days_ago,
                                   player=run)
            when[0] = now
            today = day_of(now)
            store.record_score("d", "2048", variant_of(today), 4321, player="dora")
            store.record_score("d2", "2048", "4x4, goal 2048", 2222, player="dora")
            store.save_progress("dora", "daily", "streak 2048", f"{today.isoformat()} 3")
        finally:
            store.close()
    return isolated_home


def test_the_periods_are_plain_links_that_cut_the_tables(dated: Path, fetch: Fetch) -> None:
    every, today, week, bad = fetch.each(("GET", "/"), ("GET", "/?period=today"),
                                         ("GET", "/?period=week"), ("GET", "/?period=year"))
    assert all(name in every.text for name in ("olga", "wendy", "tina"))
    assert "tina" in today.text and "wendy" not in today.text and "olga" not in today.text
    assert "olga" not in week.text and "tina" in week.text
    assert '<a href="/?period=today">today</a>' in every.text
    assert '<a href="/daily">' in every.text and "<script" not in every.text
    assert bad.status == 400
    assert "4,321" not in every.text  # a day's results are on the day's page


def test_a_page_per_day(dated: Path, fetch: Fetch) -> None:
    today = day_of(time.time())
    page, dated_page, future, junk = fetch.each(
        ("GET", "/daily"), ("GET", f"/daily/{today.isoformat()}"),
        ("GET", f"/daily/{(today + timedelta(days=1)).isoformat()}"), ("GET", "/daily/x"))
    assert page.status == 200 and "4,321" in page.text and "dora" in page.text
    assert "Streaks" in page.text and page.text == dated_page.text
    yesterday = (today - timedelta(days=1)).isoformat()
    assert f'href="/daily/{yesterday}"' in page.text
    assert future.status == 404 and junk.status == 404


def test_a_real_browser_follows_the_periods_and_the_day(dated: Path, tmp_path: Path,
                                                        chromium: str) -> None:
    process, address = start_web(dated)
    browser = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
               f"--user-data-dir={tmp_path / 'chromium'}"]
    try:
        pages = {path: subprocess.run([*browser, "--dump-dom", address + path],
                                      capture_output=True, text=True, timeout=120,
                                      check=True).stdout
                 for path in ("?period=week", "daily")}
    finally:
        process.send_signal(15)
        process.communicate(timeout=30)
    assert "tina" in pages["?period=week"] and "olga" not in pages["?period=week"]
    assert "this week" in pages["?period=week"]
    assert "dora" in pages["daily"] and "4,321" in pages["daily"]


def test_a_players_page_shows_their_streaks(dated: Path, fetch: Fetch) -> None:
    page = fetch("/player/dora")
    assert page.status == 200
    assert "Days in a row at the daily challenge: 2048 3 days." in page.text
