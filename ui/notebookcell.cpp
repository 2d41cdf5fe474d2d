// SPDX-License-Identifier: GPL-3.0-or-later
#include "notebookcell.h"

#include "celloutputs.h"
#include "codeeditor.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QPainterPath>
#include <QRandomGenerator>
#include <QScrollBar>
#include <QStyle>
#include <QTextBlock>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtMath>

using namespace Qt::StringLiterals;
using sandbox::CellOutput;

namespace {

constexpr int AccentWidth = 3;
constexpr char OutPromptProperty[] = "sandboxOutPrompt";

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t),
                            float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

/// Jupyter's prompt colours: blue for input, red for results.
QColor inPromptColor(const QPalette &palette)
{
    return isDark(palette) ? QColor(0x79, 0xb8, 0xff) : QColor(0x30, 0x3f, 0x9f);
}

QColor outPromptColor(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xff, 0x9e, 0x80) : QColor(0xd8, 0x43, 0x15);
}

QColor busyColor(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xe3, 0xb3, 0x41) : QColor(0xbf, 0x87, 0x00);
}

/// MIME types shown as images, in order of preference.
const QStringList &imageMimes()
{
    static const QStringList mimes{u"image/png"_s, u"image/jpeg"_s, u"image/gif"_s};
    return mimes;
}

} // namespace

NotebookCell::NotebookCell(QWidget *parent)
    : QFrame(parent)
    , m_id(QString::number(QRandomGenerator::global()->generate(), 16).rightJustified(8, u'0'))
    , m_editor(new CodeEditor(this))
    , m_prompt(new QLabel(this))
    , m_runButton(new QToolButton(this))
    , m_menuButton(new QToolButton(this))
    , m_outputArea(new QWidget(this))
    , m_outputLayout(new QVBoxLayout(m_outputArea))
    , m_footer(new QLabel(this))
{
    setObjectName(u"notebookCell"_s);
    setFrameShape(QFrame::NoFrame);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    setFocusProxy(m_editor);

    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_promptWidth = QFontMetrics(fixed).horizontalAdvance(u"Out[888]:"_s) + 8;

    m_prompt->setObjectName(u"cellPrompt"_s);
    m_prompt->setFont(fixed);
    m_prompt->setAlignment(Qt::AlignRight | Qt::AlignTop);
    m_prompt->setFixedWidth(m_promptWidth);

    m_runButton->setObjectName(u"cellRunButton"_s);
    m_runButton->setAutoRaise(true);
    m_runButton->setIcon(
        QIcon::fromTheme(QIcon::ThemeIcon::MediaPlaybackStart,
                         style()->standardIcon(QStyle::SP_MediaPlay, nullptr, this)));
    m_runButton->setToolTip(tr("Run this cell (Ctrl+Return)"));
    m_runButton->setAccessibleName(tr("Run cell"));
    m_runButton->setFocusPolicy(Qt::NoFocus);
    connect(m_runButton, &QToolButton::clicked, this,
            [this] { Q_EMIT runRequested(this, RunMode::InPlace); });

    m_menuButton->setObjectName(u"cellMenuButton"_s);
    m_menuButton->setAutoRaise(true);
    m_menuButton->setText(u"⋮"_s);
    m_menuButton->setToolTip(tr("Cell actions"));
    m_menuButton->setAccessibleName(tr("Cell actions"));
    m_menuButton->setFocusPolicy(Qt::NoFocus);
    connect(m_menuButton, &QToolButton::clicked, this, &NotebookCell::showMenu);

    m_editor->setObjectName(u"cellEditor"_s);
    m_editor->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_editor->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_editor->setTabChangesFocus(false);
    m_editor->setAccessibleName(tr("Cell code"));
    m_editor->installEventFilter(this);
    connect(m_editor, &QPlainTextEdit::blockCountChanged, this, &NotebookCell::updateEditorHeight);
    connect(m_editor->horizontalScrollBar(), &QScrollBar::rangeChanged, this,
            &NotebookCell::updateEditorHeight);

    auto *promptColumn = new QVBoxLayout;
    promptColumn->setContentsMargins(0, 0, 0, 0);
    promptColumn->setSpacing(0);
    promptColumn->addWidget(m_prompt);
    promptColumn->addWidget(m_runButton, 0, Qt::AlignRight);
    promptColumn->addStretch(1);

    auto *inputRow = new QHBoxLayout;
    inputRow->setContentsMargins(0, 0, 0, 0);
    inputRow->setSpacing(6);
    inputRow->addLayout(promptColumn);
    inputRow->addWidget(m_editor, 1, Qt::AlignTop);
    inputRow->addWidget(m_menuButton, 0, Qt::AlignTop);

    m_outputArea->setObjectName(u"cellOutputs"_s);
    m_outputLayout->setContentsMargins(0, 0, 0, 0);
    m_outputLayout->setSpacing(2);
    m_outputArea->hide();

    m_footer->setObjectName(u"cellFooter"_s);
    m_footer->setAlignment(Qt::AlignRight);
    QFont small = m_footer->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_footer->setFont(small);
    m_footer->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(AccentWidth + 4, 6, 6, 6);
    layout->setSpacing(4);
    layout->addLayout(inputRow);
    layout->addWidget(m_outputArea);
    layout->addWidget(m_footer);

    updatePrompt();
    updateEditorHeight();
}

QString NotebookCell::source() const
{
    return m_editor->toPlainText();
}

void NotebookCell::setSource(const QString &source)
{
    m_editor->setPlainText(source);
    updateEditorHeight();
}

void NotebookCell::setHighlighting(const QString &highlightName)
{
    m_editor->setLanguage(highlightName);
}

void NotebookCell::setExecutionCount(int count)
{
    m_executionCount = count;
    updatePrompt();
}

void NotebookCell::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    updatePrompt();
    update(); // the accent bar
}

QString NotebookCell::promptText() const
{
    if (m_state != State::Idle)
        return u"[*]"_s;
    return m_executionCount > 0 ? u"[%1]"_s.arg(m_executionCount) : u"[ ]"_s;
}

void NotebookCell::setCurrent(bool current)
{
    if (m_current == current)
        return;
    m_current = current;
    update();
}

void NotebookCell::updatePrompt()
{
    const QPalette pal = QApplication::palette(this);
    QPalette promptPalette = m_prompt->palette();
    promptPalette.setColor(QPalette::WindowText,
                           m_state == State::Idle ? inPromptColor(pal) : busyColor(pal));
    m_prompt->setPalette(promptPalette);
    m_prompt->setText(promptText());
    switch (m_state) {
    case State::Idle:
        m_prompt->setToolTip(m_executionCount > 0
                                 ? tr("Run as number %1 in this kernel").arg(m_executionCount)
                                 : tr("Not run yet"));
        break;
    case State::Queued:
        m_prompt->setToolTip(tr("Waiting for the cells before it"));
        break;
    case State::Running:
        m_prompt->setToolTip(tr("Running"));
        break;
    }

    const QString out = m_executionCount > 0 && m_state == State::Idle
                            ? u"Out[%1]:"_s.arg(m_executionCount)
                            : u"Out:"_s;
    for (QLabel *label : m_outputArea->findChildren<QLabel *>())
        if (label->property(OutPromptProperty).toBool())
            label->setText(out);
}

void NotebookCell::updateEditorHeight()
{
    const QTextDocument *document = m_editor->document();
    const auto *layout = document->documentLayout();
    const qreal lineHeight = layout->blockBoundingRect(document->firstBlock()).height();
    const qreal text =
        qMax(lineHeight, lineHeight * document->blockCount()) + 2 * document->documentMargin();
    int height = qCeil(text) + 2 * m_editor->frameWidth() + 2;
    if (m_editor->horizontalScrollBar()->maximum() > 0)
        height += m_editor->horizontalScrollBar()->sizeHint().height();
    m_editor->setFixedHeight(height);
    // Whatever a scroll left behind: the whole text fits.
    m_editor->verticalScrollBar()->setValue(0);
}

// ---------------------------------------------------------------------------------------
// Outputs

void NotebookCell::addRow(const QString &prompt, QWidget *widget, bool notice)
{
    auto *row = new QWidget(m_outputArea);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    auto *label = new QLabel(prompt, row);
    label->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    label->setAlignment(Qt::AlignRight | Qt::AlignTop);
    label->setFixedWidth(m_promptWidth);
    if (!prompt.isEmpty()) {
        label->setProperty(OutPromptProperty, true);
        QPalette pal = label->palette();
        pal.setColor(QPalette::WindowText, outPromptColor(QApplication::palette(this)));
        label->setPalette(pal);
    }
    widget->setParent(row);
    layout->addWidget(label, 0, Qt::AlignTop);
    layout->addWidget(widget, 1);
    // The editor column ends before the menu button; outputs line up with it.
    layout->addSpacing(m_menuButton->sizeHint().width() + 6);
    m_outputLayout->addWidget(row);
    m_outputArea->show();
    if (notice)
        m_notices.append(row);
}

void NotebookCell::appendOutput(const CellOutput &output)
{
    if (output.kind == CellOutput::Kind::Stream) {
        if (m_lastStream && m_lastStreamName == output.name && !m_outputs.isEmpty() &&
            m_outputs.last().kind == CellOutput::Kind::Stream) {
            QString &text = m_outputs.last().text;
            text += output.text;
            text = OutputText::bounded(text);
            m_lastStream->appendText(output.text);
            return;
        }
        m_outputs.append(output);
        auto *text = new OutputText(output.name == u"stderr" ? OutputText::Style::Stderr
                                                             : OutputText::Style::Stdout);
        text->setObjectName(output.name == u"stderr" ? u"stderrOutput"_s : u"stdoutOutput"_s);
        text->setText(output.text);
        addRow({}, text, false);
        m_lastStream = text;
        m_lastStreamName = output.name;
        return;
    }
    m_outputs.append(output);
    m_lastStream = nullptr;

    if (output.kind == CellOutput::Kind::Error) {
        addRow({}, new OutputError(output.ename, output.evalue, output.traceback), false);
        return;
    }

    const bool result = output.kind == CellOutput::Kind::ExecuteResult;
    const QString prompt = result ? (m_executionCount > 0 && m_state == State::Idle
                                         ? u"Out[%1]:"_s.arg(m_executionCount)
                                         : u"Out:"_s)
                                  : QString();
    for (const QString &mime : imageMimes()) {
        if (output.data.contains(mime)) {
            addRow(prompt, new OutputImage(output.data.value(mime), mime), false);
            return;
        }
    }
    QString text;
    if (output.data.contains(u"text/plain"_s))
        text = QString::fromUtf8(output.data.value(u"text/plain"_s));
    else if (!output.data.isEmpty())
        text = tr("[%1 output, not shown here]").arg(output.data.firstKey());
    auto *view = new OutputText(result ? OutputText::Style::Result : OutputText::Style::Stdout);
    view->setObjectName(result ? u"resultOutput"_s : u"displayOutput"_s);
    view->setText(text);
    addRow(prompt, view, false);
}

void NotebookCell::showNotice(const QString &text, bool error, const QString &detail)
{
    m_lastStream = nullptr;
    if (error) {
        auto *block =
            new OutputError(text, {}, detail.isEmpty() ? QStringList{} : QStringList{detail});
        block->setObjectName(u"noticeError"_s);
        addRow({}, block, true);
        return;
    }
    auto *view = new OutputText(OutputText::Style::Notice);
    view->setObjectName(u"notice"_s);
    QFont italic = view->view()->font();
    italic.setItalic(true);
    view->view()->setFont(italic);
    view->setText(detail.isEmpty() ? text : text + u'\n' + detail);
    addRow({}, view, true);
}

void NotebookCell::clearNotices()
{
    for (const QPointer<QWidget> &row : std::as_const(m_notices))
        delete row.data();
    m_notices.clear();
    m_lastStream = nullptr; // a notice may have come after the last stream
    if (m_outputLayout->count() == 0)
        m_outputArea->hide();
}

void NotebookCell::clearOutputs()
{
    m_outputs.clear();
    m_notices.clear();
    m_lastStream = nullptr;
    m_lastStreamName.clear();
    while (QLayoutItem *item = m_outputLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_outputArea->hide();
    setFooter({});
}

void NotebookCell::setFooter(const QString &text, bool warning)
{
    m_footer->setText(text);
    m_footer->setVisible(!text.isEmpty());
    const QPalette app = QApplication::palette(this);
    QPalette pal = m_footer->palette();
    pal.setColor(QPalette::WindowText,
                 warning ? busyColor(app)
                         : mix(app.color(QPalette::WindowText), app.color(QPalette::Window), 0.45));
    m_footer->setPalette(pal);
}

QString NotebookCell::footer() const
{
    return m_footer->text();
}

QList<QWidget *> NotebookCell::outputWidgets() const
{
    QList<QWidget *> widgets;
    for (int i = 0; i < m_outputLayout->count(); ++i) {
        QWidget *row = m_outputLayout->itemAt(i)->widget();
        if (!row || !row->layout() || row->layout()->count() < 2)
            continue;
        if (QWidget *widget = row->layout()->itemAt(1)->widget())
            widgets.append(widget);
    }
    return widgets;
}

// ---------------------------------------------------------------------------------------
// Keys, menu, painting

bool NotebookCell::handleKey(const QKeyEvent *event, bool dryRun)
{
    const auto mods = event->modifiers() & ~Qt::KeypadModifier;
    const int key = event->key();
    const bool enter = key == Qt::Key_Return || key == Qt::Key_Enter;
    const auto act = [&](auto &&action) {
        if (!dryRun)
            action();
        return true;
    };
    if (enter && mods == Qt::ShiftModifier)
        return act([this] { Q_EMIT runRequested(this, RunMode::Advance); });
    if (enter && mods == Qt::ControlModifier)
        return act([this] { Q_EMIT runRequested(this, RunMode::InPlace); });
    if (enter && mods == Qt::AltModifier)
        return act([this] { Q_EMIT runRequested(this, RunMode::InsertBelow); });
    if (enter && mods == (Qt::ControlModifier | Qt::ShiftModifier))
        return act([this] { Q_EMIT insertRequested(this, true); });
    if (mods == (Qt::ControlModifier | Qt::ShiftModifier)) {
        if (key == Qt::Key_Up)
            return act([this] { Q_EMIT moveRequested(this, -1); });
        if (key == Qt::Key_Down)
            return act([this] { Q_EMIT moveRequested(this, 1); });
        if (key == Qt::Key_D)
            return act([this] { Q_EMIT deleteRequested(this); });
    }
    if (mods == Qt::NoModifier && (key == Qt::Key_Up || key == Qt::Key_Down)) {
        const QTextCursor cursor = m_editor->textCursor();
        if (cursor.hasSelection())
            return false;
        if (key == Qt::Key_Up && cursor.blockNumber() == 0)
            return act([this] { Q_EMIT leaveRequested(this, -1); });
        if (key == Qt::Key_Down && cursor.blockNumber() == m_editor->blockCount() - 1)
            return act([this] { Q_EMIT leaveRequested(this, 1); });
    }
    return false;
}

bool NotebookCell::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_editor) {
        switch (event->type()) {
        case QEvent::ShortcutOverride:
            // Ours before the window's (the script view's Run also uses Ctrl+Return).
            if (handleKey(static_cast<QKeyEvent *>(event), true)) {
                event->accept();
                return true;
            }
            break;
        case QEvent::KeyPress:
            if (handleKey(static_cast<QKeyEvent *>(event), false))
                return true;
            break;
        case QEvent::FocusIn:
            Q_EMIT focusEntered(this);
            break;
        default:
            break;
        }
    }
    return QFrame::eventFilter(watched, event);
}

void NotebookCell::showMenu()
{
    QMenu menu(this);
    const auto add = [&](const QString &text, const QKeySequence &keys, auto &&slot) {
        QAction *action = menu.addAction(text, this, slot);
        action->setShortcut(keys);
        action->setShortcutContext(Qt::WidgetShortcut); // shown only; the editor handles keys
        return action;
    };
    add(tr("&Run Cell"), QKeySequence(Qt::CTRL | Qt::Key_Return),
        [this] { Q_EMIT runRequested(this, RunMode::InPlace); });
    add(tr("Run and Go to &Next"), QKeySequence(Qt::SHIFT | Qt::Key_Return),
        [this] { Q_EMIT runRequested(this, RunMode::Advance); });
    menu.addSeparator();
    add(tr("Insert Cell &Above"), {}, [this] { Q_EMIT insertRequested(this, false); });
    add(tr("Insert Cell &Below"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return),
        [this] { Q_EMIT insertRequested(this, true); });
    add(tr("Move &Up"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Up),
        [this] { Q_EMIT moveRequested(this, -1); });
    add(tr("Move D&own"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Down),
        [this] { Q_EMIT moveRequested(this, 1); });
    menu.addSeparator();
    QAction *clear = add(tr("&Clear Output"), {}, [this] { clearOutputs(); });
    clear->setEnabled(m_state == State::Idle && m_outputLayout->count() > 0);
    QAction *remove = add(tr("&Delete Cell"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D),
                          [this] { Q_EMIT deleteRequested(this); });
    remove->setEnabled(m_state == State::Idle);
    menu.exec(m_menuButton->mapToGlobal(QPoint(0, m_menuButton->height())));
}

void NotebookCell::paintEvent(QPaintEvent *event)
{
    QFrame::paintEvent(event);
    const QPalette pal = QApplication::palette(this);
    QColor accent;
    if (m_state == State::Running)
        accent = busyColor(pal);
    else if (m_state == State::Queued)
        accent = mix(busyColor(pal), pal.color(QPalette::Window), 0.5);
    else if (m_current)
        accent = pal.color(QPalette::Highlight);
    if (!accent.isValid())
        return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (m_current) {
        // A soft frame around the current cell, the accent bar on its left.
        QColor border = pal.color(QPalette::Highlight);
        border.setAlphaF(0.35f);
        painter.setPen(QPen(border, 1));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
    }
    painter.setPen(Qt::NoPen);
    painter.setBrush(accent);
    painter.drawRoundedRect(QRectF(0, 0, AccentWidth, height()), 1.5, 1.5);
}

void NotebookCell::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::ApplicationPaletteChange)
        updatePrompt();
    else if (event->type() == QEvent::FontChange)
        updateEditorHeight();
}
