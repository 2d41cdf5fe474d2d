# Signals the sandbox's PID 1 (the kernel does not deliver SIGKILL to a namespace's init from
# inside it), then every process it may (kill -1): that ends its own sandbox's keeper, so the
# sandbox stops with it. Nothing outside the sandbox is reachable.
import os, signal, time
os.kill(1, signal.SIGKILL)
time.sleep(0.2)
os.kill(1, 0)
print("pid1 alive after SIGKILL", flush=True)
print("visible processes", len([p for p in os.listdir("/proc") if p.isdigit()]), flush=True)
os.kill(-1, signal.SIGKILL)  # Linux leaves out the caller and PID 1
time.sleep(2)
print("still running after kill -1", flush=True)
