// SPDX-License-Identifier: GPL-3.0-or-later
#include "imagetools.h"

#include "images/template.h"
#include "util/tarball.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace sandbox {

QString humanSize(qint64 bytes)
{
    if (bytes >= 1'000'000'000)
        return QStringLiteral("%1 GB").arg(double(bytes) / 1e9, 0, 'f', 2);
    if (bytes >= 1'000'000)
        return QStringLiteral("%1 MB").arg(double(bytes) / 1e6, 0, 'f', 0);
    if (bytes >= 1000)
        return QStringLiteral("%1 kB").arg(double(bytes) / 1e3, 0, 'f', 0);
    return QStringLiteral("%1 B").arg(bytes);
}

int ImageTools::buildPercent(const QString &line, int previous)
{
    // Docker: "Step 2/5 : COPY ..."; Podman (buildah): "STEP 2/5: COPY ...".
    static const QRegularExpression step(QStringLiteral(R"(^(?:Step|STEP) (\d+)/(\d+) ?:)"));
    const auto m = step.match(line);
    if (!m.hasMatch())
        return previous;
    const int n = m.captured(1).toInt(), total = m.captured(2).toInt();
    if (total <= 0)
        return previous;
    // Step n started: steps before it are done.
    return qMax(previous, qMin(99, 100 * (n - 1) / total));
}

Result<QByteArray> ImageTools::packContext(const QString &dir, const QString &dockerfile,
                                           qint64 maxBytes)
{
    const QDir root(dir);
    if (!root.exists())
        return fail(ErrorCode::IoError,
                    QStringLiteral("The build context %1 does not exist").arg(dir));
    auto df = safeRelativePath(dockerfile);
    if (!df)
        return std::unexpected(df.error());
    if (!QFileInfo(root.filePath(*df)).isFile())
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("There is no %1 in %2").arg(*df, dir));
    TransferLimits limits;
    limits.maxBytes = maxBytes;
    limits.maxMembers = 100000;
    QList<TarMember> members;
    const auto entries =
        root.entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QFileInfo &fi : entries) {
        if (fi.fileName() == QLatin1String(".git"))
            continue;
        if (fi.isSymLink()) {
            // A top-level link is kept when it stays inside the context.
            const QString target = QFile::symLinkTarget(fi.filePath());
            const QString canonRoot = QFileInfo(dir).canonicalFilePath();
            if (!target.startsWith(canonRoot + u'/'))
                return fail(ErrorCode::PathRefused,
                            QStringLiteral("Refused to send %1: the link leaves the build context")
                                .arg(fi.filePath()));
        }
        auto part = collectLocalPath(fi.filePath(), {}, limits);
        if (!part)
            return std::unexpected(part.error());
        members += *part;
        limits.maxBytes = maxBytes; // collectLocalPath counts per call; check the sum below
    }
    qint64 total = 0;
    for (const TarMember &m : std::as_const(members))
        total += m.data.size();
    if (total > maxBytes)
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("The build context is larger than %1").arg(humanSize(maxBytes)));
    return makeTar(members);
}

Result<QString> ImageTools::buildDockerfile(const QString &contextDir, const BuildOptions &options,
                                            const Progress &progress, const CancelToken &cancel)
{
    if (!options.tag.isEmpty())
        if (auto ref = splitImageReference(options.tag); !ref)
            return std::unexpected(ref.error());
    auto context = packContext(contextDir, options.dockerfile);
    if (!context)
        return std::unexpected(context.error());
    if (progress)
        progress(QStringLiteral("Sending the build context (%1)").arg(humanSize(context->size())),
                 0);
    int percent = 0;
    auto built = m_runtime.buildImage(
        *context, options,
        [&](const QString &line) {
            percent = buildPercent(line, percent);
            if (progress)
                progress(line, percent);
        },
        cancel);
    if (built && progress)
        progress(QStringLiteral("Built %1").arg(options.tag.isEmpty() ? *built : options.tag), 100);
    return built;
}

Result<QString> ImageTools::importRootfs(const QString &tarFile, const QString &ref,
                                         const QStringList &changes, const Progress &progress,
                                         const CancelToken &cancel)
{
    auto parts = splitImageReference(ref);
    if (!parts)
        return std::unexpected(parts.error());
    QFile file(tarFile);
    if (!file.open(QIODevice::ReadOnly))
        return fail(ErrorCode::IoError,
                    QStringLiteral("cannot read %1: %2").arg(tarFile, file.errorString()));
    const qint64 total = file.size();
    int last = -1;
    auto imported = m_runtime.importImage(
        parts->first, parts->second, changes,
        [&](char *buf, size_t size) -> size_t {
            const qint64 n = file.read(buf, qint64(size));
            return n > 0 ? size_t(n) : 0;
        },
        [&](qint64 sent) {
            const int pct = total > 0 ? int(99 * sent / total) : -1;
            if (pct != last && progress) {
                last = pct;
                progress(
                    QStringLiteral("Importing %1 of %2").arg(humanSize(sent), humanSize(total)),
                    pct);
            }
        },
        cancel);
    if (imported && progress)
        progress(QStringLiteral("Imported %1").arg(ref), 100);
    return imported;
}

Result<void> ImageTools::pull(const QString &ref, const Progress &progress,
                              const CancelToken &cancel)
{
    if (ref.trimmed().isEmpty())
        return fail(ErrorCode::InvalidArgument, QStringLiteral("Name an image to pull"));
    // Docker reports per-layer byte counts; the share of finished layers is the percentage.
    QSet<QString> layers, done;
    static const QRegularExpression layerLine(QStringLiteral(R"(^([0-9a-f]{12}): (.*)$)"));
    return m_runtime.pullImage(
        ref,
        [&](const QString &line) {
            int pct = -1;
            if (const auto m = layerLine.match(line); m.hasMatch()) {
                layers.insert(m.captured(1));
                if (m.captured(2).startsWith(QLatin1String("Pull complete")) ||
                    m.captured(2).startsWith(QLatin1String("Already exists")))
                    done.insert(m.captured(1));
                pct = layers.isEmpty() ? -1 : int(100 * done.size() / layers.size());
            }
            if (progress)
                progress(line, pct);
        },
        cancel);
}

} // namespace sandbox
