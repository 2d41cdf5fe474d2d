# The output directory holds links and special files that point outside it.
import os
os.makedirs("output/sub", exist_ok=True)
os.symlink("/etc/passwd", "output/passwd")
os.symlink("/etc", "output/etc-dir")
os.symlink("../../../../etc/shadow", "output/sub/relative-escape")
os.mkfifo("output/fifo")
open("output/real.txt", "w").write("real\n")
os.link("output/real.txt", "output/hardlink.txt")
print("planted")
