"""What a node tells its monitoring: `/metrics` in the Prometheus text format.

Two kinds of figures, so that a move pays for almost nothing:

- **read at scrape time** (`NodeCollector`): what the node's objects already know — sockets,
  players online, tables by mode, ruleset and status, moves stored and commits, bot jobs and
  workers, events, the lease — is read when Prometheus asks (every 15 s or so), never counted
  as it happens;
- **counted as it happens**: the move→ack latency (one histogram observation a move), commit
  batches (one a batch, on the database thread), rate-limit refusals and error answers (rare).

The instruments are module-level, as prometheus-client's are, on a registry of carroca's own
(`REGISTRY`, not the library's global one). `configure(False)` (`CARROCA_METRICS=false`) turns
every instrument into a no-op and the endpoint off: what `bench/load.py --metrics` compares.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client import Counter as PromCounter
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from carroca.server.settings import Settings

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)  # process_cpu_seconds_total, process_resident_memory_bytes
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

MOVE_ACK = Histogram(
    "carroca_move_ack_seconds",
    "From a player's move arriving on its socket to its answer (ack or refusal) being queued.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=REGISTRY,
)
COMMIT_MOVES = Histogram(
    "carroca_commit_batch_moves", "Moves stored by one commit (one transaction, one fsync).",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512), registry=REGISTRY,
)
COMMIT_SECONDS = Histogram(
    "carroca_commit_seconds", "Time to store one batch of moves, on the database thread.",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
    registry=REGISTRY,
)
REFUSALS = PromCounter(
    "carroca_rate_limited", "Requests and frames refused by a rate limit, by rule.",
    ["rule"], registry=REGISTRY,
)
ERRORS = PromCounter(
    "carroca_errors", "Error answers (HTTP and socket) by code; server_error is a fault.",
    ["code"], registry=REGISTRY,
)

_on = True
_refusals: dict[str, PromCounter] = {}  # each label's child (`PromCounter.labels`)
_errors: dict[str, PromCounter] = {}


def configure(enabled: bool) -> None:
    global _on
    _on = enabled


def enabled() -> bool:
    return _on


def move_answered(seconds: float) -> None:
    if _on:
        MOVE_ACK.observe(seconds)


def batch_committed(moves: int, seconds: float) -> None:
    if _on:
        COMMIT_MOVES.observe(moves)
        COMMIT_SECONDS.observe(seconds)


def refused(rule: str) -> None:
    _count(REFUSALS, _refusals, rule)


def error(code: str) -> None:
    _count(ERRORS, _errors, code)


def _count(counter: PromCounter, children: dict[str, PromCounter], label: str) -> None:
    """One more for `label` (its child kept: `labels()` costs a lookup and a lock)."""
    if _on:
        child = children.get(label)
        if child is None:
            child = children[label] = counter.labels(label)
        child.inc()


Reader = Callable[[], Iterable[Metric]]


class NodeCollector(Collector):
    """The node's live figures, read from its objects when scraped. The reader is given by the
    app, which knows the objects (this module imports none): one server a process, so one
    reader at a time (the last app started)."""

    def __init__(self) -> None:
        self.read: Reader | None = None

    def describe(self) -> list[Metric]:
        return []  # not read at registration: the figures come and go with the app

    def collect(self) -> Iterator[Metric]:
        read = self.read
        if read is not None:
            yield from read()


NODE = NodeCollector()
REGISTRY.register(NODE)


def watch(read: Reader) -> None:
    NODE.read = read


def unwatch(read: Reader) -> None:
    if NODE.read is read:
        NODE.read = None


def _family(kind: type[GaugeMetricFamily] | type[CounterMetricFamily], name: str, text: str,
            value: float | None, labels: dict[tuple[str, ...], float] | None,
            names: tuple[str, ...]) -> Metric:
    if labels is None:
        return kind(name, text, value=value)
    family = kind(name, text, labels=list(names))
    for key, v in sorted(labels.items()):
        family.add_metric(list(key), v)
    return family


def gauge(name: str, text: str, value: float | None = None,
          labels: dict[tuple[str, ...], float] | None = None,
          names: tuple[str, ...] = ()) -> Metric:
    """A gauge family: one value, or one per label tuple."""
    return _family(GaugeMetricFamily, name, text, value, labels, names)


def counter(name: str, text: str, value: float | None = None,
            labels: dict[tuple[str, ...], float] | None = None,
            names: tuple[str, ...] = ()) -> Metric:
    """A counter family read from a running total the node keeps anyway."""
    return _family(CounterMetricFamily, name, text, value, labels, names)


def tally(items: Iterable[tuple[str, ...]]) -> dict[tuple[str, ...], float]:
    return {k: float(v) for k, v in Counter(items).items()}


def exposition() -> bytes:
    return generate_latest(REGISTRY)


class Access:
    """Who may read `/metrics`: an address in the allow-list (loopback by default), or
    anyone presenting the operator's bearer token. Everyone else gets the site's 404, so the
    endpoint confirms nothing on a public interface."""

    def __init__(self, settings: Settings) -> None:
        self.on = settings.metrics
        self.token = settings.metrics_token
        self.networks = [ipaddress.ip_network(n.strip(), strict=False)
                         for n in settings.metrics_allow.split(",") if n.strip()]

    def allows(self, address: str | None, authorization: str | None) -> bool:
        if not self.on:
            return False
        if self.token and authorization is not None and hmac.compare_digest(
                authorization.encode(), f"Bearer {self.token}".encode()):
            return True
        if address is None:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.networks)
