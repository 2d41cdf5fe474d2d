// SPDX-License-Identifier: GPL-3.0-or-later
#include "artifactgallery.h"

#include "artifactactions.h"

#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QMimeDatabase>
#include <QPainter>
#include <QSaveFile>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

constexpr int IdRole = Qt::UserRole + 1;

QIcon thumbnail(const ArtifactGallery::Item &item, const QImage &image, const QWidget *widget)
{
    const int size = ArtifactGallery::ThumbnailSize;
    if (image.isNull()) {
        static const QMimeDatabase mimes;
        const QMimeType type = mimes.mimeTypeForName(item.artifact.mimeType);
        QIcon fallback = widget->style()->standardIcon(QStyle::SP_FileIcon, nullptr, widget);
        return type.isValid() ? QIcon::fromTheme(type.iconName(),
                                                 QIcon::fromTheme(type.genericIconName(), fallback))
                              : fallback;
    }
    // Centred on a square, so the grid stays even whatever the aspect.
    const qreal ratio = widget->devicePixelRatioF();
    QPixmap canvas(QSize(size, size) * ratio);
    canvas.setDevicePixelRatio(ratio);
    canvas.fill(Qt::transparent);
    const QImage scaled =
        image.scaled(QSize(size, size) * ratio, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    QPainter painter(&canvas);
    const QSizeF shown = QSizeF(scaled.size()) / ratio;
    painter.drawImage(
        QRectF(QPointF((size - shown.width()) / 2, (size - shown.height()) / 2), shown), scaled);
    return QIcon(canvas);
}

/// path, or path with " (n)" before the suffix, that is not in used.
QString uniquePath(const QString &path, QSet<QString> &used)
{
    QString candidate = path;
    const QFileInfo info(path);
    const QString base = info.path() + u'/' + info.completeBaseName();
    const QString suffix = info.suffix().isEmpty() ? QString() : u'.' + info.suffix();
    for (int n = 2; used.contains(candidate) || QFileInfo::exists(candidate); ++n)
        candidate = base + u" ("_s + QString::number(n) + u')' + suffix;
    used.insert(candidate);
    return candidate;
}

} // namespace

ArtifactGallery::ArtifactGallery(QWidget *parent)
    : QWidget(parent)
    , m_view(new QListWidget(this))
    , m_summary(new QLabel(this))
    , m_saveAll(new QToolButton(this))
    , m_clear(new QToolButton(this))
{
    setObjectName(u"artifactGallery"_s);
    m_view->setObjectName(u"artifactList"_s);
    m_view->setAccessibleName(tr("Artifacts"));
    m_view->setViewMode(QListView::IconMode);
    m_view->setIconSize(QSize(ThumbnailSize, ThumbnailSize));
    m_view->setGridSize(QSize(ThumbnailSize + 40, ThumbnailSize + 48));
    m_view->setResizeMode(QListView::Adjust);
    m_view->setMovement(QListView::Static);
    m_view->setWordWrap(true);
    m_view->setUniformItemSizes(true);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setTextElideMode(Qt::ElideMiddle);
    connect(m_view, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *listItem) { open(m_view->row(listItem)); });

    m_summary->setObjectName(u"artifactSummary"_s);
    m_saveAll->setObjectName(u"saveAllArtifactsButton"_s);
    m_saveAll->setText(tr("Save All…"));
    m_saveAll->setToolTip(tr("Save every artifact to a folder"));
    m_saveAll->setIcon(QIcon::fromTheme(QIcon::ThemeIcon::DocumentSaveAs));
    m_saveAll->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_saveAll->setAutoRaise(true);
    connect(m_saveAll, &QToolButton::clicked, this, &ArtifactGallery::saveAll);
    m_clear->setObjectName(u"clearArtifactsButton"_s);
    m_clear->setText(tr("Clear"));
    m_clear->setToolTip(tr("Remove all artifacts from the gallery"));
    m_clear->setAutoRaise(true);
    connect(m_clear, &QToolButton::clicked, this, &ArtifactGallery::clear);

    auto *header = new QHBoxLayout;
    header->setContentsMargins(6, 2, 2, 2);
    header->addWidget(m_summary, 1);
    header->addWidget(m_saveAll);
    header->addWidget(m_clear);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(m_view, 1);
    updateHeader();
}

void ArtifactGallery::addArtifact(const sandbox::Artifact &artifact, const QString &source)
{
    QImage image;
    if (ArtifactActions::isImage(artifact.mimeType))
        image = ArtifactActions::decode(artifact.data, artifact.mimeType);
    Item item{artifact, source, image.size(), QDateTime::currentDateTime()};

    const quint64 id = m_nextId++;
    auto *listItem = new QListWidgetItem(thumbnail(item, image, this),
                                         ArtifactActions::fileName(artifact.name) + u'\n' + source);
    listItem->setData(IdRole, id);
    listItem->setToolTip(
        ArtifactActions::describe(artifact.name, artifact.mimeType, artifact.size()) + u'\n' +
        source + u'\n' +
        (image.isNull() ? tr("Double-click to open") : tr("Double-click to view full size")));
    m_items.insert(id, std::move(item));
    m_view->insertItem(0, listItem);
    while (m_view->count() > MaximumItems) {
        std::unique_ptr<QListWidgetItem> oldest(m_view->takeItem(m_view->count() - 1));
        m_items.remove(oldest->data(IdRole).toULongLong());
    }
    updateHeader();
    Q_EMIT countChanged(count());
}

int ArtifactGallery::count() const
{
    return m_view->count();
}

const ArtifactGallery::Item *ArtifactGallery::itemFor(const QListWidgetItem *listItem) const
{
    if (!listItem)
        return nullptr;
    const auto it = m_items.constFind(listItem->data(IdRole).toULongLong());
    return it == m_items.constEnd() ? nullptr : &*it;
}

ArtifactGallery::Item ArtifactGallery::item(int row) const
{
    const Item *found = itemFor(m_view->item(row));
    return found ? *found : Item{};
}

QImage ArtifactGallery::image(int row) const
{
    const Item *found = itemFor(m_view->item(row));
    return found && found->isImage()
               ? ArtifactActions::decode(found->artifact.data, found->artifact.mimeType)
               : QImage();
}

void ArtifactGallery::open(int row)
{
    const Item *found = itemFor(m_view->item(row));
    if (!found)
        return;
    const Item copy = *found; // the dialogs' event loops may change the gallery
    if (copy.isImage())
        ArtifactActions::showImage(this, image(row), copy.artifact.data, copy.artifact.mimeType,
                                   copy.artifact.name);
    else
        ArtifactActions::openFile(this, copy.artifact.name, copy.artifact.data);
}

void ArtifactGallery::clear()
{
    m_view->clear();
    m_items.clear();
    updateHeader();
    Q_EMIT countChanged(0);
}

int ArtifactGallery::saveAllTo(const QString &folder, QString *error) const
{
    int written = 0;
    QSet<QString> used;
    const QDir dir(folder);
    for (int row = m_view->count() - 1; row >= 0; --row) {
        const Item *found = itemFor(m_view->item(row));
        if (!found)
            continue;
        // Names are relative and safe (the engine refuses others); keep their folders.
        const QString path = uniquePath(dir.filePath(found->artifact.name), used);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QSaveFile file(path);
        if (file.open(QIODevice::WriteOnly) &&
            file.write(found->artifact.data) == found->artifact.size() && file.commit()) {
            ++written;
        } else if (error && error->isEmpty()) {
            *error = tr("Could not write %1: %2")
                         .arg(QDir::toNativeSeparators(path), file.errorString());
        }
    }
    return written;
}

void ArtifactGallery::saveAll()
{
    if (count() == 0)
        return;
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Save All Artifacts"),
        QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
    if (folder.isEmpty())
        return;
    QString error;
    const int written = saveAllTo(folder, &error);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Save All Artifacts"),
                             tr("%n artifact(s) saved. %1", nullptr, written).arg(error));
}

void ArtifactGallery::contextMenuEvent(QContextMenuEvent *event)
{
    QListWidgetItem *listItem = m_view->itemAt(m_view->viewport()->mapFrom(this, event->pos()));
    QMenu menu(this);
    if (const Item *found = itemFor(listItem)) {
        const int row = m_view->row(listItem);
        const Item copy = *found;
        const bool image = copy.isImage();
        menu.addAction(image ? tr("&View Full Size") : tr("&Open"), this,
                       [this, row] { open(row); });
        menu.addAction(
            QIcon::fromTheme(QIcon::ThemeIcon::DocumentSaveAs), tr("&Save As…"), this,
            [this, copy, image] {
                if (image)
                    ArtifactActions::saveImageAs(
                        this, ArtifactActions::decode(copy.artifact.data, copy.artifact.mimeType),
                        copy.artifact.data, copy.artifact.mimeType, copy.artifact.name);
                else
                    ArtifactActions::saveFileAs(this, copy.artifact.name, copy.artifact.data);
            });
        if (image)
            menu.addAction(
                QIcon::fromTheme(QIcon::ThemeIcon::EditCopy), tr("&Copy Image"), this, [copy] {
                    ArtifactActions::copyImage(
                        ArtifactActions::decode(copy.artifact.data, copy.artifact.mimeType));
                });
        menu.addSeparator();
    }
    menu.addAction(tr("Save &All…"), this, &ArtifactGallery::saveAll)->setEnabled(count() > 0);
    menu.addAction(tr("C&lear"), this, &ArtifactGallery::clear)->setEnabled(count() > 0);
    menu.exec(event->globalPos());
}

void ArtifactGallery::updateHeader()
{
    qint64 bytes = 0;
    for (const Item &item : std::as_const(m_items))
        bytes += item.artifact.size();
    m_summary->setText(
        count() == 0
            ? tr("No artifacts yet")
            : tr("%n artifact(s) · %1", nullptr, count()).arg(QLocale().formattedDataSize(bytes)));
    m_saveAll->setEnabled(count() > 0);
    m_clear->setEnabled(count() > 0);
}
