// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandboxsetup.h"

#include "session/engine.h"

#include <QDateTime>
#include <QFile>

namespace sandbox {

namespace {
QByteArray helperFile(const QString &resource)
{
    QFile f(resource);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

Result<NetworkMode> resolveNetwork(Runtime &runtime, NetworkMode wanted, QStringList *notes)
{
    if (wanted == NetworkMode::None && runtime.backend() == QLatin1String("kubernetes"))
        notes->append(QStringLiteral("On Kubernetes, network off is a deny-all NetworkPolicy: "
                                     "it holds where the cluster's network plugin enforces "
                                     "NetworkPolicy."));
    if (wanted != NetworkMode::Bridge)
        return wanted;
    auto bridge = runtime.networkExists(QStringLiteral("bridge"));
    if (!bridge)
        return std::unexpected(bridge.error());
    if (*bridge)
        return wanted;
    notes->append(QStringLiteral("This engine has no bridge network; the sandbox used the "
                                 "host's network."));
    return NetworkMode::Host;
}

SandboxSpec hardenedSpec(const LanguageDescriptor &lang, const QString &image, const Limits &limits,
                         NetworkMode network, const QString &kind)
{
    SandboxSpec spec;
    spec.image = image;
    spec.command = {QStringLiteral("sleep"), QStringLiteral("infinity")};
    spec.env = {QStringLiteral("HOME=/sandbox"), QStringLiteral("TMPDIR=/tmp"),
                QStringLiteral("LANG=C.UTF-8"),
                QStringLiteral("SANDBOX_OUTPUT_DIR=/sandbox/output"),
                QStringLiteral("XDG_CACHE_HOME=/sandbox/.sandbox/cache"),
                // Tools' own config (Go telemetry counters, ...) is not the program's output:
                // keep it under .sandbox, which never comes back as artifacts.
                QStringLiteral("XDG_CONFIG_HOME=/sandbox/.sandbox/config")};
    spec.env += lang.env;
    spec.memoryBytes = limits.memoryBytes;
    spec.nanoCpus = limits.nanoCpus;
    spec.pidsLimit = limits.pids;
    spec.workDirBytes = limits.workDirBytes;
    spec.network = network;
    spec.labels = {
        {QLatin1String(labels::Managed), QStringLiteral("true")},
        {QLatin1String(labels::Owner), ownerLabel()},
        {QLatin1String(labels::Kind), kind},
        {QLatin1String(labels::Created), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
    return spec;
}

QList<TarMember> helperMembers(const LanguageDescriptor &lang)
{
    using T = TarMember::Type;
    QList<TarMember> members{{QStringLiteral("output"), T::Directory, {}, 0755, {}},
                             {QStringLiteral(".sandbox"), T::Directory, {}, 0755, {}},
                             {QStringLiteral(".sandbox/cache"), T::Directory, {}, 0755, {}}};
    QStringList helpers;
    if (lang.id == QLatin1String("python"))
        helpers = {QStringLiteral("sandbox_mpl.py"), QStringLiteral("sandbox_kernel.py"),
                   QStringLiteral("sitecustomize.py")};
    else if (lang.id == QLatin1String("javascript"))
        helpers = {QStringLiteral("sandbox_kernel.js")};
    else if (lang.id == QLatin1String("r"))
        helpers = {QStringLiteral("sandbox_kernel.R"), QStringLiteral("Rprofile")};
    if (!helpers.isEmpty())
        members.append({QStringLiteral(".sandbox/") + lang.id, T::Directory, {}, 0755, {}});
    for (const QString &name : helpers)
        members.append({QStringLiteral(".sandbox/%1/%2").arg(lang.id, name),
                        T::File,
                        helperFile(QStringLiteral(":/helpers/%1/%2").arg(lang.id, name)),
                        0644,
                        {}});
    return members;
}

Result<void> copyIntoSandbox(Runtime &runtime, const QString &id, const QByteArray &tar,
                             const CancelToken &cancel, const QString &requiredFile,
                             QByteArray *requiredContent)
{
    constexpr int MissingExit = 97;
    ExecSpec copyIn;
    copyIn.argv = {QStringLiteral("tar"), QStringLiteral("-x"), QStringLiteral("-f"),
                   QStringLiteral("-"),   QStringLiteral("-C"), QLatin1String(SandboxWorkDir)};
    if (!requiredFile.isEmpty())
        copyIn.argv =
            QStringList{
                QStringLiteral("sh"), QStringLiteral("-c"),
                QStringLiteral("cat \"$0\" 2>/dev/null || exit %1; exec \"$@\"").arg(MissingExit),
                requiredFile} +
            copyIn.argv;
    copyIn.attachStdin = true;
    copyIn.stdinData = tar;
    QByteArray err;
    ExecIo io;
    io.onStderr = [&](QByteArrayView d) {
        err += d;
        return true;
    };
    io.onStdout = [&](QByteArrayView d) {
        if (requiredContent)
            requiredContent->append(d);
        return true;
    };
    auto r = runtime.exec(id, copyIn, io, cancel, Deadline::in(std::chrono::seconds(60)));
    if (!r)
        return std::unexpected(r.error());
    if (r->cancelled)
        return fail(ErrorCode::Cancelled, QStringLiteral("Cancelled before the run started"));
    if (!requiredFile.isEmpty() && r->exitCode == MissingExit)
        return fail(ErrorCode::NotFound, QStringLiteral("%1 is missing").arg(requiredFile));
    if (r->exitCode != 0)
        return fail(ErrorCode::IoError, QStringLiteral("Copying files into the sandbox failed"),
                    QString::fromUtf8(err.left(2000)));
    return {};
}

} // namespace sandbox
