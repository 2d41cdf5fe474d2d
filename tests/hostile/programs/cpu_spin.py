# Spins past the time limit.
print("spinning", flush=True)
while True:
    pass
