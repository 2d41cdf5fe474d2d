#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A SECOND dockerd of the fault tests' own, which they may kill and restart mid-run. The
# main dockerd (/var/run/docker.sock) is never touched: this daemon has its own data root
# ($SANDBOX_STUDIO_CACHE/faults-dockerd, images persist between runs), exec root, pid file
# and socket, no bridge and no iptables (PLATFORM.md).
#
#   faults-dockerd.sh start [REF...]  start it unless it answers; load REFs it lacks from the
#                                     main dockerd (docker save | docker load)
#   faults-dockerd.sh kill            SIGKILL the daemon (a crash), by its own pid file
#   faults-dockerd.sh stop            SIGTERM it and wait until it is gone
#   faults-dockerd.sh status          exit 0 when it answers
#   faults-dockerd.sh socket          print its socket's URI
#
# Inside the build root (no dockerd there) the script re-runs itself in the host's mount
# namespace (nsenter -t 1 -m); the socket and pid file live under /run, which the build
# root shares.
set -euo pipefail

CACHE="${SANDBOX_STUDIO_CACHE:-/var/cache/sandbox-studio}"
DATA_ROOT="$CACHE/faults-dockerd"
STATE=/run/sandbox-studio-faults
PIDFILE="$STATE/dockerd.pid"
SOCK="$STATE/docker.sock"
LOG=/var/log/sandbox-studio-faults-dockerd.log
MAIN_SOCK=/var/run/docker.sock

log() { echo "[faults-dockerd] $*" >&2; }
die() { echo "[faults-dockerd] $*" >&2; exit 1; }

if ! command -v dockerd >/dev/null; then
    if [[ -z "${FAULTS_DOCKERD_NSENTER:-}" ]] && command -v nsenter >/dev/null &&
        nsenter -t 1 -m -- test -x /usr/sbin/dockerd 2>/dev/null; then
        export FAULTS_DOCKERD_NSENTER=1
        exec nsenter -t 1 -m -- env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            FAULTS_DOCKERD_NSENTER=1 SANDBOX_STUDIO_CACHE="$CACHE" bash "$(readlink -f "$0")" "$@"
    fi
    die "dockerd is not installed (apt-get install docker.io)"
fi

running_pid() {
    [[ -f "$PIDFILE" ]] || return 1
    local pid
    pid="$(cat "$PIDFILE")"
    [[ -n "$pid" && -d "/proc/$pid" ]] || return 1
    grep -q dockerd "/proc/$pid/comm" 2>/dev/null || return 1
    echo "$pid"
}

answers() { curl -s --max-time 3 --unix-socket "$SOCK" http://d/_ping 2>/dev/null | grep -q OK; }

wait_gone() {
    local pid="$1"
    for _ in $(seq 1 120); do
        [[ -d "/proc/$pid" ]] || return 0
        sleep 0.25
    done
    die "dockerd (pid $pid) did not go away"
}

start() {
    if ! answers; then
        if pid="$(running_pid)"; then
            log "dockerd pid $pid does not answer: waiting for it"
        else
            mkdir -p "$DATA_ROOT" "$STATE"
            echo '{}' >"$STATE/daemon.json"
            log "starting dockerd on unix://$SOCK (data root $DATA_ROOT, log $LOG)"
            setsid nohup dockerd \
                --config-file "$STATE/daemon.json" --data-root "$DATA_ROOT" \
                --exec-root "$STATE/exec" --pidfile "$PIDFILE" -H "unix://$SOCK" \
                --bridge none --iptables=false --ip6tables=false \
                >>"$LOG" 2>&1 </dev/null &
        fi
        for _ in $(seq 1 240); do
            answers && break
            sleep 0.25
        done
        answers || { tail -20 "$LOG" >&2; die "the faults dockerd did not answer within 60 s"; }
    fi
    local ref
    for ref in "$@"; do
        docker -H "unix://$SOCK" image inspect "$ref" >/dev/null 2>&1 && continue
        docker -H "unix://$MAIN_SOCK" image inspect "$ref" >/dev/null 2>&1 ||
            die "$ref is missing in the main dockerd too: build it (sandbox-studio images build)"
        log "loading $ref from the main dockerd"
        docker -H "unix://$MAIN_SOCK" save "$ref" | docker -H "unix://$SOCK" load >/dev/null
    done
}

case "${1:-}" in
    start) shift; start "$@" ;;
    kill)
        pid="$(running_pid)" || die "the faults dockerd is not running"
        log "SIGKILL to dockerd pid $pid"
        kill -KILL "$pid"
        wait_gone "$pid"
        rm -f "$PIDFILE"
        ;;
    stop)
        if pid="$(running_pid)"; then
            kill -TERM "$pid"
            wait_gone "$pid"
        fi
        rm -f "$PIDFILE"
        ;;
    status) answers ;;
    socket) echo "unix://$SOCK" ;;
    *) sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
