# What the throwaway-server scripts share (test-postgres.sh, test-redis.sh, test-haproxy.sh):
# their messages on stderr, their usage line, Debian's package installed when missing, a free
# local port. Sourced, not run: `source throwaway.sh NAME SYNOPSIS`, NAME being the script's
# name in messages and SYNOPSIS its arguments as `usage` shows them.

tag=$1
synopsis=$2

log() { echo "$tag: $*" >&2; }
die() { log "$*"; exit 1; }
usage() { die "usage: $0 $synopsis"; }

# apt_install WHAT PACKAGE: installs Debian's PACKAGE, as root; WHAT names it in messages.
apt_install() {
    local what=$1 package=$2
    [ "$(id -u)" -eq 0 ] ||
        die "$what is not installed; install it (apt-get install $package) or run as root"
    command -v apt-get >/dev/null 2>&1 || die "$what is not installed and apt-get is missing"
    log "installing $what with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "$package" >&2
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
