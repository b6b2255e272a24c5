"""The cluster test bench itself (tests/support/clusterproc.py): nodes, proxy, failures, Redis
restarts.
What the nodes do together is tested elsewhere; these show that the bench does what it says."""

from __future__ import annotations

import time
from collections import Counter

import httpx2
import pytest
import redis
from tests.support.clusterproc import NODE_HEADER, Cluster
from tests.support.serverproc import wait_until

NAMES = {"n1", "n2", "n3"}


def served_by(cluster: Cluster) -> str:
    """One request through the proxy, on a connection of its own: the node that answered."""
    r = httpx2.get(f"{cluster.url}/api/health", timeout=5, trust_env=False)
    assert r.status_code == 200, r.text
    assert r.json() == {"status": "ok"}
    return r.headers[NODE_HEADER]


def test_three_nodes_answer_directly_and_through_the_proxy(cluster: Cluster) -> None:
    assert served_by(cluster) in NAMES
    ports = set()
    for i in (1, 2, 3):
        r = httpx2.get(f"{cluster.node_url(i)}/api/health", timeout=5, trust_env=False)
        assert r.status_code == 200
        assert NODE_HEADER not in r.headers  # only the proxy says which node answered
        ports.add(cluster.node(i).port)
    assert len(ports) == 3 and cluster.proxy_port not in ports
    with pytest.raises(IndexError):
        cluster.node(4)


def test_requests_go_round_robin(cluster: Cluster) -> None:
    counts = Counter(served_by(cluster) for _ in range(9))
    assert set(counts) == NAMES
    assert max(counts.values()) - min(counts.values()) <= 2, counts
    with cluster.http() as client:  # one kept-alive connection: still balanced per request
        assert {client.get("/api/health").headers[NODE_HEADER] for _ in range(6)} == NAMES


def test_a_killed_node_costs_no_request_and_comes_back(cluster: Cluster) -> None:
    cluster.kill(1)
    killed = time.monotonic()
    # Retried on another node (option redispatch) until the health checks take it out.
    answered = [served_by(cluster) for _ in range(6)]
    assert time.monotonic() - killed < 2
    assert set(answered) <= {"n2", "n3"}
    assert cluster.node(1).proc.poll() is not None
    cluster.restart_node(1)
    wait_until(lambda: served_by(cluster) == "n1", "n1 back in the rotation", timeout=5)


def test_a_paused_node_does_not_answer_until_resumed(cluster: Cluster) -> None:
    cluster.pause(2)
    with pytest.raises(httpx2.TimeoutException):
        httpx2.get(f"{cluster.node_url(2)}/api/health", timeout=0.5, trust_env=False)
    cluster.resume(2)
    r = httpx2.get(f"{cluster.node_url(2)}/api/health", timeout=5, trust_env=False)
    assert r.status_code == 200


def test_redis_restarts_on_the_same_url(cluster: Cluster) -> None:
    if cluster.redis_dir is None:
        pytest.skip("CARROCA_TEST_REDIS names a Redis without CARROCA_TEST_REDIS_DIR: not ours "
                    "to restart")
    with redis.Redis.from_url(cluster.redis, socket_timeout=5) as client:
        client.set("carroca:bench", "before")
        cluster.stop_redis()
        with pytest.raises(redis.ConnectionError):
            client.ping()
        cluster.start_redis()
        assert client.ping()  # the same URL: redis-py reconnects by itself
        assert client.get("carroca:bench") is None  # nothing was kept: a real restart
    for _ in range(3):
        assert served_by(cluster) in NAMES


def test_stop_leaves_no_process(cluster_factory: object) -> None:
    assert callable(cluster_factory)
    cluster = cluster_factory(nodes=2)
    assert isinstance(cluster, Cluster)
    assert {served_by(cluster) for _ in range(4)} == {"n1", "n2"}
    cluster.pause(1)  # a stopped process must die too
    processes = [cluster.node(1).proc, cluster.node(2).proc, cluster.proxy]
    cluster.stop()
    assert all(p is not None and p.poll() is not None for p in processes)
    with pytest.raises(httpx2.TransportError):
        httpx2.get(f"{cluster.url}/api/health", timeout=2, trust_env=False)
