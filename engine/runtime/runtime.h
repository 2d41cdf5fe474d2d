// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "transport/httpclient.h"
#include "util/canceltoken.h"
#include "util/error.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

namespace sandbox {

/// Labels the engine puts on everything it creates (reaper and pool use them).
namespace labels {
inline constexpr auto Managed = "io.sandbox-studio.managed"; ///< "true"
inline constexpr auto Owner = "io.sandbox-studio.owner";     ///< "<hostname>/<pid>"
inline constexpr auto Session = "io.sandbox-studio.session"; ///< session id
inline constexpr auto Kind = "io.sandbox-studio.kind"; ///< "oneshot" | "session" | "pool" | "deps"
inline constexpr auto Created = "io.sandbox-studio.created"; ///< ISO-8601 UTC
} // namespace labels

/// Network access of a sandbox. None is the default everywhere.
enum class NetworkMode
{
    None,
    Host,
    Bridge
};

/// A named volume or a host directory mounted into a sandbox.
struct VolumeMount
{
    enum class Type
    {
        Volume, ///< source is a volume name (Runtime::createVolume)
        Bind    ///< source is an absolute path on the engine's host
    };
    Type type = Type::Volume;
    QString source;
    QString target; ///< absolute path inside the sandbox
    bool readOnly = true;
};

/// Everything needed to create one hardened sandbox. Units: bytes, nano-CPUs, counts.
struct SandboxSpec
{
    QString image;       ///< image reference, e.g. "sandbox-studio/python:r1a2b3c"
    QStringList command; ///< PID 1 of the sandbox; keeps it alive between execs
    QStringList env;     ///< "NAME=value"
    QString user = QStringLiteral("65534:65534");
    QString workDir = QStringLiteral("/sandbox");
    qint64 memoryBytes = 0;            ///< 0 = engine default (unlimited)
    qint64 nanoCpus = 0;               ///< 1e9 = one CPU; 0 = unlimited
    qint64 pidsLimit = 0;              ///< 0 = unlimited
    qint64 workDirBytes = 256ll << 20; ///< size of the tmpfs work directory
    qint64 tmpBytes = 64ll << 20;      ///< size of the tmpfs at /tmp
    NetworkMode network = NetworkMode::None;
    bool readOnlyRoot = true;
    bool openStdin = false; ///< keep PID 1's stdin open (agent placement)
    /// Run the engine's init (Docker's docker-init, Podman's catatonit) as PID 1 to reap
    /// zombies and forward signals. False when the command does both itself (the agent):
    /// then the command is PID 1, which no process of the sandbox can SIGKILL, and, when it
    /// makes itself non-dumpable, none can ptrace or read (Docker API HostConfig.Init).
    bool init = true;
    QMap<QString, QString> labels;
    QString name;               ///< optional container name
    QList<VolumeMount> volumes; ///< named volumes and bind mounts
};

/// One process run inside a running sandbox (Docker exec).
struct ExecSpec
{
    QStringList argv;
    QStringList env;          ///< added to the sandbox's environment
    QString user;             ///< empty = the sandbox's user
    QString workDir;          ///< empty = the sandbox's work directory
    bool attachStdin = false; ///< stdinData is written, then stdin is closed
    QByteArray stdinData;
};

/// Receives an exec's output as it arrives. Return false to stop reading (the exec is
/// then abandoned; the caller should kill the sandbox).
struct ExecIo
{
    std::function<bool(QByteArrayView)> onStdout;
    std::function<bool(QByteArrayView)> onStderr;
};

/// How an exec ended.
struct ExecResult
{
    int exitCode = -1; ///< -1 when unknown (cancelled, deadline, stream lost)
    bool cancelled = false;
    bool deadlineExceeded = false;
    bool stoppedByReader = false;
};

/// A process started by exec whose streams stay open (interactive kernels): stdin is
/// written as needed, stdout and stderr are read as they come. Not thread-safe: one
/// thread at a time does I/O on it.
class ExecChannel
{
public:
    virtual ~ExecChannel() = default;
    /// Writes to the process's stdin. Errors: IoError when the stream is gone.
    virtual Result<void> write(QByteArrayView data) = 0;
    /// Waits at most timeoutMs for output and appends it to out/err. Returns false once the
    /// stream ended (the process exited). Errors: IoError, ProtocolError (bad framing).
    virtual Result<bool> read(int timeoutMs, QByteArray *out, QByteArray *err) = 0;
    /// The exit code after the stream ended; -1 when the engine does not know it.
    virtual Result<int> exitCode() = 0;
};

/// Engine identity, from the version endpoint.
struct RuntimeInfo
{
    QString name;       ///< "Docker Engine" | "Podman"
    QString version;    ///< "20.10.24+dfsg1"
    QString apiVersion; ///< "1.41"
    QString os;         ///< "linux"
    bool isPodman = false;
};

/// A sandbox the engine knows about, as listed by labels.
struct SandboxInfo
{
    QString id;
    QString name;
    QString state; ///< "running", "exited", ...
    QMap<QString, QString> labels;
};

/// A named volume the engine knows about, as listed by labels.
struct VolumeInfo
{
    QString name;
    QString createdAt; ///< as the engine reports it (RFC 3339)
    QMap<QString, QString> labels;
};

/// An image as the engine lists it (GET /images/json).
struct ImageInfo
{
    QString id;       ///< "sha256:..."
    QStringList tags; ///< "repo:tag" references; empty for dangling images
    qint64 sizeBytes = 0;
    qint64 created = 0; ///< seconds since the epoch
    QMap<QString, QString> labels;
};

/// How to build an image from a Dockerfile (POST /build).
struct BuildOptions
{
    QString tag;                                       ///< "repo:tag" given to the result
    QString dockerfile = QStringLiteral("Dockerfile"); ///< path inside the context
    NetworkMode network = NetworkMode::None;           ///< of RUN steps: none or host
    QMap<QString, QString> buildArgs;                  ///< ARG values
    QMap<QString, QString> labels;                     ///< added to the image
    bool noCache = false;
};

/// The container engine seen by the rest of the engine: Docker, Podman or Kubernetes.
/// Every call blocks; call from worker threads. Implementations are thread-safe.
class Runtime
{
public:
    virtual ~Runtime() = default;

    /// Backend identifier: "docker", "podman", "docker-tls", "kubernetes".
    virtual QString backend() const = 0;
    /// Endpoint for messages: "unix:///var/run/docker.sock".
    virtual QString endpointDisplay() const = 0;

    /// Checks the engine answers and reports its version.
    /// Errors: EngineUnreachable, TlsError, EngineError.
    virtual Result<RuntimeInfo> ping() = 0;

    /// Whether an image exists locally. Errors: engine errors only (absent -> false).
    virtual Result<bool> imageExists(const QString &ref) = 0;

    /// Creates a sandbox (not started). Returns its id.
    /// Errors: ImageMissing, EngineError (bad limits, ...), EngineUnreachable.
    virtual Result<QString> create(const SandboxSpec &spec) = 0;
    virtual Result<void> start(const QString &id) = 0;

    /// Runs argv inside the sandbox, streaming output to io until the process ends, the
    /// deadline passes or cancel fires (then deadlineExceeded/cancelled is set and the
    /// process may still run: kill the sandbox). Errors: NotFound, EngineError, IoError,
    /// ProtocolError (malformed stream).
    virtual Result<ExecResult> exec(const QString &id, const ExecSpec &spec, const ExecIo &io,
                                    const CancelToken &cancel, Deadline deadline) = 0;

    /// Sends SIGKILL to the sandbox's processes. A sandbox that is not running is fine.
    virtual Result<void> kill(const QString &id) = 0;
    /// Removes the sandbox and its anonymous volumes, forcibly. Absent is fine.
    virtual Result<void> remove(const QString &id) = 0;

    /// Lists sandboxes carrying label key=value (all states).
    virtual Result<QList<SandboxInfo>> list(const QString &labelKey, const QString &labelValue) = 0;

    /// Starts argv with stdin, stdout and stderr held open (spec.stdinData is ignored).
    /// Errors: NotFound, EngineError, IoError.
    virtual Result<std::unique_ptr<ExecChannel>> execInteractive(const QString &id,
                                                                 const ExecSpec &spec) = 0;

    /// Whether a network of that name exists ("bridge" is absent on engines started with
    /// the default bridge disabled). Errors: engine errors only.
    virtual Result<bool> networkExists(const QString &name) = 0;

    /// Limits of spec that this engine's host cannot apply (a rootless Podman on cgroup v1
    /// has no memory, CPU or pids control), one sentence each, for RunResult::notes: a
    /// limit that is not applied is said, never silently dropped. Empty = all applied.
    virtual QStringList unappliedLimits(const SandboxSpec &spec)
    {
        (void)spec;
        return {};
    }

    /// Whether a named volume exists. Errors: engine errors only (absent -> false).
    virtual Result<bool> volumeExists(const QString &name)
    {
        return fail(ErrorCode::Internal,
                    QStringLiteral("The %1 backend has no volumes").arg(backend()), name);
    }
    /// Creates a named volume with labels (an existing one is kept as it is).
    /// Errors: EngineError.
    virtual Result<void> createVolume(const QString &name, const QMap<QString, QString> &labels)
    {
        (void)labels;
        return fail(ErrorCode::Internal,
                    QStringLiteral("The %1 backend has no volumes").arg(backend()), name);
    }
    /// Lists volumes carrying label key=value. Errors: engine errors.
    virtual Result<QList<VolumeInfo>> listVolumes(const QString &labelKey,
                                                  const QString &labelValue)
    {
        return fail(ErrorCode::Internal,
                    QStringLiteral("The %1 backend has no volumes").arg(backend()),
                    labelKey + u'=' + labelValue);
    }
    /// Removes a named volume, forcibly. Absent is fine. Errors: EngineError (in use, ...).
    virtual Result<void> removeVolume(const QString &name)
    {
        return fail(ErrorCode::Internal,
                    QStringLiteral("The %1 backend has no volumes").arg(backend()), name);
    }

    /// Image references ("repo:tag") whose repository starts with prefix
    /// ("sandbox-studio/"). Errors: engine errors.
    virtual Result<QStringList> listImages(const QString &prefix)
    {
        return fail(ErrorCode::Internal,
                    QStringLiteral("The %1 backend cannot list images").arg(backend()), prefix);
    }
    /// Removes an image reference (the image goes when no tag is left). Absent is fine.
    /// Errors: EngineError (in use by a container, ...).
    virtual Result<void> removeImage(const QString &ref)
    {
        return fail(ErrorCode::Internal,
                    QStringLiteral("The %1 backend cannot remove images").arg(backend()), ref);
    }

    /// Pulls ref ("python:3.12", "ghcr.io/x/y:tag") from its registry, reporting each
    /// progress line ("Downloading 12 MB/40 MB"). Errors: ImageMissing with the registry's
    /// message when the pull fails (offline, unknown image, denied), Cancelled.
    virtual Result<void> pullImage(const QString &ref,
                                   std::function<void(const QString &line)> progress,
                                   const CancelToken &cancel) = 0;

    /// Imports a root filesystem tar as image repo:tag (Docker: POST /images/create?fromSrc=-).
    /// read fills the buffer and returns the bytes written, 0 at end. changes are Dockerfile
    /// instructions applied to the image config ("ENV A=b", "WORKDIR /sandbox").
    /// Errors: EngineError with the engine's message, Cancelled.
    virtual Result<QString> importImage(const QString &repo, const QString &tag,
                                        const QStringList &changes,
                                        std::function<size_t(char *, size_t)> read,
                                        std::function<void(qint64 bytesSent)> progress,
                                        const CancelToken &cancel) = 0;

    /// Every image with its tags, size and labels. Tags are in Docker's short form on every
    /// engine ("x/y:1"; Podman's "localhost/" and "docker.io/" prefixes are dropped), so they
    /// compare equal to the references images were built, committed or imported under.
    /// Errors: engine errors; NotSupported.
    virtual Result<QList<ImageInfo>> listImageInfos()
    {
        return fail(ErrorCode::NotSupported,
                    QStringLiteral("The %1 backend cannot list images").arg(backend()));
    }

    /// Builds an image from a Dockerfile. contextTar is the build context as an
    /// uncompressed tar holding options.dockerfile; log receives every line of the build
    /// output as it arrives (Docker "Step 2/4 : RUN ...", Podman "STEP 2/4: RUN ...").
    /// Returns the image id. Errors: EngineError with the failing step's message (the engine
    /// answers 200 and reports the failure in the stream); a RUN command that exits non-zero
    /// gives "Building T failed: step 2/4 (RUN ...) exited with code N" on every engine, the
    /// engine's own words in the detail; ImageMissing for a FROM image that is not here;
    /// Cancelled, NotSupported (backends without builds).
    virtual Result<QString> buildImage(const QByteArray &contextTar, const BuildOptions &options,
                                       std::function<void(const QString &line)> log,
                                       const CancelToken &cancel)
    {
        (void)contextTar, (void)log, (void)cancel;
        return fail(ErrorCode::NotSupported,
                    QStringLiteral("The %1 backend cannot build images").arg(backend()),
                    options.tag);
    }

    /// Saves a sandbox's filesystem (its writable layer, not tmpfs mounts) as image
    /// repo:tag with changes applied ("LABEL a=b", "ENV A=b"). Returns the image id.
    /// Errors: NotFound, EngineError; NotSupported on backends that cannot commit
    /// (Kubernetes).
    virtual Result<QString> commit(const QString &id, const QString &repo, const QString &tag,
                                   const QStringList &changes)
    {
        (void)changes;
        return fail(ErrorCode::NotSupported,
                    QStringLiteral("The %1 backend cannot save a sandbox as an image (commit); "
                                   "use a Docker or Podman backend for templates")
                        .arg(backend()),
                    id + u' ' + repo + u':' + tag);
    }

    /// Extracts tar into the directory path of a sandbox that is not running or has a
    /// writable root (PUT /containers/{id}/archive). Cannot reach into tmpfs mounts.
    /// Errors: NotFound, EngineError; NotSupported.
    virtual Result<void> putArchive(const QString &id, const QString &path, const QByteArray &tar)
    {
        (void)tar;
        return fail(ErrorCode::NotSupported,
                    QStringLiteral("The %1 backend cannot copy archives").arg(backend()),
                    id + u':' + path);
    }

    /// Attaches to the sandbox's main process (stdin, stdout, stderr) over a bidirectional
    /// stream; call before start() to see all output. Without a TTY, the read side carries
    /// Docker's multiplexed framing (FrameDemuxer). Used to place and speak to the agent
    /// (AgentChannel). Errors: NotFound, EngineError; Internal when the backend has none.
    virtual Result<std::unique_ptr<RawStream>> attach(const QString &id)
    {
        return fail(ErrorCode::Internal,
                    QStringLiteral("The %1 backend cannot attach to a sandbox").arg(backend()), id);
    }
};

} // namespace sandbox
