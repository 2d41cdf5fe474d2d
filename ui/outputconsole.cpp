// SPDX-License-Identifier: GPL-3.0-or-later
#include "outputconsole.h"

#include "artifactactions.h"

#include <QAbstractTextDocumentLayout>
#include <QContextMenuEvent>
#include <QFontDatabase>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QtMath>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

constexpr int FlushIntervalMs = 30;
constexpr int PartialLineDelayMs = 250;
constexpr qsizetype MinimumCapacity = 10'000;
constexpr int MinimumImageHeight = 120;
constexpr auto OpenScheme = "artifact-open:"_L1;
constexpr auto SaveScheme = "artifact-save:"_L1;

int artifactIdOf(const QTextFormat &format)
{
    return format.property(OutputConsole::ArtifactProperty).toInt();
}

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

    // Inline images fit the viewport's height too: relayout them once a resize settles.
    m_relayoutTimer.setSingleShot(true);
    m_relayoutTimer.setInterval(50);
    connect(&m_relayoutTimer, &QTimer::timeout, this, &OutputConsole::relayoutImages);
    viewport()->setMouseTracking(true);

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
    const QPoint pos = viewport()->mapFrom(this, event->pos());
    if (const int id = artifactIdAt(pos)) {
        const Shown &shown = m_artifacts[id];
        const QString name = shown.artifact.name;
        const bool image = shown.isImage();
        QAction *first = menu->actions().value(0);
        QList<QAction *> actions;
        if (image) {
            actions << new QAction(tr("&View Full Size"), menu);
            connect(actions.last(), &QAction::triggered, this,
                    [this, id] { activateLink(OpenScheme + QString::number(id)); });
            actions << new QAction(QIcon::fromTheme(QIcon::ThemeIcon::DocumentSaveAs),
                                   tr("&Save Image As…"), menu);
            connect(actions.last(), &QAction::triggered, this,
                    [this, id] { activateLink(SaveScheme + QString::number(id)); });
            actions << new QAction(QIcon::fromTheme(QIcon::ThemeIcon::EditCopy), tr("Copy &Image"),
                                   menu);
            connect(actions.last(), &QAction::triggered, this, [this, id] {
                if (const auto it = m_artifacts.constFind(id); it != m_artifacts.constEnd())
                    ArtifactActions::copyImage(
                        ArtifactActions::decode(it->artifact.data, it->artifact.mimeType));
            });
        } else {
            actions << new QAction(QIcon::fromTheme(QIcon::ThemeIcon::DocumentOpen),
                                   tr("&Open %1").arg(ArtifactActions::fileName(name)), menu);
            connect(actions.last(), &QAction::triggered, this,
                    [this, id] { activateLink(OpenScheme + QString::number(id)); });
            actions << new QAction(QIcon::fromTheme(QIcon::ThemeIcon::DocumentSaveAs),
                                   tr("&Save %1 As…").arg(ArtifactActions::fileName(name)), menu);
            connect(actions.last(), &QAction::triggered, this,
                    [this, id] { activateLink(SaveScheme + QString::number(id)); });
        }
        menu->insertActions(first, actions);
        menu->insertSeparator(first);
    }
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
    case Kind::Artifact:
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

    if (result.policyBlocked) {
        // Nothing ran: say why, and stop (no exit status, no limits to report).
        releasePartialLines(true);
        QTextCharFormat blocked = formatFor(Kind::Summary);
        blocked.setForeground(m_stderrColor);
        QString line = u"✘ "_s + tr("not run: %1").arg(result.policyReason) + u'\n';
        if (m_column != 0)
            line.prepend(u'\n');
        enqueue(Kind::Summary, blocked, std::move(line));
        flush();
        return;
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
        appendArtifact(artifact);
    if (result.artifactsTruncated)
        appendLine(Kind::Error, tr("Artifact limit reached: not every file the program wrote "
                                   "was brought back (Limits: number and total size)."));
    for (const auto &refused : result.refusedPaths)
        appendLine(Kind::Stderr, tr("refused: %1").arg(refused));
    for (const auto &note : result.notes)
        if (note.startsWith(u"processes the program left"_s))
            appendStatus(note);
    // The limits the run had, the ones it reached marked.
    const auto &l = result.appliedLimits;
    auto limit = [&](const QString &key, const QString &text) {
        return result.limitsHit.contains(key) ? u"▲ "_s + text : text;
    };
    const QStringList limits{
        limit(u"memory"_s, tr("memory %1 MiB").arg(l.memoryBytes >> 20)),
        tr("%1 CPU").arg(double(l.nanoCpus) / 1e9),
        limit(u"pids"_s, tr("%1 processes").arg(l.pids)),
        limit(u"timeout"_s, tr("time %1 s").arg(double(l.timeoutMs) / 1000)),
        limit(u"output"_s, tr("output %1 KiB").arg(l.outputBytes >> 10)),
        limit(u"work_dir"_s, tr("work dir %1 MiB").arg(l.workDirBytes >> 20)),
        limit(u"artifacts"_s,
              tr("artifacts %1 / %2 MiB").arg(l.artifactCount).arg(l.artifactBytes >> 20)),
        result.appliedNetwork == sandbox::NetworkMode::None ? tr("network off") : tr("network on")};
    appendStatus(tr("limits: %1%2")
                     .arg(limits.join(u" · "_s),
                          result.limitsHit.isEmpty()
                              ? QString()
                              : tr(" (▲ reached: %1)").arg(result.limitsHit.join(u", "_s))));
    flush();
}

void OutputConsole::appendArtifact(const sandbox::Artifact &artifact)
{
    releasePartialLines(true);
    if (m_column != 0)
        enqueue(Kind::Status, formatFor(Kind::Status), u"\n"_s);
    const int id = m_nextArtifactId++;
    QImage decoded;
    if (ArtifactActions::isImage(artifact.mimeType))
        decoded = ArtifactActions::decode(artifact.data, artifact.mimeType);
    const bool image = !decoded.isNull();
    m_artifacts.insert(id, Shown{artifact, image ? decoded.deviceIndependentSize() : QSizeF()});

    QTextCharFormat caption = formatFor(Kind::Artifact);
    caption.setProperty(ArtifactProperty, id);
    caption.setForeground(m_statusColor);
    QString text = ArtifactActions::describe(sanitize(artifact.name, nullptr),
                                             sanitize(artifact.mimeType, nullptr), artifact.size());
    if (image) {
        enqueue(Kind::Artifact, caption,
                text + u" · "_s + tr("%1 × %2").arg(decoded.width()).arg(decoded.height()) + u'\n');
        QTextCharFormat object = caption;
        object.setObjectType(ImageObjectType);
        object.setToolTip(tr("Click to view full size; right-click to save or copy"));
        enqueue(Kind::Artifact, object, QString(QChar::ObjectReplacementCharacter) + u'\n');
        return;
    }
    enqueue(Kind::Artifact, caption, text + u"   "_s);
    QTextCharFormat link = caption;
    link.setForeground(palette().color(QPalette::Link));
    link.setFontUnderline(true);
    link.setAnchor(true);
    link.setAnchorHref(OpenScheme + QString::number(id));
    enqueue(Kind::Artifact, link, tr("Open"));
    enqueue(Kind::Artifact, caption, u"  "_s);
    link.setAnchorHref(SaveScheme + QString::number(id));
    enqueue(Kind::Artifact, link, tr("Save As…"));
    enqueue(Kind::Artifact, caption, u"\n"_s);
}

QSizeF OutputConsole::displaySize(const QImage &image) const
{
    return displaySize(image.deviceIndependentSize());
}

QSizeF OutputConsole::displaySize(const QSizeF &natural) const
{
    if (natural.isEmpty())
        return {1, 1};
    // The line's width (the layout keeps the document margin and the cursor's width free),
    // and the viewport's height less a line, so one image is always seen whole.
    const qreal margin = 2 * document()->documentMargin() + 4;
    const qreal width = qMax<qreal>(16, viewport()->width() - margin);
    const qreal height = qMax<qreal>(MinimumImageHeight,
                                     viewport()->height() - margin - fontMetrics().lineSpacing());
    const qreal scale = std::min({1.0, width / natural.width(), height / natural.height()});
    return {qMax<qreal>(1, qFloor(natural.width() * scale)),
            qMax<qreal>(1, qFloor(natural.height() * scale))};
}

QSizeF OutputConsole::intrinsicSize(QTextDocument *, int, const QTextFormat &format)
{
    const auto it = m_artifacts.constFind(artifactIdOf(format));
    if (it == m_artifacts.constEnd())
        return {1, 1};
    return displaySize(it->imageSize);
}

void OutputConsole::drawObject(QPainter *painter, const QRectF &rect, QTextDocument *, int,
                               const QTextFormat &format)
{
    const int id = artifactIdOf(format);
    const auto it = m_artifacts.constFind(id);
    if (it == m_artifacts.constEnd() || !it->isImage())
        return;
    // Decoded and scaled once per size, for the images painted lately.
    const qreal ratio = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    const QSize pixels = (rect.size() * ratio).toSize();
    QPixmap *pixmap = m_pixmaps.object(id);
    if (!pixmap || pixmap->size() != pixels) {
        const QImage image = ArtifactActions::decode(it->artifact.data, it->artifact.mimeType);
        if (image.isNull())
            return;
        pixmap = new QPixmap(QPixmap::fromImage(
            image.size() == pixels
                ? image
                : image.scaled(pixels, Qt::IgnoreAspectRatio, Qt::SmoothTransformation)));
        pixmap->setDevicePixelRatio(ratio);
        const qint64 kib = qint64(pixels.width()) * pixels.height() * 4 / 1024;
        if (!m_pixmaps.insert(id, pixmap, qMax<qint64>(1, kib))) {
            // Larger than the whole cache: paint it this once.
            painter->drawImage(rect, image);
            return;
        }
    }
    painter->drawPixmap(rect.topLeft(), *pixmap);
}

QList<QImage> OutputConsole::inlineImages() const
{
    QList<QImage> images;
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat format = it.fragment().charFormat();
            if (format.objectType() == ImageObjectType) {
                if (const auto shown = m_artifacts.constFind(artifactIdOf(format));
                    shown != m_artifacts.constEnd())
                    images << ArtifactActions::decode(shown->artifact.data,
                                                      shown->artifact.mimeType);
            }
        }
    return images;
}

QList<sandbox::Artifact> OutputConsole::shownArtifacts() const
{
    QList<sandbox::Artifact> artifacts;
    int last = 0;
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const int id = artifactIdOf(it.fragment().charFormat());
            if (id == 0 || id == last)
                continue;
            last = id;
            if (const auto shown = m_artifacts.constFind(id); shown != m_artifacts.constEnd())
                artifacts << shown->artifact;
        }
    return artifacts;
}

int OutputConsole::artifactIdAt(const QPoint &pos) const
{
    const QTextBlock block = cursorForPosition(pos).block();
    const QRectF rect = blockBoundingGeometry(block).translated(contentOffset());
    if (!rect.contains(QPointF(pos)))
        return 0;
    for (auto it = block.begin(); !it.atEnd(); ++it)
        if (const int id = artifactIdOf(it.fragment().charFormat());
            id != 0 && m_artifacts.contains(id))
            return id;
    return 0;
}

int OutputConsole::imageIdAt(const QPoint &pos) const
{
    const QTextBlock block = cursorForPosition(pos).block();
    const auto first = block.begin();
    if (first.atEnd() || first.fragment().charFormat().objectType() != ImageObjectType)
        return 0;
    const int id = artifactIdOf(first.fragment().charFormat());
    const auto shown = m_artifacts.constFind(id);
    if (shown == m_artifacts.constEnd())
        return 0;
    const QRectF rect = blockBoundingGeometry(block).translated(contentOffset());
    const QRectF image(rect.topLeft() + QPointF(document()->documentMargin(), 0),
                       displaySize(shown->imageSize));
    return image.contains(QPointF(pos)) ? id : 0;
}

QTextBlock OutputConsole::imageBlock(int index) const
{
    int seen = 0;
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
        const auto first = block.begin();
        if (!first.atEnd() && first.fragment().charFormat().objectType() == ImageObjectType &&
            seen++ == index)
            return block;
    }
    return {};
}

QRect OutputConsole::inlineImageRect(int index) const
{
    const QTextBlock block = imageBlock(index);
    if (!block.isValid())
        return {};
    const auto shown = m_artifacts.constFind(artifactIdOf(block.begin().fragment().charFormat()));
    if (shown == m_artifacts.constEnd())
        return {};
    const QRectF rect = blockBoundingGeometry(block).translated(contentOffset());
    return QRectF(rect.topLeft() + QPointF(document()->documentMargin(), 0),
                  displaySize(shown->imageSize))
        .toRect();
}

void OutputConsole::scrollToInlineImage(int index)
{
    const QTextBlock block = imageBlock(index);
    if (block.isValid())
        verticalScrollBar()->setValue(block.firstLineNumber());
}

const sandbox::Artifact *OutputConsole::artifactAt(const QPoint &pos) const
{
    const auto it = m_artifacts.constFind(artifactIdAt(pos));
    return it == m_artifacts.constEnd() ? nullptr : &it->artifact;
}

bool OutputConsole::isImageAt(const QPoint &pos) const
{
    return imageIdAt(pos) != 0;
}

void OutputConsole::activateLink(const QString &href)
{
    const bool open = href.startsWith(OpenScheme);
    if (!open && !href.startsWith(SaveScheme))
        return;
    const int id = href.section(u':', 1).toInt();
    const auto it = m_artifacts.constFind(id);
    if (it == m_artifacts.constEnd())
        return;
    // Copies: the dialogs run event loops in which the console may be cleared.
    const Shown shown = *it;
    const auto &a = shown.artifact;
    if (shown.isImage()) {
        const QImage image = ArtifactActions::decode(a.data, a.mimeType);
        if (open)
            ArtifactActions::showImage(this, image, a.data, a.mimeType, a.name);
        else
            ArtifactActions::saveImageAs(this, image, a.data, a.mimeType, a.name);
    } else if (open) {
        ArtifactActions::openFile(this, a.name, a.data);
    } else {
        ArtifactActions::saveFileAs(this, a.name, a.data);
    }
}

void OutputConsole::mousePressEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    m_pressedLink = event->button() == Qt::LeftButton ? anchorAt(pos) : QString();
    m_pressedImage = event->button() == Qt::LeftButton ? imageIdAt(pos) : 0;
    QPlainTextEdit::mousePressEvent(event);
}

void OutputConsole::mouseMoveEvent(QMouseEvent *event)
{
    QPlainTextEdit::mouseMoveEvent(event);
    const QPoint pos = event->position().toPoint();
    const bool active = !anchorAt(pos).isEmpty() || imageIdAt(pos) != 0;
    viewport()->setCursor(active ? Qt::PointingHandCursor : Qt::IBeamCursor);
}

void OutputConsole::mouseReleaseEvent(QMouseEvent *event)
{
    QPlainTextEdit::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton || textCursor().hasSelection())
        return;
    const QPoint pos = event->position().toPoint();
    const QString link = std::exchange(m_pressedLink, {});
    const int image = std::exchange(m_pressedImage, 0);
    if (!link.isEmpty() && anchorAt(pos) == link)
        activateLink(link);
    else if (image != 0 && imageIdAt(pos) == image)
        activateLink(OpenScheme + QString::number(image));
}

void OutputConsole::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    // Images fit the height too, which the editor does not relayout for.
    if (viewport()->size() != m_laidOutSize && !m_artifacts.isEmpty())
        m_relayoutTimer.start();
}

void OutputConsole::relayoutImages()
{
    m_laidOutSize = viewport()->size();
    QTextDocument *doc = document();
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        const auto first = block.begin();
        if (!first.atEnd() && first.fragment().charFormat().objectType() == ImageObjectType)
            doc->markContentsDirty(block.position(), block.length());
    }
}

void OutputConsole::pruneArtifacts()
{
    if (m_artifacts.isEmpty())
        return;
    // Ids grow down the document and trimming cuts from the top: everything below the first
    // id still shown (or waiting to be shown) is gone.
    int first = m_nextArtifactId;
    for (QTextBlock block = document()->begin(); block.isValid() && first == m_nextArtifactId;
         block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (const int id = artifactIdOf(it.fragment().charFormat())) {
                first = id;
                break;
            }
    for (const Segment &segment : std::as_const(m_pending))
        if (const int id = artifactIdOf(segment.format))
            first = qMin(first, id);
    m_artifacts.removeIf([first](const auto &entry) { return entry.key() < first; });
    for (const int id : m_pixmaps.keys())
        if (id < first)
            m_pixmaps.remove(id);
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

    // Checked each time: clearing the console may give the document a new layout.
    QAbstractTextDocumentLayout *layout = document()->documentLayout();
    if (layout->handlerForObject(ImageObjectType) != static_cast<QTextObjectInterface *>(this))
        layout->registerHandler(ImageObjectType, this);
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
    pruneArtifacts();
}

void OutputConsole::clearOutput()
{
    m_flushTimer.stop();
    m_pending.clear();
    m_pendingChars = 0;
    m_column = 0;
    m_droppedOutput = false;
    m_artifacts.clear();
    m_pixmaps.clear();
    for (StreamState *state : {&m_stdout, &m_stderr}) {
        state->partialLine.clear();
        state->partialSince.invalidate();
    }
    clear();
}
