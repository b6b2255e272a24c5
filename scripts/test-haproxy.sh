#!/usr/bin/env bash
# HAProxy as the round-robin front of a local cluster (`make cluster`, the cluster tests), with
# the repository's deploy/haproxy.cfg.
#
#   scripts/test-haproxy.sh install                        # prints the haproxy binary's path
#   scripts/test-haproxy.sh run BIND NODE [NODE…]         # e.g. 127.0.0.1:8000 127.0.0.1:8001 …
#
# `run` replaces itself with HAProxy in the foreground (-db), so the caller's child is HAProxy
# itself: it stops on SIGTERM, SIGINT or SIGKILL, and logs server UP/DOWN on stdout. BIND is the
# address to listen on, each NODE a node's host:port (up to six; deploy/haproxy.cfg names them
# n1, n2, … in this order and says which answered in the X-Carroca-Node response header). As
# root, Debian's haproxy is installed with apt-get when missing. The nodes must be started with
# CARROCA_FORWARDED_ALLOW_IPS=127.0.0.1 to see the players' addresses.
set -euo pipefail

# shellcheck source=scripts/throwaway.sh
source "$(dirname "${BASH_SOURCE[0]}")/throwaway.sh" test-haproxy "install | run BIND NODE [NODE…]"
[ $# -ge 1 ] || usage
action=$1
shift
config="$(cd "$(dirname "$0")/.." && pwd)/deploy/haproxy.cfg"
max_nodes=6

find_haproxy() {
    if command -v haproxy >/dev/null 2>&1; then
        command -v haproxy
    elif [ -x /usr/sbin/haproxy ]; then  # a PATH without sbin
        echo /usr/sbin/haproxy
    fi
}

haproxy=$(find_haproxy)
if [ -z "$haproxy" ]; then
    apt_install HAProxy haproxy
    haproxy=$(find_haproxy)
    [ -n "$haproxy" ] || die "HAProxy installed but the haproxy binary was not found"
fi

case "$action" in
install)
    [ $# -eq 0 ] || usage
    echo "$haproxy"
    ;;
run)
    [ $# -ge 2 ] || usage
    [ $# -le $((max_nodes + 1)) ] || die "at most $max_nodes nodes (deploy/haproxy.cfg)"
    export CARROCA_PROXY_BIND=$1
    shift
    for i in $(seq "$max_nodes"); do
        unset "CARROCA_NODE_$i"
    done
    i=0
    for node in "$@"; do
        i=$((i + 1))
        export "CARROCA_NODE_$i=$node"
    done
    exec "$haproxy" -db -f "$config"
    ;;
*)
    usage
    ;;
esac
