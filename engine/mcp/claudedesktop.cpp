// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/claudedesktop.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace sandbox::claudedesktop {

QString configPath()
{
    const QString overridePath = qEnvironmentVariable("SANDBOX_STUDIO_CLAUDE_CONFIG");
    if (!overridePath.isEmpty())
        return overridePath;
    const QString file = u"claude_desktop_config.json"_s;
#if defined(Q_OS_WIN)
    return QDir(qEnvironmentVariable("APPDATA")).filePath(u"Claude/"_s + file);
#elif defined(Q_OS_MACOS)
    return QDir::home().filePath(u"Library/Application Support/Claude/"_s + file);
#else
    QString base = qEnvironmentVariable("XDG_CONFIG_HOME");
    if (base.isEmpty())
        base = QDir::home().filePath(u".config"_s);
    return QDir(base).filePath(u"Claude/"_s + file);
#endif
}

QJsonObject serverEntry(const QString &executable)
{
    return QJsonObject{{u"command"_s, executable}, {u"args"_s, QJsonArray{u"mcp"_s}}};
}

QByteArray snippet(const QString &executable, const QString &name)
{
    const QJsonObject doc{{u"mcpServers"_s, QJsonObject{{name, serverEntry(executable)}}}};
    return QJsonDocument(doc).toJson(QJsonDocument::Indented);
}

Result<ConfigureOutcome> configure(const QString &pathIn, const QString &executableIn,
                                   const QString &name)
{
    const QString path = pathIn.isEmpty() ? configPath() : pathIn;
    const QString executable =
        executableIn.isEmpty() ? QCoreApplication::applicationFilePath() : executableIn;
    if (executable.isEmpty() || !QFileInfo(executable).isAbsolute())
        return fail(
            ErrorCode::InvalidArgument,
            u"The command for Claude Desktop must be an absolute path: %1"_s.arg(executable));
    if (name.isEmpty())
        return fail(ErrorCode::InvalidArgument, u"The server name must not be empty"_s);

    ConfigureOutcome out;
    out.path = path;
    out.snippet = snippet(executable, name);

    QJsonObject root;
    QByteArray previous;
    QFile in(path);
    if (in.exists()) {
        if (!in.open(QIODevice::ReadOnly))
            return fail(ErrorCode::IoError, u"Cannot read %1: %2"_s.arg(path, in.errorString()));
        previous = in.readAll();
        in.close();
        if (!previous.trimmed().isEmpty()) {
            QJsonParseError perr{};
            const QJsonDocument doc = QJsonDocument::fromJson(previous, &perr);
            if (perr.error != QJsonParseError::NoError || !doc.isObject())
                return fail(ErrorCode::ProtocolError,
                            u"%1 is not a JSON object; it was left as it is (fix or move it, "
                            u"then try again)"_s.arg(path),
                            perr.errorString());
            root = doc.object();
        }
    } else {
        out.created = true;
    }
    const QJsonValue serversV = root.value(u"mcpServers"_s);
    if (!serversV.isUndefined() && !serversV.isObject())
        return fail(
            ErrorCode::ProtocolError,
            u"\"mcpServers\" in %1 is not an object; the file was left as it is"_s.arg(path));
    QJsonObject servers = serversV.toObject();
    QJsonObject entry = servers.value(name).toObject();
    // Keep what people added to our entry (env, ...); set what we own.
    const QJsonObject ours = serverEntry(executable);
    for (auto it = ours.begin(); it != ours.end(); ++it)
        entry.insert(it.key(), it.value());
    if (servers.value(name).toObject() == entry) {
        out.changed = false;
        return out;
    }
    servers.insert(name, entry);
    root.insert(u"mcpServers"_s, servers);
    out.changed = true;

    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return fail(ErrorCode::IoError,
                    u"Cannot create the folder %1"_s.arg(QFileInfo(path).absolutePath()));
    if (!out.created) {
        out.backupPath =
            path + u".bak-"_s + QDateTime::currentDateTime().toString(u"yyyyMMdd-HHmmss"_s);
        QFile backup(out.backupPath);
        if (!backup.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            backup.write(previous) != previous.size() || !backup.flush())
            return fail(ErrorCode::IoError, u"Cannot write the backup %1: %2"_s.arg(
                                                out.backupPath, backup.errorString()));
    }
    QSaveFile save(path);
    if (!save.open(QIODevice::WriteOnly))
        return fail(ErrorCode::IoError, u"Cannot write %1: %2"_s.arg(path, save.errorString()));
    save.write(QJsonDocument(root).toJson(QJsonDocument::Indented));
    if (!save.commit())
        return fail(ErrorCode::IoError, u"Cannot write %1: %2"_s.arg(path, save.errorString()));
    return out;
}

} // namespace sandbox::claudedesktop
