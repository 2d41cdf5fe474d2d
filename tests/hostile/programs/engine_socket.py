# Looks for the engine's socket and host paths, and reads what it can.
import os, socket
for path in ["/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock",
             "/run/containerd/containerd.sock"]:
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(path)
        s.sendall(b"GET /containers/json HTTP/1.0\r\n\r\n")
        print(path, "REACHED", s.recv(100))
    except OSError as e:
        print(path, "refused", type(e).__name__)
for path in ["/etc/shadow", "/root/.bashrc",
             "/proc/kcore", "/dev/mem", "/sys/kernel/security", "/var/lib/docker",
             "/work", "/home"]:
    try:
        if os.path.isdir(path):
            entries = os.listdir(path)
            print(path, "LISTED" if entries else "empty", entries[:3])
        else:
            with open(path, "rb") as f:
                print(path, "READ", f.read(16))
    except OSError as e:
        print(path, "refused", type(e).__name__)
