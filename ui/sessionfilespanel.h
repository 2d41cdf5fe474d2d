// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/notebook.h"

#include <QFutureWatcher>
#include <QStringList>
#include <QWidget>
#include <memory>

class QLabel;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

/// The "Session Files" dock: the work directory of the notebook session (a tree of its
/// files and folders with sizes), uploads from this machine (button, or drag and drop of
/// files and folders from the desktop onto the tree; dropped on a folder, they go into
/// it), downloads of the selected entries into a local folder, and refresh. Every
/// transfer runs on a worker thread through NotebookSession's file methods, which refuse
/// paths that leave the work directory and cap sizes; the outcome shows in the status
/// line. Without a session the panel says how to get one.
class SessionFilesPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit SessionFilesPanel(QWidget *parent = nullptr);
    ~SessionFilesPanel() override;

    /// The session whose files are shown (nullptr: none). A new session is listed at once.
    void setSession(std::shared_ptr<sandbox::NotebookSession> session);
    std::shared_ptr<sandbox::NotebookSession> session() const { return m_session; }

    /// Paths of the listed entries relative to the work directory ("data/a.csv"; folders
    /// end with '/'), in tree order.
    QStringList listedPaths() const;
    /// Selects the entries with these paths (folders without the trailing '/').
    void selectPaths(const QStringList &paths);
    /// The status line ("Uploaded 2 files", "Refused: ...").
    QString statusText() const;
    bool isBusy() const { return m_busy; }
    QTreeWidget *tree() const { return m_tree; }

public Q_SLOTS:
    /// Lists the work directory again.
    void refresh();
    /// Uploads local files and folders into destDir of the work directory ("" = top).
    void uploadLocalPaths(const QStringList &localPaths, const QString &destDir = {});
    /// Downloads the selected entries into localDir (created), keeping their paths.
    void downloadSelectedTo(const QString &localDir);
    /// Asks for files, then uploads them into the selected folder (or the top).
    void chooseAndUpload();
    /// Asks for a local folder, then downloads the selection into it.
    void chooseAndDownload();

Q_SIGNALS:
    /// A listing arrived (ok) or failed.
    void refreshed(bool ok);
    /// An upload or download finished; message is what the status line says.
    void transferFinished(bool ok, const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Outcome
    {
        bool ok = false;
        QString message;
        QList<sandbox::SessionFile> files; ///< listings only
        bool listing = false;
    };

    void run(std::function<Outcome()> job);
    void onFinished();
    void setStatus(const QString &text, bool error);
    void updateActions();
    /// The folder an upload goes to: the selected folder, or the selected file's folder.
    QString targetFolder(QTreeWidgetItem *at = nullptr) const;

    std::shared_ptr<sandbox::NotebookSession> m_session;
    QTreeWidget *m_tree = nullptr;
    QLabel *m_status = nullptr;
    QToolButton *m_refreshButton = nullptr;
    QToolButton *m_uploadButton = nullptr;
    QToolButton *m_downloadButton = nullptr;
    QFutureWatcher<Outcome> m_watcher;
    bool m_busy = false;
    bool m_refreshAfter = false;
    bool m_quietRefresh = false; ///< the running listing follows a transfer
    QString m_statusText;
};
