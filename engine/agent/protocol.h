// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The sandbox agent protocol, version 1. Header-only and free of Qt: the agent (a static
// binary inside the sandbox, agent_main.cpp) and the engine (runtime/agentchannel.cpp)
// both include it. This comment is the protocol's specification.
//
// Transport
// ---------
// One bidirectional byte stream: the agent's stdin (requests, engine -> agent) and stdout
// (events, agent -> engine). With Docker this is a hijacked `attach` connection to the
// container's main process, so the engine sees stdout inside Docker's multiplexed framing
// first (FrameDemuxer) and this protocol inside that. The agent writes nothing but frames
// on stdout; its own diagnostics go to stderr (free text, logged by the engine).
//
// Place in the sandbox
// --------------------
// The agent is the sandbox's PID 1 (the container runs without an engine init): it reaps
// every orphan (wait4(-1)), takes SIGTERM/SIGINT/SIGHUP from a signalfd and stops on them
// only when they come from outside the sandbox (ssi_pid 0), and is not dumpable. So no
// program of the sandbox, though it has the agent's uid, can kill, stop, ptrace or read
// the process that serves the next borrower of a pooled sandbox.
//
// Framing
// -------
//   [u32 big-endian L = total frame length, including these 8 bytes]
//   [u32 big-endian H = header length]
//   [H bytes: UTF-8 JSON object, the header]
//   [L - 8 - H bytes: binary payload, may be empty]
// L must be at least 8, at most MaxFrameBytes; H at most min(L - 8, MaxHeaderBytes).
// A peer that receives a frame breaking these rules treats the stream as broken.
// Headers are flat JSON objects whose values are strings, integers, booleans or arrays of
// strings. Unknown fields are ignored; unknown ops are answered with an "error" event.
// The agent replaces bytes that are not valid UTF-8 with U+FFFD in the strings it sends.
//
// Requests (engine -> agent), header field "op"
// ---------------------------------------------
//   {"op":"hello"}
//       Answered with {"ev":"hello","version":1,"pid":P,"uid":U} (the agent's pid and uid).
//   {"op":"run","id":N,"argv":["prog","arg"..],"env":["A=b"..],"cwd":"/sandbox",
//    "stdin":B,"timeout_ms":T,"output_limit":O}
//       Starts argv[0] (searched in PATH when it has no '/') in a new session and process
//       group (setsid), so signals reach the run's whole process group. N: a run id
//       chosen by the engine, unique among runs in flight on this stream (integer >= 1).
//       env: entries added to (or replacing those of) the agent's own environment, which
//       is the clean base environment the engine gave the sandbox. cwd: working
//       directory (default: the agent's). stdin: true = a pipe fed by "stdin" requests,
//       false = /dev/null. timeout_ms: wall-clock limit measured from the start; at the
//       deadline the agent sends SIGKILL to the process group and reports
//       timed_out=true (0 or absent = no limit). output_limit: cap on stdout+stderr bytes
//       forwarded; the rest is read and dropped, output_truncated=true (0 = no cap).
//       Answered by "started", output events, then exactly one "exit". When the program
//       cannot be started (no such file, cwd missing) an "error" event follows "started"
//       and the exit has exit_code 127 (126 for permission denied), as a shell reports.
//       A request the agent refuses (bad id, empty argv) gets "error" and "exit" only.
//   {"op":"stdin","id":N} + payload
//       Bytes for run N's stdin. The agent buffers them (it never stops reading its own
//       stdin, so the engine's writes cannot deadlock against its reads) and feeds the
//       pipe as the program reads. Ignored after the program's stdin is closed.
//   {"op":"stdin_close","id":N}
//       Closes run N's stdin once the buffered bytes are written (the program sees EOF).
//   {"op":"signal","id":N,"signal":S}
//       Sends signal S to run N's whole process group, while the run is in flight (until
//       its "exit"); otherwise answered with an "error" ("no such run").
//   {"op":"kill_all"}
//       SIGKILLs the process groups of all runs and every other descendant of the agent
//       (the agent is a child subreaper, so orphans that left their group are still its
//       descendants). Resets a sandbox for its next borrower. Never kill(-1): the agent
//       must be harmless when started outside a container. Runs in flight still end
//       with their "exit" events. Zygotes (below) and their idle spares survive when
//       they show nothing a run could have done to them (same uid: stopped, reniced,
//       other rlimits or CPU affinity than the agent's); otherwise they are killed and
//       reported "failed". Answered with {"ev":"killed_all","keep":["pid",...]}: the
//       surviving zygote and spare pids (other clean-up must spare them).
//   {"op":"zygote","language":L,"argv":["python3","/sandbox/.sandbox/python/
//    sandbox_zygote.py","numpy",...],"env":[...],"cwd":"/"}
//       Starts language L's preloaded interpreter (a "zygote") unless one with this argv
//       is starting or ready. It runs with the agent's environment plus env, stdin a pipe
//       at EOF, stdout/stderr the agent's stderr, and fd 3 a SOCK_SEQPACKET control
//       socket. Answered with a "zygote" event once it is ready with a spare, or failed
//       (at once when it already is). See "Zygotes".
//   {"op":"zygote_stop","language":L}
//       Kills L's zygote and spare; answered with a "zygote" event (state "failed").
//
//   "run" takes one more field: "zygote":L. When L's zygote is ready with a spare,
//   argv is [the zygote's argv[0], FILE, ARGS...] (no interpreter options) and the run's
//   whole environment equals the zygote's, the run is handed to the spare instead of
//   fork+exec; otherwise it is exec'd as usual. "started" then carries "zygote":true or
//   false, and "zygote_why" when false.
//
// Zygotes
// -------
// The zygote imports its modules, checks it has one thread and no descriptor but 0-3,
// makes itself non-dumpable (same-uid runs cannot ptrace it or read its memory), ignores
// every catchable signal, then sends {"ready":true,...}. On "spare" it forks twice; the
// grandchild (the spare) is re-parented to the agent (child subreaper), so the agent
// reaps, times and kills it like its own child, and its pid is the run's pid and process
// group. The zygote sends {"spare":PID} with the spare's socket (SCM_RIGHTS). The agent
// sends the spare one job, {"argv":[...],"cwd":"..."} with [stdin, stdout, stderr,
// status] (SCM_RIGHTS); the spare sets up the run (setsid, fds 0-2 only, a fresh
// interpreter's signal dispositions, dumpable, cwd, fresh sys.stdin, reseeded random
// generators, a new __main__) and closes status just before the program's first line, or
// writes the exec-failure record there. The zygote never runs user code; a fresh spare
// is asked for after each use. {"error":"..."} from a zygote or its exit makes it
// "failed"; runs then exec.
//
//   {"ev":"zygote","language":L,"state":"ready"|"starting"|"failed","pid":P,"spare":S,
//    "preload_ms":M,"modules":N,"forks":F,"message":"..."}
//
// Events (agent -> engine), header field "ev"
// -------------------------------------------
//   {"ev":"hello","version":1,"pid":P,"uid":U}
//   {"ev":"started","id":N,"pid":P}                 P: the run's pid (= its pgid)
//   {"ev":"stdout","id":N} + payload                a chunk of the program's stdout
//   {"ev":"stderr","id":N} + payload                a chunk of the program's stderr
//   {"ev":"exit","id":N,"exit_code":C,"signal":S,"timed_out":B,"output_truncated":B,
//    "duration_ms":D,"max_rss_kb":K,"user_ms":U,"sys_ms":Y}
//       The run is over: the leader was reaped and its output pipes reached EOF (or
//       stayed open ExitGraceMs after the leader exited, because a background process
//       kept them; such processes keep running until "kill_all". The grace period does
//       not run while the agent holds back reading because the engine reads slowly.)
//       C: exit status, or 128+S when killed by signal S (S = 0 when not signalled).
//       D: wall time from start to reap. K, U, Y: from wait4's rusage of the leader and
//       its reaped descendants.
//   {"ev":"error","id":N,"message":"..."}           N = 0 when not about a run
//   {"ev":"killed_all","keep":["pid",...]}
//
// Runs are independent: several may be in flight, and their events interleave.
// On EOF of its stdin (the engine went away) or SIGTERM, the agent SIGKILLs all its runs
// and their descendants and exits 0.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace sandbox::agent {

inline constexpr int ProtocolVersion = 1;
/// Largest frame either side accepts (header + payload + 8).
inline constexpr std::uint32_t MaxFrameBytes = 16u << 20;
/// Largest JSON header.
inline constexpr std::uint32_t MaxHeaderBytes = 1u << 20;
/// Payload size that senders split large data into (well below MaxFrameBytes).
inline constexpr std::size_t ChunkBytes = 256u << 10;
/// How long the agent waits for a run's pipes to close after its leader exited.
inline constexpr int ExitGraceMs = 200;

inline void putU32(std::string &out, std::uint32_t v)
{
    const char b[4] = {char((v >> 24) & 0xff), char((v >> 16) & 0xff), char((v >> 8) & 0xff),
                       char(v & 0xff)};
    out.append(b, 4);
}

inline std::uint32_t getU32(const char *p)
{
    const auto *u = reinterpret_cast<const unsigned char *>(p);
    return (std::uint32_t(u[0]) << 24) | (std::uint32_t(u[1]) << 16) | (std::uint32_t(u[2]) << 8) |
           std::uint32_t(u[3]);
}

/// Appends one frame to out. Returns false (and appends nothing) when it would exceed
/// MaxFrameBytes or MaxHeaderBytes.
inline bool appendFrame(std::string &out, std::string_view header, std::string_view payload = {})
{
    const std::size_t total = 8 + header.size() + payload.size();
    if (header.size() > MaxHeaderBytes || total > MaxFrameBytes)
        return false;
    out.reserve(out.size() + total);
    putU32(out, std::uint32_t(total));
    putU32(out, std::uint32_t(header.size()));
    out.append(header);
    out.append(payload);
    return true;
}

/// Incremental frame parser: feed bytes as they arrive, then take frames with next().
class FrameDecoder
{
public:
    enum class Status
    {
        NeedMore, ///< no complete frame buffered
        Frame,    ///< header/payload filled
        Broken    ///< the stream violates the framing rules; error() says how
    };

    void feed(const char *data, std::size_t size)
    {
        // Drop consumed bytes before growing, so the buffer stays about one frame long.
        if (m_pos > 0 && (m_pos == m_buf.size() || m_pos > (1u << 20))) {
            m_buf.erase(0, m_pos);
            m_pos = 0;
        }
        m_buf.append(data, size);
    }

    /// Takes the next complete frame. header and payload views stay valid until the next
    /// feed() or next() call.
    Status next(std::string_view &header, std::string_view &payload)
    {
        if (!m_error.empty())
            return Status::Broken;
        const std::size_t avail = m_buf.size() - m_pos;
        if (avail < 8)
            return Status::NeedMore;
        const char *p = m_buf.data() + m_pos;
        const std::uint32_t total = getU32(p);
        const std::uint32_t hlen = getU32(p + 4);
        if (total < 8 || total > MaxFrameBytes) {
            m_error = "frame length " + std::to_string(total) + " outside 8.." +
                      std::to_string(MaxFrameBytes);
            return Status::Broken;
        }
        if (hlen > total - 8 || hlen > MaxHeaderBytes) {
            m_error = "header length " + std::to_string(hlen) + " does not fit frame length " +
                      std::to_string(total);
            return Status::Broken;
        }
        if (avail < total)
            return Status::NeedMore;
        header = std::string_view(p + 8, hlen);
        payload = std::string_view(p + 8 + hlen, total - 8 - hlen);
        m_pos += total;
        return Status::Frame;
    }

    /// Bytes buffered but not yet returned as frames (non-zero at EOF = cut-off frame).
    std::size_t pending() const { return m_buf.size() - m_pos; }
    const std::string &error() const { return m_error; }

private:
    std::string m_buf;
    std::size_t m_pos = 0;
    std::string m_error;
};

} // namespace sandbox::agent
