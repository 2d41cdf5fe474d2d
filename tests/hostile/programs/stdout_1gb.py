# One gigabyte on stdout, as fast as it goes.
import sys
chunk = b"x" * (1 << 20)
out = sys.stdout.buffer
for _ in range(1024):
    out.write(chunk)
out.flush()
