// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "aboutdialog.h"
#include "artifactgallery.h"
#include "backendprofiledialog.h"
#include "claudedesktopdialog.h"
#include "codeeditor.h"
#include "enginebanner.h"
#include "firstrundialog.h"
#include "imagemanager.h"
#include "images/template.h"
#include "languages/language.h"
#include "limitspanel.h"
#include "mcpactivity.h"
#include "mcphost.h"
#include "mcppanel.h"
#include "notebookconsole.h"
#include "outputconsole.h"
#include "policydialog.h"
#include "poolpanel.h"
#include "preferencesdialog.h"
#include "session/pool.h"
#include "sessionfilespanel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTextCursor>
#include <QThread>
#include <QTime>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <mutex>

using namespace Qt::StringLiterals;
using namespace sandbox;

namespace {

constexpr int AutosaveDelayMs = 1000;
constexpr int ElapsedRefreshMs = 100;
constexpr int PoolRebuildDelayMs = 400;
// Automatic reconnect while the engine is unreachable: 1 s, 2 s, 4 s, ... up to 30 s.
constexpr int ReconnectFirstMs = 1000;
constexpr int ReconnectMaxMs = 30'000;

namespace key {
constexpr auto Language = "language"_L1;
constexpr auto Geometry = "window/geometry"_L1;
constexpr auto State = "window/state"_L1;
constexpr auto Splitter = "window/splitter"_L1;
constexpr auto NotebookMode = "window/notebookMode"_L1;
constexpr auto NanoCpus = "limits/nanoCpus"_L1;
constexpr auto Memory = "limits/memoryBytes"_L1;
constexpr auto Pids = "limits/pids"_L1;
constexpr auto Timeout = "limits/timeoutMs"_L1;
constexpr auto Output = "limits/outputBytes"_L1;
constexpr auto Network = "limits/network"_L1;
constexpr auto PoolEnabled = "pool/enabled"_L1;
constexpr auto PoolZygotes = "pool/zygotes"_L1;
constexpr auto PoolMax = "pool/maxPerKey"_L1;
constexpr auto PoolWarm = "pool/warm/"_L1; // + language id
} // namespace key

QIcon themedIcon(QIcon::ThemeIcon icon, QStyle::StandardPixmap fallback, const QWidget *widget)
{
    return QIcon::fromTheme(icon, widget->style()->standardIcon(fallback, nullptr, widget));
}

/// "Docker 20.10.24" from {name "Docker Engine", version "20.10.24+dfsg1"}.
QString engineTitle(const RuntimeInfo &info)
{
    const QString product = info.isPodman ? u"Podman"_s : u"Docker"_s;
    return product + u' ' + info.version.section(u'+', 0, 0);
}

} // namespace

/// Carries a run's events from the engine's worker thread to the window. Events are
/// queued under a mutex and at most one drain is posted at a time, so a flood of small
/// chunks becomes a few GUI-thread calls. The window detaches itself when it is
/// destroyed, after which events are dropped.
struct MainWindow::RunChannel
{
    enum class Kind
    {
        Stdout,
        Stderr,
        Status
    };
    struct Event
    {
        Kind kind;
        QByteArray data;
        QString status;
    };

    explicit RunChannel(MainWindow *window)
        : target(window)
    {}

    void push(Kind kind, QByteArrayView data, const QString &status = {})
    {
        std::lock_guard lock(mutex);
        if (!target)
            return;
        if (kind != Kind::Status && !events.isEmpty() && events.last().kind == kind)
            events.last().data.append(data);
        else
            events.append(Event{kind, data.toByteArray(), status});
        if (!drainPosted) {
            drainPosted = true;
            QMetaObject::invokeMethod(target, &MainWindow::drainRunOutput, Qt::QueuedConnection);
        }
    }

    QList<Event> take()
    {
        std::lock_guard lock(mutex);
        drainPosted = false;
        return std::exchange(events, {});
    }

    void detach()
    {
        std::lock_guard lock(mutex);
        target = nullptr;
    }

    std::mutex mutex;
    MainWindow *target;
    QList<Event> events;
    bool drainPosted = false;
};

MainWindow::MainWindow(std::shared_ptr<sandbox::Engine> engine, QWidget *parent)
    : QMainWindow(parent)
    , m_engine(std::move(engine))
    , m_settings(new QSettings(StudioSettings::filePath(), QSettings::IniFormat, this))
{
    setWindowTitle(tr("Sandbox Studio"));
    setObjectName(u"mainWindow"_s);

    createActions();
    createCentralArea();
    createToolBar();
    createDock();
    createMenus();
    createStatusBar();
    createMcp();

    m_autosave.setSingleShot(true);
    m_autosave.setInterval(AutosaveDelayMs);
    connect(&m_autosave, &QTimer::timeout, this, &MainWindow::saveDraft);
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        if (m_settingText)
            return;
        m_draftDirty = true;
        m_autosave.start();
    });

    // The security policy: stored by the policy editor, checked live while typing and by
    // the engine before every run.
    QString policyError;
    m_policy = PolicyDialog::loadStored(&policyError);
    if (!policyError.isEmpty())
        m_console->appendStatus(
            tr("The stored policy could not be read (%1); using standard.").arg(policyError));
    if (m_engine)
        m_engine->setPolicy(m_policy);
    m_policyCheck.setSingleShot(true);
    m_policyCheck.setInterval(300);
    connect(&m_policyCheck, &QTimer::timeout, this, &MainWindow::updateFindings);
    connect(m_editor, &QPlainTextEdit::textChanged, &m_policyCheck, qOverload<>(&QTimer::start));
    m_reconnect.setSingleShot(true);
    m_reconnectDelayMs = ReconnectFirstMs;
    connect(&m_reconnect, &QTimer::timeout, this, &MainWindow::retryEngine);

    m_elapsedTimer.setInterval(ElapsedRefreshMs);
    connect(&m_elapsedTimer, &QTimer::timeout, this, &MainWindow::updateElapsed);

    restoreSettings();
    updateRunActions();
    m_editor->setFocus();

    // Connected after restoreSettings() so restoring does not rebuild the pool repeatedly.
    m_poolRebuild.setSingleShot(true);
    m_poolRebuild.setInterval(PoolRebuildDelayMs);
    connect(&m_poolRebuild, &QTimer::timeout, this, &MainWindow::applyPoolSettings);
    connect(m_poolPanel, &PoolPanel::settingsChanged, this, [this] {
        savePoolSettings();
        m_poolRebuild.start();
    });
    connect(m_limits, &LimitsPanel::limitsChanged, this, [this] {
        if (m_poolPanel->poolEnabled())
            m_poolRebuild.start();
    });
    applyPoolSettings();

    // Ask the engine once the window is up; the answer arrives from a worker thread.
    if (m_engine)
        QMetaObject::invokeMethod(this, &MainWindow::checkEngine, Qt::QueuedConnection);
    else
        showEngineProblem(Error{ErrorCode::Internal, tr("No container engine was set up."), {}});
}

MainWindow::~MainWindow()
{
    if (m_channel)
        m_channel->detach();
    if (m_running)
        m_cancel.cancel(); // the engine removes the sandbox on its way out
    saveDraft();
    ++m_poolGeneration;
    dropPool();
}

void MainWindow::dropPool()
{
    if (m_engine && m_pool && m_engine->pool() == m_pool)
        m_engine->setPool(nullptr);
    if (m_poolPanel)
        m_poolPanel->setPool(nullptr);
    if (auto old = std::exchange(m_pool, nullptr))
        // shutdown() removes every sandbox and waits for the pool's threads: not here.
        (void)QtConcurrent::run([old = std::move(old)] { old->shutdown(); });
}

void MainWindow::applyPoolSettings()
{
    m_poolRebuild.stop();
    const quint64 generation = ++m_poolGeneration;
    dropPool();
    if (!m_engine || !m_poolPanel->poolEnabled())
        return;

    const QHash<QString, int> warm = m_poolPanel->warmCounts();
    PoolOptions options;
    options.maxSize = m_poolPanel->maxPerKey();
    options.zygotes = m_poolPanel->zygotesEnabled() && zygotesByDefault();
    // Languages without a count keep none warm; each language keeps its own count.
    options.minWarm = 0;
    options.minWarmByLanguage = warm;

    const Limits limits = m_limits->limits();
    const NetworkMode network =
        m_limits->networkEnabled() ? NetworkMode::Bridge : NetworkMode::None;
    QList<PoolKey> keys;
    for (auto it = warm.cbegin(); it != warm.cend(); ++it) {
        if (it.value() <= 0)
            continue;
        const auto image = Engine::defaultImageFor(it.key());
        if (!image)
            continue;
        keys.append(
            PoolKey::from(m_engine->runtime().backend(), it.key(), *image, limits, network));
        m_poolPanel->noteKey(keys.last());
    }

    auto future = QtConcurrent::run([runtime = m_engine->runtimePtr(), options, keys] {
        auto pool = SandboxPool::create(runtime, options);
        for (const PoolKey &k : keys)
            (void)pool->prewarm(k); // creation happens on the pool's threads
        return pool;
    });
    future.then(this, [this, generation](std::shared_ptr<SandboxPool> pool) {
        if (generation != m_poolGeneration || !m_engine) {
            (void)QtConcurrent::run([pool = std::move(pool)] { pool->shutdown(); });
            return;
        }
        m_pool = std::move(pool);
        m_engine->setPool(m_pool);
        m_poolPanel->setPool(m_pool);
    });
}

void MainWindow::savePoolSettings()
{
    m_settings->setValue(key::PoolEnabled, m_poolPanel->poolEnabled());
    m_settings->setValue(key::PoolZygotes, m_poolPanel->zygotesEnabled());
    m_settings->setValue(key::PoolMax, m_poolPanel->maxPerKey());
    const QHash<QString, int> warm = m_poolPanel->warmCounts();
    for (auto it = warm.cbegin(); it != warm.cend(); ++it)
        m_settings->setValue(key::PoolWarm + it.key(), it.value());
    m_settings->sync();
}

void MainWindow::setEngineError(const sandbox::Error &error)
{
    m_engineError = error;
    if (!m_engine)
        showEngineProblem(error);
}

// ---------------------------------------------------------------------------------------
// Construction

void MainWindow::createActions()
{
    m_runAction =
        new QAction(themedIcon(QIcon::ThemeIcon::MediaPlaybackStart, QStyle::SP_MediaPlay, this),
                    tr("&Run"), this);
    m_runAction->setObjectName(u"runAction"_s);
    m_runAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_runAction->setToolTip(tr("Run the code in a fresh sandbox (%1)")
                                .arg(m_runAction->shortcut().toString(QKeySequence::NativeText)));
    m_runAction->setStatusTip(tr("Run the code in a fresh, isolated sandbox"));
    connect(m_runAction, &QAction::triggered, this, &MainWindow::runCode);

    m_stopAction =
        new QAction(themedIcon(QIcon::ThemeIcon::MediaPlaybackStop, QStyle::SP_MediaStop, this),
                    tr("&Stop"), this);
    m_stopAction->setObjectName(u"stopAction"_s);
    m_stopAction->setShortcuts(
        {QKeySequence(Qt::Key_Escape), QKeySequence(Qt::CTRL | Qt::Key_Period)});
    m_stopAction->setToolTip(tr("Stop the run and remove its sandbox (%1)")
                                 .arg(m_stopAction->shortcut().toString(QKeySequence::NativeText)));
    m_stopAction->setStatusTip(tr("Stop the running program"));
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopRun);

    m_clearAction =
        new QAction(themedIcon(QIcon::ThemeIcon::EditClear, QStyle::SP_DialogResetButton, this),
                    tr("&Clear Output"), this);
    m_clearAction->setObjectName(u"clearAction"_s);
    m_clearAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_clearAction->setToolTip(
        tr("Clear the output (%1)")
            .arg(m_clearAction->shortcut().toString(QKeySequence::NativeText)));

    m_notebookAction = new QAction(
        themedIcon(QIcon::ThemeIcon::DocumentProperties, QStyle::SP_FileDialogDetailedView, this),
        tr("&Notebook"), this);
    m_notebookAction->setObjectName(u"notebookModeAction"_s);
    m_notebookAction->setCheckable(true);
    m_notebookAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_notebookAction->setToolTip(
        tr("Switch between the script and an interactive notebook whose variables persist "
           "between cells (%1)")
            .arg(m_notebookAction->shortcut().toString(QKeySequence::NativeText)));
    m_notebookAction->setStatusTip(tr("Show the notebook or the script"));
    connect(m_notebookAction, &QAction::toggled, this, &MainWindow::setNotebookMode);

    m_retryAction =
        new QAction(themedIcon(QIcon::ThemeIcon::ViewRefresh, QStyle::SP_BrowserReload, this),
                    tr("Check &Engine Again"), this);
    m_retryAction->setObjectName(u"retryAction"_s);
    connect(m_retryAction, &QAction::triggered, this, &MainWindow::retryEngine);

    m_policyAction = new QAction(tr("Security &Policy…"), this);
    m_policyAction->setObjectName(u"policyAction"_s);
    m_policyAction->setStatusTip(
        tr("Rules every run is checked with before it starts: presets, severities, your rules"));
    connect(m_policyAction, &QAction::triggered, this, &MainWindow::editPolicy);

    m_aboutAction =
        new QAction(themedIcon(QIcon::ThemeIcon::HelpAbout, QStyle::SP_MessageBoxInformation, this),
                    tr("&About Sandbox Studio"), this);
    connect(m_aboutAction, &QAction::triggered, this, &MainWindow::showAbout);

    m_quitAction = new QAction(
        themedIcon(QIcon::ThemeIcon::ApplicationExit, QStyle::SP_DialogCloseButton, this),
        tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);
    createDesktopActions();
}

void MainWindow::createToolBar()
{
    m_toolBar = addToolBar(tr("Main Toolbar"));
    m_toolBar->setObjectName(u"mainToolBar"_s);
    m_toolBar->setMovable(false);
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    m_languagePicker = new QComboBox(m_toolBar);
    m_languagePicker->setObjectName(u"languagePicker"_s);
    m_languagePicker->setAccessibleName(tr("Language"));
    m_languagePicker->setToolTip(tr("Language of the code"));
    m_languagePicker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (const auto &language : LanguageRegistry::instance().all())
        m_languagePicker->addItem(language.displayName, language.id);
    connect(m_languagePicker, &QComboBox::currentIndexChanged, this,
            [this](int index) { applyLanguage(m_languagePicker->itemData(index).toString()); });

    m_backendPicker = new QComboBox(m_toolBar);
    m_backendPicker->setObjectName(u"backendPicker"_s);
    m_backendPicker->setAccessibleName(tr("Backend"));
    m_backendPicker->setToolTip(tr("Container engine that runs the sandboxes"));
    // Sized for the available entry; the popup still shows the longer, disabled ones.
    m_backendPicker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_backendPicker->setMinimumContentsLength(14);
    populateBackendPicker();
    connect(m_backendPicker, &QComboBox::activated, this, [this](int index) {
        const QString name = m_backendPicker->itemData(index).toString();
        if (name.isEmpty()) { // "Manage profiles…"
            populateBackendPicker();
            showBackendProfiles();
            return;
        }
        if (!m_engine || name != m_engine->profile().name)
            selectBackend(name);
    });

    const auto label = [this](const QString &text, QWidget *buddy) {
        auto *l = new QLabel(text, m_toolBar);
        l->setBuddy(buddy);
        l->setContentsMargins(6, 0, 4, 0);
        return l;
    };
    m_toolBar->addWidget(label(tr("&Language:"), m_languagePicker));
    m_toolBar->addWidget(m_languagePicker);
    // Any image by name (typed, or chosen in the Images dock); empty = the language's own.
    m_imagePicker = new QComboBox(m_toolBar);
    m_imagePicker->setObjectName(u"imagePicker"_s);
    m_imagePicker->setEditable(true);
    m_imagePicker->setAccessibleName(tr("Image"));
    m_imagePicker->setToolTip(tr("Image the sandboxes run; empty = the language's own image. "
                                 "Custom images need the language's toolchain."));
    m_imagePicker->setMinimumContentsLength(18);
    m_imagePicker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_imagePicker->lineEdit()->setPlaceholderText(tr("language default"));
    m_imagePicker->addItem(QString());
    connect(m_imagePicker, &QComboBox::currentTextChanged, this,
            [this](const QString &text) { m_notebook->setImage(text.trimmed()); });
    m_toolBar->addWidget(label(tr("&Image:"), m_imagePicker));
    m_toolBar->addWidget(m_imagePicker);
    m_toolBar->addWidget(label(tr("&Backend:"), m_backendPicker));
    m_toolBar->addWidget(m_backendPicker);
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_notebookAction);
    m_toolBar->widgetForAction(m_notebookAction)->setObjectName(u"notebookModeButton"_s);
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_runAction);
    m_toolBar->addAction(m_stopAction);

    QWidget *runButton = m_toolBar->widgetForAction(m_runAction);
    runButton->setObjectName(u"runButton"_s);
    QFont bold = runButton->font();
    bold.setBold(true);
    runButton->setFont(bold);
    m_toolBar->widgetForAction(m_stopAction)->setObjectName(u"stopButton"_s);
}

void MainWindow::createCentralArea()
{
    m_editor = new CodeEditor(this);
    m_editor->setObjectName(u"editor"_s);
    m_editor->setPlaceholderText(
        tr("Write or paste code here, then press Ctrl+Return to run it in a sandbox."));

    m_console = new OutputConsole(this);
    m_console->setObjectName(u"console"_s);
    connect(m_clearAction, &QAction::triggered, m_console, &OutputConsole::clearOutput);

    // The console with a slim header: a title and a Clear button.
    auto *consolePane = new QWidget(this);
    auto *header = new QHBoxLayout;
    header->setContentsMargins(8, 4, 4, 2);
    auto *title = new QLabel(tr("Output"), consolePane);
    QFont titleFont = title->font();
    titleFont.setBold(true);
    title->setFont(titleFont);
    auto *clear = new QToolButton(consolePane);
    clear->setObjectName(u"clearButton"_s);
    clear->setDefaultAction(m_clearAction);
    clear->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    clear->setAutoRaise(true);
    header->addWidget(title);
    header->addStretch(1);
    header->addWidget(clear);
    auto *paneLayout = new QVBoxLayout(consolePane);
    paneLayout->setContentsMargins(0, 0, 0, 0);
    paneLayout->setSpacing(0);
    paneLayout->addLayout(header);
    paneLayout->addWidget(m_console, 1);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(u"mainSplitter"_s);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_editor);
    m_splitter->addWidget(consolePane);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);

    m_notebook = new NotebookConsole(m_engine, this);
    m_notebook->setObjectName(u"notebook"_s);

    m_views = new QStackedWidget(this);
    m_views->setObjectName(u"views"_s);
    m_views->addWidget(m_splitter);
    m_views->addWidget(m_notebook);

    m_banner = new EngineBanner(this);
    connect(m_banner, &EngineBanner::retryRequested, this, &MainWindow::retryEngine);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_banner);
    layout->addWidget(m_views, 1);
    setCentralWidget(central);
}

void MainWindow::createDock()
{
    m_limits = new LimitsPanel(this);
    m_limitsDock = new QDockWidget(tr("Limits"), this);
    m_limitsDock->setObjectName(u"limitsDock"_s);
    m_limitsDock->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
    m_limitsDock->setWidget(m_limits);
    addDockWidget(Qt::RightDockWidgetArea, m_limitsDock);

    m_gallery = new ArtifactGallery(this);
    m_artifactsDock = new QDockWidget(tr("Artifacts"), this);
    m_artifactsDock->setObjectName(u"artifactsDock"_s);
    m_artifactsDock->setAllowedAreas(Qt::AllDockWidgetAreas);
    m_artifactsDock->setWidget(m_gallery);
    addDockWidget(Qt::RightDockWidgetArea, m_artifactsDock);
    splitDockWidget(m_limitsDock, m_artifactsDock, Qt::Vertical);

    m_poolPanel = new PoolPanel(this);
    m_poolDock = new QDockWidget(tr("Sandbox Pool"), this);
    m_poolDock->setObjectName(u"poolDock"_s);
    m_poolDock->setAllowedAreas(Qt::AllDockWidgetAreas);
    m_poolDock->setWidget(m_poolPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_poolDock);
    tabifyDockWidget(m_artifactsDock, m_poolDock);

    m_filesPanel = new SessionFilesPanel(this);
    m_filesDock = new QDockWidget(tr("Session Files"), this);
    m_filesDock->setObjectName(u"filesDock"_s);
    m_filesDock->setAllowedAreas(Qt::AllDockWidgetAreas);
    auto *filesScroll = new QScrollArea(m_filesDock);
    filesScroll->setAccessibleName(tr("Session Files"));
    filesScroll->setWidgetResizable(true);
    filesScroll->setFrameShape(QFrame::NoFrame);
    filesScroll->setWidget(m_filesPanel);
    m_filesDock->setWidget(filesScroll);
    addDockWidget(Qt::RightDockWidgetArea, m_filesDock);
    tabifyDockWidget(m_artifactsDock, m_filesDock);
    connect(m_notebook, &NotebookConsole::kernelStateChanged, this,
            [this] { m_filesPanel->setSession(m_notebook->session()); });
    // What a cell wrote shows up without pressing Refresh (the listing taken when the
    // session started may predate it).
    connect(m_notebook, &NotebookConsole::cellFinished, this, [this] {
        if (m_filesPanel->session())
            m_filesPanel->refresh();
    });

    m_imageManager = new ImageManager(m_engine, this);
    m_imagesDock = new QDockWidget(tr("Images"), this);
    m_imagesDock->setObjectName(u"imagesDock"_s);
    m_imagesDock->setAllowedAreas(Qt::AllDockWidgetAreas);
    // In a scroll area: the form's rows would otherwise widen the whole dock column and
    // squeeze the editor and console.
    auto *imagesScroll = new QScrollArea(m_imagesDock);
    imagesScroll->setAccessibleName(tr("Images"));
    imagesScroll->setWidgetResizable(true);
    imagesScroll->setFrameShape(QFrame::NoFrame);
    imagesScroll->setWidget(m_imageManager);
    m_imagesDock->setWidget(imagesScroll);
    addDockWidget(Qt::RightDockWidgetArea, m_imagesDock);
    tabifyDockWidget(m_artifactsDock, m_imagesDock);
    connect(m_imageManager, &ImageManager::imageChosen, this,
            [this](const QString &ref) { m_imagePicker->setCurrentText(ref); });
    connect(m_imageManager, &ImageManager::refreshed, this, [this](bool ok) {
        if (!ok)
            return;
        const QString current = m_imagePicker->currentText();
        const QSignalBlocker blocker(m_imagePicker);
        m_imagePicker->clear();
        m_imagePicker->addItem(QString());
        m_imagePicker->addItems(m_imageManager->imageRefs());
        m_imagePicker->setCurrentText(current);
    });
    if (m_engine)
        m_imageManager->refresh();
    m_artifactsDock->raise();
    connect(m_notebook, &NotebookConsole::imageDisplayed, this,
            [this](NotebookCell *cell, const QString &mimeType, const QByteArray &data) {
                const QString suffix = mimeType.section(u'/', 1);
                Artifact artifact{u"cell-image-%1.%2"_s.arg(++m_notebookImageCount)
                                      .arg(suffix == u"jpeg" ? u"jpg"_s : suffix),
                                  mimeType, data};
                m_gallery->addArtifact(artifact,
                                       tr("Notebook cell %1").arg(m_notebook->indexOf(cell) + 1));
            });

    connect(m_limits, &LimitsPanel::limitsChanged, this, [this] {
        const Limits limits = m_limits->limits();
        m_settings->setValue(key::NanoCpus, limits.nanoCpus);
        m_settings->setValue(key::Memory, limits.memoryBytes);
        m_settings->setValue(key::Pids, limits.pids);
        m_settings->setValue(key::Timeout, limits.timeoutMs);
        m_settings->setValue(key::Output, limits.outputBytes);
        m_settings->setValue(key::Network, m_limits->networkEnabled());
        applyLimitsToNotebook();
    });
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(u"recentFilesMenu"_s);
    file->addAction(m_saveAsAction);
    file->addSeparator();
    file->addAction(m_notebook->exportAction());
    file->addSeparator();
    file->addAction(m_preferencesAction);
    file->addSeparator();
    file->addAction(m_quitAction);
    updateRecentFilesMenu();

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_stopAction);
    run->addSeparator();
    run->addAction(m_clearAction);
    run->addSeparator();
    QMenu *languages = run->addMenu(tr("&Language"));
    languages->addActions(m_languageActions);
    run->addAction(m_policyAction);
    run->addSeparator();
    run->addAction(m_retryAction);
    m_profilesAction = run->addAction(tr("&Backend Profiles…"));
    m_profilesAction->setObjectName(u"backendProfilesAction"_s);
    connect(m_profilesAction, &QAction::triggered, this, [this] { showBackendProfiles(); });

    // The notebook's own actions, in a menu that is there in notebook mode only.
    m_notebookMenu = menuBar()->addMenu(tr("&Notebook"));
    m_notebookMenu->addAction(m_notebook->runAction());
    m_notebookMenu->addAction(m_notebook->runAllAction());
    m_notebookMenu->addAction(m_notebook->interruptAction());
    m_notebookMenu->addAction(m_notebook->restartAction());
    m_notebookMenu->addSeparator();
    m_notebookMenu->addAction(m_notebook->addCellAction());
    m_notebookMenu->addAction(m_notebook->clearAction());
    m_notebookMenu->addSeparator();
    m_notebookMenu->addAction(m_notebook->exportAction());
    m_saveTemplateAction = m_notebookMenu->addAction(tr("Save Session as &Template…"), this,
                                                     [this] { saveSessionAsTemplate(); });
    m_notebookMenu->menuAction()->setVisible(false);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_notebookAction);
    view->addSeparator();
    view->addAction(m_limitsDock->toggleViewAction());
    view->addAction(m_artifactsDock->toggleViewAction());
    view->addAction(m_poolDock->toggleViewAction());
    view->addAction(m_filesDock->toggleViewAction());
    view->addAction(m_imagesDock->toggleViewAction());
    view->addAction(m_toolBar->toggleViewAction());
    view->addSeparator();
    view->addAction(m_fullScreenAction);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_helpAction);
    help->addAction(m_setupAction);
    help->addSeparator();
    help->addAction(m_aboutAction);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createStatusBar()
{
    m_runStatus = new QLabel(this);
    m_runStatus->setObjectName(u"runStatus"_s);
    m_busy = new QProgressBar(this);
    m_busy->setRange(0, 0); // busy indicator
    m_busy->setMaximumWidth(100);
    m_busy->setMaximumHeight(14);
    m_busy->setTextVisible(false);
    m_busy->hide();
    m_backendStatus = new QLabel(this);
    m_backendStatus->setObjectName(u"backendStatus"_s);
    m_backendStatus->setTextFormat(Qt::RichText);
    m_backendStatus->setContentsMargins(8, 0, 8, 0);

    statusBar()->addWidget(m_busy);
    statusBar()->addWidget(m_runStatus, 1);
    statusBar()->addPermanentWidget(m_backendStatus);
}

// ---------------------------------------------------------------------------------------
// Languages and drafts

QString MainWindow::customImage() const
{
    return m_imagePicker ? m_imagePicker->currentText().trimmed() : QString();
}

void MainWindow::saveSessionAsTemplate(const QString &givenRef)
{
    const std::shared_ptr<NotebookSession> session = m_notebook->session();
    if (!session || !m_engine) {
        statusBar()->showMessage(tr("Start a notebook session first: a template is saved from "
                                    "a running session."),
                                 8000);
        Q_EMIT templateSaved(false, {});
        return;
    }
    QString ref = givenRef;
    if (ref.isEmpty()) {
        bool ok = false;
        ref =
            QInputDialog::getText(this, tr("Save Session as Template"),
                                  tr("Image name for the template (its files and installed "
                                     "packages come back in sessions started from it):"),
                                  QLineEdit::Normal,
                                  u"sandbox-studio-templates/%1:1"_s.arg(session->language()), &ok)
                .trimmed();
        if (!ok || ref.isEmpty())
            return;
    }
    statusBar()->showMessage(tr("Saving the session as %1…").arg(ref));
    auto future = QtConcurrent::run([engine = m_engine, session, ref] {
        return saveTemplate(engine->runtime(), *session, ref);
    });
    future.then(this, [this, ref](const Result<QString> &saved) {
        if (saved) {
            statusBar()->showMessage(tr("Saved the session as %1; choose it as the image to "
                                        "start from it.")
                                         .arg(ref),
                                     10000);
            m_imageManager->refresh();
        } else {
            statusBar()->showMessage(
                tr("Could not save the template: %1").arg(saved.error().message), 15000);
        }
        Q_EMIT templateSaved(bool(saved), saved ? ref : saved.error().message);
    });
}

void MainWindow::setLanguage(const QString &id)
{
    const LanguageDescriptor *language = LanguageRegistry::instance().find(id);
    if (!language)
        return;
    const int index = m_languagePicker->findData(language->id);
    if (index >= 0 && index != m_languagePicker->currentIndex()) {
        // Calls applyLanguage, once: it may ask about the notebook's kernel.
        m_languagePicker->setCurrentIndex(index);
        return;
    }
    applyLanguage(language->id);
}

void MainWindow::applyLanguage(const QString &id)
{
    const auto &registry = LanguageRegistry::instance();
    const LanguageDescriptor *next = registry.find(id);
    if (!next || next->id == m_language)
        return;
    const LanguageDescriptor *previous = registry.find(m_language);

    if (m_notebook->hasSession() && m_notebook->language() != next->id) {
        // The kernel holds the user's variables: switching its language loses them.
        const auto answer = QMessageBox::question(
            this, tr("Switch Notebook Language"),
            tr("The notebook's %1 kernel is running. Switch the notebook to %2? The %1 "
               "kernel is closed and its variables are lost.")
                .arg(previous ? previous->displayName : m_language, next->displayName),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Yes);
        if (answer != QMessageBox::Yes) {
            const QSignalBlocker blocker(m_languagePicker);
            m_languagePicker->setCurrentIndex(m_languagePicker->findData(m_language));
            return;
        }
    }

    saveDraft(); // under the previous language
    const QString text = m_editor->toPlainText();
    const bool untouched = text.trimmed().isEmpty() || (previous && text == previous->sampleCode);

    m_language = next->id;
    m_editor->setLanguage(next->highlightName);
    m_notebook->setLanguage(m_language);
    m_limits->setStandards(next->standards, next->defaultStandard);
    m_limits->setLanguage(m_language);
    m_policyCheck.start();
    // Code the user wrote stays (it may be code pasted before picking its language); its
    // draft for the new language is written only when the user edits it.
    if (untouched)
        loadDraftOrSample(m_language);
    m_settings->setValue(key::Language, m_language);
}

QString MainWindow::draftPath(const QString &language) const
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + u"/drafts/"_s +
           language + u".txt"_s;
}

void MainWindow::loadDraftOrSample(const QString &language)
{
    QString text;
    QFile draft(draftPath(language));
    if (draft.open(QIODevice::ReadOnly))
        text = QString::fromUtf8(draft.readAll());
    if (text.trimmed().isEmpty()) {
        if (const LanguageDescriptor *descriptor = LanguageRegistry::instance().find(language))
            text = descriptor->sampleCode;
    }
    m_settingText = true;
    m_editor->setPlainText(text);
    m_settingText = false;
    m_draftDirty = false;
    m_autosave.stop();
}

void MainWindow::saveDraft()
{
    m_autosave.stop();
    if (!m_draftDirty || m_language.isEmpty())
        return;
    const QString path = draftPath(m_language);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(m_editor->toPlainText().toUtf8()) < 0 ||
        !file.commit()) {
        statusBar()->showMessage(tr("Could not save the code to %1: %2")
                                     .arg(QDir::toNativeSeparators(path), file.errorString()),
                                 10'000);
        return;
    }
    m_draftDirty = false;
}

void MainWindow::saveSettings()
{
    m_settings->setValue(key::Language, m_language);
    m_settings->setValue(key::Geometry, saveGeometry());
    m_settings->setValue(key::State, saveState());
    m_settings->setValue(key::Splitter, m_splitter->saveState());
    m_settings->setValue(key::NotebookMode, isNotebookMode());
    m_settings->sync();
}

void MainWindow::restoreSettings()
{
    if (!restoreGeometry(m_settings->value(key::Geometry).toByteArray()))
        resize(1180, 760);
    restoreState(m_settings->value(key::State).toByteArray());
    m_splitter->restoreState(m_settings->value(key::Splitter).toByteArray());

    restoreLimitsAndPool();

    QString language = m_settings->value(key::Language, u"python"_s).toString();
    if (!LanguageRegistry::instance().find(language))
        language = LanguageRegistry::instance().all().value(0).id;
    setLanguage(language);
    applyLimitsToNotebook();
    setNotebookMode(m_settings->value(key::NotebookMode, false).toBool());
}

void MainWindow::restoreLimitsAndPool()
{
    const Limits defaults;
    Limits limits;
    limits.nanoCpus = m_settings->value(key::NanoCpus, defaults.nanoCpus).toLongLong();
    limits.memoryBytes = m_settings->value(key::Memory, defaults.memoryBytes).toLongLong();
    limits.pids = m_settings->value(key::Pids, defaults.pids).toLongLong();
    limits.timeoutMs = m_settings->value(key::Timeout, defaults.timeoutMs).toLongLong();
    limits.outputBytes = m_settings->value(key::Output, defaults.outputBytes).toLongLong();
    // Read everything before applying: each change writes all limits back.
    const bool network = m_settings->value(key::Network, false).toBool();
    m_limits->setLimits(limits);
    m_limits->setNetworkEnabled(network);

    m_poolPanel->setPoolEnabled(m_settings->value(key::PoolEnabled, true).toBool());
    // --no-zygote turns them off for this process (applyPoolSettings), not the setting.
    m_poolPanel->setZygotesEnabled(m_settings->value(key::PoolZygotes, true).toBool());
    m_poolPanel->setMaxPerKey(m_settings->value(key::PoolMax, 4).toInt());
    const QHash<QString, int> warm = m_poolPanel->warmCounts(); // the defaults
    for (auto it = warm.cbegin(); it != warm.cend(); ++it)
        m_poolPanel->setWarmFor(it.key(),
                                m_settings->value(key::PoolWarm + it.key(), it.value()).toInt());
}

bool MainWindow::isNotebookMode() const
{
    return m_views->currentWidget() == m_notebook;
}

void MainWindow::setNotebookMode(bool on)
{
    if (m_notebookAction->isChecked() != on)
        m_notebookAction->setChecked(on); // toggled() calls back
    m_views->setCurrentWidget(on ? static_cast<QWidget *>(m_notebook) : m_splitter);
    m_notebookMenu->menuAction()->setVisible(on);
    // The script's Run, Stop and Clear (and their keys) belong to the script view.
    for (QAction *action : {m_runAction, m_stopAction, m_clearAction})
        action->setVisible(!on);
    updateRunActions();
    if (on) {
        if (NotebookCell *cell = m_notebook->currentCell())
            cell->editor()->setFocus();
    } else {
        m_editor->setFocus();
    }
}

void MainWindow::applyLimitsToNotebook()
{
    m_notebook->setLimits(m_limits->limits(),
                          m_limits->networkEnabled() ? NetworkMode::Bridge : NetworkMode::None);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_running)
        stopRun();
    saveDraft();
    saveSettings();
    m_notebook->shutdownKernel(); // in the background: its sandbox is removed
    QMainWindow::closeEvent(event);
}

// ---------------------------------------------------------------------------------------
// Runs

void MainWindow::updateRunActions()
{
    const bool notebook = isNotebookMode();
    m_runAction->setEnabled(!m_running && !notebook);
    m_stopAction->setEnabled(m_running && !m_stopping && !notebook);
    m_languagePicker->setEnabled(!m_running);
    m_backendPicker->setEnabled(!m_running);
}

void MainWindow::runCode()
{
    if (m_running)
        return;
    saveDraft();

    const LanguageDescriptor *language = LanguageRegistry::instance().find(m_language);
    const QString title = tr("%1 · %2").arg(language ? language->displayName : m_language,
                                            QTime::currentTime().toString(u"HH:mm:ss"_s));
    m_console->beginRun(title);
    m_runSource = tr("Run %1 · %2").arg(++m_runCount).arg(title);
    m_running = true;
    m_stopping = false;
    m_streamedBytes = 0;
    m_phase = tr("Starting");
    m_elapsed.start();
    m_elapsedTimer.start();
    m_busy->show();
    updateElapsed();
    updateRunActions();
    Q_EMIT runStarted();

    if (!m_engine) {
        m_console->appendError(m_engineError.value_or(
            Error{ErrorCode::EngineUnreachable,
                  tr("No container engine is available: start Docker and press Retry."),
                  {}}));
        // Finish after runCode() returns, as a run through the engine would.
        QMetaObject::invokeMethod(this, [this] { finishRun(false); }, Qt::QueuedConnection);
        return;
    }

    RunRequest request;
    request.language = m_language;
    request.code = m_editor->toPlainText();
    request.limits = m_limits->limits();
    request.network = m_limits->networkEnabled() ? NetworkMode::Bridge : NetworkMode::None;
    request.origin = RunOrigin::Gui;
    request.libraries = m_limits->libraries();
    request.standard = m_limits->standard();
    request.image = customImage();
    if (m_pool)
        if (const auto image = request.image.isEmpty() ? Engine::defaultImageFor(request.language)
                                                       : Result<QString>(request.image))
            m_poolPanel->noteKey(PoolKey::from(m_engine->runtime().backend(), request.language,
                                               *image, request.limits, request.network));

    using Kind = RunChannel::Kind;
    m_cancel = CancelToken();
    m_channel = std::make_shared<RunChannel>(this);
    RunObserver observer;
    observer.onStdout = [channel = m_channel](QByteArrayView d) { channel->push(Kind::Stdout, d); };
    observer.onStderr = [channel = m_channel](QByteArrayView d) { channel->push(Kind::Stderr, d); };
    observer.onStatus = [channel = m_channel](const QString &s) {
        channel->push(Kind::Status, {}, s);
    };
    // Findings that ask for approval: the person decides, on the GUI thread (the run's
    // worker waits for the answer).
    observer.onPolicyAsk = [window =
                                QPointer<MainWindow>(this)](const QList<PolicyFinding> &findings) {
        bool approved = false;
        if (!window)
            return false;
        QMetaObject::invokeMethod(
            window.data(),
            [window, findings] {
                QStringList lines;
                for (const PolicyFinding &f : findings)
                    lines << MainWindow::tr("line %1: %2 (%3)").arg(f.line).arg(f.message, f.rule);
                return QMessageBox::question(
                           window.data(), MainWindow::tr("Run This Code?"),
                           MainWindow::tr("The security policy asks before running this code:\n\n"
                                          "%1\n\nRun it in the sandbox anyway?")
                               .arg(lines.join(u'\n')),
                           QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
            },
            Qt::BlockingQueuedConnection, &approved);
        return approved;
    };

    // The lambda keeps the engine alive until the run has cleaned up its sandbox, even if
    // the window goes away first.
    auto future = QtConcurrent::run(
        [engine = m_engine, request = std::move(request), observer = std::move(observer),
         cancel = m_cancel] { return engine->runBlocking(request, observer, cancel); });
    future.then(this, [this, channel = m_channel](const Result<RunResult> &result) {
        onRunDone(channel, result);
    });
}

void MainWindow::drainRunOutput()
{
    if (!m_channel)
        return;
    using Kind = RunChannel::Kind;
    for (const auto &event : m_channel->take()) {
        switch (event.kind) {
        case Kind::Stdout:
            m_streamedBytes += event.data.size();
            m_console->appendStdout(event.data);
            break;
        case Kind::Stderr:
            m_streamedBytes += event.data.size();
            m_console->appendStderr(event.data);
            break;
        case Kind::Status:
            m_phase = event.status;
            updateElapsed();
            break;
        }
    }
}

void MainWindow::onRunDone(const std::shared_ptr<RunChannel> &channel,
                           const Result<RunResult> &result)
{
    if (channel != m_channel)
        return;
    drainRunOutput();
    m_channel->detach();

    if (result) {
        // An engine that did not stream still returns the output.
        if (m_streamedBytes == 0) {
            m_console->appendStdout(result->stdoutData);
            m_console->appendStderr(result->stderrData);
        }
        m_console->appendResult(*result);
        m_editor->setFindings(result->policyFindings);
        for (const Artifact &artifact : result->artifacts)
            m_gallery->addArtifact(artifact, m_runSource);
        if (!m_engineReachable)
            checkEngine(); // it answered after all: clear the banner
        finishRun(true);
        return;
    }

    const Error &error = result.error();
    if (error.code == ErrorCode::Cancelled) {
        m_console->appendStatus(tr("Stopped before the program started."));
        m_console->flush();
    } else {
        m_console->appendError(error);
    }
    if (error.code == ErrorCode::EngineUnreachable || error.code == ErrorCode::TlsError)
        showEngineProblem(error);
    finishRun(false);
}

void MainWindow::finishRun(bool ok)
{
    m_running = false;
    m_stopping = false;
    m_elapsedTimer.stop();
    m_busy->hide();
    m_runStatus->setText(
        ok ? tr("Finished in %1 s")
                 .arg(QLocale().toString(double(m_elapsed.elapsed()) / 1000.0, 'f', 1))
           : tr("Run failed"));
    updateRunActions();
    Q_EMIT runFinished(ok);
}

void MainWindow::stopRun()
{
    if (!m_running || m_stopping)
        return;
    m_stopping = true;
    m_phase = tr("Stopping");
    updateElapsed();
    updateRunActions();
    m_console->appendStatus(tr("stopping…"));
    cancelInBackground();
}

void MainWindow::cancelInBackground()
{
    // CancelToken runs the engine's cancel callbacks on the cancelling thread; they may talk
    // to the engine (kill the sandbox), which the GUI thread must not wait for. A thread of
    // its own, because the thread pool may be busy with the very run to cancel.
    QThread *thread = QThread::create([token = m_cancel]() mutable { token.cancel(); });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

void MainWindow::updateElapsed()
{
    if (!m_running)
        return;
    const QString seconds = QLocale().toString(double(m_elapsed.elapsed()) / 1000.0, 'f', 1);
    m_runStatus->setText(tr("%1… %2 s").arg(m_phase, seconds));
}

// ---------------------------------------------------------------------------------------
// Engine status

QString MainWindow::endpoint() const
{
    return m_engine ? m_engine->runtime().endpointDisplay() : QString();
}

void MainWindow::retryEngine()
{
    m_reconnect.stop(); // a Retry press replaces the pending automatic attempt
    if (!m_engine) {
        auto profile = m_profiles.find(m_profiles.currentName());
        auto created =
            profile ? Engine::create(*profile) : Engine::create(BackendProfile::fromEnvironment());
        if (!created) {
            showEngineProblem(created.error());
            Q_EMIT engineChecked(false);
            return;
        }
        m_engine = std::move(*created);
        m_engine->setPolicy(m_policy);
        m_engineError.reset();
        m_notebook->setEngine(m_engine);
        m_mcpHost->setEngine(m_engine);
        m_imageManager->setEngine(m_engine);
        m_imageManager->refresh();
    }
    checkEngine();
}

void MainWindow::scheduleReconnect()
{
    m_wasUnreachable = true;
    if (m_reconnect.isActive())
        return;
    // Non-blocking: the timer only starts a check on a worker thread (retryEngine).
    m_reconnect.start(m_reconnectDelayMs);
    m_reconnectDelayMs = qMin(m_reconnectDelayMs * 2, ReconnectMaxMs);
}

void MainWindow::checkEngine()
{
    if (!m_engine) {
        showEngineProblem(m_engineError.value_or(
            Error{ErrorCode::Internal, tr("No container engine was set up."), {}}));
        Q_EMIT engineChecked(false);
        return;
    }
    if (m_checking)
        return;
    m_checking = true;
    m_banner->setChecking(true);
    m_retryAction->setEnabled(false);
    m_backendStatus->setText(
        tr("Connecting to %1…").arg(m_engine->profile().describe().toHtmlEscaped()));

    auto future = QtConcurrent::run([engine = m_engine] { return engine->ping(); });
    future.then(this, [this](const Result<RuntimeInfo> &result) { onEngineChecked(result); });
}

void MainWindow::onEngineChecked(const Result<RuntimeInfo> &result)
{
    m_checking = false;
    m_banner->setChecking(false);
    m_retryAction->setEnabled(true);
    if (!result) {
        showEngineProblem(result.error());
        Q_EMIT engineChecked(false);
        return;
    }
    m_engineReachable = true;
    m_engineVersion = engineTitle(*result);
    m_banner->hide();
    m_reconnect.stop();
    m_reconnectDelayMs = ReconnectFirstMs;
    if (std::exchange(m_wasUnreachable, false) && m_poolPanel->poolEnabled())
        m_poolRebuild.start(); // the pool's sandboxes went with the engine: warm new ones
    m_backendStatus->setText(u"<span style=\"color:#2da44e\">●</span> "_s +
                             tr("%1 · %2 · %3")
                                 .arg(m_engine->profile().name, m_engineVersion, endpoint())
                                 .toHtmlEscaped());
    m_backendStatus->setToolTip(
        tr("%1 %2, API %3, %4").arg(result->name, result->version, result->apiVersion, result->os));
    Q_EMIT engineChecked(true);
}

void MainWindow::showEngineProblem(const sandbox::Error &error)
{
    m_engineReachable = false;
    const QString where = endpoint();
    const QString product =
        m_engine && m_engine->runtime().backend() == u"podman" ? u"Podman"_s : u"Docker"_s;

    const QString kind = m_engine ? m_engine->runtime().backend() : QString();
    const QString profile = m_engine ? m_engine->profile().name : m_profiles.currentName();
    QString headline;
    QString detail = error.detail;
    if (!m_engine) {
        headline = tr("The sandbox engine could not be started: %1").arg(error.message);
    } else if (error.code == ErrorCode::EngineUnreachable) {
        const QString how =
            kind == u"podman"_s ? tr("start the podman service (podman system service --time=0 "
                                     "unix:///run/podman/podman.sock)")
            : kind == u"docker-tls"_s ? tr("check that dockerd listens there with --tlsverify")
                                      : tr("start it (sudo dockerd, or sudo systemctl start "
                                           "docker)");
        headline = tr("%1 is not reachable at %2 (profile '%3') — %4 and press Retry.")
                       .arg(product, where, profile, how);
        if (detail.isEmpty())
            detail = error.message;
    } else if (error.code == ErrorCode::TlsError) {
        headline = tr("The TLS connection to %1 (profile '%2') failed — check the CA, client "
                      "certificate and key, then press Retry.")
                       .arg(where, profile);
        detail = error.message + (error.detail.isEmpty() ? QString() : u"\n"_s + error.detail);
    } else {
        headline = tr("%1 at %2 (profile '%3') reported a problem: %4")
                       .arg(product, where, profile, error.message);
    }
    scheduleReconnect();
    headline += u' ' + tr("Retrying automatically in %n s.", nullptr,
                          qMax(1, (m_reconnect.remainingTime() + 999) / 1000));
    m_banner->showProblem(headline, detail);

    const QString status = where.isEmpty()
                               ? tr("%1 not available · %2").arg(product, profile)
                               : tr("%1 not reachable · %2 · %3").arg(product, profile, where);
    m_backendStatus->setText(u"<span style=\"color:#cf222e\">●</span> "_s + status.toHtmlEscaped());
    m_backendStatus->setToolTip(error.toString());
}

void MainWindow::populateBackendPicker()
{
    const QSignalBlocker block(m_backendPicker);
    m_backendPicker->clear();
    const QString current = m_engine ? m_engine->profile().name : m_profiles.currentName();
    int selected = -1;
    for (const BackendProfile &p : m_profiles.profiles()) {
        m_backendPicker->addItem(p.name, p.name);
        m_backendPicker->setItemData(m_backendPicker->count() - 1, p.describe(), Qt::ToolTipRole);
        if (p.name == current)
            selected = m_backendPicker->count() - 1;
    }
    if (selected < 0 && m_engine) {
        // An engine from elsewhere (the environment, a test): listed under its own name.
        m_backendPicker->insertItem(0, m_engine->profile().name, m_engine->profile().name);
        selected = 0;
    }
    m_backendPicker->insertSeparator(m_backendPicker->count());
    m_backendPicker->addItem(tr("Manage profiles…"), QString());
    m_backendPicker->setCurrentIndex(qMax(0, selected));
}

bool MainWindow::selectBackend(const QString &name)
{
    if (m_running)
        return false;
    auto profile = m_profiles.find(name);
    Result<std::shared_ptr<Engine>> created =
        profile ? Engine::create(*profile)
                : Result<std::shared_ptr<Engine>>(std::unexpected(profile.error()));
    m_profiles.setCurrentName(name);
    dropPool();
    if (!created) {
        m_engine.reset();
        m_engineError = created.error();
        m_notebook->setEngine(nullptr);
        populateBackendPicker();
        showEngineProblem(created.error());
        Q_EMIT engineChecked(false);
        return false;
    }
    m_engine = std::move(*created);
    m_engineError.reset();
    m_engineReachable = false;
    m_notebook->setEngine(m_engine);
    populateBackendPicker();
    applyPoolSettings();
    checkEngine();
    return true;
}

BackendProfileDialog *MainWindow::showBackendProfiles()
{
    auto *dialog = findChild<BackendProfileDialog *>();
    if (!dialog) {
        dialog = new BackendProfileDialog(m_profiles, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &BackendProfileDialog::profilesChanged, this, [this] {
            // The profile in use was edited (or removed): use what is stored now.
            if (m_engine && !m_running &&
                !BackendProfileStore::isBuiltIn(m_engine->profile().name)) {
                const BackendProfile &used = m_engine->profile();
                auto stored = m_profiles.find(used.name);
                if (!stored || stored->uri != used.uri || stored->kind != used.kind ||
                    stored->certPath != used.certPath || stored->caFile != used.caFile ||
                    stored->certFile != used.certFile || stored->keyFile != used.keyFile ||
                    stored->tlsVerify != used.tlsVerify ||
                    stored->kubernetes.kubeconfig != used.kubernetes.kubeconfig ||
                    stored->kubernetes.context != used.kubernetes.context ||
                    stored->kubernetes.namespaceName != used.kubernetes.namespaceName) {
                    selectBackend(stored ? used.name : m_profiles.currentName());
                    return;
                }
            }
            populateBackendPicker();
        });
    }
    dialog->show();
    dialog->raise();
    return dialog;
}

void MainWindow::showAbout()
{
    const QString engine =
        m_engineReachable ? tr("%1 at %2").arg(m_engineVersion, endpoint()) : tr("not connected");
    AboutDialog dialog(shortcutActions(), engine, this);
    dialog.showPage(AboutDialog::Page::About);
    dialog.exec();
}

// ---------------------------------------------------------------------------------------
// Files, preferences, help, setup check

void MainWindow::createDesktopActions()
{
    m_runAction->setShortcutContext(Qt::WindowShortcut);
    m_retryAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_aboutAction->setObjectName(u"aboutAction"_s);

    m_openAction =
        new QAction(themedIcon(QIcon::ThemeIcon::DocumentOpen, QStyle::SP_DialogOpenButton, this),
                    tr("&Open…"), this);
    m_openAction->setObjectName(u"openAction"_s);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(tr("Load a code file into the editor"));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::openFileDialog);

    m_saveAsAction =
        new QAction(themedIcon(QIcon::ThemeIcon::DocumentSaveAs, QStyle::SP_DialogSaveButton, this),
                    tr("Save &As…"), this);
    m_saveAsAction->setObjectName(u"saveAsAction"_s);
    m_saveAsAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_S), QKeySequence::SaveAs});
    m_saveAsAction->setStatusTip(tr("Write the editor's code to a file"));
    connect(m_saveAsAction, &QAction::triggered, this, &MainWindow::saveFileDialog);

    m_preferencesAction = new QAction(
        themedIcon(QIcon::ThemeIcon::DocumentProperties, QStyle::SP_FileDialogInfoView, this),
        tr("&Preferences…"), this);
    m_preferencesAction->setObjectName(u"preferencesAction"_s);
    m_preferencesAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Comma), QKeySequence::Preferences});
    m_preferencesAction->setMenuRole(QAction::PreferencesRole);
    connect(m_preferencesAction, &QAction::triggered, this, &MainWindow::showPreferences);

    m_helpAction =
        new QAction(themedIcon(QIcon::ThemeIcon::HelpFaq, QStyle::SP_DialogHelpButton, this),
                    tr("Sandbox Studio &Help"), this);
    m_helpAction->setObjectName(u"helpAction"_s);
    m_helpAction->setShortcut(QKeySequence::HelpContents);
    connect(m_helpAction, &QAction::triggered, this, &MainWindow::showHelp);

    m_setupAction = new QAction(tr("Check &Setup…"), this);
    m_setupAction->setObjectName(u"setupAction"_s);
    m_setupAction->setStatusTip(tr("Check the container engines and the sandbox images"));
    connect(m_setupAction, &QAction::triggered, this, &MainWindow::showSetupCheck);

    m_fullScreenAction = new QAction(tr("&Full Screen"), this);
    m_fullScreenAction->setObjectName(u"fullScreenAction"_s);
    m_fullScreenAction->setCheckable(true);
    m_fullScreenAction->setShortcut(QKeySequence::FullScreen);
    connect(m_fullScreenAction, &QAction::toggled, this,
            [this](bool on) { setWindowState(windowState().setFlag(Qt::WindowFullScreen, on)); });

    // Ctrl+1 … Ctrl+6 pick a language.
    int n = 0;
    for (const auto &language : LanguageRegistry::instance().all()) {
        auto *action = new QAction(language.displayName, this);
        action->setObjectName(u"languageAction_"_s + language.id);
        if (++n <= 9)
            action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_0 + n)));
        connect(action, &QAction::triggered, this, [this, id = language.id] { setLanguage(id); });
        addAction(action);
        m_languageActions.append(action);
    }
}

QList<QAction *> MainWindow::shortcutActions() const
{
    QList<QAction *> list{m_runAction,        m_stopAction,   m_clearAction,       m_notebookAction,
                          m_openAction,       m_saveAsAction, m_preferencesAction, m_retryAction,
                          m_fullScreenAction, m_helpAction,   m_quitAction};
    for (QAction *action :
         {m_notebook->runAction(), m_notebook->runAllAction(), m_notebook->interruptAction(),
          m_notebook->restartAction(), m_notebook->addCellAction()}) {
        action->setProperty("helpSection", tr("Notebook"));
        list += action;
    }
    list += m_languageActions;
    return list;
}

bool MainWindow::openFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        statusBar()->showMessage(
            tr("Could not open %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()),
            10'000);
        return false;
    }
    const QString text = QString::fromUtf8(file.readAll());
    // Extensions that are not ids or aliases of the registry.
    static const QHash<QString, QString> extra{{u"mjs"_s, u"javascript"_s},
                                               {u"cjs"_s, u"javascript"_s},
                                               {u"cc"_s, u"cpp"_s},
                                               {u"cxx"_s, u"cpp"_s}};
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (const LanguageDescriptor *language =
            LanguageRegistry::instance().find(extra.value(suffix, suffix)))
        setLanguage(language->id);
    m_editor->setPlainText(text); // edited text: the draft of the language is updated
    StudioSettings::addRecentFile(*m_settings, path);
    updateRecentFilesMenu();
    setWindowFilePath(path);
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 5'000);
    return true;
}

bool MainWindow::saveFileAs(const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(m_editor->toPlainText().toUtf8()) < 0 ||
        !file.commit()) {
        statusBar()->showMessage(tr("Could not save the code to %1: %2")
                                     .arg(QDir::toNativeSeparators(path), file.errorString()),
                                 10'000);
        return false;
    }
    StudioSettings::addRecentFile(*m_settings, path);
    updateRecentFilesMenu();
    setWindowFilePath(path);
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5'000);
    return true;
}

void MainWindow::openFileDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Code"), QFileInfo(StudioSettings::recentFiles(*m_settings).value(0)).path(),
        tr("Code (*.py *.js *.mjs *.java *.cpp *.cc *.cxx *.go *.R *.r);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::saveFileDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save Code As"), StudioSettings::recentFiles(*m_settings).value(0));
    if (!path.isEmpty())
        saveFileAs(path);
}

void MainWindow::updateRecentFilesMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList files = StudioSettings::recentFiles(*m_settings);
    for (const QString &path : files) {
        QAction *action = m_recentMenu->addAction(QFileInfo(path).fileName());
        action->setToolTip(path);
        action->setStatusTip(path);
        connect(action, &QAction::triggered, this, [this, path] { openFile(path); });
    }
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear List"), this, [this] {
            m_settings->remove(QLatin1String(StudioSettings::key::RecentFiles));
            updateRecentFilesMenu();
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::showPreferences()
{
    // The docks write their values as they change; the dialog starts from those.
    savePoolSettings();
    m_settings->sync();
    PreferencesDialog dialog(m_settings, this);
    connect(&dialog, &PreferencesDialog::settingsApplied, this, [this] {
        restoreLimitsAndPool();
        applyLimitsToNotebook();
        applyPoolSettings();
    });
    dialog.exec();
}

void MainWindow::showHelp()
{
    const QString engine =
        m_engineReachable ? tr("%1 at %2").arg(m_engineVersion, endpoint()) : tr("not connected");
    AboutDialog dialog(shortcutActions(), engine, this);
    dialog.setWindowTitle(tr("Sandbox Studio Help"));
    dialog.showPage(AboutDialog::Page::Help);
    dialog.exec();
}

void MainWindow::showSetupCheck()
{
    auto *dialog = new FirstRunDialog(m_engine, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &FirstRunDialog::buildFinished, this, [this](bool) { checkEngine(); });
    dialog->show();
    dialog->startDetection();
}

// ---------------------------------------------------------------------------------------
// MCP: the endpoint hosted by the window, its activity, Claude Desktop

void MainWindow::createMcp()
{
    m_mcpHost = new McpHost(m_engine, m_settings, this);
    m_mcpHost->setDialogParent(this);
    // Agent runs get the limits the person set for their own runs.
    m_mcpHost->server()->setDefaultLimits(m_limits->limits());
    connect(m_limits, &LimitsPanel::limitsChanged, this,
            [this] { m_mcpHost->server()->setDefaultLimits(m_limits->limits()); });

    m_mcpPanel = new McpPanel(m_mcpHost, this);
    m_mcpDock = new QDockWidget(tr("MCP Server"), this);
    m_mcpDock->setObjectName(u"mcpDock"_s);
    m_mcpDock->setAllowedAreas(Qt::AllDockWidgetAreas);
    m_mcpDock->setWidget(m_mcpPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_mcpDock);
    tabifyDockWidget(m_poolDock, m_mcpDock);

    m_mcpActivity = new McpActivityFeed(m_mcpHost, this);
    m_mcpActivityDock = new QDockWidget(tr("MCP Activity"), this);
    m_mcpActivityDock->setObjectName(u"mcpActivityDock"_s);
    m_mcpActivityDock->setAllowedAreas(Qt::AllDockWidgetAreas);
    m_mcpActivityDock->setWidget(m_mcpActivity);
    addDockWidget(Qt::RightDockWidgetArea, m_mcpActivityDock);
    tabifyDockWidget(m_mcpDock, m_mcpActivityDock);
    m_artifactsDock->raise();
    connect(m_mcpActivity, &McpActivityFeed::openInEditorRequested, this,
            &MainWindow::openInEditor);
    // An agent's call that waits for approval or starts shows itself.
    connect(m_mcpActivity, &McpActivityFeed::callAdded, m_mcpActivityDock, [this] {
        if (!m_mcpActivityDock->isHidden())
            m_mcpActivityDock->raise();
    });

    m_configureClaudeAction = new QAction(tr("Configure &Claude Desktop…"), this);
    m_configureClaudeAction->setObjectName(u"configureClaudeAction"_s);
    m_configureClaudeAction->setStatusTip(
        tr("Add Sandbox Studio to the MCP servers Claude Desktop starts"));
    connect(m_configureClaudeAction, &QAction::triggered, this, [this] {
        auto *dialog = new ClaudeDesktopDialog(this);
        dialog->show();
    });
    connect(m_mcpPanel, &McpPanel::configureClaudeDesktopRequested, m_configureClaudeAction,
            &QAction::trigger);

    auto *menu = new QMenu(tr("&MCP"), this);
    menu->setObjectName(u"mcpMenu"_s);
    menu->addAction(m_configureClaudeAction);
    menu->addSeparator();
    menu->addAction(m_mcpDock->toggleViewAction());
    menu->addAction(m_mcpActivityDock->toggleViewAction());
    const QList<QAction *> menus = menuBar()->actions();
    menuBar()->insertMenu(menus.isEmpty() ? nullptr : menus.last(), menu); // before Help

    m_mcpHost->restore(); // starts the endpoint when it was on
}

void MainWindow::openInEditor(const QString &language, const QString &code, const QString &source)
{
    const auto &registry = LanguageRegistry::instance();
    const LanguageDescriptor *target = registry.find(language);
    if (!target) {
        statusBar()->showMessage(
            tr("Cannot open code of the unknown language \"%1\".").arg(language), 10'000);
        return;
    }
    const QString current = m_editor->toPlainText();
    const LanguageDescriptor *shown = registry.find(m_language);
    const bool untouched =
        current.trimmed().isEmpty() || current == code || (shown && current == shown->sampleCode);
    if (untouched) {
        replaceEditorCode(target->id, code, source);
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("Open in Editor"),
                                tr("Replace the code in the editor with the %1 code of %2?")
                                    .arg(target->displayName, source),
                                QMessageBox::NoButton, this);
    box->setObjectName(u"openInEditorQuestion"_s);
    box->setInformativeText(tr("Your code is kept: Undo (Ctrl+Z) brings it back, and a copy is "
                               "saved under %1.")
                                .arg(QDir::toNativeSeparators(
                                    QFileInfo(draftPath(m_language)).absolutePath() + u"/kept"_s)));
    QPushButton *replace = box->addButton(tr("&Replace"), QMessageBox::AcceptRole);
    replace->setObjectName(u"replaceButton"_s);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(replace);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this,
            [this, replace, language = target->id, code, source](QAbstractButton *button) {
                if (button == replace)
                    replaceEditorCode(language, code, source);
            });
    box->open(); // does not block: the window (and MCP approvals) keep running
}

void MainWindow::replaceEditorCode(const QString &language, const QString &code,
                                   const QString &source)
{
    if (isNotebookMode())
        setNotebookMode(false);
    saveDraft(); // the person's code, under its language's draft
    setLanguage(language);

    // The replayed code becomes this language's draft once edited or autosaved: keep the
    // text in the editor and the draft on disk, when they are the person's code.
    const LanguageDescriptor *descriptor = LanguageRegistry::instance().find(m_language);
    const auto worthKeeping = [&](const QString &text) {
        return !text.trimmed().isEmpty() && text != code &&
               !(descriptor && text == descriptor->sampleCode);
    };
    QStringList texts{m_editor->toPlainText()};
    QFile draft(draftPath(m_language));
    if (draft.open(QIODevice::ReadOnly))
        texts << QString::fromUtf8(draft.readAll());
    texts.removeDuplicates();
    QString kept;
    const QString keptDir = QFileInfo(draftPath(m_language)).absolutePath() + u"/kept"_s;
    const QString stamp = QDateTime::currentDateTime().toString(u"yyyyMMdd-HHmmss"_s);
    for (int i = 0; i < texts.size(); ++i) {
        if (!worthKeeping(texts.at(i)))
            continue;
        QDir().mkpath(keptDir);
        const QString path =
            keptDir + u"/%1-%2%3.txt"_s.arg(m_language, stamp, i ? u"-%1"_s.arg(i) : QString());
        QSaveFile file(path);
        if (file.open(QIODevice::WriteOnly) && file.write(texts.at(i).toUtf8()) >= 0 &&
            file.commit())
            kept = path;
    }

    // One undoable edit: Ctrl+Z brings the person's code back.
    QTextCursor cursor(m_editor->document());
    cursor.beginEditBlock();
    cursor.select(QTextCursor::Document);
    cursor.insertText(code);
    cursor.endEditBlock();
    m_editor->moveCursor(QTextCursor::Start);
    m_editor->setFocus();
    statusBar()->showMessage(kept.isEmpty() ? tr("Opened the code of %1.").arg(source)
                                            : tr("Opened the code of %1. Your code: Undo, or %2")
                                                  .arg(source, QDir::toNativeSeparators(kept)),
                             15'000);
}

void MainWindow::editPolicy()
{
    PolicyDialog dialog(m_policy, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_policy = dialog.policy();
    if (auto stored = PolicyDialog::store(m_policy); !stored)
        QMessageBox::warning(this, tr("Security Policy"), stored.error().message);
    if (m_engine)
        m_engine->setPolicy(m_policy);
    updateFindings();
}

void MainWindow::updateFindings()
{
    m_editor->setFindings(m_policy.check(m_language, m_editor->toPlainText()));
}
