# Signals the sandbox's PID 1 (the kernel does not deliver SIGKILL to a namespace's init from
# inside it), then every process it may (kill -1). In a one-shot sandbox that ends its
# keeper (a child of the engine's init), so the sandbox stops with it; in a pooled one PID 1
# is the agent, which kill -1 leaves out. Nothing outside the sandbox is reachable.
import os, signal, time
os.kill(1, signal.SIGKILL)
time.sleep(0.2)
os.kill(1, 0)
print("pid1 alive after SIGKILL", flush=True)
if open("/proc/1/comm").read().strip() == ".agent":
    # The agent stops on these only when they come from outside the sandbox.
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGSTOP):
        os.kill(1, sig)
    time.sleep(0.5)
    os.kill(1, 0)
    print("agent alive after SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGSTOP", flush=True)
print("visible processes", len([p for p in os.listdir("/proc") if p.isdigit()]), flush=True)
try:
    os.kill(-1, signal.SIGKILL)  # Linux leaves out the caller and PID 1
except ProcessLookupError:
    print("kill -1: no other process to signal", flush=True)
time.sleep(2)
print("still running after kill -1", flush=True)
