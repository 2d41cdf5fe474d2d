// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/runtime.h"
#include "session/engine.h"

#include <QTimer>
#include <QWidget>
#include <memory>
#include <mutex>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTreeWidget;

/// The "Images" view: every image of the engine with its size and kind (a language's
/// recipe image, a template, another image), and what can be done with them: remove,
/// build from a Dockerfile (context folder, tag, network none or host) with the build log
/// streamed and a progress bar, import a root filesystem tarball, pull by name (a clear
/// error where no registry is reachable), and "Use for runs", which hands the selected
/// reference to the window's image field. Engine calls run on worker threads (ImageTools);
/// their log lines reach the view through a queue drained on the GUI thread.
class ImageManager final : public QWidget
{
    Q_OBJECT

public:
    /// engine may be nullptr: the view then says that no engine is available.
    explicit ImageManager(std::shared_ptr<sandbox::Engine> engine, QWidget *parent = nullptr);
    ~ImageManager() override;

    void setEngine(std::shared_ptr<sandbox::Engine> engine);

    /// References listed ("repo:tag"), in view order.
    QStringList imageRefs() const;
    /// The listed size of ref in bytes, or -1.
    qint64 sizeOf(const QString &ref) const;
    /// The kind shown for ref: "recipe", "template" or "image"; empty when not listed.
    QString kindOf(const QString &ref) const;
    void selectRef(const QString &ref);
    QString selectedRef() const;

    QPlainTextEdit *logView() const { return m_log; }
    QProgressBar *progressBar() const { return m_progress; }
    QString statusText() const;
    bool isBusy() const { return m_busy; }

public Q_SLOTS:
    void refresh();
    /// Builds contextDir's Dockerfile as tag (network none unless host is true).
    void buildFromDirectory(const QString &contextDir, const QString &tag, bool host = false);
    /// Imports a root filesystem tarball as ref.
    void importRootfs(const QString &tarFile, const QString &ref);
    void pull(const QString &ref);
    /// Removes ref (asks nothing; the button asks first).
    void removeImage(const QString &ref);

Q_SIGNALS:
    /// The list was read (ok) or could not be.
    void refreshed(bool ok);
    /// A build, import, pull or removal ended; message is the status line's.
    void operationFinished(bool ok, const QString &message);
    /// "Use for runs" on ref.
    void imageChosen(const QString &ref);

private:
    /// Shared with the worker: log lines and progress, drained on the GUI thread.
    struct Job
    {
        std::mutex mutex;
        QStringList lines;
        int percent = -1;
        bool done = false;
        bool ok = false;
        bool listing = false;
        QString message;
        QList<sandbox::ImageInfo> images;
    };

    void start(const QString &what, std::function<void(Job &)> work);
    void drain();
    void showImages(const QList<sandbox::ImageInfo> &images);
    void setStatus(const QString &text, bool error);
    void updateActions();
    void askAndRemove();
    void chooseContext();
    void chooseRootfs();

    std::shared_ptr<sandbox::Engine> m_engine;
    std::shared_ptr<Job> m_job;
    QTimer m_drain;
    bool m_busy = false;
    bool m_refreshAfter = false;
    QString m_statusText;

    QTreeWidget *m_list = nullptr;
    QPushButton *m_refreshButton = nullptr;
    QPushButton *m_removeButton = nullptr;
    QPushButton *m_useButton = nullptr;
    QLineEdit *m_contextEdit = nullptr;
    QLineEdit *m_tagEdit = nullptr;
    QComboBox *m_networkPicker = nullptr;
    QPushButton *m_buildButton = nullptr;
    QLineEdit *m_rootfsEdit = nullptr;
    QLineEdit *m_importRefEdit = nullptr;
    QPushButton *m_importButton = nullptr;
    QLineEdit *m_pullEdit = nullptr;
    QPushButton *m_pullButton = nullptr;
    QProgressBar *m_progress = nullptr;
    QPlainTextEdit *m_log = nullptr;
    QLabel *m_status = nullptr;
};
