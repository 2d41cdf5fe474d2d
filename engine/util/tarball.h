// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/error.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace sandbox {

/// Normalises a path relative to a sandbox directory ("./a//b" -> "a/b").
/// Errors: PathRefused for absolute paths, "..", empty paths and NUL bytes.
Result<QString> safeRelativePath(const QString &path);

/// One member of a tar stream built or read in memory.
struct TarMember
{
    enum class Type
    {
        File,
        Directory,
        Symlink,
        Other
    };
    QString path; ///< safe relative path
    Type type = Type::File;
    QByteArray data; ///< file contents
    int mode = 0644;
    QString linkTarget; ///< symlinks only
};

/// Builds an uncompressed ustar/pax archive (libarchive) with uid/gid 65534.
/// Errors: PathRefused (unsafe member path), IoError.
Result<QByteArray> makeTar(const QList<TarMember> &members);

/// Limits applied while reading a tar that came out of a sandbox.
struct TarReadLimits
{
    qint64 maxTotalBytes = 64ll << 20;
    int maxMembers = 1000;
};

/// Reads regular files from a tar. Members with unsafe paths, links and special files are
/// not returned; each is listed in *refused with the reason. *truncated is set when a limit
/// stopped reading. Errors: ProtocolError for a stream that is not a tar.
Result<QList<TarMember>> readTar(const QByteArray &tar, const TarReadLimits &limits,
                                 QStringList *refused, bool *truncated);

} // namespace sandbox
