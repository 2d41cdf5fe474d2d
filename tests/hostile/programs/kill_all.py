# Signals every process it may (kill -1), then tries the sandbox's PID 1.
import os, signal
try:
    os.kill(1, signal.SIGKILL)
    print("pid1 KILLED")
except OSError as e:
    print("pid1 refused", type(e).__name__, flush=True)
os.kill(-1, signal.SIGKILL)
