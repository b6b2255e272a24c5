#!/usr/bin/env bash
# Debian's packages that `make test` uses, installed in one apt transaction when missing: the
# browser tests' Chromium (its headless shell), node and npm for the client's checks, and the throwaway servers of the
# database, cluster and monitoring tests (PostgreSQL, Redis, HAProxy, Prometheus). Each of those
# scripts still installs its own package when run alone; this only saves an `apt-get update` per
# package on a bare machine. Not root, or no apt-get: it says what is missing and does nothing.
set -euo pipefail

missing=()
# The browser tests drive Debian's old headless shell (a fifth less CPU than chromium's own
# headless mode); installed beside a chromium already there, it takes that one's version, so that
# their shared chromium-common stays as it is.
if [ ! -x /usr/lib/chromium/chromium-headless-shell ]; then
    chromium=$(dpkg-query -W -f='${Version}' chromium 2>/dev/null || true)
    missing+=("chromium-headless-shell${chromium:+=$chromium}")
fi
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 ||
    missing+=(postgresql)
{ command -v redis-server && command -v redis-cli; } >/dev/null 2>&1 || missing+=(redis-server)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
command -v prometheus >/dev/null 2>&1 || missing+=(prometheus)

[ ${#missing[@]} -gt 0 ] || exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "system packages missing (tests that need them say so): ${missing[*]}" >&2
    exit 0
fi
echo "installing Debian's ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
