// Tries to trace and read other processes. The only other processes it can see are its own
// sandbox's (a PID namespace). In a one-shot sandbox PID 1 is the engine's init (same uid,
// same throw-away sandbox: attaching gains nothing); in a pooled one PID 1 is the agent,
// which serves the next borrower: it is not dumpable and must refuse all three.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <string>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
static std::string field(int pid, const char *name)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(name, 0) == 0)
            return line.substr(std::strlen(name) + 1);
    return "?";
}
static void attack(int pid, const char *label)
{
    long r = ptrace(PTRACE_ATTACH, pid, nullptr, nullptr);
    std::printf("%s attach %s\n", label, r == 0 ? "ATTACHED" : std::strerror(errno));
    if (r == 0) {
        waitpid(pid, nullptr, __WALL);
        ptrace(PTRACE_DETACH, pid, nullptr, nullptr);
    }
    char buf[16];
    iovec local{buf, sizeof buf}, remote{reinterpret_cast<void *>(0x400000), sizeof buf};
    ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    std::printf("%s vm-read %s\n", label, n >= 0 ? "READ" : std::strerror(errno));
    FILE *mem = std::fopen(("/proc/" + std::to_string(pid) + "/mem").c_str(), "rb");
    std::printf("%s proc-mem %s\n", label, mem ? "OPENED" : std::strerror(errno));
}
int main()
{
    std::printf("self uid %s\n", field(getpid(), "Uid:").c_str());
    std::printf("pid1 %s uid %s\n", field(1, "Name:").c_str(), field(1, "Uid:").c_str());
    attack(1, "pid1");
    // Its parent: after docker exec 0 (outside the namespace); in a pooled sandbox the
    // agent (PID 1) or the shell of the run.
    if (getppid() > 1) {
        std::printf("parent %s uid %s\n", field(getppid(), "Name:").c_str(),
                    field(getppid(), "Uid:").c_str());
        attack(getppid(), "parent");
    }
    DIR *d = opendir("/proc");
    int procs = 0;
    while (dirent *e = readdir(d))
        if (std::atoi(e->d_name) > 0)
            ++procs;
    closedir(d);
    std::printf("visible processes %d\n", procs);
    return 0;
}
