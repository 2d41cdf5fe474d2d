# Fills the work directory: contained by the tmpfs size (ENOSPC), nothing reaches the host disk.
import os
written = 0
chunk = b"\0" * (1 << 20)
with open("/sandbox/fill.bin", "wb") as f:
    while True:
        f.write(chunk)
        f.flush()
        written += len(chunk)
