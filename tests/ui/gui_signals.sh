#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The real application (offscreen platform) ends the normal way on SIGTERM, SIGINT and
# SIGHUP: exit status 0, its pool sandbox removed (no container of its pid left, not even an
# Exited one) and its MCP bridge socket gone. Runs against the real dockerd; settings in a
# temporary home, so the person's own are never touched. Usage: gui_signals.sh SANDBOX_STUDIO
set -uo pipefail
APP="$1"
failures=0; passes=0
tmp="$(mktemp -d)"
pid=""
check() { # check NAME CONDITION-COMMAND...
    local name="$1"; shift
    if "$@"; then passes=$((passes + 1)); echo "PASS: $name"; else failures=$((failures + 1)); echo "FAIL: $name"; fi
}
owned() { # the containers (any state) whose owner label ends in /PID
    docker ps -a --filter label=io.sandbox-studio.owner \
        --format '{{.ID}} {{.State}} {{.Label "io.sandbox-studio.owner"}}' | awk -v p="/$1" '$3 ~ p"$"'
}
cleanup() {
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
    # Only this test's own sandboxes (owner pid of the process it started).
    if [[ -n "$pid" ]]; then owned "$pid" | awk '{print $1}' | xargs -r docker rm -f >/dev/null; fi
    rm -rf "$tmp"
}
trap cleanup EXIT

if ! docker info >/dev/null 2>&1; then
    echo "FAIL: dockerd is not reachable (start it: ./studio.sh services)"
    exit 1
fi

export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" \
    XDG_CACHE_HOME="$tmp/cache" QT_QPA_PLATFORM=offscreen
mkdir -p "$HOME"
export SANDBOX_STUDIO_MCP_BRIDGE_SOCKET="${SANDBOX_STUDIO_MCP_BRIDGE_SOCKET:-$tmp/bridge.sock}"
sock="$SANDBOX_STUDIO_MCP_BRIDGE_SOCKET"

# wait_exit PID: its exit status in $status within 60 s; 124 (and SIGKILLed) if still running.
wait_exit() {
    status=124
    for _ in $(seq 1 120); do
        if ! kill -0 "$1" 2>/dev/null; then wait "$1"; status=$?; return; fi
        sleep 0.5
    done
    kill -KILL "$1"; wait "$1" 2>/dev/null
}

for sig in TERM INT HUP; do
    rm -f "$sock"
    # Job control: a background job of a script would otherwise start with SIGINT ignored
    # (and the application keeps an ignored signal ignored, as nohup expects).
    set -m
    "$APP" -platform offscreen --language en >"$tmp/log" 2>&1 &
    pid=$!
    set +m
    # Up: the bridge socket listens and the pool's warm Python sandbox runs.
    up=0
    for _ in $(seq 1 240); do
        if [[ -S "$sock" ]] && owned "$pid" | grep -q ' running '; then up=1; break; fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
    done
    check "SIG$sig: the window came up with a warm sandbox and the bridge socket" test "$up" -eq 1
    if [[ $up -ne 1 ]]; then cat "$tmp/log"; owned "$pid"; continue; fi

    kill -"$sig" "$pid"
    wait_exit "$pid"
    check "SIG$sig: exits 0 (status $status; 124: still running after 60 s)" test "$status" -eq 0
    check "SIG$sig: says it is closing" grep -q "received; closing" "$tmp/log"
    left="$(owned "$pid")"
    check "SIG$sig: no container of the process is left ($left)" test -z "$left"
    check "SIG$sig: the bridge socket is removed" test ! -e "$sock"
    if [[ $status -ne 0 || -n "$left" ]]; then cat "$tmp/log"; fi
    owned "$pid" | awk '{print $1}' | xargs -r docker rm -f >/dev/null
    pid=""
done

# Under nohup (SIGHUP ignored on the way in) a hangup leaves the window open; SIGTERM closes it.
rm -f "$sock"
set -m
(trap '' HUP; exec "$APP" -platform offscreen >"$tmp/log" 2>&1) &
pid=$!
set +m
for _ in $(seq 1 240); do
    [[ -S "$sock" ]] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
done
kill -HUP "$pid"
sleep 2
check "an ignored SIGHUP stays ignored (nohup)" kill -0 "$pid"
kill -TERM "$pid"
wait_exit "$pid"
check "SIGTERM after an ignored SIGHUP exits 0 (status $status)" test "$status" -eq 0
owned "$pid" | awk '{print $1}' | xargs -r docker rm -f >/dev/null
pid=""

echo "passed $passes, failed $failures"
((failures == 0))
