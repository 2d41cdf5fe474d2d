#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Backend profiles from the command line: --backend NAME|docker|podman|docker-tls, --host,
# --tls-cert-path, `backends list|test|add|remove`, against the real Docker, the podman
# service and the TLS dockerd fixture (tests/fixtures/tls-dockerd). Usage: backends.sh APP
set -uo pipefail
APP="$1"
CERTS="${SANDBOX_TLS_FIXTURE_CERTS:-/run/sandbox-studio-tls-dockerd/certs}"
failures=0; passes=0
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
export SANDBOX_STUDIO_PROFILES="$tmp/backends.conf"
unset SANDBOX_STUDIO_BACKEND
check() { # check NAME CONDITION-COMMAND...
    local name="$1"; shift
    if "$@"; then passes=$((passes + 1)); echo "PASS: $name"; else failures=$((failures + 1)); echo "FAIL: $name"; fi
}
[[ -f "$CERTS/client/cert.pem" ]] || {
    echo "FAIL: the TLS dockerd fixture is not running: start it on the host as root with" \
        "tests/fixtures/tls-dockerd/tls-dockerd.sh start (./studio.sh test does)"
    exit 1
}
curl -sf --max-time 3 --unix-socket /run/podman/podman.sock http://d/_ping >/dev/null || {
    echo "FAIL: the podman service is not running: start it with ./studio.sh services"
    exit 1
}
echo 'import os; print("uid", os.getuid())' >"$tmp/uid.py"

"$APP" backends list >"$tmp/out" 2>&1
check "backends list shows the built-ins" bash -c "grep -q '^\* Local Docker' '$tmp/out' && grep -q 'Local Podman .*podman' '$tmp/out'"
"$APP" backends test podman >"$tmp/out" 2>&1
check "backends test podman names Podman and its version" grep -Eq "^Local Podman: Podman [0-9]+\.[0-9]+" "$tmp/out"

"$APP" run --backend podman "$tmp/uid.py" >"$tmp/out" 2>"$tmp/err"
check "run --backend podman" grep -q "uid 65534" "$tmp/out"
"$APP" run --backend docker-tls --host tcp://127.0.0.1:2376 --tls-cert-path "$CERTS/client" \
    "$tmp/uid.py" >"$tmp/out" 2>"$tmp/err"
check "run --backend docker-tls --host --tls-cert-path" grep -q "uid 65534" "$tmp/out"
DOCKER_HOST=tcp://127.0.0.1:2376 DOCKER_CERT_PATH="$CERTS/client" DOCKER_TLS_VERIFY=1 \
    "$APP" run "$tmp/uid.py" >"$tmp/out" 2>"$tmp/err"
check "DOCKER_HOST, DOCKER_CERT_PATH, DOCKER_TLS_VERIFY" grep -q "uid 65534" "$tmp/out"

"$APP" backends add fixture --kind docker-tls --host tcp://127.0.0.1:2376 --tls-cert-path "$CERTS/client"
check "backends add exits 0" test $? -eq 0
"$APP" backends list >"$tmp/out" 2>&1
check "backends list shows the new profile" grep -q "fixture .*docker-tls .*tcp://127.0.0.1:2376" "$tmp/out"
SANDBOX_STUDIO_BACKEND=fixture "$APP" run "$tmp/uid.py" >"$tmp/out" 2>"$tmp/err"
check "SANDBOX_STUDIO_BACKEND=fixture runs over TLS" grep -q "uid 65534" "$tmp/out"
"$APP" backends test fixture >"$tmp/out" 2>&1
check "backends test fixture names the Docker Engine" grep -q "^fixture: Docker Engine .*tcp://127.0.0.1:2376" "$tmp/out"

"$APP" run --backend docker-tls --host tcp://127.0.0.1:2376 --tls-cert-path "$CERTS/wrong-ca" \
    "$tmp/uid.py" >"$tmp/out" 2>"$tmp/err"
status=$?
check "a wrong CA exits 125" test "$status" -eq 125
check "a wrong CA says so and names the endpoint" grep -q "TLS with tcp://127.0.0.1:2376 failed: .*wrong CA" "$tmp/err"
"$APP" run --backend nosuchprofile "$tmp/uid.py" >"$tmp/out" 2>"$tmp/err"
status=$?
check "an unknown profile exits 2" test "$status" -eq 2
check "an unknown profile lists the known ones" grep -q "No backend profile 'nosuchprofile'. Known: Local Docker, Local Podman, fixture" "$tmp/err"
"$APP" backends add "Local Docker" --kind docker >/dev/null 2>"$tmp/err"
check "a built-in name is refused" test $? -eq 2

# A Kubernetes profile with pod settings, lists included, then shown back.
"$APP" backends add gpus --kind kubernetes --context kind-dev --namespace sandboxes \
    --set cpuRequest=250m --set runtimeClassName=gvisor --set nodeSelector=disktype=ssd \
    --set tolerations=gpu=true:NoSchedule --set tolerations='dedicated:NoExecute@60' \
    --set imagePullSecrets=regcred --set 'annotations=owner=Ana, Data' >"$tmp/out" 2>&1
check "backends add --kind kubernetes --set exits 0" test $? -eq 0
check "backends add says it added" grep -qx "added profile gpus (kubernetes)" "$tmp/out"
"$APP" backends add gpus --kind kubernetes --context kind-dev --namespace sandboxes \
    --set cpuRequest=250m --set runtimeClassName=gvisor --set nodeSelector=disktype=ssd \
    --set tolerations=gpu=true:NoSchedule --set tolerations='dedicated:NoExecute@60' \
    --set imagePullSecrets=regcred --set 'annotations=owner=Ana, Data' >"$tmp/out" 2>&1
check "adding it again says it replaced it" grep -qx "replaced profile gpus (kubernetes)" "$tmp/out"
"$APP" backends add bad --kind kubernetes --set cpuRequest=lots >"$tmp/out" 2>"$tmp/err"
check "a CPU request that is not a quantity exits 2" test $? -eq 2
check "a CPU request that is not a quantity is named" grep -q "cpuRequest: 'lots' is not a Kubernetes quantity" "$tmp/err"
"$APP" backends add bad --kind kubernetes --host tcp://x:1 >"$tmp/out" 2>"$tmp/err"
check "--host on a kubernetes profile exits 2" test $? -eq 2
"$APP" backends show gpus >"$tmp/out" 2>&1
check "backends show gives kind and namespace" bash -c "grep -qx 'kind: kubernetes' '$tmp/out' && grep -qx 'namespace: sandboxes' '$tmp/out'"
check "backends show gives the pod settings" bash -c "grep -qx 'cpuRequest: 250m' '$tmp/out' && grep -qx 'runtimeClassName: gvisor' '$tmp/out' && grep -qx 'nodeSelector: disktype=ssd' '$tmp/out'"
check "backends show gives both tolerations" bash -c "grep -qx 'tolerations: gpu=true:NoSchedule' '$tmp/out' && grep -qx 'tolerations: dedicated:NoExecute@60' '$tmp/out'"
check "backends show keeps an annotation with a comma" grep -qx 'annotations: owner=Ana, Data' "$tmp/out"
"$APP" backends add bad --kind kubernetes --set tolerations=gpu:NoRun >"$tmp/out" 2>"$tmp/err"
status=$?
check "a bad toleration exits 2" test "$status" -eq 2
check "a bad toleration is named" grep -q "tolerations: 'gpu:NoRun' has an unknown effect" "$tmp/err"
"$APP" backends add bad --kind docker --set cpuRequest=1 >"$tmp/out" 2>"$tmp/err"
check "--set on a docker profile exits 2" test $? -eq 2
"$APP" backends list >"$tmp/out" 2>&1
check "refused profiles are not stored" bash -c "! grep -q '^  bad ' '$tmp/out'"
"$APP" backends remove gpus
check "backends remove gpus exits 0" test $? -eq 0

"$APP" backends remove fixture
check "backends remove exits 0" test $? -eq 0
"$APP" backends list >"$tmp/out" 2>&1
check "the profile is gone" bash -c "! grep -q fixture '$tmp/out'"

echo "$passes passed, $failures failed"
[[ $failures -eq 0 ]]
