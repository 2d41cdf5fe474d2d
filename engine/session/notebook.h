// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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
    enum class Kind { Stream, DisplayData, ExecuteResult, Error };
    Kind kind = Kind::Stream;
    QString name;                    ///< Stream: "stdout" | "stderr"
    QString text;                    ///< Stream: the text
    QMap<QString, QByteArray> data;  ///< Display/ExecuteResult: MIME -> bytes (image/png decoded)
    QString ename, evalue;           ///< Error
    QStringList traceback;           ///< Error
};

/// The outcome of executing one cell.
struct CellResult
{
    QString status;                  ///< "ok" | "error" | "aborted" (Jupyter execute_reply)
    int executionCount = 0;
    QList<CellOutput> outputs;
    qint64 durationMs = 0;
    bool interrupted = false;        ///< stopped by interrupt() or the cell deadline
    bool timedOut = false;
    bool kernelRestarted = false;    ///< the kernel died; state was lost

    bool ok() const { return status == QLatin1String("ok"); }
    /// Concatenated stream text of one stream ("stdout" | "stderr").
    QString streamText(const QString &name) const;
    /// text/plain of the execute_result, empty when there was none.
    QString resultText() const;
    /// Images displayed by the cell, as artifacts ("cell-3-1.png", image/png).
    QList<Artifact> images() const;
};

/// Receives a cell's outputs as they happen (on the executing thread).
struct CellObserver
{
    std::function<void(const CellOutput &)> onOutput;
};

/// A notebook session: one sandbox with a kernel whose state persists between cells.
/// The kernel speaks JSON lines over a held-open exec (see
/// resources/helpers/python/sandbox_kernel.py for the protocol). execute() blocks: call it
/// from a worker thread; interrupt() may be called from any thread.
class NotebookSession
{
public:
    ~NotebookSession();

    /// Creates the sandbox and starts the kernel. Languages with a kernel: python.
    /// Errors: UnknownLanguage, InvalidArgument (no kernel for the language, limits),
    /// ImageMissing, engine errors, ProtocolError (the kernel did not come up).
    static Result<std::shared_ptr<NotebookSession>> start(std::shared_ptr<Runtime> runtime,
                                                          const QString &language,
                                                          const Limits &limits = {},
                                                          NetworkMode network = NetworkMode::None,
                                                          const CancelToken &cancel = {});

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

    std::shared_ptr<Runtime> m_runtime;
    QString m_language;
    QString m_sandboxId;
    QString m_kernelVersion;
    qint64 m_kernelPid = 0;
    Limits m_limits;
    std::unique_ptr<ExecChannel> m_kernel;
    QByteArray m_outBuffer;
    QByteArray m_errBuffer;
    bool m_inBand = false;            ///< events are 0x1E-prefixed lines among the output (R)
    int m_currentCell = 0;
    int m_executionCount = 0;
    int m_nextCellId = 1;
    std::mutex m_ioMutex;             ///< one execute/restart at a time
    std::atomic<bool> m_busy{false};
    std::atomic<bool> m_interruptRequested{false};
    bool m_closed = false;
};

} // namespace sandbox
