#!/usr/bin/env bash
# Prometheus for the cluster tests, which scrape the nodes with it and load the repository's
# alert rules (deploy/prometheus/alerts.yml), and for an operator trying the monitoring locally.
#
#   scripts/test-prometheus.sh install                   # prints the prometheus binary's path
#   scripts/test-prometheus.sh check                     # promtool: the alert rules are valid
#
# As root, Debian's prometheus (server and promtool) is installed with apt-get when missing.
set -euo pipefail

# shellcheck source=scripts/throwaway.sh
source "$(dirname "${BASH_SOURCE[0]}")/throwaway.sh" test-prometheus "install | check"
[ $# -eq 1 ] || usage
rules="$(cd "$(dirname "$0")/.." && pwd)/deploy/prometheus/alerts.yml"

if ! command -v prometheus >/dev/null 2>&1; then
    apt_install Prometheus prometheus
    command -v prometheus >/dev/null 2>&1 || die "Prometheus installed but not on PATH"
fi

case "$1" in
install)
    command -v prometheus
    ;;
check)
    promtool check rules "$rules" >&2
    ;;
*)
    usage
    ;;
esac
