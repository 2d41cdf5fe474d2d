// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/error.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace sandbox {

/// Helpers behind "Configure Claude Desktop": Claude Desktop launches local MCP servers
/// listed in claude_desktop_config.json as
/// {"mcpServers": {"NAME": {"command": "/abs/path", "args": [...], "env": {...}}}}.
namespace claudedesktop {

/// The name of our entry under mcpServers.
inline constexpr auto DefaultServerName = "sandbox-studio";

/// Where Claude Desktop reads its configuration on this OS: Linux
/// $XDG_CONFIG_HOME/Claude (default ~/.config/Claude), macOS ~/Library/Application
/// Support/Claude, Windows %APPDATA%\Claude; file claude_desktop_config.json.
/// SANDBOX_STUDIO_CLAUDE_CONFIG overrides it (tests).
QString configPath();

/// Our entry: {"command": executable (absolute), "args": ["mcp"]}.
QJsonObject serverEntry(const QString &executable);

/// The snippet people can paste: {"mcpServers": {name: serverEntry(executable)}},
/// indented JSON.
QByteArray snippet(const QString &executable,
                   const QString &name = QLatin1String(DefaultServerName));

/// What configure() did.
struct ConfigureOutcome
{
    QString path;         ///< the configuration file written
    QString backupPath;   ///< copy of the previous file ("...json.bak-YYYYmmdd-HHMMSS"); empty when
                          ///< there was none
    bool created = false; ///< the file did not exist before
    bool changed =
        false; ///< our entry was added or differed (false: already up to date, nothing written)
    QByteArray snippet; ///< snippet(executable, name)
};

/// Adds or updates our entry in the file at path (configPath() when empty), keeping every
/// other server and every other top-level key; writes a backup of the previous file
/// first, then the new file atomically (QSaveFile). executable must be absolute (default:
/// QCoreApplication::applicationFilePath()). Errors: InvalidArgument (relative
/// executable), IoError (unreadable or unwritable file, with the path), ProtocolError (the
/// existing file is not a JSON object or mcpServers is not an object: nothing is written,
/// so people's configuration is never lost).
Result<ConfigureOutcome> configure(const QString &path = {}, const QString &executable = {},
                                   const QString &name = QLatin1String(DefaultServerName));

} // namespace claudedesktop
} // namespace sandbox
