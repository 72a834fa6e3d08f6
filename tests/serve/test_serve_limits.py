"""The abuse limits' logic (``serve/limits.py``) on a clock the tests turn: the
connection allowance, the start counter, and the ban list and its file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from termgames.serve.door.limits import (
    FORGET_FROM,
    BanFile,
    BanFileMissing,
    ConnectionRate,
    StartCounter,
    duration,
    parse_bans,
)


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


KEY = "SHA256:" + "A" * 43


def test_an_address_gets_its_burst_then_its_pace() -> None:
    clock = Clock()
    rate = ConnectionRate(3, 60.0, clock)  # one a second once the three are spent
    assert [rate.take("1.2.3.4") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert rate.take("1.2.3.4") == pytest.approx(1.0)
    assert rate.take("5.6.7.8") == 0.0  # another address has its own
    clock.now += 0.5
    assert rate.take("1.2.3.4") == pytest.approx(0.5)  # a refusal spends nothing
    clock.now += 0.5
    assert rate.take("1.2.3.4") == 0.0
    assert rate.take("1.2.3.4") > 0
    clock.now += 3600
    assert [rate.take("1.2.3.4") for _ in range(4)][:3] == [0.0, 0.0, 0.0]  # never > burst


def test_no_rate_means_no_limit() -> None:
    rate = ConnectionRate(1, 0.0, Clock())
    assert all(rate.take("1.2.3.4") == 0.0 for _ in range(1000))
    assert rate.buckets == {}


def test_addresses_that_went_quiet_are_forgotten() -> None:
    clock = Clock()
    rate = ConnectionRate(2, 60.0, clock)
    for n in range(100_000):  # a flood from as many addresses, each once
        rate.take(f"10.{n >> 16}.{(n >> 8) & 255}.{n & 255}")
        clock.now += 0.01
    assert len(rate.buckets) < 2 * FORGET_FROM  # only those of the last second or so


def test_starts_are_limited_per_name_and_per_address_over_a_minute() -> None:
    clock = Clock()
    starts = StartCounter(3, clock)
    for _ in range(3):
        assert starts.start(["name alice", "address 1.2.3.4"]) == 0.0
        clock.now += 10
    assert starts.start(["name alice", "address 9.9.9.9"]) == pytest.approx(30.0)
    assert starts.start(["name bob", "address 1.2.3.4"]) == pytest.approx(30.0)
    assert starts.start(["name bob", "address 9.9.9.9"]) == 0.0
    clock.now += 30  # the first start is a minute old
    assert starts.start(["name alice", "address 1.2.3.4"]) == 0.0
    assert starts.start(["name alice", "address 1.2.3.4"]) == pytest.approx(10.0)


def test_start_counts_are_forgotten_after_a_minute() -> None:
    clock = Clock()
    starts = StartCounter(1, clock)
    for n in range(10_000):
        starts.start([f"name p{n}"])
        clock.now += 0.1
    assert len(starts.starts) < 2 * FORGET_FROM
    assert StartCounter(0, clock).start(["name a"]) == 0.0


def test_the_ban_list_holds_addresses_networks_and_keys() -> None:
    bans, problems = parse_bans(
        "# who may not play\n192.0.2.7\n10.0.0.0/8  # a whole network\n"
        f"2001:db8::/32\n{KEY}\n\n   \n")
    assert problems == []
    assert bans.address("192.0.2.7") and not bans.address("192.0.2.8")
    assert bans.address("10.200.1.1") and bans.address("::ffff:10.0.0.1")
    assert bans.address("2001:db8::1") and not bans.address("2001:db9::1")
    assert bans.key(KEY) and not bans.key("SHA256:" + "B" * 43)
    assert not bans.address("not an address")


def test_a_bad_line_is_named_and_the_rest_applies() -> None:
    bans, problems = parse_bans("192.0.2.7\n10.0.0.300\nSHA256:short\nbob\n192.0.2.9\n")
    assert [number for number, _ in problems] == [2, 3, 4]
    assert "10.0.0.300" in problems[0][1]
    assert bans.address("192.0.2.7") and bans.address("192.0.2.9")


def test_the_ban_file_is_read_again_when_it_changes(tmp_path: Path) -> None:
    clock, said = Clock(), list[str]()
    path = tmp_path / "bans"
    path.write_text("192.0.2.7\n")
    bans = BanFile(path, clock, said.append, every=2.0)
    bans.load()
    assert bans.current().address("192.0.2.7")
    path.write_text("192.0.2.8\nnonsense\n")
    os.utime(path, ns=(0, 10**9))  # changed, whatever the file system's time grain
    assert bans.current().address("192.0.2.7")  # not looked at yet
    clock.now += 2
    assert bans.current().address("192.0.2.8") and not bans.current().address("192.0.2.7")
    assert said == [f"{path}, line 2: not an address, a network or a SHA256: fingerprint: "
                    "'nonsense'; the line is ignored"]
    path.unlink()
    clock.now += 2
    assert bans.current().address("192.0.2.8")  # the last list goes on
    clock.now += 2
    bans.current()
    assert len(said) == 2 and "cannot read the ban file" in said[1]  # said once


def test_a_missing_ban_file_stops_the_start(tmp_path: Path) -> None:
    with pytest.raises(BanFileMissing, match="cannot read the ban file"):
        BanFile(tmp_path / "none", Clock(), print).load()


def test_limits_read_as_a_player_reads_them() -> None:
    assert [duration(s) for s in (14400, 5400, 2, 90, 0.5)] == \
        ["4 h", "90 min", "2 s", "90 s", "0.5 s"]
