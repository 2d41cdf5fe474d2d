#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the .deb with CPack, installs it into a clean Debian 13 root (debootstrap minbase,
# cached) with apt-get so its Depends are resolved from the Debian mirror, then runs the
# installed application there: --version, a headless one-shot run on the host's dockerd
# through the bind-mounted socket, and the window (offscreen) running code.
#
#   package.sh BUILD_DIR OUT_DIR
#
# Needs root (debootstrap, chroot, mounts), debootstrap, network access to the mirror
# ($DEBIAN_MIRROR, default http://deb.debian.org/debian, as packaging/buildroot/buildroot.sh)
# and dockerd on /var/run/docker.sock with the python sandbox image
# (sandbox-studio images ensure python).
set -euo pipefail
BUILD="$(cd "$1" && pwd)"; OUT="$2"
mkdir -p "$OUT"
CACHE="${SANDBOX_STUDIO_CACHE:-/var/cache/sandbox-studio}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SUITE=trixie
# Bump when the recipe of the clean root changes; the key names the cached root.
RECIPE="clean-root v1 $SUITE minbase"
KEY="$(echo "$RECIPE" | sha256sum | cut -c1-16)"
BASE="$CACHE/debroot-$KEY"
ARCHIVES="$CACHE/debroot-apt-archives"
log() { echo "[package] $*" >&2; }
fail() { echo "FAIL: $*" >&2; exit 1; }

[[ $EUID -eq 0 ]] || fail "needs root (debootstrap, chroot and mounts)"
command -v debootstrap >/dev/null || fail "debootstrap is missing (apt-get install debootstrap)"
command -v cpack >/dev/null || fail "cpack is missing (apt-get install cmake)"
curl -sf --max-time 3 --unix-socket /var/run/docker.sock http://localhost/_ping >/dev/null ||
    fail "dockerd does not answer on /var/run/docker.sock: start it (./studio.sh services)"

# 1. The package.
log "building the .deb with CPack"
rm -f "$BUILD"/sandbox-studio_*.deb
(cd "$BUILD" && cpack -G DEB >"$OUT/package-cpack.log" 2>&1) || { cat "$OUT/package-cpack.log"; fail "cpack failed"; }
DEB="$(ls "$BUILD"/sandbox-studio_*.deb | head -1)"
[[ -f "$DEB" ]] || fail "cpack made no sandbox-studio_*.deb in $BUILD"
dpkg-deb --info "$DEB" >"$OUT/package-info.txt"
dpkg-deb --contents "$DEB" >"$OUT/package-contents.txt"
log "$(basename "$DEB"): $(stat -c %s "$DEB") bytes"
grep -q "^ Depends: .*libqt6widgets6" "$OUT/package-info.txt" ||
    { cat "$OUT/package-info.txt"; fail "Depends was not computed (no libqt6widgets6): is CPACK_DEBIAN_PACKAGE_SHLIBDEPS on?"; }
for f in ./usr/bin/sandbox-studio ./usr/libexec/sandbox-studio/sandbox-agent \
         ./usr/share/applications/io.sandboxstudio.SandboxStudio.desktop \
         ./usr/share/metainfo/io.sandboxstudio.SandboxStudio.metainfo.xml \
         ./usr/share/icons/hicolor/scalable/apps/io.sandboxstudio.SandboxStudio.svg \
         ./usr/share/icons/hicolor/16x16/apps/io.sandboxstudio.SandboxStudio.png \
         ./usr/share/icons/hicolor/256x256/apps/io.sandboxstudio.SandboxStudio.png \
         ./usr/share/sandbox-studio/translations/sandbox-studio_de.qm; do
    grep -q " $f\$" "$OUT/package-contents.txt" || fail "the package lacks $f"
done

# 2. A clean Debian 13 root, made once per recipe and copied for each test run.
if [[ ! -f "$BASE/.sandbox-studio-complete" ]]; then
    log "creating the clean Debian 13 root $BASE (debootstrap minbase, about 2 minutes)"
    rm -rf "$BASE.partial"
    debootstrap --variant=minbase "$SUITE" "$BASE.partial" "$MIRROR" 2>&1 |
        grep --line-buffered -E '^(E|W):' >&2 || true
    [[ -x "$BASE.partial/usr/bin/apt-get" ]] || fail "debootstrap of $SUITE from $MIRROR failed"
    rm -rf "$BASE.partial/var/cache/apt/archives/"*.deb
    touch "$BASE.partial/.sandbox-studio-complete"
    mv "$BASE.partial" "$BASE"
fi
WORK="$(mktemp -d "$CACHE/debroot-run.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
log "copying the clean root"
cp -a "$BASE/." "$WORK/"
mkdir -p "$ARCHIVES/partial"
cp "$DEB" "$WORK/tmp/pkg.deb"

# 3. Install and run inside it, in a mount namespace of its own (the mounts vanish
# afterwards; "unchanged" propagation because inside a chroot / is no mount point).
cat >"$WORK/tmp/inside.sh" <<'INSIDE'
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin
apt-get update -qq
apt-get install -y -qq --no-install-recommends /tmp/pkg.deb >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 10; }
echo "installed: $(dpkg-query -W sandbox-studio)"
echo "version: $(sandbox-studio --version)"
echo 'print(1 + 41)' | sandbox-studio run --language python - >/tmp/run.out 2>/tmp/run.err || {
    echo "run exit $?"; cat /tmp/run.err; exit 11; }
echo "run output: $(cat /tmp/run.out)"
# The window too (offscreen platform, from libqt6gui6): it runs code and photographs itself.
echo 'print("from the window", 6 * 7)' >/tmp/window.py
HOME=/tmp/home QT_QPA_PLATFORM=offscreen timeout 120 sandbox-studio --e2e-screenshot /tmp/window.png \
    --e2e-code /tmp/window.py --e2e-language python >/tmp/window.log 2>&1 || {
    echo "window exit $?"; cat /tmp/window.log; exit 12; }
grep -q "^from the window 42" /tmp/window.log || { cat /tmp/window.log; exit 13; }
grep "^e2e: screenshot" /tmp/window.log
INSIDE
log "installing the package with apt-get and running it in the clean root"
unshare --mount --propagation unchanged -- /bin/bash -c '
set -euo pipefail
R="$1"; A="$2"
mount -t proc proc "$R/proc"
mount --rbind /dev "$R/dev"
mount --bind "$A" "$R/var/cache/apt/archives"
mkdir -p "$R/run"
touch "$R/run/docker.sock"
mount --bind /var/run/docker.sock "$R/run/docker.sock"
cp -L /etc/resolv.conf "$R/etc/resolv.conf"
exec chroot "$R" /bin/bash /tmp/inside.sh' package "$WORK" "$ARCHIVES" 2>&1 | tee "$OUT/package-install.log"
status=${PIPESTATUS[0]}
(( status == 0 )) || fail "installing or running the package in the clean root failed (status $status)"
grep -q "^version: sandbox-studio [0-9]" "$OUT/package-install.log" || fail "sandbox-studio --version printed nothing sensible"
grep -q "^run output: 42$" "$OUT/package-install.log" || fail "the one-shot run did not print 42"
grep -q "^e2e: screenshot /tmp/window.png saved" "$OUT/package-install.log" ||
    fail "the installed window did not run code and photograph itself"
echo "PASS: $(basename "$DEB") installs into a clean Debian 13 root and runs"
