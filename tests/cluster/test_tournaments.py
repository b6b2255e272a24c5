"""Tournament events in a cluster: an event made on one node, its players registered through
another and connected to a third; and the event's owner SIGKILLed while a round is in play,
after which another node takes the event over and it ends with every game's result, its record
verifying. Events are short: `bloqueio` to a few points, greedy bots that answer at once."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
import pytest
import sqlalchemy as sa
from tests.support.cluster_players import Player, guest, post
from tests.support.clusterproc import Cluster
from tests.support.serverproc import NO_PROXY
from tests.support.watchers import Watchers, check_watchers, guests, public, run_apart, run_event
from websockets.sync.client import connect

from carroca.server.storage.db import normalize_url
from carroca.tournament import verify


@pytest.fixture
def cluster(cluster_factory: Callable[..., Cluster]) -> Cluster:
    return cluster_factory(env={"CARROCA_BOT_DELAY_MS": "60", "CARROCA_TOURNAMENT_BOTS": "true",
                                "CARROCA_TOURNAMENT_SHOW_UP_SECONDS": "3",
                                "CARROCA_BOT_WORKERS": "1"})


def page(base: str, event_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with httpx2.Client(base_url=base, timeout=30, trust_env=False, headers=headers) as c:
        r = c.get(f"/api/tournaments/{event_id}")
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        return answer


def event_row(cluster: Cluster, event_id: str) -> dict[str, Any]:
    engine = sa.create_engine(normalize_url(cluster.database), poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return dict(conn.execute(sa.text(
                "SELECT owner, epoch, status FROM tournaments WHERE id = :t"),
                {"t": event_id}).mappings().one())
    finally:
        engine.dispose()


def match_statuses(cluster: Cluster, ids: list[str]) -> dict[str, str]:
    engine = sa.create_engine(normalize_url(cluster.database), poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT id, status FROM matches"))
            return {r[0]: r[1] for r in rows if r[0] in ids}
    finally:
        engine.dispose()


def games_of(info: dict[str, Any]) -> list[dict[str, Any]]:
    return [g for rnd in info["rounds"] for t in rnd["tables"] for g in t["games"]]


def wait_status(base: Callable[[], str], event_id: str, status: str, seconds: float
                ) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    info: dict[str, Any] = {}
    while time.monotonic() < deadline:
        try:
            info = page(base(), event_id)
        except (httpx2.HTTPError, AssertionError):  # a node just killed: the next one
            time.sleep(0.2)
            continue
        if info["status"] == status:
            return info
        time.sleep(0.2)
    raise AssertionError(f"event {event_id} never {status!r}: {info.get('status')}, "
                         f"{[g['outcome'] for g in games_of(info)] if info else None}")


def check_record(cluster: Cluster, base: str, event_id: str, tmp: Path) -> dict[str, Any]:
    """The event record verifies, in process and with `carroca verify`; every node's log is
    free of crashes."""
    with httpx2.Client(base_url=base, timeout=30, trust_env=False) as c:
        r = c.get(f"/api/tournaments/{event_id}/record")
        assert r.status_code == 200, r.text
    record: dict[str, Any] = json.loads(r.text)
    verify(record)
    path = tmp / f"{event_id}.json"
    path.write_text(r.text)
    done = subprocess.run([sys.executable, "-m", "carroca", "verify", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    for node in cluster.nodes.values():
        text = node.log_path.read_text(errors="replace")
        assert "Traceback" not in text, text[-3000:]
    return record


class Entrant:
    """A player following an event from a socket on one node: each `tournament` frame that
    names a match of theirs is played there to its end (a `Player` each), until the event is
    over."""

    def __init__(self, cluster: Cluster, token: str, base: str, event_id: str) -> None:
        self.cluster, self.token, self.base, self.event_id = cluster, token, base, event_id
        self.ws = connect(f"{base.replace('http', 'ws', 1)}/ws?token={token}", open_timeout=30,
                          close_timeout=1, legacy=True, **NO_PROXY)
        self.matches: list[Player] = []
        self.frames: list[dict[str, Any]] = []
        self.over = False

    def pump(self) -> None:
        try:
            raw = self.ws.recv(timeout=0.005)
        except TimeoutError:
            raw = None
        if raw is not None:
            frame = json.loads(raw)
            data = frame["data"]
            if frame["type"] == "tournament" and data["event"] == self.event_id:
                self.frames.append(data)
                if data["status"] in ("finished", "cancelled"):
                    self.over = True
                elif data.get("match"):
                    self.matches.append(Player(self.cluster, self.token, data["match"],
                                               self.base))
        for p in self.matches:
            if p.state is None or p.state["status"] not in ("finished", "expired"):
                p.pump()

    def close(self) -> None:
        self.ws.close()
        for p in self.matches:
            p.close()


def test_an_event_made_on_one_node_with_players_of_the_others(cluster: Cluster,
                                                             tmp_path: Path) -> None:
    """Made on n1 (its owner); Ana and Bia register through n2, the start is asked of n2 too
    (forwarded to n1); Ana plays from a socket on n3, so her `tournament` frames and moves
    cross nodes; Bia never comes and forfeits; bots fill the other places."""
    n1, n2, n3 = (cluster.node_url(i) for i in (1, 2, 3))
    ana, bia = guest(cluster.url, "Ana"), guest(cluster.url, "Bia")
    made = post(n1, ana, "/api/tournaments", {
        "name": "Copa do Cluster", "format": "swiss", "ruleset": "bloqueio",
        "options": {"target": 1}, "rounds": 2, "capacity": 4, "bots": "greedy",
        "starts_in": 3600})
    event_id = made["id"]
    assert event_row(cluster, event_id)["owner"].startswith("n1/")
    for token in (ana, bia):
        assert post(n2, token, f"/api/tournaments/{event_id}/register", {})["entrant"]
    again = httpx2.post(f"{n3}/api/tournaments/{event_id}/register", json={}, timeout=30,
                        trust_env=False, headers={"Authorization": f"Bearer {bia}"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_registered"
    seen = page(n3, event_id, ana)
    assert [e["id"] for e in seen["registrations"]] == ["Ana", "Bia"] and seen["me"]
    with httpx2.Client(base_url=n2, timeout=30, trust_env=False,
                       headers={"Authorization": f"Bearer {ana}"}) as c:
        listed = c.get("/api/tournaments").json()
        assert event_id in [e["id"] for e in listed["upcoming"]] and listed["mine"] == [event_id]
    player = Entrant(cluster, ana, n3, event_id)
    try:
        assert post(n2, ana, f"/api/tournaments/{event_id}/start", {})["status"] == "running"
        deadline = time.monotonic() + 180
        while not player.over:
            assert time.monotonic() < deadline, player.frames
            player.pump()
    finally:
        player.close()
    info = wait_status(lambda: n2, event_id, "finished", 30)
    games = games_of(info)
    assert len(info["rounds"]) == 2 and all(g["outcome"] for g in games)
    forfeits = [g["outcome"] for g in games if g["outcome"]["kind"] == "forfeit"]
    assert forfeits and all(f["absent"] == ["Bia"] for f in forfeits)
    assert any(g["outcome"]["kind"] == "played" and "Ana" in g["sides"] for g in games)
    assert sum(1 for f in player.frames if f.get("match")) == 2  # her two games, on n3
    check_record(cluster, n2, event_id, tmp_path)


def test_the_owner_killed_mid_round_another_node_finishes_the_event(cluster: Cluster,
                                                                   tmp_path: Path) -> None:
    """Bots only, made and run on n1, SIGKILLed while a round's matches are in play: the
    matches move to n2 and n3 (match failover), the event to one of them, which rebuilds it
    from its record and seed, learns of the games that end on the other node, and finishes
    the event with every result."""
    n1, n2 = cluster.node_url(1), cluster.node_url(2)
    creator = guest(cluster.url, "Organizadora")
    made = post(n1, creator, "/api/tournaments", {
        "name": "Copa da Queda", "format": "swiss", "ruleset": "bloqueio",
        "options": {"target": 3}, "rounds": 3, "capacity": 4, "bots": "greedy",
        "starts_in": 3600})
    event_id = made["id"]
    assert post(n1, creator, f"/api/tournaments/{event_id}/start", {})["status"] == "running"
    deadline = time.monotonic() + 60
    while True:  # round 2 in play: its tables made, no result yet
        info = page(n2, event_id)
        games = games_of(info)
        if len(info["rounds"]) >= 2 and all(g["match"] for g in games) and \
                any(g["outcome"] is None for g in games):
            playing = [g["match"] for g in games if g["outcome"] is None]
            if "playing" in match_statuses(cluster, playing).values():
                break
        assert time.monotonic() < deadline, info
        time.sleep(0.05)
    cluster.kill(1)
    killed = time.monotonic()
    nodes = iter(lambda: cluster.node_url(2 + int(time.monotonic() * 10) % 2), None)
    info = wait_status(lambda: next(nodes), event_id, "finished", 180)
    row = event_row(cluster, event_id)
    assert row["owner"][:3] in ("n2/", "n3/") and row["epoch"] >= 1, row
    owner = cluster.node(int(row["owner"][1]))
    assert "took over 1 tournaments" in owner.log()
    assert time.monotonic() - killed < 150
    games = games_of(info)
    assert len(info["rounds"]) == 3 and len(games) == 6
    assert all(g["outcome"]["kind"] == "played" and g["match"] for g in games), games
    assert set(match_statuses(cluster, [g["match"] for g in games]).values()) == {"finished"}
    assert sum(s["wins"] for s in info["standings"]) == 6
    record = check_record(cluster, n2, event_id, tmp_path)
    assert record["state"] == "finished" and record["fairness"]["event_seed"]


def test_a_thousand_watchers_on_two_nodes_get_each_change_once(
        cluster_factory: Callable[..., Cluster]) -> None:
    """An event run by n1, watched by 500 pages on n1 and 500 on n2: each change reaches every
    page once, through Redis for n2's, and nothing while nothing changes; n2's own page of the
    event (asked of n1) is the same at the end."""
    cluster = cluster_factory(nodes=2, env={
        "CARROCA_BOT_DELAY_MS": "0", "CARROCA_TOURNAMENT_BOTS": "true",
        "CARROCA_MAX_SOCKETS_PER_SESSION": "200", "CARROCA_MAX_CONNECTIONS_PER_IP": "0",
        "CARROCA_LIMIT_GUEST_IP": "1000/minute", "CARROCA_BOT_WORKERS": "1"})
    n1, n2 = cluster.node_url(1), cluster.node_url(2)
    tokens = guests(n1, 13, "Olheiro")
    creator, players, watching = tokens[0], tokens[1:3], tokens[3:]
    event_id = post(n1, creator, "/api/tournaments", {
        "name": "Copa dos Dois Nós", "format": "swiss", "ruleset": "bloqueio",
        "options": {"target": 1}, "rounds": 2, "capacity": 4, "starts_in": 3600,
        "bots": "greedy"})["id"]
    assert event_row(cluster, event_id)["owner"] is not None

    async def scenario() -> tuple[dict[str, Any], Watchers]:
        ports = {cluster.node(1).port: 500, cluster.node(2).port: 500}
        async with Watchers(ports, watching, event_id) as watchers:
            final = await run_event(n2, watchers, event_id, creator, players)
            return final, watchers

    final, watchers = run_apart(scenario())
    games = len(games_of(final))
    assert final["status"] == "finished" and games == 4
    check_watchers(watchers, final, games)
    assert public(page(n1, event_id)) == public(page(n2, event_id))


def test_a_waiting_table_that_changes_nodes_keeps_its_show_up_time(
        cluster_factory: Callable[..., Cluster], tmp_path: Path) -> None:
    """The event's node, where its game's table waits for Ana and Bia, is SIGKILLed: the node
    taking the table over keeps waiting until the time the table was given (not starting it at
    once), Ana comes to it there, and Bia, who never comes, loses by forfeit."""
    cluster = cluster_factory(env={"CARROCA_TOURNAMENT_SHOW_UP_SECONDS": "15"})
    n1, n2 = cluster.node_url(1), cluster.node_url(2)
    ana, bia = guest(cluster.url, "Ana"), guest(cluster.url, "Bia")
    event_id = post(n1, ana, "/api/tournaments", {
        "name": "Copa da Espera", "format": "swiss", "ruleset": "bloqueio",
        "options": {"target": 1}, "rounds": 1, "starts_in": 3600})["id"]
    for token in (ana, bia):
        post(n1, token, f"/api/tournaments/{event_id}/register", {})
    assert post(n1, ana, f"/api/tournaments/{event_id}/start", {})["status"] == "running"
    [game] = games_of(page(n1, event_id))
    match, made = game["match"], time.time()
    assert match and match_statuses(cluster, [match]) == {match: "waiting"}
    cluster.kill(1)
    with connect(f"{n2.replace('http', 'ws', 1)}/ws?token={ana}", open_timeout=30,
                 close_timeout=1, **NO_PROXY) as ws:
        deadline = time.monotonic() + 30
        state = None
        while state is None:  # `moving` until a node runs the match again
            assert time.monotonic() < deadline, "the table was never taken over"
            ws.send(json.dumps({"type": "join", "data": {"match": match}}))
            while True:
                frame = json.loads(ws.recv(timeout=10))
                if frame["type"] == "state" and frame["data"]["id"] == match:
                    state = frame["data"]
                    break
                if frame["type"] == "error":
                    time.sleep(0.3)
                    break
        assert state["status"] == "waiting" and time.time() < made + 15
        nodes = iter(lambda: cluster.node_url(2 + int(time.monotonic() * 10) % 2), None)
        info = wait_status(lambda: next(nodes), event_id, "finished", 90)
    assert time.time() >= made + 15 - 1
    [game] = games_of(info)
    assert game["outcome"]["kind"] == "forfeit" and game["outcome"]["absent"] == ["Bia"]
    assert info["standings"][0]["entrant"] == "Ana"
    assert match_statuses(cluster, [match]) == {match: "expired"}
    check_record(cluster, n2, event_id, tmp_path)
