// Fork until the kernel refuses; children stay alive. Contained by the pids limit.
#include <cstdio>
#include <unistd.h>
int main()
{
    int n = 0;
    for (;;) {
        pid_t pid = fork();
        if (pid < 0) {
            std::printf("fork refused after %d children\n", n);
            return 3;
        }
        if (pid == 0) {
            pause();
            _exit(0);
        }
        ++n;
    }
}
