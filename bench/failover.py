"""Failover: how long the matches of a SIGKILLed node stay still, and whether an acked move is lost.

The benchmark runs a cluster of three `carroca serve` nodes (tests/clusterproc.py: the nodes and
HAProxy, on one PostgreSQL database and one Redis) with the server's own lease settings (a lease
of 5 s renewed every 1 s, a scan for dead nodes' matches every 1 s; flags override them for
experiments). PostgreSQL and Redis are throwaway servers started here (scripts/test-postgres.sh,
scripts/test-redis.sh), or the ones --database and --redis name; either way the nodes get a
fresh database, dropped at the end, and the Redis database is emptied first.

Each round kills one node, n1, n2, n3, n1, … in turn:

1. --tables friends' tables of duplas-torneio (target 100) are made on that node, through its own
   URL, so that it owns them. Each seats two human players (tests/cluster/players.py's `Player`:
   plays its first legal move at once, sends a move again with the same id when told `moving`,
   opens a dead socket again through the proxy) partnered with two greedy bots. The humans are
   connected to the two other nodes (--connect others, the default: their sockets outlive the
   kill) or through the proxy (--connect proxy: some land on the node that dies).
2. Once every match has stored --moves-before moves, the node is SIGKILLed (its process group:
   no shutdown code runs, its lease just stops being renewed).
3. Takeover: from the kill until the database shows another owner (`matches.owner`, polled every
   --poll seconds) for every unfinished match the dead node owned; a round's figure is its last
   match's. `lease left` is what remained of the dead node's lease at the kill (by the database's
   clock): the others may claim its matches only after that, then within one scan.
4. Play resumed: from the kill until a player of the match receives a state frame with a higher
   version than any the dead node could have sent (the match's stored moves at the kill, + 1):
   the first move made under the new owner, as a client sees it. A round's figure is its last
   match's; the per-match figures are in the JSON.
5. The players go on for --after seconds and the killed node is started again (`restart_node`,
   on its port); with --play-out they play their matches to the end. Then every move a player
   got an `ack` for, (seat, move id, action), must be in the `moves` table, as
   tests/cluster/test_failover.py checks: `lost` counts those that are not (it must be 0);
   `log_gaps` lists matches whose log skips a `seq`. The players leave.

A match left without its players stays live until it ends by abandonment (the third turn clock
in a row of a human seat, a few minutes): one that the next node to die took over is taken over
again, so `moved` (every unfinished match the dead node owned) can exceed the round's tables.

The figures are per round and over the rounds (min / median / mean / max). Expect a takeover
between `lease left` and `lease left` + one scan (--takeover-seconds), plus the claim's commit;
play resumes once the new owner's first move is stored and relayed. The load of the machine
(`uptime`'s 1-minute load average and the CPU busy share over the run) is reported too.

    python bench/failover.py [--rounds 10] [--tables 6] [--bot-delay-ms 100]
        [--lease-seconds 5 --lease-renew-seconds 1 --takeover-seconds 1]
        [--database postgresql://… --redis redis://…] [--connect others|proxy]
        [--play-out SECONDS] [--workdir DIR] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # tests/clusterproc.py and tests/cluster/players.py
    sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402
from tests.cluster.players import Player, guest, post  # noqa: E402
from tests.clusterproc import REDIS_SCRIPT, Cluster  # noqa: E402

from carroca.server.settings import Settings  # noqa: E402
from carroca.server.storage.db import migrate, normalize_url  # noqa: E402
from load import CROWD, machine_cpu  # noqa: E402  (bench/ is not a package)

POSTGRES_SCRIPT = ROOT / "scripts" / "test-postgres.sh"
RULESET = "duplas-torneio"
SEATS = ["me", "bot:greedy", "open", "bot:greedy"]  # the host, a bot, the guest, a bot
NODES = 3
UNFINISHED = ("waiting", "playing")


@dataclass(frozen=True)
class Options:
    """What a measurement does on a running cluster (`measure`)."""

    rounds: int = 10
    tables: int = 6
    target: int = 100
    turn_seconds: float | None = None  # the tables' turn clock (None: the server's, 20 s)
    moves_before: int = 8  # stored moves per match before the kill
    after: float = 3.0  # seconds of play once every match resumed
    connect: str = "others"  # the players' sockets: "others" (the surviving nodes) or "proxy"
    poll: float = 0.05  # seconds between reads of the owners
    round_timeout: float = 60.0  # to start the tables, and for the takeover and resumed play
    play_out: float = 0.0  # seconds to play the matches to their end before the check (0: no)


def cluster_options(*, lease_seconds: float, lease_renew_seconds: float,
                    takeover_seconds: float, bot_delay_ms: int) -> dict[str, Any]:
    """`Cluster` keywords for the measured cluster: its leases, its bots' pace, and the
    per-address limits lifted (every player comes from this machine)."""
    return {
        "nodes": NODES,
        "lease_seconds": lease_seconds,
        "lease_renew_seconds": lease_renew_seconds,
        "takeover_seconds": takeover_seconds,
        "env": {**CROWD, "CARROCA_BOT_DELAY_MS": str(bot_delay_ms)},
    }


def say_to_stderr(quiet: bool) -> Callable[[str], None]:
    def say(text: str) -> None:
        if not quiet:
            print(f"[failover {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)

    return say


# --------------------------------------------------------------------------- the database


class Database:
    """Reads of the cluster's database, on one kept connection (a read every --poll seconds)."""

    def __init__(self, url: str) -> None:
        self.engine = sa.create_engine(normalize_url(url), pool_size=1, max_overflow=1,
                                       connect_args={"connect_timeout": 5})

    def close(self) -> None:
        self.engine.dispose()

    def _rows(self, sql: str, **params: Any) -> list[tuple[Any, ...]]:
        statement = sa.text(sql)
        for name, value in params.items():
            if isinstance(value, list | tuple | set):
                statement = statement.bindparams(sa.bindparam(name, expanding=True))
        with self.engine.connect() as conn:
            return [tuple(row) for row in conn.execute(statement, params)]

    def owners(self, matches: Sequence[str]) -> dict[str, tuple[str | None, str]]:
        """(owner, status) of each match."""
        if not matches:
            return {}
        rows = self._rows("SELECT id, owner, status FROM matches WHERE id IN :ids",
                          ids=list(matches))
        return {r[0]: (r[1], r[2]) for r in rows}

    def owned(self, pattern: str) -> dict[str, str]:
        """Unfinished matches whose owner is LIKE `pattern` (`n1/%`: any start of node n1):
        match -> owner."""
        rows = self._rows("SELECT id, owner FROM matches WHERE owner LIKE :p "
                          "AND status IN :unfinished", p=pattern, unfinished=list(UNFINISHED))
        return {r[0]: r[1] for r in rows}

    def lease_left(self, node_id: str) -> float | None:
        """Seconds left of a node's lease, by the database's clock (negative: ran out)."""
        rows = self._rows("SELECT lease_until - extract(epoch FROM clock_timestamp()) "
                          "FROM nodes WHERE id = :n", n=node_id)
        return float(rows[0][0]) if rows else None

    def move_counts(self, matches: Sequence[str]) -> dict[str, int]:
        rows = self._rows("SELECT match_id, count(*) FROM moves WHERE match_id IN :ids "
                          "GROUP BY match_id", ids=list(matches))
        counts = {m: 0 for m in matches}
        counts.update({r[0]: int(r[1]) for r in rows})
        return counts

    def moves(self, matches: Sequence[str]) -> dict[str, list[tuple[int, int, int | None, str]]]:
        """Each match's log: (seq, seat, client move id, action), in order."""
        rows = self._rows("SELECT match_id, seq, seat, client_id, action FROM moves "
                          "WHERE match_id IN :ids ORDER BY match_id, seq", ids=list(matches))
        out: dict[str, list[tuple[int, int, int | None, str]]] = {m: [] for m in matches}
        for r in rows:
            out[r[0]].append((int(r[1]), int(r[2]), r[3], str(r[4])))
        return out


def fresh_database(server_url: str) -> str:
    """A new, migrated database on the PostgreSQL server of `server_url`; its URL."""
    name = f"carroca_failover_{secrets.token_hex(6)}"
    admin = sa.create_engine(normalize_url(server_url), isolation_level="AUTOCOMMIT",
                             poolclass=sa.pool.NullPool)
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    url = sa.engine.make_url(normalize_url(server_url)).set(database=name)
    database = url.render_as_string(hide_password=False)
    migrate(database)
    return database


def drop_database(database: str) -> None:
    url = sa.engine.make_url(database)
    admin = sa.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT",
                             poolclass=sa.pool.NullPool)
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)'))
    finally:
        admin.dispose()


# --------------------------------------------------------------------------- one round


class RoundFailed(Exception):
    pass


def pump(players: Sequence[Player]) -> bool:
    """Each player reads and answers one frame if one came; False when none did."""
    busy = False
    for p in players:
        busy = p.pump() or busy
    return busy


def pump_until(players: Sequence[Player], until: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not until():
        if time.monotonic() > deadline:
            return False
        if not pump(players):
            time.sleep(0.005)
    return True


def version(group: Sequence[Player]) -> int:
    """The newest state version the players of one match have."""
    return max((p.state["version"] for p in group if p.state is not None), default=0)


def open_tables(cluster: Cluster, opts: Options, r: int, victim: int, others: list[int]
                ) -> dict[str, list[Player]]:
    """--tables friends' tables made on the victim node, joined, their players connected."""
    groups: dict[str, list[Player]] = {}
    try:
        for t in range(opts.tables):
            # The host on one surviving node, the guest on the other (or both via the proxy).
            bases: list[str | None] = [None, None]
            if opts.connect == "others":
                bases = [cluster.node_url(others[t % len(others)]),
                         cluster.node_url(others[(t + 1) % len(others)])]
            host = guest(cluster.url, f"r{r}t{t}anfitriao")
            body: dict[str, Any] = {"ruleset": RULESET, "options": {"target": opts.target},
                                    "seats": SEATS}
            if opts.turn_seconds is not None:
                body["turn_seconds"] = opts.turn_seconds
            made = post(cluster.node_url(victim), host, "/api/tables", body)
            joiner = guest(cluster.url, f"r{r}t{t}convidado")
            joined = post(bases[1] or cluster.url, joiner, "/api/tables/join",
                          {"invite": made["invite"]})
            if joined["id"] != made["id"]:
                raise RoundFailed(f"the invite led to {joined['id']}, not {made['id']}")
            groups[made["id"]] = [Player(cluster, host, made["id"], bases[0]),
                                  Player(cluster, joiner, made["id"], bases[1])]
    except BaseException:
        for group in groups.values():
            for p in group:
                with contextlib.suppress(Exception):
                    p.close()
        raise
    return groups


@dataclass
class Round:
    """A round's tables (match -> its two players) and its figures so far."""

    groups: dict[str, list[Player]]
    out: dict[str, Any]

    @property
    def players(self) -> list[Player]:
        return [p for group in self.groups.values() for p in group]

    def close(self) -> None:
        for p in self.players:
            with contextlib.suppress(Exception):
                p.close()


def one_round(cluster: Cluster, db: Database, opts: Options, r: int,
              say: Callable[[str], None]) -> Round:
    """Tables on the node to kill, the kill, the takeover and the play resumed, --after seconds
    of play, the node started again. The players are still at their tables: `finish` them."""
    victim = sorted(cluster.nodes)[(r - 1) % len(cluster.nodes)]
    others = [i for i in sorted(cluster.nodes) if i != victim]
    groups = open_tables(cluster, opts, r, victim, others)
    this = Round(groups, {"round": r, "killed": f"n{victim}", "tables": len(groups)})
    try:
        measure_kill(cluster, db, opts, victim, this)
        pump_until(this.players, lambda: False, opts.after)
        with deferred_interrupts():
            start = time.monotonic()
            cluster.restart_node(victim)
            this.out["restart_s"] = round(time.monotonic() - start, 2)
    except BaseException:
        this.close()
        raise
    return this


def measure_kill(cluster: Cluster, db: Database, opts: Options, victim: int,
                 this: Round) -> None:
    groups, out, players = this.groups, this.out, this.players
    matches = list(groups)
    if not pump_until(players, lambda: all(version(g) > opts.moves_before
                                           for g in groups.values()), opts.round_timeout):
        raise RoundFailed(f"the matches did not reach {opts.moves_before} moves in "
                          f"{opts.round_timeout:g} s: "
                          f"{[version(g) - 1 for g in groups.values()]}")
    owners = db.owners(matches)
    victim_ids = {owner for owner, _ in owners.values()}
    if len(victim_ids) != 1 or not str(next(iter(victim_ids))).startswith(f"n{victim}/"):
        raise RoundFailed(f"the tables are not all owned by n{victim}: {owners}")
    victim_id = str(next(iter(victim_ids)))
    owned = set(db.owned(victim_id))  # ours, and those of earlier rounds it took over
    seen = {m: version(g) for m, g in groups.items()}

    start = time.monotonic()
    cluster.kill(victim)  # SIGKILL to its process group, then reaped
    out["kill_s"] = round(time.monotonic() - start, 4)
    out["killed_id"] = victim_id
    asked = time.monotonic()
    left = db.lease_left(victim_id)  # read mid-query: back to the moment of the kill
    ago = (asked + time.monotonic()) / 2 - start
    out["lease_left_s"] = None if left is None else round(left + ago, 3)
    stored = db.move_counts(matches)  # final for the dead node: it can commit no more
    out["moves_at_kill"] = sum(stored.values())
    # The dead node sent frames up to its last commit: anything newer is the new owner's.
    baseline = {m: max(seen[m], stored[m] + 1) for m in matches}
    out["matches_moved"] = len(owned)

    takeover: dict[str, float] = {}
    new_owner: dict[str, str] = {}
    resumed: dict[str, float] = {}
    ended: set[str] = set()  # earlier rounds' matches that ended meanwhile (abandoned)
    next_poll = start
    deadline = start + opts.round_timeout
    while len(takeover) + len(ended) < len(owned) or len(resumed) < len(matches):
        if time.monotonic() > deadline:
            break
        busy = pump(players)
        now = time.monotonic()
        for m, group in groups.items():
            if m not in resumed and version(group) > baseline[m]:
                resumed[m] = now - start
        if now >= next_poll:
            next_poll = now + opts.poll
            pending = [m for m in owned if m not in takeover and m not in ended]
            for m, (owner, status) in db.owners(pending).items():
                if owner is not None and owner != victim_id:
                    takeover[m] = time.monotonic() - start
                    new_owner[m] = owner
                elif status not in UNFINISHED:
                    ended.add(m)
        if not busy:
            time.sleep(0.002)
    complete = len(takeover) + len(ended) == len(owned) and len(resumed) == len(matches)
    out["complete"] = complete
    out["takeover_s"] = round(max(takeover.values()), 3) if complete and takeover else None
    out["resumed_s"] = round(max(resumed.values()), 3) if complete else None
    out["takeover_match_s"] = sorted(round(v, 3) for v in takeover.values())
    out["resumed_match_s"] = [round(resumed[m], 3) if m in resumed else None for m in matches]
    out["not_taken_over"] = sorted(owned - set(takeover) - ended)
    out["new_owners"] = dict(sorted(Counter(o.split("/")[0]
                                            for o in new_owner.values()).items()))


def finish(db: Database, opts: Options, this: Round, say: Callable[[str], None]) -> None:
    """Checks that every acked move of the round's players is in the log (with --play-out,
    once they played their matches to the end), and lets the players go."""
    out, players = this.out, this.players
    try:
        if opts.play_out:
            pump_until(players, lambda: all(p.finished for p in players), opts.play_out)
        logs = db.moves(list(this.groups))
        acked, gaps = 0, []
        lost: list[dict[str, Any]] = []
        for m, group in this.groups.items():
            log = logs[m]
            if [seq for seq, *_ in log] != list(range(len(log))):
                gaps.append(m)
            for p in group:
                mine = {(cid, action) for _, seat, cid, action in log if seat == p.seat}
                acked += len(p.acked)
                lost += [{"match": m, "seat": p.seat, "id": i, "action": a}
                         for i, a in p.acked if (i, a) not in mine]
        out["finished"] = sum(1 for g in this.groups.values() if all(p.finished for p in g))
        out["moves_after_kill"] = sum(len(v) for v in logs.values()) - out["moves_at_kill"]
        out["acked"] = acked
        out["lost"] = len(lost)
        out["lost_moves"] = lost
        out["log_gaps"] = gaps  # matches whose log is not seq 0, 1, 2, …
        out["player_errors"] = dict(sorted(Counter(e for p in players
                                                   for e in p.errors).items()))
        out["reconnects"] = sum(p.reconnects for p in players)
    finally:
        this.close()
    say(f"round {out['round']}: killed {out['killed_id']} (lease left {out['lease_left_s']} s):"
        f" {out['matches_moved']} matches taken over in {out['takeover_s']} s, play resumed in "
        f"{out['resumed_s']} s; acked "
        f"{out['acked']}, lost {out['lost']}; restart {out['restart_s']} s")


# --------------------------------------------------------------------------- the measurement


def stats(values: Sequence[float | None]) -> dict[str, float | int | None]:
    known = [v for v in values if v is not None]
    if not known:
        return {"n": 0, "min": None, "median": None, "mean": None, "max": None}
    return {"n": len(known), "min": round(min(known), 3),
            "median": round(statistics.median(known), 3),
            "mean": round(statistics.fmean(known), 3), "max": round(max(known), 3)}


def measure(cluster: Cluster, opts: Options,
            say: Callable[[str], None] = lambda text: None) -> dict[str, Any]:
    """Runs the rounds on a started cluster (every node up); the report."""
    lease = float(cluster.env["CARROCA_LEASE_SECONDS"])
    scan = float(cluster.env["CARROCA_TAKEOVER_SECONDS"])
    db = Database(cluster.database)
    rounds: list[dict[str, Any]] = []
    try:
        for r in range(1, opts.rounds + 1):
            say(f"round {r}/{opts.rounds}: tables on n{sorted(cluster.nodes)[(r - 1) % 3]}")
            this = one_round(cluster, db, opts, r, say)
            finish(db, opts, this, say)
            rounds.append(this.out)
    finally:
        db.close()
    bound = lease + scan
    summary = {
        "rounds": len(rounds),
        "incomplete_rounds": sum(1 for r in rounds if not r["complete"]),
        "takeover_s": stats([r["takeover_s"] for r in rounds]),
        "resumed_s": stats([r["resumed_s"] for r in rounds]),
        "resumed_match_s": stats([v for r in rounds for v in r["resumed_match_s"]]),
        "lease_left_s": stats([r["lease_left_s"] for r in rounds]),
        "after_lease_s": stats([r["takeover_s"] - r["lease_left_s"] for r in rounds
                                if r["takeover_s"] is not None
                                and r["lease_left_s"] is not None]),
        "bound_s": bound,
        "rounds_over_bound": sum(1 for r in rounds
                                 if r["takeover_s"] is not None and r["takeover_s"] > bound),
        "matches_moved": sum(r["matches_moved"] for r in rounds),
        "acked": sum(r["acked"] for r in rounds),
        "lost": sum(r["lost"] for r in rounds),
    }
    return {
        "settings": {
            "nodes": len(cluster.nodes),
            "lease_s": lease,
            "lease_renew_s": float(cluster.env["CARROCA_LEASE_RENEW_SECONDS"]),
            "takeover_scan_s": scan,
            "bot_delay_ms": int(cluster.env.get("CARROCA_BOT_DELAY_MS", "800")),
            **asdict(opts),
        },
        "rounds": rounds,
        "summary": summary,
    }


def node_logs(workdir: Path) -> dict[str, dict[str, Any]]:
    """Per log file of the cluster: its ERROR and WARNING lines and tracebacks, counted, with
    a few distinct ERROR lines."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(workdir.glob("*.log")):
        lines = path.read_text(errors="replace").splitlines()
        errors = [ln for ln in lines if "ERROR" in ln]
        distinct = list(dict.fromkeys(ln.split(" ", 2)[-1][:160] for ln in errors))
        out[path.name] = {
            "errors": len(errors),
            "warnings": sum(1 for ln in lines if "WARNING" in ln),
            "tracebacks": sum(1 for ln in lines if ln.startswith("Traceback")),
            "error_lines": distinct[:5],
        }
    return out


# --------------------------------------------------------------------------- interrupts

_deferring = [0]
_pending: list[int] = []


def _on_signal(signum: int, frame: FrameType | None) -> None:
    if _deferring[0]:
        _pending.append(signum)
        return
    raise KeyboardInterrupt(signal.Signals(signum).name)


@contextlib.contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Ctrl-C or SIGTERM while nodes start waits until they did (and were recorded): so that
    the clean-up finds and stops them all."""
    _deferring[0] += 1
    try:
        yield
    finally:
        _deferring[0] -= 1
    if not _deferring[0] and _pending:
        signum = _pending.pop()
        _pending.clear()
        raise KeyboardInterrupt(signal.Signals(signum).name)


# --------------------------------------------------------------------------- the run


def script(path: Path, *args: str) -> str:
    done = subprocess.run(["bash", str(path), *args], capture_output=True, text=True,
                          timeout=900, check=False)
    if done.returncode:
        raise RuntimeError(f"{path.name} {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return done.stdout.strip()


def run(args: argparse.Namespace, opts: Options) -> dict[str, Any]:
    say = say_to_stderr(args.quiet)
    busy0, total0 = machine_cpu()
    load_start = os.getloadavg()
    scratch = Path(tempfile.mkdtemp(prefix="carroca-failover-"))
    # PostgreSQL runs as `postgres` when we are root: its directory must not be under a
    # directory only root can reach (scripts/test-postgres.sh), so not under `scratch`'s
    # subdirectories either, which mkdtemp makes 0700.
    pg_dir = redis_dir = None
    workdir = Path(args.workdir).resolve() if args.workdir else scratch / "cluster"
    workdir.mkdir(parents=True, exist_ok=True)
    database = cluster = None
    report: dict[str, Any] = {}
    try:
        server = args.database
        if not server:
            pg_dir = tempfile.mkdtemp(prefix="carroca-failover-pg-")
            say("starting a throwaway PostgreSQL")
            server = script(POSTGRES_SCRIPT, "start", pg_dir)
        redis_url = args.redis
        if not redis_url:
            redis_dir = str(scratch / "redis")
            say("starting a throwaway Redis")
            redis_url = script(REDIS_SCRIPT, "start", redis_dir)
        database = fresh_database(server)
        say(f"starting {NODES} nodes and the proxy (logs in {workdir})")
        with deferred_interrupts():
            cluster = Cluster(database, redis_url, workdir, **cluster_options(
                lease_seconds=args.lease_seconds, lease_renew_seconds=args.lease_renew_seconds,
                takeover_seconds=args.takeover_seconds, bot_delay_ms=args.bot_delay_ms))
        report = measure(cluster, opts, say)
    finally:
        try:
            if cluster is not None:
                cluster.stop()
            if report:
                report["node_logs"] = node_logs(workdir)
        finally:
            if database is not None:
                with contextlib.suppress(Exception):
                    drop_database(database)
            if redis_dir is not None:
                with contextlib.suppress(Exception):
                    script(REDIS_SCRIPT, "stop", redis_dir)
            if pg_dir is not None:
                with contextlib.suppress(Exception):
                    script(POSTGRES_SCRIPT, "stop", pg_dir)
                shutil.rmtree(pg_dir, ignore_errors=True)
            shutil.rmtree(scratch, ignore_errors=True)
    busy1, total1 = machine_cpu()
    report["machine"] = {
        "cores": os.cpu_count(),
        "loadavg_start": [round(x, 2) for x in load_start],
        "loadavg_end": [round(x, 2) for x in os.getloadavg()],
        "busy_pct": round(100 * (busy1 - busy0) / (total1 - total0), 1)
        if total1 > total0 else None,
    }
    report["workdir"] = str(workdir) if args.workdir else None
    return report


def render(report: dict[str, Any]) -> str:
    s, st = report["summary"], report["settings"]

    def sec(v: float | None) -> str:
        return "-" if v is None else f"{v:.2f}"

    lines = [
        f"{st['nodes']} nodes, lease {st['lease_s']:g} s renewed every {st['lease_renew_s']:g} s,"
        f" takeover scan every {st['takeover_scan_s']:g} s, bot delay {st['bot_delay_ms']} ms; "
        f"{st['tables']} tables of {RULESET} per round, players connected to "
        f"{'the other nodes' if st['connect'] == 'others' else 'the proxy'}",
        "",
        f"{'round':>5} {'killed':>6} {'moved':>5} {'lease left':>10} {'takeover':>8} "
        f"{'resumed':>7} {'first/median resumed':>20} "
        + (f"{'finished':>8} " if st["play_out"] else "")
        + f"{'acked':>5} {'lost':>4} {'restart':>7}  player errors",
    ]
    for r in report["rounds"]:
        per = [v for v in r["resumed_match_s"] if v is not None]
        spread = f"{sec(min(per))} / {sec(statistics.median(per))}" if per else "-"
        errors = ", ".join(f"{k} {v}" for k, v in r["player_errors"].items()) or "-"
        lines.append(
            f"{r['round']:>5} {r['killed']:>6} {r['matches_moved']:>5} "
            f"{sec(r['lease_left_s']):>10} {sec(r['takeover_s']):>8} {sec(r['resumed_s']):>7} "
            f"{spread:>20} "
            + (f"{r['finished']:>4}/{r['tables']:<3} " if st["play_out"] else "")
            + f"{r['acked']:>5} {r['lost']:>4} {sec(r['restart_s']):>7}  {errors}")
    lines.append("")
    lines.append(f"{'seconds after the kill':<34} {'min':>6} {'median':>6} {'mean':>6} "
                 f"{'max':>6}")
    for key, title in (("takeover_s", "takeover (every match)"),
                       ("resumed_s", "play resumed (every match)"),
                       ("resumed_match_s", "play resumed (each match)"),
                       ("lease_left_s", "lease left at the kill"),
                       ("after_lease_s", "takeover - lease left")):
        v = s[key]
        lines.append(f"{title:<34} {sec(v['min']):>6} {sec(v['median']):>6} "
                     f"{sec(v['mean']):>6} {sec(v['max']):>6}")
    lines += [
        "",
        f"rounds {s['rounds']} ({s['incomplete_rounds']} incomplete), matches moved "
        f"{s['matches_moved']}, acked moves {s['acked']}, acked moves lost {s['lost']}; "
        f"takeovers over lease + scan ({s['bound_s']:g} s): {s['rounds_over_bound']}",
    ]
    m = report.get("machine")
    if m:
        lines.append(f"machine: {m['cores']} cores, {m['busy_pct']}% busy over the run, load "
                     f"average {m['loadavg_start'][0]} at the start, {m['loadavg_end'][0]} at "
                     "the end (1 min)")
    logs = report.get("node_logs") or {}
    if logs:
        lines.append(
            f"logs ({len(logs)} files): {sum(v['errors'] for v in logs.values())} ERROR lines, "
            f"{sum(v['tracebacks'] for v in logs.values())} tracebacks, "
            f"{sum(v['warnings'] for v in logs.values())} WARNING lines")
        lines += [f"  {name}: {line}" for name, v in logs.items() for line in v["error_lines"]]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    defaults = Settings()
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=10, help="SIGKILLs (default 10)")
    parser.add_argument("--tables", type=int, default=6,
                        help="tables made on the node to kill, each round (default 6)")
    parser.add_argument("--bot-delay-ms", type=int, default=100,
                        help="the nodes' pause before a bot acts (default 100)")
    parser.add_argument("--lease-seconds", type=float, default=defaults.lease_seconds)
    parser.add_argument("--lease-renew-seconds", type=float,
                        default=defaults.lease_renew_seconds)
    parser.add_argument("--takeover-seconds", type=float, default=defaults.takeover_seconds,
                        help="seconds between a node's scans for dead nodes' matches")
    parser.add_argument("--turn-seconds", type=float, default=None,
                        help="the tables' turn clock (default: the server's)")
    parser.add_argument("--moves-before", type=int, default=Options.moves_before,
                        help="stored moves per match before the kill (default 8)")
    parser.add_argument("--after", type=float, default=Options.after,
                        help="seconds of play after every match resumed (default 3)")
    parser.add_argument("--connect", choices=("others", "proxy"), default="others",
                        help="players' sockets: to the surviving nodes, or through the proxy")
    parser.add_argument("--play-out", type=float, default=0.0, metavar="SECONDS",
                        help="before the check of acked moves, play the round's matches to "
                             "their end, for this long at most (default 0: no)")
    parser.add_argument("--poll", type=float, default=Options.poll,
                        help="seconds between reads of the owners (default 0.05)")
    parser.add_argument("--database", default=None,
                        help="a PostgreSQL server's URL: a fresh database is made on it "
                             "(default: a throwaway server)")
    parser.add_argument("--redis", default=None,
                        help="a Redis URL; its database is EMPTIED (default: a throwaway one)")
    parser.add_argument("--workdir", default=None,
                        help="keep the nodes' and the proxy's logs here (default: a temporary "
                             "directory, removed)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.tables < 1 or args.moves_before < 0 or args.after < 0:
        parser.error("--rounds and --tables must be positive, --moves-before and --after not "
                     "negative")
    if args.database and not args.database.startswith("postgresql"):
        parser.error("--database: a PostgreSQL URL (postgresql://…)")
    opts = Options(rounds=args.rounds, tables=args.tables, turn_seconds=args.turn_seconds,
                   moves_before=args.moves_before, after=args.after, connect=args.connect,
                   poll=args.poll, play_out=args.play_out)
    previous = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        result = run(args, opts)
    except KeyboardInterrupt as exc:
        print(f"failover: interrupted ({exc or 'SIGINT'}); every process stopped",
              file=sys.stderr)
        raise SystemExit(130) from None
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    print(json.dumps(result) if args.json else render(result), flush=True)
    return result


if __name__ == "__main__":
    main()
