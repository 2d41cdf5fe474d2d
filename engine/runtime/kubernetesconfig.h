// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/error.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sandbox {

/// A pod toleration (core/v1 Toleration). Empty fields are left out of the pod spec.
struct KubernetesToleration
{
    QString key;
    QString op = QStringLiteral("Equal"); ///< "Equal" | "Exists"
    QString value;
    QString effect;                ///< "" | "NoSchedule" | "PreferNoSchedule" | "NoExecute"
    qint64 tolerationSeconds = -1; ///< -1 = not set
};

/// The Kubernetes part of a backend profile: where the cluster is (kubeconfig, context,
/// namespace) and the form-level pod settings every sandbox pod gets. Quantities are
/// Kubernetes quantities ("500m", "1Gi"); empty = taken from the run's limits (CPU,
/// memory) or left out.
struct KubernetesSettings
{
    QString kubeconfig;    ///< file(s), ':'-separated; empty = $KUBECONFIG, else ~/.kube/config,
                           ///< else the in-cluster service account
    QString context;       ///< empty = the kubeconfig's current-context
    QString namespaceName; ///< empty = the context's namespace, else "default"

    QString cpuRequest;
    QString cpuLimit;
    QString memoryRequest;
    QString memoryLimit;
    QString ephemeralStorage; ///< request and limit of ephemeral-storage
    QString runtimeClassName; ///< e.g. "gvisor", "kata"
    QMap<QString, QString> nodeSelector;
    QList<KubernetesToleration> tolerations;
    QString serviceAccountName;
    QStringList imagePullSecrets;
    QString imagePullPolicy = QStringLiteral("IfNotPresent");
    /// Prefix for image references ("registry.example.com/team"): the cluster pulls
    /// "<prefix>/sandbox-studio/python:r..." where the local engine has the bare name.
    QString imageRegistry;
    QMap<QString, QString> labels;      ///< added to every pod
    QMap<QString, QString> annotations; ///< added to every pod
    /// A pod manifest (JSON or YAML) merged over the generated one: objects merge key by
    /// key, null removes a key, spec.containers merge by name (or the first container),
    /// other lists replace.
    QString rawManifest;
    /// Backstop: the cluster ends a pod after this long even if the engine died (0 = none).
    qint64 activeDeadlineSeconds = 6 * 3600;
    /// How long create() waits for a pod to be Running (image pulls count).
    qint64 startTimeoutSeconds = 180;
};

/// A resolved connection to one API server: what kubeconfig (or the in-cluster service
/// account) says for one context. PEM data is held in memory, never written out.
struct KubernetesConnection
{
    QString server; ///< "https://host:6443"
    QByteArray caPem;
    bool insecureSkipTlsVerify = false;
    QString token;
    QByteArray clientCertPem;
    QByteArray clientKeyPem;
    QString contextName; ///< "in-cluster" for the service account
    QString clusterName;
    QString userName;
    QString namespaceName; ///< resolved: settings, else the context's, else "default"
    QString source;        ///< the kubeconfig path(s) or the service-account directory

    /// "https://host:6443 (context ctx)" for messages.
    QString display() const;
};

/// The KubernetesSettings keys as backend profiles store them and `sandbox-studio backends
/// add --set KEY=VALUE` takes them, in a fixed order: kubeconfig, context, namespace,
/// cpuRequest, cpuLimit, memoryRequest, memoryLimit, ephemeralStorage, runtimeClassName,
/// serviceAccountName, imagePullPolicy, imageRegistry, rawManifest, activeDeadlineSeconds,
/// startTimeoutSeconds (scalars), then nodeSelector, tolerations, imagePullSecrets, labels,
/// annotations (lists).
QStringList kubernetesSettingKeys();

/// Whether key names a list (several entries; setKubernetesSetting() adds to it).
bool kubernetesSettingIsList(const QString &key);

/// Sets key of settings from text. Scalars replace the value (quantities such as "500m" or
/// "1Gi" as Kubernetes writes them; the two *Seconds keys whole seconds >= 0;
/// imagePullPolicy Always, IfNotPresent or Never). List keys add one entry per non-empty
/// line of value: nodeSelector and labels "key=value" (Kubernetes label syntax),
/// annotations "key=value" (any value), imagePullSecrets a secret name, tolerations
/// "key[=value][:Effect][@seconds]" (without "=value" the operator is Exists; "*" tolerates
/// every taint; Effect NoSchedule, PreferNoSchedule or NoExecute; "@seconds" only with
/// NoExecute), as core/v1 Toleration. Errors: InvalidArgument naming the key and the
/// entry (unknown key, missing '=', invalid label key or value, unknown effect, not a
/// number); settings keep what was set before the bad entry.
Result<void> setKubernetesSetting(KubernetesSettings &settings, const QString &key,
                                  const QString &value);

/// The settings that differ from the defaults, as (key, entries) in kubernetesSettingKeys()
/// order: a scalar has one entry, a list one entry per element in the text
/// setKubernetesSetting() takes, so feeding each entry back gives the same settings.
QList<std::pair<QString, QStringList>> kubernetesSettingValues(const KubernetesSettings &settings);

/// A toleration in the text setKubernetesSetting() takes ("gpu=true:NoSchedule", "*").
QString formatKubernetesToleration(const KubernetesToleration &toleration);

/// Parses kubeconfig YAML (files in order, as $KUBECONFIG merges them: the first file that
/// names a context, cluster or user wins; current-context from the first file that sets
/// it) and resolves context (empty = current-context). Reads clusters (server,
/// certificate-authority(-data), insecure-skip-tls-verify), users (token, tokenFile,
/// client-certificate(-data), client-key(-data)) and contexts (cluster, user, namespace).
/// Relative file paths are relative to the file that names them. PROTOCOLS.md
/// "Kubernetes". Errors: InvalidArgument naming the file and what is wrong (YAML syntax,
/// unknown context, missing server, exec or auth-provider plugins, unreadable files).
Result<KubernetesConnection> parseKubeconfig(const QList<std::pair<QString, QByteArray>> &files,
                                             const QString &context);

/// The in-cluster configuration: KUBERNETES_SERVICE_HOST/PORT and token, ca.crt and
/// namespace under dir. Errors: NotFound when not running in a pod, IoError.
Result<KubernetesConnection> inClusterConnection(
    const QString &dir = QStringLiteral("/var/run/secrets/kubernetes.io/serviceaccount"));

/// The connection settings names: settings.kubeconfig, else $KUBECONFIG, else
/// ~/.kube/config, else the in-cluster service account; namespace from the settings, the
/// context, or "default". Errors: as parseKubeconfig and inClusterConnection; NotFound
/// when there is no configuration at all (the message says what to set).
Result<KubernetesConnection> resolveKubernetesConnection(const KubernetesSettings &settings);

} // namespace sandbox
