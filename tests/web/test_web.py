"""``termgames web``: its pages (the tables ``termgames scores`` prints, a player's page,
who is playing now), its refusals (404, 405, 400), its headers, and escaping of every
stored text, through aiohttp's test client; and the command as a real process: the
listening errors and a clean stop."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from datetime import timedelta
from pathlib import Path
from typing import NamedTuple

import pytest

pytest.importorskip("aiohttp", reason="termgames web needs the serve extra (aiohttp)")

from aiohttp.test_utils import TestClient, TestServer

from termgames.daily import day_of, variant_of
from termgames.games import GAMES
from termgames.settings import serve_folder
from termgames.sokoban.format.bundled import BUNDLED, load_bundled
from termgames.sokoban.progress import Record, record_solution
from termgames.standings import standings
from termgames.store import Store, StoreReader
from termgames.store.live import LiveSession, publish
from termgames.store.sqlite import SQLiteStore
from termgames.web.app import Site, make_app
from termgames.web.reading import PlayerView, Reader, open_web_store
from termgames.web.render import shown
from termgames.web.views import Page
from tests.harness.stores import SOKOBAN_PROGRESS, store_at

ROOT = Path(__file__).resolve().parents[2]


def seed(store: Store, alice: str = "alice", bob: str = "bob", variant: str = "4x4",
         title: str = "Level A") -> None:
    """Results in three games (helped ones too) and Sokoban levels solved."""
    store.record_score("r1", "2048", variant, 3412, player=alice)
    store.record_score("r2", "2048", variant, 1604, player=bob)
    store.record_score("r3", "2048", variant, 9000, player=bob, marks=["undo"], assisted=True)
    store.record_score("r4", "reversi", "vs corner-best", 12, player=alice)
    store.record_score("r5", "reversi", "vs corner-best", -57, player=bob)
    store.record_score("r6", "maze", "21x21", 65_300, player=bob)
    microban = load_bundled(BUNDLED[0])
    for level in microban.levels[:3]:
        record_solution(store, SOKOBAN_PROGRESS, alice, level.key, Record(33, 8, "R"))
    record_solution(store, SOKOBAN_PROGRESS, bob, "elsewhere-1",
                    Record(12, 3, "R", "mine", 1, title, "/srv/levels/mine.txt"))


class Fetched(NamedTuple):
    status: int
    headers: dict[str, str]
    text: str


class Fetch:
    """Pages of the site over the test's data folder, each request to a new site (its
    store opened afresh): ``fetch('/')``, or several at once with
    ``fetch.each(('GET', '/'), ('POST', '/'))``."""

    def __call__(self, path: str) -> Fetched:
        return self.each(("GET", path))[0]

    def each(self, *requests: tuple[str, str]) -> list[Fetched]:
        site = Site(GAMES, lambda: open_web_store(), serve_folder())  # closed after

        async def main() -> list[Fetched]:
            client = TestClient(TestServer(make_app(site)))
            await client.start_server()
            try:
                answers = []
                for method, path in requests:
                    async with client.request(method, path) as response:
                        answers.append(Fetched(response.status, dict(response.headers),
                                               await response.text()))
                return answers
            finally:
                await client.close()

        return asyncio.run(main())


@pytest.fixture
def fetch(isolated_home: Path) -> Fetch:
    """The site over the test's data folder (``isolated_home``)."""
    return Fetch()


@pytest.fixture
def seeded(isolated_home: Path) -> Path:
    store = store_at(isolated_home)
    seed(store)
    store.close()
    return isolated_home


def test_the_front_page_shows_the_tables_termgames_scores_prints(seeded: Path,
                                                                 fetch: Fetch) -> None:
    page = fetch("/")
    assert page.status == 200
    assert page.headers["Content-Type"] == "text/html; charset=utf-8"
    store = store_at(seeded, create=False)
    expected = standings(GAMES, store).tables
    store.close()
    assert len(expected) >= 5
    for table in expected:
        assert f"<caption>{shown(table.title)}</caption>" in page.text
    assert "2048 · 4x4 · with help" in page.text and "9,000" in page.text
    assert "won by 12" in page.text and "lost by 57" in page.text and "1:05.3" in page.text
    assert page.text.index("3,412") < page.text.index("1,604")
    assert '<a href="/player/alice">alice</a>' in page.text
    assert 'name="viewport"' in page.text


def test_an_unverified_name_is_said_in_a_column_of_its_own(isolated_home: Path,
                                                           fetch: Fetch) -> None:
    """The report's UX 9, on the page as in ``termgames scores``."""
    store = store_at(isolated_home)
    store.record_score("u", "2048", "4x4", 52, player="bob", marks=["unverified"])
    store.close()
    page = fetch("/")
    assert "<th>help</th><th>name</th>" in page.text
    assert "<td></td><td>unverified</td></tr>" in page.text


def test_a_result_recorded_since_appears(seeded: Path) -> None:
    site = Site(GAMES, lambda: open_web_store(), serve_folder(), fresh_for=0)

    async def main() -> tuple[str, str]:
        client = TestClient(TestServer(make_app(site)))
        await client.start_server()
        try:
            before = await (await client.get("/")).text()
            store = store_at(seeded)
            store.record_score("new", "2048", "4x4", 7777, player="carol")
            store.close()
            return before, await (await client.get("/")).text()
        finally:
            await client.close()

    before, after = asyncio.run(main())
    assert "7,777" not in before and "7,777" in after


def test_the_store_is_opened_again_once_its_copy_is_old() -> None:
    opened: list[FakeStore] = []
    clock = [100.0]

    def opener() -> StoreReader:
        opened.append(FakeStore([f"warning {len(opened) % 2}"]))
        return opened[-1]

    reader = Reader(opener, fresh_for=2.0, clock=lambda: clock[0])
    assert reader.store() == (opened[0], ["warning 0"])
    clock[0] += 1.9
    assert reader.store() == (opened[0], []) and len(opened) == 1
    clock[0] += 0.1
    assert reader.store() == (opened[1], ["warning 1"]) and opened[0].closed
    clock[0] += 2
    assert reader.store() == (opened[2], [])  # each warning said once
    reader.close()
    assert opened[2].closed


def test_a_page_built_is_sent_again_while_the_store_copy_is_kept(tmp_path: Path) -> None:
    """A crowd of readers costs one build every ``fresh_for`` seconds, not one each."""
    builds: list[str] = []

    def build(store: StoreReader, now: float) -> Page:
        builds.append("built")
        return Page(200, f"page {len(builds)}")

    site = Site(GAMES, lambda: FakeStore([]), tmp_path, fresh_for=60)
    try:
        assert [site.read(("/", 10), build).html for _ in range(3)] == ["page 1"] * 3
        assert site.read(("/", 5), build).html == "page 2"  # another page
    finally:
        site.worker.shutdown()
    fresh = Site(GAMES, lambda: FakeStore([]), tmp_path, fresh_for=0)
    try:
        assert site.read(("/", 10), build).html == "page 1"
        assert fresh.read(("/", 10), build).html == "page 3"
        assert fresh.read(("/", 10), build).html == "page 4"
    finally:
        fresh.worker.shutdown()


class FakeStore(PlayerView):
    """A store that only knows whether it was closed (a view over nothing)."""

    def __init__(self, warnings: list[str]) -> None:
        self.warnings, self.closed = warnings, False

    def close(self) -> None:
        self.closed = True


def test_a_players_page_shows_their_results_and_levels(seeded: Path, fetch: Fetch) -> None:
    alice, bob = fetch("/player/alice").text, fetch("/player/bob").text
    assert "3,412" in alice and "1,604" not in alice and "won by 12" in alice
    assert "Sokoban · levels solved" in alice and "Microban" in alice
    assert "best solutions by alice" in alice and "bob" not in alice
    assert "1,604" in bob and "9,000" in bob and "3,412" not in bob
    assert "mine.txt" in bob and "Level A" in bob
    nobody = fetch("/player/nobody")
    assert nobody.status == 404 and "No results for nobody yet." in nobody.text


def test_unknown_addresses_other_methods_and_bad_limits_are_refused(seeded: Path,
                                                                    fetch: Fetch) -> None:
    answers = fetch.each(("GET", "/nowhere"), ("GET", "/player/"), ("POST", "/"),
                    ("PUT", "/player/alice"), ("DELETE", "/nowhere"), ("OPTIONS", "/live"),
                    ("HEAD", "/"), ("GET", "/?limit=0"), ("GET", "/?limit=x"),
                    ("GET", "/?limit=1"))
    missing, empty_name, *refused, head, zero, word, one = answers
    for page in (missing, empty_name):
        assert page.status == 404 and "There is no page at this address." in page.text
        assert "<header>" in page.text  # in the site's own style
    for page in refused:
        assert page.status == 405 and page.headers["Allow"] == "GET, HEAD"
        assert "read-only" in page.text
    assert head.status == 200 and head.text == ""
    assert zero.status == word.status == 400
    assert one.status == 200 and "3,412" in one.text and "1,604" not in one.text


def test_every_response_forbids_scripts(seeded: Path, fetch: Fetch) -> None:
    for page in fetch.each(("GET", "/"), ("GET", "/player/bob"), ("GET", "/live"),
                      ("GET", "/nowhere"), ("POST", "/"), ("GET", "/?limit=x")):
        policy = page.headers["Content-Security-Policy"]
        assert "default-src 'none'" in policy and "script-src" not in policy
        assert "unsafe-inline" not in policy
        assert page.headers["X-Content-Type-Options"] == "nosniff"
        assert page.headers["Content-Type"] == "text/html; charset=utf-8"
        assert "<script" not in page.text.lower()


def test_who_is_playing_now(seeded: Path, fetch: Fetch) -> None:
    assert "Nobody is playing right now." in fetch("/live").text
    now = time.time()
    publish(serve_folder(), "here", [LiveSession("dave", "2048", now - 125, now - 3),
                                     LiveSession("erin", "menu", now - 5, now - 5)], now)
    live, front = fetch("/live").text, fetch("/").text
    assert '<meta http-equiv="refresh"' in live
    assert '<a href="/player/dave">dave</a>' in live and "2048" in live
    assert "2m 05s" in live and "erin" in live and "menu" in live
    assert "2 playing now" in front
    publish(serve_folder(), "here", [LiveSession("dave", "2048", now, now)], now - 60)
    assert "Nobody is playing right now." in fetch("/live").text  # its server died


def test_an_unreadable_store_is_a_503_page_not_a_traceback(
        fetch: Fetch, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
        ) -> None:
    def broken() -> StoreReader:
        raise OSError("disk on fire")

    monkeypatch.setattr("tests.web.test_web.open_web_store", broken)
    page = fetch("/")
    assert page.status == 503 and "cannot be read" in page.text
    assert capfd.readouterr().err == (
        "termgames web: cannot read the results: OSError: disk on fire\n")


# Escaping -----------------------------------------------------------------------------

SCRIPT = "<script>alert(1)</script>"
CONTROLS = "\x1b[2J\x07\x00"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"
EVIL = f"{SCRIPT}\"q\"'s'&amp{CONTROLS}{BIDI}"
FORBIDDEN = ["<script", "\x1b", "\x07", "\x00", *BIDI]


def assert_clean(text: str) -> None:
    """No raw tag, control or bidi character; the evil text still readable, escaped."""
    for marker in FORBIDDEN:
        assert marker not in text.lower(), (marker, text[:300])
    assert not any(ord(char) < 32 and char not in "\n" for char in text)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&quot;q&quot;&#x27;s&#x27;&amp;amp[2J" in text


def test_every_stored_text_is_escaped_on_every_page(isolated_home: Path, fetch: Fetch) -> None:
    store = store_at(isolated_home)
    seed(store, alice=f"alice{EVIL}", bob=f"bob{EVIL}", variant=f"4x4{EVIL}",
         title=f"Level{EVIL}")
    store.close()
    now = time.time()
    publish(serve_folder(), "here", [LiveSession(f"dave{EVIL}", f"2048{EVIL}", now, now)],
            now)
    pages = {path: fetch(path) for path in ("/", "/live")}
    links = set(re.findall(r'href="(/player/[^"]+)"', pages["/"].text))
    assert len(links) == 2, links  # alice's and bob's, every character kept
    pages.update((link, fetch(link)) for link in links)
    for path, page in pages.items():
        assert page.status == 200, path
        assert_clean(page.text)
    assert "Level&lt;script&gt;" in "".join(page.text for page in pages.values())
    assert "dave&lt;script&gt;" in pages["/live"].text


# The command, as a real process -------------------------------------------------------

def environment(home: Path) -> dict[str, str]:
    """The environment of a ``termgames`` process reading the data in ``home``."""
    kept = {key: value for key, value in os.environ.items() if not key.startswith("TERMGAMES")}
    return {**kept, "TERMGAMES_HOME": str(home), "PYTHONPATH": str(ROOT)}


def start_web(home: Path, *options: str) -> tuple[subprocess.Popen[str], str]:
    """``termgames web`` on a free loopback port over the data in ``home``, once it
    listens; the process and its address."""
    process = subprocess.Popen([sys.executable, "-m", "termgames", "web", "--port", "0",
                                *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=environment(home))
    assert process.stdout is not None
    banner = process.stdout.readline()
    assert banner.startswith("termgames web: serving on http://127.0.0.1:"), banner
    return process, banner.split(" on ")[1].strip()


def web(home: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``termgames web OPTIONS`` run to its end (one that fails to start)."""
    return subprocess.run([sys.executable, "-m", "termgames", "web", *options],
                          capture_output=True, text=True, env=environment(home), timeout=60,
                          check=False)


def test_the_command_serves_until_sigterm_and_says_why_it_cannot(seeded: Path) -> None:
    process, address = start_web(seeded)
    try:
        with urllib.request.urlopen(address, timeout=30) as answer:
            assert answer.status == 200 and "3,412" in answer.read().decode()
        port = address.rsplit(":", 1)[1].strip("/")
        taken = web(seeded, "--port", port)
        assert taken.returncode == 1
        assert taken.stderr == (f"termgames: cannot listen on 127.0.0.1:{port}: "
                                "Address already in use\n")
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert out == "termgames web: closing\ntermgames web: closed\n" and err == ""


def test_a_store_that_cannot_be_read_is_said_once_on_stderr_not_on_the_page(
        tmp_path: Path) -> None:
    (tmp_path / "termgames.sqlite3").mkdir()  # not a database
    process, address = start_web(tmp_path)
    try:
        for _ in range(2):
            with urllib.request.urlopen(address, timeout=30) as answer:
                page = answer.read().decode()
            assert "No scores yet." in page and "warning" not in page
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
    assert err == (f"termgames web: warning: cannot read the scores database "
                   f"({tmp_path / 'termgames.sqlite3'}: not a file)\n")


def test_an_address_not_of_this_machine_is_a_bad_argument(tmp_path: Path) -> None:
    result = web(tmp_path, "--host", "192.0.2.1", "--port", "0")  # TEST-NET-1: nobody's
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == ("termgames: cannot listen on 192.0.2.1:0: "
                             "not an address of this machine\n")


def test_the_page_shows_a_shared_postgresql_database(tmp_path: Path, postgres_url: str
                                                     ) -> None:
    from termgames.store.remote.postgres import PostgresStore

    shared = PostgresStore.connect(postgres_url, "tester")
    shared.record_score("far", "2048", "4x4", 4321, player="ann")  # as another host would
    shared.close()
    process, address = start_web(tmp_path, "--database-url", postgres_url)
    try:
        with urllib.request.urlopen(address, timeout=30) as answer:
            page = answer.read().decode()
        assert "4,321" in page and "ann" in page
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
    assert process.returncode == 0


def test_a_database_out_of_reach_is_one_line(tmp_path: Path) -> None:
    result = web(tmp_path, "--port", "0", "--database-url", "postgresql://nobody@127.0.0.1:1/x")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("termgames: cannot use the database at "
                                    "postgresql://nobody@127.0.0.1:1/x: ")


def test_without_the_extra_web_says_how_to_install_it(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['aiohttp'] = None; from termgames.cli import main; "
            "main(['web'])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=environment(tmp_path), timeout=60, check=False)
    assert result.returncode == 2
    assert result.stderr == ("termgames: termgames web needs the server extra: "
                             "pip install 'termgames[serve]'\n")


# A real browser -----------------------------------------------------------------------

# CI installs Chromium and sets TERMGAMES_REQUIRE_BROWSER=1: there the test never skips.
def test_a_real_browser_shows_the_results_at_phone_size(seeded: Path, tmp_path: Path,
                                                        chromium: str) -> None:
    process, address = start_web(seeded)
    browser = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--user-data-dir={tmp_path / 'chromium'}"]
    try:
        dom = subprocess.run([*browser, "--dump-dom", address], capture_output=True,
                             text=True, timeout=120, check=True).stdout
        shot = tmp_path / "phone.png"
        subprocess.run([*browser, f"--screenshot={shot}", "--window-size=390,844",
                        address + "player/alice"], capture_output=True, timeout=120,
                       check=True)
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
    assert "<caption>2048 · 4x4</caption>" in dom and "3,412" in dom and "1,604" in dom
    assert "Sokoban · levels solved" in dom and ">alice</a>" in dom
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 5000


# The periods and the days' pages ------------------------------------------------------
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
    assert "Streaks" in page.text
    body = page.text.split("<footer")[0]  # the footer says when the page was read
    assert body == dated_page.text.split("<footer")[0]
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


def test_a_player_with_only_daily_challenges_has_a_page(isolated_home: Path,
                                                        fetch: Fetch) -> None:
    store = store_at(isolated_home)
    try:
        today = day_of(time.time())
        store.record_score("b", "maze", variant_of(today), 83_456 * 100_000 + 57, player="bea")
        store.save_progress("bea", "daily", "streak maze", f"{today.isoformat()} 2")
    finally:
        store.close()
    page = fetch("/player/bea")
    assert page.status == 200, page.text
    assert "Their daily challenges" in page.text and "1:23.4, 57 steps" in page.text
    assert "Maze 2 days" in page.text
