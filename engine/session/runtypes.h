// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/runtime.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

namespace sandbox {

class Policy;

/// Resource limits of one run. Units are in the names; 0 means "engine default".
struct Limits
{
    qint64 memoryBytes = 512ll << 20;  ///< container memory (and memory+swap) limit
    qint64 nanoCpus = 1'000'000'000;   ///< 1e9 = one CPU
    qint64 pids = 256;                 ///< processes and threads
    qint64 timeoutMs = 30'000;         ///< wall time of the program; killed at the limit
    qint64 outputBytes = 1ll << 20;    ///< stdout + stderr kept; the rest is dropped
    qint64 workDirBytes = 256ll << 20; ///< tmpfs work directory size
    qint64 artifactBytes = 64ll << 20; ///< total size of artifacts brought back
    int artifactCount = 100;           ///< number of artifacts brought back

    /// Checks ranges; message names the field and the accepted range. Errors: InvalidArgument.
    Result<void> validate() const;
};

/// A file copied into the work directory before the run.
struct InputFile
{
    QString path; ///< relative to the work directory; no "..", not absolute
    QByteArray content;
};

/// Who asked for a run (shown in the GUI; MCP runs may need approval).
enum class RunOrigin
{
    Gui,
    Cli,
    Mcp,
    Test
};

/// A request to run code once. language is a LanguageRegistry id or alias.
struct RunRequest
{
    QString language;
    QString code;
    QList<InputFile> files;
    /// Packages to install first (pip specs, npm specs, Maven g:a:v, Go module paths, R
    /// package names). Empty: worked out from the code's imports (session/dependencies.h).
    QStringList libraries;
    Limits limits;
    NetworkMode network = NetworkMode::None; ///< of the program; installs always have network
    QString image;                           ///< empty = the language's default image
    RunOrigin origin = RunOrigin::Cli;
    /// Trust the host's CA bundle (TLS-intercepting proxies) in sandboxes with network.
    bool trustHostCa = true;
    /// CRAN-style repository of R installs; empty = env SANDBOX_CRAN_REPO or CRAN.
    QString cranRepo;
    /// Extra mounts of the install sandbox only (e.g. a local CRAN-style repository
    /// reached as file:///repo); bind sources must be paths on the engine's host.
    QList<VolumeMount> installMounts;
    /// Language standard for compiled languages ("c++17", "c++20", "c++23"); empty = the
    /// language's default (C++20). Errors: InvalidArgument for a standard the language lacks.
    QString standard;
    /// Bring back new or changed files anywhere in the work directory (true), or only
    /// those in its output/ directory (false).
    bool collectWorkDirFiles = true;
    /// Files and folders (relative to the work directory, recursively) to bring back after
    /// the run whatever the artifact rules say: RunResult::fetched. A path that does not
    /// exist or leads outside the work directory (absolute, "..", a link) is listed in
    /// RunResult::refusedPaths with the reason. Capped by limits.artifactBytes/Count.
    QStringList fetchPaths;
    /// Policy checked before the run (policy/policy.h); nullptr = the engine's active one.
    std::shared_ptr<const Policy> policy;
};

/// A file the program produced (plot, report, ...). name is relative and safe.
struct Artifact
{
    QString name;     ///< "output/figure-001.png", "summary.txt"
    QString mimeType; ///< "image/png"
    QByteArray data;
    qint64 size() const { return data.size(); }
};

/// A static finding of the policy check (policy issue); carried in every result.
struct PolicyFinding
{
    QString rule;
    QString severity; ///< "low" | "medium" | "high" | "critical"
    QString action;   ///< "allow" | "warn" | "ask" | "block"
    int line = 0;
    QString message;

    friend bool operator==(const PolicyFinding &, const PolicyFinding &) = default;
};

/// Output of a compile step, kept apart from the program's own output.
struct CompileResult
{
    bool ran = false;
    int exitCode = 0;
    QByteArray output; ///< compiler stdout + stderr
    qint64 durationMs = 0;
};

/// The outcome of one run. exitCode is the program's (137 when killed by SIGKILL, as a
/// shell reports it). A compile failure is a run with compile.exitCode != 0, exitCode = it,
/// and the compiler's messages in stderr.
struct RunResult
{
    int exitCode = -1;
    QByteArray stdoutData; ///< raw bytes (may hold NUL and invalid UTF-8)
    QByteArray stderrData;
    QList<Artifact> artifacts;
    qint64 durationMs = 0; ///< wall time of the program (run phase)
    qint64 totalMs = 0;    ///< wall time of the whole run, sandbox setup included
    bool timedOut = false;
    bool oomKilled = false;
    bool outputTruncated = false;
    bool artifactsTruncated = false;
    bool cancelled = false;
    CompileResult compile;
    QList<PolicyFinding> policyFindings;
    QString sandboxId;
    QString image;
    QString language;
    QList<Artifact> fetched;  ///< RunRequest::fetchPaths' regular files (name = their path)
    QStringList refusedPaths; ///< artifact paths not brought back, with the reason
    QStringList notes;        ///< things people should know ("no bridge network: used host")
    /// The policy stopped the run before anything was created (a block finding, or an ask
    /// finding nobody approved); the reason is in policyReason, stderr and notes.
    bool policyBlocked = false;
    QString policyReason;
    QString policyName;   ///< the policy that checked the run ("standard", a file's name)
    Limits appliedLimits; ///< the limits the run had (after defaults)
    NetworkMode appliedNetwork = NetworkMode::None;
    /// Which limits the run reached: "timeout", "memory", "output", "artifacts", "pids",
    /// "work_dir".
    QStringList limitsHit;
};

/// Receives events of a run as they happen, on the worker thread that runs it.
/// Every member may be empty.
struct RunObserver
{
    std::function<void(QByteArrayView)> onStdout;
    std::function<void(QByteArrayView)> onStderr;
    /// Short status for people: "creating sandbox", "compiling", "running", ...
    std::function<void(const QString &)> onStatus;
    /// Findings whose action is ask: return true to let the run start. Takes precedence
    /// over Engine::setAskHandler; without either an ask finding stops the run.
    std::function<bool(const QList<PolicyFinding> &)> onPolicyAsk;
};

} // namespace sandbox
