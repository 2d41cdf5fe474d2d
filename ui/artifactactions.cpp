// SPDX-License-Identifier: GPL-3.0-or-later
#include "artifactactions.h"

#include <QBuffer>
#include <QClipboard>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QGuiApplication>
#include <QImageReader>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QScreen>
#include <QScrollArea>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 MaximumPixels = 100'000'000;

QString suffixFor(const QString &mimeType)
{
    if (mimeType == u"image/jpeg")
        return u"jpg"_s;
    if (mimeType == u"image/gif")
        return u"gif"_s;
    if (mimeType == u"image/svg+xml")
        return u"svg"_s;
    return u"png"_s;
}

bool writeFile(QWidget *parent, const QString &title, const QString &path, const QByteArray &data)
{
    QSaveFile file(path);
    const bool ok =
        file.open(QIODevice::WriteOnly) && file.write(data) == data.size() && file.commit();
    if (!ok)
        QMessageBox::warning(parent, title,
                             ArtifactActions::tr("Could not write %1: %2")
                                 .arg(QDir::toNativeSeparators(path), file.errorString()));
    return ok;
}

} // namespace

bool ArtifactActions::isImage(const QString &mimeType)
{
    static const bool svg = QImageReader::supportedMimeTypes().contains("image/svg+xml");
    return mimeType == u"image/png" || mimeType == u"image/jpeg" || mimeType == u"image/gif" ||
           (svg && mimeType == u"image/svg+xml");
}

QImage ArtifactActions::decode(const QByteArray &data, const QString &mimeType)
{
    QBuffer buffer;
    buffer.setData(data);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer, suffixFor(mimeType).toLatin1());
    reader.setDecideFormatFromContent(true);
    // A program can write a tiny file that claims a huge size; do not allocate for it.
    const QSize size = reader.size();
    if (size.isValid() && qint64(size.width()) * size.height() > MaximumPixels)
        return {};
    return reader.read();
}

QString ArtifactActions::fileName(const QString &name)
{
    const QString last = name.section(u'/', -1);
    return last.isEmpty() ? u"artifact"_s : last;
}

QString ArtifactActions::describe(const QString &name, const QString &mimeType, qint64 size)
{
    return tr("%1 · %2 · %3").arg(name, mimeType, QLocale().formattedDataSize(size));
}

void ArtifactActions::showImage(QWidget *parent, const QImage &image, const QByteArray &data,
                                const QString &mimeType, const QString &name)
{
    if (image.isNull())
        return;
    auto *dialog = new QDialog(parent ? parent->window() : nullptr);
    dialog->setObjectName(u"imageDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QString dimensions = tr("%1 × %2").arg(image.width()).arg(image.height());
    dialog->setWindowTitle(name.isEmpty() ? tr("Image — %1").arg(dimensions)
                                          : tr("%1 — %2").arg(fileName(name), dimensions));

    auto *label = new QLabel(dialog);
    label->setPixmap(QPixmap::fromImage(image));
    label->setAlignment(Qt::AlignCenter);
    auto *scroll = new QScrollArea(dialog);
    scroll->setWidget(label);
    scroll->setWidgetResizable(true);
    scroll->setAlignment(Qt::AlignCenter);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QPushButton *save = buttons->addButton(tr("&Save As…"), QDialogButtonBox::ActionRole);
    QPushButton *copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    QObject::connect(save, &QPushButton::clicked, dialog, [dialog, image, data, mimeType, name] {
        saveImageAs(dialog, image, data, mimeType, name);
    });
    QObject::connect(copy, &QPushButton::clicked, dialog, [image] { copyImage(image); });
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);

    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(scroll, 1);
    layout->addWidget(buttons);

    QSize size = image.deviceIndependentSize().toSize() + QSize(48, 96);
    if (const QScreen *screen = parent ? parent->screen() : QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableSize() * 0.9);
    dialog->resize(size);
    dialog->show();
}

void ArtifactActions::saveImageAs(QWidget *parent, const QImage &image, const QByteArray &data,
                                  const QString &mimeType, const QString &name)
{
    const QString suffix = suffixFor(mimeType);
    const bool jpeg = suffix == u"jpg";
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    const QString proposed = name.isEmpty() ? u"output."_s + suffix : fileName(name);
    const QString filter = jpeg               ? tr("JPEG image (*.jpg *.jpeg);;All files (*)")
                           : suffix == u"gif" ? tr("GIF image (*.gif);;All files (*)")
                           : suffix == u"svg" ? tr("SVG image (*.svg);;All files (*)")
                                              : tr("PNG image (*.png);;All files (*)");
    const QString path =
        QFileDialog::getSaveFileName(parent, tr("Save Image"), folder + u'/' + proposed, filter);
    if (path.isEmpty())
        return;
    const bool sameFormat = path.endsWith(u'.' + suffix, Qt::CaseInsensitive) ||
                            (jpeg && path.endsWith(u".jpeg"_s, Qt::CaseInsensitive));
    if (sameFormat || image.isNull()) {
        // The bytes the program wrote when the format matches.
        writeFile(parent, tr("Save Image"), path, data);
        return;
    }
    QSaveFile file(path);
    const bool ok = file.open(QIODevice::WriteOnly) && image.save(&file) && file.commit();
    if (!ok)
        QMessageBox::warning(parent, tr("Save Image"),
                             tr("Could not save the image to %1: %2")
                                 .arg(QDir::toNativeSeparators(path), file.errorString()));
}

void ArtifactActions::copyImage(const QImage &image)
{
    if (!image.isNull())
        QGuiApplication::clipboard()->setImage(image);
}

bool ArtifactActions::openFile(QWidget *parent, const QString &name, const QByteArray &data)
{
    // One private folder per application run, removed at exit; a file per open, so an
    // application still showing an earlier one is not disturbed.
    static QTemporaryDir folder(QDir::tempPath() + u"/sandbox-studio-artifacts-XXXXXX"_s);
    static int counter = 0;
    if (!folder.isValid()) {
        QMessageBox::warning(
            parent, tr("Open Artifact"),
            tr("Could not create a temporary folder: %1").arg(folder.errorString()));
        return false;
    }
    const QString dir = folder.filePath(QString::number(++counter));
    QDir().mkpath(dir);
    const QString path = dir + u'/' + fileName(name);
    if (!writeFile(parent, tr("Open Artifact"), path, data))
        return false;
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(path))) {
        QMessageBox::warning(
            parent, tr("Open Artifact"),
            tr("No application could open %1.").arg(QDir::toNativeSeparators(path)));
        return false;
    }
    return true;
}

void ArtifactActions::saveFileAs(QWidget *parent, const QString &name, const QByteArray &data)
{
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString path =
        QFileDialog::getSaveFileName(parent, tr("Save Artifact"), folder + u'/' + fileName(name));
    if (!path.isEmpty())
        writeFile(parent, tr("Save Artifact"), path, data);
}
