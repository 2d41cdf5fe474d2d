// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QImage>
#include <QString>

class QWidget;

/// What can be done with an artifact or an image output, shared by the notebook's image
/// outputs, the one-shot console and the artifact gallery: view full size, save, copy, open
/// in the desktop's application.
class ArtifactActions final
{
    Q_DECLARE_TR_FUNCTIONS(ArtifactActions)

public:
    ArtifactActions() = delete;

    /// Whether mimeType is decoded and shown as an image (PNG, JPEG, GIF; SVG when Qt's svg
    /// image plugin is installed).
    static bool isImage(const QString &mimeType);
    /// The decoded image, or a null one (undecodable, or larger than 100 megapixels).
    static QImage decode(const QByteArray &data, const QString &mimeType);
    /// The last part of an artifact's relative name ("output/figure-001.png" -> "figure-001.png").
    static QString fileName(const QString &name);
    /// "figure-001.png · image/png · 23 KB".
    static QString describe(const QString &name, const QString &mimeType, qint64 size);

    /// Opens image at full size in a non-modal dialog (with Save As and Copy) over parent.
    static void showImage(QWidget *parent, const QImage &image, const QByteArray &data,
                          const QString &mimeType, const QString &name = {});
    /// Asks for a file name and writes the image: data as is when the suffix matches
    /// mimeType, else converted.
    static void saveImageAs(QWidget *parent, const QImage &image, const QByteArray &data,
                            const QString &mimeType, const QString &name = {});
    static void copyImage(const QImage &image);
    /// Writes data to a private temporary folder under its file name and asks the desktop to
    /// open it. Errors: a message box over parent; returns false.
    static bool openFile(QWidget *parent, const QString &name, const QByteArray &data);
    /// Asks for a file name and writes data there.
    static void saveFileAs(QWidget *parent, const QString &name, const QByteArray &data);
};
