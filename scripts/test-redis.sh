#!/usr/bin/env bash
# A throwaway Redis server for the cluster tests and `make cluster` (the nodes of a cluster share
# it: CARROCA_TEST_REDIS holds its URL in the tests).
#
#   scripts/test-redis.sh start DIR   # prints redis://127.0.0.1:PORT/0
#   scripts/test-redis.sh stop DIR    # stops it; DIR keeps its port, and can then be removed
#
# DIR holds the port, the pid file and the log. `start` on a DIR whose server runs prints the
# same URL again; on a DIR whose server stopped (or was killed) it starts it again ON THE SAME
# PORT, so that clients reconnect to the URL they had: the tests stop and start Redis under a
# running cluster this way. As root, Debian's redis-server is installed with apt-get when
# missing. The server listens on 127.0.0.1 only, on a free port, and keeps nothing on disk
# (save "", appendonly no): a restart empties it, as a crash of a Redis used as a cache does.
set -euo pipefail

# shellcheck source=scripts/throwaway.sh
source "$(dirname "${BASH_SOURCE[0]}")/throwaway.sh" test-redis "start|stop DIR"
[ $# -eq 2 ] || usage
action=$1 dir=$2

# Whether something accepts connections on the port (bash's /dev/tcp: no other tool needed).
port_open() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

ping() {
    [ -f "$dir/port" ] &&
        [ "$(redis-cli -h 127.0.0.1 -p "$(cat "$dir/port")" ping 2>/dev/null)" = PONG ]
}

# The pid of DIR's server when it is alive and still a redis-server (pids are reused).
server_pid() {
    local pid
    [ -f "$dir/redis.pid" ] || return 1
    pid=$(cat "$dir/redis.pid")
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null &&
        tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q redis-server &&
        echo "$pid"
}

# Starts redis-server on the port, daemonized; true once it answers PING.
launch() {
    local port=$1 i pid
    rm -f "$dir/redis.pid"
    echo "$port" >"$dir/port"
    redis-server --bind 127.0.0.1 --port "$port" --protected-mode yes \
        --save "" --appendonly no --dir "$dir" \
        --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" \
        --loglevel notice >&2 || return 1
    for i in $(seq 100); do
        ping && return 0
        sleep 0.1
    done
    # It did not come up: leave no half-started server behind.
    if pid=$(server_pid); then kill -9 "$pid" 2>/dev/null || true; fi
    return 1
}

case "$action" in
start)
    if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
        apt_install Redis redis-server
        command -v redis-server >/dev/null 2>&1 || die "Redis installed but redis-server not found"
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    chmod 700 "$dir"
    if ping; then
        echo "redis://127.0.0.1:$(cat "$dir/port")/0"
        exit 0
    fi
    if [ -f "$dir/port" ]; then
        # Started here before: the same port again, the one the clients know. A server killed
        # a moment ago may still hold it for a short while.
        port=$(cat "$dir/port")
        started=""
        for attempt in 1 2 3 4 5; do
            if port_open "$port"; then
                sleep 1
                continue
            fi
            if launch "$port"; then
                started=yes
                break
            fi
            log "start on port $port failed (attempt $attempt); see $dir/redis.log"
            sleep 1
        done
        [ -n "$started" ] || die "could not start Redis again on port $port; see $dir/redis.log"
    else
        started=""
        for attempt in 1 2 3 4 5; do
            port=$(free_port)
            if launch "$port"; then
                started=yes
                break
            fi
            rm -f "$dir/port"
            log "start on port $port failed (attempt $attempt); see $dir/redis.log"
            sleep 1
        done
        [ -n "$started" ] || die "could not start Redis"
    fi
    log "Redis $(redis-server --version | sed -n 's/.* v=\([^ ]*\).*/\1/p') on port $port"
    echo "redis://127.0.0.1:$port/0"
    ;;
stop)
    [ -f "$dir/port" ] || exit 0
    port=$(cat "$dir/port")
    # SHUTDOWN NOSAVE first (nothing is kept anyway), then the pid file's process.
    if ping; then
        redis-cli -h 127.0.0.1 -p "$port" shutdown nosave >/dev/null 2>&1 || true
    fi
    for i in $(seq 50); do
        server_pid >/dev/null || port_open "$port" || break
        sleep 0.1
    done
    if pid=$(server_pid); then
        log "Redis (pid $pid) did not shut down: killing it"
        kill -9 "$pid" 2>/dev/null || true
    fi
    for i in $(seq 100); do
        port_open "$port" || exit 0
        sleep 0.1
    done
    die "port $port is still open"
    ;;
*)
    usage
    ;;
esac
