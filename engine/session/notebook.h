// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/agentchannel.h"
#include "runtime/runtime.h"
#include "session/runtypes.h"
#include "util/canceltoken.h"
#include "util/error.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <atomic>
#include <memory>
#include <mutex>

namespace sandbox {

/// One output of a notebook cell, shaped like Jupyter's IOPub messages.
struct CellOutput
{
    enum class Kind
    {
        Stream,
        DisplayData,
        ExecuteResult,
        Error
    };
    Kind kind = Kind::Stream;
    QString name;                   ///< Stream: "stdout" | "stderr"
    QString text;                   ///< Stream: the text
    QMap<QString, QByteArray> data; ///< Display/ExecuteResult: MIME -> bytes (image/png decoded)
    QString ename, evalue;          ///< Error
    QStringList traceback;          ///< Error
    QString file; ///< DisplayData of a file the cell wrote ("output/x.csv"), else empty
};

/// The outcome of executing one cell.
struct CellResult
{
    QString status; ///< "ok" | "error" | "aborted" (Jupyter execute_reply)
    int executionCount = 0;
    QList<CellOutput> outputs;
    qint64 durationMs = 0;
    bool interrupted = false; ///< stopped by interrupt() or the cell deadline
    bool timedOut = false;
    bool kernelRestarted = false; ///< the kernel died; state was lost

    bool ok() const { return status == QLatin1String("ok"); }
    /// Concatenated stream text of one stream ("stdout" | "stderr").
    QString streamText(const QString &name) const;
    /// text/plain of the execute_result, empty when there was none.
    QString resultText() const;
    /// Images displayed by the cell, as artifacts ("cell-3-1.png", image/png).
    QList<Artifact> images() const;
    /// Files the cell wrote to the output directory, with their names and MIME types.
    QList<Artifact> files() const;
};

/// Receives a cell's outputs as they happen (on the executing thread).
struct CellObserver
{
    std::function<void(const CellOutput &)> onOutput;
};

/// A notebook session: one sandbox with a kernel whose state persists between cells.
/// The kernel speaks JSON lines (see resources/helpers/python/sandbox_kernel.py for the
/// protocol) over its stdin and stdout. Transport "agent": the sandbox's main process is
/// the sandbox agent (AgentChannel) and the kernel is one of its runs, so requests, output
/// and signals (interrupt = SIGINT to the kernel's process group) share one stream.
/// Transport "exec" (fallback when the agent binary is missing or cannot be placed): the
/// kernel is a held-open Docker exec; interrupt is a stdin request (Python, JavaScript) or
/// a `kill -INT` exec (R). execute() blocks: call it from a worker thread; interrupt() may
/// be called from any thread.
class NotebookSession
{
public:
    ~NotebookSession();

    /// Creates the sandbox and starts the kernel. Languages with a kernel: python,
    /// javascript, r. Uses the agent transport when AgentChannel::findAgentBinary() finds
    /// the agent and it comes up; else falls back to exec (transportNote() says why).
    /// Errors: UnknownLanguage, InvalidArgument (no kernel for the language, limits),
    /// ImageMissing, engine errors, ProtocolError (the kernel did not come up).
    static Result<std::shared_ptr<NotebookSession>>
    start(std::shared_ptr<Runtime> runtime, const QString &language, const Limits &limits = {},
          NetworkMode network = NetworkMode::None, const CancelToken &cancel = {});

    /// Runs code in the kernel. An error in the code is a CellResult with status "error"
    /// (earlier state intact). cellTimeoutMs 0 = Limits::timeoutMs. Errors: IoError or
    /// ProtocolError when the sandbox is gone; Internal after close().
    Result<CellResult> execute(const QString &code, const CellObserver &observer = {},
                               qint64 cellTimeoutMs = 0);

    /// Stops the running cell (KeyboardInterrupt); variables stay. No-op when idle.
    void interrupt();

    /// Starts a fresh kernel in the same sandbox: all state is cleared.
    Result<void> restart();

    /// Stops the kernel and removes the sandbox. Called by the destructor.
    void close();

    QString language() const { return m_language; }
    /// How the engine speaks to the kernel: "agent" or "exec" (see the class comment).
    QString transport() const { return m_agent ? QStringLiteral("agent") : QStringLiteral("exec"); }
    /// Why the exec transport is used; empty with the agent.
    QString transportNote() const { return m_transportNote; }
    QString sandboxId() const { return m_sandboxId; }
    QString kernelVersion() const { return m_kernelVersion; }
    int executionCount() const { return m_executionCount; }
    bool isBusy() const { return m_busy.load(); }

private:
    NotebookSession() = default;
    Result<void> startKernel();
    /// The kernel's next event, or an empty object when the deadline passed first.
    /// Errors: IoError when the kernel's stream ended (it died).
    Result<QByteArray> nextEvent(Deadline deadline);
    Result<void> sendInterrupt();
    /// Kills the kernel (and whatever it started) without waiting for it to cooperate.
    void killKernel();

    std::shared_ptr<Runtime> m_runtime;
    QString m_language;
    QString m_sandboxId;
    QString m_kernelVersion;
    qint64 m_kernelPid = 0;
    Limits m_limits;
    std::unique_ptr<AgentChannel> m_agent;        ///< transport "agent": the sandbox's agent
    QString m_transportNote;                      ///< why the exec transport is used
    std::unique_ptr<ExecChannel> m_kernel;        ///< the kernel's stdin/stdout/stderr
    AgentInteractiveRun *m_agentKernel = nullptr; ///< m_kernel, with the agent transport
    QByteArray m_outBuffer;
    QByteArray m_errBuffer;
    bool m_inBand = false; ///< events are 0x1E-prefixed lines among the output (R)
    int m_currentCell = 0;
    int m_executionCount = 0;
    int m_nextCellId = 1;
    std::mutex m_ioMutex; ///< one execute/restart at a time
    std::atomic<bool> m_busy{false};
    std::atomic<bool> m_interruptRequested{false};
    bool m_cellStarted = false; ///< the kernel reported "busy" for the current cell
    bool m_closed = false;
};

} // namespace sandbox
