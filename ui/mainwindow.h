// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "codeeditor.h"
#include "outputconsole.h"
#include "session/backendprofiles.h"
#include "session/engine.h"
#include "util/canceltoken.h"
#include "util/error.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QTimer>
#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QSettings;
class QSplitter;
class QStackedWidget;
class QToolBar;

class ArtifactGallery;
class EngineBanner;
class ImageManager;
class SessionFilesPanel;
class LimitsPanel;
class McpActivityFeed;
class McpHost;
class McpPanel;
class NotebookConsole;
class PoolPanel;

/// The application's main window: editor, language and backend pickers, Run/Stop, the
/// output console (with the run's images and files inline), the limits dock and the
/// artifact gallery dock; or, in notebook mode (Ctrl+Shift+N), a
/// NotebookConsole on a kernel of the same language with the same limits. Runs go to the engine on
/// worker threads; the GUI thread never blocks.
///
/// Remembers across restarts: the code (one draft per language, autosaved a second after
/// the last edit and on close, under QStandardPaths::AppDataLocation/drafts; restored
/// after a crash), the
/// language, limits, network switch, window geometry and layout (QSettings file
/// sandbox-studio.conf under QStandardPaths::AppConfigLocation).
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    /// engine may be nullptr (it could not be created): the window then shows the error
    /// banner, and Run reports the problem in the console.
    explicit MainWindow(std::shared_ptr<sandbox::Engine> engine, QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Why the engine could not be created (shown in the banner when engine is nullptr).
    void setEngineError(const sandbox::Error &error);

    /// Switches to the backend profile named name (the picker does this): a new engine,
    /// pool and notebook engine, then a connection check; remembered as the current
    /// profile. Errors (unknown profile, bad endpoint) show in the banner, naming the
    /// profile and the endpoint. Returns false when no engine could be made. Not while
    /// a run is going (the picker is disabled then).
    bool selectBackend(const QString &name);
    /// The profile store the picker lists (shared with the CLI; tests point it elsewhere
    /// with SANDBOX_STUDIO_PROFILES).
    sandbox::BackendProfileStore &profileStore() { return m_profiles; }
    /// Opens the Backend Profiles dialog (non-modal); the picker follows its changes.
    class BackendProfileDialog *showBackendProfiles();

    CodeEditor *editor() const { return m_editor; }
    OutputConsole *console() const { return m_console; }
    LimitsPanel *limitsPanel() const { return m_limits; }
    NotebookConsole *notebook() const { return m_notebook; }
    /// The session's artifacts (the "Artifacts" dock).
    ArtifactGallery *artifactGallery() const { return m_gallery; }
    QDockWidget *artifactsDock() const { return m_artifactsDock; }
    QAction *notebookModeAction() const { return m_notebookAction; }
    /// The "Sandbox Pool" dock: pool settings and live counts.
    PoolPanel *poolPanel() const { return m_poolPanel; }
    QDockWidget *poolDock() const { return m_poolDock; }
    /// The pool handed to the engine (nullptr while off or still being set up).
    std::shared_ptr<sandbox::SandboxPool> pool() const { return m_pool; }
    /// The MCP server hosted by the window, its "MCP Server" dock (endpoint, token,
    /// clients, approval mode) and its "MCP Activity" dock (every call, live).
    McpHost *mcpHost() const { return m_mcpHost; }
    McpPanel *mcpPanel() const { return m_mcpPanel; }
    QDockWidget *mcpDock() const { return m_mcpDock; }
    McpActivityFeed *mcpActivity() const { return m_mcpActivity; }
    QDockWidget *mcpActivityDock() const { return m_mcpActivityDock; }
    /// Opens the "Configure Claude Desktop" dialog.
    QAction *configureClaudeAction() const { return m_configureClaudeAction; }
    /// Whether the notebook is shown instead of the script editor and console.
    bool isNotebookMode() const;
    /// The "Session Files" dock: the notebook session's work directory.
    SessionFilesPanel *filesPanel() const { return m_filesPanel; }
    QDockWidget *filesDock() const { return m_filesDock; }
    /// The "Images" dock: list, build, import, pull, remove.
    ImageManager *imageManager() const { return m_imageManager; }
    QDockWidget *imagesDock() const { return m_imagesDock; }
    /// The toolbar's image field (editable; empty = the language's own image).
    QComboBox *imagePicker() const { return m_imagePicker; }
    /// The image runs and notebook sessions use; empty = the language's own.
    QString customImage() const;

    /// Selects a language by LanguageRegistry id or alias ("python", "js"); unknown ids
    /// are ignored.
    void setLanguage(const QString &id);
    /// LanguageRegistry id of the selected language.
    QString language() const { return m_language; }

    bool isRunning() const { return m_running; }

    /// The settings file the window reads and writes (StudioSettings::filePath()).
    QSettings *settings() const { return m_settings; }
    /// Loads a code file into the editor (language from its extension) and puts it first
    /// in the recent files. Returns false (and says why in the status bar) when it cannot
    /// be read.
    bool openFile(const QString &path);
    /// Writes the editor's code to path; adds it to the recent files.
    bool saveFileAs(const QString &path);
    /// Actions with keyboard shortcuts, for the Help page.
    QList<QAction *> shortcutActions() const;
    QAction *preferencesAction() const { return m_preferencesAction; }
    QAction *helpAction() const { return m_helpAction; }
    QAction *setupAction() const { return m_setupAction; }
    QMenu *recentFilesMenu() const { return m_recentMenu; }
    /// Whether the last engine check succeeded.
    bool isEngineReachable() const { return m_engineReachable; }
    /// Milliseconds until the next automatic reconnect attempt; -1 when none is scheduled
    /// (the engine answers). Attempts back off from 1 s, doubling up to 30 s.
    int reconnectInMs() const { return m_reconnect.isActive() ? m_reconnect.remainingTime() : -1; }

public Q_SLOTS:
    /// Runs the editor's code with the panel's limits. Does nothing while a run is going.
    void runCode();
    /// Cancels the current run (the sandbox is killed and removed by the engine).
    void stopRun();
    /// Pings the engine on a worker thread and updates the status bar and banner.
    void checkEngine();
    /// Shows the notebook (true) or the script editor and console (false).
    void setNotebookMode(bool on);
    /// Preferences dialog (Ctrl+,); on OK/Apply the limits and pool are re-read.
    void showPreferences();
    /// The Help page (F1): shortcuts, command line, MCP.
    void showHelp();
    /// The setup check: engines, images, building missing images.
    void showSetupCheck();
    /// Puts code (of LanguageRegistry id language) in the script editor, switching the
    /// language, e.g. an MCP call's code ("Open in Editor"; source names it). When the
    /// editor holds the person's own code, asks first (a window-modal question that does
    /// not block), and keeps that code: Undo brings it back, and a copy goes to
    /// drafts/kept/ under the app data folder.
    void openInEditor(const QString &language, const QString &code, const QString &source);
    /// Saves the notebook session as template image ref (asks for a name when empty) on a
    /// worker; templateSaved() tells how it went.
    void saveSessionAsTemplate(const QString &ref = {});

Q_SIGNALS:
    /// ok: refOrError is the template's reference; else the error for people.
    void templateSaved(bool ok, const QString &refOrError);
    void runStarted();
    /// ok: the engine returned a RunResult (whatever the program's exit code).
    void runFinished(bool ok);
    /// After each engine check.
    void engineChecked(bool reachable);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    struct RunChannel;

    void createActions();
    void createToolBar();
    void createCentralArea();
    void createDock();
    void createMenus();
    void createStatusBar();
    void createMcp();
    void replaceEditorCode(const QString &language, const QString &code, const QString &source);

    void applyLanguage(const QString &id);
    void applyLimitsToNotebook();
    void updateRunActions();
    void finishRun(bool ok);
    void drainRunOutput();
    void onRunDone(const std::shared_ptr<RunChannel> &channel,
                   const sandbox::Result<sandbox::RunResult> &result);
    void onEngineChecked(const sandbox::Result<sandbox::RuntimeInfo> &result);
    void showEngineProblem(const sandbox::Error &error);
    void updateElapsed();
    void showAbout();
    void createDesktopActions();
    void updateRecentFilesMenu();
    void openFileDialog();
    void saveFileDialog();
    /// Limits and pool from the settings into the docks (after Preferences).
    void restoreLimitsAndPool();
    void retryEngine();
    /// Schedules the next automatic engine check (backoff) unless one is pending.
    void scheduleReconnect();
    void cancelInBackground();
    /// Opens the policy editor; an accepted policy is stored and used from the next run.
    void editPolicy();
    /// Checks the editor's code with the active policy and marks the findings.
    void updateFindings();

    QString endpoint() const;
    /// Fills the backend picker from the store, selecting the current engine's profile.
    void populateBackendPicker();
    QString draftPath(const QString &language) const;
    void loadDraftOrSample(const QString &language);
    void saveDraft();
    void saveSettings();
    void restoreSettings();
    void savePoolSettings();
    /// Drops the current pool (shut down on a worker) and, when the pool is on, creates a
    /// new one on a worker with the panel's settings and pre-warms the current limits.
    void applyPoolSettings();
    void dropPool();

    std::shared_ptr<sandbox::Engine> m_engine;
    sandbox::Policy m_policy; ///< active policy (PolicyDialog::storagePath())
    QTimer m_policyCheck;     ///< debounces the live check while typing
    QAction *m_policyAction = nullptr;
    std::optional<sandbox::Error> m_engineError;
    sandbox::BackendProfileStore m_profiles;
    QAction *m_profilesAction = nullptr;
    QSettings *m_settings;
    QToolBar *m_toolBar = nullptr;

    CodeEditor *m_editor = nullptr;
    OutputConsole *m_console = nullptr;
    LimitsPanel *m_limits = nullptr;
    EngineBanner *m_banner = nullptr;
    QSplitter *m_splitter = nullptr;
    QStackedWidget *m_views = nullptr;
    NotebookConsole *m_notebook = nullptr;
    QMenu *m_notebookMenu = nullptr;
    QAction *m_notebookAction = nullptr;
    QDockWidget *m_limitsDock = nullptr;
    ArtifactGallery *m_gallery = nullptr;
    QDockWidget *m_artifactsDock = nullptr;
    PoolPanel *m_poolPanel = nullptr;
    QDockWidget *m_poolDock = nullptr;
    McpHost *m_mcpHost = nullptr;
    McpPanel *m_mcpPanel = nullptr;
    QDockWidget *m_mcpDock = nullptr;
    McpActivityFeed *m_mcpActivity = nullptr;
    QDockWidget *m_mcpActivityDock = nullptr;
    QAction *m_configureClaudeAction = nullptr;
    std::shared_ptr<sandbox::SandboxPool> m_pool;
    quint64 m_poolGeneration = 0; // bumped on every apply; stale creations are shut down
    QTimer m_poolRebuild;
    QComboBox *m_languagePicker = nullptr;
    QComboBox *m_imagePicker = nullptr;
    SessionFilesPanel *m_filesPanel = nullptr;
    QDockWidget *m_filesDock = nullptr;
    ImageManager *m_imageManager = nullptr;
    QDockWidget *m_imagesDock = nullptr;
    QAction *m_saveTemplateAction = nullptr;
    QComboBox *m_backendPicker = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_clearAction = nullptr;
    QAction *m_retryAction = nullptr;
    QAction *m_aboutAction = nullptr;
    QAction *m_quitAction = nullptr;
    QAction *m_openAction = nullptr;
    QAction *m_saveAsAction = nullptr;
    QAction *m_preferencesAction = nullptr;
    QAction *m_helpAction = nullptr;
    QAction *m_setupAction = nullptr;
    QAction *m_fullScreenAction = nullptr;
    QList<QAction *> m_languageActions;
    QMenu *m_recentMenu = nullptr;
    QLabel *m_backendStatus = nullptr;
    QLabel *m_runStatus = nullptr;
    QProgressBar *m_busy = nullptr;

    QString m_language;
    QString m_phase; // what the run is doing, from RunObserver::onStatus
    QString m_engineVersion;
    QString m_runSource; // "Run 2 · Python · 14:03:11", for the gallery
    int m_runCount = 0;
    int m_notebookImageCount = 0;
    bool m_running = false;
    bool m_stopping = false;
    bool m_checking = false;
    bool m_engineReachable = false;
    bool m_settingText = false;
    bool m_draftDirty = false;
    sandbox::CancelToken m_cancel;
    std::shared_ptr<RunChannel> m_channel;
    qint64 m_streamedBytes = 0;
    QTimer m_autosave;
    QTimer m_reconnect;            ///< automatic engine checks while it is unreachable
    int m_reconnectDelayMs = 0;    ///< the next backoff step
    bool m_wasUnreachable = false; ///< the pool is rebuilt when the engine comes back
    QTimer m_elapsedTimer;
    QElapsedTimer m_elapsed;
};
