// Four threads spinning past the time limit on a half-CPU quota.
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>
std::atomic<unsigned long> counter{0};
int main()
{
    std::printf("spinning\n");
    std::fflush(stdout);
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i)
        threads.emplace_back([] {
            for (;;)
                counter.fetch_add(1, std::memory_order_relaxed);
        });
    for (auto &t : threads)
        t.join();
}
