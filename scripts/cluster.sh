#!/usr/bin/env bash
# A local cluster in one command (`make cluster`): a throwaway PostgreSQL and Redis, two
# `carroca serve` nodes sharing them, and HAProxy in front (deploy/haproxy.cfg, round robin).
#
#   scripts/cluster.sh      # prints "carroca: open http://localhost:8000/ …"; Ctrl-C stops it all
#
# The proxy listens on CARROCA_PORT (8000) of CARROCA_HOST (127.0.0.1), the nodes on the next
# ports (8001, 8002, …; CARROCA_CLUSTER_NODES of them, 2 by default, at most 6). Every other
# CARROCA_* setting (docs/server.md) reaches the nodes. Everything lives in .cluster/: PostgreSQL
# (.cluster/postgres, kept between runs: the players and matches stay), Redis (.cluster/redis,
# empty at every start) and the logs (.cluster/n1.log, …, .cluster/haproxy.log). As root,
# PostgreSQL, Redis and HAProxy are installed with apt-get when missing. Ctrl-C or SIGTERM
# stops the proxy, the nodes, Redis and PostgreSQL, in that order; nothing is left running.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
state=$root/.cluster
bin=$root/.venv/bin

log() { echo "cluster: $*" >&2; }
die() { log "$*"; exit 1; }

[ -x "$bin/carroca" ] || die "no $bin/carroca: run \`make cluster\` (it installs it)"
"$bin/python" -c 'import psycopg' 2>/dev/null ||
    die "the PostgreSQL driver is missing: run \`make cluster\` (it installs it)"

port=${CARROCA_PORT:-8000}
host=${CARROCA_HOST:-127.0.0.1}
nodes=${CARROCA_CLUSTER_NODES:-2}
[[ "$port" =~ ^[0-9]+$ ]] || die "CARROCA_PORT is not a port: $port"
[[ "$nodes" =~ ^[1-6]$ ]] || die "CARROCA_CLUSTER_NODES: 1 to 6 nodes (deploy/haproxy.cfg)"

mkdir -p "$state"
echo '*' >"$state/.gitignore"  # nothing of a local cluster belongs in git
setup_log=$state/setup.log

# One cluster per checkout: .cluster/ is its. The lock is held by this script only (the
# processes it starts do not inherit its descriptor), so a run that was killed leaves it free.
exec 9>"$state/lock"
flock -n 9 || die "a cluster of this checkout already runs (make cluster); stop it first"
: >"$setup_log"

port_open() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Whether the process runs (a child that exited and was not reaped yet is a zombie: not alive).
alive() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}

# -------------------------------------------------------------------------- stopping
children=()  # pids of the nodes and the proxy, each the leader of its own process group
started=""
stopping=""
stop_all() {
    local status=$? pid i running
    [ -z "$stopping" ] || return 0
    stopping=yes
    trap '' INT TERM
    if [ ${#children[@]} -gt 0 ]; then
        log "stopping"
        # The proxy first (the last in the list), then the nodes: SIGTERM, then SIGKILL.
        for ((i = ${#children[@]} - 1; i >= 0; i--)); do
            kill -TERM -- "-${children[i]}" 2>/dev/null || true
        done
        for i in $(seq 100); do
            running=""
            for pid in "${children[@]}"; do
                alive "$pid" && running=yes
            done
            [ -n "$running" ] || break
            sleep 0.1
        done
        # Whatever is left: a node that did not stop in 10 s, workers of the nodes.
        for pid in "${children[@]}"; do
            kill -KILL -- "-$pid" 2>/dev/null || true
        done
        wait 2>/dev/null || true
    fi
    rm -f "$state"/*.pid
    bash scripts/test-redis.sh stop "$state/redis" >>"$setup_log" 2>&1 || true
    rm -rf "$state/redis"  # nothing in it is kept: the next run takes a free port again
    bash scripts/test-postgres.sh stop "$state/postgres" >>"$setup_log" 2>&1 || true
    [ -z "$started" ] || log "stopped: nothing of the cluster runs any more"
    exit "$status"
}
# Set before anything starts: also stops the PostgreSQL and Redis a killed run left running.
trap stop_all EXIT
trap 'exit 0' INT  # a requested stop: a clean end
trap 'exit 0' TERM

# Nodes and proxy of an earlier run that was killed before it could clean up (their pid files).
leftovers=""
for pidfile in "$state"/*.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null |
            grep -q -e 'carroca serve' -e haproxy; then
        log "stopping $(basename "$pidfile" .pid) (pid $pid) left by an earlier run"
        kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
        leftovers=yes
    fi
    rm -f "$pidfile"
done
for p in $(seq "$port" $((port + nodes))); do
    if [ -n "$leftovers" ]; then  # the killed ones let go of their ports in a moment
        for _ in $(seq 50); do
            port_open "$p" || break
            sleep 0.1
        done
    fi
    if port_open "$p"; then
        die "port $p is taken: stop what runs there, or choose other ports" \
            "(CARROCA_PORT=9000 make cluster: the proxy on 9000, the nodes on 9001, …)"
    fi
done

setup_failed() {
    tail -n 20 "$setup_log" >&2
    die "$1 (the whole log: $setup_log)"
}

# -------------------------------------------------------------------------- PostgreSQL, Redis
pg_url=$(bash scripts/test-postgres.sh start "$state/postgres" 2>>"$setup_log" 9>&-) ||
    setup_failed "PostgreSQL did not start"
# The nodes' database, `carroca`, beside the server's `postgres`.
"$bin/python" - "$pg_url" >>"$setup_log" 2>&1 <<'EOF' || setup_failed "cannot create the database"
import sys

import psycopg

with psycopg.connect(sys.argv[1], autocommit=True) as conn:
    if not conn.execute("SELECT 1 FROM pg_database WHERE datname = 'carroca'").fetchone():
        conn.execute("CREATE DATABASE carroca")
EOF
database=${pg_url%/postgres}/carroca
redis_url=$(bash scripts/test-redis.sh start "$state/redis" 2>>"$setup_log" 9>&-) ||
    setup_failed "Redis did not start"
bash scripts/test-haproxy.sh install >>"$setup_log" 2>&1 9>&- || setup_failed "no HAProxy"

# -------------------------------------------------------------------------- nodes and proxy
# Each in a session of its own (setsid): the terminal's Ctrl-C reaches this script only, which
# stops them in order; their workers are in their process groups.
backends=()
for i in $(seq "$nodes"); do
    node_port=$((port + i))
    CARROCA_FORWARDED_ALLOW_IPS=127.0.0.1 setsid "$bin/carroca" serve --database "$database" \
        --redis "$redis_url" --node "n$i" --host 127.0.0.1 --port "$node_port" \
        >"$state/n$i.log" 2>&1 </dev/null 9>&- &
    children+=("$!")
    echo "$!" >"$state/n$i.pid"
    backends+=("127.0.0.1:$node_port")
done
# A node is ready once it prints the line with its URL (after the migrations, when listening).
for i in $(seq "$nodes"); do
    pid=${children[i - 1]}
    for _ in $(seq 1800); do
        grep -q "carroca: open" "$state/n$i.log" && break
        alive "$pid" || { tail -n 20 "$state/n$i.log" >&2; die "node n$i exited"; }
        sleep 0.05
    done
    grep -q "carroca: open" "$state/n$i.log" || die "node n$i did not start: see $state/n$i.log"
done

setsid bash scripts/test-haproxy.sh run "$host:$port" "${backends[@]}" \
    >"$state/haproxy.log" 2>&1 </dev/null 9>&- &
proxy=$!
children+=("$proxy")
echo "$proxy" >"$state/haproxy.pid"
for _ in $(seq 200); do
    port_open "$port" && break
    alive "$proxy" || { cat "$state/haproxy.log" >&2; die "HAProxy exited"; }
    sleep 0.05
done
port_open "$port" || die "HAProxy did not start: see $state/haproxy.log"

shown=$host
case "$host" in 0.0.0.0 | 127.0.0.1 | "" | :: | ::1) shown=localhost ;; esac
started=yes
echo "carroca: open http://$shown:$port/ in your browser ($nodes nodes behind HAProxy," \
    "PostgreSQL and Redis; logs in .cluster/; Ctrl-C stops it all)"

# Until Ctrl-C: a node that exits is reported (the proxy routes around it); the proxy's exit
# ends the cluster.
while true; do
    wait -n || true
    for i in $(seq "$nodes"); do
        pid=${children[i - 1]}
        if [ -f "$state/n$i.pid" ] && ! alive "$pid"; then
            log "node n$i exited: see $state/n$i.log"
            rm -f "$state/n$i.pid"
        fi
    done
    alive "$proxy" || { log "HAProxy exited: see $state/haproxy.log"; exit 1; }
done
