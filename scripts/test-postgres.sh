#!/usr/bin/env bash
# A throwaway PostgreSQL server for the test suite (the server tests run against it when
# CARROCA_TEST_POSTGRES holds its URL).
#
#   scripts/test-postgres.sh start DIR   # prints postgresql://carroca:…@127.0.0.1:PORT/postgres
#   scripts/test-postgres.sh stop DIR    # stops it; DIR can then be removed
#
# DIR holds the cluster, its log and its URL. `start` on a DIR whose server runs prints the same
# URL again; on a DIR whose server stopped it starts it again. As root, PostgreSQL is installed
# with apt-get when missing, and the server runs as the `postgres` user (initdb refuses root).
# The server listens on 127.0.0.1 only, on a free port, with a random password; fsync stays on,
# so the durability tests see what a real deployment sees.
set -euo pipefail

# shellcheck source=scripts/throwaway.sh
source "$(dirname "${BASH_SOURCE[0]}")/throwaway.sh" test-postgres "start|stop DIR"
[ $# -eq 2 ] || usage
action=$1 dir=$2

# The newest installed server binaries (Debian keeps them off PATH, under /usr/lib/postgresql).
find_bindir() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -n "$found" ] && [ -x "$found/initdb" ]; then
        echo "$found"
    elif command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
    fi
}

# Runs a command as the cluster's owner: `postgres` (or a user of our own) when we are root.
owner=""
as_owner() {
    if [ -n "$owner" ]; then
        runuser -u "$owner" -- "$@"
    else
        "$@"
    fi
}

pick_owner() {
    [ "$(id -u)" -eq 0 ] || return 0
    if id postgres >/dev/null 2>&1; then
        owner=postgres
    else
        id carroca-pg >/dev/null 2>&1 || useradd --system --no-create-home carroca-pg
        owner=carroca-pg
    fi
}

url_works() {
    [ -f "$dir/url" ] && [ -f "$dir/port" ] &&
        "$bindir/pg_isready" -q -h 127.0.0.1 -p "$(cat "$dir/port")" -t 2
}

start_server() {
    local port attempt
    for attempt in 1 2 3 4 5; do
        port=$(free_port)
        if as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
            -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$dir'" \
            -o "-c fsync=on -c synchronous_commit=on -c max_connections=200" >&2; then
            echo "$port" >"$dir/port"
            return 0
        fi
        log "start on port $port failed (attempt $attempt); see $dir/server.log"
        sleep 1
    done
    die "could not start PostgreSQL"
}

case "$action" in
start)
    bindir=$(find_bindir)
    if [ -z "$bindir" ]; then
        apt_install PostgreSQL postgresql
        bindir=$(find_bindir)
        [ -n "$bindir" ] || die "PostgreSQL installed but initdb not found"
    fi
    pick_owner
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ -z "$owner" ] || chown "$owner" "$dir"
    chmod 700 "$dir"
    [ -z "$owner" ] || runuser -u "$owner" -- test -w "$dir" ||
        die "$owner cannot reach $dir: pick one it can (mktemp -d)"
    if url_works; then
        cat "$dir/url"
        exit 0
    fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        password=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
        (umask 077 && echo "$password" >"$dir/password")
        [ -z "$owner" ] || chown "$owner" "$dir/password"
        log "creating a cluster in $dir/data"
        if ! as_owner "$bindir/initdb" -D "$dir/data" -U carroca --pwfile="$dir/password" \
            --auth-host=scram-sha-256 --auth-local=peer -E UTF8 --locale=C.UTF-8 \
            >"$dir/initdb.log" 2>&1; then
            cat "$dir/initdb.log" >&2
            die "initdb failed"
        fi
    fi
    # A server killed with its cluster still on disk leaves a stale pid file behind.
    as_owner "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1 ||
        rm -f "$dir/data/postmaster.pid"
    start_server
    url="postgresql://carroca:$(cat "$dir/password")@127.0.0.1:$(cat "$dir/port")/postgres"
    (umask 077 && echo "$url" >"$dir/url")
    log "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on port $(cat "$dir/port")"
    echo "$url"
    ;;
stop)
    [ -d "$dir/data" ] || exit 0
    bindir=$(find_bindir)
    [ -n "$bindir" ] || die "PostgreSQL binaries not found"
    pick_owner
    if as_owner "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
        as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >&2
    fi
    rm -f "$dir/url" "$dir/port"
    ;;
*)
    usage
    ;;
esac
