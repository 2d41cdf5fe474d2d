// SPDX-License-Identifier: GPL-3.0-or-later
#include "template.h"

#include "session/engine.h"
#include "session/notebook.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QScopeGuard>
#include <archive.h>
#include <archive_entry.h>

namespace sandbox {

namespace {

constexpr int MissingToolExit = 97;

/// Rewrites every member of tar under prefix ("opt/x/workdir"), adding the prefix's
/// folders first. Hard-link targets move with it; symbolic links keep their (relative,
/// already checked) text.
Result<QByteArray> prefixTar(const QByteArray &tar, const QString &prefix)
{
    QList<TarMember> dirs;
    QStringList parts = prefix.split(u'/', Qt::SkipEmptyParts);
    for (int i = 1; i <= parts.size(); ++i)
        dirs.append({parts.mid(0, i).join(u'/'), TarMember::Type::Directory, {}, 0755, {}});
    auto head = makeTar(dirs);
    if (!head)
        return std::unexpected(head.error());

    QByteArray out;
    archive *in = archive_read_new();
    archive *w = archive_write_new();
    auto guard = qScopeGuard([&] {
        archive_read_free(in);
        archive_write_free(w);
    });
    archive_read_support_format_tar(in);
    archive_write_set_format_pax_restricted(w);
    archive_write_set_bytes_in_last_block(w, 1);
    auto writeCb = [](archive *, void *client, const void *buffer, size_t length) -> la_ssize_t {
        static_cast<QByteArray *>(client)->append(static_cast<const char *>(buffer),
                                                  qsizetype(length));
        return la_ssize_t(length);
    };
    if (archive_write_open(w, &out, nullptr, writeCb, nullptr) != ARCHIVE_OK ||
        archive_read_open_memory(in, tar.constData(), size_t(tar.size())) != ARCHIVE_OK)
        return fail(ErrorCode::IoError, QStringLiteral("cannot rewrite the work directory tar"));
    // The folders of the prefix, then the members.
    {
        archive *h = archive_read_new();
        archive_read_support_format_tar(h);
        archive_read_open_memory(h, head->constData(), size_t(head->size()));
        archive_entry *e = nullptr;
        while (archive_read_next_header(h, &e) == ARCHIVE_OK)
            archive_write_header(w, e);
        archive_read_free(h);
    }
    archive_entry *e = nullptr;
    int r;
    QByteArray buffer(1 << 16, Qt::Uninitialized);
    while ((r = archive_read_next_header(in, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
        const QString raw = QString::fromUtf8(archive_entry_pathname(e));
        if (raw == QLatin1String(".") || raw == QLatin1String("./"))
            continue;
        auto safe = safeRelativePath(raw);
        if (!safe)
            return std::unexpected(safe.error());
        archive_entry_set_pathname_utf8(e, (prefix + u'/' + *safe).toUtf8().constData());
        if (const char *hard = archive_entry_hardlink(e)) {
            auto target = safeRelativePath(QString::fromUtf8(hard));
            if (!target)
                return std::unexpected(target.error());
            archive_entry_set_hardlink_utf8(e, (prefix + u'/' + *target).toUtf8().constData());
        }
        if (archive_write_header(w, e) != ARCHIVE_OK)
            return fail(ErrorCode::IoError, QStringLiteral("cannot rewrite %1").arg(raw),
                        QString::fromUtf8(archive_error_string(w)));
        la_ssize_t n;
        while ((n = archive_read_data(in, buffer.data(), size_t(buffer.size()))) > 0)
            archive_write_data(w, buffer.constData(), size_t(n));
    }
    if (r != ARCHIVE_EOF)
        return fail(ErrorCode::ProtocolError, QStringLiteral("a damaged tar stream"),
                    QString::fromUtf8(archive_error_string(in)));
    archive_write_close(w);
    return out;
}

} // namespace

QStringList toolchainOf(const LanguageDescriptor &lang)
{
    QStringList tools;
    if (!lang.stepsFor)
        return tools;
    for (const LanguageStep &step :
         lang.stepsFor(lang.fileNameFor ? lang.fileNameFor({}) : QString(), lang.defaultStandard)) {
        for (const QString &word : step.argv) {
            if (word == QLatin1String("env") || word.contains(u'='))
                continue; // `env LC_ALL=C g++ ...`
            if (!word.startsWith(QLatin1String("/sandbox")) && !tools.contains(word))
                tools << word;
            break;
        }
    }
    return tools;
}

QStringList customImagePrepArgv(const QStringList &tools)
{
    const QString script =
        QStringLiteral("for t in %1; do command -v \"$t\" >/dev/null 2>&1 || "
                       "{ printf '%s' \"$t\"; exit %2; }; done\n"
                       "d=%3\n"
                       "if [ -d \"$d\" ]; then cp -R -p \"$d\"/. /sandbox/ || exit 1; "
                       "mkdir -p /sandbox/.sandbox && : > /sandbox/.sandbox/template-restored "
                       "&& echo restored; fi\n")
            .arg(tools.join(u' '))
            .arg(MissingToolExit)
            .arg(QLatin1String(TemplateWorkDir));
    return {QStringLiteral("sh"), QStringLiteral("-c"), script};
}

Result<void> customImagePrepResult(int exitCode, const QByteArray &out, const QByteArray &err,
                                   const QString &image, const LanguageDescriptor &lang)
{
    if (exitCode == 0)
        return {};
    if (exitCode == MissingToolExit)
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("%1 not found in image %2: pick an image that has the %3 "
                                   "toolchain")
                        .arg(QString::fromUtf8(out).trimmed(), image, lang.displayName));
    if (exitCode == 126 || exitCode == 127)
        return fail(
            ErrorCode::InvalidArgument,
            QStringLiteral("Image %1 has no /bin/sh: sandbox images need a POSIX shell").arg(image),
            QString::fromUtf8(err.left(500)));
    return fail(ErrorCode::IoError,
                QStringLiteral("Restoring the template's files from %1 failed").arg(image),
                QString::fromUtf8(err.left(1000)).trimmed());
}

Result<std::pair<QString, QString>> splitImageReference(const QString &ref)
{
    static const QRegularExpression valid(QStringLiteral(
        R"(^[a-z0-9]+(?:[._\-/:][a-z0-9]+)*(?::[A-Za-z0-9_][A-Za-z0-9_.\-]{0,127})?$)"));
    if (ref.isEmpty() || ref.contains(u'@') || !valid.match(ref).hasMatch())
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("'%1' is not an image reference such as "
                                   "my-templates/pandas:v1 (lowercase name, optional :tag)")
                        .arg(ref));
    const qsizetype colon = ref.lastIndexOf(u':');
    if (colon > ref.lastIndexOf(u'/'))
        return std::pair{ref.left(colon), ref.mid(colon + 1)};
    return std::pair{ref, QStringLiteral("latest")};
}

Result<QString> saveTemplate(Runtime &runtime, NotebookSession &session, const QString &ref,
                             const TransferLimits &limits)
{
    auto parts = splitImageReference(ref);
    if (!parts)
        return std::unexpected(parts.error());
    // Ask the backend first: Kubernetes says it cannot commit before anything is copied.
    if (auto probe = runtime.commit(QString(), QString(), QString(), {});
        !probe && probe.error().code == ErrorCode::NotSupported)
        return std::unexpected(probe.error());

    auto tar = session.downloadTar({QStringLiteral(".")}, limits);
    if (!tar)
        return std::unexpected(tar.error());
    // Into /opt (every Debian-based image has it): writing "opt" itself over "/" would
    // give the existing folder the archive's owner.
    auto prefixed = prefixTar(*tar, QString::fromLatin1(TemplateWorkDir).mid(5));
    if (!prefixed)
        return std::unexpected(prefixed.error());

    // A stopped helper container of the session's image with a writable root: the archive
    // endpoint can write into it, and commit saves its layer.
    SandboxSpec spec;
    spec.image = session.image();
    spec.command = {QStringLiteral("true")};
    spec.user.clear();
    spec.readOnlyRoot = false;
    spec.network = NetworkMode::None;
    spec.labels = {
        {QLatin1String(labels::Managed), QStringLiteral("true")},
        {QLatin1String(labels::Owner), ownerLabel()},
        {QLatin1String(labels::Kind), QStringLiteral("template")},
        {QLatin1String(labels::Created), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
    auto helper = runtime.create(spec);
    if (!helper)
        return std::unexpected(helper.error());
    auto removeHelper = qScopeGuard([&] { (void)runtime.remove(*helper); });
    if (auto put = runtime.putArchive(*helper, QStringLiteral("/opt"), *prefixed); !put)
        return std::unexpected(put.error());
    // The sandbox defaults (user 65534, work directory, environment) come from the helper's
    // config; labels say what the template is.
    const QStringList changes = {
        QStringLiteral("LABEL %1=true").arg(QLatin1String(templatelabels::Template)),
        QStringLiteral("LABEL %1=%2")
            .arg(QLatin1String(templatelabels::Language), session.language()),
        QStringLiteral("LABEL %1=%2").arg(QLatin1String(templatelabels::Source), session.image()),
        QStringLiteral("LABEL %1=").arg(QLatin1String(labels::Owner)),
        QStringLiteral("LABEL %1=").arg(QLatin1String(labels::Kind)),
        QStringLiteral("WORKDIR /sandbox"),
        QStringLiteral("CMD [\"sleep\", \"infinity\"]")};
    return runtime.commit(*helper, parts->first, parts->second, changes);
}

} // namespace sandbox
