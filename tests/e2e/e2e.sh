#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Starts the real application under Xvfb, lets it run sample code on the real engine,
# and checks the screenshot it grabbed from the X server and the console it showed (the
# output, and the plot inline).
set -euo pipefail
APP="$1"; OUT="$2"; CODE="$3"
SHOT="$OUT/e2e-main-window.png"
LOG="$OUT/e2e-main-window.log"
rm -f "$SHOT"
command -v xvfb-run >/dev/null || { echo "FAIL: xvfb-run is missing (install xvfb and xauth)"; exit 1; }
unset QT_QPA_PLATFORM
export QT_QPA_PLATFORM=xcb
export HOME="$(mktemp -d)"   # a fresh profile: no restored code interferes
timeout 240 xvfb-run -a -s "-screen 0 1280x800x24" \
    "$APP" --e2e-screenshot "$SHOT" --e2e-code "$CODE" --e2e-language python >"$LOG" 2>&1 || {
    echo "FAIL: the application exited with $?"; cat "$LOG"; exit 1; }
cat "$LOG"
[[ -s "$SHOT" ]] || { echo "FAIL: no screenshot at $SHOT"; exit 1; }
file "$SHOT" | grep -q "PNG image data, 1280 x 800" || { echo "FAIL: not a 1280x800 PNG: $(file "$SHOT")"; exit 1; }
size=$(stat -c %s "$SHOT")
(( size > 20000 )) || { echo "FAIL: screenshot is nearly blank ($size bytes)"; exit 1; }
grep -q "mean: 20.92" "$LOG" || { echo "FAIL: the run's output is not in the console"; exit 1; }
grep -q "exit 0" "$LOG" || { echo "FAIL: the console does not show exit 0"; exit 1; }
grep -q "figure-001.png · image/png" "$LOG" || { echo "FAIL: the console does not mention the figure"; exit 1; }
grep -q "e2e: inline images 1$" "$LOG" || { echo "FAIL: the figure is not shown inline in the console"; exit 1; }
echo "PASS: screenshot $SHOT ($size bytes)"
