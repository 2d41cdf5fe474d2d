# Hardening probe: run in a default sandbox, prints one JSON object of named checks, each
# {"ok": bool, "detail": str}. tests/hostile/tst_hardening.cpp asserts every one.
import errno, json, os, socket

checks = {}


def check(name, ok, detail=""):
    checks[name] = {"ok": bool(ok), "detail": str(detail)}


def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return line.split(":", 1)[1].strip()
    return None


check("non_root_uid", os.getuid() != 0 and os.geteuid() != 0,
      "uid=%d euid=%d gid=%d" % (os.getuid(), os.geteuid(), os.getgid()))
check("no_effective_capabilities", int(status("CapEff"), 16) == 0, "CapEff " + status("CapEff"))
check("no_permitted_capabilities", int(status("CapPrm"), 16) == 0, "CapPrm " + status("CapPrm"))
check("no_new_privs", status("NoNewPrivs") == "1", "NoNewPrivs " + str(status("NoNewPrivs")))
check("seccomp_filter", status("Seccomp") == "2", "Seccomp " + str(status("Seccomp")))


def write_fails(path):
    try:
        with open(path, "w") as f:
            f.write("x")
        return False, "wrote " + path
    except OSError as e:
        return e.errno in (errno.EROFS, errno.EACCES, errno.EPERM), errno.errorcode.get(e.errno, e.errno)


ok, detail = write_fails("/probe-root")
check("root_fs_read_only", ok, detail)
ok2, detail2 = write_fails("/usr/probe")
check("usr_read_only", ok2, detail2)
try:
    with open("/sandbox/probe.txt", "w") as f:
        f.write("x")
    os.remove("/sandbox/probe.txt")
    check("work_dir_writable", True)
except OSError as e:
    check("work_dir_writable", False, e)

sockets = ["/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock",
           "/var/run/podman/podman.sock", "/run/containerd/containerd.sock",
           "/run/user/0/podman/podman.sock", "/var/run/crio/crio.sock"]
present = [p for p in sockets if os.path.exists(p)]
check("no_engine_socket", not present, present)

# Host paths: nothing of the host's file systems is mounted except the files every
# container gets (/etc/hosts, /etc/hostname, /etc/resolv.conf) and, read-only, the engine's
# init binary (Docker's --init: /usr/sbin/docker-init).
host_fs = {"ext2", "ext3", "ext4", "xfs", "btrfs", "zfs", "nfs", "nfs4", "fuse", "9p", "vfat"}
allowed = {"/etc/hosts", "/etc/hostname", "/etc/resolv.conf"}
leaks = []
for line in open("/proc/self/mountinfo"):
    left, right = line.split(" - ", 1)
    mount_point = left.split()[4]
    fstype = right.split()[0]
    options = left.split()[5].split(",")
    if mount_point == "/usr/sbin/docker-init" and "ro" in options:
        continue
    if fstype in host_fs and mount_point not in allowed:
        leaks.append(mount_point + " (" + fstype + ")")
check("no_host_mounts", not leaks, leaks)
visible = [p for p in ["/work", "/home/" + "root", "/root/.ssh", "/var/lib/docker",
                       "/etc/docker", "/host", "/rootfs"]
           if os.path.exists(p) and (not os.path.isdir(p) or os.listdir(p))]
check("no_host_paths", not visible, visible)

# Network off: only the loopback interface, no connection, no name resolution.
ifaces = sorted(os.listdir("/sys/class/net"))
check("only_loopback", ifaces == ["lo"], ifaces)
try:
    s = socket.create_connection(("1.1.1.1", 443), timeout=3)
    s.close()
    check("connect_fails", False, "connected to 1.1.1.1:443")
except OSError as e:
    check("connect_fails", True, e)
try:
    socket.getaddrinfo("example.com", 443)
    check("dns_fails", False, "resolved example.com")
except OSError as e:
    check("dns_fails", True, e)

print(json.dumps(checks, sort_keys=True))
