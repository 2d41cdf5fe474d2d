// SPDX-License-Identifier: GPL-3.0-or-later
#include "notebookconsole.h"

#include "codeeditor.h"
#include "languages/language.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPainter>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QStyle>
#include <QTextBlock>
#include <QThread>
#include <QThreadPool>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <mutex>

using namespace Qt::StringLiterals;
using namespace sandbox;

namespace {

/// Cells that ran shorter than this get no time footer (unless something went wrong).
constexpr qint64 FooterMinimumMs = 500;

/// Sessions are closed on this pool, not the global one: cells that run for a long time
/// may hold every global thread. The application waits for it (bounded) on the way out,
/// so closing the window still removes the sandboxes.
QThreadPool *shutdownPool()
{
    static QThreadPool *pool = [] {
        auto *p = new QThreadPool;
        p->setMaxThreadCount(4);
        qAddPostRoutine([] { shutdownPool()->waitForDone(20'000); });
        return p;
    }();
    return pool;
}

/// Interrupts and closes session on a worker. A cell that ignores the interrupt is
/// stopped by killing the sandbox, so the close does not wait for the cell's deadline.
void closeInBackground(std::shared_ptr<NotebookSession> session, std::shared_ptr<Engine> engine)
{
    if (!session)
        return;
    shutdownPool()->start([session = std::move(session), engine = std::move(engine)]() mutable {
        session->interrupt();
        for (int i = 0; i < 30 && session->isBusy(); ++i)
            QThread::msleep(50);
        if (session->isBusy() && engine)
            (void)engine->runtime().kill(session->sandboxId());
        session->close();
        session.reset(); // the last reference: destroyed here, not on the GUI thread
    });
}

QIcon themedIcon(QIcon::ThemeIcon icon, QStyle::StandardPixmap fallback, const QWidget *widget)
{
    return QIcon::fromTheme(icon, widget->style()->standardIcon(fallback, nullptr, widget));
}

/// nbformat's multiline strings: lines that keep their "\n", the last one without.
QJsonArray lines(const QString &text)
{
    QJsonArray out;
    qsizetype start = 0;
    while (start < text.size()) {
        const qsizetype nl = text.indexOf(u'\n', start);
        const qsizetype end = nl < 0 ? text.size() : nl + 1;
        out.append(text.mid(start, end - start));
        start = end;
    }
    return out;
}

bool isBinaryMime(const QString &mime)
{
    return mime.startsWith(u"image/"_s) && mime != u"image/svg+xml";
}

QJsonObject mimeBundle(const QMap<QString, QByteArray> &data)
{
    QJsonObject bundle;
    for (auto it = data.cbegin(); it != data.cend(); ++it) {
        if (isBinaryMime(it.key()))
            bundle.insert(it.key(), QString::fromLatin1(it.value().toBase64()));
        else if (it.key() == u"application/json")
            bundle.insert(it.key(), QJsonDocument::fromJson(it.value()).object());
        else
            bundle.insert(it.key(), lines(QString::fromUtf8(it.value())));
    }
    return bundle;
}

struct Kernelspec
{
    QString name;
    QString displayName;
    QString language;
};

/// The kernelspecs Jupyter's own kernels use, so the file opens with them.
Kernelspec kernelspecFor(const QString &language)
{
    if (language == u"python")
        return {u"python3"_s, u"Python 3 (ipykernel)"_s, u"python"_s};
    if (language == u"javascript")
        return {u"javascript"_s, u"JavaScript (Node.js)"_s, u"javascript"_s};
    if (language == u"r")
        return {u"ir"_s, u"R"_s, u"R"_s};
    const LanguageDescriptor *descriptor = LanguageRegistry::instance().find(language);
    return {language, descriptor ? descriptor->displayName : language, language};
}

QString formatSeconds(qint64 ms)
{
    if (ms < 1000)
        return NotebookConsole::tr("%1 ms").arg(ms);
    return NotebookConsole::tr("%1 s").arg(QLocale().toString(double(ms) / 1000.0, 'f', 2));
}

} // namespace

/// "● Python 3.13.5 · idle": a coloured dot and the status, right-aligned, elided from the
/// right when the row is short (the whole text is in the tooltip).
class NotebookConsole::StatusLabel final : public QWidget
{
public:
    explicit StatusLabel(QWidget *parent)
        : QWidget(parent)
    {
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
        setAccessibleName(NotebookConsole::tr("Kernel status"));
    }

    void setStatus(const QColor &dot, const QString &text)
    {
        m_dot = dot;
        m_text = text;
        setToolTip(text);
        setAccessibleDescription(text);
        updateGeometry();
        update();
    }

    QSize sizeHint() const override
    {
        const QFontMetrics fm = fontMetrics();
        return {fm.horizontalAdvance(dot()) + fm.horizontalAdvance(m_text) + 8, fm.height() + 4};
    }
    QSize minimumSizeHint() const override { return {60, fontMetrics().height() + 4}; }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter painter(this);
        const QFontMetrics fm = fontMetrics();
        const int dotWidth = fm.horizontalAdvance(dot());
        const QString shown = fm.elidedText(m_text, Qt::ElideRight, qMax(0, width() - dotWidth));
        const int x = qMax(0, width() - dotWidth - fm.horizontalAdvance(shown));
        const QRect row(x, 0, width() - x, height());
        painter.setPen(m_dot);
        painter.drawText(row, Qt::AlignLeft | Qt::AlignVCenter, dot());
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(row.adjusted(dotWidth, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, shown);
    }

private:
    static QString dot() { return u"● "_s; }
    QColor m_dot;
    QString m_text;
};

/// Carries a cell's outputs from the worker that executes it to the console. Outputs are
/// queued under a mutex with at most one drain posted at a time, so a chatty cell becomes
/// a few GUI-thread calls. The console detaches the channel when it is done with it.
struct NotebookConsole::Channel
{
    explicit Channel(NotebookConsole *console, NotebookCell *runningCell)
        : target(console)
        , cell(runningCell)
    {}

    void push(const CellOutput &output)
    {
        std::lock_guard lock(mutex);
        if (!target)
            return;
        if (output.kind == CellOutput::Kind::Stream && !pending.isEmpty() &&
            pending.last().kind == CellOutput::Kind::Stream && pending.last().name == output.name)
            pending.last().text += output.text;
        else
            pending.append(output);
        if (!drainPosted) {
            drainPosted = true;
            QMetaObject::invokeMethod(target, &NotebookConsole::drainOutputs, Qt::QueuedConnection);
        }
    }

    QList<CellOutput> take()
    {
        std::lock_guard lock(mutex);
        drainPosted = false;
        return std::exchange(pending, {});
    }

    void detach()
    {
        std::lock_guard lock(mutex);
        target = nullptr;
        pending.clear();
    }

    std::mutex mutex;
    NotebookConsole *target;
    QList<CellOutput> pending;
    bool drainPosted = false;
    QPointer<NotebookCell> cell; // GUI thread only
};

/// Hands a started session from the worker to the console, or back to the worker to
/// close when the console gave up on it (interrupted start, widget destroyed).
struct NotebookConsole::StartSlot
{
    std::mutex mutex;
    bool abandoned = false;
    std::shared_ptr<NotebookSession> session;

    std::shared_ptr<NotebookSession> abandon()
    {
        std::lock_guard lock(mutex);
        abandoned = true;
        return std::exchange(session, nullptr);
    }
};

NotebookConsole::NotebookConsole(std::shared_ptr<sandbox::Engine> engine, QWidget *parent)
    : QWidget(parent)
    , m_engine(std::move(engine))
{
    setObjectName(u"notebookConsole"_s);
    createActions();
    createHeader();

    m_cellsWidget = new QWidget;
    m_cellsWidget->setObjectName(u"notebookCells"_s);
    m_cellsLayout = new QVBoxLayout(m_cellsWidget);
    m_cellsLayout->setContentsMargins(10, 10, 14, 10);
    m_cellsLayout->setSpacing(6);

    auto *addButton =
        new QPushButton(themedIcon(QIcon::ThemeIcon::ListAdd, QStyle::SP_FileDialogNewFolder, this),
                        tr("Add Cell"), m_cellsWidget);
    addButton->setObjectName(u"addCellButton"_s);
    addButton->setFlat(true);
    addButton->setFocusPolicy(Qt::NoFocus);
    addButton->setToolTip(tr("Add a cell at the end"));
    connect(addButton, &QPushButton::clicked, this, [this] { insertCell(-1); });
    m_cellsLayout->addWidget(addButton, 0, Qt::AlignLeft);
    m_cellsLayout->addStretch(1);

    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(u"notebookScroll"_s);
    m_scroll->setAccessibleName(tr("Notebook cells"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setWidget(m_cellsWidget);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_header);
    layout->addWidget(m_scroll, 1);

    setLanguage(u"python"_s);
    insertCell(-1);
    updateStatus();
    updateActions();
}

NotebookConsole::~NotebookConsole()
{
    if (m_channel)
        m_channel->detach();
    if (m_startSlot) {
        closeInBackground(m_startSlot->abandon(), m_engine);
        if (m_state == KernelState::Starting)
            shutdownPool()->start([token = m_startCancel]() mutable { token.cancel(); });
    }
    closeInBackground(std::exchange(m_session, nullptr), m_engine);
}

void NotebookConsole::setEngine(std::shared_ptr<sandbox::Engine> engine)
{
    if (engine == m_engine)
        return;
    if (hasSession())
        dropSession(tr("The container engine changed; a new kernel starts on the next run."),
                    false);
    m_engine = std::move(engine);
}

// ---------------------------------------------------------------------------------------
// Construction

void NotebookConsole::createActions()
{
    const auto action = [this](const QIcon &icon, const QString &text, const QString &name,
                               const QKeySequence &keys, const QString &tip) {
        auto *a = new QAction(icon, text, this);
        a->setObjectName(name);
        if (!keys.isEmpty()) {
            a->setShortcut(keys);
            a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
            a->setToolTip(u"%1 (%2)"_s.arg(tip, keys.toString(QKeySequence::NativeText)));
        } else {
            a->setToolTip(tip);
        }
        addAction(a);
        return a;
    };

    m_addAction =
        action(themedIcon(QIcon::ThemeIcon::ListAdd, QStyle::SP_FileDialogNewFolder, this),
               tr("&Add Cell"), u"notebookAddCellAction"_s,
               QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return),
               tr("Insert a cell below the current one"));
    connect(m_addAction, &QAction::triggered, this,
            [this] { insertCell(m_current ? indexOf(m_current) + 1 : -1); });

    m_runAction =
        action(themedIcon(QIcon::ThemeIcon::MediaPlaybackStart, QStyle::SP_MediaPlay, this),
               tr("&Run"), u"notebookRunAction"_s, QKeySequence(Qt::SHIFT | Qt::Key_Return),
               tr("Run the current cell and go to the next"));
    connect(m_runAction, &QAction::triggered, this,
            [this] { runCell(m_current, NotebookCell::RunMode::Advance); });

    m_runAllAction =
        action(themedIcon(QIcon::ThemeIcon::MediaSeekForward, QStyle::SP_MediaSeekForward, this),
               tr("Run A&ll"), u"notebookRunAllAction"_s, {}, tr("Run all cells from the top"));
    connect(m_runAllAction, &QAction::triggered, this, &NotebookConsole::runAll);

    m_interruptAction = action(
        themedIcon(QIcon::ThemeIcon::MediaPlaybackStop, QStyle::SP_MediaStop, this),
        tr("&Interrupt"), u"notebookInterruptAction"_s, QKeySequence(Qt::CTRL | Qt::Key_Period),
        tr("Interrupt the running cell; variables stay"));
    connect(m_interruptAction, &QAction::triggered, this, &NotebookConsole::interrupt);

    m_restartAction = action(
        themedIcon(QIcon::ThemeIcon::ViewRefresh, QStyle::SP_BrowserReload, this), tr("Re&start"),
        u"notebookRestartAction"_s, {}, tr("Restart the kernel: all variables are lost"));
    connect(m_restartAction, &QAction::triggered, this, &NotebookConsole::confirmRestart);

    m_clearAction =
        action(themedIcon(QIcon::ThemeIcon::EditClear, QStyle::SP_DialogResetButton, this),
               tr("&Clear Outputs"), u"notebookClearAction"_s, QKeySequence(Qt::CTRL | Qt::Key_L),
               tr("Clear the outputs of all cells"));
    connect(m_clearAction, &QAction::triggered, this, &NotebookConsole::clearOutputs);

    m_exportAction =
        action(themedIcon(QIcon::ThemeIcon::DocumentSaveAs, QStyle::SP_DialogSaveButton, this),
               tr("&Export .ipynb…"), u"notebookExportAction"_s,
               QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
               tr("Save the notebook as a Jupyter notebook"));
    connect(m_exportAction, &QAction::triggered, this, &NotebookConsole::exportIpynb);
}

void NotebookConsole::createHeader()
{
    m_toolBar = new QToolBar(tr("Notebook"), this);
    m_toolBar->setObjectName(u"notebookToolBar"_s);
    m_toolBar->setIconSize(QSize(16, 16));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->addAction(m_runAction);
    m_toolBar->addAction(m_runAllAction);
    m_toolBar->addAction(m_interruptAction);
    m_toolBar->addAction(m_restartAction);
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_addAction);
    m_toolBar->addAction(m_clearAction);
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_exportAction);

    // The kernel's status takes the rest of the row and shortens itself when it must.
    m_status = new StatusLabel(this);
    m_status->setObjectName(u"kernelStatus"_s);
    m_busy = new QProgressBar(this);
    m_busy->setObjectName(u"kernelBusy"_s);
    m_busy->setRange(0, 0);
    m_busy->setFixedSize(60, 10);
    m_busy->setTextVisible(false);

    m_header = new QWidget(this);
    m_header->setObjectName(u"notebookHeader"_s);
    auto *header = new QHBoxLayout(m_header);
    header->setContentsMargins(0, 0, 8, 0);
    header->setSpacing(6);
    header->addWidget(m_toolBar);
    header->addWidget(m_status, 1);
    header->addWidget(m_busy);

    const auto name = [this](QAction *action, const QString &objectName) {
        if (QWidget *button = m_toolBar->widgetForAction(action))
            button->setObjectName(objectName);
    };
    name(m_runAction, u"notebookRunButton"_s);
    name(m_runAllAction, u"notebookRunAllButton"_s);
    name(m_interruptAction, u"interruptButton"_s);
    name(m_restartAction, u"restartButton"_s);
    name(m_addAction, u"addCellToolButton"_s);
    name(m_clearAction, u"clearOutputsButton"_s);
    name(m_exportAction, u"exportButton"_s);
}

// ---------------------------------------------------------------------------------------
// Language, limits, status

void NotebookConsole::setImage(const QString &image)
{
    if (image == m_image)
        return;
    m_image = image;
    if (hasSession())
        dropSession(image.isEmpty()
                        ? tr("The kernel was closed; the next run starts one on the language's "
                             "image.")
                        : tr("The kernel was closed; the next run starts one on %1.").arg(image),
                    false);
}

void NotebookConsole::setLanguage(const QString &id)
{
    const LanguageDescriptor *descriptor = LanguageRegistry::instance().find(id);
    if (!descriptor || descriptor->id == m_language)
        return;
    const QString previous = languageName();
    m_language = descriptor->id;
    for (NotebookCell *cell : std::as_const(m_cells))
        cell->setHighlighting(descriptor->highlightName);
    if (hasSession())
        dropSession(tr("The %1 kernel was closed; a %2 kernel starts on the next run.")
                        .arg(previous, descriptor->displayName),
                    false);
    else
        updateStatus();
}

void NotebookConsole::setLimits(const sandbox::Limits &limits, sandbox::NetworkMode network)
{
    m_limits = limits;
    m_network = network;
}

bool NotebookConsole::hasSession() const
{
    return m_session || m_state == KernelState::Starting;
}

QString NotebookConsole::languageName() const
{
    const LanguageDescriptor *descriptor = LanguageRegistry::instance().find(m_language);
    return descriptor ? descriptor->displayName : m_language;
}

QString NotebookConsole::kernelDisplay() const
{
    if (m_kernelVersion.isEmpty())
        return {};
    QString version = m_kernelVersion;
    if (version.size() > 1 && version.startsWith(u'v') && version.at(1).isDigit())
        version.remove(0, 1); // Node's "v22.12.0"
    return languageName() + u' ' + version;
}

QString NotebookConsole::statusText() const
{
    return m_statusText;
}

void NotebookConsole::setState(KernelState state)
{
    const bool changed = m_state != state;
    m_state = state;
    updateStatus();
    updateActions();
    if (changed)
        Q_EMIT kernelStateChanged(state);
}

void NotebookConsole::updateStatus()
{
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    const QString green = dark ? u"#3fb950"_s : u"#1a7f37"_s;
    const QString amber = dark ? u"#e3b341"_s : u"#bf8700"_s;
    const QString red = dark ? u"#ff7b72"_s : u"#c01c28"_s;
    const QString grey = u"#8c959f"_s;

    QString color = grey;
    QString text;
    const QString kernel = kernelDisplay().isEmpty() ? languageName() : kernelDisplay();
    switch (m_state) {
    case KernelState::None:
        if (!m_note.isEmpty()) {
            text = m_note;
            color = m_noteIsError ? red : grey;
        } else {
            text = tr("%1 · no kernel yet — it starts on the first run").arg(languageName());
        }
        break;
    case KernelState::Starting:
        text = tr("Starting %1 kernel…").arg(languageName());
        color = amber;
        break;
    case KernelState::Idle:
        text = m_note.isEmpty() ? tr("%1 · idle").arg(kernel)
                                : tr("%1 · idle · %2").arg(kernel, m_note);
        color = green;
        break;
    case KernelState::Busy:
        text = tr("%1 · busy").arg(kernel);
        color = amber;
        break;
    case KernelState::Interrupting:
        text = tr("%1 · interrupting…").arg(kernel);
        color = amber;
        break;
    case KernelState::Restarting:
        text = tr("%1 · restarting…").arg(kernel);
        color = amber;
        break;
    }
    m_statusText = text;
    m_status->setStatus(QColor::fromString(color), text);
    if (m_session)
        m_status->setToolTip(
            tr("%1\nKernel sandbox %2").arg(text, m_session->sandboxId().left(12)));
    const bool busy = m_state == KernelState::Starting || m_state == KernelState::Busy ||
                      m_state == KernelState::Interrupting || m_state == KernelState::Restarting;
    m_busy->setVisible(busy);
}

void NotebookConsole::updateActions()
{
    const bool working = m_state == KernelState::Starting || m_state == KernelState::Busy;
    m_interruptAction->setEnabled(working || !m_queue.isEmpty());
    m_restartAction->setEnabled(m_session != nullptr && m_state != KernelState::Restarting);
}

// ---------------------------------------------------------------------------------------
// Cells

int NotebookConsole::indexOf(const NotebookCell *cell) const
{
    return int(m_cells.indexOf(cell));
}

int NotebookConsole::pendingCount() const
{
    int count = m_running ? 1 : 0;
    for (const Pending &pending : m_queue)
        if (pending.cell)
            ++count;
    return count;
}

NotebookCell *NotebookConsole::insertCell(int index, const QString &source)
{
    if (index < 0 || index > m_cells.size())
        index = int(m_cells.size());
    auto *cell = new NotebookCell(m_cellsWidget);
    if (const LanguageDescriptor *descriptor = LanguageRegistry::instance().find(m_language))
        cell->setHighlighting(descriptor->highlightName);
    cell->setSource(source);
    cell->editor()->setPlaceholderText(
        tr("%1 code — Shift+Return runs it and moves on, Ctrl+Return runs it in place")
            .arg(languageName()));
    connectCell(cell);
    m_cells.insert(index, cell);
    m_cellsLayout->insertWidget(index, cell);
    setCurrentCell(cell);
    cell->editor()->setFocus();
    ensureVisible(cell);
    return cell;
}

void NotebookConsole::connectCell(NotebookCell *cell)
{
    connect(cell, &NotebookCell::runRequested, this, &NotebookConsole::runCell);
    connect(cell, &NotebookCell::focusEntered, this, &NotebookConsole::setCurrentCell);
    connect(cell, &NotebookCell::leaveRequested, this, &NotebookConsole::focusNeighbour);
    connect(cell, &NotebookCell::moveRequested, this, &NotebookConsole::moveCell);
    connect(cell, &NotebookCell::deleteRequested, this, &NotebookConsole::deleteCell);
    connect(cell, &NotebookCell::insertRequested, this, [this](NotebookCell *from, bool below) {
        insertCell(indexOf(from) + (below ? 1 : 0));
    });
}

void NotebookConsole::setCurrentCell(NotebookCell *cell)
{
    if (m_current == cell)
        return;
    if (m_current)
        m_current->setCurrent(false);
    m_current = cell;
    if (cell)
        cell->setCurrent(true);
}

void NotebookConsole::ensureVisible(NotebookCell *cell)
{
    // After the layout placed it.
    QTimer::singleShot(0, this, [this, target = QPointer<NotebookCell>(cell)] {
        if (target)
            m_scroll->ensureWidgetVisible(target->editor(), 0, 40);
    });
}

void NotebookConsole::focusNeighbour(NotebookCell *cell, int direction)
{
    NotebookCell *target = m_cells.value(indexOf(cell) + direction);
    if (!target)
        return;
    setCurrentCell(target);
    target->editor()->setFocus(Qt::OtherFocusReason);
    QTextCursor cursor = target->editor()->textCursor();
    if (direction < 0) {
        // Same column on the last line, as moving within one editor would.
        const int column = cell->editor()->textCursor().positionInBlock();
        cursor.movePosition(QTextCursor::End);
        cursor.movePosition(QTextCursor::StartOfBlock);
        cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor,
                            qMin(column, cursor.block().length() - 1));
    } else {
        const int column = cell->editor()->textCursor().positionInBlock();
        cursor.movePosition(QTextCursor::Start);
        cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor,
                            qMin(column, cursor.block().length() - 1));
    }
    target->editor()->setTextCursor(cursor);
    ensureVisible(target);
}

void NotebookConsole::moveCell(NotebookCell *cell, int delta)
{
    const int from = indexOf(cell);
    const int to = from + delta;
    if (from < 0 || to < 0 || to >= m_cells.size())
        return;
    m_cells.move(from, to);
    m_cellsLayout->removeWidget(cell);
    m_cellsLayout->insertWidget(to, cell);
    cell->editor()->setFocus();
    ensureVisible(cell);
}

void NotebookConsole::deleteCell(NotebookCell *cell)
{
    const int index = indexOf(cell);
    if (index < 0 || cell->state() != NotebookCell::State::Idle)
        return;
    if (m_cells.size() == 1) {
        cell->setSource({});
        cell->clearOutputs();
        cell->setExecutionCount(0);
        return;
    }
    m_cells.removeAt(index);
    if (m_current == cell)
        m_current = nullptr;
    cell->deleteLater();
    cell->hide();
    NotebookCell *next = m_cells.value(qMin(index, int(m_cells.size()) - 1));
    setCurrentCell(next);
    next->editor()->setFocus();
    ensureVisible(next);
}

void NotebookConsole::clearOutputs()
{
    for (NotebookCell *cell : std::as_const(m_cells)) {
        if (cell->state() != NotebookCell::State::Idle)
            continue; // what a running cell prints still belongs to it
        cell->clearOutputs();
        cell->setExecutionCount(0);
    }
}

// ---------------------------------------------------------------------------------------
// Running

void NotebookConsole::runCell(NotebookCell *cell, NotebookCell::RunMode mode)
{
    if (!cell)
        cell = m_current;
    if (!cell || indexOf(cell) < 0)
        return;

    switch (mode) {
    case NotebookCell::RunMode::InPlace:
        break;
    case NotebookCell::RunMode::Advance:
        if (NotebookCell *next = m_cells.value(indexOf(cell) + 1)) {
            setCurrentCell(next);
            next->editor()->setFocus();
            ensureVisible(next);
        } else {
            insertCell(-1);
        }
        break;
    case NotebookCell::RunMode::InsertBelow:
        insertCell(indexOf(cell) + 1);
        break;
    }

    if (cell->state() != NotebookCell::State::Idle || cell->source().trimmed().isEmpty())
        return;
    cell->setState(NotebookCell::State::Queued);
    m_queue.append(Pending{cell, cell->source()});
    updateActions();
    pump();
}

void NotebookConsole::runAll()
{
    for (NotebookCell *cell : std::as_const(m_cells))
        runCell(cell, NotebookCell::RunMode::InPlace);
}

void NotebookConsole::pump()
{
    while (!m_queue.isEmpty() && !m_queue.first().cell)
        m_queue.removeFirst();
    if (m_running || m_state == KernelState::Starting || m_state == KernelState::Restarting)
        return;
    if (m_restartPending && m_session) {
        doRestart();
        return;
    }
    if (m_queue.isEmpty())
        return;
    if (!m_session) {
        startSession();
        return;
    }
    executeNext(m_queue.takeFirst());
}

void NotebookConsole::startSession()
{
    NotebookCell *first = m_queue.first().cell;
    first->clearOutputs();
    if (!m_engine) {
        first->showNotice(tr("No container engine is available: start Docker and press Retry."),
                          true);
        failQueue();
        Q_EMIT cellFinished(first, false);
        return;
    }
    first->showNotice(tr("Starting %1 kernel…").arg(languageName()));
    m_note.clear();
    m_noteIsError = false;
    m_startCancel = CancelToken();
    m_startSlot = std::make_shared<StartSlot>();
    setState(KernelState::Starting);

    auto future = QtConcurrent::run([runtime = m_engine->runtimePtr(), language = m_language,
                                     limits = m_limits, network = m_network, cancel = m_startCancel,
                                     slot = m_startSlot, image = m_image]() -> Result<void> {
        auto started = NotebookSession::start(runtime, language, limits, network, cancel, image);
        if (!started)
            return std::unexpected(started.error());
        std::shared_ptr<NotebookSession> orphan;
        {
            std::lock_guard lock(slot->mutex);
            if (slot->abandoned)
                orphan = std::move(*started);
            else
                slot->session = std::move(*started);
        }
        if (orphan) {
            orphan->close(); // here, on the worker
            return fail(ErrorCode::Cancelled, tr("The kernel start was cancelled."));
        }
        return {};
    });
    future.then(this,
                [this, generation = m_generation, slot = m_startSlot](const Result<void> &result) {
                    onSessionStarted(generation, slot, result);
                });
}

void NotebookConsole::onSessionStarted(quint64 generation, const std::shared_ptr<StartSlot> &slot,
                                       const sandbox::Result<void> &result)
{
    if (generation != m_generation || slot != m_startSlot)
        return; // dropped meanwhile; the slot was abandoned and the worker closed it
    m_startSlot.reset();
    std::shared_ptr<NotebookSession> session;
    bool abandoned = false;
    {
        std::lock_guard lock(slot->mutex);
        abandoned = slot->abandoned;
        session = std::exchange(slot->session, nullptr);
    }
    NotebookCell *first = m_queue.isEmpty() ? nullptr : m_queue.first().cell.data();
    if (first)
        first->clearNotices();

    if (abandoned || !result) {
        closeInBackground(std::move(session), m_engine);
        const bool cancelled =
            abandoned || (!result && result.error().code == ErrorCode::Cancelled);
        if (first) {
            if (cancelled)
                first->showNotice(tr("The kernel start was cancelled."));
            else
                first->showNotice(tr("Could not start the %1 kernel: %2")
                                      .arg(languageName(), result.error().message),
                                  true, result.error().detail);
        }
        m_note = cancelled ? tr("Kernel start cancelled — it starts again on the next run")
                           : tr("The %1 kernel could not start").arg(languageName());
        m_noteIsError = !cancelled;
        failQueue();
        setState(KernelState::None);
        if (first)
            Q_EMIT cellFinished(first, false);
        return;
    }

    m_session = std::move(session);
    m_kernelVersion = m_session->kernelVersion();
    setState(KernelState::Idle);
    pump();
}

void NotebookConsole::executeNext(const Pending &next)
{
    NotebookCell *cell = next.cell;
    m_running = cell;
    cell->clearOutputs();
    cell->setState(NotebookCell::State::Running);
    m_note.clear();
    m_channel = std::make_shared<Channel>(this, cell);
    // 0 would be "the session's", which is 0 too: the default then.
    m_cellTimeoutMs = m_limits.timeoutMs > 0 ? m_limits.timeoutMs : Limits{}.timeoutMs;
    m_cellTimer.start();
    setState(KernelState::Busy);

    CellObserver observer;
    observer.onOutput = [channel = m_channel](const CellOutput &output) { channel->push(output); };
    // The window's active policy (kept in the engine) checks every cell: block stops it
    // with an error output, ask asks the person here, warn shows the findings.
    if (m_engine)
        observer.policy = m_engine->policy();
    observer.onPolicyAsk = [console = QPointer<NotebookConsole>(this)](
                               const QList<PolicyFinding> &findings) {
        bool approved = false;
        if (!console)
            return false;
        QMetaObject::invokeMethod(
            console.data(),
            [console, findings] {
                QStringList lines;
                for (const PolicyFinding &f : findings)
                    lines << NotebookConsole::tr("line %1: %2 (%3)")
                                 .arg(f.line)
                                 .arg(f.message, f.rule);
                return QMessageBox::question(
                           console.data(), NotebookConsole::tr("Run This Cell?"),
                           NotebookConsole::tr("The security policy asks before running this "
                                               "cell:\n\n%1\n\nRun it in the sandbox anyway?")
                               .arg(lines.join(u'\n')),
                           QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
            },
            Qt::BlockingQueuedConnection, &approved);
        return approved;
    };
    // The lambda holds the session: if the console goes away mid-cell, the session is
    // closed by whichever worker lets go of it last, never by the GUI thread.
    auto future = QtConcurrent::run(
        [session = m_session, code = next.code, observer = std::move(observer),
         timeout = m_cellTimeoutMs] { return session->execute(code, observer, timeout); });
    future.then(this, [this, channel = m_channel](const Result<CellResult> &result) {
        onExecuted(channel, result);
    });
}

void NotebookConsole::drainOutputs()
{
    if (!m_channel)
        return;
    const QList<CellOutput> outputs = m_channel->take();
    if (NotebookCell *cell = m_channel->cell)
        for (const CellOutput &output : outputs)
            showOutput(cell, output);
}

void NotebookConsole::showOutput(NotebookCell *cell, const sandbox::CellOutput &output)
{
    cell->appendOutput(output);
    if (output.kind != CellOutput::Kind::DisplayData &&
        output.kind != CellOutput::Kind::ExecuteResult)
        return;
    // The cell's order of preference.
    for (const QString &mime : {u"image/png"_s, u"image/jpeg"_s, u"image/gif"_s}) {
        if (output.data.contains(mime)) {
            Q_EMIT imageDisplayed(cell, mime, output.data.value(mime));
            return;
        }
    }
}

void NotebookConsole::onExecuted(const std::shared_ptr<Channel> &channel,
                                 const sandbox::Result<sandbox::CellResult> &result)
{
    if (channel != m_channel)
        return;
    drainOutputs();
    m_channel->detach();
    m_channel.reset();
    NotebookCell *cell = channel->cell;
    m_running = nullptr;
    const qint64 elapsed = m_cellTimer.elapsed();

    if (!result) {
        const Error &error = result.error();
        if (cell) {
            cell->setState(NotebookCell::State::Idle);
            cell->showNotice(tr("The cell could not run: %1").arg(error.message), true,
                             error.detail);
        }
        failQueue();
        dropSession(
            tr("The kernel was lost (%1) — a new one starts on the next run").arg(error.message),
            true);
        if (cell)
            Q_EMIT cellFinished(cell, false);
        pump();
        return;
    }

    const CellResult &outcome = *result;
    if (cell) {
        // Outputs the observer did not see (the engine's note after a forced restart).
        for (qsizetype i = cell->outputs().size(); i < outcome.outputs.size(); ++i)
            showOutput(cell, outcome.outputs.at(i));
        cell->setExecutionCount(outcome.executionCount);
        cell->setState(NotebookCell::State::Idle);
        // The time when it is worth a glance; what went wrong always.
        const qint64 duration = outcome.durationMs > 0 ? outcome.durationMs : elapsed;
        QStringList footer;
        if (duration >= FooterMinimumMs || !outcome.ok())
            footer << formatSeconds(duration);
        if (outcome.timedOut)
            footer.prepend(tr("stopped at the %1 time limit (Limits ▸ Time)")
                               .arg(formatSeconds(m_cellTimeoutMs)));
        else if (outcome.interrupted)
            footer.prepend(tr("interrupted"));
        if (outcome.kernelRestarted)
            footer.prepend(tr("kernel restarted — variables were lost"));
        cell->setFooter(footer.join(u" · "_s), !outcome.ok());
        if (!outcome.policyBlocked && !outcome.policyFindings.isEmpty()) {
            QStringList lines;
            for (const PolicyFinding &f : outcome.policyFindings)
                lines << tr("line %1: %2 (%3, %4)").arg(f.line).arg(f.message, f.rule, f.severity);
            cell->showNotice(tr("Security policy: %1").arg(lines.join(u"; "_s)));
        }
    }
    const bool ok = outcome.ok();
    if (!ok)
        failQueue(); // as Jupyter: the cells after a failed one do not run
    if (outcome.kernelRestarted) {
        m_kernelVersion = m_session ? m_session->kernelVersion() : m_kernelVersion;
        m_note = tr("the kernel was restarted");
    }
    setState(KernelState::Idle);
    if (cell)
        Q_EMIT cellFinished(cell, ok);
    pump();
}

void NotebookConsole::failQueue()
{
    for (const Pending &pending : std::as_const(m_queue))
        if (pending.cell)
            pending.cell->setState(NotebookCell::State::Idle);
    m_queue.clear();
    updateActions();
}

void NotebookConsole::interrupt()
{
    if (m_state == KernelState::Starting) {
        // The start finishes as cancelled; that reports in the first queued cell.
        if (m_startSlot) {
            closeInBackground(m_startSlot->abandon(), m_engine);
            shutdownPool()->start([token = m_startCancel]() mutable { token.cancel(); });
        }
        return;
    }
    failQueue();
    switch (m_state) {
    case KernelState::Busy:
    case KernelState::Interrupting: {
        if (!m_session)
            break;
        const bool busy = m_session->isBusy();
        m_session->interrupt();
        setState(KernelState::Interrupting);
        if (!busy) {
            // The worker had not begun the cell yet: ask again once it has.
            QTimer::singleShot(300, this, [this, cell = m_running] {
                if (m_running == cell && m_state == KernelState::Interrupting && m_session)
                    m_session->interrupt();
            });
        }
        break;
    }
    default:
        break;
    }
}

void NotebookConsole::confirmRestart()
{
    if (!m_session)
        return;
    const auto answer = QMessageBox::question(
        this, tr("Restart Kernel"),
        tr("Restart the %1 kernel? All variables and imports are lost.").arg(languageName()),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer == QMessageBox::Yes)
        restartKernel();
}

void NotebookConsole::restartKernel()
{
    if (!m_session)
        return; // nothing to restart; a starting kernel is fresh anyway
    failQueue();
    m_restartPending = true;
    if (m_running) {
        m_session->interrupt(); // the restart follows when the cell has stopped
        setState(KernelState::Interrupting);
        return;
    }
    pump();
}

void NotebookConsole::doRestart()
{
    m_restartPending = false;
    setState(KernelState::Restarting);
    auto future = QtConcurrent::run([session = m_session] { return session->restart(); });
    future.then(this, [this, generation = m_generation](const Result<void> &result) {
        if (generation != m_generation)
            return;
        if (!result) {
            dropSession(tr("The kernel could not be restarted: %1").arg(result.error().message),
                        true);
            return;
        }
        m_kernelVersion = m_session->kernelVersion();
        m_note = tr("restarted");
        setState(KernelState::Idle);
        pump();
    });
}

void NotebookConsole::shutdownKernel()
{
    if (hasSession())
        dropSession(
            tr("%1 · kernel shut down — a new one starts on the next run").arg(languageName()),
            false);
}

void NotebookConsole::dropSession(const QString &note, bool error)
{
    ++m_generation;
    for (const Pending &pending : std::as_const(m_queue))
        if (pending.cell)
            pending.cell->clearNotices(); // "Starting … kernel"
    failQueue();
    m_restartPending = false;
    if (m_channel) {
        m_channel->detach();
        m_channel.reset();
    }
    if (m_running) {
        m_running->setState(NotebookCell::State::Idle);
        m_running->setFooter(tr("stopped — the kernel was closed"), true);
        m_running = nullptr;
    }
    if (m_startSlot) {
        closeInBackground(m_startSlot->abandon(), m_engine);
        shutdownPool()->start([token = m_startCancel]() mutable { token.cancel(); });
        m_startSlot.reset();
    }
    closeInBackground(std::exchange(m_session, nullptr), m_engine);
    m_kernelVersion.clear();
    m_note = note;
    m_noteIsError = error;
    setState(KernelState::None);
}

// ---------------------------------------------------------------------------------------
// Export

QJsonObject NotebookConsole::toIpynb() const
{
    QJsonArray cells;
    for (const NotebookCell *cell : m_cells) {
        const QJsonValue count =
            cell->executionCount() > 0 ? QJsonValue(cell->executionCount()) : QJsonValue();
        QJsonArray outputs;
        for (const CellOutput &output : cell->outputs()) {
            QJsonObject o;
            switch (output.kind) {
            case CellOutput::Kind::Stream:
                o.insert(u"output_type"_s, u"stream"_s);
                o.insert(u"name"_s, output.name.isEmpty() ? u"stdout"_s : output.name);
                o.insert(u"text"_s, lines(output.text));
                break;
            case CellOutput::Kind::ExecuteResult:
                o.insert(u"output_type"_s, u"execute_result"_s);
                o.insert(u"execution_count"_s, count);
                o.insert(u"data"_s, mimeBundle(output.data));
                o.insert(u"metadata"_s, QJsonObject());
                break;
            case CellOutput::Kind::DisplayData:
                o.insert(u"output_type"_s, u"display_data"_s);
                o.insert(u"data"_s, mimeBundle(output.data));
                o.insert(u"metadata"_s, QJsonObject());
                break;
            case CellOutput::Kind::Error:
                o.insert(u"output_type"_s, u"error"_s);
                o.insert(u"ename"_s, output.ename);
                o.insert(u"evalue"_s, output.evalue);
                o.insert(u"traceback"_s, QJsonArray::fromStringList(output.traceback));
                break;
            }
            outputs.append(o);
        }
        cells.append(QJsonObject{
            {u"cell_type"_s, u"code"_s},
            {u"id"_s, cell->cellId()},
            {u"metadata"_s, QJsonObject()},
            {u"source"_s, lines(cell->source())},
            {u"execution_count"_s, count},
            {u"outputs"_s, outputs},
        });
    }

    const Kernelspec spec = kernelspecFor(m_language);
    QJsonObject languageInfo{{u"name"_s, spec.language.toLower()}};
    if (!m_kernelVersion.isEmpty())
        languageInfo.insert(u"version"_s, m_kernelVersion);
    return QJsonObject{
        {u"nbformat"_s, 4},
        {u"nbformat_minor"_s, 5},
        {u"metadata"_s,
         QJsonObject{
             {u"kernelspec"_s, QJsonObject{{u"name"_s, spec.name},
                                           {u"display_name"_s, spec.displayName},
                                           {u"language"_s, spec.language}}},
             {u"language_info"_s, languageInfo},
         }},
        {u"cells"_s, cells},
    };
}

bool NotebookConsole::saveIpynb(const QString &path, QString *error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(QJsonDocument(toIpynb()).toJson(QJsonDocument::Indented)) < 0 ||
        !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void NotebookConsole::exportIpynb()
{
    if (m_exportPath.isEmpty())
        m_exportPath = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) +
                       u"/notebook.ipynb"_s;
    QString path = QFileDialog::getSaveFileName(this, tr("Export Notebook"), m_exportPath,
                                                tr("Jupyter notebook (*.ipynb)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += u".ipynb"_s;
    QString error;
    if (!saveIpynb(path, &error)) {
        QMessageBox::warning(
            this, tr("Export Notebook"),
            tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), error));
        return;
    }
    m_exportPath = path;
}
