# Invalid UTF-8, NUL bytes and terminal escapes on both streams.
import sys
sys.stdout.buffer.write(b"\x00start\xff\xfe\xc3(\x00\x1b[2Jend\x80\n")
sys.stderr.buffer.write(b"err\x00\xf0\x28\x8c\x28\n")
