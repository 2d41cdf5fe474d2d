// Runs after an attack in the same pooled sandbox: what the next borrower finds (the C++
// twin of next_borrower.py). Prints PID 1's name and every process that is neither PID 1
// nor one of this program's ancestors, with its command line.
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <string>
#include <unistd.h>
static int parentOf(int pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');
    if (close == std::string::npos)
        return 0;
    return std::atoi(stat.c_str() + close + 4); // ") S PPID"
}
int main()
{
    std::set<int> ancestors;
    for (int p = getpid(); p > 1; p = parentOf(p))
        ancestors.insert(p);
    std::string strangers;
    DIR *d = opendir("/proc");
    while (dirent *e = readdir(d)) {
        const int pid = std::atoi(e->d_name);
        if (pid <= 1 || ancestors.count(pid))
            continue;
        std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline");
        if (!in)
            continue;
        std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (char &c : cmd)
            if (c == '\0')
                c = ' ';
        strangers += (strangers.empty() ? "" : " ") + std::to_string(pid) + "[" + cmd + "]";
    }
    closedir(d);
    std::ifstream comm("/proc/1/comm");
    std::string name;
    std::getline(comm, name);
    std::cout << "pid1 " << name << "\nstrangers " << (strangers.empty() ? "none" : strangers)
              << "\n";
    return 0;
}
