// SPDX-License-Identifier: GPL-3.0-or-later
#include "imagebuilder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QProcess>
#include <QStandardPaths>
#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcImages, "sandbox.images", QtWarningMsg)

namespace sandbox {

QString ImageBuilder::scratchDir()
{
    QString base = qEnvironmentVariable("SANDBOX_STUDIO_CACHE");
    if (base.isEmpty())
        base = QStringLiteral("/var/cache/sandbox-studio");
    return base + QStringLiteral("/rootfs");
}

Result<void> packDirectory(const QString &dir, const QString &tarFile, const CancelToken &cancel)
{
    archive *disk = archive_read_disk_new();
    archive *out = archive_write_new();
    auto cleanup = qScopeGuard([&] {
        archive_read_free(disk);
        archive_write_free(out);
    });
    archive_read_disk_set_standard_lookup(disk);
    // No sparse entries: Docker keeps a layer as its files plus the tar headers and, when
    // the image is saved (docker save, which the Podman and TLS test daemons load from),
    // rebuilds the tar from them; a sparse entry comes back expanded, its digest differs
    // and the save fails ("could not verify layer data"). Go's telemetry counters, written
    // by go commands a recipe runs, are such sparse files.
    archive_read_disk_set_behavior(disk, ARCHIVE_READDISK_NO_TRAVERSE_MOUNTS |
                                             ARCHIVE_READDISK_NO_SPARSE);
    archive_write_set_format_pax_restricted(out);
    if (archive_write_open_filename(out, QFile::encodeName(tarFile).constData()) != ARCHIVE_OK)
        return fail(ErrorCode::IoError, QStringLiteral("cannot write %1").arg(tarFile),
                    QString::fromUtf8(archive_error_string(out)));
    const QByteArray root = QFile::encodeName(dir);
    if (archive_read_disk_open(disk, root.constData()) != ARCHIVE_OK)
        return fail(ErrorCode::IoError, QStringLiteral("cannot read %1").arg(dir),
                    QString::fromUtf8(archive_error_string(disk)));
    QByteArray buffer(1 << 16, Qt::Uninitialized);
    for (;;) {
        if (cancel.isCancelled())
            return fail(ErrorCode::Cancelled, QStringLiteral("Cancelled"));
        archive_entry *entry = archive_entry_new();
        const int r = archive_read_next_header2(disk, entry);
        if (r == ARCHIVE_EOF) {
            archive_entry_free(entry);
            break;
        }
        if (r < ARCHIVE_WARN) {
            const QString err = QString::fromUtf8(archive_error_string(disk));
            archive_entry_free(entry);
            return fail(ErrorCode::IoError, QStringLiteral("reading %1 failed").arg(dir), err);
        }
        archive_read_disk_descend(disk);
        const QByteArray full = archive_entry_pathname(entry);
        QByteArray rel = "." + full.mid(root.size());
        if (rel == ".")
            rel = "./";
        archive_entry_set_pathname(entry, rel.constData());
        if (archive_write_header(out, entry) < ARCHIVE_WARN) {
            const QString err = QString::fromUtf8(archive_error_string(out));
            archive_entry_free(entry);
            return fail(ErrorCode::IoError, QStringLiteral("writing the image tar failed"), err);
        }
        if (archive_entry_filetype(entry) == AE_IFREG && archive_entry_size(entry) > 0) {
            la_ssize_t n;
            while ((n = archive_read_data(disk, buffer.data(), size_t(buffer.size()))) > 0)
                archive_write_data(out, buffer.constData(), size_t(n));
        }
        archive_entry_free(entry);
    }
    if (archive_write_close(out) != ARCHIVE_OK)
        return fail(ErrorCode::IoError, QStringLiteral("finishing the image tar failed"),
                    QString::fromUtf8(archive_error_string(out)));
    return {};
}

Result<QString> ImageBuilder::ensure(const ImageRecipe &recipe, const Progress &progress,
                                     const CancelToken &cancel, bool force)
{
    const QString ref = recipe.reference();
    auto report = [&](int pct, const QString &msg) {
        qCInfo(lcImages).noquote() << pct << msg;
        if (progress)
            progress(pct, msg);
    };
    if (!force) {
        auto exists = m_runtime.imageExists(ref);
        if (!exists)
            return std::unexpected(exists.error());
        if (*exists) {
            report(100, QStringLiteral("%1 is up to date").arg(ref));
            return ref;
        }
    }
    if (::geteuid() != 0)
        return fail(ErrorCode::IoError,
                    QStringLiteral("Building the %1 image needs root (debootstrap). Run "
                                   "`sudo sandbox-studio images build %1`.")
                        .arg(recipe.name));
    const QString debootstrap = QStandardPaths::findExecutable(QStringLiteral("debootstrap"));
    if (debootstrap.isEmpty())
        return fail(ErrorCode::IoError,
                    QStringLiteral("debootstrap is not installed: `apt-get install debootstrap`"));

    const QString scratch = scratchDir() + u'/' + recipe.name + u'-' + recipe.tag();
    QDir(scratch).removeRecursively();
    QDir().mkpath(scratchDir());
    auto cleanup = qScopeGuard([&] {
        QDir(scratch).removeRecursively();
        QFile::remove(scratch + QStringLiteral(".tar"));
    });

    QString mirror = qEnvironmentVariable("DEBIAN_MIRROR");
    if (mirror.isEmpty())
        mirror = QStringLiteral("http://deb.debian.org/debian");
    report(
        1,
        QStringLiteral("Debian %1 with %2 packages").arg(recipe.suite).arg(recipe.packages.size()));

    // Runs one step, turning its output lines into progress. Errors carry the last lines.
    int lastStep = 0;
    auto runStep = [&](const QString &program, const QStringList &args, const QString &what,
                       const std::function<int(const QByteArray &)> &progressOf) -> Result<void> {
        QProcess proc;
        proc.setProcessChannelMode(QProcess::MergedChannels);
        proc.start(program, args);
        if (!proc.waitForStarted(10000))
            return fail(ErrorCode::IoError, QStringLiteral("%1 did not start").arg(what),
                        proc.errorString());
        QByteArray tail, pending;
        auto consume = [&] {
            pending += proc.readAll();
            qsizetype nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
                const QByteArray line = pending.left(nl).trimmed();
                pending.remove(0, nl + 1);
                tail = QByteArray(tail + line + '\n').right(4000);
                const int pct = progressOf(line);
                if (pct >= 0) {
                    lastStep = qMax(lastStep, pct); // stages repeat: never go back
                    report(lastStep, QString::fromUtf8(line.left(120)));
                }
            }
        };
        while (proc.state() != QProcess::NotRunning) {
            if (cancel.isCancelled()) {
                proc.kill();
                proc.waitForFinished(5000);
                return fail(ErrorCode::Cancelled, QStringLiteral("Image build cancelled"));
            }
            proc.waitForReadyRead(200);
            consume();
        }
        consume();
        if (proc.exitStatus() != QProcess::NormalExit || proc.exitCode() != 0)
            return fail(ErrorCode::IoError,
                        QStringLiteral("%1 failed for the %2 image").arg(what, recipe.name),
                        QString::fromUtf8(tail.right(1500)));
        return {};
    };

    // Stage 1: a minimal system. debootstrap's own resolver misses some dependencies (npm's
    // alternatives, for one), so the recipe's packages come in stage 2 through apt.
    int retrieved = 0, configured = 0;
    Result<void> bootstrapped;
    // A mirror hiccup fails debootstrap now and then: one more try from scratch.
    for (int attempt = 1; attempt <= 2; ++attempt) {
        QDir(scratch).removeRecursively();
        bootstrapped =
            runStep(debootstrap,
                    {QStringLiteral("--variant=minbase"),
                     QStringLiteral("--include=ca-certificates"), recipe.suite, scratch, mirror},
                    QStringLiteral("debootstrap"), [&](const QByteArray &line) {
                        if (line.startsWith("I: Retrieving"))
                            return 2 + qMin(13, ++retrieved / 8);
                        if (line.startsWith("I: Configuring") || line.startsWith("I: Unpacking"))
                            return 15 + qMin(15, ++configured / 10);
                        return -1;
                    });
        if (bootstrapped || bootstrapped.error().code == ErrorCode::Cancelled)
            break;
        QFile log(scratch + QStringLiteral("/debootstrap/debootstrap.log"));
        if (log.open(QIODevice::ReadOnly))
            bootstrapped.error().detail += QStringLiteral("\n--- debootstrap.log (end):\n") +
                                           QString::fromUtf8(log.readAll().right(2000));
        qCWarning(lcImages).noquote()
            << "debootstrap attempt" << attempt << "failed:" << bootstrapped.error().toString();
    }
    if (!bootstrapped)
        return std::unexpected(bootstrapped.error());

    // Stage 2: the recipe's packages with apt inside the new root.
    const QString script = QStringLiteral(R"(set -e
root="$1"; shift
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
export DEBIAN_FRONTEND=noninteractive
chroot "$root" apt-get update
chroot "$root" apt-get install -y --no-install-recommends -o Dpkg::Use-Pty=0 "$@"
chroot "$root" apt-get clean
rm -f "$root/etc/resolv.conf"
)");
    int fetched = 0, setUp = 0;
    Result<void> installed;
    for (int attempt = 1; attempt <= 2; ++attempt) {
        installed = runStep(
            QStringLiteral("/bin/sh"),
            QStringList{QStringLiteral("-c"), script, QStringLiteral("image-build"), scratch} +
                recipe.packages,
            QStringLiteral("apt-get install"), [&](const QByteArray &line) {
                if (line.startsWith("Get:"))
                    return 32 + qMin(28, ++fetched / 6);
                if (line.startsWith("Setting up"))
                    return 60 + qMin(25, ++setUp / 6);
                return -1;
            });
        if (installed || installed.error().code == ErrorCode::Cancelled)
            break;
        qCWarning(lcImages).noquote()
            << "apt-get attempt" << attempt << "failed:" << installed.error().toString();
    }
    if (!installed)
        return std::unexpected(installed.error());

    // Smaller images: no package archives or lists; the work directory exists.
    for (const auto &sub :
         {QStringLiteral("/var/cache/apt/archives"), QStringLiteral("/var/lib/apt/lists")}) {
        QDir d(scratch + sub);
        for (const QString &f : d.entryList(QDir::Files))
            d.remove(f);
    }
    QDir().mkpath(scratch + QStringLiteral("/sandbox"));

    // Stage 3: the recipe's files, then its build-time commands in the new root.
    for (const ImageRecipe::File &file : recipe.files) {
        const QString target = scratch + file.path;
        QDir().mkpath(QFileInfo(target).absolutePath());
        QFile f(target);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            f.write(file.data) != file.data.size() || !f.flush())
            return fail(
                ErrorCode::IoError,
                QStringLiteral("cannot write %1 into the %2 image").arg(file.path, recipe.name),
                f.errorString());
        f.close();
        if (::chmod(QFile::encodeName(target).constData(), mode_t(file.mode)) != 0)
            return fail(ErrorCode::IoError,
                        QStringLiteral("cannot set the mode of %1 in the %2 image")
                            .arg(file.path, recipe.name));
    }
    if (!recipe.run.isEmpty()) {
        const QString runScript = QStringLiteral(R"(set -e
root="$1"; shift
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
n=0
for step in "$@"; do
  n=$((n + 1))
  echo "RUN $n/$#: $step" | head -c 200; echo
  chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 /bin/sh -e -c "$step"
done
)");
        const int steps = int(recipe.run.size());
        auto ran = runStep(
            QStringLiteral("/bin/sh"),
            QStringList{QStringLiteral("-c"), runScript, QStringLiteral("image-build"), scratch} +
                recipe.run,
            QStringLiteral("The recipe's run commands"), [&](const QByteArray &line) {
                if (!line.startsWith("RUN "))
                    return -1;
                const int n = line.mid(4, line.indexOf('/') - 4).toInt();
                return 85 + (n - 1) * 3 / qMax(1, steps);
            });
        if (!ran)
            return std::unexpected(ran.error());
    }

    QFile marker(scratch + QStringLiteral("/etc/sandbox-studio-image"));
    if (marker.open(QIODevice::WriteOnly))
        marker.write(ref.toUtf8() + '\n');
    marker.close();

    report(88, QStringLiteral("Packing the root filesystem"));
    const QString tarFile = scratch + QStringLiteral(".tar");
    if (auto packed = packDirectory(scratch, tarFile, cancel); !packed)
        return std::unexpected(packed.error());
    QDir(scratch).removeRecursively();

    QFile tar(tarFile);
    if (!tar.open(QIODevice::ReadOnly))
        return fail(ErrorCode::IoError, QStringLiteral("cannot read %1").arg(tarFile));
    const qint64 total = tar.size();
    int lastPct = -1;
    auto imported = m_runtime.importImage(
        recipe.repository(), recipe.tag(), recipe.changes,
        [&](char *buf, size_t size) -> size_t {
            const qint64 n = tar.read(buf, qint64(size));
            return n > 0 ? size_t(n) : 0;
        },
        [&](qint64 sent) {
            const int pct = 89 + int(total > 0 ? 10 * sent / total : 0);
            if (pct != lastPct) {
                lastPct = pct;
                report(pct,
                       QStringLiteral("Importing %1 MB of %2 MB").arg(sent >> 20).arg(total >> 20));
            }
        },
        cancel);
    if (!imported)
        return std::unexpected(imported.error());
    report(100, QStringLiteral("Built %1").arg(ref));
    return ref;
}

} // namespace sandbox
