#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Starts the real application under Xvfb, lets it run sample code on the real engine,
# and checks the screenshot it grabbed from the X server and the console it showed (the
# output, and the plot inline). Twice: in English, and in German through the locale
# (LANG=de_DE.UTF-8, no settings override) for e2e-main-window-de.png.
set -euo pipefail
APP="$1"; OUT="$2"; CODE="$3"
command -v xvfb-run >/dev/null || { echo "FAIL: xvfb-run is missing (install xvfb and xauth)"; exit 1; }
unset QT_QPA_PLATFORM
export QT_QPA_PLATFORM=xcb

shoot() { # NAME LANG EXIT_TEXT MENU
    local name="$1" lang="$2" exit_text="$3" menu="$4"
    local shot="$OUT/$name.png" log="$OUT/$name.log"
    rm -f "$shot"
    # A fresh profile: no restored code or settings interfere.
    HOME="$(mktemp -d)" LANG="$lang" LC_ALL="" LC_MESSAGES="" LANGUAGE="" \
        timeout 240 xvfb-run -a -s "-screen 0 1280x800x24" \
        "$APP" --e2e-screenshot "$shot" --e2e-code "$CODE" --e2e-language python >"$log" 2>&1 || {
        echo "FAIL: the application exited with $? ($name)"; cat "$log"; exit 1; }
    cat "$log"
    [[ -s "$shot" ]] || { echo "FAIL: no screenshot at $shot"; exit 1; }
    file "$shot" | grep -q "PNG image data, 1280 x 800" || { echo "FAIL: not a 1280x800 PNG: $(file "$shot")"; exit 1; }
    local size
    size=$(stat -c %s "$shot")
    (( size > 20000 )) || { echo "FAIL: screenshot is nearly blank ($size bytes)"; exit 1; }
    grep -q "mean: 20.92" "$log" || { echo "FAIL: the run's output is not in the console ($name)"; exit 1; }
    grep -q "$exit_text" "$log" || { echo "FAIL: the console does not show '$exit_text' ($name)"; exit 1; }
    grep -q "figure-001.png · image/png" "$log" || { echo "FAIL: the console does not mention the figure ($name)"; exit 1; }
    grep -q "e2e: inline images 1$" "$log" || { echo "FAIL: the figure is not shown inline in the console ($name)"; exit 1; }
    grep -q "^e2e: menus .*$menu" "$log" || { echo "FAIL: the menu bar does not show '$menu' ($name): $(grep '^e2e: menus' "$log")"; exit 1; }
    echo "PASS: screenshot $shot ($size bytes)"
}

shoot e2e-main-window C.UTF-8 "exit 0" "&File"
shoot e2e-main-window-de de_DE.UTF-8 "Status 0" "&Datei"
