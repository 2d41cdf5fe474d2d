# Allocates and touches memory until killed: contained by the memory limit (oomKilled).
blocks = []
while True:
    blocks.append(bytearray(8 << 20))
