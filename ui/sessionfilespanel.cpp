// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionfilespanel.h"

#include "images/imagetools.h"

#include <QDateTime>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMimeData>
#include <QStyle>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

using namespace sandbox;
using namespace Qt::StringLiterals;

namespace {
constexpr int PathRole = Qt::UserRole + 1;
constexpr int IsDirRole = Qt::UserRole + 2;
} // namespace

SessionFilesPanel::SessionFilesPanel(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *buttons = new QHBoxLayout;
    auto button = [this, buttons](const QString &name, const QString &text, const QString &tip,
                                  QStyle::StandardPixmap icon) {
        auto *b = new QToolButton(this);
        b->setObjectName(name);
        b->setText(text);
        b->setToolTip(tip);
        b->setIcon(style()->standardIcon(icon));
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        buttons->addWidget(b);
        return b;
    };
    m_uploadButton = button(u"uploadButton"_s, tr("Upload…"),
                            tr("Copy files from this computer into the session's work directory "
                               "(or drop them on the list)"),
                            QStyle::SP_ArrowUp);
    m_downloadButton =
        button(u"downloadButton"_s, tr("Download…"),
               tr("Copy the selected files and folders to this computer"), QStyle::SP_ArrowDown);
    m_refreshButton = button(u"refreshButton"_s, tr("Refresh"), tr("List the work directory again"),
                             QStyle::SP_BrowserReload);
    buttons->addStretch(1);
    layout->addLayout(buttons);

    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(u"sessionFiles"_s);
    m_tree->setHeaderLabels({tr("Name"), tr("Size"), tr("Modified")});
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setAcceptDrops(true);
    m_tree->viewport()->setAcceptDrops(true);
    m_tree->setDropIndicatorShown(true);
    m_tree->viewport()->installEventFilter(this);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->setAccessibleName(tr("Files of the session"));
    layout->addWidget(m_tree, 1);

    m_status = new QLabel(this);
    m_status->setObjectName(u"filesStatus"_s);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    connect(m_refreshButton, &QToolButton::clicked, this, &SessionFilesPanel::refresh);
    connect(m_uploadButton, &QToolButton::clicked, this, &SessionFilesPanel::chooseAndUpload);
    connect(m_downloadButton, &QToolButton::clicked, this, &SessionFilesPanel::chooseAndDownload);
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, &SessionFilesPanel::updateActions);
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &SessionFilesPanel::onFinished);
    setSession(nullptr);
}

SessionFilesPanel::~SessionFilesPanel() = default;

void SessionFilesPanel::setSession(std::shared_ptr<NotebookSession> session)
{
    if (session == m_session && session)
        return;
    m_session = std::move(session);
    m_tree->clear();
    if (!m_session)
        setStatus(tr("No notebook session: run a cell in the notebook (Ctrl+Shift+N) to start "
                     "one, then its files show here."),
                  false);
    updateActions();
    if (m_session)
        refresh();
}

QStringList SessionFilesPanel::listedPaths() const
{
    QStringList out;
    std::function<void(QTreeWidgetItem *)> walk = [&](QTreeWidgetItem *item) {
        for (int i = 0; i < item->childCount(); ++i) {
            QTreeWidgetItem *c = item->child(i);
            out << c->data(0, PathRole).toString() +
                       (c->data(0, IsDirRole).toBool() ? u"/"_s : QString());
            walk(c);
        }
    };
    walk(m_tree->invisibleRootItem());
    return out;
}

void SessionFilesPanel::selectPaths(const QStringList &paths)
{
    m_tree->clearSelection();
    QTreeWidgetItemIterator it(m_tree);
    for (; *it; ++it)
        if (paths.contains((*it)->data(0, PathRole).toString()))
            (*it)->setSelected(true);
}

QString SessionFilesPanel::statusText() const
{
    return m_statusText;
}

void SessionFilesPanel::setStatus(const QString &text, bool error)
{
    m_statusText = text;
    m_status->setText(text);
    m_status->setStyleSheet(error ? u"color: #c0392b;"_s : QString());
}

void SessionFilesPanel::updateActions()
{
    const bool ready = m_session && !m_busy;
    m_refreshButton->setEnabled(ready);
    m_uploadButton->setEnabled(ready);
    m_downloadButton->setEnabled(ready && !m_tree->selectedItems().isEmpty());
}

void SessionFilesPanel::run(std::function<Outcome()> job)
{
    if (m_busy)
        return;
    m_busy = true;
    updateActions();
    m_watcher.setFuture(QtConcurrent::run(std::move(job)));
}

void SessionFilesPanel::refresh()
{
    if (!m_session) {
        Q_EMIT refreshed(false);
        return;
    }
    if (m_busy) {
        m_refreshAfter = true;
        return;
    }
    // The lambda holds the session: a close elsewhere makes the call fail, not crash.
    run([session = m_session] {
        Outcome o;
        o.listing = true;
        auto files = session->listFiles({}, true);
        if (!files) {
            o.message = files.error().message;
            return o;
        }
        o.ok = true;
        o.files = *files;
        return o;
    });
}

void SessionFilesPanel::uploadLocalPaths(const QStringList &localPaths, const QString &destDir)
{
    if (!m_session || localPaths.isEmpty())
        return;
    if (m_busy) {
        setStatus(tr("Busy: try again when the current transfer is done."), true);
        return;
    }
    setStatus(tr("Uploading %n item(s)…", nullptr, int(localPaths.size())), false);
    run([session = m_session, localPaths, destDir] {
        Outcome o;
        int files = 0;
        for (const QString &p : localPaths) {
            auto written = session->uploadPath(p, destDir);
            if (!written) {
                o.message =
                    QObject::tr("%1: %2").arg(QFileInfo(p).fileName(), written.error().message);
                return o;
            }
            files += int(written->size());
        }
        o.ok = true;
        o.message = destDir.isEmpty()
                        ? QObject::tr("Uploaded %n item(s)", nullptr, files)
                        : QObject::tr("Uploaded %n item(s) into %1", nullptr, files).arg(destDir);
        return o;
    });
    m_refreshAfter = true;
}

void SessionFilesPanel::downloadSelectedTo(const QString &localDir)
{
    if (!m_session)
        return;
    QStringList paths;
    for (QTreeWidgetItem *item : m_tree->selectedItems())
        paths << item->data(0, PathRole).toString();
    if (paths.isEmpty()) {
        setStatus(tr("Select files or folders to download."), true);
        return;
    }
    // A folder and its own entries selected together: the folder brings them.
    QStringList top;
    for (const QString &p : std::as_const(paths)) {
        bool covered = false;
        for (const QString &q : std::as_const(paths))
            covered = covered || (q != p && p.startsWith(q + u'/'));
        if (!covered)
            top << p;
    }
    setStatus(tr("Downloading %n item(s)…", nullptr, int(top.size())), false);
    run([session = m_session, top, localDir] {
        Outcome o;
        QStringList refused;
        auto written = session->downloadTo(top, localDir, {}, &refused);
        if (!written) {
            o.message = written.error().message;
            return o;
        }
        o.ok = refused.isEmpty();
        o.message = QObject::tr("Downloaded %n file(s) to %1", nullptr, int(written->size()))
                        .arg(QDir::toNativeSeparators(localDir));
        if (!refused.isEmpty())
            o.message += QObject::tr("; refused: %1").arg(refused.join(u"; "_s));
        return o;
    });
}

void SessionFilesPanel::chooseAndUpload()
{
    const QStringList files =
        QFileDialog::getOpenFileNames(this, tr("Upload files to the session"));
    if (!files.isEmpty())
        uploadLocalPaths(files, targetFolder());
}

void SessionFilesPanel::chooseAndDownload()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Download into folder"));
    if (!dir.isEmpty())
        downloadSelectedTo(dir);
}

QString SessionFilesPanel::targetFolder(QTreeWidgetItem *at) const
{
    QTreeWidgetItem *item = at;
    if (!item) {
        const auto selected = m_tree->selectedItems();
        item = selected.size() == 1 ? selected.first() : nullptr;
    }
    if (!item)
        return {};
    if (item->data(0, IsDirRole).toBool())
        return item->data(0, PathRole).toString();
    return item->parent() ? item->parent()->data(0, PathRole).toString() : QString();
}

void SessionFilesPanel::onFinished()
{
    m_busy = false;
    const Outcome o = m_watcher.result();
    if (o.listing) {
        m_tree->clear();
        if (o.ok) {
            QHash<QString, QTreeWidgetItem *> folders;
            for (const SessionFile &f : o.files) {
                const QString parentPath = f.path.section(u'/', 0, -2);
                QTreeWidgetItem *parent = folders.value(parentPath, m_tree->invisibleRootItem());
                auto *item = new QTreeWidgetItem(parent);
                item->setText(0, f.path.section(u'/', -1) +
                                     (f.isLink ? u" → "_s + f.linkTarget : QString()));
                item->setData(0, PathRole, f.path);
                item->setData(0, IsDirRole, f.isDir);
                item->setIcon(
                    0, style()->standardIcon(f.isDir ? QStyle::SP_DirIcon : QStyle::SP_FileIcon));
                if (!f.isDir)
                    item->setText(1, humanSize(f.size));
                item->setText(
                    2,
                    QDateTime::fromSecsSinceEpoch(f.modified).toString(u"yyyy-MM-dd HH:mm:ss"_s));
                if (f.isDir)
                    folders.insert(f.path, item);
            }
            m_tree->expandToDepth(0);
            // A listing that follows a transfer keeps the transfer's message.
            if (!m_quietRefresh)
                setStatus(tr("%n entries in the work directory", nullptr, int(o.files.size())),
                          false);
        } else {
            setStatus(tr("Could not list the session's files: %1").arg(o.message), true);
        }
        updateActions();
        Q_EMIT refreshed(o.ok);
    } else {
        setStatus(o.message, !o.ok);
        updateActions();
        Q_EMIT transferFinished(o.ok, o.message);
    }
    m_quietRefresh = false;
    if (m_refreshAfter && m_session) {
        m_refreshAfter = false;
        m_quietRefresh = !o.listing;
        refresh();
    }
}

bool SessionFilesPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_tree->viewport()) {
        switch (event->type()) {
        case QEvent::DragEnter:
        case QEvent::DragMove: {
            auto *e = static_cast<QDropEvent *>(event);
            if (m_session && !m_busy && e->mimeData()->hasUrls()) {
                e->acceptProposedAction();
                return true;
            }
            break;
        }
        case QEvent::Drop: {
            auto *e = static_cast<QDropEvent *>(event);
            QStringList paths;
            for (const QUrl &url : e->mimeData()->urls())
                if (url.isLocalFile())
                    paths << url.toLocalFile();
            if (!paths.isEmpty()) {
                e->acceptProposedAction();
                // Dropped on an entry: into its folder; on the empty area: the top level.
                QTreeWidgetItem *at = m_tree->itemAt(e->position().toPoint());
                uploadLocalPaths(paths, at ? targetFolder(at) : QString());
            }
            return true;
        }
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}
