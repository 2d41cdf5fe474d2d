import statistics

import matplotlib.pyplot as plt

temperatures = {"Mon": 18.5, "Tue": 21.0, "Wed": 19.2, "Thu": 23.8, "Fri": 22.1}
for day, t in temperatures.items():
    print(f"{day}: {t:5.1f} °C")
print("mean:", round(statistics.mean(temperatures.values()), 2))

plt.bar(list(temperatures), list(temperatures.values()), color="tab:orange")
plt.title("Temperatures this week")
plt.show()
