// Tries to trace and read other processes of the sandbox (PID 1 is root's).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <unistd.h>
int main() {
    long r = ptrace(PTRACE_ATTACH, 1, nullptr, nullptr);
    std::printf("attach-pid1 %s\n", r == 0 ? "ATTACHED" : std::strerror(errno));
    r = ptrace(PTRACE_SEIZE, 1, nullptr, nullptr);
    std::printf("seize-pid1 %s\n", r == 0 ? "SEIZED" : std::strerror(errno));
    char buf[16];
    iovec local{buf, sizeof buf}, remote{reinterpret_cast<void *>(0x400000), sizeof buf};
    ssize_t n = process_vm_readv(1, &local, 1, &remote, 1, 0);
    std::printf("vm-read-pid1 %s\n", n >= 0 ? "READ" : std::strerror(errno));
    FILE *mem = std::fopen("/proc/1/mem", "rb");
    std::printf("proc-mem-pid1 %s\n", mem ? "OPENED" : std::strerror(errno));
    return 0;
}
