// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/kubernetesconfig.h"
#include "runtime/runtime.h"

#include <QByteArray>
#include <QString>
#include <atomic>
#include <memory>

namespace sandbox {

/// Label that selects pods for the deny-all NetworkPolicy (value "none").
inline constexpr auto kubernetesNetworkLabel = "io.sandbox-studio.network";
/// Name of the NetworkPolicy that denies all ingress and egress of sandboxes without network.
inline constexpr auto kubernetesDenyAllPolicy = "sandbox-studio-deny-all";

/// Builds the pod manifest (JSON) for one sandbox: the restricted security context of
/// PROTOCOLS.md "Kubernetes" (runAsNonRoot, no privilege escalation, read-only root, all
/// capabilities dropped, RuntimeDefault seccomp, no service-account token, restartPolicy
/// Never), memory-backed emptyDir volumes for the work directory and /tmp (they count
/// against the memory limit), CPU/memory requests and limits (settings, else spec),
/// ephemeral storage, runtimeClassName, nodeSelector, tolerations, service account, image
/// pull secrets, labels and annotations, activeDeadlineSeconds; then settings.rawManifest
/// merged over it. spec.labels go in as labels (values made valid label values) and,
/// verbatim, as annotations. spec.pidsLimit has no pod field (a kubelet setting): noted in
/// *notes. NetworkMode::None has no pod field either: the pod gets kubernetesNetworkLabel=none,
/// which the deny-all NetworkPolicy selects (KubernetesRuntime::create ensures it), noted too.
/// Errors: InvalidArgument (root user, Docker volumes or bind mounts, bad raw manifest).
Result<QByteArray> buildPodManifest(const SandboxSpec &spec, const KubernetesSettings &settings,
                                    const QString &podName, const QString &namespaceName,
                                    QStringList *notes = nullptr);

/// A label value Kubernetes accepts (<= 63 characters of [A-Za-z0-9-_.], alphanumeric at
/// both ends) made from any text: other characters become '_'.
QString kubernetesLabelValue(const QString &text);

/// The Kubernetes backend: each sandbox is a pod; exec and attach go over WebSocket
/// (v5.channel.k8s.io, falling back to v4.channel.k8s.io), files move as tar over exec.
/// Sandbox ids are pod names in the connection's namespace. create() waits until the pod
/// is Running (or fails with the reason: image pull, scheduling, configuration) and
/// deletes it when it does not get there. Committing images, importing, pulling, volumes
/// and bridge-less network modes are not Kubernetes concepts: those calls fail with a
/// message that says so. Thread-safe; every call blocks.
class KubernetesRuntime final : public Runtime
{
public:
    /// Resolves the connection (kubeconfig or in-cluster) without contacting the server.
    /// profileName names the backend profile in messages. Errors: see
    /// resolveKubernetesConnection().
    static Result<std::shared_ptr<KubernetesRuntime>> create(const KubernetesSettings &settings,
                                                             const QString &profileName = {});
    KubernetesRuntime(KubernetesConnection connection, KubernetesSettings settings,
                      QString profileName);
    ~KubernetesRuntime() override;

    const KubernetesConnection &connection() const;
    const KubernetesSettings &settings() const;

    QString backend() const override { return QStringLiteral("kubernetes"); }
    QString endpointDisplay() const override;
    /// GET /version, then a pod list in the namespace (which needs credentials: /version
    /// does not). Errors: EngineUnreachable, TlsError, EngineError (401 names the context,
    /// user and server).
    Result<RuntimeInfo> ping() override;
    /// Always true: the cluster's nodes pull images themselves; a missing image shows up
    /// in create() as ImageMissing.
    Result<bool> imageExists(const QString &ref) override;
    /// Creates the pod and waits until it is Running. Without network, first makes sure the
    /// namespace has the deny-all NetworkPolicy (kubernetesDenyAllPolicy) and fails closed
    /// when it cannot be created (403: the message says what to create). Errors: ImageMissing
    /// (ErrImagePull/ImagePullBackOff), EngineError (Unschedulable, configuration errors,
    /// admission refusals, 401/403), Timeout (startTimeoutSeconds), InvalidArgument.
    Result<QString> create(const SandboxSpec &spec) override;
    /// Nothing to do: create() started the pod.
    Result<void> start(const QString &id) override;
    Result<ExecResult> exec(const QString &id, const ExecSpec &spec, const ExecIo &io,
                            const CancelToken &cancel, Deadline deadline) override;
    /// SIGKILLs every process of the sandbox user (an exec of sh -c "kill -9 -1"); deletes the pod
    /// when that fails.
    Result<void> kill(const QString &id) override;
    /// DELETE with gracePeriodSeconds=0; absent is fine.
    Result<void> remove(const QString &id) override;
    /// Pods of the namespace with label key=value (labelSelector, then exact match on the
    /// verbatim annotation).
    Result<QList<SandboxInfo>> list(const QString &labelKey, const QString &labelValue) override;
    Result<std::unique_ptr<ExecChannel>> execInteractive(const QString &id,
                                                         const ExecSpec &spec) override;
    /// "bridge" exists (pods have the cluster's pod network); nothing else does.
    Result<bool> networkExists(const QString &name) override;
    /// Fails: images come from registries the cluster's nodes pull from.
    Result<void> pullImage(const QString &ref, std::function<void(const QString &line)> progress,
                           const CancelToken &cancel) override;
    /// Fails: a cluster has no image import; push the image to a registry.
    Result<QString> importImage(const QString &repo, const QString &tag, const QStringList &changes,
                                std::function<size_t(char *, size_t)> read,
                                std::function<void(qint64 bytesSent)> progress,
                                const CancelToken &cancel) override;
    /// pods/attach over WebSocket, presented as Docker's multiplexed stream (FrameDemuxer
    /// framing) so AgentChannel works unchanged; closeWrite() sends the v5 stdin close.
    /// The pod must have been created with openStdin.
    Result<std::unique_ptr<RawStream>> attach(const QString &id) override;

    /// Committing a sandbox as an image is impossible on Kubernetes (no commit API): this
    /// always fails with that message.
    Result<QString> commit(const QString &id, const QString &repo, const QString &tag);

    struct Impl;

private:
    std::unique_ptr<Impl> d;
};

} // namespace sandbox
