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

setup() {
    services
    toolchain
    build
    images "$@"
}

case "${1:-}" in
    services) services ;;
    build) toolchain; build ;;
    launch)
        # The Python image is enough to start; others are built when first needed.
        setup python
        "${RUN[@]}" "$BUILD_DIR/bin/sandbox-studio" reap >/dev/null || true
        if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
            die "no display (DISPLAY is not set): run this from a desktop session, or try 'xvfb-run ./studio.sh launch'"
        fi
        log "launching Sandbox Studio"
        exec "${RUN[@]}" "$BUILD_DIR/bin/sandbox-studio" "${@:2}"
        ;;
    test)
        setup python javascript r cpp go java
        # The fault tests' own second dockerd (killed and restarted by them) is driven from
        # inside the build root through this host-side helper; its images are loaded there.
        tests/faults/faults-dockerd.sh start "$("${RUN[@]}" "$BUILD_DIR/bin/sandbox-studio" images ref python)"
        setsid nohup tests/faults/faults-dockerd.sh serve >/dev/null 2>&1 </dev/null &
        trap 'tests/faults/faults-dockerd.sh serve-stop || true; tests/faults/faults-dockerd.sh stop || true' EXIT
        log "running the test suite"
        "${RUN[@]}" ctest --preset "$PRESET" "${@:2}"
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
        sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
esac
