#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# kubectl_fidelity.sh STANDIN_PY SANDBOX_STUDIO_BINARY
#
# Proves the Kubernetes API stand-in (tests/fixtures/k8s-standin) speaks the real protocol:
# the real kubectl (v1.30+: exec over WebSocket v5.channel.k8s.io, cp as tar over exec) runs
# a pod, reads it back as JSON, execs with stdin, copies files both ways, sees exit code 42
# of an exec, is refused with a wrong token, and deletes the pod. Fails (never skips) when
# kubectl, python3 or dockerd is missing.
set -uo pipefail

STANDIN="$1"
STUDIO="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }

KUBECTL="${KUBECTL:-$(command -v kubectl || true)}"
for candidate in /usr/lib/google-cloud-sdk/bin/kubectl /usr/local/bin/kubectl /opt/host-kubectl/kubectl; do
    [[ -n "$KUBECTL" ]] && break
    [[ -x "$candidate" ]] && KUBECTL="$candidate"
done
[[ -n "$KUBECTL" && -x "$KUBECTL" ]] ||
    fail "kubectl is required (the real client proves the stand-in's fidelity): install it, or set KUBECTL=/path/to/kubectl"
command -v python3 >/dev/null || fail "python3 is required to run the Kubernetes API stand-in"
[[ -S /var/run/docker.sock ]] || fail "dockerd is not running (no /var/run/docker.sock): start it with ./studio.sh services"

IMAGE="$("$STUDIO" images ref python)" || fail "cannot tell the Python image (sandbox-studio images ref python)"
docker_has_image() {
    python3 - "$1" <<'EOF'
import http.client, socket, sys, urllib.parse
class C(http.client.HTTPConnection):
    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX); self.sock.connect("/var/run/docker.sock")
c = C("localhost"); c.request("GET", "/v1.41/images/" + urllib.parse.quote(sys.argv[1], safe="") + "/json")
sys.exit(0 if c.getresponse().status == 200 else 1)
EOF
}
docker_has_image "$IMAGE" || fail "image $IMAGE is missing: build it with 'sandbox-studio images build python'"

STATE="$(mktemp -d)"
WORK="$(mktemp -d)"
python3 "$STANDIN" --state-dir "$STATE" >"$STATE/ready.line" 2>"$STATE/standin.log" &
PID=$!
cleanup() {
    kill -TERM "$PID" 2>/dev/null
    wait "$PID" 2>/dev/null
    rm -rf "$STATE" "$WORK"
}
trap cleanup EXIT
for _ in $(seq 1 300); do
    [[ -s "$STATE/ready.line" ]] && break
    kill -0 "$PID" 2>/dev/null || { cat "$STATE/standin.log" >&2; fail "the stand-in exited"; }
    sleep 0.1
done
[[ -s "$STATE/ready.line" ]] || fail "the stand-in did not come up"
export KUBECONFIG="$STATE/kubeconfig"
K() { timeout 60 "$KUBECTL" "$@"; }
echo "kubectl: $("$KUBECTL" version --client 2>/dev/null | head -1); stand-in: $(cat "$STATE/ready.line")"

# Discovery and version: what kubectl reads first.
K version -o json >"$WORK/version.json" || fail "kubectl version failed"
grep -q '"gitVersion": "v1.32.0-sandbox-standin"' "$WORK/version.json" || fail "server version not seen: $(cat "$WORK/version.json")"
K api-resources --api-group= -o name | grep -qx pods || fail "kubectl api-resources does not list pods"

# run + get -o json
POD=fidelity-$$
K run "$POD" --image="$IMAGE" --restart=Never --labels=suite=fidelity --command -- sleep 600 ||
    fail "kubectl run failed"
K wait --for=condition=Ready "pod/$POD" --timeout=60s || fail "the pod did not become Ready"
K get pod "$POD" -o json >"$WORK/pod.json" || fail "kubectl get -o json failed"
python3 - "$WORK/pod.json" "$POD" "$IMAGE" <<'EOF' || fail "get -o json: unexpected object"
import json, sys
pod = json.load(open(sys.argv[1]))
assert pod["kind"] == "Pod" and pod["metadata"]["name"] == sys.argv[2], pod["metadata"]
assert pod["status"]["phase"] == "Running", pod["status"]
assert pod["spec"]["containers"][0]["image"] == sys.argv[3]
assert pod["metadata"]["labels"]["suite"] == "fidelity"
EOF
K get pods -l suite=fidelity -o name | grep -qx "pod/$POD" || fail "label selector list did not find the pod"
# Human output: kubectl asks for a server-side Table.
K get pods | grep -Eq "^$POD +1/1 +Running +0 " || fail "kubectl get pods table: $(K get pods)"

# exec with stdin (v5 closes stdin with its close frame: cat ends), stdout and stderr apart.
OUT="$(printf 'line one\nline two\n' | K exec -i "$POD" -- sh -c 'cat; echo to-stderr >&2' 2>"$WORK/err")" ||
    fail "kubectl exec -i failed"
[[ "$OUT" == $'line one\nline two' ]] || fail "exec stdin round trip gave '$OUT'"
grep -qx to-stderr "$WORK/err" || fail "stderr of exec not seen: $(cat "$WORK/err")"

# kubectl chose the v5 WebSocket protocol (the stand-in logs what each stream negotiated).
grep -q '"kind": "exec", "protocol": "v5.channel.k8s.io"' "$STATE/streams.log" ||
    fail "kubectl did not exec over v5.channel.k8s.io: $(cat "$STATE/streams.log")"

# An exec that exits 42: kubectl reports it and exits 42.
K exec "$POD" -- sh -c 'exit 42' 2>"$WORK/err42"
RC=$?
[[ $RC -eq 42 ]] || fail "exec exit code: kubectl exited $RC, expected 42 ($(cat "$WORK/err42"))"
grep -q "exit code 42" "$WORK/err42" || fail "kubectl did not report exit code 42: $(cat "$WORK/err42")"

# cp both ways (tar over exec), with a binary file.
head -c 200000 /dev/urandom >"$WORK/blob.bin"
K cp "$WORK/blob.bin" "default/$POD:/tmp/blob.bin" || fail "kubectl cp into the pod failed"
INSIDE="$(K exec "$POD" -- sha256sum /tmp/blob.bin | cut -d' ' -f1)"
[[ "$INSIDE" == "$(sha256sum "$WORK/blob.bin" | cut -d' ' -f1)" ]] || fail "file copied in differs"
K exec "$POD" -- sh -c 'echo made-inside > /tmp/out.txt' || fail "exec write failed"
K cp "default/$POD:/tmp/out.txt" "$WORK/out.txt" 2>/dev/null || fail "kubectl cp out of the pod failed"
[[ "$(cat "$WORK/out.txt")" == made-inside ]] || fail "file copied out differs: $(cat "$WORK/out.txt")"

# logs
K run "log-$$" --image="$IMAGE" --restart=Never --command -- sh -c 'echo hello-from-log; sleep 600' >/dev/null ||
    fail "second kubectl run failed"
K wait --for=condition=Ready "pod/log-$$" --timeout=60s >/dev/null || fail "log pod not Ready"
for _ in $(seq 1 50); do
    LOG="$(K logs "log-$$")" && [[ "$LOG" == hello-from-log ]] && break
    sleep 0.1
done
[[ "$LOG" == hello-from-log ]] || fail "kubectl logs gave '$LOG'"

# A wrong token: 401, and kubectl says so.
K --context standin-wrong-token get pods 2>"$WORK/err401" && fail "a wrong token was accepted"
grep -qi "unauthorized\|provide credentials" "$WORK/err401" || fail "no 401 message: $(cat "$WORK/err401")"

# An unknown pod: a NotFound Status that kubectl prints as such.
K get pod no-such-pod 2>"$WORK/err404" && fail "an unknown pod was found"
grep -q 'pods "no-such-pod" not found' "$WORK/err404" || fail "NotFound not reported: $(cat "$WORK/err404")"

# delete (kubectl waits for the deletion through a watch)
K delete pod "$POD" "log-$$" || fail "kubectl delete failed"
K get pods -o name | grep -q . && fail "pods left after delete: $(K get pods -o name)"

# The command line on the same stand-in: --backend kubernetes with --kubeconfig/--context.
OUT="$(echo 'import sys; print("from a pod"); sys.exit(3)' |
    timeout 120 "$STUDIO" run --backend kubernetes --kubeconfig "$KUBECONFIG" --context standin \
        --namespace default --language python - 2>"$WORK/cli.err")"
RC=$?
[[ $RC -eq 3 && "$OUT" == "from a pod" ]] ||
    fail "sandbox-studio run --backend kubernetes: exit $RC, output '$OUT' ($(cat "$WORK/cli.err"))"
# Network off: the run put the deny-all NetworkPolicy in place and labelled its pod for it.
K get networkpolicy sandbox-studio-deny-all -o json >"$WORK/netpol.json" ||
    fail "no deny-all NetworkPolicy after a run without network"
python3 - "$WORK/netpol.json" <<'EOF' || fail "the deny-all NetworkPolicy is not deny-all: $(cat "$WORK/netpol.json")"
import json, sys
p = json.load(open(sys.argv[1]))["spec"]
assert p["podSelector"]["matchLabels"] == {"io.sandbox-studio.network": "none"}, p
assert sorted(p["policyTypes"]) == ["Egress", "Ingress"] and not p.get("ingress") and not p.get("egress"), p
EOF
echo 'print(1)' | timeout 60 "$STUDIO" run --backend kubernetes --kubeconfig "$KUBECONFIG" \
    --context standin-wrong-token --language python - >/dev/null 2>"$WORK/cli401.err"
RC=$?
[[ $RC -eq 125 ]] || fail "a wrong token: sandbox-studio exited $RC, expected 125"
grep -q "401" "$WORK/cli401.err" && grep -q "standin-wrong-token" "$WORK/cli401.err" ||
    fail "a wrong token: unclear message: $(cat "$WORK/cli401.err")"
K get pods -o name | grep -q . && fail "pods left after CLI runs: $(K get pods -o name)"

# Nothing of the stand-in's is left running on the engine.
INSTANCE="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["instance"])' "$STATE/ready.line")"
LEFT="$(python3 - "$INSTANCE" <<'EOF'
import http.client, json, socket, sys, urllib.parse
class C(http.client.HTTPConnection):
    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX); self.sock.connect("/var/run/docker.sock")
c = C("localhost")
f = urllib.parse.quote(json.dumps({"label": ["io.sandbox-studio.k8s-standin=" + sys.argv[1]]}))
c.request("GET", "/v1.41/containers/json?all=1&filters=" + f)
print(len(json.loads(c.getresponse().read())))
EOF
)"
[[ "$LEFT" == 0 ]] || fail "$LEFT containers of deleted pods are still there"
echo "PASS: kubectl run, get -o json, exec -i (v5), exit 42, cp both ways, logs, 401, 404, delete; sandbox-studio run --backend kubernetes"
