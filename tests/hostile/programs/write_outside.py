# Writes everywhere outside the work directory; only /tmp (a private tmpfs) may take them.
import os
targets = ["/escape", "/etc/escape", "/usr/escape", "/usr/bin/python3", "/var/escape",
           "/proc/sys/kernel/hostname", "/proc/sysrq-trigger", "/sys/kernel/mm/escape",
           "/etc/hosts", "/dev/escape", "/tmp/escape", "/sandbox/../escape2"]
for t in targets:
    try:
        with open(t, "a") as f:
            f.write("x")
        print(t, "WRITTEN")
    except OSError as e:
        print(t, "refused", type(e).__name__)
try:
    os.symlink("/etc", "/sandbox/etc-link")
    open("/sandbox/etc-link/escape", "w").write("x")
    print("via-symlink WRITTEN")
except OSError as e:
    print("via-symlink refused", type(e).__name__)
try:
    os.link("/etc/passwd", "/sandbox/passwd-hardlink")
    print("hardlink MADE")
except OSError as e:
    print("hardlink refused", type(e).__name__)
