# Fork bomb: every process forks forever. Contained by the process limit and the time limit.
import os
while True:
    try:
        os.fork()
    except OSError:
        pass
