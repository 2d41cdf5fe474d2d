# 100,000 (empty) files in the output directory.
import os
os.makedirs("output/many", exist_ok=True)
for i in range(100_000):
    open("output/many/f%06d.txt" % i, "w").close()
print("made", len(os.listdir("output/many")))
