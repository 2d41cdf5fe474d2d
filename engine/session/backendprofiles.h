// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/engine.h"

#include <QList>
#include <QString>

namespace sandbox {

/// The user's backend profiles, shared by the GUI, the CLI and the MCP server: a QSettings
/// file (INI) at $SANDBOX_STUDIO_PROFILES, else <config>/sandbox-studio/backends.conf.
/// "Local Docker" and "Local Podman" always exist (built in, not stored, not removable).
/// Kind "kubernetes" keeps every KubernetesSettings member that differs from its default,
/// under the keys of kubernetesSettingKeys() (lists as INI lists of the entries
/// setKubernetesSetting() takes).
/// Not thread-safe; each front end makes its own store when it needs one.
class BackendProfileStore
{
public:
    /// The store at path (tests); empty = the default location.
    explicit BackendProfileStore(QString path = {});

    QString path() const { return m_path; }

    /// Built-ins first, then the stored profiles in the order they were saved.
    QList<BackendProfile> profiles() const;
    /// The profile named name (case-insensitive), or the built-in profile of a kind name
    /// ("docker", "podman"; "docker-tls" = the environment's DOCKER_HOST/DOCKER_CERT_PATH,
    /// the server's certificate verified).
    /// Errors: NotFound listing the names there are.
    Result<BackendProfile> find(const QString &name) const;
    /// Adds or replaces (by name) a stored profile. Errors: InvalidArgument for an empty
    /// name, a built-in's name, an unknown kind, a TLS profile without a host, or a
    /// Kubernetes profile whose pod settings make no pod (buildPodManifest's message).
    Result<void> save(const BackendProfile &profile);
    /// Removes a stored profile. Errors: InvalidArgument for built-ins, NotFound.
    Result<void> remove(const QString &name);

    /// The profile picked last (GUI picker); "Local Docker" when none or gone.
    QString currentName() const;
    void setCurrentName(const QString &name);
    /// Whether a profile was ever picked (and still exists): then it wins over the
    /// environment and Preferences ▸ Backend at start-up.
    bool hasCurrentName() const;

    static bool isBuiltIn(const QString &name);
    static QStringList kinds(); ///< "docker", "podman", "docker-tls", "kubernetes"

private:
    QList<BackendProfile> stored() const;
    void write(const QList<BackendProfile> &list);

    QString m_path;
};

} // namespace sandbox
