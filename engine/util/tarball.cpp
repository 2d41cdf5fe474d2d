// SPDX-License-Identifier: GPL-3.0-or-later
#include "tarball.h"

#include <QScopeGuard>
#include <algorithm>
#include <archive.h>
#include <archive_entry.h>

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

} // namespace sandbox
