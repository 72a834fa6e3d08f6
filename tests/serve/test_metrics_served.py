"""``serve --metrics-port``: a real server, real SSH players and a watcher, and its
``/metrics`` read by Prometheus' own parser; the database's health with a real
PostgreSQL server stopped and started; the HTTP edges; a busy port."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.harness.operating import fetch, metrics_url, scrape, value, wait_for_metric
from tests.harness.postgres import MakePostgresServer
from tests.harness.serving import NO_RATE_LIMITS, ROOT, Server, connect, run, sit, start_server

pytestmark = pytest.mark.ssh  # servers started by hand (start_server), not by a fixture


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = start_server(tmp_path, "--metrics-port", "0")
    yield running
    running.stop()


def test_the_metrics_count_sessions_watchers_refusals_and_keys(server: Server) -> None:
    url = metrics_url(server)
    assert url.startswith("http://127.0.0.1:")  # loopback unless asked

    async def conversation() -> None:
        alice = await sit(await connect(server.port, "alice"), "2048")
        await alice.wait_for("Score:")
        await alice.play_until_scored()
        bob = await sit(await connect(server.port, "bob"))
        await bob.wait_for("Sokoban")
        watcher = await sit(await connect(server.port, "watch"), "watch alice")
        await watcher.wait_for("Score:")
        refused = await (await connect(server.port, "carol")).run("frob", encoding=None)
        assert refused.exit_status == 1
        piped = await (await connect(server.port, "dave")).run("2048", encoding=None)
        assert b"needs a terminal" in piped.stdout  # no pty: refused

        families = scrape(url)
        assert value(families, "termgames_sessions", game="2048") == 1
        assert value(families, "termgames_sessions", game="menu") == 1
        assert value(families, "termgames_sessions", game="maze") == 0
        assert value(families, "termgames_watchers") == 1
        assert value(families, "termgames_connections_refused_total", reason="bad_request") == 1
        assert value(families, "termgames_connections_refused_total", reason="no_terminal") == 1
        assert value(families, "termgames_connections_refused_total", reason="full") == 0
        assert value(families, "termgames_games_started_total", game="2048") == 1
        assert value(families, "termgames_games_started_total", game="menu") == 1
        assert value(families, "termgames_draining") == 0
        assert "termgames_database_up" not in families  # no --database-url
        keys = families["termgames_key_to_screen_seconds"]
        assert keys.type == "histogram"
        buckets = [point.value for point in keys.samples if point.name.endswith("_bucket")]
        count = value(families, "termgames_key_to_screen_seconds_count") or 0
        assert count >= 1 and buckets[-1] == count and buckets == sorted(buckets)
        assert 0 < (value(families, "termgames_key_to_screen_seconds_sum") or 0) < count
        for _ in range(3):  # six keys, each sent once the one before was answered
            await alice.played_all_keys()
        assert value(scrape(url), "termgames_key_to_screen_seconds_count") == count + 6

        alice.press("q")
        assert await alice.finish() == 0
        families = wait_for_metric(
            url, lambda f: value(f, "termgames_games_ended_total", game="2048",
                                 ended="quit") == 1, "alice's game ended")
        assert value(families, "termgames_sessions", game="2048") == 0
        await watcher.wait_for("games you may watch")
        bob.press("q")
        assert await bob.finish() == 0
    run(conversation())


def test_only_get_metrics_is_served_and_a_bad_request_stops_nobody(server: Server) -> None:
    url = metrics_url(server)
    root = url.removesuffix("/metrics")
    assert fetch(root + "/")[0] == 404
    assert fetch(root + "/metrics/../etc/passwd")[0] == 404
    status, headers, _ = fetch(url, "POST")
    assert status == 405 and headers["Allow"] == "GET, HEAD"
    status, headers, body = fetch(url, "HEAD")
    assert status == 200 and body == "" and int(headers["Content-Length"]) > 1000
    port = int(root.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as garbage:
        garbage.sendall(b"\x00\xff nonsense\r\n\r\n")
        assert garbage.recv(100).startswith(b"HTTP/1.1 400")
    # Connections that say nothing hold a few places at most; the rest are let go.
    silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]

    async def conversation() -> None:  # a player plays meanwhile, and is timed
        alice = await sit(await connect(server.port, "alice"), "2048")
        await alice.wait_for("Score:")
        await alice.played_all_keys()
        alice.press("q")
        assert await alice.finish() == 0
    run(conversation())
    for connection in silent:  # idle connections beyond the few served are let go
        connection.close()
    wait_for_metric(url, lambda f: (value(f, "termgames_key_to_screen_seconds_count") or 0) > 0,
                    "a timed key")


def test_the_database_going_and_coming_back_shows_with_the_spool(
        make_postgres_server: MakePostgresServer, tmp_path: Path) -> None:
    database = make_postgres_server()
    running = start_server(tmp_path, "--metrics-port", "0", "--database-url",
                           database.create_database("metrics"))
    try:
        url = metrics_url(running)
        families = scrape(url)
        assert value(families, "termgames_database_up") == 1
        assert value(families, "termgames_spool_writes") == 0
        database.stop("immediate")
        wait_for_metric(url, lambda f: value(f, "termgames_database_up") == 0,
                        "the database down")

        async def conversation() -> None:  # a result filed while it is down waits
            alice = await sit(await connect(running.port, "alice"), "2048")
            await alice.wait_for("Score:")
            await alice.play_until_scored()
            alice.press("q")
            assert await alice.finish() == 0
        run(conversation())
        wait_for_metric(url, lambda f: (value(f, "termgames_spool_writes") or 0) >= 1,
                        "a write waiting in the spool")
        database.start()
        wait_for_metric(url, lambda f: value(f, "termgames_database_up") == 1
                        and value(f, "termgames_spool_writes") == 0,
                        "the database back and the spool empty", timeout=40)
    finally:
        assert running.stop() == 0


def test_a_busy_metrics_port_is_tried_again_until_it_is_free(tmp_path: Path) -> None:
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    running = start_server(tmp_path, "--metrics-port", str(port))
    try:
        running.wait_said("metrics port busy")
        holder.close()  # as a draining server lets it go
        assert metrics_url(running) == f"http://127.0.0.1:{port}/metrics"
        assert value(scrape(metrics_url(running)), "termgames_watchers") == 0
    finally:
        holder.close()
        running.stop()


def test_a_metrics_address_that_cannot_be_had_stops_the_start_in_one_line(
        tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "termgames", "serve", "--port", "0", *NO_RATE_LIMITS,
         "--metrics-port", "0", "--metrics-host", "192.0.2.1"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={"TERMGAMES_HOME": str(tmp_path), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "termgames: cannot serve the metrics on 192.0.2.1:0: "
        "Cannot assign requested address"], result.stderr
    assert "listening" not in result.stdout
    assert not (tmp_path / "serve" / "admin" / "socket").exists()
