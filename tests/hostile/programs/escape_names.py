# File names that other systems read as paths out of the destination, or that fool a
# terminal. ("../../escape" itself cannot be a Linux file name: see tarslip.py.)
import os
os.makedirs("output", exist_ok=True)
for name in ["..\\..\\escape", "..\\..\\..\\Windows\\evil.dll", "line\nbreak.txt",
             "esc\x1b[31mred.txt", "ok.txt"]:
    with open(os.path.join("output", name), "w") as f:
        f.write("x")
print("planted")
