# One artifact far larger than the artifact size limit.
with open("output/huge.bin", "wb") as f:
    for _ in range(96):
        f.write(b"\xab" * (1 << 20))
print("written")
