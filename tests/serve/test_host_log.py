"""What the host reads on ``termgames serve``'s standard error, from a real server: one
line an event, in logfmt or (``--log-format json``) one JSON object a line with its time
and event; the database's own lines (down, back) among them, from a real PostgreSQL
server stopped and started, in the same format, and nothing of the driver's."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path
from typing import Any

import pytest

from tests.harness.postgres import PostgresServer, psycopg_or_skip
from tests.harness.serving import Server, connect, run, sit, start_server

pytestmark = pytest.mark.ssh  # servers started by hand (start_server), not by a fixture

STANDARD_OUTPUT = ("termgames serve: listening on ", "termgames serve: host key ",
                   "termgames serve: closing;", "termgames serve: closed")
"""What serve prints on its standard output (the tests' servers send both to one pipe):
its start and its end, for a person at a terminal; everything else is the log."""
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def log_of(server: Server) -> list[dict[str, Any]]:
    """The server's log lines, each read as JSON (each must be one)."""
    lines = [line for line in server.said().splitlines()
             if not line.startswith(STANDARD_OUTPUT)]
    events = [json.loads(line) for line in lines]
    for event in events:
        assert TIME.match(event["time"]), event
        assert list(event)[:2] == ["time", "event"], event
    return events


def one(events: list[dict[str, Any]], name: str, **fields: object) -> dict[str, Any]:
    """The one event called ``name`` holding these fields."""
    found = [event for event in events if event["event"] == name
             and all(event.get(key) == value for key, value in fields.items())]
    assert len(found) == 1, (name, fields, events)
    return found[0]


def test_in_json_each_event_is_one_object_a_line_with_its_time(tmp_path: Path) -> None:
    server = start_server(tmp_path, "--log-format", "json", "--drain-seconds", "60")

    async def visits() -> None:
        async with await connect(server.port, user="ann") as conn:
            ann = await sit(conn, "2048")
            await ann.wait_for("Score: 0")
            ann.press("q")
            assert await ann.finish() == 0
        async with await connect(server.port, user="eve") as conn:
            assert (await conn.run("sh", encoding=None)).exit_status == 1
        async with await connect(server.port, user="watch") as conn:
            watcher = await sit(conn)
            await watcher.wait_for("Nobody is playing")
            watcher.press("q")
            await watcher.finish()
        ben = await sit(await connect(server.port, user="ben"), "maze")
        await ben.wait_for("steps 0")
        server.process.send_signal(signal.SIGTERM)
        server.wait_said('"event":"drain started"')
        ben.press("q")  # leaves in the grace: the drain ends as everyone has left
        assert await ben.finish() == 0

    try:
        run(visits())
        assert server.process.wait(60) == 0
    finally:
        server.stop()
    events = log_of(server)
    one(events, "session opened", player="ann", verified=False, game="2048",
        address="127.0.0.1")
    closed = one(events, "session closed", player="ann", ended="quit", status=0)
    assert re.match(r"^\d+s$", closed["duration"]), closed
    one(events, "refused", address="127.0.0.1", player="eve",
        reason="'sh' is not a game here; try one of: 2048, maze, reversi, sokoban (or "
        "scores, for the best results; watch, to watch a game)")
    one(events, "watcher joined", address="127.0.0.1", watching="the list")
    one(events, "watcher left", address="127.0.0.1")
    one(events, "drain started", players=1, watchers=0, grace="1m00s")
    one(events, "session closed", player="ben", game="maze", ended="quit")
    one(events, "drain ended", hung_up=0, ended="everyone left")


def read_event(line: str, form: str) -> tuple[str, str]:
    """A log line's event and the rest, in either format."""
    if form == "json":
        found = json.loads(line)
        return found["event"], line
    assert line.startswith("termgames serve: "), line
    event, _, fields = line.removeprefix("termgames serve: ").partition(": ")
    return event, fields


@pytest.mark.parametrize("form", ["json", pytest.param("logfmt", marks=pytest.mark.slow)])
def test_the_database_going_and_coming_back_is_a_line_each_in_the_servers_log(
        postgres_server: PostgresServer, postgres_url: str, tmp_path: Path, form: str) -> None:
    psycopg_or_skip()
    server = start_server(tmp_path, "--database-url", postgres_url, "--log-format", form)

    async def play(player: str) -> None:
        async with await connect(server.port, user=player) as conn:
            seat = await sit(conn, "2048")
            await seat.wait_for("Score: 0")
            await seat.play_until_scored()  # a result worth filing, in the spool first
            seat.press("q")
            assert await seat.finish() == 0

    try:
        run(play("ann"))
        postgres_server.stop("immediate")
        try:
            run(play("bob"))  # his result waits in the spool
            server.wait_said("database down", timeout=60)
        finally:
            postgres_server.start()
        server.wait_said("database back", timeout=60)
    finally:
        server.stop()
    lines = [line for line in server.said().splitlines()
             if not line.startswith(STANDARD_OUTPUT)]
    events = [read_event(line, form) for line in lines]
    names = [name for name, _ in events]
    assert set(names) == {"session opened", "session closed", "database down",
                          "database back"}, lines  # nothing of the driver's, no traceback
    assert names.count("database down") == 1 and names.count("database back") == 1
    down = next(rest for name, rest in events if name == "database down")
    back = next(rest for name, rest in events if name == "database back")
    if form == "json":
        assert json.loads(down)["waiting"] >= 1 and json.loads(down)["reason"]
        assert json.loads(back)["flushed"] >= 1 and json.loads(back)["down_for"]
    else:
        assert down.startswith("reason=") and re.search(r" waiting=[1-9]", down), down
        assert back.startswith("down_for=") and re.search(r" flushed=[1-9]", back), back
