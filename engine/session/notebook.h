// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/policy.h"
#include "runtime/agentchannel.h"
#include "runtime/runtime.h"
#include "session/runtypes.h"
#include "util/canceltoken.h"
#include "util/error.h"
#include "util/tarball.h"

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
    /// Findings of CellObserver::policy (warn, ask and block), empty when not checked.
    QList<PolicyFinding> policyFindings;
    /// The policy stopped the cell before it reached the kernel (block, or an ask that was
    /// not approved): status "error", one Error output "PolicyBlocked" with policyReason.
    bool policyBlocked = false;
    QString policyReason; ///< evaluatePolicy()'s reason ("blocked by policy 'standard': ...")

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
    /// The policy the cell is checked with before it runs (Engine::policy(), say); unset =
    /// not checked. block stops the cell; ask calls onPolicyAsk (none, or false = stopped);
    /// warn runs it with the findings in CellResult::policyFindings.
    std::optional<Policy> policy;
    /// Decides on findings whose action is ask (on the executing thread); true runs the cell.
    std::function<bool(const QList<PolicyFinding> &)> onPolicyAsk;
};

/// One entry of a session's work directory (NotebookSession::listFiles).
struct SessionFile
{
    QString path; ///< relative to the work directory ("data/a.csv")
    qint64 size = 0;
    qint64 modified = 0; ///< seconds since the epoch
    bool isDir = false;
    bool isLink = false;
    QString linkTarget; ///< links only, as written in the link
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
    ///
    /// image empty = the language's default image; else that image (a custom image or a
    /// template made by saveTemplate(), whose saved work directory is restored first).
    /// Errors also: InvalidArgument when the image lacks the language's toolchain
    /// ("python3 not found in image X").
    static Result<std::shared_ptr<NotebookSession>>
    start(std::shared_ptr<Runtime> runtime, const QString &language, const Limits &limits = {},
          NetworkMode network = NetworkMode::None, const CancelToken &cancel = {},
          const QString &image = {});

    // Files in and out of the work directory. They work with both transports, on a
    // read-only root with a tmpfs work directory, while a cell runs. Paths are relative to
    // the work directory: absolute paths, ".." and links that lead out of it are refused
    // (PathRefused, naming the path); sizes are capped by TransferLimits (InvalidArgument).
    // The engine's own folders (.sandbox, .agent) are never listed nor brought back.

    /// Copies files into the work directory under destDir ("" = top level), creating
    /// folders as needed and replacing files of the same name. members are files, folders
    /// and links (links must stay inside). Returns the written paths relative to the work
    /// directory. Errors: PathRefused, InvalidArgument (limits), IoError with tar's message
    /// (work directory full, ...), the transport's errors.
    Result<QStringList> uploadFiles(const QList<TarMember> &members, const QString &destDir = {},
                                    const TransferLimits &limits = {});
    /// uploadFiles() for a tar archive (an MCP client's, say); each member is checked first
    /// (checkTarForExtraction): a tar-slip is refused whole.
    Result<QStringList> uploadTar(const QByteArray &tar, const QString &destDir = {},
                                  const TransferLimits &limits = {});
    /// uploadFiles() of a local file or folder (collectLocalPath).
    Result<QStringList> uploadPath(const QString &localPath, const QString &destDir = {},
                                   const TransferLimits &limits = {});

    /// Brings files and folders (recursively) back from the work directory: regular files
    /// with their contents. Links inside are listed in *refused and not followed.
    /// paths "." = the whole work directory. Errors: PathRefused (a path or a link on it
    /// leads outside), NotFound (no such file or folder), InvalidArgument (over
    /// limits.maxBytes), the transport's errors.
    Result<QList<TarMember>> downloadFiles(const QStringList &paths,
                                           const TransferLimits &limits = {},
                                           QStringList *refused = nullptr);
    /// downloadFiles() as the raw tar archive the sandbox produced (members relative to the
    /// work directory; links kept as links).
    Result<QByteArray> downloadTar(const QStringList &paths, const TransferLimits &limits = {});
    /// downloadFiles() written into the local folder localDir (extractTarToDirectory);
    /// returns the written paths relative to localDir.
    Result<QStringList> downloadTo(const QStringList &paths, const QString &localDir,
                                   const TransferLimits &limits = {},
                                   QStringList *refused = nullptr);

    /// Lists dir ("" = the work directory) one level deep, or every level when recursive.
    /// Errors: PathRefused, NotFound, the transport's errors.
    Result<QList<SessionFile>> listFiles(const QString &dir = {}, bool recursive = false);

    /// Runs code in the kernel. An error in the code is a CellResult with status "error"
    /// (earlier state intact). cellTimeoutMs 0 = Limits::timeoutMs. Errors: IoError or
    /// ProtocolError when the sandbox is gone; Internal after close().
    /// With observer.policy set, the cell is checked first (see CellObserver::policy): a
    /// stopped cell is a CellResult with policyBlocked, not an error.
    Result<CellResult> execute(const QString &code, const CellObserver &observer = {},
                               qint64 cellTimeoutMs = 0);

    /// Stops the running cell (KeyboardInterrupt); variables stay. No-op when idle.
    void interrupt();

    /// Starts a fresh kernel in the same sandbox: all state is cleared.
    Result<void> restart();

    /// Stops the kernel and removes the sandbox. Called by the destructor.
    void close();

    QString language() const { return m_language; }
    /// The image the sandbox runs.
    QString image() const { return m_image; }
    /// The limits the session was started with.
    Limits limits() const { return m_limits; }
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
    /// execute() without the policy check.
    Result<CellResult> executeInKernel(const QString &code, const CellObserver &observer,
                                       qint64 cellTimeoutMs);
    /// The kernel's next event, or an empty object when the deadline passed first.
    /// Errors: IoError when the kernel's stream ended (it died).
    Result<QByteArray> nextEvent(Deadline deadline);
    Result<void> sendInterrupt();
    /// Kills the kernel (and whatever it started) without waiting for it to cooperate.
    void killKernel();
    /// Runs a short helper program in the sandbox (agent run, else plain exec): stdin is
    /// written then closed, stdout kept up to outCap bytes (*outTruncated then set).
    /// Returns the exit code. Errors: the transport's, Timeout.
    Result<int> runTool(const QStringList &argv, const QByteArray &stdinData, QByteArray *out,
                        qint64 outCap, QByteArray *err, bool *outTruncated = nullptr,
                        int timeoutMs = 120000);
    /// Refuses paths (relative to the work directory) that resolve outside it inside the
    /// sandbox (links planted there). Errors: PathRefused, NotFound (mustExist).
    Result<void> checkSandboxPaths(const QStringList &paths, bool mustExist);

    std::shared_ptr<Runtime> m_runtime;
    QString m_language;
    QString m_image;
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
