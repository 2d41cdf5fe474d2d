#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A fault-injecting HTTPS proxy in front of the Kubernetes API stand-in (issue 11).

    k8s-faultproxy.py --state-dir DIR --upstream-port PORT

Listens on 127.0.0.1 (a free port) with the stand-in's own server certificate
(DIR/server.crt, DIR/server.key, signed by DIR/ca.crt, valid for 127.0.0.1), so a client
that trusts the stand-in trusts the proxy. Forwards every connection to
https://127.0.0.1:PORT byte for byte, except as armed through stdin, one command a line:

    fail500 N METHOD PATH-PART   the next N requests whose method is METHOD ("*" = any) and
                                 whose path contains PATH-PART get a 500 Status object
    dropws N [PATH-PART]         the next N WebSocket upgrades (exec, attach) whose path
                                 contains PATH-PART are cut: the proxy forwards the 101 and
                                 the server's first bytes, then closes both sides
    clear                        forget the faults not fired yet

Prints {"port": N} once listening, and "fired 500 METHOD PATH" / "fired dropws PATH" lines
as faults happen. Python standard library only; loopback only.
"""

import argparse
import json
import socket
import ssl
import sys
import threading

lock = threading.Lock()
rules500 = []  # [count, method, part]
rulesws = []  # [count, part]


def say(line):
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def read_commands():
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        with lock:
            if parts[0] == "clear":
                rules500.clear()
                rulesws.clear()
            elif parts[0] == "fail500" and len(parts) == 4:
                rules500.append([int(parts[1]), parts[2], parts[3]])
            elif parts[0] == "dropws" and len(parts) in (2, 3):
                rulesws.append([int(parts[1]), parts[2] if len(parts) == 3 else ""])
            else:
                sys.stderr.write(f"k8s-faultproxy: bad command {line!r}\n")
                continue
        say("armed " + " ".join(parts))


def take(rules, match):
    with lock:
        for r in rules:
            if r[0] > 0 and match(r):
                r[0] -= 1
                return True
    return False


def pump(src, dst, stop):
    try:
        while not stop.is_set():
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        stop.set()
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(client, upstream_port):
    try:
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = client.recv(65536)
            if not chunk:
                client.close()
                return
            head += chunk
            if len(head) > 1 << 20:
                client.close()
                return
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        method, path = line.split(" ")[0], line.split(" ")[1]
        lower = head.split(b"\r\n\r\n", 1)[0].lower()
        upgrade = b"upgrade: websocket" in lower
        if not upgrade and take(rules500, lambda r: (r[1] in ("*", method)) and r[2] in path):
            body = json.dumps({"kind": "Status", "apiVersion": "v1", "metadata": {},
                               "status": "Failure", "reason": "InternalError", "code": 500,
                               "message": "injected fault: the API server failed"}).encode()
            client.sendall(b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\n"
                           b"Connection: close\r\nContent-Length: " + str(len(body)).encode() +
                           b"\r\n\r\n" + body)
            say(f"fired 500 {method} {path}")
            client.close()
            return
        drop = upgrade and take(rulesws, lambda r: r[1] in path)
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        up = ctx.wrap_socket(socket.create_connection(("127.0.0.1", upstream_port)),
                             server_hostname="127.0.0.1")
        up.sendall(head)
        if drop:
            # Forward the client's further bytes while waiting for the 101 and the first
            # frame from the server, then cut.
            stop = threading.Event()
            threading.Thread(target=pump, args=(client, up, stop), daemon=True).start()
            got = b""
            while b"\r\n\r\n" not in got:
                chunk = up.recv(65536)
                if not chunk:
                    break
                got += chunk
                client.sendall(chunk)
            # The first data after the handshake (the program's first output), then cut.
            if got.split(b"\r\n\r\n", 1)[-1] == b"":
                chunk = up.recv(65536)
                if chunk:
                    client.sendall(chunk)
            say(f"fired dropws {path}")
            stop.set()
            for s in (client, up):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            return
        stop = threading.Event()
        t = threading.Thread(target=pump, args=(up, client, stop), daemon=True)
        t.start()
        pump(client, up, stop)
        t.join()
        client.close()
        up.close()
    except (OSError, IndexError, ssl.SSLError):
        try:
            client.close()
        except OSError:
            pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--state-dir", required=True)
    ap.add_argument("--upstream-port", type=int, required=True)
    args = ap.parse_args()
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(f"{args.state_dir}/server.crt", f"{args.state_dir}/server.key")
    ctx.set_alpn_protocols(["http/1.1"])
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(64)
    threading.Thread(target=read_commands, daemon=True).start()
    say(json.dumps({"port": srv.getsockname()[1]}))
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=handshake, args=(ctx, conn, args.upstream_port),
                         daemon=True).start()


def handshake(ctx, conn, upstream_port):
    try:
        tls = ctx.wrap_socket(conn, server_side=True)
    except (ssl.SSLError, OSError):
        conn.close()
        return
    serve(tls, upstream_port)


if __name__ == "__main__":
    main()
