// SPDX-License-Identifier: GPL-3.0-or-later
#include "outputconsole.h"

#include <QContextMenuEvent>
#include <QFontDatabase>
#include <QLocale>
#include <QMenu>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

using namespace Qt::StringLiterals;

namespace {

constexpr int FlushIntervalMs = 30;
constexpr int PartialLineDelayMs = 250;
constexpr qsizetype MinimumCapacity = 10'000;

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t),
                            float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

QString formatDuration(qint64 ms)
{
    if (ms < 1000)
        return OutputConsole::tr("%1 ms").arg(ms);
    if (ms < 60'000)
        return OutputConsole::tr("%1 s").arg(QLocale().toString(double(ms) / 1000.0, 'f', 2));
    return OutputConsole::tr("%1 min %2 s").arg(ms / 60'000).arg((ms % 60'000) / 1000);
}

QString formatSize(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes);
}

} // namespace

OutputConsole::OutputConsole(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setPlaceholderText(tr("Output appears here. Press Ctrl+Return to run the code."));
    setAccessibleName(tr("Output console"));

    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(FlushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, [this] { flushBatch(false); });

    updateFormats();
}

QColor OutputConsole::stdoutColor() const
{
    return palette().color(QPalette::Text);
}
QColor OutputConsole::stderrColor() const
{
    return m_stderrColor;
}
QColor OutputConsole::statusColor() const
{
    return m_statusColor;
}

void OutputConsole::setMaximumCharacters(qsizetype count)
{
    m_maxChars = qMax(count, MinimumCapacity);
    trimDocument();
}

void OutputConsole::updateFormats()
{
    const QPalette pal = palette();
    const bool dark = pal.color(QPalette::Base).lightness() < 128;
    m_stderrColor = dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xc0, 0x1c, 0x28);
    m_successColor = dark ? QColor(0x3f, 0xb9, 0x50) : QColor(0x1a, 0x7f, 0x37);
    m_statusColor = mix(pal.color(QPalette::Text), pal.color(QPalette::Base), 0.45);
}

void OutputConsole::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateFormats(); // new text only; what is shown keeps its colours
}

void OutputConsole::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu *menu = createStandardContextMenu(event->pos());
    menu->addSeparator();
    QAction *clear = menu->addAction(tr("C&lear Output"), this, &OutputConsole::clearOutput);
    clear->setEnabled(!document()->isEmpty() || !m_pending.isEmpty());
    menu->exec(event->globalPos());
    delete menu;
}

QTextCharFormat OutputConsole::formatFor(Kind kind) const
{
    QTextCharFormat format;
    format.setProperty(StreamProperty, int(kind));
    switch (kind) {
    case Kind::Stdout:
        break; // the palette's text colour, so it follows a theme change
    case Kind::Stderr:
        format.setForeground(m_stderrColor);
        break;
    case Kind::Status:
        format.setForeground(m_statusColor);
        format.setFontItalic(true);
        break;
    case Kind::Error:
        format.setForeground(m_stderrColor);
        format.setFontWeight(QFont::Bold);
        break;
    case Kind::Summary:
        format.setFontWeight(QFont::Bold);
        break;
    }
    return format;
}

void OutputConsole::beginRun(const QString &title)
{
    releasePartialLines(true);
    m_stdout = StreamState{Kind::Stdout};
    m_stderr = StreamState{Kind::Stderr};
    if (!document()->isEmpty() || !m_pending.isEmpty())
        appendLine(Kind::Status, QString()); // a blank line between runs
    QTextCharFormat header = formatFor(Kind::Status);
    header.setFontItalic(false);
    header.setFontWeight(QFont::DemiBold);
    enqueue(Kind::Status, header, u"▶ "_s + sanitize(title, nullptr) + u'\n');
}

void OutputConsole::appendStdout(QByteArrayView bytes)
{
    appendBytes(Kind::Stdout, m_stdout, bytes);
}

void OutputConsole::appendStderr(QByteArrayView bytes)
{
    appendBytes(Kind::Stderr, m_stderr, bytes);
}

void OutputConsole::appendBytes(Kind kind, StreamState &state, QByteArrayView bytes)
{
    if (bytes.isEmpty())
        return;
    QString text = state.partialLine + sanitize(state.decoder.decode(bytes), &state);
    const qsizetype lineEnd = text.lastIndexOf(u'\n') + 1;
    if (lineEnd > 0) {
        state.partialLine = text.mid(lineEnd);
        text.truncate(lineEnd);
        enqueue(kind, formatFor(kind), std::move(text));
    } else {
        state.partialLine = std::move(text);
    }
    if (!state.partialLine.isEmpty()) {
        if (!state.partialSince.isValid())
            state.partialSince.start();
        if (!m_flushTimer.isActive())
            m_flushTimer.start();
    } else {
        state.partialSince.invalidate();
    }
}

void OutputConsole::releasePartialLines(bool force)
{
    for (StreamState *state : {&m_stdout, &m_stderr}) {
        if (state->partialLine.isEmpty())
            continue;
        if (!force && state->partialSince.elapsed() < PartialLineDelayMs)
            continue;
        enqueue(state->kind, formatFor(state->kind), std::exchange(state->partialLine, {}));
        state->partialSince.invalidate();
    }
}

void OutputConsole::appendStatus(const QString &text)
{
    appendLine(Kind::Status, text);
}

void OutputConsole::appendLine(Kind kind, const QString &text)
{
    releasePartialLines(true);
    QString line = sanitize(text, nullptr);
    if (m_column != 0)
        line.prepend(u'\n');
    line.append(u'\n');
    enqueue(kind, formatFor(kind), std::move(line));
}

void OutputConsole::appendError(const sandbox::Error &error)
{
    appendLine(Kind::Error, tr("Error: %1").arg(error.message));
    if (!error.detail.isEmpty())
        appendLine(Kind::Status, error.detail);
    flush();
}

void OutputConsole::appendResult(const sandbox::RunResult &result)
{
    const auto &compile = result.compile;
    if (compile.ran) {
        if (compile.exitCode == 0)
            appendStatus(tr("compiled in %1").arg(formatDuration(compile.durationMs)));
        else
            appendStatus(tr("compilation failed (exit %1) after %2")
                             .arg(compile.exitCode)
                             .arg(formatDuration(compile.durationMs)));
    }
    for (const auto &finding : result.policyFindings) {
        const QString where = finding.line > 0 ? tr("line %1: ").arg(finding.line) : QString();
        appendStatus(
            tr("policy %1 (%2, %3): %4%5")
                .arg(finding.rule, finding.severity, finding.action, where, finding.message));
    }

    QStringList parts{tr("exit %1").arg(result.exitCode), formatDuration(result.durationMs)};
    if (result.timedOut)
        parts << tr("timed out");
    if (result.oomKilled)
        parts << tr("out of memory");
    if (result.outputTruncated)
        parts << tr("output truncated");
    if (result.artifactsTruncated)
        parts << tr("artifacts truncated");
    if (result.cancelled)
        parts << tr("stopped");
    const bool clean = result.exitCode == 0 && parts.size() == 2;
    QTextCharFormat summary = formatFor(Kind::Summary);
    summary.setForeground(clean ? m_successColor : m_stderrColor);
    releasePartialLines(true);
    QString line = (clean ? u"✔ "_s : u"✘ "_s) + parts.join(u" · "_s) + u'\n';
    if (m_column != 0)
        line.prepend(u'\n');
    enqueue(Kind::Summary, summary, std::move(line));

    for (const auto &artifact : result.artifacts)
        appendStatus(tr("artifact %1 · %2 · %3")
                         .arg(artifact.name, artifact.mimeType, formatSize(artifact.size())));
    for (const auto &refused : result.refusedPaths)
        appendStatus(tr("not brought back: %1").arg(refused));
    flush();
}

QString OutputConsole::sanitize(QString text, StreamState *state)
{
    // Colours and cursor movement from programs that think they write to a terminal.
    static const QRegularExpression ansi(
        u"\x1b\\[[0-?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)|\x1b[()][0-9A-Za-z]"_s);
    if (text.contains(u'\x1b'))
        text.remove(ansi);

    QString out;
    out.reserve(text.size() + text.size() / MaximumLineLength + 1);
    for (const QChar c : std::as_const(text)) {
        const char16_t u = c.unicode();
        const bool afterCr = state && state->lastWasCarriageReturn;
        if (state)
            state->lastWasCarriageReturn = u == u'\r';
        if (u == u'\n' || u == u'\r') {
            // "\r\n" (also across chunks) is one line break; a lone "\r" starts a new line.
            if (!(u == u'\n' && afterCr))
                out.append(u'\n');
            if (state)
                state->column = 0;
            continue;
        }
        if (u == u'\t')
            out.append(c);
        else if (u < 0x20)
            out.append(QChar(char16_t(0x2400 + u))); // Control Pictures: NUL -> ␀
        else if (u == 0x7f)
            out.append(QChar(char16_t(0x2421)));
        else
            out.append(c);
        if (state && ++state->column >= MaximumLineLength && !c.isHighSurrogate()) {
            out.append(u'\n');
            state->column = 0;
        }
    }
    return out;
}

void OutputConsole::enqueue(Kind kind, const QTextCharFormat &format, QString text)
{
    if (text.isEmpty())
        return;
    const qsizetype lastBreak = text.lastIndexOf(u'\n');
    m_column = lastBreak < 0 ? m_column + text.size() : text.size() - lastBreak - 1;
    m_pendingChars += text.size();
    if (!m_pending.isEmpty() && m_pending.last().kind == kind && m_pending.last().format == format)
        m_pending.last().text.append(text);
    else
        m_pending.append(Segment{kind, format, std::move(text)});

    // Bound what waits too: past twice the capacity, drop the oldest pending text down to
    // the capacity (amortised, so a flood of small chunks stays linear).
    const bool trim = m_pendingChars > 2 * m_maxChars;
    if (trim)
        m_droppedOutput = true;
    while (trim && m_pendingChars > m_maxChars && !m_pending.isEmpty()) {
        Segment &first = m_pending.first();
        const qsizetype excess = m_pendingChars - m_maxChars;
        if (first.text.size() <= excess) {
            m_pendingChars -= first.text.size();
            m_pending.removeFirst();
        } else {
            first.text.remove(0, excess);
            m_pendingChars -= excess;
        }
    }
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void OutputConsole::flush()
{
    flushBatch(true);
}

void OutputConsole::flushBatch(bool force)
{
    m_flushTimer.stop();
    releasePartialLines(force);
    // A partial line still waiting needs another look later.
    if (!m_stdout.partialLine.isEmpty() || !m_stderr.partialLine.isEmpty())
        m_flushTimer.start();
    if (m_pending.isEmpty())
        return;

    QScrollBar *bar = verticalScrollBar();
    // Follow the output unless the user scrolled up to read.
    const bool follow = bar->value() >= bar->maximum() - 2;

    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    cursor.beginEditBlock();
    for (const Segment &segment : std::as_const(m_pending))
        cursor.insertText(segment.text, segment.format);
    cursor.endEditBlock();
    m_pending.clear();
    m_pendingChars = 0;

    trimDocument();
    if (follow)
        bar->setValue(bar->maximum());
}

void OutputConsole::trimDocument()
{
    QTextDocument *doc = document();
    if (doc->characterCount() <= m_maxChars && !m_droppedOutput)
        return;

    QTextCursor cursor(doc);
    cursor.beginEditBlock();
    if (doc->characterCount() > m_maxChars) {
        // Cut at a line start, keeping three quarters of the capacity.
        const int cut = int(
            qMin<qsizetype>(doc->characterCount() - m_maxChars * 3 / 4, doc->characterCount() - 1));
        cursor.setPosition(cut, QTextCursor::KeepAnchor);
        if (!cursor.atBlockStart()) {
            cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
            cursor.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor);
        }
        cursor.removeSelectedText();
    }
    const QString note = tr("[earlier output removed to keep the console responsive]");
    if (doc->firstBlock().text() != note) {
        cursor.movePosition(QTextCursor::Start);
        cursor.insertText(note + u'\n', formatFor(Kind::Status));
    }
    cursor.endEditBlock();
    m_droppedOutput = false;
}

void OutputConsole::clearOutput()
{
    m_flushTimer.stop();
    m_pending.clear();
    m_pendingChars = 0;
    m_column = 0;
    m_droppedOutput = false;
    for (StreamState *state : {&m_stdout, &m_stderr}) {
        state->partialLine.clear();
        state->partialSince.invalidate();
    }
    clear();
}
