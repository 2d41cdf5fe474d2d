// SPDX-License-Identifier: GPL-3.0-or-later
#include "backendprofiles.h"

#include "runtime/kubernetesruntime.h"

#include <QDebug>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>

namespace sandbox {

namespace {

QString defaultPath()
{
    const QString env = qEnvironmentVariable("SANDBOX_STUDIO_PROFILES");
    if (!env.isEmpty())
        return env;
    const QString config = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    return QDir(config).filePath(QStringLiteral("sandbox-studio/backends.conf"));
}

QStringList knownKeys()
{
    QStringList keys{QStringLiteral("name"),    QStringLiteral("kind"),
                     QStringLiteral("uri"),     QStringLiteral("certPath"),
                     QStringLiteral("caFile"),  QStringLiteral("certFile"),
                     QStringLiteral("keyFile"), QStringLiteral("tlsVerify")};
    keys += kubernetesSettingKeys();
    return keys;
}

} // namespace

BackendProfileStore::BackendProfileStore(QString path)
    : m_path(path.isEmpty() ? defaultPath() : std::move(path))
{}

bool BackendProfileStore::isBuiltIn(const QString &name)
{
    return name.compare(QLatin1String("Local Docker"), Qt::CaseInsensitive) == 0 ||
           name.compare(QLatin1String("Local Podman"), Qt::CaseInsensitive) == 0;
}

QStringList BackendProfileStore::kinds()
{
    return {QStringLiteral("docker"), QStringLiteral("podman"), QStringLiteral("docker-tls"),
            QStringLiteral("kubernetes")};
}

QList<BackendProfile> BackendProfileStore::stored() const
{
    QSettings settings(m_path, QSettings::IniFormat);
    QList<BackendProfile> out;
    const int n = settings.beginReadArray(QStringLiteral("profiles"));
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        BackendProfile p;
        p.name = settings.value(QStringLiteral("name")).toString();
        p.kind = settings.value(QStringLiteral("kind"), p.kind).toString();
        p.uri = settings.value(QStringLiteral("uri")).toString();
        p.certPath = settings.value(QStringLiteral("certPath")).toString();
        p.caFile = settings.value(QStringLiteral("caFile")).toString();
        p.certFile = settings.value(QStringLiteral("certFile")).toString();
        p.keyFile = settings.value(QStringLiteral("keyFile")).toString();
        p.tlsVerify = settings.value(QStringLiteral("tlsVerify"), true).toBool();
        for (const QString &key : kubernetesSettingKeys()) {
            if (!settings.contains(key))
                continue;
            const QVariant value = settings.value(key);
            // A list key holds one entry per element; a hand-edited file's bad entry is
            // said and left out rather than losing the whole profile.
            const QStringList entries =
                kubernetesSettingIsList(key) ? value.toStringList() : QStringList{value.toString()};
            for (const QString &entry : entries)
                if (auto set = setKubernetesSetting(p.kubernetes, key, entry); !set)
                    qWarning().noquote() << m_path << p.name << set.error().message;
        }
        for (const QString &key : settings.childKeys())
            if (!knownKeys().contains(key))
                p.options.insert(key, settings.value(key));
        if (!p.name.isEmpty())
            out.append(p);
    }
    settings.endArray();
    return out;
}

void BackendProfileStore::write(const QList<BackendProfile> &list)
{
    QSettings settings(m_path, QSettings::IniFormat);
    settings.remove(QStringLiteral("profiles"));
    settings.beginWriteArray(QStringLiteral("profiles"), int(list.size()));
    for (int i = 0; i < list.size(); ++i) {
        const BackendProfile &p = list[i];
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("name"), p.name);
        settings.setValue(QStringLiteral("kind"), p.kind);
        settings.setValue(QStringLiteral("uri"), p.uri);
        settings.setValue(QStringLiteral("certPath"), p.certPath);
        settings.setValue(QStringLiteral("caFile"), p.caFile);
        settings.setValue(QStringLiteral("certFile"), p.certFile);
        settings.setValue(QStringLiteral("keyFile"), p.keyFile);
        settings.setValue(QStringLiteral("tlsVerify"), p.tlsVerify);
        if (p.kind == QLatin1String("kubernetes"))
            for (const auto &[key, entries] : kubernetesSettingValues(p.kubernetes))
                settings.setValue(key, kubernetesSettingIsList(key) ? QVariant(entries)
                                                                    : QVariant(entries.first()));
        for (auto it = p.options.cbegin(); it != p.options.cend(); ++it)
            if (!knownKeys().contains(it.key()))
                settings.setValue(it.key(), it.value());
    }
    settings.endArray();
    settings.sync();
}

QList<BackendProfile> BackendProfileStore::profiles() const
{
    QList<BackendProfile> out{BackendProfile::localDocker(), BackendProfile::localPodman()};
    out[0].name = QStringLiteral("Local Docker"); // even when DOCKER_HOST asks for TLS
    out += stored();
    return out;
}

Result<BackendProfile> BackendProfileStore::find(const QString &name) const
{
    if (name.compare(QLatin1String("docker"), Qt::CaseInsensitive) == 0) {
        BackendProfile p = BackendProfile::localDocker();
        p.name = QStringLiteral("Local Docker");
        return p;
    }
    if (name.compare(QLatin1String("podman"), Qt::CaseInsensitive) == 0)
        return BackendProfile::localPodman();
    if (name.compare(QLatin1String("docker-tls"), Qt::CaseInsensitive) == 0) {
        BackendProfile p = BackendProfile::fromEnvironment();
        p.kind = QStringLiteral("docker-tls");
        p.name = QStringLiteral("Docker over TLS (environment)");
        p.tlsVerify = true; // asked for by name: verify the server, as --tlsverify does
        return p;
    }
    if (name.compare(QLatin1String("kubernetes"), Qt::CaseInsensitive) == 0) {
        BackendProfile p; // the kubeconfig's current context ($KUBECONFIG, ~/.kube/config)
        p.kind = QStringLiteral("kubernetes");
        p.name = QStringLiteral("command line");
        return p;
    }
    QStringList names;
    for (const BackendProfile &p : profiles()) {
        if (p.name.compare(name, Qt::CaseInsensitive) == 0)
            return p;
        names << p.name;
    }
    return fail(ErrorCode::NotFound,
                QStringLiteral("No backend profile '%1'. Known: %2, or a kind: docker, podman, "
                               "docker-tls, kubernetes")
                    .arg(name, names.join(QStringLiteral(", "))),
                m_path);
}

Result<void> BackendProfileStore::save(const BackendProfile &profile)
{
    const QString name = profile.name.trimmed();
    if (name.isEmpty())
        return fail(ErrorCode::InvalidArgument, QStringLiteral("A profile needs a name"));
    if (isBuiltIn(name) || kinds().contains(name, Qt::CaseInsensitive))
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("'%1' is a built-in name: pick another").arg(name));
    if (!kinds().contains(profile.kind))
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("Unknown backend kind '%1' (known: %2)")
                        .arg(profile.kind, kinds().join(QStringLiteral(", "))));
    if (profile.kind == QLatin1String("docker-tls") && profile.uri.trimmed().isEmpty())
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("Profile '%1': Docker over TLS needs a host (tcp://HOST:2376)")
                        .arg(name));
    if (profile.kind == QLatin1String("kubernetes")) {
        // The pod settings must make a pod: the raw manifest parses and merges.
        QStringList notes;
        if (auto pod =
                buildPodManifest(SandboxSpec{}, profile.kubernetes, QStringLiteral("sandbox-check"),
                                 QStringLiteral("default"), &notes);
            !pod)
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("Profile '%1': %2").arg(name, pod.error().message));
    }
    BackendProfile p = profile;
    p.name = name;
    QList<BackendProfile> list = stored();
    bool replaced = false;
    for (BackendProfile &existing : list)
        if (existing.name.compare(name, Qt::CaseInsensitive) == 0) {
            existing = p;
            replaced = true;
        }
    if (!replaced)
        list.append(p);
    write(list);
    return {};
}

Result<void> BackendProfileStore::remove(const QString &name)
{
    if (isBuiltIn(name))
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("'%1' is built in and cannot be removed").arg(name));
    QList<BackendProfile> list = stored();
    const auto removed = list.removeIf(
        [&](const BackendProfile &p) { return p.name.compare(name, Qt::CaseInsensitive) == 0; });
    if (removed == 0)
        return fail(ErrorCode::NotFound, QStringLiteral("No backend profile '%1'").arg(name));
    write(list);
    return {};
}

QString BackendProfileStore::currentName() const
{
    QSettings settings(m_path, QSettings::IniFormat);
    const QString name = settings.value(QStringLiteral("current")).toString();
    for (const BackendProfile &p : profiles())
        if (p.name == name)
            return name;
    return QStringLiteral("Local Docker");
}

bool BackendProfileStore::hasCurrentName() const
{
    QSettings settings(m_path, QSettings::IniFormat);
    const QString name = settings.value(QStringLiteral("current")).toString();
    if (name.isEmpty())
        return false;
    for (const BackendProfile &p : profiles())
        if (p.name == name)
            return true;
    return false;
}

void BackendProfileStore::setCurrentName(const QString &name)
{
    QSettings settings(m_path, QSettings::IniFormat);
    settings.setValue(QStringLiteral("current"), name);
    settings.sync();
}

} // namespace sandbox
