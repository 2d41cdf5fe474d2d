# Children that outlive the main process: a double-forked daemon in its own session and a
# background child, both sleeping with a marker (token.txt) in their command line. They end with the
# sandbox, which is removed when the run ends.
import os, subprocess, sys, time
token = open("token.txt").read().strip()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        fd = os.open(os.devnull, os.O_RDWR)
        for i in (0, 1, 2):
            os.dup2(fd, i)
        os.execvp("python3", ["python3", "-c", "import time; time.sleep(3000)", token])
    os._exit(0)
subprocess.Popen(["python3", "-c", "import time; time.sleep(3001)", token], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                 start_new_session=True)
time.sleep(0.5)
print("spawned", flush=True)
time.sleep(1.5)  # the test looks for the children on the host now
print("main exits")
