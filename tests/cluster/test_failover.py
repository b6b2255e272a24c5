"""Matches across nodes and through failures: players on different nodes, the owner killed
(SIGKILL) or paused (SIGSTOP) mid-match, Redis restarted mid-match. Each match must end with
every acknowledged move in its stored log and a record that `carroca verify` accepts."""

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
from tests.support.cluster_players import Player, guest, now_and_then, play, post
from tests.support.clusterproc import Cluster

from carroca.server.storage.db import normalize_url

TORNEIO = {"ruleset": "duplas-torneio", "options": {"target": 50}, "turn_seconds": 30}


@pytest.fixture
def cluster(cluster_factory: Callable[..., Cluster]) -> Cluster:
    """Three nodes whose bots answer at once (a whole match takes seconds)."""
    return cluster_factory(env={"CARROCA_BOT_DELAY_MS": "20"})


def stored_moves(cluster: Cluster, match: str) -> list[dict[str, Any]]:
    engine = sa.create_engine(normalize_url(cluster.database), poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT seq, seat, action, client_id FROM moves WHERE match_id = :m ORDER BY seq"
            ), {"m": match}).mappings().all()
            return [dict(r) for r in rows]
    finally:
        engine.dispose()


def row_of(cluster: Cluster, match: str, columns: str) -> tuple[Any, ...]:
    engine = sa.create_engine(normalize_url(cluster.database), poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return tuple(conn.execute(sa.text(f"SELECT {columns} FROM matches WHERE id = :m"),
                                      {"m": match}).one())
    finally:
        engine.dispose()


def owner_of(cluster: Cluster, match: str) -> tuple[str, int]:
    owner, epoch = row_of(cluster, match, "owner, epoch")
    return str(owner), int(epoch)


def get_record(cluster: Cluster, match: str, token: str) -> str:
    """The record, fetched as the player of `token` (a friends' match is its players')."""
    with httpx2.Client(base_url=cluster.url, timeout=30, trust_env=False,
                       headers={"Authorization": f"Bearer {token}"}) as c:
        r = c.get(f"/api/matches/{match}/record")
        assert r.status_code == 200, r.text
        return r.text


def check_finished(cluster: Cluster, match: str, players: list[Player], tmp: Path) -> None:
    """Every acknowledged move is in the log, once; the record verifies."""
    moves = stored_moves(cluster, match)
    assert [m["seq"] for m in moves] == list(range(len(moves)))
    for p in players:
        mine = {(m["client_id"], m["action"]) for m in moves if m["seat"] == p.seat}
        lost = [a for a in p.acked if a not in mine]
        assert not lost, f"acknowledged moves of seat {p.seat} not stored: {lost}"
    text = get_record(cluster, match, players[0].token)
    path = tmp / f"{match}.jsonl"
    path.write_text(text)
    done = subprocess.run([sys.executable, "-m", "carroca", "verify", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    record = json.loads(text)
    assert len(moves) >= sum(len(p.acked) for p in players)
    assert record["result"]["score"]
    for node in cluster.nodes.values():  # failures are logged as such, never as a crash
        text = node.log_path.read_text(errors="replace")
        assert "Traceback" not in text and "Warning:" not in text, text[-3000:]


def friends_table(cluster: Cluster, host_node: int, seats: list[str],
                  joiners: list[str]) -> tuple[str, list[str]]:
    """A friends' table made on `host_node` (its owner) and joined by invite through the proxy;
    returns (match id, tokens in seat order of "me" then each "open")."""
    host = guest(cluster.url, f"anfitriao-{joiners[0]}")
    made = post(cluster.node_url(host_node), host, "/api/tables",
                {**TORNEIO, "seats": seats})
    tokens = [host]
    for name in joiners:
        token = guest(cluster.url, name)
        joined = post(cluster.url, token, "/api/tables/join", {"invite": made["invite"]})
        assert joined["id"] == made["id"]
        tokens.append(token)
    return made["id"], tokens


def test_a_match_with_players_on_three_nodes(cluster: Cluster, tmp_path: Path) -> None:
    match, tokens = friends_table(cluster, 1, ["me", "open", "open", "open"],
                                  ["bia", "caio", "duda"])
    # One player on each node, the last through the proxy: frames and moves cross nodes.
    bases: list[str | None] = [cluster.node_url(2), cluster.node_url(3), cluster.node_url(1),
                               None]
    players = [Player(cluster, t, match, b) for t, b in zip(tokens, bases, strict=True)]
    # Between hands the owner stores the score, which the other nodes' lobbies show.
    scores: list[list[int]] = []

    def score_stored() -> bool:
        status, score = row_of(cluster, match, "status, score")
        if status == "playing" and score:
            scores.append(json.loads(score) if isinstance(score, str) else score)
        return False

    # A hand here lasts a fraction of a second (the players answer at once), and the score
    # stays stored from a hand's end to the match's: ask often enough to see it in between.
    ask = now_and_then(score_stored, seconds=0.02)
    play(players, lambda: ask() or all(p.finished for p in players), 120)
    assert sorted(p.seat for p in players) == [0, 1, 2, 3]  # type: ignore[type-var]
    check_finished(cluster, match, players, tmp_path)
    assert not [e for p in players for e in p.errors if e not in ("stale_state",)]
    if len(json.loads(get_record(cluster, match, tokens[0]))["hands"]) > 1:
        assert scores, "no score stored between hands"


def test_owner_killed_mid_match(cluster: Cluster, tmp_path: Path) -> None:
    """Humans and bots; the owner node is SIGKILLed: another node takes the match from its log
    within the lease (2 s here) plus a scan, and play goes on with every acked move kept."""
    match, tokens = friends_table(cluster, 1, ["me", "bot:greedy", "open", "bot:greedy"],
                                  ["bia"])
    players = [Player(cluster, tokens[0], match, cluster.node_url(2)),
               Player(cluster, tokens[1], match, cluster.node_url(1))]
    play(players, lambda: sum(len(p.acked) for p in players) >= 6, 60)
    assert owner_of(cluster, match)[0].startswith("n1/")
    versions = [p.state["version"] for p in players if p.state]
    cluster.kill(1)
    killed = time.monotonic()
    play(players, now_and_then(lambda: owner_of(cluster, match)[0][:3] in ("n2/", "n3/")), 15)
    play(players, lambda: all(p.state and p.state["version"] > max(versions) for p in players),
         15)
    moved = time.monotonic() - killed
    assert moved < 10, f"the match moved after {moved:.1f} s"
    assert players[1].reconnects >= 1  # its node died: it came back through the proxy
    play(players, lambda: all(p.finished for p in players), 180)
    check_finished(cluster, match, players, tmp_path)
    assert owner_of(cluster, match)[1] >= 1  # the takeover raised the epoch


def test_paused_owner_loses_its_lease_and_cannot_commit(cluster: Cluster,
                                                        tmp_path: Path) -> None:
    match, tokens = friends_table(cluster, 1, ["me", "bot:greedy", "open", "bot:greedy"],
                                  ["bia"])
    players = [Player(cluster, tokens[0], match, cluster.node_url(2)),
               Player(cluster, tokens[1], match, cluster.node_url(3))]
    play(players, lambda: sum(len(p.acked) for p in players) >= 4, 60)
    cluster.pause(1)
    try:
        play(players, now_and_then(lambda: owner_of(cluster, match)[0][:3] in ("n2/", "n3/")), 15)
        before = len(stored_moves(cluster, match))
        # Play goes on under the new owner: six more moves, or the end (one hand may end it).
        play(players, now_and_then(lambda: all(p.finished for p in players)
                                   or len(stored_moves(cluster, match)) >= before + 6), 60)
    finally:
        cluster.resume(1)
    # Awake, n1 finds its lease gone: it stops running its matches and cannot commit theirs.
    deadline = time.monotonic() + 10
    while "takes part again" not in cluster.node(1).log() and time.monotonic() < deadline:
        for p in players:
            p.pump(0.02)
    assert "takes part again" in cluster.node(1).log()
    play(players, lambda: all(p.finished for p in players), 180)
    check_finished(cluster, match, players, tmp_path)
    assert not owner_of(cluster, match)[0].startswith("n1/")


def test_redis_restarted_mid_match(cluster: Cluster, tmp_path: Path) -> None:
    """Two matches owned by n1: one followed from n1 itself, one from the other nodes. Redis
    goes away and comes back: frames and forwarded moves resume, nothing acked is lost."""
    tables = [friends_table(cluster, 1, ["me", "bot:greedy", "open", "bot:greedy"], [name])
              for name in ("bia", "caio")]
    groups = [
        [Player(cluster, t, tables[0][0], b) for t, b in
         zip(tables[0][1], [cluster.node_url(1), cluster.node_url(1)], strict=True)],
        [Player(cluster, t, tables[1][0], b) for t, b in
         zip(tables[1][1], [cluster.node_url(2), cluster.node_url(3)], strict=True)],
    ]
    everyone = groups[0] + groups[1]

    def acked(group: list[Player]) -> int:
        return sum(len(p.acked) for p in group)

    play(everyone, lambda: min(acked(g) for g in groups) >= 4, 60)
    cluster.restart_redis()
    before = [acked(g) for g in groups]
    # Frames and moves resume: six more acks in each match, or its end (one hand may end it).
    play(everyone, lambda: all(acked(g) >= b + 6 or all(p.finished for p in g)
                               for g, b in zip(groups, before, strict=True)), 60)
    play(everyone, lambda: all(p.finished for p in everyone), 180)
    for (match, _), group in zip(tables, groups, strict=True):
        check_finished(cluster, match, group, tmp_path)
        assert owner_of(cluster, match)[0].startswith("n1/")  # nobody died: it stayed
