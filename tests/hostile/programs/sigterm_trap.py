# Ignores SIGTERM, SIGINT and SIGHUP and keeps running: only SIGKILL (the sandbox's end) stops it.
import signal, time
for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(s, signal.SIG_IGN)
print("trapping", flush=True)
while True:
    time.sleep(0.05)
