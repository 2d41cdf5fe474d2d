// SPDX-License-Identifier: GPL-3.0-or-later
#include "tarball.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

namespace sandbox {

Result<QString> safeRelativePath(const QString &path)
{
    if (path.isEmpty())
        return fail(ErrorCode::PathRefused, QStringLiteral("empty path"));
    if (path.contains(QChar(0)))
        return fail(ErrorCode::PathRefused, QStringLiteral("path contains a NUL byte"));
    if (path.startsWith(u'/') || path.startsWith(u'\\'))
        return fail(
            ErrorCode::PathRefused,
            QStringLiteral("'%1' is absolute; use a path inside the work directory").arg(path));
    QStringList parts;
    for (const QString &part : path.split(u'/', Qt::SkipEmptyParts)) {
        if (part == QLatin1String("."))
            continue;
        if (part == QLatin1String(".."))
            return fail(
                ErrorCode::PathRefused,
                QStringLiteral("'%1' contains '..' and would leave the directory").arg(path));
        parts << part;
    }
    if (parts.isEmpty())
        return fail(ErrorCode::PathRefused, QStringLiteral("'%1' names no file").arg(path));
    return parts.join(u'/');
}

namespace {
int appendBlock(archive *, void *client, const void *buffer, size_t length)
{
    static_cast<QByteArray *>(client)->append(static_cast<const char *>(buffer), qsizetype(length));
    return int(length);
}
la_ssize_t writeCb(archive *a, void *client, const void *buffer, size_t length)
{
    return appendBlock(a, client, buffer, length);
}
} // namespace

Result<QByteArray> makeTar(const QList<TarMember> &members)
{
    QByteArray out;
    archive *a = archive_write_new();
    auto guard = qScopeGuard([&] { archive_write_free(a); });
    archive_write_set_format_pax_restricted(a);
    archive_write_set_bytes_in_last_block(a, 1);
    if (archive_write_open(a, &out, nullptr, writeCb, nullptr) != ARCHIVE_OK)
        return fail(ErrorCode::IoError, QStringLiteral("cannot start a tar stream"));
    for (const auto &m : members) {
        auto safe = safeRelativePath(m.path);
        if (!safe)
            return std::unexpected(safe.error());
        archive_entry *e = archive_entry_new();
        const QByteArray name = safe->toUtf8();
        archive_entry_set_pathname_utf8(e, name.constData());
        archive_entry_set_uid(e, 65534);
        archive_entry_set_gid(e, 65534);
        archive_entry_set_mtime(e, time(nullptr), 0);
        switch (m.type) {
        case TarMember::Type::Directory:
            archive_entry_set_filetype(e, AE_IFDIR);
            archive_entry_set_perm(e, mode_t(m.mode ? m.mode : 0755));
            break;
        case TarMember::Type::Symlink:
            archive_entry_set_filetype(e, AE_IFLNK);
            archive_entry_set_symlink_utf8(e, m.linkTarget.toUtf8().constData());
            break;
        default:
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_perm(e, mode_t(m.mode));
            archive_entry_set_size(e, m.data.size());
        }
        if (archive_write_header(a, e) != ARCHIVE_OK) {
            archive_entry_free(e);
            return fail(ErrorCode::IoError, QStringLiteral("cannot add %1 to a tar").arg(m.path),
                        QString::fromUtf8(archive_error_string(a)));
        }
        if (m.type == TarMember::Type::File && !m.data.isEmpty())
            archive_write_data(a, m.data.constData(), size_t(m.data.size()));
        archive_entry_free(e);
    }
    archive_write_close(a);
    return out;
}

Result<QList<TarMember>> readTar(const QByteArray &tar, const TarReadLimits &limits,
                                 QStringList *refused, bool *truncated)
{
    *truncated = false;
    QList<TarMember> out;
    if (tar.isEmpty())
        return out;
    archive *a = archive_read_new();
    auto guard = qScopeGuard([&] { archive_read_free(a); });
    archive_read_support_format_tar(a);
    if (archive_read_open_memory(a, tar.constData(), size_t(tar.size())) != ARCHIVE_OK)
        return fail(ErrorCode::ProtocolError, QStringLiteral("not a tar stream"),
                    QString::fromUtf8(archive_error_string(a)));
    qint64 total = 0;
    archive_entry *e = nullptr;
    int r;
    while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
        const QString raw = QString::fromUtf8(archive_entry_pathname(e));
        const auto type = archive_entry_filetype(e);
        if (type == AE_IFDIR)
            continue;
        auto safe = safeRelativePath(raw);
        if (!safe) {
            refused->append(raw + QStringLiteral(": ") + safe.error().message);
            continue;
        }
        // Names that other systems read as paths or that fool a terminal (backslashes,
        // control characters) are not brought back either.
        if (std::any_of(safe->cbegin(), safe->cend(), [](QChar c) {
                return c == u'\\' || c.category() == QChar::Other_Control;
            })) {
            QString shown;
            for (const QChar c : *safe)
                shown += c.category() == QChar::Other_Control
                             ? QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'))
                             : QString(c);
            refused->append(shown +
                            QStringLiteral(": name holds a backslash or a control character"));
            continue;
        }
        if (type == AE_IFLNK) {
            refused->append(*safe + QStringLiteral(": symbolic link to '") +
                            QString::fromUtf8(archive_entry_symlink(e)) +
                            QStringLiteral("' not followed"));
            continue;
        }
        if (archive_entry_hardlink(e)) {
            refused->append(*safe + QStringLiteral(": hard link not followed"));
            continue;
        }
        if (type != AE_IFREG) {
            refused->append(*safe + QStringLiteral(": not a regular file"));
            continue;
        }
        const qint64 size = archive_entry_size(e);
        if (out.size() >= limits.maxMembers || total + size > limits.maxTotalBytes) {
            *truncated = true;
            refused->append(*safe + QStringLiteral(": artifact limit reached"));
            continue;
        }
        TarMember m;
        m.path = *safe;
        m.mode = int(archive_entry_perm(e));
        m.data.resize(size);
        const la_ssize_t got = archive_read_data(a, m.data.data(), size_t(size));
        if (got < 0)
            break; // the stream was cut (we read at most maxTotalBytes of it)
        m.data.truncate(got);
        total += got;
        out.append(std::move(m));
    }
    if (r == ARCHIVE_FATAL && out.isEmpty() && refused->isEmpty())
        *truncated = true;
    return out;
}

bool linkStaysInside(const QString &linkPath, const QString &target)
{
    if (target.isEmpty() || target.startsWith(u'/') || target.contains(QChar(0)))
        return false;
    // Resolve lexically from the link's folder; depth must never go below the root.
    QStringList parts = linkPath.split(u'/', Qt::SkipEmptyParts);
    if (!parts.isEmpty())
        parts.removeLast();
    for (const QString &part : target.split(u'/', Qt::SkipEmptyParts)) {
        if (part == QLatin1String("."))
            continue;
        if (part == QLatin1String("..")) {
            if (parts.isEmpty())
                return false;
            parts.removeLast();
            continue;
        }
        parts << part;
    }
    return true;
}

Result<QStringList> checkTarForExtraction(const QByteArray &tar, qint64 maxBytes, int maxMembers)
{
    QStringList paths;
    if (tar.isEmpty())
        return paths;
    archive *a = archive_read_new();
    auto guard = qScopeGuard([&] { archive_read_free(a); });
    archive_read_support_format_tar(a);
    if (archive_read_open_memory(a, tar.constData(), size_t(tar.size())) != ARCHIVE_OK)
        return fail(ErrorCode::ProtocolError, QStringLiteral("not a tar stream"),
                    QString::fromUtf8(archive_error_string(a)));
    qint64 total = 0;
    archive_entry *e = nullptr;
    int r;
    while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
        const QString raw = QString::fromUtf8(archive_entry_pathname(e));
        auto safe = safeRelativePath(raw);
        if (!safe) {
            // "./" is how tar names the root of `tar -C dir .`: harmless.
            if (raw == QLatin1String(".") || raw == QLatin1String("./"))
                continue;
            return fail(ErrorCode::PathRefused,
                        QStringLiteral("Refused to copy '%1': %2").arg(raw, safe.error().message));
        }
        const auto type = archive_entry_filetype(e);
        if (const char *hard = archive_entry_hardlink(e)) {
            auto target = safeRelativePath(QString::fromUtf8(hard));
            if (!target)
                return fail(ErrorCode::PathRefused,
                            QStringLiteral("Refused to copy '%1': a hard link to '%2' leaves the "
                                           "target directory")
                                .arg(*safe, QString::fromUtf8(hard)));
        } else if (type == AE_IFLNK) {
            const QString target = QString::fromUtf8(archive_entry_symlink(e));
            if (!linkStaysInside(*safe, target))
                return fail(ErrorCode::PathRefused,
                            QStringLiteral("Refused to copy '%1': a symbolic link to '%2' leaves "
                                           "the target directory")
                                .arg(*safe, target));
        } else if (type != AE_IFREG && type != AE_IFDIR) {
            return fail(ErrorCode::PathRefused,
                        QStringLiteral("Refused to copy '%1': not a regular file, folder or link")
                            .arg(*safe));
        }
        total += archive_entry_size(e);
        if (paths.size() >= maxMembers)
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("Too many files: more than %1").arg(maxMembers));
        if (total > maxBytes)
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("The files are larger than the limit of %1 MiB")
                            .arg(double(maxBytes) / (1 << 20), 0, 'f', 1));
        paths << *safe;
        archive_read_data_skip(a);
    }
    if (r != ARCHIVE_EOF)
        return fail(ErrorCode::ProtocolError, QStringLiteral("a damaged tar stream"),
                    QString::fromUtf8(archive_error_string(a)));
    return paths;
}

Result<QList<TarMember>> collectLocalPath(const QString &localPath, const QString &destPrefix,
                                          const TransferLimits &limits)
{
    QString prefix;
    if (!destPrefix.isEmpty() && destPrefix != QLatin1String(".")) {
        auto safe = safeRelativePath(destPrefix);
        if (!safe)
            return std::unexpected(safe.error());
        prefix = *safe + u'/';
    }
    const QFileInfo top(localPath);
    if (!top.exists())
        return fail(ErrorCode::IoError, QStringLiteral("%1 does not exist").arg(localPath));
    QList<TarMember> out;
    qint64 total = 0;
    auto addFile = [&](const QString &file, const QString &rel) -> Result<void> {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return fail(ErrorCode::IoError,
                        QStringLiteral("cannot read %1: %2").arg(file, f.errorString()));
        total += f.size();
        if (total > limits.maxBytes)
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("%1 is larger than the limit of %2 MiB")
                            .arg(localPath)
                            .arg(double(limits.maxBytes) / (1 << 20), 0, 'f', 1));
        TarMember m;
        m.path = rel;
        m.data = f.readAll();
        m.mode = (QFileInfo(file).permissions() & QFileDevice::ExeOwner) ? 0755 : 0644;
        out.append(std::move(m));
        return {};
    };
    const QString name = top.fileName().isEmpty() ? QDir(localPath).dirName() : top.fileName();
    if (auto safe = safeRelativePath(prefix + name); !safe)
        return std::unexpected(safe.error());
    if (!top.isDir()) {
        if (auto r = addFile(top.absoluteFilePath(), prefix + name); !r)
            return std::unexpected(r.error());
        return out;
    }
    out.append({prefix + name, TarMember::Type::Directory, {}, 0755, {}});
    const QDir root(top.absoluteFilePath());
    QDirIterator it(root.path(),
                    QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo fi = it.fileInfo();
        const QString rel = root.relativeFilePath(fi.filePath());
        const QString member = prefix + name + u'/' + rel;
        if (out.size() >= limits.maxMembers)
            return fail(
                ErrorCode::InvalidArgument,
                QStringLiteral("%1 has more than %2 files").arg(localPath).arg(limits.maxMembers));
        if (fi.isSymLink()) {
            // The link's own text (QFileInfo resolves it to an absolute path).
            const QByteArray linkFile = QFile::encodeName(fi.filePath());
            char buf[4096];
            const ssize_t n = ::readlink(linkFile.constData(), buf, sizeof buf - 1);
            const QString literal = n > 0 ? QFile::decodeName(QByteArray(buf, int(n))) : QString();
            if (!linkStaysInside(rel, literal))
                return fail(ErrorCode::PathRefused,
                            QStringLiteral("Refused to copy %1: the link to '%2' leaves %3")
                                .arg(fi.filePath(), literal, localPath));
            out.append({member, TarMember::Type::Symlink, {}, 0777, literal});
            continue;
        }
        if (fi.isDir()) {
            out.append({member, TarMember::Type::Directory, {}, 0755, {}});
            continue;
        }
        if (!fi.isFile())
            return fail(ErrorCode::PathRefused,
                        QStringLiteral("Refused to copy %1: not a regular file, folder or link")
                            .arg(fi.filePath()));
        if (auto r = addFile(fi.filePath(), member); !r)
            return std::unexpected(r.error());
    }
    return out;
}

Result<QStringList> extractTarToDirectory(const QByteArray &tar, const QString &dir,
                                          const TransferLimits &limits, QStringList *refused)
{
    if (!QDir().mkpath(dir))
        return fail(ErrorCode::IoError, QStringLiteral("cannot create %1").arg(dir));
    const QString rootCanon = QFileInfo(dir).canonicalFilePath();
    QStringList written;
    if (tar.isEmpty())
        return written;
    archive *a = archive_read_new();
    auto guard = qScopeGuard([&] { archive_read_free(a); });
    archive_read_support_format_tar(a);
    if (archive_read_open_memory(a, tar.constData(), size_t(tar.size())) != ARCHIVE_OK)
        return fail(ErrorCode::ProtocolError, QStringLiteral("not a tar stream"),
                    QString::fromUtf8(archive_error_string(a)));
    // The nearest folder on the way that already exists (or is a link) must resolve inside
    // dir: a link planted there would lead the write elsewhere. Checked before anything
    // is created.
    auto parentInside = [&](const QString &rel) {
        QString p = QFileInfo(QDir(dir).filePath(rel)).path();
        while (!QFileInfo::exists(p) && !QFileInfo(p).isSymLink()) {
            const QString up = QFileInfo(p).path();
            if (up == p)
                break;
            p = up;
        }
        const QString canon = QFileInfo(p).canonicalFilePath();
        return !canon.isEmpty() && (canon == rootCanon || canon.startsWith(rootCanon + u'/'));
    };
    qint64 total = 0;
    int members = 0;
    archive_entry *e = nullptr;
    int r;
    while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
        const QString raw = QString::fromUtf8(archive_entry_pathname(e));
        if (raw == QLatin1String(".") || raw == QLatin1String("./"))
            continue;
        auto safe = safeRelativePath(raw);
        if (!safe) {
            refused->append(raw + QStringLiteral(": ") + safe.error().message);
            continue;
        }
        const auto type = archive_entry_filetype(e);
        if (archive_entry_hardlink(e)) {
            refused->append(*safe + QStringLiteral(": hard link not followed"));
            continue;
        }
        if (++members > limits.maxMembers) {
            refused->append(*safe + QStringLiteral(": more than %1 files").arg(limits.maxMembers));
            continue;
        }
        const QString target = QDir(dir).filePath(*safe);
        if (type == AE_IFDIR) {
            if (QFileInfo(target).isSymLink() || !parentInside(*safe)) {
                refused->append(*safe + QStringLiteral(": its folder leaves the destination"));
                continue;
            }
            QDir().mkpath(target);
            continue;
        }
        if (!parentInside(*safe)) {
            refused->append(*safe + QStringLiteral(": its folder leaves the destination"));
            continue;
        }
        QDir().mkpath(QFileInfo(target).path());
        if (QFileInfo(target).isSymLink() || QFileInfo(target).isDir()) {
            refused->append(*safe + QStringLiteral(": would replace a link or folder"));
            continue;
        }
        if (type == AE_IFLNK) {
            const QString link = QString::fromUtf8(archive_entry_symlink(e));
            if (!linkStaysInside(*safe, link)) {
                refused->append(*safe + QStringLiteral(": symbolic link to '%1' leaves the "
                                                       "destination; not followed")
                                            .arg(link));
                continue;
            }
            QFile::remove(target);
            if (::symlink(QFile::encodeName(link).constData(),
                          QFile::encodeName(target).constData()) != 0)
                refused->append(*safe + QStringLiteral(": cannot create the link"));
            else
                written << *safe;
            continue;
        }
        if (type != AE_IFREG) {
            refused->append(*safe + QStringLiteral(": not a regular file"));
            continue;
        }
        const qint64 size = archive_entry_size(e);
        if (total + size > limits.maxBytes) {
            refused->append(*safe + QStringLiteral(": over the %1 MiB limit")
                                        .arg(double(limits.maxBytes) / (1 << 20), 0, 'f', 1));
            continue;
        }
        QByteArray data(size, Qt::Uninitialized);
        const la_ssize_t got = size ? archive_read_data(a, data.data(), size_t(size)) : 0;
        if (got < 0)
            return fail(ErrorCode::ProtocolError, QStringLiteral("a damaged tar stream"),
                        QString::fromUtf8(archive_error_string(a)));
        data.truncate(got);
        total += got;
        QFile out(target);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(data) != data.size())
            return fail(ErrorCode::IoError,
                        QStringLiteral("cannot write %1: %2").arg(target, out.errorString()));
        out.setPermissions((archive_entry_perm(e) & 0111)
                               ? out.permissions() | QFileDevice::ExeOwner | QFileDevice::ExeUser
                               : out.permissions());
        written << *safe;
    }
    if (r != ARCHIVE_EOF)
        return fail(ErrorCode::ProtocolError, QStringLiteral("a damaged tar stream"),
                    QString::fromUtf8(archive_error_string(a)));
    return written;
}

} // namespace sandbox
