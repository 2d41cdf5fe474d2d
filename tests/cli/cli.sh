#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The command line against the real engine: exit statuses, stdin, --json, --file,
# --artifacts-dir, limits and clear errors. Usage: cli.sh SANDBOX_STUDIO CASES_DIR
set -uo pipefail
APP="$1"; CASES="$2"
failures=0; passes=0
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
check() { # check NAME CONDITION-COMMAND...
    local name="$1"; shift
    if "$@"; then passes=$((passes + 1)); echo "PASS: $name"; else failures=$((failures + 1)); echo "FAIL: $name"; fi
}

# No display needed for version and help.
out="$(env -u DISPLAY -u WAYLAND_DISPLAY "$APP" --version)"
check "--version without a display" grep -q "^sandbox-studio [0-9]" <<<"$out"
out="$(env -u DISPLAY "$APP" --help)"
check "--help lists run" grep -q "run \[options\] FILE" <<<"$out"

# A typo or a forgotten `run` is an unknown command (exit 2), never the window; without a
# display the application says so instead of Qt's platform plugin abort.
nodisplay=(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM)
"${nodisplay[@]}" "$APP" frobnicate >"$tmp/out" 2>"$tmp/err"
status=$?
check "an unknown command exits 2" test "$status" -eq 2
check "an unknown command is named" grep -q "sandbox-studio: unknown command 'frobnicate'" "$tmp/err"
check "an unknown command points to --help" grep -q -- "--help" "$tmp/err"
check "an unknown command does not start Qt" bash -c "! grep -qi 'xcb\|platform plugin' '$tmp/err'"
printf 'print(1)\n' >"$tmp/hello.py"
"${nodisplay[@]}" "$APP" "$tmp/hello.py" >"$tmp/out" 2>"$tmp/err"
status=$?
check "a file without run exits 2" test "$status" -eq 2
check "a file without run suggests run" grep -q "sandbox-studio run $tmp/hello.py" "$tmp/err"
QT_QPA_PLATFORM=offscreen "$APP" -platform offscreen "$tmp/missing.py" >"$tmp/out" 2>"$tmp/err"
status=$?
check "a missing file after GUI options exits 2" test "$status" -eq 2
check "a missing file after GUI options is named" grep -q "unknown command '$tmp/missing.py'" "$tmp/err"
"${nodisplay[@]}" "$APP" >"$tmp/out" 2>"$tmp/err"
status=$?
check "no display exits 2" test "$status" -eq 2
check "no display is explained" grep -q "sandbox-studio: no display" "$tmp/err"
check "no display suggests xvfb-run and run" bash -c "grep -q xvfb-run '$tmp/err' && grep -q 'sandbox-studio run FILE' '$tmp/err'"
check "no display does not reach Qt" bash -c "! grep -qi 'xcb\|platform plugin' '$tmp/err'"
"${nodisplay[@]}" "$APP" --language de >"$tmp/out" 2>"$tmp/err"
status=$?
check "GUI options are not commands (no display, exit 2)" bash -c "test $status -eq 2 && grep -q 'no display' '$tmp/err'"

# Code from stdin; the exit status is the program's.
echo 'import sys; print("from stdin"); sys.exit(7)' | "$APP" run --language python - >"$tmp/out" 2>"$tmp/err"
status=$?
check "run - exits with the program's status (7)" test "$status" -eq 7
check "run - prints the program's stdout" grep -q "from stdin" "$tmp/out"

# Language from the extension, stderr kept apart.
printf 'import sys\nprint("to out")\nprint("to err", file=sys.stderr)\n' >"$tmp/two.py"
"$APP" run "$tmp/two.py" >"$tmp/out" 2>"$tmp/err"
check "stdout and stderr apart" bash -c "grep -q 'to out' '$tmp/out' && ! grep -q 'to err' '$tmp/out' && grep -q 'to err' '$tmp/err'"

# --json with --file and an artifact.
"$APP" run --json --file "$CASES/data/orders.csv" "$CASES/python/orders_report.py" >"$tmp/json"
status=$?
check "--json run exits 0" test "$status" -eq 0
check "--json has exit_code 0" grep -q '"exit_code": 0' "$tmp/json"
check "--json carries summary.txt" grep -q '"name": "summary.txt"' "$tmp/json"
check "--json carries artifact bytes" grep -q '"data_base64": "dG9wX2N1c3RvbWVyPUJvYgo="' "$tmp/json"

# --artifacts-dir writes plots and says where; without it, the plot is named, not lost silently.
"$APP" run --artifacts-dir "$tmp/art" "$CASES/python/sales_summary.py" >/dev/null 2>"$tmp/err"
check "--artifacts-dir writes the figure" bash -c "head -c 8 '$tmp/art/output/figure-001.png' | grep -q PNG"
check "--artifacts-dir says where" grep -q "saved 1 artifact under $tmp/art (e.g. $tmp/art/output/figure-001.png)" "$tmp/err"
"$APP" run "$CASES/python/sales_summary.py" >/dev/null 2>"$tmp/err"
check "artifacts not saved are named" grep -q "1 artifact (output/figure-001.png) not saved: pass --artifacts-dir DIR" "$tmp/err"

# Bad options are usage errors (2), like every other bad input.
"$APP" run --bogus "$tmp/two.py" >/dev/null 2>"$tmp/err"
status=$?
check "an unknown option exits 2" test "$status" -eq 2
check "an unknown option is named" grep -q "bogus" "$tmp/err"
"$APP" run "$tmp/two.py" --timeout >/dev/null 2>&1
check "a missing option value exits 2" test $? -eq 2

# Ctrl+C (SIGINT) and SIGTERM stop the run and remove its sandbox; exit 130.
printf 'import time\nprint("spinning", flush=True)\nwhile True: pass\n' >"$tmp/spin.py"
for sig in INT TERM; do
    "$APP" run --timeout 120 "$tmp/spin.py" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    for _ in $(seq 1 100); do grep -q spinning "$tmp/out" && break; sleep 0.2; done
    kill -"$sig" "$pid"
    wait "$pid"
    status=$?
    check "SIG$sig during run exits 130" test "$status" -eq 130
    check "SIG$sig during run says it stops the run" grep -q "stopping the run and removing its sandbox" "$tmp/err"
    left=$(curl -s --unix-socket /var/run/docker.sock 'http://d/containers/json?all=1' |
        grep -o "\"io.sandbox-studio.owner\":\"[^\"]*/$pid\"" | wc -l)
    check "SIG$sig during run leaves no sandbox of the run" test "$left" -eq 0
done

# Limits: timeout kills and says so.
echo 'import time; time.sleep(30)' | "$APP" run --language python --timeout 1 - >/dev/null 2>"$tmp/err"
status=$?
check "--timeout kills (137)" test "$status" -eq 137
check "--timeout is reported" grep -q "time limit" "$tmp/err"

# Clear errors: unknown language, bad memory, unreachable engine.
echo 'x' | "$APP" run --language cobol - >/dev/null 2>"$tmp/err"
status=$?
check "unknown language is a usage error (2)" test "$status" -eq 2
check "unknown language is named" grep -q "Unknown language 'cobol'" "$tmp/err"
echo 'print(1)' | "$APP" run --language python --memory lots - >/dev/null 2>"$tmp/err"
status=$?
check "bad --memory is a usage error (2)" test "$status" -eq 2
check "bad --memory is explained" grep -q "memory takes a size" "$tmp/err"
echo 'print(1)' | "$APP" run --language python --memory 1k - >/dev/null 2>"$tmp/err"
check "a tiny --memory names what was asked" grep -q "memory limit 1024 bytes is below the minimum" "$tmp/err"
# Limits per language: a memory limit below what the language needs is refused.
echo 'class A { public static void main(String[] a) {} }' | "$APP" run --language java --memory 64m - >/dev/null 2>"$tmp/err"
status=$?
check "java below its minimum memory is a usage error (2)" test "$status" -eq 2
check "the minimum is named" grep -q "below what Java needs (at least 128 MiB)" "$tmp/err"
# The applied limits and the limit hit come back in --json.
echo 'print("x" * 5000)' | "$APP" run --json --language python --output-limit 1k --work-dir-size 32m - >"$tmp/json" 2>/dev/null
check "--json has the applied limits" grep -q '"work_dir_bytes": 33554432' "$tmp/json"
check "--json names the limit hit" python3 -c "import json,sys; j=json.load(open('$tmp/json')); sys.exit(0 if j['limits_hit']==['output'] and j['policy']['name']=='standard' else 1)"

# Policy: block stops the run (126), ask needs --allow-ask, check prints findings.
printf "# /var/run/docker.sock in a comment is fine\nopen('/var/run/docker.sock')\n" >"$tmp/sock.py"
"$APP" run "$tmp/sock.py" >"$tmp/out" 2>"$tmp/err"
status=$?
check "a blocked run exits 126" test "$status" -eq 126
check "a blocked run says why" grep -q "blocked by policy 'standard': line 2: engine-socket (critical)" "$tmp/err"
echo 'import ctypes; print("ran")' | "$APP" run --language python - >"$tmp/out" 2>"$tmp/err"
status=$?
check "ask without --allow-ask is refused (126)" bash -c "test $status -eq 126 && grep -q 'allow-ask' '$tmp/err' && ! grep -q ran '$tmp/out'"
echo 'import ctypes; print("ran")' | "$APP" run --allow-ask --language python - >"$tmp/out" 2>/dev/null
check "--allow-ask runs it" grep -q "ran" "$tmp/out"
echo 'import ctypes; print("ran")' | "$APP" run --policy permissive --json --language python - >"$tmp/json" 2>/dev/null
check "--policy permissive warns and runs" python3 -c "import json,sys; j=json.load(open('$tmp/json')); f=j['policy_findings']; sys.exit(0 if j['stdout']=='ran\n' and f[0]['rule']=='py-native' and f[0]['action']=='warn' else 1)"
"$APP" policy check "$tmp/sock.py" >"$tmp/out"
status=$?
check "policy check exits 126 for a block" test "$status" -eq 126
check "policy check prints FILE:LINE findings" grep -q "sock.py:2: block \[critical, engine-socket\]" "$tmp/out"
cat >"$tmp/team.json" <<'JSON'
{"format": 1, "name": "team", "base": "permissive",
 "rules": [{"id": "no-requests", "languages": ["python"], "import": "requests",
            "severity": "high", "action": "block", "message": "no internet libraries"}]}
JSON
echo 'import requests  # no internet' >"$tmp/req.py"
"$APP" policy check --policy "$tmp/team.json" --json "$tmp/req.py" >"$tmp/json"
check "a policy file's rule blocks" python3 -c "import json,sys; j=json.load(open('$tmp/json')); sys.exit(0 if j['verdict']=='block' and j['findings'][0]['rule']=='no-requests' else 1)"
echo '{"rules": [{"id": "x", "pattern": "(", "severity": "low"}]}' >"$tmp/bad.json"
"$APP" run --policy "$tmp/bad.json" "$tmp/req.py" >/dev/null 2>"$tmp/err"
status=$?
check "a bad policy file is a usage error (2) with the reason" bash -c "test $status -eq 2 && grep -q 'bad pattern' '$tmp/err'"

"$APP" run "$tmp/does-not-exist.py" >/dev/null 2>"$tmp/err"
status=$?
check "a missing program file is a usage error (2)" test "$status" -eq 2
check "a missing program file is named" grep -q "does-not-exist.py" "$tmp/err"
echo 'print(1)' | "$APP" run --language python --host unix:///nonexistent.sock - >/dev/null 2>"$tmp/err"
status=$?
check "unreachable engine exits 125" test "$status" -eq 125
check "unreachable engine names the endpoint" grep -q "nonexistent.sock" "$tmp/err"

# Tools' own files (Go's telemetry counters) are not artifacts.
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("go ok") }\n' >"$tmp/hello.go"
"$APP" run --json "$tmp/hello.go" >"$tmp/json" 2>/dev/null
check "go run prints" grep -q 'go ok' "$tmp/json"
check "go run brings back no tool files" grep -q '"artifacts": \[\]' "$tmp/json"

# Dependencies: --library installs first (with network) while the program has none;
# an unknown package fails with pip's own words; deps list shows the cache.
"$APP" run --library humanize "$CASES/python/humanize_sizes.py" >"$tmp/out" 2>"$tmp/err"
status=$?
check "--library run exits 0" test "$status" -eq 0
check "--library package is importable" grep -q "rows processed: 1,234,567" "$tmp/out"
check "--library says what it installed" grep -Eq "installed: humanize|dependencies from cache: humanize" "$tmp/err"
echo 'print(1)' | "$APP" run --language python --library nosuchpkg-sandbox-xyz - >/dev/null 2>"$tmp/err"
status=$?
check "unknown --library exits 125" test "$status" -eq 125
check "unknown --library shows pip's message" grep -q "No matching distribution found for nosuchpkg-sandbox-xyz" "$tmp/err"
"$APP" deps list >"$tmp/out" 2>&1
check "deps list shows the cache" grep -q "^sandbox-studio-deps-python-" "$tmp/out"

# images prune removes images of outdated recipes and keeps the current ones.
current="$("$APP" images ref python)"
curl -sf --unix-socket /var/run/docker.sock -X POST \
    "http://localhost/v1.41/images/$current/tag?repo=sandbox-studio/python&tag=r000000000000" >/dev/null
check "an outdated tag exists before prune" bash -c "'$APP' images list >/dev/null && curl -sf --unix-socket /var/run/docker.sock http://localhost/v1.41/images/sandbox-studio/python:r000000000000/json >/dev/null"
"$APP" images prune >"$tmp/out" 2>&1
check "prune removes the outdated tag" grep -q "removed sandbox-studio/python:r000000000000" "$tmp/out"
check "prune keeps the current image" curl -sf --unix-socket /var/run/docker.sock "http://localhost/v1.41/images/$current/json" -o /dev/null

# Files in and out: --file takes folders, --get brings back files and folders into --get-dir;
# paths that leave the work directory are refused with a clear message.
mkdir -p "$tmp/inputs/nested"; echo "alpha" >"$tmp/inputs/a.txt"; echo "beta" >"$tmp/inputs/nested/b.txt"
printf 'import os\nos.makedirs("results/deep", exist_ok=True)\nopen("results/deep/sum.txt","w").write(open("inputs/a.txt").read().strip()+open("inputs/nested/b.txt").read())\nos.symlink("/etc/passwd", "pw")\n' >"$tmp/get.py"
"$APP" run --file "$tmp/inputs" --get results --get inputs/a.txt --get-dir "$tmp/got" "$tmp/get.py" >"$tmp/out" 2>"$tmp/err"
status=$?
check "--file DIR and --get exit 0" test "$status" -eq 0
check "--get brings back a folder" grep -qx "alphabeta" "$tmp/got/results/deep/sum.txt"
check "--get brings back a file" grep -qx "alpha" "$tmp/got/inputs/a.txt"
"$APP" run --file "$tmp/inputs" --get pw --get nothing-here --get-dir "$tmp/got2" "$tmp/get.py" >/dev/null 2>"$tmp/err"
status=$?
check "--get of a link leaving the work directory fails the run (1)" test "$status" -eq 1
check "--get names the link's target" grep -q "pw: leads outside the work directory (to /etc/passwd)" "$tmp/err"
check "--get names a missing path" grep -q "nothing-here: no such file or folder" "$tmp/err"
check "--get wrote nothing outside" test ! -e "$tmp/got2/pw"
echo 'print(1)' | "$APP" run --language python --get ../../etc/passwd - >/dev/null 2>"$tmp/err"
status=$?
check "--get with .. is a usage error (2)" test "$status" -eq 2
check "--get with .. is explained" grep -q "contains '..'" "$tmp/err"
echo 'print(1)' | "$APP" run --language python --get /etc/passwd - >/dev/null 2>"$tmp/err"
check "--get of an absolute path is explained" grep -q "is absolute" "$tmp/err"

# Images: a Dockerfile build FROM the local Python image (offline, network none), run on it,
# listed with its size, removed; a rootfs import; pull without a registry; a missing toolchain.
tag="sandbox-studio-test/cli-$$:1"
mkdir -p "$tmp/ctx"; echo "baked in" >"$tmp/ctx/baked.txt"
printf 'FROM %s\nCOPY baked.txt /opt/baked.txt\nRUN python3 -c "open(\x27/opt/built.txt\x27,\x27w\x27).write(\x27at build\x27)"\n' "$current" >"$tmp/ctx/Dockerfile"
"$APP" images build --tag "$tag" "$tmp/ctx" >"$tmp/out" 2>"$tmp/err"
status=$?
check "images build --tag exits 0" test "$status" -eq 0
check "images build streams the steps" grep -q "Step 3/3 : RUN python3" "$tmp/err"
check "images build shows progress" grep -q "^\[100%\] Built $tag" "$tmp/err"
echo 'print(open("/opt/baked.txt").read().strip(), open("/opt/built.txt").read())' | "$APP" run --language python --image "$tag" - >"$tmp/out" 2>"$tmp/err"
check "run --image uses the built image" grep -qx "baked in at build" "$tmp/out"
"$APP" images list --all >"$tmp/out" 2>&1
check "images list --all shows the image with a size" grep -Eq "^$tag +[0-9.]+ (MB|GB)" "$tmp/out"
echo 'console.log(1)' | "$APP" run --language javascript --image "$tag" - >/dev/null 2>"$tmp/err"
status=$?
check "a missing toolchain is a usage error (2)" test "$status" -eq 2
check "a missing toolchain is named" grep -q "node not found in image $tag" "$tmp/err"
"$APP" images remove "$tag" >"$tmp/out" 2>&1
check "images remove" grep -q "removed $tag" "$tmp/out"
printf 'FROM sandbox-studio-test/absent:never\n' >"$tmp/ctx/Dockerfile"
"$APP" images build --tag "$tag" "$tmp/ctx" >/dev/null 2>"$tmp/err"
status=$?
check "a build FROM an absent image exits 125" test "$status" -eq 125
check "a build FROM an absent image names it" grep -q "base image sandbox-studio-test/absent:never is not here" "$tmp/err"
mkdir -p "$tmp/rootfs/etc"; echo tiny >"$tmp/rootfs/etc/motd"; tar -C "$tmp/rootfs" -cf "$tmp/rootfs.tar" .
"$APP" images import "$tmp/rootfs.tar" "sandbox-studio-test/cli-rootfs-$$:1" >"$tmp/out" 2>"$tmp/err"
status=$?
check "images import exits 0" test "$status" -eq 0
echo 'print(1)' | "$APP" run --language python --image "sandbox-studio-test/cli-rootfs-$$:1" - >/dev/null 2>"$tmp/err"
check "an image without a shell is explained" grep -q "cannot be used as a sandbox: it needs /bin/sh, sleep and tar" "$tmp/err"
"$APP" images remove "sandbox-studio-test/cli-rootfs-$$:1" >/dev/null 2>&1
"$APP" images pull docker.io/library/alpine:3.20 >/dev/null 2>"$tmp/err"
status=$?
check "pull without a registry exits 125" test "$status" -eq 125
check "pull without a registry says so" grep -q "No registry may be reachable from here" "$tmp/err"

echo "$passes passed, $failures failed"
[[ $failures -eq 0 ]]
