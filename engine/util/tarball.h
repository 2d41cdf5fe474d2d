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

/// Whether link target `target` of a link at relative path `linkPath` stays inside the
/// directory the archive is extracted into: relative, and not climbing above the root once
/// resolved against the link's own folder ("a/b -> ../c" stays, "a -> ../../x" and
/// "a -> /etc" leave).
bool linkStaysInside(const QString &linkPath, const QString &target);

/// Checks a tar that is about to be extracted into a sandbox (a tar-slip guard): every
/// member path is relative without "..", symbolic and hard links stay inside the target
/// (linkStaysInside), there are no device nodes or FIFOs, at most maxMembers members and
/// maxBytes of file data. Returns the members' normalised paths (directories included).
/// Errors: PathRefused naming the first offending member and why; InvalidArgument over a
/// limit; ProtocolError when it is not a tar.
Result<QStringList> checkTarForExtraction(const QByteArray &tar, qint64 maxBytes,
                                          int maxMembers = 10000);

/// Size and count caps of a transfer between this machine and a sandbox.
struct TransferLimits
{
    qint64 maxBytes = 256ll << 20; ///< file data in total
    int maxMembers = 10000;        ///< files, folders and links
};

/// Collects a local file or folder (recursively) as tar members under destPrefix
/// ("" = the work directory's top level; a file keeps its name, a folder its name as the
/// top folder). Symbolic links inside a folder are kept as links when linkStaysInside(),
/// refused otherwise; a link given directly is followed. Errors: PathRefused (a link that
/// leaves the folder, an unsafe destPrefix), IoError (unreadable), InvalidArgument (over
/// limits, with the sizes).
Result<QList<TarMember>> collectLocalPath(const QString &localPath, const QString &destPrefix,
                                          const TransferLimits &limits = {});

/// Extracts a tar that came out of a sandbox into the local folder dir (created). Files,
/// folders and links that stay inside are written; absolute paths, "..", links leaving dir,
/// hard links and special files are refused and listed in *refused with the reason; a
/// member whose existing parent folder resolves outside dir (a link planted there) is
/// refused too. Stops at the limits (the rest listed as refused). Returns the written
/// paths relative to dir. Errors: IoError (cannot create dir), ProtocolError (not a tar).
Result<QStringList> extractTarToDirectory(const QByteArray &tar, const QString &dir,
                                          const TransferLimits &limits, QStringList *refused);

} // namespace sandbox
