#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Debian 13 build root for hosts that lack Qt >= 6.8 and KF6 (e.g. Debian 12).
#
#   buildroot.sh ensure          create the root unless a root with the same key exists
#   buildroot.sh path            print the root's directory
#   buildroot.sh exec CMD ARGS   run CMD inside the root (private mount namespace)
#
# The root lives outside the repository under $SANDBOX_STUDIO_CACHE (default
# /var/cache/sandbox-studio), keyed by packages.txt and RECIPE_VERSION, so an
# unchanged recipe is reused and a changed one is rebuilt.
set -euo pipefail

RECIPE_VERSION=1
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CACHE="${SANDBOX_STUDIO_CACHE:-/var/cache/sandbox-studio}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SUITE=trixie

packages() { grep -v '^\s*#' "$HERE/packages.txt" | grep -v '^\s*$' | tr '\n' ',' | sed 's/,$//'; }
key() { { echo "$RECIPE_VERSION $SUITE"; cat "$HERE/packages.txt"; } | sha256sum | cut -c1-16; }
ROOT="$CACHE/buildroot-$(key)"

log() { echo "[buildroot] $*" >&2; }

ensure() {
    if [[ -f "$ROOT/.sandbox-studio-complete" ]]; then
        return 0
    fi
    command -v debootstrap >/dev/null || {
        log "installing debootstrap"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    }
    mkdir -p "$CACHE"
    local tmp="$ROOT.partial"
    rm -rf "$tmp"
    log "creating Debian 13 build root in $ROOT (about 2 minutes, 1.5 GB)"
    local start=$SECONDS
    # debootstrap prints one line per step; keep them visible as progress.
    debootstrap --variant=minbase --include="$(packages)" "$SUITE" "$tmp" "$MIRROR" 2>&1 |
        grep --line-buffered -E '^(I|W|E):' | sed -u 's/^/[buildroot] /' >&2
    [[ -x "$tmp/usr/bin/cmake" ]] || { log "debootstrap failed"; exit 1; }
    rm -rf "$tmp/var/cache/apt/archives/"*.deb
    touch "$tmp/.sandbox-studio-complete"
    mv "$tmp" "$ROOT"
    log "build root ready after $((SECONDS - start)) s"
    # Older roots (other keys) are no longer needed.
    for old in "$CACHE"/buildroot-*; do
        [[ "$old" == "$ROOT" || ! -d "$old" ]] && continue
        log "removing outdated build root $old"
        rm -rf "$old"
    done
}

run_inside() {
    ensure
    local parent
    parent="$(dirname "$REPO")"
    # A private mount namespace: every bind mount below vanishes when the command exits.
    local inner
    inner=$(cat <<'INNER'
set -euo pipefail
ROOT="$1"; PARENT="$2"; shift 2
mount -t proc proc "$ROOT/proc"
mount --rbind /sys "$ROOT/sys"
mount --rbind /dev "$ROOT/dev"
mount --bind /run "$ROOT/run"
mount --bind /tmp "$ROOT/tmp"
mkdir -p "$ROOT$PARENT"
mount --rbind "$PARENT" "$ROOT$PARENT"
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
cp -L /etc/ssl/certs/ca-certificates.crt "$ROOT/usr/local/share/host-ca-certificates.crt" 2>/dev/null || true
# The host's trust store (it may hold a corporate or egress CA) is what the application
# inside must trust too, and what sandboxes get when "trust the host's CA" is on.
if [[ -f /etc/ssl/certs/ca-certificates.crt ]]; then
    mount --bind /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/ca-certificates.crt"
fi
for tool in /usr/bin/docker /usr/local/bin/docker; do
    if [[ -x "$tool" ]]; then
        touch "$ROOT/usr/local/bin/docker"
        mount --bind "$tool" "$ROOT/usr/local/bin/docker"
        break
    fi
done
# The host's kubectl (tests drive the Kubernetes API stand-in with it): its folder, since
# packaged kubectl is often a dispatcher that runs a versioned sibling (kubectl.1.32).
kubectl_host="$(command -v kubectl 2>/dev/null || true)"
if [[ -n "$kubectl_host" ]]; then
    mkdir -p "$ROOT/opt/host-kubectl"
    mount --bind "$(dirname "$(readlink -f "$kubectl_host")")" "$ROOT/opt/host-kubectl"
fi
# The caller's home (settings, autosaved code) stays the same inside and outside.
if [[ -n "${HOST_HOME:-}" && -d "$HOST_HOME" && "$HOST_HOME" != "/" ]]; then
    mkdir -p "$ROOT$HOST_HOME"
    mount --bind "$HOST_HOME" "$ROOT$HOST_HOME"
fi
if [[ -n "${XAUTHORITY:-}" && -f "$XAUTHORITY" ]]; then
    mkdir -p "$ROOT$(dirname "$XAUTHORITY")"
    touch "$ROOT$XAUTHORITY"
    mount --bind "$XAUTHORITY" "$ROOT$XAUTHORITY"
fi
# The caller's folder, when the root does not have it (e.g. /var/tmp/work) or has it only
# as the empty mount point left by an earlier call: relative paths given to the command
# keep working. Folders the root has with content (/usr, /etc, ...) are never hidden.
if [[ -d "${PWD_INSIDE:-}" && "$PWD_INSIDE" != / ]] &&
    { [[ ! -e "$ROOT$PWD_INSIDE" ]] || [[ -d "$ROOT$PWD_INSIDE" && -z "$(ls -A "$ROOT$PWD_INSIDE")" ]]; }; then
    mkdir -p "$ROOT$PWD_INSIDE"
    mount --bind "$PWD_INSIDE" "$ROOT$PWD_INSIDE"
fi
cd "$ROOT"
exec chroot "$ROOT" /usr/bin/env HOME="${HOST_HOME:-/root}" PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
    LANG=C.UTF-8 ${DISPLAY:+DISPLAY=$DISPLAY} ${XAUTHORITY:+XAUTHORITY=$XAUTHORITY} \
    ${QT_QPA_PLATFORM:+QT_QPA_PLATFORM=$QT_QPA_PLATFORM} ${CI:+CI=$CI} \
    ${WAYLAND_DISPLAY:+WAYLAND_DISPLAY=$WAYLAND_DISPLAY} ${XDG_RUNTIME_DIR:+XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR} \
    ${DOCKER_HOST:+DOCKER_HOST=$DOCKER_HOST} ${DOCKER_CERT_PATH:+DOCKER_CERT_PATH=$DOCKER_CERT_PATH} \
    ${DOCKER_TLS_VERIFY:+DOCKER_TLS_VERIFY=$DOCKER_TLS_VERIFY} ${DEBIAN_MIRROR:+DEBIAN_MIRROR=$DEBIAN_MIRROR} \
    ${SANDBOX_STUDIO_CACHE:+SANDBOX_STUDIO_CACHE=$SANDBOX_STUDIO_CACHE} ${QT_LOGGING_RULES:+QT_LOGGING_RULES=$QT_LOGGING_RULES} \
    /bin/bash -c 'cd "$0" && exec "$@"' "$PWD_INSIDE" "$@"
INNER
)
    # Standard input stays the caller's (e.g. `run -` reads code from it).
    exec unshare --mount --propagation private -- /bin/bash -c "$inner" buildroot "$ROOT" "$parent" "$@"
}

case "${1:-}" in
    ensure) ensure ;;
    path) echo "$ROOT" ;;
    key) key ;;
    exec)
        shift
        export PWD_INSIDE="${PWD}"
        export HOST_HOME="${HOME:-/root}"
        run_inside "$@"
        ;;
    *)
        echo "usage: $0 ensure | path | key | exec CMD [ARGS...]" >&2
        exit 2
        ;;
esac
