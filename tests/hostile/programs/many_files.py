# 100,000 files in the output directory.
import os
os.makedirs("output/many", exist_ok=True)
for i in range(100_000):
    with open("output/many/f%06d.txt" % i, "w") as f:
        f.write("%d\n" % i)
print("made", len(os.listdir("output/many")))
