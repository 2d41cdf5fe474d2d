// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/runtime.h"
#include "transport/httpclient.h"

#include <QLoggingCategory>
#include <atomic>
#include <mutex>

Q_DECLARE_LOGGING_CATEGORY(lcDocker)

namespace sandbox {

/// Runtime over the Docker Engine API v1.41 (also spoken by Podman's compatible tree),
/// reached over a unix socket or TCP with mutual TLS. Implements "Containers", "Exec" and
/// "Images" sections of the Engine API; exec streams use hijacked connections.
///
/// Podman (PROTOCOLS.md "Podman") is told apart by /_ping's Libpod-API-Version header,
/// checked before the first create. Differences handled: tmpfs owner options (mode=1777,
/// podman rejects uid=/gid=); no seccomp= option is sent (Docker's takes JSON, Podman's a
/// host path; both apply their default profile); NanoCpus alone, never with CpuPeriod/
/// CpuQuota; no container wait or stats streams are used (libpod's differ); exec exit
/// codes are inspected right after the stream ends (Podman drops exec sessions 5 minutes
/// after exit); a rootless Podman on cgroup v1 cannot apply memory, CPU or pids limits,
/// so they are left out of the create body and reported by unappliedLimits().
class DockerRuntime : public Runtime
{
public:
    static constexpr auto ApiVersion = "v1.41";

    explicit DockerRuntime(Endpoint endpoint, QString backendName = QStringLiteral("docker"));

    QString backend() const override { return m_backend; }
    QString endpointDisplay() const override { return m_http.endpoint().display(); }

    Result<RuntimeInfo> ping() override;
    QStringList unappliedLimits(const SandboxSpec &spec) override;

    /// The notes for spec's limits on a Podman host (libpod /info: rootless, cgroup
    /// version "v1"/"v2"); empty where the host applies them.
    static QStringList podmanUnappliedLimits(bool rootless, const QString &cgroupVersion,
                                             const SandboxSpec &spec);
    /// Whether this is Podman (after ping() or the first create()).
    bool isPodman() const { return m_isPodman; }
    Result<bool> imageExists(const QString &ref) override;
    Result<QString> create(const SandboxSpec &spec) override;
    Result<void> start(const QString &id) override;
    Result<ExecResult> exec(const QString &id, const ExecSpec &spec, const ExecIo &io,
                            const CancelToken &cancel, Deadline deadline) override;
    Result<void> kill(const QString &id) override;
    Result<void> remove(const QString &id) override;
    Result<QList<SandboxInfo>> list(const QString &labelKey, const QString &labelValue) override;
    Result<std::unique_ptr<ExecChannel>> execInteractive(const QString &id,
                                                         const ExecSpec &spec) override;
    Result<bool> networkExists(const QString &name) override;
    Result<QStringList> listImages(const QString &prefix) override;
    Result<void> removeImage(const QString &ref) override;
    /// GET /volumes/{name}, POST /volumes/create, DELETE /volumes/{name}?force=true.
    Result<bool> volumeExists(const QString &name) override;
    Result<void> createVolume(const QString &name, const QMap<QString, QString> &labels) override;
    Result<void> removeVolume(const QString &name) override;
    /// GET /volumes?filters={"label":["key=value"]}.
    Result<QList<VolumeInfo>> listVolumes(const QString &labelKey,
                                          const QString &labelValue) override;
    Result<void> pullImage(const QString &ref, std::function<void(const QString &)> progress,
                           const CancelToken &cancel) override;
    Result<QString> importImage(const QString &repo, const QString &tag, const QStringList &changes,
                                std::function<size_t(char *, size_t)> read,
                                std::function<void(qint64)> progress,
                                const CancelToken &cancel) override;
    /// POST /containers/{id}/attach?stream=1&stdin=1&stdout=1&stderr=1, hijacked.
    Result<std::unique_ptr<RawStream>> attach(const QString &id) override;

    // Images, builds and commits (dockerimages.cpp).
    /// GET /images/json.
    Result<QList<ImageInfo>> listImageInfos() override;
    /// POST /build (classic builder, version=1; BuildKit needs a gRPC session) with the
    /// context tar; the JSON stream is checked line by line for errorDetail, the id comes
    /// from the aux message or "Successfully built" (Podman).
    Result<QString> buildImage(const QByteArray &contextTar, const BuildOptions &options,
                               std::function<void(const QString &)> log,
                               const CancelToken &cancel) override;
    /// POST /commit?container=&repo=&tag=&changes=...
    Result<QString> commit(const QString &id, const QString &repo, const QString &tag,
                           const QStringList &changes) override;
    /// PUT /containers/{id}/archive?path=
    Result<void> putArchive(const QString &id, const QString &path, const QByteArray &tar) override;

    /// The HostConfig/Config JSON for a spec (exposed for tests and the pod-spec mapper).
    QByteArray createBody(const SandboxSpec &spec) const;

    const HttpClient &http() const { return m_http; }

protected:
    /// GET path: true on 2xx, false on 404, an Error otherwise (the *Exists calls).
    Result<bool> exists(const QString &path, long timeoutMs);
    /// DELETE path: success on 2xx and on 404 (already gone), an Error otherwise.
    Result<void> deleteAllowingMissing(const QString &path, long timeoutMs);

    /// Creates an exec instance; returns its id.
    Result<QString> createExec(const QString &id, const ExecSpec &spec);
    /// Reads an exec's exit code once it stopped running (polls briefly).
    Result<int> execExitCode(const QString &execId);

    /// Asks /_ping (once) whether this is Podman, and Podman's /info whether limits apply.
    /// Errors: as ping().
    Result<void> detectEngine();

    /// "/v1.41" + path.
    static QString api(const QString &path);
    /// Error for a non-2xx answer, with the engine's {"message"}.
    static Error engineError(const HttpResponse &resp, const QString &what);

    HttpClient m_http;
    QString m_backend;
    std::atomic<bool> m_isPodman{false};
    std::atomic<bool> m_detected{false};
    std::atomic<bool> m_podmanRootless{false};
    QString m_cgroupVersion; ///< "v1" | "v2", Podman only; written once in detectEngine()
    mutable std::mutex m_detectMutex;
};

} // namespace sandbox
