// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "notebookcell.h"
#include "session/engine.h"
#include "session/notebook.h"
#include "session/runtypes.h"
#include "util/canceltoken.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QWidget>
#include <memory>

class QAction;
class QProgressBar;
class QScrollArea;
class QToolBar;
class QVBoxLayout;

/// An interactive notebook on one kernel sandbox (sandbox::NotebookSession): a list of
/// NotebookCells and a header with the kernel's status and the notebook's actions.
///
/// The session starts on the first run, for language() with the limits and network of
/// setLimits(); it is created, executed on, restarted and closed on worker threads, so the
/// GUI thread never waits for the engine. Runs queue in order, one cell at a time; a cell
/// that fails (or is interrupted) drops the cells queued after it, as Jupyter does. Engine
/// errors (unreachable, no kernel for the language, the kernel died) show in the cell that
/// asked and leave the notebook usable. Destroying the widget closes the session in the
/// background (its sandbox is removed).
class NotebookConsole final : public QWidget
{
    Q_OBJECT

public:
    enum class KernelState
    {
        None,     ///< no session; the next run starts one
        Starting, ///< creating the sandbox and starting the kernel
        Idle,
        Busy, ///< a cell is running
        Interrupting,
        Restarting
    };
    Q_ENUM(KernelState)

    /// engine may be nullptr: runs then report that no container engine is available.
    explicit NotebookConsole(std::shared_ptr<sandbox::Engine> engine, QWidget *parent = nullptr);
    ~NotebookConsole() override;

    void setEngine(std::shared_ptr<sandbox::Engine> engine);

    /// LanguageRegistry id or alias. A session of another language is closed (in the
    /// background); the next run starts one for the new language.
    void setLanguage(const QString &id);
    QString language() const { return m_language; }
    /// Memory, CPU, processes and network of the next session (a running one keeps its
    /// own); the time limit applies to every cell from the next one on: a cell that runs
    /// longer than limits.timeoutMs is interrupted.
    void setLimits(const sandbox::Limits &limits, sandbox::NetworkMode network);

    /// Image of the next session; empty = the language's own. A running session is closed.
    void setImage(const QString &image);
    QString image() const { return m_image; }
    /// The running session (files panel, templates); nullptr while there is none.
    std::shared_ptr<sandbox::NotebookSession> session() const { return m_session; }

    KernelState kernelState() const { return m_state; }
    /// Whether a session exists or is starting (the kernel holds state).
    bool hasSession() const;
    /// "Python 3.13.5", empty before the kernel said.
    QString kernelDisplay() const;
    /// The status line in the header ("Python 3.13.5 · idle").
    QString statusText() const;

    int cellCount() const { return int(m_cells.size()); }
    NotebookCell *cell(int index) const { return m_cells.value(index); }
    int indexOf(const NotebookCell *cell) const;
    NotebookCell *currentCell() const { return m_current; }
    /// Inserts a cell at index (-1: at the end) and focuses it.
    NotebookCell *insertCell(int index = -1, const QString &source = {});
    void setCurrentCell(NotebookCell *cell);
    /// Cells waiting to run, the running one first.
    int pendingCount() const;

    QAction *runAction() const { return m_runAction; }
    QAction *runAllAction() const { return m_runAllAction; }
    QAction *interruptAction() const { return m_interruptAction; }
    QAction *restartAction() const { return m_restartAction; }
    QAction *clearAction() const { return m_clearAction; }
    QAction *addCellAction() const { return m_addAction; }
    QAction *exportAction() const { return m_exportAction; }

    /// The notebook as nbformat 4.5 JSON (https://nbformat.readthedocs.io, "The Notebook
    /// file format"): code cells with source as lines, execution counts and outputs
    /// (stream, execute_result, display_data with base64 images, error). Notices (engine
    /// errors) are not part of it.
    QJsonObject toIpynb() const;
    /// Writes toIpynb() to path atomically. Errors: the file's error string in *error.
    bool saveIpynb(const QString &path, QString *error = nullptr) const;

public Q_SLOTS:
    /// Queues cell (by default the current one) to run.
    void runCell(NotebookCell *cell = nullptr,
                 NotebookCell::RunMode mode = NotebookCell::RunMode::InPlace);
    void runAll();
    /// Interrupts the running cell (KeyboardInterrupt; variables stay) and drops the queue;
    /// while the kernel starts, cancels the start.
    void interrupt();
    /// Starts a fresh kernel (all variables lost) without asking.
    void restartKernel();
    /// Asks, then restartKernel().
    void confirmRestart();
    void clearOutputs();
    /// Asks for a file name and saves the notebook as .ipynb.
    void exportIpynb();
    /// Closes the session in the background; the next run starts a new one.
    void shutdownKernel();

Q_SIGNALS:
    void kernelStateChanged(NotebookConsole::KernelState state);
    /// A cell finished: ok is false for errors, interrupts and engine failures.
    void cellFinished(NotebookCell *cell, bool ok);
    /// cell showed an image (display_data or execute_result): data is the encoded image
    /// ("image/png", "image/jpeg", "image/gif"), as the cell shows it.
    void imageDisplayed(NotebookCell *cell, const QString &mimeType, const QByteArray &data);

private:
    struct Channel;
    class StatusLabel;
    /// A queued run: the code as it was when the run was asked for, as Jupyter does.
    struct Pending
    {
        QPointer<NotebookCell> cell;
        QString code;
    };
    struct StartSlot;

    void createActions();
    void createHeader();
    void connectCell(NotebookCell *cell);
    void deleteCell(NotebookCell *cell);
    void moveCell(NotebookCell *cell, int delta);
    void focusNeighbour(NotebookCell *cell, int direction);
    void ensureVisible(NotebookCell *cell);

    void pump();
    void startSession();
    void onSessionStarted(quint64 generation, const std::shared_ptr<StartSlot> &slot,
                          const sandbox::Result<void> &result);
    void executeNext(const Pending &next);
    void drainOutputs();
    /// Adds output to cell and reports an image in it.
    void showOutput(NotebookCell *cell, const sandbox::CellOutput &output);
    void onExecuted(const std::shared_ptr<Channel> &channel,
                    const sandbox::Result<sandbox::CellResult> &result);
    void doRestart();
    /// Returns the queued cells to idle without running them.
    void failQueue();
    /// Closes the session in the background; note says why, in the status line.
    void dropSession(const QString &note, bool error);
    void setState(KernelState state);
    void updateActions();
    void updateStatus();
    QString languageName() const;

    std::shared_ptr<sandbox::Engine> m_engine;
    std::shared_ptr<sandbox::NotebookSession> m_session;
    QString m_language;
    QString m_image;
    QString m_kernelVersion;
    sandbox::Limits m_limits;
    sandbox::NetworkMode m_network = sandbox::NetworkMode::None;
    KernelState m_state = KernelState::None;
    QString m_statusText;
    QString m_note; // why there is no kernel (shown in the status line)
    bool m_noteIsError = false;
    bool m_restartPending = false;
    quint64 m_generation = 0; // bumped when a session is dropped; stale results are ignored
    sandbox::CancelToken m_startCancel;
    std::shared_ptr<StartSlot> m_startSlot;
    qint64 m_cellTimeoutMs = 0; // of the running cell
    QString m_exportPath;

    QList<NotebookCell *> m_cells;
    QList<Pending> m_queue;
    QPointer<NotebookCell> m_running;
    QPointer<NotebookCell> m_current;
    std::shared_ptr<Channel> m_channel;
    QElapsedTimer m_cellTimer;

    QToolBar *m_toolBar = nullptr;
    QWidget *m_header = nullptr;
    StatusLabel *m_status = nullptr;
    QProgressBar *m_busy = nullptr;
    QScrollArea *m_scroll = nullptr;
    QWidget *m_cellsWidget = nullptr;
    QVBoxLayout *m_cellsLayout = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_runAllAction = nullptr;
    QAction *m_interruptAction = nullptr;
    QAction *m_restartAction = nullptr;
    QAction *m_clearAction = nullptr;
    QAction *m_addAction = nullptr;
    QAction *m_exportAction = nullptr;
};
