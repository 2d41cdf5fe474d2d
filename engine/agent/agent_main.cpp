// SPDX-License-Identifier: GPL-3.0-or-later
// sandbox-agent: the process inside a sandbox that runs programs for the engine.
//
// A statically linked, dependency-free program (no Qt, no exceptions) so it works in any
// Linux image. It is the sandbox container's main process; it speaks the protocol of
// agent/protocol.h on its stdin (requests) and stdout (events) and writes diagnostics to
// stderr. One poll() loop, single-threaded: requests, child pipes, SIGCHLD (signalfd),
// deadlines. Runs are started with fork + setsid + exec, so each has its own process group.
#include "agent/protocol.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <memory>
#include <poll.h>
#include <set>
#include <string>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace {

using namespace sandbox::agent;

// ---------------------------------------------------------------------------------------
// Diagnostics (stderr only: stdout carries frames)

void logf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void logf(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (n > int(sizeof buf) - 2)
        n = int(sizeof buf) - 2;
    buf[n++] = '\n';
    std::string line = "sandbox-agent: ";
    line.append(buf, size_t(n));
    [[maybe_unused]] ssize_t w = ::write(2, line.data(), line.size());
}

long long nowMs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

// ---------------------------------------------------------------------------------------
// Minimal JSON for flat headers: values are strings, integers, booleans, null or arrays of
// strings (see protocol.h).

struct Value
{
    enum class Type
    {
        Null,
        String,
        Number,
        Bool,
        StringArray
    };
    Type type = Type::Null;
    std::string str;
    long long num = 0;
    bool boolean = false;
    std::vector<std::string> arr;
};

class Header
{
public:
    bool parse(std::string_view text, std::string &error)
    {
        m_p = text.data();
        m_end = text.data() + text.size();
        ws();
        if (!eat('{'))
            return fail(error, "header is not a JSON object");
        ws();
        if (eat('}'))
            return finish(error);
        for (;;) {
            ws();
            std::string key;
            if (!string(key))
                return fail(error, "bad key");
            ws();
            if (!eat(':'))
                return fail(error, "expected ':'");
            ws();
            Value v;
            if (!value(v))
                return fail(error, "bad value for key '" + key + "'");
            m_fields[key] = std::move(v);
            ws();
            if (eat(','))
                continue;
            if (eat('}'))
                return finish(error);
            return fail(error, "expected ',' or '}'");
        }
    }

    const Value *get(const std::string &key) const
    {
        auto it = m_fields.find(key);
        return it == m_fields.end() ? nullptr : &it->second;
    }
    std::string str(const std::string &key) const
    {
        const Value *v = get(key);
        return v && v->type == Value::Type::String ? v->str : std::string();
    }
    long long num(const std::string &key, long long def = 0) const
    {
        const Value *v = get(key);
        return v && v->type == Value::Type::Number ? v->num : def;
    }
    bool flag(const std::string &key) const
    {
        const Value *v = get(key);
        return v && v->type == Value::Type::Bool && v->boolean;
    }
    std::vector<std::string> list(const std::string &key) const
    {
        const Value *v = get(key);
        return v && v->type == Value::Type::StringArray ? v->arr : std::vector<std::string>();
    }

private:
    bool fail(std::string &error, const std::string &what)
    {
        error = "malformed header: " + what;
        return false;
    }
    bool finish(std::string &error)
    {
        ws();
        return m_p == m_end ? true : fail(error, "trailing bytes");
    }
    void ws()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\t' || *m_p == '\n' || *m_p == '\r'))
            ++m_p;
    }
    bool eat(char c)
    {
        if (m_p < m_end && *m_p == c) {
            ++m_p;
            return true;
        }
        return false;
    }
    bool literal(const char *word)
    {
        const size_t n = strlen(word);
        if (size_t(m_end - m_p) < n || memcmp(m_p, word, n) != 0)
            return false;
        m_p += n;
        return true;
    }
    static void utf8(std::string &out, unsigned cp)
    {
        if (cp < 0x80) {
            out += char(cp);
        } else if (cp < 0x800) {
            out += char(0xC0 | (cp >> 6));
            out += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += char(0xE0 | (cp >> 12));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        } else {
            out += char(0xF0 | (cp >> 18));
            out += char(0x80 | ((cp >> 12) & 0x3F));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        }
    }
    bool hex4(unsigned &cp)
    {
        if (m_end - m_p < 4)
            return false;
        cp = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = *m_p++;
            cp <<= 4;
            if (c >= '0' && c <= '9')
                cp |= unsigned(c - '0');
            else if (c >= 'a' && c <= 'f')
                cp |= unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                cp |= unsigned(c - 'A' + 10);
            else
                return false;
        }
        return true;
    }
    bool string(std::string &out)
    {
        if (!eat('"'))
            return false;
        while (m_p < m_end) {
            const char c = *m_p++;
            if (c == '"')
                return true;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_p >= m_end)
                return false;
            const char e = *m_p++;
            switch (e) {
            case '"':
            case '\\':
            case '/':
                out += e;
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                unsigned cp = 0;
                if (!hex4(cp))
                    return false;
                if (cp >= 0xD800 && cp < 0xDC00) { // high surrogate: a low one must follow
                    unsigned lo = 0;
                    if (!literal("\\u") || !hex4(lo) || lo < 0xDC00 || lo > 0xDFFF)
                        return false;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                utf8(out, cp);
                break;
            }
            default:
                return false;
            }
        }
        return false;
    }
    bool value(Value &v)
    {
        if (m_p >= m_end)
            return false;
        const char c = *m_p;
        if (c == '"') {
            v.type = Value::Type::String;
            return string(v.str);
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            bool neg = eat('-');
            if (m_p >= m_end || *m_p < '0' || *m_p > '9')
                return false;
            long long n = 0;
            while (m_p < m_end && *m_p >= '0' && *m_p <= '9') {
                if (n > (1ll << 53))
                    return false;
                n = n * 10 + (*m_p++ - '0');
            }
            // Fractions and exponents are not part of this protocol.
            if (m_p < m_end && (*m_p == '.' || *m_p == 'e' || *m_p == 'E'))
                return false;
            v.type = Value::Type::Number;
            v.num = neg ? -n : n;
            return true;
        }
        if (literal("true")) {
            v.type = Value::Type::Bool;
            v.boolean = true;
            return true;
        }
        if (literal("false")) {
            v.type = Value::Type::Bool;
            return true;
        }
        if (literal("null"))
            return true;
        if (eat('[')) {
            v.type = Value::Type::StringArray;
            ws();
            if (eat(']'))
                return true;
            for (;;) {
                ws();
                std::string item;
                if (!string(item))
                    return false;
                v.arr.push_back(std::move(item));
                ws();
                if (eat(','))
                    continue;
                return eat(']');
            }
        }
        return false;
    }

    const char *m_p = nullptr;
    const char *m_end = nullptr;
    std::map<std::string, Value> m_fields;
};

/// Builds one flat JSON object.
class JsonOut
{
public:
    JsonOut &str(const char *key, std::string_view v)
    {
        keyPart(key);
        m_s += '"';
        for (size_t i = 0; i < v.size(); ++i) {
            const auto c = static_cast<unsigned char>(v[i]);
            if (c >= 0x80) {
                // Valid UTF-8 passes through; any other byte becomes U+FFFD, so the engine's
                // JSON parser never sees an invalid string (messages carry paths and argv).
                const size_t len = utf8Length(v.substr(i));
                if (len == 0) {
                    m_s += "\\ufffd";
                } else {
                    m_s.append(v.substr(i, len));
                    i += len - 1;
                }
            } else if (c == '"' || c == '\\') {
                m_s += '\\';
                m_s += char(c);
            } else if (c == '\n') {
                m_s += "\\n";
            } else if (c < 0x20 || c == 0x7f) {
                char buf[8];
                snprintf(buf, sizeof buf, "\\u%04x", c);
                m_s += buf;
            } else {
                m_s += char(c);
            }
        }
        m_s += '"';
        return *this;
    }
    JsonOut &num(const char *key, long long v)
    {
        keyPart(key);
        m_s += std::to_string(v);
        return *this;
    }
    JsonOut &boolean(const char *key, bool v)
    {
        keyPart(key);
        m_s += v ? "true" : "false";
        return *this;
    }
    JsonOut &strings(const char *key, const std::vector<std::string> &items)
    {
        keyPart(key);
        m_s += '[';
        for (size_t i = 0; i < items.size(); ++i) {
            if (i)
                m_s += ',';
            JsonOut one;
            one.str("v", items[i]);
            const std::string item = one.m_s; // {"v":"..."
            m_s += item.substr(5);
        }
        m_s += ']';
        return *this;
    }
    std::string done() { return m_s + '}'; }

private:
    /// Length of the well-formed UTF-8 sequence at the start of s, 0 when there is none.
    static size_t utf8Length(std::string_view s)
    {
        const auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
        const auto cont = [&](size_t i) { return i < s.size() && (b(i) & 0xC0) == 0x80; };
        const unsigned char c = b(0);
        if (c >= 0xC2 && c <= 0xDF)
            return cont(1) ? 2 : 0;
        if (c >= 0xE0 && c <= 0xEF) {
            if (!cont(1) || !cont(2))
                return 0;
            if ((c == 0xE0 && b(1) < 0xA0) || (c == 0xED && b(1) > 0x9F))
                return 0; // overlong or surrogate
            return 3;
        }
        if (c >= 0xF0 && c <= 0xF4) {
            if (!cont(1) || !cont(2) || !cont(3))
                return 0;
            if ((c == 0xF0 && b(1) < 0x90) || (c == 0xF4 && b(1) > 0x8F))
                return 0;
            return 4;
        }
        return 0;
    }

    void keyPart(const char *key)
    {
        m_s += m_first ? "" : ",";
        m_first = false;
        m_s += '"';
        m_s += key;
        m_s += "\":";
    }
    std::string m_s = "{";
    bool m_first = true;
};

// ---------------------------------------------------------------------------------------
// State

/// Output waiting for stdout. The agent stops reading children's pipes above HighWater so
/// a slow engine applies backpressure to programs, never to requests.
constexpr size_t HighWater = 4u << 20;

struct Run
{
    long long id = 0;
    pid_t pid = -1;
    int inFd = -1, outFd = -1, errFd = -1;
    std::string inBuf;
    size_t inPos = 0;
    bool inCloseRequested = false;
    long long startMs = 0;
    long long deadlineMs = 0; ///< 0 = none
    long long reapedMs = 0;
    long long graceFromMs = 0; ///< ExitGraceMs counts from here (reset while backpressured)
    bool reaped = false;
    int status = 0;
    rusage usage{};
    bool timedOut = false;
    bool truncated = false;
    long long outputLimit = 0;
    long long forwarded = 0;
    std::string zygote; ///< forked from this language's zygote: ask it for a spare at exit
};

/// A preloaded interpreter (protocol.h, "Zygotes"): started by the agent with a
/// SOCK_SEQPACKET control socket as its fd 3; it keeps at most one "spare" (a forked,
/// re-parented child waiting for its job) ready for the next run.
struct Zygote
{
    std::string language;
    std::vector<std::string> argv; ///< how it was started ("python3", script, modules...)
    std::vector<std::string> env;  ///< its whole environment, sorted: runs must match it
    pid_t pid = -1;
    int ctrl = -1;
    enum class State
    {
        Starting,
        Ready,
        Failed
    } state = State::Starting;
    std::string message; ///< why it failed
    long long startedMs = 0;
    long long preloadMs = 0;
    long long modules = 0;
    pid_t sparePid = -1;
    int spareSock = -1;
    bool sparePending = false;
    long long forks = 0;
    bool announce = true; ///< send a "zygote" event on the next state change

    const char *stateName() const
    {
        return state == State::Ready ? "ready" : state == State::Starting ? "starting" : "failed";
    }
};

struct Agent
{
    std::string out;
    size_t outPos = 0;
    FrameDecoder decoder;
    std::map<long long, std::unique_ptr<Run>> runs;
    std::map<std::string, Zygote> zygotes;
    int sigFd = -1;
    bool stdinEof = false;
    bool stopping = false;

    size_t outPending() const { return out.size() - outPos; }

    void emit(const std::string &header, std::string_view payload = {})
    {
        if (outPos > 0 && outPos == out.size()) {
            out.clear();
            outPos = 0;
        }
        if (!appendFrame(out, header, payload))
            logf("dropping an oversized event (%zu bytes)", header.size() + payload.size());
    }

    void emitError(long long id, const std::string &message)
    {
        emit(JsonOut().str("ev", "error").num("id", id).str("message", message).done());
    }

    /// A run that could not start: the error, then its exit (126, like a shell's "cannot
    /// execute"), so the engine waiting for it is not left hanging.
    void emitStartFailure(long long id, const std::string &message)
    {
        emitError(id, message);
        emit(JsonOut()
                 .str("ev", "exit")
                 .num("id", id)
                 .num("exit_code", 126)
                 .num("signal", 0)
                 .boolean("timed_out", false)
                 .boolean("output_truncated", false)
                 .num("duration_ms", 0)
                 .num("max_rss_kb", 0)
                 .num("user_ms", 0)
                 .num("sys_ms", 0)
                 .done());
    }

    /// Writes what stdout takes without blocking. Returns false when stdout is gone.
    bool flush()
    {
        while (outPos < out.size()) {
            const ssize_t n = ::write(1, out.data() + outPos, out.size() - outPos);
            if (n > 0) {
                outPos += size_t(n);
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                return true;
            logf("stdout closed: %s", strerror(errno));
            return false;
        }
        out.clear();
        outPos = 0;
        return true;
    }

    void killGroup(pid_t pg, int sig)
    {
        if (pg > 1)
            ::kill(-pg, sig);
    }

    /// SIGKILLs the process groups of runs in flight and every other descendant (orphans
    /// are re-parented to us as subreaper, so processes that left their group with setsid
    /// are still found). Never kill(-1): run outside a container, as root, that would take
    /// the whole machine down.
    void killAll(const std::set<pid_t> &keep = {})
    {
        for (auto &[id, run] : runs)
            if (!run->reaped)
                killGroup(run->pid, SIGKILL);
        // Until none is left alive: a SIGKILLed process with a large address space takes
        // a while to exit, and the caller's next step (a reset check) must not see it.
        const long long until = nowMs() + 3000;
        for (int round = 0; killDescendants(keep) > 0 && nowMs() < until; ++round)
            usleep(round < 8 ? 1000 : 5000);
    }

    /// One pass over /proc: SIGKILLs live descendants of this process, except the
    /// processes in keep and their own descendants. Returns how many.
    static int killDescendants(const std::set<pid_t> &keep = {})
    {
        const pid_t self = getpid();
        std::map<pid_t, pid_t> parentOf;
        std::vector<pid_t> live;
        DIR *dir = opendir("/proc");
        if (!dir)
            return 0;
        while (dirent *e = readdir(dir)) {
            char *end = nullptr;
            const long pid = strtol(e->d_name, &end, 10);
            if (pid <= 0 || !end || *end)
                continue;
            char path[64];
            snprintf(path, sizeof path, "/proc/%ld/stat", pid);
            const int fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd < 0)
                continue;
            char buf[512];
            const ssize_t n = ::read(fd, buf, sizeof buf - 1);
            ::close(fd);
            if (n <= 0)
                continue;
            buf[n] = 0;
            // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
            const char *rp = strrchr(buf, ')');
            if (!rp || rp[1] != ' ' || !rp[2])
                continue;
            const char state = rp[2];
            const long ppid = strtol(rp + 3, nullptr, 10);
            parentOf[pid_t(pid)] = pid_t(ppid);
            if (state != 'Z' && state != 'X' && pid != self)
                live.push_back(pid_t(pid));
        }
        closedir(dir);
        int killed = 0;
        for (const pid_t pid : live) {
            pid_t cur = pid;
            for (int depth = 0; depth < 256 && cur > 1; ++depth) {
                if (keep.count(cur))
                    break;
                auto it = parentOf.find(cur);
                if (it == parentOf.end())
                    break;
                cur = it->second;
                if (cur == self) {
                    ::kill(pid, SIGKILL);
                    ++killed;
                    break;
                }
            }
        }
        return killed;
    }

    void startRun(const Header &h);
    void startZygote(const Header &h);
    void emitZygote(const Zygote &z);
    void zygoteFailed(Zygote &z, const std::string &message);
    void requestSpare(Zygote &z);
    void dropSpare(Zygote &z);
    bool readZygote(Zygote &z);
    /// The zygote to fork a run from, or nullptr (then why says what did not fit).
    Zygote *zygoteFor(const std::string &language, const std::vector<std::string> &argv,
                      const std::vector<std::string> &env, std::string &why);
    /// Waits (a bounded time) for spares being made, checks every zygote and spare, and
    /// returns the pids that kill_all must spare.
    std::set<pid_t> zygotesToKeep();
    void handleFrame(std::string_view header, std::string_view payload);
    void reapChildren();
    void pumpRun(Run &run, const pollfd *inP, const pollfd *outP, const pollfd *errP);
    bool finishIfDone(Run &run, long long now);
};

void closeFd(int &fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

void setNonBlocking(int fd)
{
    const int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/// Closes every descriptor from `from` up, except `keep`.
void closeFrom(int from, int keep)
{
    auto range = [](unsigned lo, unsigned hi) {
        if (lo > hi)
            return;
        if (syscall(SYS_close_range, lo, hi, 0) == 0)
            return;
        const long max = std::min(sysconf(_SC_OPEN_MAX), 65536l);
        for (long fd = lo; fd <= long(hi) && fd < max; ++fd)
            ::close(int(fd));
    };
    if (keep >= from) {
        range(unsigned(from), unsigned(keep - 1));
        range(unsigned(keep + 1), ~0u);
    } else {
        range(unsigned(from), ~0u);
    }
}

std::vector<std::string> mergedEnv(const std::vector<std::string> &extra)
{
    std::vector<std::string> env;
    for (char **e = environ; e && *e; ++e)
        env.emplace_back(*e);
    for (const std::string &kv : extra) {
        const size_t eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
            continue;
        const std::string_view key(kv.data(), eq + 1);
        auto it = std::find_if(env.begin(), env.end(),
                               [&](const std::string &cur) { return cur.starts_with(key); });
        if (it != env.end())
            *it = kv;
        else
            env.push_back(kv);
    }
    return env;
}

void Agent::startRun(const Header &h)
{
    const long long id = h.num("id");
    if (id <= 0) {
        emitError(id, "run needs an integer id >= 1");
        return;
    }
    if (runs.count(id)) {
        emitError(id, "a run with this id is still in flight");
        return;
    }
    std::vector<std::string> argv = h.list("argv");
    if (argv.empty() || argv[0].empty()) {
        emitError(id, "run needs a non-empty argv");
        emit(JsonOut()
                 .str("ev", "exit")
                 .num("id", id)
                 .num("exit_code", 127)
                 .num("signal", 0)
                 .boolean("timed_out", false)
                 .boolean("output_truncated", false)
                 .num("duration_ms", 0)
                 .num("max_rss_kb", 0)
                 .num("user_ms", 0)
                 .num("sys_ms", 0)
                 .done());
        return;
    }
    const std::vector<std::string> env = mergedEnv(h.list("env"));
    const std::string cwd = h.str("cwd");
    const bool wantStdin = h.flag("stdin");

    auto run = std::make_unique<Run>();
    run->id = id;
    run->outputLimit = std::max(0ll, h.num("output_limit"));

    int inP[2] = {-1, -1}, outP[2] = {-1, -1}, errP[2] = {-1, -1}, execP[2] = {-1, -1};
    bool ok =
        pipe2(outP, O_CLOEXEC) == 0 && pipe2(errP, O_CLOEXEC) == 0 && pipe2(execP, O_CLOEXEC) == 0;
    if (ok)
        ok = wantStdin ? pipe2(inP, O_CLOEXEC) == 0
                       : (inP[0] = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0;
    if (!ok) {
        const int err = errno;
        for (int fd : {inP[0], inP[1], outP[0], outP[1], errP[0], errP[1], execP[0], execP[1]})
            if (fd >= 0)
                ::close(fd);
        emitStartFailure(id, std::string("cannot create pipes: ") + strerror(err));
        return;
    }

    // Everything the child needs is prepared before fork: it only calls async-signal-safe
    // functions afterwards.
    std::vector<char *> cargv;
    for (std::string &a : argv)
        cargv.push_back(a.data());
    cargv.push_back(nullptr);
    std::vector<std::string> envCopy = env;
    std::vector<char *> cenv;
    for (std::string &e : envCopy)
        cenv.push_back(e.data());
    cenv.push_back(nullptr);

    // A run of a preloaded interpreter's program starts as a fork of it (the spare),
    // when the program, its arguments and its environment are what the zygote fits.
    std::string zygoteWhy;
    Zygote *zygote = nullptr;
    if (const std::string lang = h.str("zygote"); !lang.empty())
        zygote = zygoteFor(lang, argv, env, zygoteWhy);

    run->startMs = nowMs();
    pid_t pid = -1;
    bool viaZygote = false;
    if (zygote) {
        // No cwd = the agent's own, as for an exec'd program.
        std::string where = cwd;
        if (where.empty()) {
            char buf[4096];
            where = getcwd(buf, sizeof buf) ? buf : "/";
        }
        std::string job = JsonOut().strings("argv", argv).str("cwd", where).done();
        const int fds[4] = {inP[0], outP[1], errP[1], execP[1]};
        char control[CMSG_SPACE(sizeof fds)] = {};
        iovec iov{job.data(), job.size()};
        msghdr msg{};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        cmsghdr *cm = CMSG_FIRSTHDR(&msg);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof fds);
        memcpy(CMSG_DATA(cm), fds, sizeof fds);
        ssize_t sent;
        do {
            sent = sendmsg(zygote->spareSock, &msg, MSG_NOSIGNAL);
        } while (sent < 0 && errno == EINTR);
        if (sent == ssize_t(job.size())) {
            pid = zygote->sparePid;
            viaZygote = true;
            ++zygote->forks;
            ::close(zygote->spareSock);
            zygote->spareSock = -1;
            zygote->sparePid = -1;
            // The next spare is made when this run ends: forking now would compete with
            // the program's start for the CPU.
            run->zygote = zygote->language;
        } else {
            logf("spare %d of the %s zygote did not take its job: %s", zygote->sparePid,
                 zygote->language.c_str(), strerror(errno));
            dropSpare(*zygote);
            requestSpare(*zygote);
        }
    }
    if (!viaZygote)
        pid = fork();
    if (pid == 0) {
        // Child: own session and process group, default signal state, only fds 0-2.
        setsid();
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        for (int s : {SIGPIPE, SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT})
            signal(s, SIG_DFL);
        dup2(inP[0], 0);
        dup2(outP[1], 1);
        dup2(errP[1], 2);
        closeFrom(3, execP[1]);
        struct
        {
            int stage;
            int err;
        } failure{0, 0};
        if (!cwd.empty() && chdir(cwd.c_str()) != 0) {
            failure = {1, errno};
        } else {
            environ = cenv.data();
            execvp(cargv[0], cargv.data());
            failure = {2, errno};
        }
        [[maybe_unused]] ssize_t w = ::write(execP[1], &failure, sizeof failure);
        _exit(failure.err == EACCES || failure.err == ENOEXEC ? 126 : 127);
    }
    const int forkErr = errno;
    ::close(inP[0]);
    ::close(outP[1]);
    ::close(errP[1]);
    ::close(execP[1]);
    if (pid < 0) {
        for (int fd : {inP[1], outP[0], errP[0], execP[0]})
            if (fd >= 0)
                ::close(fd);
        emitStartFailure(id, std::string("fork failed: ") + strerror(forkErr));
        return;
    }
    run->pid = pid;
    run->inFd = inP[1];
    run->outFd = outP[0];
    run->errFd = errP[0];
    for (int fd : {run->inFd, run->outFd, run->errFd})
        if (fd >= 0)
            setNonBlocking(fd);
    const long long timeout = h.num("timeout_ms");
    if (timeout > 0)
        run->deadlineMs = run->startMs + timeout;

    JsonOut started;
    started.str("ev", "started").num("id", id).num("pid", pid);
    if (!h.str("zygote").empty()) {
        started.boolean("zygote", viaZygote);
        if (!viaZygote)
            started.str("zygote_why", zygoteWhy);
    }
    emit(started.done());

    // Did exec succeed? The pipe closes on exec (EOF) or carries the failure. A spare
    // closes it just before the program's first line, or writes the same failure record.
    struct
    {
        int stage;
        int err;
    } failure{0, 0};
    ssize_t got;
    if (viaZygote) {
        pollfd pfd{execP[0], POLLIN, 0};
        int ready;
        do {
            ready = poll(&pfd, 1, 10'000);
        } while (ready < 0 && errno == EINTR);
        if (ready == 0) {
            // A spare that does not start (stopped by someone) is not waited for.
            logf("spare %d did not start its run in 10 s: killing it", pid);
            killGroup(pid, SIGKILL);
            ::kill(pid, SIGKILL);
        }
    }
    do {
        got = ::read(execP[0], &failure, sizeof failure);
    } while (got < 0 && errno == EINTR);
    ::close(execP[0]);
    if (got == ssize_t(sizeof failure)) {
        emitError(id, (failure.stage == 1 ? "cannot enter " + cwd : "cannot execute " + argv[0]) +
                          ": " + strerror(failure.err));
    } else if (viaZygote && got != 0) {
        emitError(id, "the preloaded interpreter could not start the program");
    }
    runs[id] = std::move(run);
}

void Agent::emitZygote(const Zygote &z)
{
    JsonOut ev;
    ev.str("ev", "zygote")
        .str("language", z.language)
        .str("state", z.stateName())
        .num("pid", z.pid)
        .num("spare", z.sparePid)
        .num("preload_ms", z.preloadMs)
        .num("modules", z.modules)
        .num("forks", z.forks);
    if (!z.message.empty())
        ev.str("message", z.message);
    emit(ev.done());
}

void Agent::dropSpare(Zygote &z)
{
    if (z.spareSock >= 0)
        ::close(z.spareSock); // a waiting spare reads EOF and exits
    z.spareSock = -1;
    if (z.sparePid > 1)
        ::kill(z.sparePid, SIGKILL);
    z.sparePid = -1;
}

void Agent::zygoteFailed(Zygote &z, const std::string &message)
{
    if (z.state == Zygote::State::Failed)
        return;
    logf("%s zygote: %s", z.language.c_str(), message.c_str());
    const pid_t spare = z.sparePid;
    dropSpare(z);
    if (z.pid > 1)
        ::kill(z.pid, SIGKILL);
    closeFd(z.ctrl);
    // Reap both here (bounded): a reset that follows must not find them still exiting.
    for (pid_t pid : {z.pid, spare}) {
        if (pid <= 1)
            continue;
        const long long until = nowMs() + 2000;
        while (nowMs() < until) {
            int st = 0;
            const pid_t r = waitpid(pid, &st, WNOHANG);
            if (r == pid || (r < 0 && errno == ECHILD))
                break;
            usleep(2000);
        }
    }
    z.pid = -1;
    z.state = Zygote::State::Failed;
    z.message = message;
    z.sparePending = false;
    emitZygote(z);
}

void Agent::requestSpare(Zygote &z)
{
    if (z.state != Zygote::State::Ready || z.sparePending || z.sparePid > 0 || z.ctrl < 0)
        return;
    ssize_t n;
    do {
        n = ::send(z.ctrl, "spare", 5, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    if (n != 5) {
        zygoteFailed(z, std::string("cannot ask for a spare: ") + strerror(errno));
        return;
    }
    z.sparePending = true;
}

/// Reads one message of z's control socket. Returns false when there was none to read.
bool Agent::readZygote(Zygote &z)
{
    char buf[4096];
    int fds[4] = {-1, -1, -1, -1};
    char control[CMSG_SPACE(sizeof fds)] = {};
    iovec iov{buf, sizeof buf - 1};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    const ssize_t n = recvmsg(z.ctrl, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return false;
    int got = 0;
    for (cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
        if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
            got = int((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            memcpy(fds, CMSG_DATA(cm), size_t(std::min(got, 4)) * sizeof(int));
        }
    }
    if (n <= 0) {
        for (int i = 0; i < std::min(got, 4); ++i)
            ::close(fds[i]);
        zygoteFailed(z, n == 0 ? "the zygote exited"
                               : std::string("control socket: ") + strerror(errno));
        return false;
    }
    buf[n] = 0;
    Header h;
    std::string error;
    if (!h.parse(std::string_view(buf, size_t(n)), error)) {
        for (int i = 0; i < std::min(got, 4); ++i)
            ::close(fds[i]);
        zygoteFailed(z, "the zygote said something unreadable: " + error);
        return false;
    }
    if (const std::string e = h.str("error"); !e.empty()) {
        for (int i = 0; i < std::min(got, 4); ++i)
            ::close(fds[i]);
        zygoteFailed(z, e);
        return false;
    }
    if (h.flag("ready")) {
        z.state = Zygote::State::Ready;
        z.preloadMs = h.num("preload_ms");
        z.modules = h.num("modules");
        z.message.clear();
        requestSpare(z);
        return true; // announced when its first spare is there
    }
    if (const long long spare = h.num("spare"); spare > 1 && got >= 1) {
        for (int i = 1; i < std::min(got, 4); ++i)
            ::close(fds[i]);
        z.sparePending = false;
        z.sparePid = pid_t(spare);
        z.spareSock = fds[0];
        if (z.announce) {
            z.announce = false;
            emitZygote(z);
        }
        return true;
    }
    for (int i = 0; i < std::min(got, 4); ++i)
        ::close(fds[i]);
    logf("%s zygote: unexpected message %s", z.language.c_str(), buf);
    return true;
}

void Agent::startZygote(const Header &h)
{
    const std::string language = h.str("language");
    std::vector<std::string> argv = h.list("argv");
    if (language.empty() || argv.empty() || argv[0].empty()) {
        emit(JsonOut()
                 .str("ev", "zygote")
                 .str("language", language)
                 .str("state", "failed")
                 .str("message", "zygote needs a language and a non-empty argv")
                 .done());
        return;
    }
    auto it = zygotes.find(language);
    if (it != zygotes.end() && it->second.state != Zygote::State::Failed &&
        it->second.argv == argv) {
        Zygote &z = it->second;
        if (z.state == Zygote::State::Ready && z.sparePid > 0)
            emitZygote(z);
        else
            z.announce = true; // answered once it is ready (or failed)
        requestSpare(z);
        return;
    }
    if (it != zygotes.end()) {
        zygoteFailed(it->second, "replaced");
        zygotes.erase(it);
    }
    Zygote &z = zygotes[language];
    z.language = language;
    z.argv = argv;
    z.env = mergedEnv(h.list("env"));
    std::sort(z.env.begin(), z.env.end());
    z.startedMs = nowMs();

    int sv[2] = {-1, -1};
    int inP[2] = {-1, -1};
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0 ||
        pipe2(inP, O_CLOEXEC) != 0) {
        for (int fd : {sv[0], sv[1], inP[0], inP[1]})
            if (fd >= 0)
                ::close(fd);
        z.state = Zygote::State::Starting;
        zygoteFailed(z, std::string("cannot create its sockets: ") + strerror(errno));
        return;
    }
    std::vector<char *> cargv;
    for (std::string &a : z.argv)
        cargv.push_back(a.data());
    cargv.push_back(nullptr);
    std::vector<std::string> envCopy = z.env;
    std::vector<char *> cenv;
    for (std::string &e : envCopy)
        cenv.push_back(e.data());
    cenv.push_back(nullptr);
    const std::string cwd = h.str("cwd").empty() ? std::string("/") : h.str("cwd");

    const pid_t pid = fork();
    if (pid == 0) {
        // The zygote: its own session, stdin a pipe at EOF (a run's stdin is a pipe too),
        // stdout and stderr the agent's diagnostics, the control socket as fd 3.
        setsid();
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        for (int s : {SIGPIPE, SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT})
            signal(s, SIG_DFL);
        dup2(inP[0], 0);
        dup2(2, 1);
        if (sv[1] != 3) {
            dup2(sv[1], 3);
        } else {
            fcntl(3, F_SETFD, 0);
        }
        closeFrom(4, -1);
        if (chdir(cwd.c_str()) == 0) {
            environ = cenv.data();
            execvp(cargv[0], cargv.data());
        }
        _exit(127);
    }
    const int err = errno;
    ::close(sv[1]);
    ::close(inP[0]);
    ::close(inP[1]); // EOF for the zygote's stdin
    z.state = Zygote::State::Starting;
    if (pid < 0) {
        ::close(sv[0]);
        zygoteFailed(z, std::string("fork failed: ") + strerror(err));
        return;
    }
    z.pid = pid;
    z.ctrl = sv[0];
    z.announce = true;
    setNonBlocking(z.ctrl);
}

Zygote *Agent::zygoteFor(const std::string &language, const std::vector<std::string> &argv,
                         const std::vector<std::string> &env, std::string &why)
{
    auto it = zygotes.find(language);
    if (it == zygotes.end()) {
        why = "no zygote for " + language;
        return nullptr;
    }
    Zygote &z = it->second;
    if (z.state != Zygote::State::Ready) {
        why = std::string("the zygote is ") + z.stateName();
        return nullptr;
    }
    if (z.sparePid <= 0 || z.spareSock < 0) {
        why = "no spare ready";
        requestSpare(z);
        return nullptr;
    }
    // `python3 FILE ARGS...` with the interpreter the zygote runs: options would change
    // what a fresh interpreter does, so they take the plain path.
    if (argv.size() < 2 || argv[0] != z.argv[0] || argv[1].empty() || argv[1][0] == '-') {
        why = "the command is not `" + z.argv[0] + " FILE ARGS`";
        return nullptr;
    }
    std::vector<std::string> sorted = env;
    std::sort(sorted.begin(), sorted.end());
    if (sorted != z.env) {
        why = "the run's environment differs from the zygote's";
        return nullptr;
    }
    return &z;
}

namespace {

/// Field 3 (state) and 19 (nice) of /proc/PID/stat; false when unreadable.
bool procStat(pid_t pid, char &state, long &nice)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char buf[1024];
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0)
        return false;
    buf[n] = 0;
    const char *rp = strrchr(buf, ')');
    if (!rp || rp[1] != ' ' || !rp[2])
        return false;
    state = rp[2];
    // After ") S ": ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt
    // utime stime cutime cstime priority nice
    const char *p = rp + 3;
    for (int field = 4; field < 19 && p; ++field) {
        p = strchr(p, ' ');
        if (p)
            ++p;
    }
    nice = p ? strtol(p, nullptr, 10) : 0;
    return true;
}

std::string readSmall(const std::string &path)
{
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    std::string out;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0 && out.size() < (64u << 10))
        out.append(buf, size_t(n));
    ::close(fd);
    return out;
}

std::string statusLine(const std::string &status, const char *key)
{
    const size_t at = status.find(key);
    if (at == std::string::npos)
        return {};
    return status.substr(at, status.find('\n', at) - at);
}

/// Whether a run could have changed pid (same uid): stopped, reniced, other resource
/// limits (prlimit) or CPU affinity than the agent's, which every plain run inherits.
std::string tampered(pid_t pid)
{
    char state = 0;
    long nice = 0;
    if (!procStat(pid, state, nice))
        return "gone";
    if (state != 'S' && state != 'R')
        return std::string("in state ") + state;
    char selfState = 0;
    long selfNice = 0;
    if (procStat(getpid(), selfState, selfNice) && nice != selfNice)
        return "reniced to " + std::to_string(nice);
    const std::string dir = "/proc/" + std::to_string(pid);
    if (readSmall(dir + "/limits") != readSmall("/proc/self/limits"))
        return "resource limits changed";
    const std::string st = readSmall(dir + "/status"), self = readSmall("/proc/self/status");
    if (statusLine(st, "Cpus_allowed:") != statusLine(self, "Cpus_allowed:"))
        return "CPU affinity changed";
    return {};
}

} // namespace

std::set<pid_t> Agent::zygotesToKeep()
{
    std::set<pid_t> keep;
    for (auto &[language, z] : zygotes) {
        // A spare being made is a fork in flight: wait for it (bounded), so that what
        // kill_all spares is settled.
        const long long until = nowMs() + 3000;
        while (z.state == Zygote::State::Ready && z.sparePending && z.ctrl >= 0 &&
               nowMs() < until) {
            pollfd p{z.ctrl, POLLIN, 0};
            if (poll(&p, 1, int(std::max(1ll, until - nowMs()))) > 0)
                while (z.ctrl >= 0 && readZygote(z)) {
                }
        }
        if (z.state == Zygote::State::Starting) {
            // Still importing: it has run no program, but the reset that follows empties
            // the directory it imports from. Start it again afterwards.
            zygoteFailed(z, "stopped while preloading (sandbox reset)");
            continue;
        }
        if (z.state != Zygote::State::Ready)
            continue;
        if (z.sparePending) {
            zygoteFailed(z, "no spare within 3 s");
            continue;
        }
        if (const std::string t = tampered(z.pid); !t.empty()) {
            zygoteFailed(z, "the zygote was tampered with (" + t + "): replaced");
            continue;
        }
        if (z.sparePid > 0) {
            if (const std::string t = tampered(z.sparePid); !t.empty()) {
                logf("%s spare %d: %s: replaced", language.c_str(), z.sparePid, t.c_str());
                dropSpare(z);
            } else {
                keep.insert(z.sparePid);
            }
        }
        keep.insert(z.pid);
    }
    return keep;
}

void Agent::handleFrame(std::string_view headerText, std::string_view payload)
{
    Header h;
    std::string error;
    if (!h.parse(headerText, error)) {
        emitError(0, error);
        return;
    }
    const std::string op = h.str("op");
    const long long id = h.num("id");
    auto findRun = [&]() -> Run * {
        auto it = runs.find(id);
        return it == runs.end() ? nullptr : it->second.get();
    };
    if (op == "hello") {
        emit(JsonOut()
                 .str("ev", "hello")
                 .num("version", ProtocolVersion)
                 .num("pid", getpid())
                 .num("uid", getuid())
                 .done());
    } else if (op == "run") {
        startRun(h);
    } else if (op == "stdin") {
        if (Run *run = findRun(); run && run->inFd >= 0 && !run->inCloseRequested) {
            if (run->inPos > 0 && run->inPos == run->inBuf.size()) {
                run->inBuf.clear();
                run->inPos = 0;
            }
            run->inBuf.append(payload);
        }
    } else if (op == "stdin_close") {
        if (Run *run = findRun())
            run->inCloseRequested = true;
    } else if (op == "signal") {
        const long long sig = h.num("signal", SIGKILL);
        if (Run *run = findRun())
            killGroup(run->pid, int(sig));
        else
            emitError(id, "no such run");
    } else if (op == "kill_all") {
        // Zygotes and their spares have run no program: they survive when nothing a run
        // could do to them shows (zygotesToKeep), and are replaced otherwise.
        const std::set<pid_t> keep = zygotesToKeep();
        killAll(keep);
        std::vector<std::string> kept;
        for (pid_t p : keep)
            kept.push_back(std::to_string(p));
        emit(JsonOut().str("ev", "killed_all").strings("keep", kept).done());
    } else if (op == "zygote") {
        startZygote(h);
    } else if (op == "zygote_stop") {
        auto it = zygotes.find(h.str("language"));
        if (it != zygotes.end())
            zygoteFailed(it->second, "stopped");
        else
            emitError(0, "no zygote for '" + h.str("language") + "'");
    } else {
        emitError(id, "unknown op '" + op + "'");
    }
}

void Agent::reapChildren()
{
    for (;;) {
        int status = 0;
        rusage ru{};
        const pid_t pid = wait4(-1, &status, WNOHANG, &ru);
        if (pid <= 0)
            return;
        for (auto &[language, z] : zygotes) {
            if (pid == z.pid && z.state != Zygote::State::Failed) {
                z.pid = -1; // reaped: never signal a reused pid
                zygoteFailed(z, "the zygote exited with status " + std::to_string(status));
            } else if (pid == z.sparePid) {
                z.sparePid = -1;
                dropSpare(z);
                requestSpare(z);
            } else if (pid == z.pid) {
                z.pid = -1;
            }
        }
        for (auto &[id, run] : runs) {
            if (run->pid == pid && !run->reaped) {
                run->reaped = true;
                run->reapedMs = nowMs();
                run->graceFromMs = run->reapedMs;
                run->status = status;
                run->usage = ru;
                break;
            }
        }
        // Otherwise an orphan we adopted as subreaper: nothing to report.
    }
}

void Agent::pumpRun(Run &run, const pollfd *inP, const pollfd *outP, const pollfd *errP)
{
    auto drain = [&](int &fd, const pollfd *p, const char *ev) {
        if (fd < 0 || !p || !(p->revents & (POLLIN | POLLHUP | POLLERR)))
            return;
        char buf[65536];
        for (int round = 0; round < 16; ++round) {
            const ssize_t n = ::read(fd, buf, sizeof buf);
            if (n > 0) {
                std::string_view chunk(buf, size_t(n));
                if (run.outputLimit > 0) {
                    const long long room = std::max(0ll, run.outputLimit - run.forwarded);
                    if (static_cast<long long>(chunk.size()) > room) {
                        run.truncated = true;
                        chunk = chunk.substr(0, size_t(room));
                    }
                }
                if (!chunk.empty()) {
                    run.forwarded += static_cast<long long>(chunk.size());
                    emit(JsonOut().str("ev", ev).num("id", run.id).done(), chunk);
                }
                if (outPending() > HighWater)
                    return;
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                return;
            closeFd(fd); // EOF or error
            return;
        }
    };
    drain(run.outFd, outP, "stdout");
    drain(run.errFd, errP, "stderr");

    if (run.inFd >= 0) {
        if (inP && (inP->revents & (POLLERR | POLLHUP))) {
            closeFd(run.inFd); // the program closed its stdin
            run.inBuf.clear();
            run.inPos = 0;
        }
        while (run.inFd >= 0 && run.inPos < run.inBuf.size()) {
            const ssize_t n =
                ::write(run.inFd, run.inBuf.data() + run.inPos, run.inBuf.size() - run.inPos);
            if (n > 0) {
                run.inPos += size_t(n);
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                break;
            closeFd(run.inFd); // EPIPE: the program no longer reads
        }
        if (run.inPos == run.inBuf.size()) {
            run.inBuf.clear();
            run.inPos = 0;
            if (run.inCloseRequested)
                closeFd(run.inFd);
        }
    }
}

bool Agent::finishIfDone(Run &run, long long now)
{
    if (!run.reaped && run.deadlineMs > 0 && now >= run.deadlineMs && !run.timedOut) {
        run.timedOut = true;
        killGroup(run.pid, SIGKILL);
    }
    if (!run.reaped)
        return false;
    const bool pipesOpen = run.outFd >= 0 || run.errFd >= 0;
    if (pipesOpen && outPending() > HighWater) {
        // We are not reading the pipes (the engine is slow): what they hold is not lost
        // output of a background process yet, so the grace period has not started.
        run.graceFromMs = now;
        return false;
    }
    if (pipesOpen && now < run.graceFromMs + ExitGraceMs)
        return false;
    // Whatever the pipes still hold was read by pumpRun; background writers lose the rest.
    closeFd(run.outFd);
    closeFd(run.errFd);
    closeFd(run.inFd);
    int exitCode = 0, sig = 0;
    if (WIFEXITED(run.status)) {
        exitCode = WEXITSTATUS(run.status);
    } else if (WIFSIGNALED(run.status)) {
        sig = WTERMSIG(run.status);
        exitCode = 128 + sig;
    }
    if (!run.zygote.empty())
        if (auto it = zygotes.find(run.zygote); it != zygotes.end())
            requestSpare(it->second);
    auto ms = [](const timeval &tv) { return (long long)tv.tv_sec * 1000 + tv.tv_usec / 1000; };
    emit(JsonOut()
             .str("ev", "exit")
             .num("id", run.id)
             .num("exit_code", exitCode)
             .num("signal", sig)
             .boolean("timed_out", run.timedOut)
             .boolean("output_truncated", run.truncated)
             .num("duration_ms", run.reapedMs - run.startMs)
             .num("max_rss_kb", run.usage.ru_maxrss)
             .num("user_ms", ms(run.usage.ru_utime))
             .num("sys_ms", ms(run.usage.ru_stime))
             .done());
    return true;
}

int mainLoop()
{
    Agent agent;

    // SIGCHLD, SIGTERM, SIGINT and SIGHUP arrive through a signalfd; SIGPIPE is ignored so a
    // closed pipe is an EPIPE, not a death.
    sigset_t mask;
    sigemptyset(&mask);
    for (int s : {SIGCHLD, SIGTERM, SIGINT, SIGHUP})
        sigaddset(&mask, s);
    sigprocmask(SIG_BLOCK, &mask, nullptr);
    signal(SIGPIPE, SIG_IGN);
    agent.sigFd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    if (agent.sigFd < 0) {
        logf("signalfd failed: %s", strerror(errno));
        return 1;
    }
    // Orphaned grandchildren are re-parented to us, so we reap them (no zombies).
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    // Programs run as our uid. Not dumpable: they cannot open /proc/<agent>/fd/* (our
    // stdin/stdout, i.e. forge or steal frames) nor ptrace us. exec resets it for them.
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    setNonBlocking(1);
    fcntl(0, F_SETFD, FD_CLOEXEC);
    fcntl(1, F_SETFD, FD_CLOEXEC);

    std::vector<pollfd> fds;
    struct Slots
    {
        long long id;
        int in, out, err;
    };
    std::vector<Slots> slots;
    for (;;) {
        fds.clear();
        slots.clear();
        fds.push_back({agent.stdinEof ? -1 : 0, POLLIN, 0});
        fds.push_back({1, short(agent.outPending() ? POLLOUT : 0), 0});
        fds.push_back({agent.sigFd, POLLIN, 0});
        std::vector<std::pair<std::string, size_t>> zygoteSlots;
        for (auto &[language, z] : agent.zygotes)
            if (z.ctrl >= 0) {
                zygoteSlots.emplace_back(language, fds.size());
                fds.push_back({z.ctrl, POLLIN, 0});
            }
        const bool readChildren = agent.outPending() <= HighWater;
        long long now = nowMs();
        long long wakeAt = -1;
        auto wakeBy = [&](long long t) { wakeAt = wakeAt < 0 ? t : std::min(wakeAt, t); };
        for (auto &[id, run] : agent.runs) {
            Slots s{id, -1, -1, -1};
            if (run->inFd >= 0 && run->inPos < run->inBuf.size()) {
                s.in = int(fds.size());
                fds.push_back({run->inFd, POLLOUT, 0});
            } else if (run->inFd >= 0 && run->inCloseRequested) {
                s.in = int(fds.size());
                fds.push_back({run->inFd, POLLOUT, 0}); // wakes us to close it
            }
            if (readChildren && run->outFd >= 0) {
                s.out = int(fds.size());
                fds.push_back({run->outFd, POLLIN, 0});
            }
            if (readChildren && run->errFd >= 0) {
                s.err = int(fds.size());
                fds.push_back({run->errFd, POLLIN, 0});
            }
            slots.push_back(s);
            if (!run->reaped && run->deadlineMs > 0 && !run->timedOut)
                wakeBy(run->deadlineMs);
            if (run->reaped)
                wakeBy(run->graceFromMs + ExitGraceMs);
        }
        if (agent.stdinEof && agent.runs.empty())
            break;
        int timeout = wakeAt < 0 ? -1 : int(std::clamp(wakeAt - now, 0ll, 60'000ll));
        const int n = poll(fds.data(), nfds_t(fds.size()), timeout);
        if (n < 0 && errno != EINTR) {
            logf("poll failed: %s", strerror(errno));
            return 1;
        }
        if (n < 0)
            continue;

        if (fds[2].revents & POLLIN) {
            signalfd_siginfo si;
            while (::read(agent.sigFd, &si, sizeof si) == ssize_t(sizeof si)) {
                if (si.ssi_signo == SIGCHLD)
                    continue;
                // As the sandbox's PID 1, a sender outside the sandbox (the engine stopping
                // the container) has no pid here (0). A program of the sandbox may not stop
                // the agent that serves the next borrower of a pooled sandbox.
                if (getpid() == 1 && si.ssi_pid != 0) {
                    logf("signal %u from pid %u of the sandbox: ignored", si.ssi_signo, si.ssi_pid);
                    continue;
                }
                logf("signal %u: stopping", si.ssi_signo);
                agent.stopping = true;
            }
            agent.reapChildren();
        }
        if (agent.stopping)
            break;

        for (const auto &[language, slot] : zygoteSlots) {
            if (!(fds[slot].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            auto it = agent.zygotes.find(language);
            if (it == agent.zygotes.end())
                continue;
            while (it->second.ctrl >= 0 && agent.readZygote(it->second)) {
            }
        }

        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            char buf[65536];
            const ssize_t got = ::read(0, buf, sizeof buf);
            if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) {
                agent.stdinEof = true;
                agent.killAll(); // the engine is gone: nothing may outlive the stream
            } else if (got > 0) {
                agent.decoder.feed(buf, size_t(got));
                std::string_view header, payload;
                for (;;) {
                    const auto st = agent.decoder.next(header, payload);
                    if (st == FrameDecoder::Status::NeedMore)
                        break;
                    if (st == FrameDecoder::Status::Broken) {
                        logf("broken request stream: %s", agent.decoder.error().c_str());
                        agent.emitError(0, "broken request stream: " + agent.decoder.error());
                        agent.flush();
                        agent.killAll();
                        return 2;
                    }
                    agent.handleFrame(header, payload);
                }
            }
        }

        for (const Slots &s : slots) {
            auto it = agent.runs.find(s.id);
            if (it == agent.runs.end())
                continue;
            agent.pumpRun(*it->second, s.in >= 0 ? &fds[size_t(s.in)] : nullptr,
                          s.out >= 0 ? &fds[size_t(s.out)] : nullptr,
                          s.err >= 0 ? &fds[size_t(s.err)] : nullptr);
        }
        // Runs added by this round's requests: write their stdin at once.
        for (auto &[id, run] : agent.runs)
            if (run->inFd >= 0 && (run->inPos < run->inBuf.size() || run->inCloseRequested))
                agent.pumpRun(*run, nullptr, nullptr, nullptr);
        now = nowMs();
        for (auto it = agent.runs.begin(); it != agent.runs.end();) {
            if (agent.finishIfDone(*it->second, now))
                it = agent.runs.erase(it);
            else
                ++it;
        }
        if (!agent.flush() && !agent.stdinEof) {
            agent.killAll();
            return 1;
        }
    }
    agent.killAll();
    // Best effort: hand over the last events before leaving.
    const int fl = fcntl(1, F_GETFL);
    if (fl >= 0)
        fcntl(1, F_SETFL, fl & ~O_NONBLOCK);
    agent.flush();
    return 0;
}

} // namespace

int main()
{
    return mainLoop();
}
