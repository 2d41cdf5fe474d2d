// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/policy.h"
#include "runtime/kubernetesconfig.h"
#include "runtime/runtime.h"
#include "session/runtypes.h"
#include "util/canceltoken.h"
#include "util/error.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QHash>
#include <QString>
#include <QVariantMap>
#include <memory>
#include <mutex>

namespace sandbox {

class SandboxPool;
struct LanguageDescriptor;

/// Which engine to talk to, and how: a named profile the user picks (GUI picker, CLI
/// `--backend`, MCP configuration). Stored by BackendProfileStore (session/backendprofiles.h).
/// Kinds: "docker" (local socket or DOCKER_HOST), "podman" (its API socket, rootful
/// /run/podman/podman.sock or rootless $XDG_RUNTIME_DIR/podman/podman.sock), "docker-tls"
/// (tcp://host:2376 with mutual TLS, the Docker client's conventions), "kubernetes".
struct BackendProfile
{
    QString name = QStringLiteral("Local Docker");
    QString kind = QStringLiteral("docker"); ///< "docker" | "podman" | "docker-tls" | "kubernetes"
    QString uri;           ///< unix:///PATH or tcp://HOST:PORT; empty = the kind's default
    QString certPath;      ///< DOCKER_CERT_PATH-style folder with ca.pem, cert.pem, key.pem (TLS)
    QString caFile;        ///< overrides certPath's ca.pem when set (TLS)
    QString certFile;      ///< overrides certPath's cert.pem when set (TLS)
    QString keyFile;       ///< overrides certPath's key.pem when set (TLS)
    bool tlsVerify = true; ///< verify the server's certificate (DOCKER_TLS_VERIFY)
    KubernetesSettings kubernetes; ///< kind "kubernetes": cluster and pod settings
    /// Stored settings this build does not model, kept as they are on load and save.
    QVariantMap options;

    /// The profile from the environment: DOCKER_HOST, DOCKER_CERT_PATH, DOCKER_TLS_VERIFY
    /// (kind "docker-tls" when TLS is asked for), else the local Docker socket.
    static BackendProfile fromEnvironment();
    /// Built-in profiles: "Local Docker" (fromEnvironment) and "Local Podman".
    static BackendProfile localDocker();
    static BackendProfile localPodman();
    /// The default Podman socket: rootful /run/podman/podman.sock when it exists (or we
    /// are root), else $XDG_RUNTIME_DIR/podman/podman.sock; CONTAINER_HOST wins when set.
    static QString defaultPodmanUri();

    /// The endpoint a Docker-API kind talks to, TLS files checked.
    /// Errors: InvalidArgument (bad URI, missing certificate files, kind without one).
    Result<Endpoint> endpoint() const;
    /// "unix:///run/podman/podman.sock", "tcp://h:2376", for messages; "" when unknown.
    QString endpointDisplay() const;
    /// "Profile 'NAME' (ENDPOINT): " prefix for errors shown to people.
    QString describe() const;
};

/// The engine's front door: the GUI, the CLI and the MCP server all run code through it.
/// Thread-safe. Long operations run on the global thread pool and return futures.
class Engine
{
public:
    /// Errors: InvalidArgument for an unsupported profile kind, a malformed URI or missing
    /// certificate files (the message names the profile and the endpoint).
    static Result<std::shared_ptr<Engine>> create(const BackendProfile &profile);

    explicit Engine(std::shared_ptr<Runtime> runtime);

    /// The profile this engine was created from (create() sets it).
    const BackendProfile &profile() const { return m_profile; }

    Runtime &runtime() { return *m_runtime; }
    std::shared_ptr<Runtime> runtimePtr() { return m_runtime; }

    /// Checks the engine answers. Errors: EngineUnreachable (message says how to start it).
    Result<RuntimeInfo> ping();

    /// Runs request once in a fresh hardened sandbox that is removed on every path
    /// (success, failure, timeout, cancellation). Blocking: call from a worker thread.
    /// A program that fails is a RunResult with its exit code, not an Error. Errors:
    /// UnknownLanguage, InvalidArgument (limits, file paths, library names), ImageMissing,
    /// DependencyFailed (with the package manager's message), EngineUnreachable,
    /// EngineError, Cancelled (before the program started).
    Result<RunResult> runBlocking(const RunRequest &request, const RunObserver &observer = {},
                                  const CancelToken &cancel = {});

    /// runBlocking on the global thread pool.
    QFuture<Result<RunResult>> run(RunRequest request, RunObserver observer = {},
                                   CancelToken cancel = {});

    /// Image reference for a language's default recipe ("sandbox-studio/python:r0123abcd").
    /// Errors: UnknownLanguage, NotFound (no recipe).
    static Result<QString> defaultImageFor(const QString &language);

    /// Name of the cached dependency volume a run of request would use; empty when it
    /// installs nothing. Errors: UnknownLanguage, InvalidArgument (library names).
    static Result<QString> dependencyVolumeFor(const RunRequest &request);

    /// Removes sandboxes left behind by engine processes that are no longer alive
    /// (labels: owner host/pid), this process's own sandboxes whose removal failed
    /// earlier (the engine was down or restarting when a run ended), and this process's
    /// sandboxes that have stopped (exited or dead: no run can use them). Returns how many
    /// were removed.
    Result<int> reapOrphans();

    /// Sandboxes of this process whose removal failed and is retried by reapOrphans() and
    /// at the start of the next run.
    QStringList pendingRemovals() const;

    /// Runs without dependency installs borrow a warm sandbox from pool (session/pool.h)
    /// and run through its agent; nullptr (the default) = every run in a fresh sandbox.
    void setPool(std::shared_ptr<SandboxPool> pool);
    std::shared_ptr<SandboxPool> pool() const;

    /// The policy every run is checked with before anything starts, unless the request
    /// brings its own (RunRequest::policy). Default: the "standard" preset.
    void setPolicy(const Policy &policy);
    Policy policy() const;
    /// Decides runs whose findings ask for approval (GUI: a dialog; MCP: the client).
    /// RunObserver::onPolicyAsk takes precedence. Without either, such runs do not start.
    void setAskHandler(PolicyAskHandler handler);

private:
    /// runBlocking; attempt 1 is the retry after an incomplete dependency volume.
    Result<RunResult> runAttempt(const RunRequest &request, const RunObserver &observer,
                                 const CancelToken &cancel, int attempt);

    /// runAttempt's pooled path: the same steps through a borrowed sandbox's agent.
    /// *acquired tells whether a sandbox was borrowed (else the run did not start).
    Result<RunResult> runPooled(SandboxPool &pool, const LanguageDescriptor &lang,
                                const QString &image, NetworkMode network,
                                const RunRequest &request, const RunObserver &observer,
                                const CancelToken &cancel, const QByteArray &tar,
                                const QString &codeFile, const QHash<QString, QByteArray> &inputs,
                                const QStringList &notes, const QElapsedTimer &total,
                                bool *acquired);

    /// Retries the removals in m_pendingRemovals; returns how many succeeded.
    int retryPendingRemovals();
    /// Removes id; on failure remembers it for retryPendingRemovals().
    void removeOrRemember(const QString &id);

    std::shared_ptr<Runtime> m_runtime;
    BackendProfile m_profile;
    mutable std::mutex m_pendingMutex;
    QStringList m_pendingRemovals;
    mutable std::mutex m_poolMutex;
    std::shared_ptr<SandboxPool> m_pool;
    mutable std::mutex m_policyMutex;
    Policy m_policy;
    PolicyAskHandler m_ask;
};

/// "hostname/pid" of this process, as put in the owner label.
QString ownerLabel();

} // namespace sandbox
