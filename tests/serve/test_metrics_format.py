"""The metrics' text, written by termgames' own code and read by Prometheus' own parser
(prometheus_client): names, escaping, histograms; what the server counts from the events
of its log; and the reason each refusal the server can give is counted under."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from termgames.serve.events import HostLog
from termgames.serve.operator.exposition import Counter, Gauge, Histogram, exposition
from termgames.serve.operator.metrics import (
    BAD_REQUEST,
    REASONS,
    ServerMetrics,
    Snapshot,
    refusal_reason,
)

SERVE = Path(__file__).resolve().parents[2] / "termgames" / "serve"


def parsed(text: str) -> dict[str, object]:
    return {family.name: family for family in text_string_to_metric_families(text)}


def test_label_values_and_help_lines_are_escaped_as_prometheus_reads_them() -> None:
    awkward = 'a "quoted" back\\slash\nand a line, ünïcode'
    counter = Counter("demo_events_total", "Help with a back\\slash\nand a second line.",
                      ["kind"])
    counter.inc(awkward)
    counter.inc(awkward, by=2)
    counter.zero("plain")
    gauge = Gauge("demo_level", "A level.", ["a", "b"])
    gauge.set(2.5, "x", "y")
    text = exposition([counter, gauge])
    assert "\n# TYPE demo_events_total counter\n" in "\n" + text
    families = parsed(text)
    events = families["demo_events"]
    assert events.type == "counter"  # type: ignore[attr-defined]
    assert events.documentation == "Help with a back\\slash\nand a second line."  # type: ignore[attr-defined]
    assert {(sample.labels["kind"], sample.value)
            for sample in events.samples} == {(awkward, 3.0), ("plain", 0.0)}  # type: ignore[attr-defined]
    level = families["demo_level"]
    assert [(sample.labels, sample.value) for sample in level.samples] == [  # type: ignore[attr-defined]
        ({"a": "x", "b": "y"}, 2.5)]


def test_a_histogram_is_cumulative_up_to_inf_with_its_sum_and_count() -> None:
    histogram = Histogram("demo_seconds", "How long.", [0.01, 0.1, 1.0])
    for seconds in (0.005, 0.01, 0.05, 0.5, 0.5, 3.0):
        histogram.observe(seconds)
    family = parsed(exposition([histogram]))["demo_seconds"]
    assert family.type == "histogram"  # type: ignore[attr-defined]
    samples = {(sample.name, sample.labels.get("le")): sample.value
               for sample in family.samples}  # type: ignore[attr-defined]
    assert samples == {("demo_seconds_bucket", "0.01"): 2, ("demo_seconds_bucket", "0.1"): 3,
                       ("demo_seconds_bucket", "1.0"): 5, ("demo_seconds_bucket", "+Inf"): 6,
                       ("demo_seconds_count", None): 6,
                       ("demo_seconds_sum", None): pytest.approx(4.065)}
    assert 'demo_seconds_bucket{le="1.0"} 5.0\n' in exposition([histogram])


@pytest.mark.parametrize("build", [
    lambda: Counter("no_suffix", "x"),
    lambda: Gauge("9starts_with_a_digit", "x"),
    lambda: Gauge("fine", "x", ["bad-label"]),
    lambda: Gauge("fine", "x", ["le"]),
    lambda: Histogram("fine", "x", [1.0, 0.5]),
    lambda: Histogram("fine", "x", [1.0, math.inf]),
])
def test_what_prometheus_would_not_read_is_refused_when_made(build: object) -> None:
    with pytest.raises(ValueError):
        build()  # type: ignore[operator]


def test_the_server_counts_the_events_of_its_log() -> None:
    metrics = ServerMetrics(["2048", "maze"])
    lines: list[str] = []
    log = HostLog(lines.append, clock=lambda: 100.0)
    log.listeners.append(metrics.heard)
    log.opened("alice", False, "2048", "192.0.2.1")
    log.opened("bob", True, "menu", "192.0.2.2")
    log.closed("alice", "2048", "192.0.2.1", 40.0, "link dropped", 129)
    log.refused("termgames: the arcade is full (100 players); try again later", "192.0.2.3")
    log.refused("termgames: 'sh' is not a game here; try ...", "192.0.2.3")
    log.watcher_joined("192.0.2.4", "alice")
    families = parsed(metrics.scrape(Snapshot({"menu": 1}, 1, None)))
    assert len(lines) == 6  # the log says everything still
    started = {s.labels["game"]: s.value for s in families["termgames_games_started"].samples}  # type: ignore[attr-defined]
    assert started == {"2048": 1, "maze": 0, "menu": 1}
    ended = [(s.labels, s.value) for s in families["termgames_games_ended"].samples]  # type: ignore[attr-defined]
    assert ended == [({"game": "2048", "ended": "link_dropped"}, 1)]
    refused = {s.labels["reason"]: s.value
               for s in families["termgames_connections_refused"].samples}  # type: ignore[attr-defined]
    assert refused["full"] == 1 and refused[BAD_REQUEST] == 1 and sum(refused.values()) == 2
    sessions = {s.labels["game"]: s.value for s in families["termgames_sessions"].samples}  # type: ignore[attr-defined]
    assert sessions == {"2048": 0, "maze": 0, "menu": 1}
    assert "termgames_database_up" not in families  # no database, no database metrics


def test_the_database_metrics_show_only_with_a_database() -> None:
    from termgames.serve.operator.metrics import DatabaseHealth

    metrics = ServerMetrics([])
    up = parsed(metrics.scrape(Snapshot({}, 0, DatabaseHealth(True, 3))))
    assert [s.value for s in up["termgames_database_up"].samples] == [1]  # type: ignore[attr-defined]
    assert [s.value for s in up["termgames_spool_writes"].samples] == [3]  # type: ignore[attr-defined]
    down = parsed(metrics.scrape(Snapshot({}, 0, DatabaseHealth(False, None))))
    assert [s.value for s in down["termgames_database_up"].samples] == [0]  # type: ignore[attr-defined]
    assert "termgames_spool_writes" not in down


def refusals_said() -> list[tuple[str, str]]:
    """(module, the text of a refusal's words) for every refusal the server's code can
    give: a ``Refusal(...)`` made, or words handed to the log's ``refused``; an f-string's
    fixed parts stand for it."""
    found = []
    for path in sorted(SERVE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            called = node.func.id if isinstance(node.func, ast.Name) else (
                node.func.attr if isinstance(node.func, ast.Attribute) else "")
            words = node.args[0]
            if called not in ("Refusal", "refused"):
                continue
            if isinstance(words, ast.Constant) and isinstance(words.value, str):
                found.append((path.name, words.value))
            elif isinstance(words, ast.JoinedStr):
                found.append((path.name, "".join(str(part.value) for part in words.values
                                                 if isinstance(part, ast.Constant))))
    return found


def test_every_refusal_the_server_gives_is_counted_under_its_reason() -> None:
    said = refusals_said()
    assert len(said) >= 15, said  # the finder finds them
    # A client asking for what the arcade does not serve (requests.py) is a bad request;
    # every other refusal has a reason of its own.
    wrong = [(module, words, refusal_reason(words)) for module, words in said
             if (refusal_reason(words) == BAD_REQUEST) != (module == "requests.py")]
    assert wrong == []
    assert {refusal_reason(words) for _, words in said} == (
        {reason for _, reason in REASONS} | {BAD_REQUEST})


def test_a_key_answered_after_a_long_idle_adds_at_most_its_cap() -> None:
    import time

    from termgames.serve.operator.metrics import LONGEST_KEY_S

    metrics = ServerMetrics([])
    metrics.answered(time.perf_counter() - 0.003)
    metrics.answered(time.perf_counter() - 3600)  # a slide that moved nothing, then idle
    keys = metrics.key_to_screen
    assert keys.count == 2 and keys.counts[-1] == 1  # counted past the last bound: +Inf
    assert LONGEST_KEY_S < keys.sum <= LONGEST_KEY_S + 0.01
