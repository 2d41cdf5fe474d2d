// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/runtime.h"

#include <QByteArray>
#include <QLoggingCategory>
#include <QString>
#include <QStringList>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

Q_DECLARE_LOGGING_CATEGORY(lcAgent)

namespace sandbox {

class AgentInteractiveRun;

/// One program run through the agent (protocol.h, op "run").
struct AgentRunSpec
{
    QStringList argv;
    QStringList env;          ///< "NAME=value", added to the sandbox's environment
    QString workDir;          ///< empty = the sandbox's work directory
    bool attachStdin = false; ///< run(): stdinData is written, then stdin is closed;
                              ///< startInteractive(): stdin is always a pipe held open
    QByteArray stdinData;     ///< startInteractive(): written first, stdin stays open
    qint64 timeoutMs = 0;     ///< enforced by the agent (SIGKILL to the process group); 0 = none
    qint64 outputLimit = 0;   ///< stdout+stderr bytes forwarded; the rest dropped; 0 = no cap
    /// Language of a zygote (startZygote) to fork the program from instead of exec'ing it,
    /// e.g. "python"; empty = exec. The agent execs anyway when the zygote is not ready
    /// or the command or environment do not fit it (AgentRunResult::viaZygote says which).
    QString zygote;
    /// Called on run()'s thread once the program started: the id for signal() and its pid.
    std::function<void(qint64 runId, qint64 pid)> onStarted;
};

/// How a run through the agent ended (protocol.h, event "exit").
struct AgentRunResult
{
    int exitCode = -1; ///< 128+signal when signalled; -1 when unknown
    int signal = 0;
    bool timedOut = false;         ///< the agent killed it at timeoutMs
    bool outputTruncated = false;  ///< outputLimit dropped bytes
    bool cancelled = false;        ///< the CancelToken fired (the run was SIGKILLed)
    bool deadlineExceeded = false; ///< the engine-side Deadline passed (the run was SIGKILLed)
    bool stoppedByReader = false;  ///< an ExecIo callback returned false (SIGKILLed)
    qint64 pid = 0;                ///< inside the sandbox
    qint64 durationMs = 0;
    qint64 maxRssKb = 0;
    qint64 userMs = 0;
    qint64 sysMs = 0;
    QString error;          ///< the agent's "error" event, e.g. "cannot execute x: No such file..."
    bool viaZygote = false; ///< forked from the zygote named by AgentRunSpec::zygote
    QString zygoteWhy;      ///< why not, when a zygote was asked for and not used
};

/// A preloaded interpreter kept by the agent (protocol.h, "Zygotes"; event "zygote").
struct AgentZygoteInfo
{
    QString language;
    QString state;   ///< "ready", "starting" or "failed"
    QString message; ///< why it failed
    qint64 pid = 0;
    qint64 sparePid = 0;  ///< the forked child waiting for the next run (0 = none yet)
    qint64 preloadMs = 0; ///< how long importing the preloaded modules took
    qint64 modules = 0;   ///< len(sys.modules) once preloaded
    qint64 forks = 0;     ///< runs forked from it so far
};

/// The agent's answer to "hello".
struct AgentHello
{
    int version = 0;
    qint64 pid = 0;
    qint64 uid = -1;
};

/// A sandbox whose main process is the agent (engine/agent), and the protocol spoken to it
/// over one hijacked attach stream. See PLATFORM.md "Placing an agent": the container is
/// created with OpenStdin and a command that copies N bytes of stdin to
/// /sandbox/.agent and execs it; the engine attaches, starts the container, writes the
/// static agent binary, then speaks agent/protocol.h on the same stream.
///
/// Blocking API: call from worker threads. Thread-safe: several runs may be in flight from
/// different threads; whichever thread waits reads the stream and hands other runs'
/// events to them (leader/follower), and ExecIo callbacks run on the thread that called
/// run(). The Runtime must outlive the channel.
class AgentChannel
{
public:
    /// The agent executable: $SANDBOX_AGENT_PATH, else sandbox-agent next to the
    /// application, else ../libexec/sandbox-studio/sandbox-agent relative to it.
    /// Errors: NotFound, naming where it looked (callers fall back to plain exec).
    static Result<QString> findAgentBinary();

    /// A hardened sandbox like a one-shot run's (user 65534, read-only root, no
    /// capabilities, tmpfs work directory, network none), labelled kind "pool".
    static SandboxSpec hardenedSpec(const QString &image);

    /// Creates and starts a sandbox from spec (its command and openStdin are replaced),
    /// places the agent and checks it answers "hello". agentPath empty = findAgentBinary().
    /// On failure nothing is left behind. Errors: NotFound (no agent binary), the
    /// runtime's errors, ProtocolError/IoError when the agent does not come up (message
    /// carries its stderr), Timeout, Cancelled.
    static Result<std::unique_ptr<AgentChannel>>
    open(Runtime &runtime, SandboxSpec spec, const QString &agentPath = {},
         const CancelToken &cancel = {},
         Deadline deadline = Deadline::in(std::chrono::seconds(60)));

    ~AgentChannel();
    AgentChannel(const AgentChannel &) = delete;
    AgentChannel &operator=(const AgentChannel &) = delete;

    QString sandboxId() const { return m_id; }
    /// What the agent said when it came up.
    AgentHello helloInfo() const { return m_hello; }

    /// One "hello" round trip.
    Result<AgentHello> hello(Deadline deadline = Deadline::in(std::chrono::seconds(10)));

    /// Runs a program, streaming its output to io until it exits. When cancel fires, the
    /// deadline passes or a callback returns false, the run's process group is SIGKILLed
    /// and its exit still awaited (a few seconds). Errors: IoError/ProtocolError when the
    /// stream breaks (the channel is then unusable), Timeout when the agent stops
    /// answering, InvalidArgument for an empty argv.
    Result<AgentRunResult> run(const AgentRunSpec &spec, const ExecIo &io,
                               const CancelToken &cancel = {},
                               Deadline deadline = Deadline::never());

    /// Starts a program whose stdin stays open (interactive kernels) and returns a handle to
    /// it: write() feeds its stdin, read() returns its output as it comes, signal() reaches
    /// its process group. Waits (until startDeadline) for the agent to report the start.
    /// timeoutMs and outputLimit of spec apply as for run() (0 = none); onStarted is not
    /// called. The handle must not outlive the channel. Errors: InvalidArgument for an
    /// empty argv, ProtocolError when the agent refuses the run, Timeout, the stream's.
    Result<std::unique_ptr<AgentInteractiveRun>>
    startInteractive(const AgentRunSpec &spec,
                     Deadline startDeadline = Deadline::in(std::chrono::seconds(10)));

    /// Sends a signal to the whole process group of run runId (from AgentRunSpec::onStarted),
    /// e.g. SIGINT to interrupt, SIGTERM to stop. Any thread. Errors: the stream's.
    Result<void> signal(qint64 runId, int signal);

    /// Extracts a tar archive into dir (a run of `tar -x`). Errors: IoError with tar's
    /// message when it fails; run()'s errors.
    Result<void> putTar(const QString &dir, const QByteArray &tar,
                        Deadline deadline = Deadline::in(std::chrono::seconds(60)));
    /// Archives dir (a run of `tar -c`). Errors: IoError when tar fails or the archive is
    /// larger than maxBytes; run()'s errors.
    Result<QByteArray> getTar(const QString &dir, qint64 maxBytes = 256ll << 20,
                              Deadline deadline = Deadline::in(std::chrono::seconds(60)));

    /// SIGKILLs every process the agent started (and their descendants): resets the
    /// sandbox for its next user. Zygotes and their spares survive when no run could have
    /// changed them (protocol.h "kill_all"); their pids are returned (pass them to any
    /// other clean-up that kills processes).
    Result<QList<qint64>> killAll(Deadline deadline = Deadline::in(std::chrono::seconds(10)));

    /// Starts (or finds running) the zygote of language: `argv` (an interpreter and its
    /// preloading script) with the sandbox's environment, then waits until it is ready
    /// with a spare, or failed. A failed zygote is no error: runs exec as before, and the
    /// info says why. Errors: the stream's, Timeout.
    Result<AgentZygoteInfo> startZygote(const QString &language, const QStringList &argv,
                                        Deadline deadline = Deadline::in(std::chrono::seconds(60)));
    /// Stops language's zygote (its next startZygote starts a fresh one). Errors: the
    /// stream's.
    Result<void> stopZygote(const QString &language);

    /// Removes the sandbox (the agent dies with it). Idempotent; the destructor calls it.
    Result<void> close();

    /// Set once the stream failed; every later call fails with this error.
    std::optional<Error> brokenError() const;

private:
    friend class AgentInteractiveRun;

    /// One decoded event for one waiter.
    struct Item
    {
        enum class Kind
        {
            Started,
            Stdout,
            Stderr,
            Exit,
            Error,
            Hello,
            KilledAll,
            Zygote
        };
        Kind kind = Kind::Error;
        QByteArray payload;     ///< Stdout, Stderr
        QString message;        ///< Error
        AgentRunResult exit;    ///< Exit (pid in Started too)
        AgentHello hello;       ///< Hello
        AgentZygoteInfo zygote; ///< Zygote
        QList<qint64> kept;     ///< KilledAll
    };
    struct Waiter
    {
        std::deque<Item> items;
    };

    AgentChannel(Runtime &runtime, QString id, std::unique_ptr<RawStream> stream);

    Result<void> send(const std::string &header, QByteArrayView payload = {});
    /// Reads the stream for at most sliceMs (one thread at a time) and dispatches events to
    /// waiters, or waits for the reading thread to do so. lock holds m_state.
    void pump(std::unique_lock<std::mutex> &lock, int sliceMs);
    void dispatch(std::string_view header, std::string_view payload);
    void setBroken(Error e);
    /// Sends stdin frames for run id, split into agent::ChunkBytes pieces.
    Result<void> sendStdin(qint64 id, QByteArrayView data);
    /// Waits for a control event ("hello", "killed_all", "zygote").
    Result<Item> awaitControl(const char *ev, const CancelToken &cancel, Deadline deadline);
    QString stderrTail() const;

    Runtime &m_runtime;
    QString m_id;
    AgentHello m_hello;

    std::mutex m_io; ///< serializes use of m_stream (RawStream is not thread-safe)
    std::unique_ptr<RawStream> m_stream;

    mutable std::mutex m_state; ///< guards everything below
    std::condition_variable m_cv;
    bool m_reading = false; ///< a thread is inside pump()'s read
    std::optional<Error> m_broken;
    std::map<qint64, std::shared_ptr<Waiter>> m_waiters; ///< run id -> its events
    std::shared_ptr<Waiter> m_control;                   ///< hello, killed_all, id-less errors
    qint64 m_nextId = 1;
    QByteArray m_stderr; ///< the agent's diagnostics (tail)
    bool m_closed = false;

    std::mutex m_controlOps; ///< one control request in flight at a time

    // Reader-side decoding state, used only by the thread that set m_reading.
    struct Decoding;
    std::unique_ptr<Decoding> m_decoding;
};

/// A program started with AgentChannel::startInteractive, seen as an ExecChannel: its
/// stdin is held open and fed by write() ("stdin" frames), read() returns its "stdout" and
/// "stderr" events, exitCode() comes from its "exit" event. One thread at a time does I/O
/// on it (ExecChannel's rule); signal() may be called from any thread. Destroying the
/// handle while the program runs SIGKILLs its process group (nobody would read it any
/// more). Must not outlive its AgentChannel.
class AgentInteractiveRun final : public ExecChannel
{
public:
    ~AgentInteractiveRun() override;
    AgentInteractiveRun(const AgentInteractiveRun &) = delete;
    AgentInteractiveRun &operator=(const AgentInteractiveRun &) = delete;

    /// Errors: IoError once the program exited or the stream broke.
    Result<void> write(QByteArrayView data) override;
    /// Returns false once the program's "exit" event was read (after all its output).
    /// timeoutMs < 0 waits until something arrives. Errors: the channel's stream errors.
    Result<bool> read(int timeoutMs, QByteArray *out, QByteArray *err) override;
    /// The exit code once read() returned false (128+signal when signalled); else -1.
    Result<int> exitCode() override;

    /// Closes the program's stdin once the bytes written so far reached it (EOF).
    Result<void> closeStdin();
    /// Sends sig to the run's process group (SIGINT interrupts, SIGKILL stops). No-op once
    /// the run ended. Any thread. Errors: the stream's.
    Result<void> signal(int sig);

    qint64 runId() const { return m_id; }
    qint64 pid() const { return m_pid; }
    /// Whether read() saw the "exit" event.
    bool finished() const { return m_finished.load(); }
    /// The "exit" event once finished(): exit code, signal, timings.
    AgentRunResult result() const { return m_result; }
    /// The agent's "error" events about this run (e.g. "cannot execute x: ...").
    QString agentError() const { return m_error; }

private:
    friend class AgentChannel;
    AgentInteractiveRun(AgentChannel &channel, qint64 id, std::shared_ptr<AgentChannel::Waiter> w);

    AgentChannel &m_channel;
    qint64 m_id = 0;
    qint64 m_pid = 0;
    std::shared_ptr<AgentChannel::Waiter> m_waiter;
    std::atomic<bool> m_finished{false};
    bool m_stdinClosed = false;
    AgentRunResult m_result;
    QString m_error;
};

/// Sandboxes an AgentChannel could not remove (the engine was unreachable then, e.g. it
/// restarted while a pool sandbox was being made). Engine::reapOrphans() takes and retries
/// them. Thread-safe; returns the ids and empties the list.
QStringList takeUnremovedSandboxes();

} // namespace sandbox
