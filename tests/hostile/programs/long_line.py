# One 100 MB line with no newline at all.
import sys
sys.stdout.buffer.write(b"y" * (100 << 20))
sys.stdout.flush()
