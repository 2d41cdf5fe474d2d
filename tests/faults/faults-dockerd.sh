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
#   faults-dockerd.sh serve           (on the host) carry out the commands of tests inside
#                                     the build root, which has no dockerd and may not enter
#                                     the host's mount namespace; they are passed through
#                                     /run/sandbox-studio-faults/requests (./studio.sh test
#                                     starts and stops it)
#   faults-dockerd.sh serve-stop      stop the helper (by its pid file)
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

SPOOL="$STATE/requests"
SERVE_PID="$STATE/serve.pid"

serve_pid() {
    [[ -f "$SERVE_PID" ]] || return 1
    local pid
    pid="$(cat "$SERVE_PID")"
    [[ -n "$pid" && -d "/proc/$pid" ]] || return 1
    echo "$pid"
}

if ! command -v dockerd >/dev/null; then
    # Inside the build root (a chroot without dockerd, which may not enter the host's mount
    # namespace): hand the command to `faults-dockerd.sh serve` running on the host, through
    # a spool directory under the shared /run.
    [[ "${1:-}" == socket ]] && { echo "unix://$SOCK"; exit 0; }
    serve_pid >/dev/null || die "dockerd is not here and the host helper does not run: start \
'tests/faults/faults-dockerd.sh serve &' on the host (./studio.sh test does)"
    id="$$-$RANDOM"
    printf '%s\n' "$@" >"$SPOOL/.$id.tmp"
    mv "$SPOOL/.$id.tmp" "$SPOOL/$id.cmd"
    for _ in $(seq 1 2400); do
        if [[ -f "$SPOOL/$id.rc" ]]; then
            cat "$SPOOL/$id.out" >&2 2>/dev/null || true
            rc="$(cat "$SPOOL/$id.rc")"
            rm -f "$SPOOL/$id.out" "$SPOOL/$id.rc"
            exit "$rc"
        fi
        sleep 0.25
    done
    die "the host helper did not answer within 10 minutes"
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
    serve)
        mkdir -p "$SPOOL"
        if pid="$(serve_pid)"; then
            log "the helper already runs (pid $pid)"
            exit 0
        fi
        echo $$ >"$SERVE_PID"
        log "serving requests from $SPOOL"
        trap 'rm -f "$SERVE_PID"' EXIT
        while [[ "$(cat "$SERVE_PID" 2>/dev/null)" == "$$" ]]; do
            for req in "$SPOOL"/*.cmd; do
                [[ -e "$req" ]] || continue
                id="$(basename "$req" .cmd)"
                mapfile -t args <"$req"
                rm -f "$req"
                case "${args[0]:-}" in
                    start | kill | stop | status) ;;
                    *) echo "refused: ${args[0]:-}" >"$SPOOL/$id.out"; echo 2 >"$SPOOL/$id.rc"; continue ;;
                esac
                rc=0
                bash "$(readlink -f "$0")" "${args[@]}" >"$SPOOL/$id.out" 2>&1 || rc=$?
                echo "$rc" >"$SPOOL/$id.rc.tmp" && mv "$SPOOL/$id.rc.tmp" "$SPOOL/$id.rc"
            done
            sleep 0.1
        done
        ;;
    serve-stop)
        if pid="$(serve_pid)"; then
            rm -f "$SERVE_PID"
            for _ in $(seq 1 40); do
                [[ -d "/proc/$pid" ]] || break
                sleep 0.1
            done
        fi
        ;;
    socket) echo "unix://$SOCK" ;;
    *) sed -n '3,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
