// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/runtypes.h"

#include <QDateTime>
#include <QHash>
#include <QImage>
#include <QWidget>

class QLabel;
class QListWidget;
class QListWidgetItem;
class QToolButton;

/// Thumbnails of every artifact produced since the window opened (one-shot runs and
/// notebook cells), newest first, each with the run or cell it came from. Double-click (or
/// Return) opens an image full size and a file in the desktop's application; the context
/// menu saves or copies one; Save All… writes them all to a folder. Holds at most
/// MaximumItems; the oldest go first.
class ArtifactGallery final : public QWidget
{
    Q_OBJECT

public:
    static constexpr int MaximumItems = 500;
    static constexpr int ThumbnailSize = 96;

    struct Item
    {
        sandbox::Artifact artifact;
        QString source;  ///< "Run 2 · 14:03:11", "Notebook cell 3"
        QSize imageSize; ///< in pixels; empty for files (and images that do not decode)
        bool isImage() const { return !imageSize.isEmpty(); }
        QDateTime added;
    };

    explicit ArtifactGallery(QWidget *parent = nullptr);

    /// Adds an artifact at the top; an image is decoded for its thumbnail (only the
    /// thumbnail and the encoded bytes are kept).
    void addArtifact(const sandbox::Artifact &artifact, const QString &source);

    int count() const;
    /// The item in row (0 = newest).
    Item item(int row) const;
    /// The decoded image of the item in row; null for files.
    QImage image(int row) const;
    QListWidget *view() const { return m_view; }

    /// Writes every artifact to folder, oldest first; clashing names get " (2)", " (3)", ...
    /// Returns the number written; the first failure's message in *error.
    int saveAllTo(const QString &folder, QString *error = nullptr) const;

public Q_SLOTS:
    /// Asks for a folder and saveAllTo() it.
    void saveAll();
    void clear();
    /// Opens the item in row: an image full size, a file in the desktop's application.
    void open(int row);

Q_SIGNALS:
    void countChanged(int count);

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    const Item *itemFor(const QListWidgetItem *listItem) const;
    void updateHeader();

    QListWidget *m_view;
    QLabel *m_summary;
    QToolButton *m_saveAll;
    QToolButton *m_clear;
    QHash<quint64, Item> m_items;
    quint64 m_nextId = 1;
};
