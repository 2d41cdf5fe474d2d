#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sets up everything Sandbox Studio needs on a Debian/Ubuntu machine, then builds,
# launches or tests it.
#
#   ./studio.sh launch     set up, build, and open the application
#   ./studio.sh test       set up, build, and run the whole test suite
#   ./studio.sh bench      set up, build, and print the benchmarks (JSON)
#   ./studio.sh soak       set up, build, and run the full soak (1,000 runs; opt-in, long)
#   ./studio.sh services   install and start the container engine only
#   ./studio.sh mcp-clients  install the official MCP test clients (npm, Node 22) only
#   ./studio.sh build      set up the toolchain and build only
#   ./studio.sh shell      a shell inside the build root (where one is used)
#   ./studio.sh translations  update translations/*.ts from the sources (lupdate) and list
#                          the strings that still need a translation (exit 1 if any)
#   ./studio.sh package    build the .deb (CPack) into build-$PRESET
#
# Hosts with Qt >= 6.8 and KF6 SyntaxHighlighting build natively; others (Debian 12)
# build inside a cached Debian 13 build root (packaging/buildroot). Everything runs as
# root: package installs, dockerd and the build root need it.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$REPO"
PRESET="${SANDBOX_STUDIO_PRESET:-ci}"
BUILD_DIR="$REPO/build-$PRESET"
export SANDBOX_STUDIO_CACHE="${SANDBOX_STUDIO_CACHE:-/var/cache/sandbox-studio}"

log() { printf '\033[1;34m[studio]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[studio]\033[0m %s\n' "$*" >&2; exit 1; }

if [[ $EUID -ne 0 ]]; then
    command -v sudo >/dev/null || die "run as root (package installs, dockerd and the build root need it)"
    exec sudo --preserve-env=DISPLAY,XAUTHORITY,WAYLAND_DISPLAY,XDG_RUNTIME_DIR,CI,DEBIAN_MIRROR \
        "$0" "$@"
fi

apt_install() {
    local missing=()
    for pkg in "$@"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    ((${#missing[@]} == 0)) && return 0
    log "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

engine_answers() {
    curl -sf --max-time 3 --unix-socket /var/run/docker.sock http://localhost/_ping >/dev/null 2>&1
}

# --- container engine -------------------------------------------------------------------
services() {
    apt_install curl ca-certificates
    if ! command -v dockerd >/dev/null; then
        apt_install docker.io
    fi
    if [[ ! -f /etc/docker/daemon.json ]]; then
        # No default bridge: traffic to private ranges is forbidden on the machines this
        # project is developed on, and sandboxes default to network "none" anyway.
        mkdir -p /etc/docker
        echo '{"bridge": "none", "iptables": false, "ip6tables": false}' >/etc/docker/daemon.json
        log "wrote /etc/docker/daemon.json (default bridge disabled)"
    fi
    if engine_answers; then
        log "dockerd is running"
        return 0
    fi
    if [[ -d /run/systemd/system ]] && command -v systemctl >/dev/null; then
        log "starting docker.service"
        systemctl start docker || true
    fi
    if ! engine_answers; then
        log "starting dockerd (log: /var/log/sandbox-studio-dockerd.log)"
        nohup dockerd >/var/log/sandbox-studio-dockerd.log 2>&1 &
    fi
    for _ in $(seq 1 60); do
        engine_answers && { log "dockerd answers /_ping"; return 0; }
        sleep 0.5
    done
    tail -20 /var/log/sandbox-studio-dockerd.log >&2 || true
    die "dockerd did not answer /_ping within 30 s"
}

# --- podman (second local backend) -----------------------------------------------------
PODMAN_SOCK=/run/podman/podman.sock
PODMAN_LOG=/var/log/sandbox-studio-podman.log

podman_answers() {
    curl -sf --max-time 3 --unix-socket "$PODMAN_SOCK" http://d/_ping >/dev/null 2>&1
}

# Rootful podman with runc and cgroupfs (crun fails on this hybrid cgroup v1 host) and
# default ulimits the host's hard limits allow (PLATFORM.md). Written only when absent.
podman_service() {
    command -v podman >/dev/null || apt_install podman
    # Sandboxes run with an init process (HostConfig.Init): podman's is catatonit.
    apt_install catatonit
    if [[ ! -f /etc/containers/containers.conf ]]; then
        mkdir -p /etc/containers
        cat >/etc/containers/containers.conf <<'CONF'
# Written by Sandbox Studio's studio.sh (PLATFORM.md: runc, cgroupfs, ulimits).
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF
        log "wrote /etc/containers/containers.conf (runc, cgroupfs, default ulimits)"
    fi
    if podman_answers; then
        log "podman service is running ($PODMAN_SOCK)"
    else
        mkdir -p /run/podman
        log "starting the podman service (log: $PODMAN_LOG)"
        nohup podman system service --time=0 "unix://$PODMAN_SOCK" >>"$PODMAN_LOG" 2>&1 &
        for _ in $(seq 1 60); do
            podman_answers && break
            sleep 0.5
        done
        podman_answers || { tail -20 "$PODMAN_LOG" >&2 || true; die "the podman service did not answer /_ping within 30 s"; }
        log "podman answers /_ping"
    fi
}

# The language images the test suite needs, copied from dockerd into podman's storage
# when podman lacks them (there is no registry to pull from).
podman_images() {
    local ref
    for ref in "$@"; do
        podman image exists "$ref" && continue
        log "loading $ref into podman (docker save | podman load)"
        docker save "$ref" | podman load -q >/dev/null || die "could not load $ref into podman"
    done
}

# --- toolchain --------------------------------------------------------------------------
native_toolchain() {
    [[ "${SANDBOX_STUDIO_BUILDROOT:-auto}" == "always" ]] && return 1
    command -v qmake6 >/dev/null || return 1
    local v
    v="$(qmake6 -query QT_VERSION 2>/dev/null || echo 0)"
    [[ "$(printf '%s\n6.8.0\n' "$v" | sort -V | head -1)" == "6.8.0" ]] || return 1
    dpkg -s libkf6syntaxhighlighting-dev qt6-httpserver-dev qt6-websockets-dev \
        nlohmann-json3-dev libcurl4-openssl-dev libarchive-dev >/dev/null 2>&1
}

RUN=()
toolchain() {
    if native_toolchain; then
        log "building natively (Qt $(qmake6 -query QT_VERSION))"
        apt_install debootstrap xvfb xauth fonts-dejavu-core
        RUN=()
    else
        log "this host lacks Qt >= 6.8 / KF6: using the Debian 13 build root"
        apt_install debootstrap
        packaging/buildroot/buildroot.sh ensure
        RUN=(packaging/buildroot/buildroot.sh exec)
    fi
}

build() {
    log "configuring and building (preset $PRESET)"
    "${RUN[@]}" cmake --preset "$PRESET" >/dev/null
    "${RUN[@]}" cmake --build --preset "$PRESET"
}

images() {
    log "ensuring sandbox images: $*"
    "${RUN[@]}" "$BUILD_DIR/bin/sandbox-studio" images ensure "$@"
    # Images of older recipes only take disk space.
    "${RUN[@]}" "$BUILD_DIR/bin/sandbox-studio" images prune >/dev/null || true
}

# The official MCP clients the MCP tests drive (@modelcontextprotocol/sdk v1, /client v2 and
# /conformance, with Node 22 from the npm registry), cached under
# $SANDBOX_STUDIO_CACHE/mcp-clients-<hash of tests/mcp/package-lock.json>. Installed where
# the tests run (inside the build root when one is used).
mcp_clients() {
    log "ensuring the MCP test clients (tests/mcp/package-lock.json)"
    "${RUN[@]}" tests/mcp/install-clients.sh >/dev/null
}

setup() {
    services
    toolchain
    build
    images "$@"
}

case "${1:-}" in
    services) services; podman_service ;;
    build) toolchain; build ;;
    launch)
        # No display, no window: say so before the (long, first-time) setup and build.
        if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
            die "no display (neither DISPLAY nor WAYLAND_DISPLAY is set): run this from a desktop session, try 'xvfb-run ./studio.sh launch', or use a command such as 'sandbox-studio run FILE' (see 'sandbox-studio --help')"
        fi
        # The Python image is enough to start; others are built when first needed.
        setup python
        # The backend picker offers Local Podman too: its service and the Python image.
        podman_service
        podman_images "$("${RUN[@]}" "$BUILD_DIR/bin/sandbox-studio" images ref python)"
        "${RUN[@]}" "$BUILD_DIR/bin/sandbox-studio" reap >/dev/null || true
        log "launching Sandbox Studio"
        exec "${RUN[@]}" "$BUILD_DIR/bin/sandbox-studio" "${@:2}"
        ;;
    mcp-clients)
        toolchain
        mcp_clients
        ;;
    test)
        setup python javascript r cpp go java
        mcp_clients
        # The other backends' suites: Podman (its service, the images copied from dockerd)
        # and Docker over mutual TLS (a second dockerd with certificates made this run).
        podman_service
        refs=()
        for lang in python javascript r cpp go java; do
            refs+=("$("${RUN[@]}" "$BUILD_DIR/bin/sandbox-studio" images ref "$lang")")
        done
        podman_images "${refs[@]}"
        tests/fixtures/tls-dockerd/tls-dockerd.sh start "${refs[@]}"
        # The fault tests' own second dockerd (killed and restarted by them) is driven from
        # inside the build root through this host-side helper; its images are loaded there.
        tests/faults/faults-dockerd.sh start "$("${RUN[@]}" "$BUILD_DIR/bin/sandbox-studio" images ref python)"
        setsid nohup tests/faults/faults-dockerd.sh serve >/dev/null 2>&1 </dev/null &
        trap 'tests/fixtures/tls-dockerd/tls-dockerd.sh stop || true; tests/faults/faults-dockerd.sh serve-stop || true; tests/faults/faults-dockerd.sh stop || true' EXIT
        # One test at a time by default: on a 2-core machine, parallel suites made the
        # GUI's timed waits flaky. SANDBOX_STUDIO_TEST_JOBS=2 halves the time (suites that
        # share a daemon they restart hold a ctest RESOURCE_LOCK).
        log "running the test suite"
        "${RUN[@]}" ctest --preset "$PRESET" --parallel "${SANDBOX_STUDIO_TEST_JOBS:-1}" "${@:2}"
        ;;
    soak)
        # The full soak (1,000 runs, 8 at a time; figures in build-ci/test-output/soak-full.json).
        setup python javascript r cpp go java
        log "running the full soak"
        "${RUN[@]}" ctest --test-dir "$BUILD_DIR" -L soak --output-on-failure "${@:2}"
        ;;
    bench)
        setup python
        "${RUN[@]}" "$BUILD_DIR/bin/sandbox-studio" bench cold "${@:2}"
        ;;
    translations)
        # After merging branches with new tr() strings: refresh the .ts, then translate the
        # listed strings (Qt Linguist: linguist translations/sandbox-studio_de.ts, or an
        # editor: fill <translation> and drop type="unfinished") and commit. The ctest
        # ui_translations fails while any is left.
        toolchain
        "${RUN[@]}" bash -c '
            set -euo pipefail
            LUPDATE=$(command -v lupdate6 || command -v /usr/lib/qt6/bin/lupdate || command -v lupdate)
            status=0
            for ts in translations/*.ts; do
                "$LUPDATE" -no-obsolete -locations none ui app -ts "$ts" | tail -1
                left=$(awk "/<name>/ {gsub(/ *<\/?name>/, \"\"); ctx=\$0}
                            /<source>/ {src=\$0; gsub(/ *<\/?source>/, \"\", src)}
                            /type=\"unfinished\"/ {print \"  \" ctx \": \" src}" "$ts")
                if [[ -n "$left" ]]; then
                    echo "$ts: $(grep -c . <<<"$left") strings need a translation:"
                    echo "$left"
                    status=1
                else
                    echo "$ts: complete"
                fi
            done
            exit $status'
        ;;
    package)
        toolchain
        build
        (cd "$BUILD_DIR" && "${RUN[@]}" cpack -G DEB)
        ;;
    shell)
        toolchain
        exec "${RUN[@]}" bash
        ;;
    *)
        sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
esac
