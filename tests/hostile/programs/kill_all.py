# Signals every process it may (kill -1) and the sandbox's PID 1: the kernel does not deliver
# SIGKILL to a namespace's init from inside, and nothing outside the sandbox is reachable.
import os, signal, time
os.kill(1, signal.SIGKILL)
os.kill(-1, signal.SIGKILL)  # Linux leaves out the caller and PID 1
time.sleep(0.3)
try:
    os.kill(1, 0)
    print("pid1 alive")
except OSError as e:
    print("pid1 GONE", e)
print("visible processes", len([p for p in os.listdir("/proc") if p.isdigit()]))
