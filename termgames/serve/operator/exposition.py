"""Prometheus' text exposition format (version 0.0.4), written without its client library:
counters, gauges and histograms, each family with its ``# HELP`` and ``# TYPE`` lines,
label values escaped, a histogram's buckets cumulative up to ``+Inf`` with its ``_sum``
and ``_count``. Pure: the values are given; nothing here knows the server.

https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
"""

from __future__ import annotations

import bisect
import math
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

__all__ = ["CONTENT_TYPE", "Counter", "Gauge", "Histogram", "Metric", "exposition"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""What a scrape of this format is served as."""
_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*\Z")
_LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*\Z")

Labels = tuple[str, ...]
"""A series' label values, in the order of its family's label names."""


class Sample(NamedTuple):
    """One line of a family: a name (the family's, or with a suffix), labels, a value."""

    name: str
    labels: tuple[tuple[str, str], ...]
    value: float


class Metric(ABC):
    """A family of series that share a name, a help line, a type and label names."""

    kind = "untyped"

    def __init__(self, name: str, help_text: str, labels: Sequence[str] = ()) -> None:
        if not _NAME.match(name) or not all(_LABEL.match(label) and label != "le"
                                            for label in labels):
            raise ValueError(f"not a metric name and labels Prometheus reads: {name} {labels}")
        self.name = name
        self.help = help_text
        self.label_names = tuple(labels)

    def named(self, values: Labels) -> tuple[tuple[str, str], ...]:
        """The pairs (label, value) of a series."""
        if len(values) != len(self.label_names):
            raise ValueError(f"{self.name} takes the labels {self.label_names}, not {values}")
        return tuple(zip(self.label_names, values, strict=True))

    @abstractmethod
    def samples(self) -> Iterator[Sample]:
        """Every line of the family, in a stable order."""


class Gauge(Metric):
    """Values that go up and down, one per label set."""

    kind = "gauge"

    def __init__(self, name: str, help_text: str, labels: Sequence[str] = ()) -> None:
        super().__init__(name, help_text, labels)
        self.values: dict[Labels, float] = {} if labels else {(): 0.0}

    def set(self, value: float, *labels: str) -> None:
        """The series of ``labels`` is ``value`` now."""
        self.named(labels)
        self.values[labels] = value

    def samples(self) -> Iterator[Sample]:
        """One line a series, sorted by its labels."""
        for labels in sorted(self.values):
            yield Sample(self.name, self.named(labels), self.values[labels])


class Counter(Gauge):
    """Counts that only grow (their series end in ``_total``), one per label set."""

    kind = "counter"

    def __init__(self, name: str, help_text: str, labels: Sequence[str] = ()) -> None:
        if not name.endswith("_total"):
            raise ValueError(f"a counter's name ends in _total: {name}")
        super().__init__(name, help_text, labels)

    def inc(self, *labels: str, by: float = 1.0) -> None:
        """Count ``by`` more in the series of ``labels`` (made at 0 if new)."""
        if labels not in self.values:
            self.named(labels)
        self.values[labels] = self.values.get(labels, 0.0) + by

    def zero(self, *labels: str) -> None:
        """Show the series of ``labels`` from now on, at 0 until counted (a rate over a
        series that appears only at its first count misses that count)."""
        self.named(labels)
        self.values.setdefault(labels, 0.0)


class Histogram(Metric):
    """Observations counted in buckets by their upper bounds, with their sum: the
    exposition writes each bucket with every observation at or under its bound."""

    kind = "histogram"

    def __init__(self, name: str, help_text: str, bounds: Sequence[float]) -> None:
        super().__init__(name, help_text)
        if list(bounds) != sorted(set(bounds)) or not bounds or math.inf in bounds:
            raise ValueError(f"a histogram's bounds rise, once each, short of +Inf: {bounds}")
        self.bounds = tuple(float(bound) for bound in bounds)
        self.counts = [0] * (len(self.bounds) + 1)  # each bucket's own; the last: +Inf
        self.sum = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        """Count one observation (on the key's path: a bisection and three additions)."""
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.sum += value
        self.count += 1

    def samples(self) -> Iterator[Sample]:
        """``_bucket`` lines, cumulative, then ``_sum`` and ``_count``."""
        total = 0
        for bound, count in zip((*self.bounds, math.inf), self.counts, strict=True):
            total += count
            yield Sample(f"{self.name}_bucket", (("le", _number(bound)),), total)
        yield Sample(f"{self.name}_sum", (), self.sum)
        yield Sample(f"{self.name}_count", (), self.count)


def exposition(metrics: Iterable[Metric]) -> str:
    """The families as a scrape reads them: for each, its HELP and TYPE lines, then its
    series, one a line."""
    lines: list[str] = []
    for metric in metrics:
        lines.append(f"# HELP {metric.name} {_escaped(metric.help, quotes=False)}")
        lines.append(f"# TYPE {metric.name} {metric.kind}")
        for sample in metric.samples():
            pairs = ",".join(f'{label}="{_escaped(value)}"' for label, value in sample.labels)
            labels = f"{{{pairs}}}" if pairs else ""
            lines.append(f"{sample.name}{labels} {_number(sample.value)}")
    return "\n".join(lines) + "\n"


def _escaped(text: str, quotes: bool = True) -> str:
    """A label value (or, without ``quotes``, a help line) as the format escapes it: a
    backslash, a double quote (label values only) and a line feed."""
    text = text.replace("\\", "\\\\").replace("\n", "\\n")
    return text.replace('"', '\\"') if quotes else text


def _number(value: float) -> str:
    """A value (or a bucket's bound) as Prometheus' own clients write it: a float's
    shortest exact form (``1.0``, ``0.005``; Prometheus 3 stores a bucket's ``le`` so),
    ``+Inf``, ``-Inf``, ``NaN``."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return repr(float(value))
